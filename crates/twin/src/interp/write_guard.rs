//! Writes a call must not make, by any means (plain C stores leave no
//! trace): its `ins` that are not `inplace_outs`, the kernel's live UB
//! buffers it was not passed, and the GM buffers it was not passed. Their
//! bytes are copied before the call and compared after it; the first byte
//! that changed is reported with the buffer and its offset.

use hivm_dialects::hivm::custom;
use hivm_ir::{OpId, Value};

use super::ub_bounds::UbMap;
use super::{Interp, R, RunError};
use crate::memory::Space;
use crate::value::Val;

struct Guarded {
    start: u64,
    copy: Vec<u8>,
    name: String,
}

/// The read-only bytes around one call, as they were before it.
pub(super) struct WriteGuard {
    guarded: Vec<Guarded>,
    /// The pages of cube memories (L1, L0A/B/C) the call may write: its
    /// writable operands there. The rest of those memories is read-only
    /// in the call worker, so any other write there faults (no copy, no
    /// cost per call); bytes sharing a page with such an operand are the
    /// only ones not covered.
    pub open: Vec<crate::native::Region>,
}

/// A rank-1 memref of dynamic size: a pointer operand.
fn is_pointer_type(ir: &hivm_ir::Ir, t: hivm_ir::Type) -> bool {
    matches!(ir.type_data(t), hivm_ir::TypeData::MemRef { shape, .. } if shape.len() == 1 && shape[0] == hivm_ir::types::DYNAMIC)
}

fn overlaps(a: u64, an: u64, b: u64, bn: u64) -> bool {
    a < b + bn && b < a + an
}

impl Interp<'_> {
    /// Snapshots what `op`'s call must leave unchanged.
    pub(super) fn write_guard(&self, op: OpId, operands: &[Value], names: &[String], ub: Option<&UbMap>) -> WriteGuard {
        let ir = self.ir;
        let is_custom = custom::is_custom(ir, op);
        let mut read_only: Vec<(u64, u64, String)> = Vec::new();
        let mut writable: Vec<(u64, u64)> = Vec::new();
        let mut passed_bufs = Vec::new();
        let mut open = Vec::new();
        for (i, (v, name)) in operands.iter().zip(names).enumerate() {
            let Val::Mem(m) = self.get(*v) else { continue };
            passed_bufs.push(m.buf);
            let (start, len) = self.span(m);
            // An `ins` operand is read-only unless it is an inplace out (the
            // memory planner and the sync solver rely on it) — except a
            // pointer: a GM `memref<?xT>` (what a Triton pointer operand
            // becomes) is an address the op may store through, as
            // triton-ascend's pointer operands do.
            let is_in = is_custom && name.starts_with("ins[");
            let inplace = custom::arg_attr(ir, op, i, "inplace_outs").is_some();
            let pointer = self.mem.get(m.buf).space == Space::Gm && is_pointer_type(ir, ir.value_type(*v));
            if is_in && !inplace && !pointer {
                read_only.push((
                    start,
                    len,
                    format!("its {name} operand (ins are read-only; inplace_outs allows writing one)"),
                ));
            } else {
                writable.push((start, len));
                if self.mem.get(m.buf).space.is_cube() && len > 0 {
                    let page = 4096;
                    let (lo, hi) = (start / page * page, (start + len).div_ceil(page) * page);
                    open.push(crate::native::Region { start: lo, len: hi - lo });
                }
            }
        }
        // A custom op on the cube core has L0A/L0B/L0C as its scratch (its
        // loads and `mad` write them); L1 only where its operands are.
        if is_custom && custom::core_type(ir, op) == Some("CUBE") {
            for (space, id, _) in &self.onchip {
                if matches!(space, Space::L0a | Space::L0b | Space::L0c) {
                    let b = self.mem.get(*id);
                    let (lo, hi) = (b.addr() / 4096 * 4096, (b.addr() + b.len() as u64).div_ceil(4096) * 4096);
                    open.push(crate::native::Region { start: lo, len: hi - lo });
                }
            }
        }
        // An `ins` that is also passed as a writable operand may change.
        read_only.retain(|(s, n, _)| !writable.iter().any(|(ws, wn)| overlaps(*s, *n, *ws, *wn)));
        if let Some(ub) = ub {
            read_only.extend(ub.others.iter().map(|o| (o.start, o.len, o.name.clone())));
        }
        for (id, b) in self.mem.buffers_with_ids() {
            if b.space == Space::Gm && !passed_bufs.contains(&id) && !b.is_empty() {
                let name = self.sync.region_name(b.addr()).unwrap_or("a GM buffer").to_string();
                read_only.push((b.addr(), b.len() as u64, format!("{name}, a GM buffer the op was not passed")));
            }
        }
        let guarded = read_only
            .into_iter()
            .filter(|(_, n, _)| *n > 0)
            .map(|(start, len, name)| {
                // SAFETY: every range lies inside a live twin buffer, readable here.
                let copy = unsafe { std::slice::from_raw_parts(start as *const u8, len as usize) }.to_vec();
                Guarded { start, copy, name }
            })
            .collect();
        WriteGuard { guarded, open }
    }
}

impl WriteGuard {
    /// The first guarded byte the call changed, as a located error.
    pub(super) fn check(&self, op: OpId, what: &str) -> R<()> {
        for g in &self.guarded {
            // SAFETY: as in `write_guard`; the buffers outlive the call.
            let now = unsafe { std::slice::from_raw_parts(g.start as *const u8, g.copy.len()) };
            if now != g.copy.as_slice() {
                let at = now.iter().zip(&g.copy).position(|(a, b)| a != b).unwrap_or(0);
                let last = now.iter().zip(&g.copy).rposition(|(a, b)| a != b).unwrap_or(at);
                return Err(RunError::at(
                    op,
                    format!(
                        "{what} wrote {} at byte offset {at} (bytes [{at}, {}) of {} changed), which it may not write",
                        g.name,
                        last + 1,
                        g.copy.len()
                    ),
                ));
            }
        }
        Ok(())
    }
}

//! Writes a call must not make, by any means (plain C stores leave no
//! trace): its `ins` that are not `inplace_outs`, the kernel's live UB
//! buffers it was not passed, and the GM buffers it was not passed.
//!
//! Global memory and the cube memories are read-only in the call worker
//! (`shm::Mapping::read_only`); a call opens the pages of its writable
//! operands there (`open`), so any other write faults, at no per-call cost
//! that grows with the memory, and is reported from the fault's address
//! (`fault_target`). UB `ins` are guarded by copy: those bytes are copied
//! before the call and compared after it; the first byte that changed is
//! reported with the buffer and its offset. The rest of UB is `ub_guard.rs`'s.

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
    /// The pages of GM and cube memories (L1, L0A/B/C) the call may write:
    /// its writable operands there, sorted and merged. The rest of those
    /// memories is read-only in the call worker, so any other write there
    /// faults (no copy, no cost per call).
    pub open: Vec<crate::native::Region>,
    /// Read-only GM operands, by name, for a fault's report.
    read_only_gm: Vec<(u64, u64, String)>,
    /// UB outside the op's operands.
    pub ub: Option<super::ub_guard::UbGuard>,
}

/// The whole pages of `[start, start + len)`.
fn pages(start: u64, len: u64) -> crate::native::Region {
    let page = 4096;
    let (lo, hi) = (start / page * page, (start + len).div_ceil(page) * page);
    crate::native::Region { start: lo, len: hi - lo }
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
        let mut open = Vec::new();
        for (i, (v, name)) in operands.iter().zip(names).enumerate() {
            let Val::Mem(m) = self.get(*v) else { continue };
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
                let b = self.mem.get(m.buf);
                if (b.space.is_cube() || b.space == Space::Gm) && len > 0 {
                    let r = pages(start, len);
                    open.push(r);
                    // The rest of a GM buffer on the pages opened for a view
                    // of it is not the op's either: only a copy tells.
                    if b.space == Space::Gm {
                        let (lo, hi) = (r.start.max(b.addr()), (r.start + r.len).min(b.addr() + b.len() as u64));
                        let buffer = self.sync.region_name(b.addr()).unwrap_or("a GM buffer");
                        let what = format!("{buffer} outside its {name} operand");
                        if lo < start {
                            read_only.push((lo, start - lo, what.clone()));
                        }
                        if start + len < hi {
                            read_only.push((start + len, hi - start - len, what));
                        }
                    }
                }
            }
        }
        // A custom op on the cube core has L0A/L0B/L0C as its scratch (its
        // loads and `mad` write them); L1 only where its operands are.
        if is_custom && custom::core_type(ir, op) == Some("CUBE") {
            for (space, id, _) in &self.onchip {
                if matches!(space, Space::L0a | Space::L0b | Space::L0c) {
                    let b = self.mem.get(*id);
                    open.push(pages(b.addr(), b.len() as u64));
                }
            }
        }
        // An `ins` that is also passed as a writable operand may change.
        read_only.retain(|(s, n, _)| !writable.iter().any(|(ws, wn)| overlaps(*s, *n, *ws, *wn)));
        open.sort_by_key(|r| r.start);
        let mut merged: Vec<crate::native::Region> = Vec::with_capacity(open.len());
        for r in open {
            match merged.last_mut() {
                Some(last) if r.start <= last.start + last.len => {
                    last.len = last.len.max(r.start + r.len - last.start);
                }
                _ => merged.push(r),
            }
        }
        // A read-only GM operand faults when written, unless it shares an
        // open page with a writable one: then only a copy tells.
        let in_gm =
            |s: u64| self.mem.buffers().any(|b| b.space == Space::Gm && s >= b.addr() && s < b.addr() + b.len() as u64);
        let mut read_only_gm = Vec::new();
        read_only.retain(|(s, n, name)| {
            let faults = in_gm(*s) && !merged.iter().any(|r| overlaps(*s, *n, r.start, r.len));
            if faults {
                read_only_gm.push((*s, *n, name.clone()));
            }
            !faults
        });
        let guarded = read_only
            .into_iter()
            .filter(|(_, n, _)| *n > 0)
            .map(|(start, len, name)| {
                // SAFETY: every range lies inside a live twin buffer, readable here.
                let copy = unsafe { std::slice::from_raw_parts(start as *const u8, len as usize) }.to_vec();
                Guarded { start, copy, name }
            })
            .collect();
        WriteGuard { guarded, open: merged, read_only_gm, ub: ub.map(super::ub_guard::UbGuard::new) }
    }

    /// What a call that faulted at `addr` wrote, if the address is in
    /// memory the worker has read-only (so the fault was a write there):
    /// the memory's name and the offset in it.
    pub(super) fn fault_target(&self, addr: u64, guard: &WriteGuard) -> Option<(String, u64)> {
        if let Some((s, _, name)) = guard.read_only_gm.iter().find(|(s, n, _)| addr >= *s && addr < s + n) {
            return Some((name.clone(), addr - s));
        }
        for (space, id, _) in &self.onchip {
            let b = self.mem.get(*id);
            if space.is_cube() && addr >= b.addr() && addr < b.addr() + b.len() as u64 {
                return Some((space.to_string(), addr - b.addr()));
            }
        }
        let b = self
            .mem
            .buffers()
            .find(|b| b.space == Space::Gm && addr >= b.addr() && addr < b.addr() + b.len() as u64)?;
        let name = self.sync.region_name(b.addr()).unwrap_or("a GM buffer");
        let passed = guard.open.iter().any(|r| overlaps(b.addr(), b.len() as u64, r.start, r.len));
        let what = if passed { "outside its operands" } else { "the op was not passed" };
        Some((format!("{name}, a GM buffer {what},"), addr - b.addr()))
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

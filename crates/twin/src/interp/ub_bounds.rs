//! Per-buffer bounds for what implementations do in UB. The header only
//! knows UB as a whole; here every access an intrinsic made is checked
//! against the buffers the op was passed and the kernel's other live UB
//! buffers: running past the end of an operand, or touching a live buffer
//! the op was not given, is an error. Scratch memory an implementation
//! forms from integer addresses is fine where it overlaps nothing live.

use hivm_ir::{OpId, Value};

use super::liveness::FuncOrder;
use super::{Interp, R, RunError};
use crate::memory::Space;
use crate::native;
use crate::value::Val;

/// Hardware allocations are 32-byte granules: a copy padded to a whole
/// block may write up to the granule's end.
const GRANULE: u64 = 32;

pub(super) struct UbBuf {
    pub(super) start: u64,
    pub(super) len: u64,
    pub(super) name: String,
}

/// The UB buffers around one call.
pub(super) struct UbMap {
    base: u64,
    size: u64,
    pub(super) operands: Vec<UbBuf>,
    pub(super) others: Vec<UbBuf>,
}

impl Interp<'_> {
    /// Remembers a UB buffer the kernel made, by the value naming it.
    pub(super) fn note_ub_root(&mut self, op: OpId, v: Value) {
        if let Val::Mem(m) = self.get(v).clone()
            && Some(m.buf) == self.onchip(Space::Ub)
        {
            let (a, n) = self.span(&m);
            self.ub_roots.insert(v, (op, a, n));
        }
    }

    /// The operands of `op` that live in UB, named by `names`, and the
    /// kernel's UB buffers that are live at `op` but not among them.
    pub(super) fn ub_map(&mut self, op: OpId, operands: &[Value], names: &[String]) -> Option<UbMap> {
        let ub = self.onchip(Space::Ub)?;
        let (base, size) = (self.mem.get(ub).addr(), self.mem.get(ub).len() as u64);
        let mut map = UbMap { base, size, operands: Vec::new(), others: Vec::new() };
        for (v, name) in operands.iter().zip(names) {
            if let Val::Mem(m) = self.get(*v)
                && m.buf == ub
            {
                let (start, len) = self.span(m);
                map.operands.push(UbBuf { start, len, name: name.clone() });
            }
        }
        let ir = self.ir;
        let func = self.enclosing_func(op)?;
        let order = self.orders.entry(func).or_insert_with(|| FuncOrder::new(ir, func));
        let mut roots: Vec<(&Value, &(OpId, u64, u64))> = self.ub_roots.iter().collect();
        roots.sort_by_key(|(_, (_, a, _))| *a);
        for (v, (def, start, len)) in roots {
            if *len == 0 || !order.live_at(ir, *v, *def, op) {
                continue;
            }
            let at = hivm_ir::diagnostics::file_line_col(ir, ir.loc(*def))
                .map(|(f, l, c)| format!(" defined at {f}:{l}:{c}"))
                .unwrap_or_default();
            let passed = map.operands.iter().any(|o| overlaps(o.start, o.len, *start, *len));
            if !passed {
                map.others.push(UbBuf {
                    start: *start,
                    len: *len,
                    name: format!("a live {} buffer{at} that the op was not passed", ir.op_name(*def)),
                });
                continue;
            }
            // A view of a buffer is passed: the rest of the buffer is not the op's.
            let name = format!("the part of a live {} buffer{at} outside the op's operands", ir.op_name(*def));
            for (s, n) in outside(*start, *len, &map.operands) {
                map.others.push(UbBuf { start: s, len: n, name: name.clone() });
            }
        }
        Some(map)
    }
}

fn overlaps(a: u64, an: u64, b: u64, bn: u64) -> bool {
    a < b + bn && b < a + an
}

/// The pieces of `[start, start + len)` no operand covers.
fn outside(start: u64, len: u64, operands: &[UbBuf]) -> Vec<(u64, u64)> {
    let mut cover: Vec<(u64, u64)> = operands
        .iter()
        .filter(|o| overlaps(o.start, o.len, start, len))
        .map(|o| (o.start.max(start), (o.start + o.len).min(start + len)))
        .collect();
    cover.sort();
    let mut pieces = Vec::new();
    let mut at = start;
    for (lo, hi) in cover {
        if lo > at {
            pieces.push((at, lo - at));
        }
        at = at.max(hi);
    }
    if at < start + len {
        pieces.push((at, start + len - at));
    }
    pieces
}

impl UbMap {
    /// UB's host address and size.
    pub(super) fn bounds(&self) -> (u64, u64) {
        (self.base, self.size)
    }

    fn range(&self, start: u64, len: u64) -> String {
        format!("UB[{}, {})", start - self.base, start - self.base + len)
    }

    /// The first access in `trace` that breaks a buffer's bounds (a write
    /// before a read: it is the one that does damage), as an error naming
    /// the intrinsic, the buffer and the byte range.
    pub(super) fn check(&self, op: OpId, what: &str, trace: &[native::Rec]) -> R<()> {
        let mut call = String::new();
        let mut first_read = None;
        for r in trace {
            if r.kind == native::CALL {
                call = r.text();
                continue;
            }
            if r.kind != native::READ && r.kind != native::WRITE {
                continue;
            }
            let Some(problem) = self.problem(r.a, r.b) else { continue };
            let verb = if r.kind == native::WRITE { "writes" } else { "reads" };
            let msg = format!("{what}: {call} {verb} {}, {problem}", self.range(r.a, r.b));
            if r.kind == native::WRITE {
                return Err(RunError::at(op, msg));
            }
            first_read.get_or_insert(msg);
        }
        first_read.map_or(Ok(()), |m| Err(RunError::at(op, m)))
    }

    /// What is wrong with an access of `n` bytes at host address `a`.
    fn problem(&self, a: u64, n: u64) -> Option<String> {
        if a < self.base || a >= self.base + self.size {
            return None;
        }
        let granule_end = |o: &UbBuf| o.start + o.len.div_ceil(GRANULE) * GRANULE;
        match self.operands.iter().find(|o| a >= o.start && a < granule_end(o)) {
            Some(o) if a + n > granule_end(o) => {
                return Some(format!(
                    "which starts in {} ({}) and runs {} bytes past its end",
                    o.name,
                    self.range(o.start, o.len),
                    a + n - (o.start + o.len)
                ));
            }
            Some(_) => {}
            None => {
                if let Some(o) = self.operands.iter().find(|o| overlaps(a, n, o.start, o.len)) {
                    return Some(format!(
                        "which runs into {} ({}) from outside it",
                        o.name,
                        self.range(o.start, o.len)
                    ));
                }
            }
        }
        self.others
            .iter()
            .find(|o| overlaps(a, n, o.start, o.len))
            .map(|o| format!("which overlaps {} ({})", o.name, self.range(o.start, o.len)))
    }
}

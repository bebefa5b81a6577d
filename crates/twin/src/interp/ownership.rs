//! Who owns each byte of on-chip memory while a planned kernel runs.
//!
//! Every buffer the kernel makes (`hivm.hir.pointer_cast`, `memref.alloc`)
//! is named by its defining op, and views carry that name. A write through
//! a buffer makes it the owner of the bytes written; a read through a
//! buffer of bytes it wrote itself during its current life (since its
//! defining op last ran) that another buffer has written since means two
//! live buffers share those bytes: the later one overwrote data the
//! earlier still needed. That is the mark of a wrong memory plan, reported
//! at the reading op with both defining ops. Reading bytes a buffer never
//! wrote (another view of the same memory, or uninitialised data) is not
//! this error.
//!
//! Accesses are taken per op from its operands (ins read, outs and scratch
//! written), by each view's byte span; a scalar loop the compiled tier runs
//! counts as one op reading the views it loads from and writing those it
//! stores to.

use std::collections::HashMap;

use hivm_ir::{Ir, OpId, Value};

use super::{Interp, R, RunError};
use crate::memory::BufId;
use crate::value::{MemRefVal, Val};

/// How many ended lives of one defining op keep their written bytes: a
/// loop rotating instances through its iteration values reads a few runs
/// back; reads through older instances are not checked.
const KEPT_LIVES: usize = 4;

/// Byte ranges `[lo, hi)` per buffer: sorted, disjoint.
type Spans = Vec<(BufId, u64, u64)>;

#[derive(Default)]
struct Root {
    op: Option<OpId>,
    /// The current life: how many times the defining op has run.
    life: u32,
    /// Byte ranges written in the current life, per buffer: sorted, disjoint.
    written: Spans,
    /// The same for the last few ended lives (their instances may still be
    /// live: a loop carries them to later iterations).
    ended: Vec<(u32, Spans)>,
    /// The op that last wrote through it.
    writer: Option<OpId>,
}

/// An owner: the defining op's index and the life (instance) of it.
type Owner = u64;

fn owner(id: u32, life: u32) -> Owner {
    (u64::from(id) << 32) | u64::from(life)
}

fn owner_id(o: Owner) -> u32 {
    (o >> 32) as u32
}

/// Sorted disjoint byte ranges `[lo, hi)` with their owner.
type Ranges = Vec<(u64, u64, Owner)>;

#[derive(Default)]
pub(super) struct Owners {
    /// Per on-chip buffer, who owns which bytes: sorted disjoint ranges
    /// with an owner (a handful per live buffer, so the cost of a write
    /// does not grow with its size).
    bytes: Vec<(BufId, Ranges)>,
    roots: Vec<Root>,
    ids: HashMap<OpId, u32>,
}

impl Owners {
    /// Forgets everything (a new block starts with empty memories).
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.roots.clear();
        self.ids.clear();
    }

    fn id(&mut self, op: OpId) -> u32 {
        if self.roots.is_empty() {
            self.roots.push(Root::default());
        }
        let n = self.roots.len() as u32;
        let id = *self.ids.entry(op).or_insert(n);
        if id == n {
            self.roots.push(Root { op: Some(op), ..Root::default() });
        }
        id
    }

    /// The defining op ran again: a new instance, a new owner that has
    /// written nothing yet (the earlier instance keeps what it wrote, so a
    /// read through it after the new one wrote there is caught). Returns
    /// the new life.
    pub fn born(&mut self, op: OpId) -> u32 {
        let id = self.id(op);
        let r = &mut self.roots[id as usize];
        let written = std::mem::take(&mut r.written);
        if !written.is_empty() {
            if r.ended.len() == KEPT_LIVES {
                r.ended.remove(0);
            }
            r.ended.push((r.life, written));
        }
        r.life = r.life.wrapping_add(1);
        r.life
    }

    fn table(&mut self, buf: BufId) -> &mut Ranges {
        let i = match self.bytes.iter().position(|(b, _)| *b == buf) {
            Some(i) => i,
            None => {
                self.bytes.push((buf, Vec::new()));
                self.bytes.len() - 1
            }
        };
        &mut self.bytes[i].1
    }

    fn write(&mut self, op: OpId, root: OpId, life: u32, buf: BufId, lo: u64, hi: u64) {
        let id = self.id(root);
        assign(self.table(buf), lo, hi, owner(id, life));
        let r = &mut self.roots[id as usize];
        r.writer = Some(op);
        if life == r.life {
            insert(&mut r.written, buf, lo, hi);
        } else if let Some((_, w)) = r.ended.iter_mut().find(|(l, _)| *l == life) {
            insert(w, buf, lo, hi);
        }
    }

    /// The first byte of `[lo, hi)` that instance `life` of `root` wrote
    /// in its life and another owner has written since, with that owner.
    fn clobbered(&self, root: OpId, life: u32, buf: BufId, lo: u64, hi: u64) -> Option<(u64, Owner)> {
        let id = *self.ids.get(&root)?;
        let t = &self.bytes.iter().find(|(b, _)| *b == buf)?.1;
        let r = &self.roots[id as usize];
        let written = if life == r.life { &r.written } else { &r.ended.iter().find(|(l, _)| *l == life)?.1 };
        let me = owner(id, life);
        let from = t.partition_point(|(_, h, _)| *h <= lo);
        t[from..].iter().take_while(|(l, _, _)| *l < hi).filter(|(_, _, o)| *o != me).find_map(|(l, h, o)| {
            // The first byte of this range, inside the read, that `root` wrote.
            let (l, h) = ((*l).max(lo), (*h).min(hi));
            written
                .iter()
                .filter(|(b, wl, wh)| *b == buf && *wl < h && l < *wh)
                .map(|(_, wl, _)| (*wl).max(l))
                .min()
                .map(|x| (x, *o))
        })
    }
}

/// Gives `[lo, hi)` to `id` in sorted disjoint owner ranges.
fn assign(t: &mut Ranges, lo: u64, hi: u64, id: Owner) {
    let from = t.partition_point(|(_, h, _)| *h <= lo);
    let to = from + t[from..].iter().take_while(|(l, _, _)| *l < hi).count();
    let mut keep = Vec::with_capacity(3);
    if let Some(&(l, _, o)) = t.get(from).filter(|(l, _, _)| *l < lo && from < to) {
        keep.push((l, lo, o));
    }
    keep.push((lo, hi, id));
    if to > from
        && let Some(&(_, h, o)) = t.get(to - 1).filter(|(_, h, _)| *h > hi)
    {
        keep.push((hi, h, o));
    }
    t.splice(from..to, keep);
}

/// Adds `[lo, hi)` of `buf` to sorted disjoint ranges, merging.
fn insert(v: &mut Vec<(BufId, u64, u64)>, buf: BufId, lo: u64, hi: u64) {
    let (mut lo, mut hi) = (lo, hi);
    v.retain(|(b, l, h)| {
        if *b == buf && *l <= hi && lo <= *h {
            lo = lo.min(*l);
            hi = hi.max(*h);
            false
        } else {
            true
        }
    });
    let at = v.partition_point(|(b, l, _)| (*b, *l) < (buf, lo));
    v.insert(at, (buf, lo, hi));
}

/// The memref operands `op` reads and those it writes (outs, scratch).
fn accesses(ir: &Ir, op: OpId) -> (Vec<Value>, Vec<Value>) {
    use hivm_dialects::hivm::custom;
    let name = ir.op_name(op);
    let ops = ir.operands(op);
    let at = |i: usize| ops.get(i).copied().into_iter().collect::<Vec<_>>();
    match name {
        "memref.load" => (at(0), vec![]),
        "memref.store" => (vec![], at(1)),
        "memref.copy" | "hivm.hir.load" | "hivm.hir.store" | "hivm.hir.copy" | "hivm.hir.load_scale" => (at(0), at(1)),
        "linalg.fill" => (vec![], at(1)),
        "hivm.hir.pointer_cast" => (vec![], vec![]),
        // Operand groups a, b, init, real_m/k/n, c, sync args, unit flag, bias.
        "hivm.hir.mmadL1" | "hivm.hir.batchMmadL1" => {
            let g = |k: usize| hivm_dialects::util::segment(ir, op, k).to_vec();
            ([g(0), g(1), g(9)].concat(), g(6))
        }
        // a, b, scaleA, scaleB, init, real_m/k/n, c, sync args, bias.
        "hivm.hir.mmadmxL1" => {
            let g = |k: usize| hivm_dialects::util::segment(ir, op, k).to_vec();
            ([g(0), g(1), g(2), g(3), g(10)].concat(), g(8))
        }
        // a, b, tokens_per_expert, ..., bias (8), ..., c (15).
        "hivm.hir.mix_group_matmul" => {
            let g = |k: usize| hivm_dialects::util::segment(ir, op, k).to_vec();
            ([g(0), g(1), g(2), g(8)].concat(), g(15))
        }
        _ if custom::is_custom(ir, op) => {
            let writes = custom::outs(ir, op).iter().chain(custom::tmps(ir, op)).copied().collect();
            (custom::ins(ir, op).to_vec(), writes)
        }
        // Ops declared with a `dst` group (the vector ops, with or without
        // segment sizes: `vbrc`, `vcumsum`, ... have none) write it and
        // their scratch, and read every other operand.
        _ if name.starts_with("hivm.hir.")
            && let Some(c) = ir.op_def(op).and_then(|d| d.spec)
            && c.operand_index("dst").is_some() =>
        {
            let (mut reads, mut writes) = (Vec::new(), Vec::new());
            for (i, group) in c.spec.operands.iter().enumerate() {
                let values = c.operand_group(ir, op, i);
                if matches!(group.name, "dst" | "temp_buffer") {
                    writes.extend_from_slice(values);
                } else {
                    reads.extend_from_slice(values);
                }
            }
            (reads, writes)
        }
        _ if name.starts_with("hivm.hir.") => match hivm_dialects::util::segments(ir, op).as_slice() {
            [ins, outs, ..] if *ins + *outs <= ops.len() => (ops[..*ins].to_vec(), ops[*ins..].to_vec()),
            _ => (vec![], vec![]),
        },
        _ => (vec![], vec![]),
    }
}

impl Interp<'_> {
    /// The on-chip view behind `v`, with the op that made its buffer.
    fn owned_view(&self, v: Value) -> Option<(OpId, MemRefVal)> {
        match self.get(v) {
            Val::Mem(m) if m.root.is_some() && self.onchip.iter().any(|(_, b, _)| *b == m.buf) => {
                Some((m.root?, (**m).clone()))
            }
            _ => None,
        }
    }

    /// Checks `op`'s reads against ownership, then records its writes.
    pub(super) fn check_ownership(&mut self, op: OpId) -> R<()> {
        let (reads, writes) = accesses(self.ir, op);
        if reads.is_empty() && writes.is_empty() {
            return Ok(());
        }
        self.check_in_place(op, &reads, &writes)?;
        self.check_accesses(op, &reads, &writes)
    }

    /// Checks reads of the views `reads` against ownership, then records
    /// writes through `writes`, for `op`.
    pub(super) fn check_accesses(&mut self, op: OpId, reads: &[Value], writes: &[Value]) -> R<()> {
        for &v in reads {
            let Some((root, m)) = self.owned_view(v) else { continue };
            let (lo, hi) = m.byte_span();
            if hi <= lo {
                continue;
            }
            if let Some((x, other)) = self.owners.clobbered(root, m.life, m.buf, lo.max(0) as u64, hi as u64) {
                return Err(self.ownership_error(op, root, other, m.buf, x));
            }
        }
        for &v in writes {
            let Some((root, m)) = self.owned_view(v) else { continue };
            let (lo, hi) = m.byte_span();
            if hi > lo {
                self.owners.write(op, root, m.life, m.buf, lo.max(0) as u64, hi as u64);
            }
        }
        Ok(())
    }

    /// An elementwise op may write over its input only element for
    /// element: an output overlapping an input of its shape at other
    /// elements reads, in the hardware's order, what it has already
    /// written (in-place reuse through views at different offsets).
    fn check_in_place(&self, op: OpId, reads: &[Value], writes: &[Value]) -> R<()> {
        if !hivm_dialects::hivm::vector::is_elementwise(self.ir.op_name(op)) && !self.ir.is_op(op, "hivm.hir.vcast") {
            return Ok(());
        }
        for w in writes {
            let Val::Mem(o) = self.get(*w) else { continue };
            for r in reads {
                let Val::Mem(i) = self.get(*r) else { continue };
                if i.buf != o.buf || i.sizes != o.sizes {
                    continue;
                }
                let ((il, ih), (ol, oh)) = (i.byte_span(), o.byte_span());
                let same = i.offset * i.elem.size() as i64 == o.offset * o.elem.size() as i64 && i.strides == o.strides;
                if il < oh && ol < ih && !same {
                    return Err(RunError::at(
                        op,
                        format!(
                            "writes bytes [{ol}, {oh}) over its input's bytes [{il}, {ih}) at other elements: in place, \
                             an elementwise op must write each element where it reads it"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn ownership_error(&self, op: OpId, root: OpId, other: Owner, buf: BufId, x: u64) -> RunError {
        let ir = self.ir;
        let at = |o: OpId| {
            let name = ir.op_name(o);
            match hivm_ir::diagnostics::file_line_col(ir, ir.loc(o)) {
                Some((f, l, c)) => format!("'{name}' at {f}:{l}:{c}"),
                None => format!("'{name}'"),
            }
        };
        let space = self.onchip.iter().find(|(_, b, _)| *b == buf).map(|(s, _, _)| s.to_string()).unwrap_or_default();
        let o = &self.owners.roots[owner_id(other) as usize];
        let other_op = o.op.map(at).unwrap_or_default();
        // One defining op, two instances: a loop made the later one while
        // it still carried the earlier.
        let taker = if o.op == Some(root) {
            format!("a later instance of the same buffer (another run of {other_op})")
        } else {
            format!("the buffer of {other_op}")
        };
        let mut e = RunError::at(
            op,
            format!(
                "reads {space} byte {x} through the buffer of {}, but since it wrote that byte {taker} has written \
                 over it: two live buffers share these bytes (a wrong memory plan?)",
                at(root)
            ),
        );
        e.notes.push(format!("the buffer read is made by {}", at(root)));
        e.notes.push(format!("the buffer that took the bytes is made by {other_op}"));
        if let Some(w) = o.writer {
            e.notes.push(format!("its last write was by {}", at(w)));
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::assign;

    #[test]
    fn ranges_split_and_replace() {
        let mut t = Vec::new();
        assign(&mut t, 0, 256, 1);
        assign(&mut t, 256, 512, 2);
        assign(&mut t, 64, 128, 3);
        assert_eq!(t, vec![(0, 64, 1), (64, 128, 3), (128, 256, 1), (256, 512, 2)]);
        assign(&mut t, 100, 300, 4);
        assert_eq!(t, vec![(0, 64, 1), (64, 100, 3), (100, 300, 4), (300, 512, 2)]);
        assign(&mut t, 0, 512, 5);
        assert_eq!(t, vec![(0, 512, 5)]);
    }
}

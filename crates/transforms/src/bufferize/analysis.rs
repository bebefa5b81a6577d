//! In-place analysis: may a written tensor operand reuse its buffer?
//!
//! Writing into the buffer of `v` in place is a read-after-write conflict
//! when a value that already holds that buffer's contents is still read at or
//! after the writing op (MLIR's `hasReadAfterWriteInterference`, for
//! straight-line code). Values share a buffer through in-place writes: a DPS
//! result aliases its out when that out is in place. Ops are decided in
//! program order, keeping for every buffer the last position at which any of
//! its values is read, so the analysis is linear in the size of the function.

use std::collections::{HashMap, HashSet};

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{BlockId, Ir, OpId, Value};

use super::interface::{self, Kind};
use super::is_tensor;

pub struct Analysis {
    out_of_place: HashSet<(OpId, usize)>,
}

/// A buffer being tracked: where it comes from and its values' last read.
struct Buffer {
    writable: bool,
    last_read: usize,
}

impl Analysis {
    pub fn in_place(&self, op: OpId, operand: usize) -> bool {
        !self.out_of_place.contains(&(op, operand))
    }

    pub fn run(ir: &Ir, entry: BlockId, ops: &[OpId]) -> Result<Analysis, Diagnostic> {
        check_supported(ir, entry, ops)?;
        // Positions are post-order indices: an `scf.if` comes after its
        // branches. A read inside a loop happens, as far as writes outside are
        // concerned, for as long as the outermost loop runs.
        let mut order = Vec::new();
        for &top in ops {
            ir.walk_post(top, &mut |o| order.push(o));
        }
        let pos: HashMap<OpId, usize> = order.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        let read_pos = |op: OpId| {
            let mut p = pos[&op];
            let mut cur = ir.parent_op(op);
            while let Some(a) = cur.filter(|a| pos.contains_key(a)) {
                if !ir.is_op(a, "scf.if") {
                    p = p.max(pos[&a]);
                }
                cur = ir.parent_op(a);
            }
            p
        };
        let mut last_read: HashMap<Value, usize> = HashMap::new();
        for &op in &order {
            for (j, &v) in ir.operands(op).iter().enumerate() {
                if is_tensor(ir, v) && interface::reads(ir, op, j) {
                    let p = read_pos(op);
                    let e = last_read.entry(v).or_insert(p);
                    *e = (*e).max(p);
                }
            }
        }
        let read_at = |v: Value| last_read.get(&v).copied().unwrap_or(0);
        let mut an = Analysis { out_of_place: HashSet::new() };
        let mut buffers: Vec<Buffer> = Vec::new();
        let mut buffer_of: HashMap<Value, usize> = HashMap::new();
        let new_buffer = |buffers: &mut Vec<Buffer>, v: Value, writable: bool| {
            buffers.push(Buffer { writable, last_read: read_at(v) });
            buffers.len() - 1
        };
        for &arg in ir.block_args(entry) {
            if is_tensor(ir, arg) {
                // Without function-boundary bufferization arguments are read-only.
                let b = new_buffer(&mut buffers, arg, false);
                buffer_of.insert(arg, b);
            }
        }
        for (p, &op) in order.iter().enumerate() {
            let kind = interface::kind(ir, op);
            if kind == Some(Kind::If) {
                // A result may be either branch's buffer: its reads are reads
                // of both; writes into it get a fresh buffer.
                for (k, &r) in ir.results(op).iter().enumerate() {
                    if !is_tensor(ir, r) {
                        continue;
                    }
                    for y in branch_yields(ir, op) {
                        let b = buffer_of[&ir.operand(y, k)];
                        buffers[b].last_read = buffers[b].last_read.max(read_at(r));
                    }
                    let b = new_buffer(&mut buffers, r, false);
                    buffer_of.insert(r, b);
                }
                continue;
            }
            if kind == Some(Kind::Dps) {
                for i in interface::dps_outs(ir, op) {
                    let v = ir.operand(op, i);
                    if !is_tensor(ir, v) {
                        continue;
                    }
                    let b = buffer_of[&v];
                    let in_place = interface::must_be_in_place(ir, op, i)
                        || (buffers[b].writable
                            && buffers[b].last_read <= p
                            && !ir.operands(op).iter().enumerate().any(|(j, w)| {
                                interface::reads(ir, op, j)
                                    && is_tensor(ir, *w)
                                    && buffer_of.get(w) == Some(&b)
                                    && !interface::not_conflicting(ir, op, j, i)
                            }));
                    let r = ir.result(op, i - interface::dps_outs(ir, op).start);
                    if in_place {
                        buffers[b].last_read = buffers[b].last_read.max(read_at(r));
                        buffer_of.insert(r, b);
                    } else {
                        an.out_of_place.insert((op, i));
                        let fresh = new_buffer(&mut buffers, r, true);
                        buffer_of.insert(r, fresh);
                    }
                }
                continue;
            }
            for &r in ir.results(op) {
                if !is_tensor(ir, r) {
                    continue;
                }
                let b = match kind {
                    Some(Kind::ToTensor) => new_buffer(&mut buffers, r, ir.has_attr(op, "writable")),
                    Some(Kind::ExtractSlice) | Some(Kind::Reshape) => {
                        // A slice is a view: its reads are reads of the source's buffer.
                        let b = buffer_of[&ir.operand(op, 0)];
                        buffers[b].last_read = buffers[b].last_read.max(read_at(r));
                        b
                    }
                    _ => new_buffer(&mut buffers, r, true),
                };
                buffer_of.insert(r, b);
            }
        }
        Ok(an)
    }
}

/// The `scf.yield`s ending the branches of an `scf.if`.
pub fn branch_yields(ir: &Ir, op: OpId) -> Vec<OpId> {
    ir.regions(op)
        .iter()
        .filter_map(|r| ir.region_blocks(*r).first().and_then(|b| ir.terminator(*b)))
        .filter(|t| ir.is_op(*t, "scf.yield"))
        .collect()
}

/// Every op touching tensors must be one we know, directly in the body.
fn check_supported(ir: &Ir, entry: BlockId, ops: &[OpId]) -> Result<(), Diagnostic> {
    for &top in ops {
        let mut err = None;
        ir.walk(top, &mut |op| {
            if err.is_some() {
                return;
            }
            let touches = ir.operands(op).iter().chain(ir.results(op)).any(|v| is_tensor(ir, *v));
            if !touches {
                return;
            }
            let nested = ir.parent_block(op) != Some(entry);
            // `scf.if` branches may hold any supported op; other regions
            // (loops) only reads of tensors defined outside.
            let mut in_loop = false;
            let mut cur = ir.parent_op(op);
            let func = ir.block_parent_op(entry);
            while let Some(a) = cur.filter(|a| Some(*a) != func) {
                in_loop |= !ir.is_op(a, "scf.if");
                cur = ir.parent_op(a);
            }
            let nested_ok = !in_loop || interface::kind(ir, op) == Some(Kind::Extract);
            if interface::kind(ir, op).is_none() || (nested && !nested_ok) {
                let why = if nested { "uses tensors inside a region" } else { "has tensor operands or results" };
                err = Some(super::unsupported(ir, op, why));
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
    }
    Ok(())
}

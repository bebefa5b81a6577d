//! In-place analysis: may a written tensor operand reuse its buffer?
//!
//! A write into the buffer of `v` in place is a read-after-write conflict when
//! some read of an older value of that same buffer happens at or after the
//! writing op (MLIR's `hasReadAfterWriteInterference`). Values alias through
//! chains: a DPS result aliases its out when that out is in place. Ops are
//! decided in program order; ops not yet decided count as in place, which can
//! only add aliases, so the check stays sound.

use std::collections::{HashMap, HashSet};

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{BlockId, Ir, OpId, Value, ValueDef};

use super::interface::{self, Kind};

pub struct Analysis {
    out_of_place: HashSet<(OpId, usize)>,
}

impl Analysis {
    pub fn in_place(&self, op: OpId, operand: usize) -> bool {
        !self.out_of_place.contains(&(op, operand))
    }

    pub fn run(ir: &Ir, entry: BlockId, ops: &[OpId]) -> Result<Analysis, Diagnostic> {
        check_supported(ir, entry, ops)?;
        let pos: HashMap<OpId, usize> = ops.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        let mut an = Analysis { out_of_place: HashSet::new() };
        // Reads grouped by the root of their optimistic alias chain.
        let mut reads: HashMap<Value, Vec<(usize, OpId, usize, Value)>> = HashMap::new();
        for (p, &op) in ops.iter().enumerate() {
            for (j, &v) in ir.operands(op).iter().enumerate() {
                if is_tensor(ir, v) && interface::reads(ir, op, j) {
                    reads.entry(an.root(ir, v)).or_default().push((p, op, j, v));
                }
            }
        }
        for &op in ops {
            if interface::kind(ir, op) != Some(Kind::Dps) {
                continue;
            }
            for i in interface::dps_outs(ir, op) {
                let v = ir.operand(op, i);
                if !is_tensor(ir, v) || interface::must_be_in_place(ir, op, i) {
                    continue;
                }
                let root = an.root(ir, v);
                let conflict = !writable(ir, root, &an)
                    || reads.get(&an.optimistic_root(ir, v)).is_some_and(|uses| {
                        uses.iter().any(|&(p, reader, j, w)| {
                            if p < pos[&op] || (reader == op && interface::not_conflicting(ir, op, j, i)) {
                                return false;
                            }
                            let chain = an.chain(ir, w);
                            chain.last() == Some(&root) && !chain.iter().any(|c| defined_by(ir, *c, op))
                        })
                    });
                if conflict {
                    an.out_of_place.insert((op, i));
                }
            }
        }
        Ok(an)
    }

    /// The value `v`'s buffer comes from, following in-place writes.
    fn parent(&self, ir: &Ir, v: Value, optimistic: bool) -> Option<Value> {
        let ValueDef::Result { op, index } = ir.value_def(v) else { return None };
        if interface::kind(ir, op) != Some(Kind::Dps) {
            return None;
        }
        let out = interface::dps_outs(ir, op).start + index as usize;
        (optimistic || self.in_place(op, out)).then(|| ir.operand(op, out))
    }

    fn chain(&self, ir: &Ir, mut v: Value) -> Vec<Value> {
        let mut c = vec![v];
        while let Some(p) = self.parent(ir, v, false) {
            c.push(p);
            v = p;
        }
        c
    }

    fn root(&self, ir: &Ir, v: Value) -> Value {
        *self.chain(ir, v).last().expect("chain starts with v")
    }

    fn optimistic_root(&self, ir: &Ir, mut v: Value) -> Value {
        while let Some(p) = self.parent(ir, v, true) {
            v = p;
        }
        v
    }
}

fn is_tensor(ir: &Ir, v: Value) -> bool {
    ir.type_data(ir.value_type(v)).is_tensor()
}

fn defined_by(ir: &Ir, v: Value, op: OpId) -> bool {
    matches!(ir.value_def(v), ValueDef::Result { op: o, .. } if o == op)
}

/// Whether the buffer at the root of an alias chain may be written.
fn writable(ir: &Ir, root: Value, an: &Analysis) -> bool {
    match ir.value_def(root) {
        ValueDef::Result { op, .. } => match interface::kind(ir, op) {
            Some(Kind::ToTensor) => ir.has_attr(op, "writable"),
            Some(Kind::Alloc) => true,
            // An out-of-place result owns its fresh allocation.
            Some(Kind::Dps) => an.parent(ir, root, false).is_none(),
            _ => false,
        },
        // Without function-boundary bufferization arguments are read-only.
        _ => false,
    }
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
            if interface::kind(ir, op).is_none() || nested {
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

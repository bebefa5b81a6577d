//! Common subexpression elimination of side-effect-free ops, scoped by
//! dominance like MLIR's `-cse`: values from enclosing single-block scopes stay
//! available in nested regions; isolated-from-above ops start afresh.

use rustc_hash::FxHashMap as HashMap;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Attribute, Ir, OpId, RegionId, Sym, Traits, Type, Value};

/// What makes two ops interchangeable.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    name: Sym,
    operands: Vec<Value>,
    props: Option<Attribute>,
    attrs: Attribute,
    types: Vec<Type>,
}

fn key(ir: &Ir, op: OpId) -> Option<Key> {
    let def = ir.op_def(op)?;
    if !ir.is_side_effect_free(op) || !ir.regions(op).is_empty() || def.has(Traits::TERMINATOR) {
        return None;
    }
    let o = ir.op(op);
    Some(Key {
        name: o.name,
        operands: ir.operands(op).to_vec(),
        props: o.properties,
        attrs: o.attrs,
        types: ir.results(op).iter().map(|v| ir.value_type(*v)).collect(),
    })
}

pub struct Cse;

impl Cse {
    /// `replaced` collects the merges; operands are remapped as ops are
    /// visited (definitions come first in dominance order), and one sweep at
    /// the end catches any use the walk met earlier.
    fn region(&self, ir: &mut Ir, r: RegionId, scope: &mut Vec<HashMap<Key, OpId>>, replaced: &mut hivm_ir::ValueMap) {
        let blocks = ir.region_blocks(r).to_vec();
        let inherit = blocks.len() == 1;
        for b in blocks {
            if !inherit {
                scope.push(HashMap::default());
            }
            scope.push(HashMap::default());
            let ops: Vec<OpId> = ir.block_ops(b).collect();
            for op in ops {
                ir.remap_operands(op, replaced);
                if let Some(k) = key(ir, op) {
                    if let Some(&prev) = scope.iter().rev().find_map(|m| m.get(&k)) {
                        let new: Vec<Value> = ir.results(prev).to_vec();
                        let old: Vec<Value> = ir.results(op).to_vec();
                        for (o, n) in old.iter().zip(&new) {
                            replaced.insert(*o, *n);
                        }
                        ir.erase_op(op);
                        continue;
                    }
                    scope.last_mut().unwrap().insert(k, op);
                }
                let isolated = ir.op_def(op).is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE));
                for nr in ir.regions(op).to_vec() {
                    if isolated {
                        let mut fresh = Vec::new();
                        self.region(ir, nr, &mut fresh, replaced);
                    } else {
                        self.region(ir, nr, scope, replaced);
                    }
                }
            }
            scope.pop();
            if !inherit {
                scope.pop();
            }
        }
    }
}

impl Pass for Cse {
    fn name(&self) -> &str {
        "cse"
    }

    fn display_name(&self) -> &str {
        "CSE"
    }

    fn run(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        let mut replaced = hivm_ir::ValueMap::default();
        for r in ir.regions(op).to_vec() {
            let mut scope = Vec::new();
            self.region(ir, r, &mut scope, &mut replaced);
        }
        ir.replace_uses_with_map(op, &replaced);
        Ok(())
    }
}

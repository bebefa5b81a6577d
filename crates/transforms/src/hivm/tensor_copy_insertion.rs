//! `hivm-tensor-copy-insertion`: One-Shot Bufferize's analysis without the
//! rewrite. Wherever the analysis finds that a tensor operand cannot be
//! written in place (the old value is read later, the buffer is read-only,
//! a loop's init is still needed), the operand is replaced by a copy made
//! right before the op: `bufferization.alloc_tensor()` plus, when the op
//! reads the operand, `hivm.hir.copy ins(%v) outs(%alloc)` (upstream makes
//! `alloc_tensor copy(%v)` and then splits it, so that the write of the
//! copy stays visible to a later analysis). A `one-shot-bufferize` after
//! this pass then finds every write in place.
//!
//! The analysis is hivm-opt's (`bufferize/analysis.rs`); the heuristic
//! options choose among equally correct decisions upstream and are
//! accepted as such.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, TypeData, Value};
use rustc_hash::FxHashMap;

use crate::bufferize::analysis::{self, Analysis};
use crate::bufferize::interface;
use crate::bufferize::{arg_writable, callee_first, is_tensor};

pub struct TensorCopyInsertion {
    function_boundaries: bool,
}

impl TensorCopyInsertion {
    pub fn from_options(options: &str) -> Result<TensorCopyInsertion, String> {
        let mut function_boundaries = false;
        for opt in options.split_whitespace() {
            let (k, v) = opt.split_once('=').unwrap_or((opt, "true"));
            let flag = matches!(v, "true" | "1");
            let is_bool = matches!(v, "true" | "1" | "false" | "0");
            match k {
                "bufferize-function-boundaries" if is_bool => function_boundaries = flag,
                "allow-return-allocs-from-loops" if is_bool => {}
                "allow-unknown-ops" if is_bool && !flag => {}
                "analysis-heuristic" if matches!(v, "bottom-up" | "top-down" | "bottom-up-from-terminators") => {}
                _ => return Err(format!("hivm-tensor-copy-insertion: option '{opt}' is not supported")),
            }
        }
        Ok(TensorCopyInsertion { function_boundaries })
    }
}

impl Pass for TensorCopyInsertion {
    fn name(&self) -> &str {
        "hivm-tensor-copy-insertion"
    }

    fn display_name(&self) -> &str {
        "TensorCopyInsertion"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let mut funcs = Vec::new();
        ir.walk(root, &mut |o| {
            if ir.is_op(o, "func.func") {
                funcs.push(o);
            }
        });
        let funcs = if self.function_boundaries { callee_first(ir, &funcs)? } else { funcs };
        let mut summaries: FxHashMap<String, analysis::Summary> = FxHashMap::default();
        let mut scratch = analysis::Scratch::default();
        for f in funcs {
            let Some(entry) = ir.regions(f).first().and_then(|r| ir.region_blocks(*r).first().copied()) else {
                continue;
            };
            let ops: Vec<OpId> = ir.block_ops(entry).collect();
            let steps = analysis::schedule(ir, &ops);
            let n = ir.block_args(entry).len();
            let writable: Vec<bool> = (0..n).map(|k| self.function_boundaries && arg_writable(ir, f, k)).collect();
            let an = Analysis::run(ir, entry, &steps, &writable, &summaries, &mut scratch)?;
            let mut copies = Vec::new();
            for step in &steps {
                let (analysis::Step::Op(op) | analysis::Step::Enter(op)) = *step;
                for (i, v) in ir.operands(op).iter().enumerate() {
                    if is_tensor(ir, *v) && !an.in_place(op, i) && !copies.contains(&(op, i)) {
                        copies.push((op, i));
                    }
                }
            }
            for (op, i) in copies {
                insert_copy(ir, op, i);
            }
            if let Some(name) = ir.get_attr(f, "sym_name").and_then(|a| ir.as_str(a)) {
                summaries.insert(name.to_string(), an.summary);
            }
        }
        Ok(())
    }
}

/// Operand `i` of `op` becomes a fresh copy of itself made before `op`, or
/// only a fresh tensor when `op` does not read what it holds (as upstream's
/// `alloc_tensor` without `copy`).
fn insert_copy(ir: &mut Ir, op: OpId, i: usize) {
    let v = ir.operand(op, i);
    let t = ir.value_type(v);
    let loc = ir.loc(op);
    let index = ir.index_type();
    let shape = match ir.type_data(t) {
        TypeData::RankedTensor { shape, .. } => shape.clone(),
        _ => return,
    };
    let mut sizes: Vec<Value> = Vec::new();
    for (d, n) in shape.iter().enumerate() {
        if *n == DYNAMIC {
            let a = ir.int_attr(d as i128, index);
            let c =
                Builder::new(ir, InsertPoint::Before(op)).op("arith.constant", &[], &[index], vec![("value", a)], loc);
            let c = ir.result(c, 0);
            let dim = Builder::new(ir, InsertPoint::Before(op)).op("tensor.dim", &[v, c], &[index], vec![], loc);
            sizes.push(ir.result(dim, 0));
        }
    }
    let seg = hivm_dialects::util::segment_attr(ir, &[sizes.len(), 0, 0]);
    let alloc = Builder::new(ir, InsertPoint::Before(op)).op(
        "bufferization.alloc_tensor",
        &sizes,
        &[t],
        vec![("operandSegmentSizes", seg)],
        loc,
    );
    let alloc = ir.result(alloc, 0);
    let read = !matches!(interface::kind(ir, op), Some(interface::Kind::Dps)) || interface::reads(ir, op, i);
    if !read {
        ir.set_operand(op, i, alloc);
        return;
    }
    let seg = hivm_dialects::util::segment_attr(ir, &[1, 1, 0]);
    let copy = Builder::new(ir, InsertPoint::Before(op)).op(
        "hivm.hir.copy",
        &[v, alloc],
        &[t],
        vec![("operandSegmentSizes", seg)],
        loc,
    );
    let c = ir.result(copy, 0);
    ir.set_operand(op, i, c);
}

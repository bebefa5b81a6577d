//! `hivm-bind-sub-block`, for kernels with custom ops (spec customop.md §6.7):
//! in a mixed kernel whose vector (AIV) functions contain custom ops, no 1:2
//! sub-block tiling is attempted; instead each store, copy to L1 and custom op
//! of every AIV function runs on sub-block 0 only, wrapped in
//! `scf.if (sub_block_idx == 0) {...} {limit_sub_block_id0}`.
//! The general tiling path of upstream's pass is not implemented here.

use std::collections::HashMap;

use hivm_dialects::hivm::attrs::enum_value;
use hivm_dialects::hivm::custom;
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, OperationState, TypeData, Value};

pub struct BindSubBlock;

const LIMIT: &str = "limit_sub_block_id0";

fn is_aiv_mix_part(ir: &Ir, f: OpId) -> bool {
    ir.has_attr(f, "hivm.part_of_mix") && hivm_dialects::hivm::func_core_type(ir, f) == Some("AIV")
}

/// Ops that must run on one sub-block only.
fn should_limit(ir: &Ir, op: OpId) -> bool {
    if ir.has_attr(op, "already_sub_block_bound") || ir.has_attr(op, "tiled_op") {
        return false;
    }
    if let Some(p) = ir.parent_op(op)
        && ir.is_op(p, "scf.if")
        && ir.has_attr(p, LIMIT)
    {
        return false;
    }
    let name = ir.op_name(op);
    match name {
        "hivm.hir.store" | "hivm.hir.indirect_store" | "hivm.hir.stride_store" | custom::MACRO => true,
        "hivm.hir.copy" => matches!(
            ir.type_data(ir.value_type(ir.operand(op, 1))),
            TypeData::MemRef { memory_space: Some(a), .. } if enum_value(ir, *a, "address_space") == Some("cbuf")
        ),
        custom::CUSTOM => {
            // Distributed ops that produce values of their own stay on every sub-block.
            let outs = custom::outs(ir, op).len();
            !(ir.has_attr(op, "hivm.is_distributed") && ir.results(op).len() > outs)
        }
        _ => false,
    }
}

fn wrap(ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
    let loc = ir.loc(op);
    let i64t = ir.int_type(64);
    let index = ir.index_type();
    let i1 = ir.int_type(1);
    let mut b = Builder::new(ir, InsertPoint::Before(op));
    let idx = b.op("hivm.hir.get_sub_block_idx", &[], &[i64t], vec![], loc);
    let idx_v = b.ir.result(idx, 0);
    let cast = b.op("arith.index_cast", &[idx_v], &[index], vec![], loc);
    let cast_v = b.ir.result(cast, 0);
    let zero_attr = b.ir.int_attr(0, index);
    let zero = b.op("arith.constant", &[], &[index], vec![("value", zero_attr)], loc);
    let zero_v = b.ir.result(zero, 0);
    let i64_ty = b.ir.int_type(64);
    let eq = b.ir.int_attr(0, i64_ty);
    let cmp = b.op("arith.cmpi", &[cast_v, zero_v], &[i1], vec![("predicate", eq)], loc);
    let cond = b.ir.result(cmp, 0);

    let results: Vec<Value> = ir.results(op).to_vec();
    let result_types: Vec<_> = results.iter().map(|v| ir.value_type(*v)).collect();
    let tied: Vec<Value> = if custom::is_custom(ir, op) {
        custom::outs(ir, op).to_vec()
    } else {
        ir.operands(op).get(1).copied().into_iter().collect()
    };
    if result_types.iter().enumerate().any(|(i, t)| tied.get(i).map(|v| ir.value_type(*v)) != Some(*t)) {
        return Err(Diagnostic::error(
            loc,
            "cannot limit to sub-block 0: a result has no tied output of the same type",
        ));
    }
    // scf.if %cond -> (types) { clone; yield results } else { yield tied outs }
    let then_r = ir.new_region();
    let else_r = ir.new_region();
    let if_name = ir.sym("scf.if");
    let mut st = OperationState::new(if_name, loc);
    st.operands = vec![cond];
    st.result_types = result_types.clone();
    st.regions = vec![then_r, else_r];
    let unit = ir.unit_attr();
    let limit = ir.sym(LIMIT);
    st.attrs.push((limit, unit));
    st.properties = Some(ir.empty_dict());
    let if_op = ir.create_op(st);
    ir.insert_op_before(op, if_op);
    let then_b = ir.create_block();
    ir.push_block(then_r, then_b);
    ir.detach_op(op);
    ir.append_op(then_b, op);
    let yield_name = ir.sym("scf.yield");
    let mut y = OperationState::new(yield_name, loc);
    y.operands = results.clone();
    y.properties = Some(ir.empty_dict());
    let y = ir.create_op(y);
    ir.append_op(then_b, y);
    if !results.is_empty() {
        let else_b = ir.create_block();
        ir.push_block(else_r, else_b);
        let mut y = OperationState::new(yield_name, loc);
        y.operands = tied;
        y.properties = Some(ir.empty_dict());
        let y = ir.create_op(y);
        ir.append_op(else_b, y);
        // Uses outside the scf.if now see its results.
        let root = ir.top_ancestor(if_op);
        let new: Vec<Value> = ir.results(if_op).to_vec();
        let mut inside = std::collections::HashSet::new();
        ir.walk(if_op, &mut |o| {
            inside.insert(o);
        });
        let mut users = Vec::new();
        ir.walk(root, &mut |o| {
            if !inside.contains(&o) {
                users.push(o);
            }
        });
        let map: HashMap<Value, Value> = results.iter().copied().zip(new).collect();
        for u in users {
            for (i, v) in ir.operands(u).to_vec().into_iter().enumerate() {
                if let Some(n) = map.get(&v) {
                    ir.set_operand(u, i, *n);
                }
            }
        }
    }
    Ok(())
}

impl Pass for BindSubBlock {
    fn name(&self) -> &str {
        "hivm-bind-sub-block"
    }

    fn display_name(&self) -> &str {
        "TileAndBindSubBlock"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        if ir.has_attr(root, "hivm.disable_auto_tile_and_bind_subblock") {
            return Ok(());
        }
        let mut funcs = Vec::new();
        ir.walk(root, &mut |o| {
            if ir.is_op(o, "func.func") && is_aiv_mix_part(ir, o) {
                funcs.push(o);
            }
        });
        let has_custom = funcs.iter().any(|f| {
            let mut found = false;
            ir.walk(*f, &mut |o| found |= custom::is_custom(ir, o));
            found
        });
        if !has_custom {
            return Ok(());
        }
        for f in funcs {
            let mut targets = Vec::new();
            ir.walk(f, &mut |o| {
                if should_limit(ir, o) {
                    targets.push(o);
                }
            });
            for op in targets {
                wrap(ir, op)?;
            }
        }
        Ok(())
    }
}

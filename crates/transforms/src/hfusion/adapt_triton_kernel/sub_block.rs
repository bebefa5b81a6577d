//! Loops triton-ascend marks `bind_sub_block = true` become HFusion's
//! `hfusion.bind_sub_block` loops. Binding a loop to sub-blocks later turns
//! it into parallel blocks, which takes index bounds, so an integer loop is
//! normalised first: its bounds are cast to index before it and its
//! induction variable cast back at the top of the body (upstream's
//! `normalizeToIndex`; unlike upstream, loop-carried values are kept).

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::{Ir, OpId, TypeData};

const MARK: &str = "bind_sub_block";

pub(super) fn normalize_marked_loops(ir: &mut Ir, module: OpId) {
    let mut loops = Vec::new();
    ir.walk(module, &mut |o| {
        if ir.is_op(o, "scf.for") && ir.get_attr(o, MARK).and_then(|a| ir.as_int(a)) == Some(1) {
            loops.push(o);
        }
    });
    for l in loops {
        normalize_to_index(ir, l);
        ir.remove_attr(l, MARK);
        let unit = ir.unit_attr();
        ir.set_attr(l, "hfusion.bind_sub_block", unit);
    }
}

fn normalize_to_index(ir: &mut Ir, l: OpId) {
    let index = ir.index_type();
    let bounds: Vec<_> = ir.operands(l)[..3].to_vec();
    if bounds.iter().all(|b| ir.value_type(*b) == index) {
        return;
    }
    let loc = ir.loc(l);
    let int_ty = ir.value_type(bounds[0]);
    for (i, b) in bounds.into_iter().enumerate() {
        let c = Builder::new(ir, InsertPoint::Before(l)).op("arith.index_cast", &[b], &[index], vec![], loc);
        let cv = ir.result(c, 0);
        ir.set_operand(l, i, cv);
    }
    let body = ir.region_blocks(ir.regions(l)[0])[0];
    let iv = ir.block_args(body)[0];
    debug_assert!(matches!(ir.type_data(int_ty), TypeData::Integer { .. }));
    ir.set_value_type(iv, index);
    let at = ir.block_ops(body).next();
    let ip = match at {
        Some(first) => InsertPoint::Before(first),
        None => InsertPoint::End(body),
    };
    let c = Builder::new(ir, ip).op("arith.index_cast", &[iv], &[int_ty], vec![], loc);
    let old_iv_uses = ir.result(c, 0);
    ir.replace_uses_with(l, |v| (v == iv).then_some(old_iv_uses));
    // The cast itself reads the new index induction variable.
    ir.set_operand(c, 0, iv);
}

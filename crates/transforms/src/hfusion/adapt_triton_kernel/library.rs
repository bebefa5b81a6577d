//! Calls of triton-ascend's library functions that have an hfusion op on
//! every target: `triton_print*`, `triton_assert*`, `triton_gather*`,
//! `triton_cum{sum,prod}*` (and `cum{max,min}` on register-based targets),
//! `triton_sort*`, `triton_flip*`. Each call becomes its op, built just
//! before the call at its location; a call whose form does not fit (an
//! attribute missing on the declaration, another arity) stays a call.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Attribute, Ir, OpId, TypeData, Value};

use hivm_dialects::util::constant_int;

/// Whether the declaration goes with its last call (as upstream erases it).
pub(super) fn erases_callee(callee: &str) -> bool {
    ["triton_print", "triton_assert", "triton_gather", "triton_cum", "triton_sort", "triton_flip"]
        .iter()
        .any(|p| callee.starts_with(p))
}

pub(super) fn rewrite(ir: &mut Ir, call: OpId, func: OpId, callee: &str, regbase: bool) -> Result<bool, Diagnostic> {
    if callee.starts_with("triton_print") {
        return Ok(print(ir, call, func));
    }
    if callee.starts_with("triton_assert") {
        return Ok(assert(ir, call, func));
    }
    if callee.starts_with("triton_gather") {
        return gather(ir, call).map(|()| true);
    }
    let cum = if callee.starts_with("triton_cumsum") {
        Some("hfusion.cumsum")
    } else if callee.starts_with("triton_cumprod") {
        Some("hfusion.cumprod")
    } else if regbase && callee.starts_with("triton_cummax") {
        Some("hfusion.cummax")
    } else if regbase && callee.starts_with("triton_cummin") {
        Some("hfusion.cummin")
    } else {
        None
    };
    if let Some(name) = cum {
        return cumulative(ir, call, name, regbase).map(|()| true);
    }
    if callee.starts_with("triton_sort") {
        return sort(ir, call).map(|()| true);
    }
    if callee.starts_with("triton_flip") {
        return flip(ir, call).map(|()| true);
    }
    Ok(false)
}

/// One `hfusion.print` per argument, with the declaration's `prefix` and `hex`.
fn print(ir: &mut Ir, call: OpId, func: OpId) -> bool {
    let (Some(prefix), Some(hex)) = (ir.get_attr(func, "prefix"), ir.get_attr(func, "hex")) else { return false };
    let loc = ir.loc(call);
    for v in ir.operands(call).to_vec() {
        Builder::new(ir, InsertPoint::Before(call)).op(
            "hfusion.print",
            &[v],
            &[],
            vec![("prefix", prefix), ("hex", hex)],
            loc,
        );
    }
    ir.erase_op(call);
    true
}

/// `hfusion.assert` with the declaration's `msg`; a tensor condition of i1
/// is widened to i8 first.
fn assert(ir: &mut Ir, call: OpId, func: OpId) -> bool {
    let Some(msg) = ir.get_attr(func, "msg") else { return false };
    if ir.operands(call).len() != 1 {
        return false;
    }
    let loc = ir.loc(call);
    let mut cond = ir.operand(call, 0);
    if let TypeData::RankedTensor { shape, .. } = ir.type_data(ir.value_type(cond)).clone() {
        let i8 = ir.int_type(8);
        let t = ir.ty(TypeData::RankedTensor { shape, elem: i8, encoding: None });
        let ext = Builder::new(ir, InsertPoint::Before(call)).op("arith.extui", &[cond], &[t], vec![], loc);
        cond = ir.result(ext, 0);
    }
    Builder::new(ir, InsertPoint::Before(call)).op("hfusion.assert", &[cond], &[], vec![("msg", msg)], loc);
    ir.erase_op(call);
    true
}

/// The constant operand `i` of the call, or upstream's error naming `what`.
fn constant_operand(ir: &Ir, call: OpId, i: usize, what: &str) -> Result<i64, Diagnostic> {
    ir.operands(call).get(i).and_then(|v| constant_int(ir, *v)).ok_or_else(|| {
        Diagnostic::error(ir.loc(call), format!("Failed to extract the value of arith.constant defining the {what}."))
    })
}

fn operand(ir: &Ir, call: OpId, i: usize, what: &str) -> Result<Value, Diagnostic> {
    ir.operands(call).get(i).copied().ok_or_else(|| {
        Diagnostic::error(ir.loc(call), format!("'{}' call without its {what} operand", ir.op_name(call)))
    })
}

fn single_result(ir: &Ir, call: OpId) -> Result<Value, Diagnostic> {
    match ir.results(call) {
        [r] if ir.type_data(ir.value_type(*r)).is_tensor() => Ok(*r),
        _ => Err(Diagnostic::error(ir.loc(call), "expected the library call to return one tensor")),
    }
}

fn replace_call(ir: &mut Ir, call: OpId, new: OpId) {
    let results = ir.results(new).to_vec();
    ir.replace_op(call, &results);
}

/// `hfusion.gather` of the index tensor's shape along the constant axis.
fn gather(ir: &mut Ir, call: OpId) -> Result<(), Diagnostic> {
    let src = operand(ir, call, 0, "source")?;
    let index = operand(ir, call, 1, "index")?;
    let axis = constant_operand(ir, call, 2, "gather axis")?;
    single_result(ir, call)?;
    let loc = ir.loc(call);
    let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(src));
    let Some(shape) = ir.type_data(ir.value_type(index)).shape().map(|s| s.to_vec()) else {
        return Err(Diagnostic::error(loc, "expected the gather index to be a ranked tensor"));
    };
    let t = ir.ty(TypeData::RankedTensor { shape, elem, encoding: None });
    let empty = Builder::new(ir, InsertPoint::Before(call)).op("tensor.empty", &[], &[t], vec![], loc);
    let init = ir.result(empty, 0);
    let g = hivm_dialects::hfusion::build_gather(ir, InsertPoint::Before(call), src, index, init, axis, loc);
    replace_call(ir, call, g);
    Ok(())
}

/// `hfusion.cum*` over the constant dimension, `reverse` from the third
/// operand (on register-based targets a non-constant one means false, as
/// upstream) and, for cummax/cummin, `propagate_nan` from an optional fourth.
fn cumulative(ir: &mut Ir, call: OpId, name: &str, regbase: bool) -> Result<(), Diagnostic> {
    let src = operand(ir, call, 0, "source")?;
    let dim = constant_operand(ir, call, 1, "cum dims")?;
    let reverse = if regbase {
        ir.operands(call).get(2).and_then(|v| constant_int(ir, *v)).unwrap_or(0) != 0
    } else {
        constant_operand(ir, call, 2, "reverse")? != 0
    };
    single_result(ir, call)?;
    let t = ir.value_type(src);
    let loc = ir.loc(call);
    let dims = hivm_dialects::util::i64_array_attr(ir, &[dim]);
    let rev = ir.bool_attr(reverse);
    let mut attrs: Vec<(&str, Attribute)> = vec![("cum_dims", dims), ("reverse", rev)];
    if matches!(name, "hfusion.cummax" | "hfusion.cummin") {
        let nan = ir.operands(call).get(3).and_then(|v| constant_int(ir, *v)).is_none_or(|v| v != 0);
        attrs.push(("propagate_nan", ir.bool_attr(nan)));
    }
    let op = Builder::new(ir, InsertPoint::Before(call)).op(name, &[src], &[t], attrs, loc);
    replace_call(ir, call, op);
    Ok(())
}

fn sort(ir: &mut Ir, call: OpId) -> Result<(), Diagnostic> {
    let src = operand(ir, call, 0, "source")?;
    let axis = constant_operand(ir, call, 1, "sort axis")?;
    let descending = constant_operand(ir, call, 2, "descending")? != 0;
    single_result(ir, call)?;
    let t = ir.value_type(src);
    let loc = ir.loc(call);
    let i64t = ir.int_type(64);
    let axis = ir.int_attr(axis as i128, i64t);
    let desc = ir.bool_attr(descending);
    let op = Builder::new(ir, InsertPoint::Before(call)).op(
        "hfusion.sort",
        &[src],
        &[t],
        vec![("descending", desc), ("sort_axis", axis)],
        loc,
    );
    replace_call(ir, call, op);
    Ok(())
}

fn flip(ir: &mut Ir, call: OpId) -> Result<(), Diagnostic> {
    let src = operand(ir, call, 0, "source")?;
    let axis = constant_operand(ir, call, 1, "Flip axis")?;
    single_result(ir, call)?;
    let t = ir.value_type(src);
    let loc = ir.loc(call);
    let i64t = ir.int_type(64);
    let axis = ir.int_attr(axis as i128, i64t);
    let op =
        Builder::new(ir, InsertPoint::Before(call)).op("hfusion.flip", &[src], &[t], vec![("flip_axis", axis)], loc);
    replace_call(ir, call, op);
    Ok(())
}

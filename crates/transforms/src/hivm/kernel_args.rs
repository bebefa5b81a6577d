//! `triton-global-kernel-args-to-hivm-op`: a Triton kernel after
//! triton-to-linalg ends in six i32 parameters, the program counts x, y, z
//! and then the program ids. The NPU launches a flat range of blocks, so the
//! ids are decoded from `hivm.hir.get_block_idx`: register-based targets
//! number blocks x-fastest, memory-based ones z-fastest (as the launcher
//! does). The id parameters are then dropped; the counts stay (the launcher
//! still passes them), and their product is marked `logical_block_num`.
//! The function also gets `func_dyn_memref_args`: which parameters are
//! memrefs without a static shape (passed as descriptors).

use hivm_ir::attrs::DenseElem;
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{AttrData, Ir, OpId, TypeData, Value};

pub struct TritonGlobalKernelArgs;

const GRID_ARGS: usize = 6;

impl Pass for TritonGlobalKernelArgs {
    fn name(&self) -> &str {
        "triton-global-kernel-args-to-hivm-op"
    }

    fn display_name(&self) -> &str {
        "TritonGlobalKernelArgsToHIVMOp"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let regbase = crate::conversion::to_hfusion::regbase(ir, root);
        for f in super::defined_functions(ir, root) {
            if is_device_entry(ir, f) {
                decode_program_ids(ir, f, regbase)?;
                mark_dynamic_memref_args(ir, f);
            }
        }
        Ok(())
    }
}

/// `hacc::utils::isDeviceEntry`: a DEVICE function marked `hacc.entry`.
fn is_device_entry(ir: &Ir, f: OpId) -> bool {
    ir.has_attr(f, "hacc.entry")
        && ir.get_attr(f, "hacc.function_kind").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"))
            == Some("DEVICE")
}

fn decode_program_ids(ir: &mut Ir, f: OpId, regbase: bool) -> Result<(), Diagnostic> {
    let block = ir.region_blocks(ir.regions(f)[0])[0];
    let params = ir.block_args(block).to_vec();
    let n = params.len();
    if n < GRID_ARGS {
        return Err(Diagnostic::error(ir.loc(f), "arguments program id or program num are missing"));
    }
    if !params[n - GRID_ARGS..].iter().all(|p| ir.type_data(ir.value_type(*p)).is_signless_int(32)) {
        return Err(Diagnostic::error(ir.loc(f), "incompatible types of arguments program id or program num"));
    }
    let counts = &params[n - 6..n - 3];
    let ids = &params[n - 3..];
    let Some(first) = ir.block(block).first else {
        return Err(Diagnostic::error(ir.loc(f), "a kernel without a body"));
    };
    let loc = ir.loc(first);
    let (i32t, i64t) = (ir.int_type(32), ir.int_type(64));
    let mut b = Builder::new(ir, InsertPoint::Before(first));
    let bin = |b: &mut Builder<'_>, name: &str, l: Value, r: Value| {
        let o = b.op(name, &[l, r], &[i32t], vec![], loc);
        b.ir.result(o, 0)
    };
    let xy = bin(&mut b, "arith.muli", counts[0], counts[1]);
    let xyz = bin(&mut b, "arith.muli", xy, counts[2]);
    let unit = b.ir.unit_attr();
    b.op("annotation.mark", &[xyz], &[], vec![("logical_block_num", unit)], loc);
    let idx = b.op("hivm.hir.get_block_idx", &[], &[i64t], vec![], loc);
    let idx = b.ir.result(idx, 0);
    let idx = b.op("arith.trunci", &[idx], &[i32t], vec![], loc);
    let idx = b.ir.result(idx, 0);
    let one = b.ir.int_attr(1, i32t);
    let one = b.op("arith.constant", &[], &[i32t], vec![("value", one)], loc);
    let mut stride = b.ir.result(one, 0);
    let order: [usize; 3] = if regbase { [0, 1, 2] } else { [2, 1, 0] };
    let mut decoded = [None; 3];
    for (k, axis) in order.into_iter().enumerate() {
        let q = bin(&mut b, "arith.divsi", idx, stride);
        decoded[axis] = Some(bin(&mut b, "arith.remsi", q, counts[axis]));
        if k + 1 < order.len() {
            stride = bin(&mut b, "arith.muli", stride, counts[axis]);
        }
    }
    for (id, v) in ids.iter().zip(decoded) {
        ir.replace_all_uses_in(f, *id, v.expect("every axis decoded"));
    }
    drop_trailing_params(ir, f, block, n - 3);
    Ok(())
}

/// Removes the parameters from index `keep` on from the body, the type and
/// the argument attributes.
fn drop_trailing_params(ir: &mut Ir, f: OpId, block: hivm_ir::BlockId, keep: usize) {
    ir.truncate_block_args(block, keep);
    if let Some(TypeData::Function { inputs, results }) =
        ir.get_attr(f, "function_type").and_then(|a| ir.as_type(a)).map(|t| ir.type_data(t).clone())
    {
        let ft = ir.function_type(inputs[..keep.min(inputs.len())].to_vec(), results);
        let a = ir.type_attr(ft);
        ir.set_attr(f, "function_type", a);
    }
    if let Some(attrs) = ir.get_attr(f, "arg_attrs").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()) {
        let kept = attrs[..keep.min(attrs.len())].to_vec();
        let empty = ir.dict_attr(vec![]);
        if kept.iter().all(|a| *a == empty) {
            ir.remove_attr(f, "arg_attrs");
        } else {
            let a = ir.array_attr(kept);
            ir.set_attr(f, "arg_attrs", a);
        }
    }
}

fn mark_dynamic_memref_args(ir: &mut Ir, f: OpId) {
    let block = ir.region_blocks(ir.regions(f)[0])[0];
    let flags: Vec<DenseElem> = ir
        .block_args(block)
        .iter()
        .map(|p| {
            let dynamic = matches!(ir.type_data(ir.value_type(*p)),
                TypeData::MemRef { shape, .. } if shape.contains(&hivm_ir::types::DYNAMIC));
            DenseElem::Int(dynamic as i128)
        })
        .collect();
    let i1 = ir.int_type(1);
    let ty =
        ir.ty(TypeData::Vector { shape: vec![flags.len() as i64], scalable: vec![false], elem: i1, encoding: None });
    // MLIR stores equal elements once, as a splat (`dense<false>`).
    let splat = flags.windows(2).all(|w| w[0] == w[1]) && !flags.is_empty();
    let elems = if splat { flags[..1].to_vec() } else { flags };
    let a = ir.attr(AttrData::DenseElements { ty, splat, elems });
    ir.set_attr(f, "func_dyn_memref_args", a);
}

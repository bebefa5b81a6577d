//! The cube ops as declarative definitions: `nd2nz` (a DMA on PIPE_MTE2),
//! the local matrix multiplies `mmadL1`, `batchMmadL1` and `mmadmxL1`
//! (read on PIPE_MTE1, write on PIPE_M), the local convolutions, and the
//! global `matmul` family. `fixpipe` keeps its hand-written syntax
//! (`macro_ops.rs`), as upstream's does.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{
    AttrDef, AttrKind, Fixed, OpSpec, ValueDef, attr, one, opt, opt_attr, optional_default_attr, var,
};
use hivm_ir::types::{DYNAMIC, FloatKind, Signedness};
use hivm_ir::{Ir, OpDef, OpId, TypeData};

use super::attrs::kinds::DESCALE_MODE;
use super::ops::{is_tensor_or_memref, type_error, verify_dps};
use crate::util::{segment, type_str};

const ND2NZ: OpSpec = OpSpec {
    name: "hivm.hir.nd2nz",
    operands: &[one("src"), one("dst"), opt("pad_value"), opt("init_condition")],
    attrs: &[
        opt_attr("dst_continuous", AttrKind::Unit),
        optional_default_attr("init_out_buffer", AttrKind::Bool, "false"),
    ],
    results: &[var("result_tensor")],
    segments: true,
    format: "attr-dict `ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)` \
             (`init_out_buffer` `=` $init_out_buffer^ )? (`pad_value` `=` $pad_value^ `:` type($pad_value))? \
             (`init_condition` `=` $init_condition^ `:` type($init_condition))? (`->` type($result_tensor)^)?",
    ..OpSpec::EMPTY
};

const TENSOR_RESULTS: &[ValueDef] = &[var("result_tensors")];

// ----- mmadL1 / batchMmadL1 -----
// Operand groups: a, b, init_condition, real_m, real_k, real_n, c,
// sync_related_args, unit_flag_cond, per_channel_bias.

const MMAD_OPERANDS: &[ValueDef] = &[
    one("a"),
    one("b"),
    one("init_condition"),
    one("real_m"),
    one("real_k"),
    one("real_n"),
    one("c"),
    var("sync_related_args"),
    var("unit_flag_cond").of(Fixed::Int(1)),
    opt("per_channel_bias"),
];

const MMAD_ATTRS: &[AttrDef] = &[
    opt_attr("a_transpose", AttrKind::Unit),
    opt_attr("b_transpose", AttrKind::Unit),
    opt_attr("enable_HF32", AttrKind::Unit),
    opt_attr("enable_I4", AttrKind::Unit),
    opt_attr("unit_flag_mode", AttrKind::Array),
    opt_attr("unit_flag_group_id", AttrKind::Int(64)),
];

const fn mmad(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: MMAD_OPERANDS,
        attrs: MMAD_ATTRS,
        results: TENSOR_RESULTS,
        segments: true,
        format: "attr-dict `ins` `(` $a `,` $b `,` $init_condition `,` $real_m `,` $real_k `,` $real_n \
                 (`,` $per_channel_bias^)? `:` type($a) `,` type($b) `,` type($init_condition) `,` type($real_m) `,` \
                 type($real_k) `,` type($real_n) (`,` type($per_channel_bias)^)? `)` `outs` `(` $c `:` type($c) `)` \
                 (`sync_related_args` `(` $sync_related_args^ `:` type($sync_related_args) `)`)? \
                 (`unit_flag_mode` `(` $unit_flag_mode^ `)` )? (`unit_flag_cond` `(` $unit_flag_cond^ `)` )? \
                 (`->` type($result_tensors)^)?",
        verify: Some(verify_mmad),
        ..OpSpec::EMPTY
    }
}

fn verify_mmad(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let cond = segment(ir, op, 2)[0];
    if !ir.type_data(ir.value_type(cond)).is_signless_int(1) {
        return Err(format!(
            "operand #2 must be 1-bit signless integer, but got '{}'",
            type_str(ir, ir.value_type(cond))
        )
        .into());
    }
    for i in 3..6 {
        let v = segment(ir, op, i)[0];
        if !matches!(ir.type_data(ir.value_type(v)), TypeData::Index) {
            return Err(format!("operand #{i} must be index, but got '{}'", type_str(ir, ir.value_type(v))).into());
        }
    }
    for v in segment(ir, op, 7) {
        if !ir.type_data(ir.value_type(*v)).is_signless_int(64) {
            return Err("sync_related_args must be 64-bit signless integers".into());
        }
    }
    Ok(())
}

// ----- mmadmxL1 -----
// Operand groups (upstream's order): a, b, scaleA, scaleB, init_condition,
// real_m, real_k, real_n, c, sync_related_args, per_channel_bias.

/// Group of C, the init.
const MX_C: usize = 8;
const MX_SYNC: usize = 9;

const MMADMX: OpSpec = OpSpec {
    name: "hivm.hir.mmadmxL1",
    operands: &[
        one("a"),
        one("b"),
        one("scaleA"),
        one("scaleB"),
        one("init_condition"),
        one("real_m"),
        one("real_k"),
        one("real_n"),
        one("c"),
        var("sync_related_args"),
        opt("per_channel_bias"),
    ],
    attrs: &[
        opt_attr("lhsFormat", AttrKind::Int(32)),
        opt_attr("rhsFormat", AttrKind::Int(32)),
        opt_attr("a_transpose", AttrKind::Unit),
        opt_attr("b_transpose", AttrKind::Unit),
    ],
    results: TENSOR_RESULTS,
    segments: true,
    format: "attr-dict (`a_transpose` $a_transpose^)? (`b_transpose` $b_transpose^)? `ins` `(` $a `,` $b `,` $scaleA \
             `,` $scaleB `,` $init_condition `,` $real_m `,` $real_k `,` $real_n (`,` $per_channel_bias^)? `:` type($a) \
             `,` type($b) `,` type($scaleA) `,` type($scaleB) `,` type($init_condition) `,` type($real_m) `,` \
             type($real_k) `,` type($real_n) (`,` type($per_channel_bias)^)? `)` `outs` `(` $c `:` type($c) `)` \
             (`sync_related_args` `(` $sync_related_args^ `:` type($sync_related_args) `)`)? \
             (`->` type($result_tensors)^)?",
    verify: Some(verify_mmad_mx),
    ..OpSpec::EMPTY
};

/// Upstream `ShapedTypeOf<[...]>`: any shaped type whose element type passes.
fn shaped_of(ir: &Ir, t: hivm_ir::Type, elem_ok: impl Fn(&TypeData) -> bool) -> bool {
    let td = ir.type_data(t);
    td.is_shaped() && td.element_type().is_some_and(|e| elem_ok(ir.type_data(e)))
}

fn is_int8(td: &TypeData, signedness: Signedness) -> bool {
    matches!(td, TypeData::Integer { width: 8, signedness: s } if *s == signedness)
}

/// `i8` or `ui8`: the scale element types.
fn is_scale_elem(td: &TypeData) -> bool {
    is_int8(td, Signedness::Signless) || is_int8(td, Signedness::Unsigned)
}

/// `f8E4M3FN`, `f8E5M2`, `ui8` or `i8`: the MX matrix element types.
fn is_mx_elem(td: &TypeData) -> bool {
    matches!(td, TypeData::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2)) || is_scale_elem(td)
}

/// ODS's type constraints of mmadmxL1 and the destination-style checks
/// (upstream has no verifier of its own).
fn verify_mmad_mx(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for k in ["lhsFormat", "rhsFormat"] {
        if let Some(v) = ir.get_attr(op, k).and_then(|a| ir.as_int(a))
            && !(1..=3).contains(&v)
        {
            return Err(format!(
                "attribute '{k}' failed to satisfy constraint: allowed 32-bit signless integer cases: 1, 2, 3"
            )
            .into());
        }
    }
    let sizes = crate::util::segments(ir, op);
    let starts: Vec<usize> = sizes.iter().scan(0, |acc, n| Some(std::mem::replace(acc, *acc + n))).collect();
    let operand_ok = |seg: usize, t: hivm_ir::Type| -> Result<(), &'static str> {
        let td = ir.type_data(t);
        let (ok, summary) = match seg {
            0 | 1 => (shaped_of(ir, t, is_mx_elem), "Shaped Type"),
            2 | 3 => (shaped_of(ir, t, is_scale_elem), "Shaped Type"),
            4 => (td.is_signless_int(1), "1-bit signless integer"),
            5..=7 => (matches!(td, TypeData::Index), "index"),
            MX_C => (shaped_of(ir, t, |e| matches!(e, TypeData::Float(_))), "Shaped Type"),
            MX_SYNC => (td.is_signless_int(64), "variadic of 64-bit signless integer"),
            _ => (is_tensor_or_memref(ir, t), "Tensor or Memref"),
        };
        if ok { Ok(()) } else { Err(summary) }
    };
    for (seg, start) in starts.iter().enumerate() {
        for (k, v) in segment(ir, op, seg).iter().enumerate() {
            let t = ir.value_type(*v);
            if let Err(summary) = operand_ok(seg, t) {
                return Err(type_error(ir, "operand", start + k, summary, t));
            }
        }
    }
    for (i, r) in ir.results(op).iter().enumerate() {
        let t = ir.value_type(*r);
        if !shaped_of(ir, t, |e| matches!(e, TypeData::Float(_))) {
            return Err(type_error(ir, "result", i, "variadic of Shaped Type", t));
        }
    }
    verify_dps(ir, op, starts[MX_C]..starts[MX_C] + 1)
}

// ----- Conv1dL1 / Conv2dL1 / Conv3dL1 -----

const CONV1D_ATTRS: &[AttrDef] = &[attr("padding", AttrKind::Int(32)), attr("groups", AttrKind::Int(32))];
/// Conv2d/3d pad per dimension.
const CONV_ATTRS: &[AttrDef] = &[attr("padding", AttrKind::Any), attr("groups", AttrKind::Int(32))];

const fn conv(name: &'static str, attrs: &'static [AttrDef]) -> OpSpec {
    const OPERANDS: &[ValueDef] =
        &[one("input"), one("weight"), opt("bias"), one("init"), one("init_condition"), var("sync_related_args")];
    OpSpec {
        name,
        operands: OPERANDS,
        attrs,
        results: TENSOR_RESULTS,
        segments: true,
        format: "attr-dict `ins` `(` $input `,` $weight `,` $init_condition (`,` $bias^)? `:` type($input) `,` \
                 type($weight) `,` type($init_condition) (`,` type($bias)^)? `)` `outs` `(` $init `:` type($init) `)` \
                 (`sync_related_args` `(` $sync_related_args^ `:` type($sync_related_args) `)` )? \
                 (`->` type($result_tensors)^)?",
        ..OpSpec::EMPTY
    }
}

// ----- matmul / mix_matmul / mix_group_matmul (global) -----

/// The clauses after `outs(...)` the global matmuls share.
macro_rules! matmul_tail {
    () => {
        "(`bias` `=` $bias^ `:` type($bias) )? (`descale` `=` $descale^ `:` type($descale))? \
         (`a_transpose` $aTranspose^)? (`b_transpose` $bTranspose^)? (`descale_mode` `=` $descaleMode^)? \
         (`block_sizes` `(` $blockSizes^ `:` type($blockSizes) `)`)? \
         (`process_sizes` `(` $processSizes^ `:` type($processSizes) `)`)? \
         (`swizzle_offset` `=` $swizzleOffset^ `:` type($swizzleOffset) )? \
         (`swizzle_direction` `=` $swizzleDirection^ `:` type($swizzleDirection))? \
         (`epilogue_p_tiles` `=` $epiloguePTiles^ `:` type($epiloguePTiles))? (`->` type($result)^)?"
    };
}

const MATMUL_ATTRS: &[AttrDef] = &[
    opt_attr("aTranspose", AttrKind::Unit),
    opt_attr("bTranspose", AttrKind::Unit),
    opt_attr("descaleMode", DESCALE_MODE),
];

const MATMUL: OpSpec = OpSpec {
    name: "hivm.hir.matmul",
    operands: &[
        one("a"),
        one("b"),
        opt("tilingParams"),
        opt("bias"),
        opt("descale"),
        var("blockSizes"),
        var("processSizes"),
        opt("swizzleOffset"),
        opt("swizzleDirection"),
        opt("epiloguePTiles"),
        one("c"),
    ],
    attrs: MATMUL_ATTRS,
    results: &[var("result")],
    segments: true,
    format: concat!(
        "attr-dict `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)` `outs` `(` $c `:` type($c) `)` ",
        "(`tiling_params` `=` $tilingParams^ `:` type($tilingParams) ) ? ",
        matmul_tail!()
    ),
    verify: Some(verify_matmul),
    ..OpSpec::EMPTY
};

/// Where a global matmul keeps its operand groups.
struct GlobalMmad {
    a: usize,
    b: usize,
    tokens_per_expert: Option<usize>,
    tiling_params: usize,
    bias: usize,
    descale: usize,
    /// blockSizes, processSizes, swizzleOffset, swizzleDirection, epiloguePTiles.
    tiling: usize,
}

const MATMUL_GROUPS: GlobalMmad =
    GlobalMmad { a: 0, b: 1, tokens_per_expert: None, tiling_params: 2, bias: 3, descale: 4, tiling: 5 };
const MIX_MATMUL_GROUPS: GlobalMmad =
    GlobalMmad { a: 0, b: 1, tokens_per_expert: None, tiling_params: 4, bias: 6, descale: 7, tiling: 8 };
const MIX_GROUP_MATMUL_GROUPS: GlobalMmad =
    GlobalMmad { a: 0, b: 1, tokens_per_expert: Some(2), tiling_params: 6, bias: 8, descale: 9, tiling: 10 };

/// The shape of the one value of group `g` (`None` when the group is empty
/// or the type has no rank).
fn group_shape(ir: &Ir, op: OpId, g: usize) -> Option<&[i64]> {
    let v = *segment(ir, op, g).first()?;
    ir.type_data(ir.value_type(v)).shape()
}

/// Upstream's checks of the global matmuls: operand ranks, then the
/// descale, bias and tiling parameters.
fn verify_global_mmad(ir: &Ir, op: OpId, g: &GlobalMmad) -> Result<(), VerifyError> {
    let rank = |i: usize| group_shape(ir, op, i).map(<[i64]>::len);
    match g.tokens_per_expert {
        None => {
            if rank(g.a) != Some(2) || rank(g.b) != Some(2) {
                return Err("matrix A and matrix B must be 2D".into());
            }
        }
        Some(t) => {
            if rank(g.a) != Some(3) {
                return Err("matrix A must be 3D".into());
            }
            if rank(g.b) != Some(2) {
                return Err("matrix B must be 2D".into());
            }
            if rank(t) != Some(1) {
                return Err("matrix TokensPerExpert must be 1D".into());
            }
        }
    }
    let channel = group_shape(ir, op, g.b).and_then(|s| s.get(1).copied()).unwrap_or(DYNAMIC);
    // Descale.
    let mode = ir.get_attr(op, "descaleMode").and_then(|a| super::attrs::enum_value(ir, a, "descale_mode"));
    if let Some(mode) = mode.filter(|m| *m != "DescaleNull") {
        if segment(ir, op, g.descale).is_empty() {
            return Err("The descaleMode is defined, descale params must be defined!".into());
        }
        let shape = group_shape(ir, op, g.descale).unwrap_or(&[]);
        let [dim] = shape else { return Err("descale must must be 1D".into()) };
        if *dim != DYNAMIC && channel != DYNAMIC {
            if mode == "DescalePerTensor" && *dim != 1 {
                return Err("The descaleMode is DescalePerTensor, the size of descale is equal to 1".into());
            }
            if mode == "DescalePerChannel" && *dim != channel {
                return Err(
                    "The descaleMode is DescalePerChannel, the size of descale is equal to the col size of B".into()
                );
            }
        }
    }
    // Bias.
    if !segment(ir, op, g.bias).is_empty() {
        let shape = group_shape(ir, op, g.bias).unwrap_or(&[]);
        let [dim] = shape else { return Err("bias must must be 1D".into()) };
        if *dim != DYNAMIC && channel != DYNAMIC && *dim != channel {
            return Err("The size of bias is equal to the col size of B".into());
        }
    }
    // Tiling parameters.
    let explicit = (g.tiling..g.tiling + 5).any(|i| !segment(ir, op, i).is_empty());
    if !segment(ir, op, g.tiling_params).is_empty() && explicit {
        return Err("`TilingParams` and the other explicit tiling params cannot be set at the same time".into());
    }
    let blocks = segment(ir, op, g.tiling).len();
    if blocks != 0 && blocks != 3 {
        return Err("The size of Blocksize should be 3. The order is blockM, blockN, blockK".into());
    }
    let process = segment(ir, op, g.tiling + 1).len();
    if process != 0 && process != 3 {
        return Err("The size of ProcessSizes should be 3. The order is ProcessM, ProcessN, ProcessK".into());
    }
    Ok(())
}

fn verify_mix_matmul(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify_global_mmad(ir, op, &MIX_MATMUL_GROUPS)
}

fn verify_mix_group_matmul(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify_global_mmad(ir, op, &MIX_GROUP_MATMUL_GROUPS)
}

fn verify_matmul(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for s in [5, 6, 7, 8, 9] {
        for v in segment(ir, op, s) {
            if !ir.type_data(ir.value_type(*v)).is_signless_int(64) {
                return Err(format!(
                    "size operands must be 64-bit signless integers, got '{}'",
                    type_str(ir, ir.value_type(*v))
                )
                .into());
            }
        }
    }
    verify_global_mmad(ir, op, &MATMUL_GROUPS)
}

const MIX_MATMUL: OpSpec = OpSpec {
    name: "hivm.hir.mix_matmul",
    operands: &[
        one("a"),
        one("b"),
        var("postVecFuncIns"),
        var("workspaceIns"),
        opt("tilingParams"),
        opt("commParams"),
        opt("bias"),
        opt("descale"),
        var("blockSizes"),
        var("processSizes"),
        opt("swizzleOffset"),
        opt("swizzleDirection"),
        opt("epiloguePTiles"),
        one("c"),
    ],
    attrs: MATMUL_ATTRS,
    results: &[var("result")],
    segments: true,
    format: concat!(
        "attr-dict `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)` ",
        "(`post_vector_func_ins` `(` $postVecFuncIns^ `:` type($postVecFuncIns) `)`) ? ",
        "(`workspace_ins` `(` $workspaceIns^ `:` type($workspaceIns) `)`) ? `outs` `(` $c `:` type($c) `)` ",
        "(`tiling_params` `=` $tilingParams^ `:` type($tilingParams) ) ? ",
        "(`comm_params` `=` $commParams^ `:` type($commParams) ) ? ",
        matmul_tail!()
    ),
    verify: Some(verify_mix_matmul),
    ..OpSpec::EMPTY
};

const MIX_GROUP_MATMUL: OpSpec = OpSpec {
    name: "hivm.hir.mix_group_matmul",
    operands: &[
        one("a"),
        one("b"),
        one("tokens_per_expert"),
        var("postVecFuncIns"),
        var("postVecFuncOuts"),
        var("workspaceIns"),
        opt("tilingParams"),
        opt("commParams"),
        opt("bias"),
        opt("descale"),
        var("blockSizes"),
        var("processSizes"),
        opt("swizzleOffset"),
        opt("swizzleDirection"),
        opt("epiloguePTiles"),
        one("c"),
    ],
    attrs: MATMUL_ATTRS,
    results: &[var("result")],
    segments: true,
    format: concat!(
        "attr-dict `ins` `(` $a `,` $b `,` $tokens_per_expert `:` type($a) `,` type($b) `,` type($tokens_per_expert) `)` ",
        "(`post_vector_func_ins` `(` $postVecFuncIns^ `:` type($postVecFuncIns) `)`) ? ",
        "(`post_vector_func_outs` `(` $postVecFuncOuts^ `:` type($postVecFuncOuts) `)`) ? ",
        "(`workspace_ins` `(` $workspaceIns^ `:` type($workspaceIns) `)`) ? `outs` `(` $c `:` type($c) `)` ",
        "(`tiling_params` `=` $tilingParams^ `:` type($tilingParams) ) ? ",
        "(`comm_params` `=` $commParams^ `:` type($commParams) ) ? ",
        matmul_tail!()
    ),
    verify: Some(verify_mix_group_matmul),
    ..OpSpec::EMPTY
};

pub fn defs() -> Vec<OpDef> {
    [
        ND2NZ,
        mmad("hivm.hir.mmadL1"),
        mmad("hivm.hir.batchMmadL1"),
        MMADMX,
        conv("hivm.hir.Conv1dL1", CONV1D_ATTRS),
        conv("hivm.hir.Conv2dL1", CONV_ATTRS),
        conv("hivm.hir.Conv3dL1", CONV_ATTRS),
        MATMUL,
        MIX_MATMUL,
        MIX_GROUP_MATMUL,
    ]
    .into_iter()
    .map(OpSpec::def)
    .collect()
}

//! HIVM ops other than the custom, vector, macro and synchronisation ones:
//! block queries, `pointer_cast`, the control-register ops (`set_mask_norm`,
//! `set_ctrl`, `set_ffts_base_addr`), and the DMA ops `load`/`store`/`copy`/
//! `load_scale` — each one declarative definition with upstream's format.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{
    AttrKind, DYNAMIC_INDEX_LIST, Fixed, OpSpec, attr, one, opt, opt_attr, optional_default_attr, var,
};
use hivm_ir::types::{DYNAMIC, FloatKind};
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData};

use super::attrs::enum_value;
use super::attrs::kinds::{
    ADDRESS_SPACE, ATOMIC_KIND, DATA_CACHE_KIND, DATA_LAYOUT, DCCI_MODE, EVICTION_POLICY, PAD_MODE, TCORE_TYPE,
};
use crate::util::type_str;

// ----- get_block_idx and friends: `attr-dict -> type($result)` -----

fn verify_query(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let t = ir.value_type(ir.result(op, 0));
    if !ir.type_data(t).is_signless_int(64) {
        return Err(format!("result #0 must be 64-bit signless integer, but got '{}'", type_str(ir, t)).into());
    }
    Ok(())
}

fn verify_pointer_cast(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    if c.operand_group(ir, op, 0).is_empty() {
        return Err("addrs of PointerCastOp should not be empty!".into());
    }
    if !ir.type_data(ir.value_type(ir.result(op, 0))).is_memref() {
        return Err("result #0 must be memref of any type values".into());
    }
    Ok(())
}

// ----- load / store / copy -----

/// The `#hivm.address_space` value of a memref type: `Ok(None)` without a
/// memory space (or for a tensor), `Err(())` for some other attribute.
pub(super) fn hivm_space(ir: &Ir, t: Type) -> Result<Option<&str>, ()> {
    match ir.type_data(t) {
        TypeData::MemRef { memory_space: Some(a), .. } => enum_value(ir, *a, "address_space").map(Some).ok_or(()),
        _ => Ok(None),
    }
}

/// MLIR's `verifyCompatibleShape`: equal ranks, and each pair of sizes equal
/// unless one is dynamic.
pub(super) fn compatible_shapes(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y || *x == DYNAMIC || *y == DYNAMIC)
}

/// `f8E4M3FN` or `f8E5M2`, the f8 types the hardware checks name.
pub(super) fn is_fp8(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2))
}

/// Upstream's "Current hardware doesn't support fp8 type": the module
/// enclosing `op` names a target outside the 910_95/950 and register-based
/// families, and `elem` is an f8 type.
pub(super) fn fp8_unsupported(ir: &Ir, op: OpId, elem: Type) -> bool {
    if !is_fp8(ir, elem) {
        return false;
    }
    crate::hacc::nearest_module_target(ir, op)
        .is_some_and(|t| !(crate::hacc::is_910_95_family(t) || crate::hacc::is_regbase(t)))
}

/// What a DMA op's src, dst and result look like, after ODS's type checks
/// and the destination-style ones.
struct Dma<'a> {
    src: Type,
    dst: Type,
    src_shape: &'a [i64],
    dst_shape: &'a [i64],
    src_elem: Type,
    dst_elem: Type,
    result: Option<Type>,
}

/// `src`/`dst` (operands 0 and 1) must be `TensorOrMemref`, then the other
/// operands pass `more_operands`, the optional result is a ranked tensor;
/// then MLIR's destination-style checks.
fn dma_operands(
    ir: &Ir,
    op: OpId,
    more_operands: impl Fn() -> Result<(), VerifyError>,
) -> Result<Dma<'_>, VerifyError> {
    let (Some(&src), Some(&dst)) = (ir.operands(op).first(), ir.operands(op).get(1)) else {
        return Err("expected src and dst operands".into());
    };
    let (src, dst) = (ir.value_type(src), ir.value_type(dst));
    for (i, t) in [src, dst].into_iter().enumerate() {
        if !is_tensor_or_memref(ir, t) {
            return Err(type_error(ir, "operand", i, "Tensor or Memref", t));
        }
    }
    more_operands()?;
    if let Some(&r) = ir.results(op).first()
        && !matches!(ir.type_data(ir.value_type(r)), TypeData::RankedTensor { .. })
    {
        return Err(type_error(ir, "result", 0, "ranked tensor of any type values", ir.value_type(r)));
    }
    verify_dps(ir, op, 1..2)?;
    let (sd, dd) = (ir.type_data(src), ir.type_data(dst));
    Ok(Dma {
        src,
        dst,
        src_shape: sd.shape().unwrap_or(&[]),
        dst_shape: dd.shape().unwrap_or(&[]),
        src_elem: sd.element_type().unwrap_or(src),
        dst_elem: dd.element_type().unwrap_or(dst),
        result: ir.results(op).first().map(|r| ir.value_type(*r)),
    })
}

/// Upstream's `hasPureBufferSemantics` / `hasPureTensorSemantics`: every
/// shaped operand is a memref / a tensor.
fn pure_semantics(ir: &Ir, op: OpId) -> (bool, bool) {
    let kinds = || ir.operands(op).iter().map(|v| ir.type_data(ir.value_type(*v)));
    (kinds().all(|t| !t.is_tensor()), kinds().all(|t| !t.is_memref()))
}

/// The first checks of every DMA verifier: fp8 support, element types, ranks.
fn dma_common(ir: &Ir, op: OpId, d: &Dma<'_>) -> Result<(), VerifyError> {
    if fp8_unsupported(ir, op, d.src_elem) {
        return Err("Current hardware doesn't support fp8 type".into());
    }
    if d.src_elem != d.dst_elem {
        return Err("element types of dst and src should be the same!".into());
    }
    if d.src_shape.len() != d.dst_shape.len() {
        return Err("src and dst should have the same dimensions!".into());
    }
    Ok(())
}

/// The tensor result against dst (`check*OpTensor`); `check_shape` adds the
/// shape check the ops without padding leave out.
fn dma_result(d: &Dma<'_>, ir: &Ir, check_shape: bool) -> Result<(), VerifyError> {
    let Some(r) = d.result else { return Ok(()) };
    let rd = ir.type_data(r);
    if rd.element_type() != Some(d.dst_elem) {
        return Err("element types of dst src and res should be the same!".into());
    }
    let shape = rd.shape().unwrap_or(&[]);
    if shape.len() != d.dst_shape.len() {
        return Err("res and dst should have the same dimensions!".into());
    }
    if check_shape && !compatible_shapes(shape, d.dst_shape) {
        return Err("if pad_mode is not set, res and dst shape should be the same!".into());
    }
    Ok(())
}

fn pad_mode(ir: &Ir, op: OpId) -> Option<&str> {
    ir.get_attr(op, "pad_mode").and_then(|a| enum_value(ir, a, "padmode"))
}

fn verify_load(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    // `left_padding_num` is `Optional<Index>`; ODS numbers operands across groups.
    let padding_index = || match c.operand_group(ir, op, 3).first() {
        Some(&v) if !matches!(ir.type_data(ir.value_type(v)), TypeData::Index) => {
            let number = (0..3).map(|i| c.operand_group(ir, op, i).len()).sum();
            Err(type_error(ir, "operand", number, "index", ir.value_type(v)))
        }
        _ => Ok(()),
    };
    let d = dma_operands(ir, op, padding_index)?;
    dma_common(ir, op, &d)?;
    // verifyPadMode
    let pad_value = c.operand_group(ir, op, 2).first().map(|v| ir.value_type(*v));
    let mode = pad_mode(ir, op);
    if matches!(mode, None | Some("PadNull")) {
        if !compatible_shapes(d.src_shape, d.dst_shape) {
            return Err("if pad_mode is not set, src and dst shape should be the same!".into());
        }
        if pad_value.is_some() {
            return Err("if pad_mode is not set, pad_value should not be set!".into());
        }
    }
    if let Some(m) = mode {
        if m == "PadValue" && pad_value.is_none() {
            return Err("if padmode is PadValue, pad_value is required!".into());
        }
        if m == "PadFirstElem" && pad_value.is_some() {
            return Err("if padmode is PadFirstElem, pad_value should not be set!".into());
        }
        if let (Some((&s_last, s_rest)), Some((&d_last, d_rest))) = (d.src_shape.split_last(), d.dst_shape.split_last())
        {
            if !compatible_shapes(s_rest, d_rest) {
                return Err("only the last dimension can be different".into());
            }
            if s_last != DYNAMIC && d_last != DYNAMIC && d_last < s_last {
                return Err("dst last dimension cannot be less than src's".into());
            }
        }
    }
    if pad_value.is_some_and(|t| t != d.dst_elem) {
        return Err("dtype of pad_value and element type of dst/src should be the same!".into());
    }
    match pure_semantics(ir, op) {
        (true, _) => match (hivm_space(ir, d.src), hivm_space(ir, d.dst)) {
            (Err(()), Ok(Some(_)) | Err(())) => Err("cast src memory space attr failed!".into()),
            (Ok(Some(_)), Err(())) => Err("cast dst memory space attr failed!".into()),
            (Ok(Some(s)), Ok(Some(t))) if s != "gm" || t == "gm" => {
                Err("only support src == gm and dst != gm currently!".into())
            }
            _ => Ok(()),
        },
        (_, true) => dma_result(&d, ir, mode.is_none()),
        _ => Err("dst/src should be memref/memref or tensor/tensor, res should be tensor!".into()),
    }
}

fn verify_store(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let d = dma_operands(ir, op, || Ok(()))?;
    dma_common(ir, op, &d)?;
    if !compatible_shapes(d.src_shape, d.dst_shape) {
        return Err("src and dst should have the same dimensions!".into());
    }
    match pure_semantics(ir, op) {
        (true, _) => match (hivm_space(ir, d.src), hivm_space(ir, d.dst)) {
            (Err(()), Ok(Some(_)) | Err(())) => Err("cast src memory space attr failed!".into()),
            (Ok(Some(_)), Err(())) => Err("cast dst memory space attr failed!".into()),
            (Ok(Some(s)), Ok(Some(t))) if (s, t) != ("ub", "gm") => {
                Err("only support store ub to gm currently!".into())
            }
            _ => Ok(()),
        },
        (_, true) => dma_result(&d, ir, false),
        _ => Ok(()),
    }
}

fn verify_copy(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let d = dma_operands(ir, op, || Ok(()))?;
    dma_common(ir, op, &d)?;
    let mode = pad_mode(ir, op);
    if mode.is_none() && !compatible_shapes(d.src_shape, d.dst_shape) {
        return Err("if pad_mode is not set, src and dst shape should be the same!".into());
    }
    let pad_value = c.operand_group(ir, op, 2).first().map(|v| ir.value_type(*v));
    if mode == Some("PadValue") && pad_value.is_none() {
        return Err("if padmode is PadValue, pad_value is required!".into());
    }
    if pad_value.is_some_and(|t| t != d.dst_elem) {
        return Err("dtype of pad_value and element type of dst/src should be the same!".into());
    }
    match pure_semantics(ir, op) {
        (true, _) => match (hivm_space(ir, d.src), hivm_space(ir, d.dst)) {
            (Err(()), Ok(Some(_)) | Err(())) => Err("cast src memory space attr failed!".into()),
            (Ok(Some(_)), Err(())) => Err("cast dst memory space attr failed!".into()),
            (Ok(Some(s)), Ok(Some(t)))
                if !matches!((s, t), ("ub", "ub") | ("gm", "cbuf") | ("gm", "ub") | ("ub", "gm") | ("ub", "cbuf")) =>
            {
                Err(format!("Unsupported copy from {s} to {t}!").into())
            }
            _ => Ok(()),
        },
        (_, true) => dma_result(&d, ir, mode.is_none()),
        _ => {
            // A tensor source copied into a memref.
            dma_result(&d, ir, mode.is_none())?;
            match hivm_space(ir, d.dst) {
                Ok(Some(t)) if t != "ub" && t != "cbuf" => Err(format!("Unsupported copy to {t}!").into()),
                _ => Ok(()),
            }
        }
    }
}

fn verify_set_ffts(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let t = ir.value_type(ir.operand(op, 0));
    if !ir.type_data(t).is_signless_int(64) {
        return Err(type_error(ir, "operand", 0, "64-bit signless integer", t));
    }
    Ok(())
}

fn verify_load_scale(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for i in 0..2 {
        let t = ir.value_type(ir.operand(op, i));
        if !is_tensor_or_memref(ir, t) {
            return Err(type_error(ir, "operand", i, "Tensor or Memref", t));
        }
    }
    if let Some(&r) = ir.results(op).first()
        && !matches!(ir.type_data(ir.value_type(r)), TypeData::RankedTensor { .. })
    {
        return Err(type_error(ir, "result", 0, "ranked tensor of any type values", ir.value_type(r)));
    }
    verify_dps(ir, op, 1..2)
}

/// `ins($src : T) outs($dst : T)`, the start of every DMA op's format.
macro_rules! ins_outs {
    () => {
        "`ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)`"
    };
}

const LOAD: OpSpec = OpSpec {
    name: "hivm.hir.load",
    operands: &[
        one("src"),
        one("dst"),
        opt("pad_value"),
        opt("left_padding_num"),
        opt("right_padding_num"),
        opt("init_condition"),
    ],
    attrs: &[
        opt_attr("pad_mode", PAD_MODE),
        optional_default_attr("init_out_buffer", AttrKind::Bool, "false"),
        optional_default_attr("may_implicit_transpose_with_last_axis", AttrKind::Bool, "false"),
        opt_attr("eviction_policy", EVICTION_POLICY),
        optional_default_attr("tcoretype", TCORE_TYPE, "CUBE_OR_VECTOR"),
    ],
    results: &[opt("result_tensor")],
    segments: true,
    format: concat!(
        ins_outs!(),
        " attr-dict (`pad_mode` `=` $pad_mode^)? (`pad_value` `=` $pad_value^ `:` type($pad_value))?",
        " (`left_padding_num` `=` $left_padding_num^ `:` type($left_padding_num))?",
        " (`init_out_buffer` `=` $init_out_buffer^ )?",
        " (`right_padding_num` `=` $right_padding_num^ `:` type($right_padding_num))?",
        " (`init_condition` `=` $init_condition^ `:` type($init_condition))?",
        " (`may_implicit_transpose_with_last_axis` `=` $may_implicit_transpose_with_last_axis^ )?",
        " (`eviction_policy` `=` $eviction_policy^)? (`core_type` `=` $tcoretype^ )?",
        " (`->` type($result_tensor)^)?"
    ),
    verify: Some(verify_load),
    ..OpSpec::EMPTY
};

const STORE: OpSpec = OpSpec {
    name: "hivm.hir.store",
    operands: &[one("src"), one("dst")],
    attrs: &[
        opt_attr("atomic_kind", ATOMIC_KIND),
        optional_default_attr("may_implicit_transpose_with_last_axis", AttrKind::Bool, "false"),
    ],
    results: &[opt("result_tensor")],
    format: concat!(ins_outs!(), " attr-dict (`atomic` `=` $atomic_kind^)? (`->` type($result_tensor)^)?"),
    verify: Some(verify_store),
    ..OpSpec::EMPTY
};

const COPY: OpSpec = OpSpec {
    name: "hivm.hir.copy",
    operands: &[one("src"), one("dst"), opt("pad_value")],
    attrs: &[opt_attr("pad_mode", PAD_MODE), opt_attr("collapse_reassociation", AttrKind::Array)],
    results: &[opt("result_tensor")],
    segments: true,
    format: concat!(
        ins_outs!(),
        " attr-dict (`pad_mode` `=` $pad_mode^)? (`pad_value` `=` $pad_value^ `:` type($pad_value))?",
        " (`collapse_reassociation` `=` $collapse_reassociation^)? (`->` type($result_tensor)^)?"
    ),
    verify: Some(verify_copy),
    ..OpSpec::EMPTY
};

const LOAD_SCALE: OpSpec = OpSpec {
    name: "hivm.hir.load_scale",
    operands: &[one("src"), one("dst")],
    attrs: &[optional_default_attr("is_transposed", AttrKind::Bool, "false")],
    results: &[opt("result_tensor")],
    format: concat!("attr-dict ", ins_outs!(), " (`is_transposed` `=` $is_transposed^)? (`->` type($result_tensor)^)?"),
    verify: Some(verify_load_scale),
    ..OpSpec::EMPTY
};

const POINTER_CAST: OpSpec = OpSpec {
    name: "hivm.hir.pointer_cast",
    operands: &[var("addrs").of(Fixed::Int(64)), var("dynamicSizes").of(Fixed::Index)],
    results: &[one("result")],
    segments: true,
    format: "`(`$addrs `)` (`[` $dynamicSizes^`]`)? attr-dict `:` type($result)",
    verify: Some(verify_pointer_cast),
    ..OpSpec::EMPTY
};

const SET_MASK_NORM: OpSpec = OpSpec { name: "hivm.hir.set_mask_norm", format: "attr-dict", ..OpSpec::EMPTY };

const SET_FFTS_BASE_ADDR: OpSpec = OpSpec {
    name: "hivm.hir.set_ffts_base_addr",
    operands: &[one("ffts_base_addr").of(Fixed::Int(64))],
    format: "attr-dict $ffts_base_addr",
    verify: Some(verify_set_ffts),
    ..OpSpec::EMPTY
};

const SET_CTRL: OpSpec = OpSpec {
    name: "hivm.hir.set_ctrl",
    attrs: &[attr("enable", AttrKind::Bool), attr("idx", AttrKind::Int(64))],
    format: "$enable `at` `ctrl``[` $idx `]` attr-dict",
    ..OpSpec::EMPTY
};

const BITCAST: OpSpec = OpSpec {
    name: "hivm.hir.bitcast",
    operands: &[one("src")],
    results: &[one("result")],
    format: "$src `:` type($src) `->` type($result) attr-dict",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const CONVERT_LAYOUT: OpSpec = OpSpec {
    name: "hivm.hir.convert_layout",
    operands: &[one("source"), var("output_shape").of(Fixed::Index)],
    attrs: &[
        attr("srcLayout", DATA_LAYOUT),
        attr("dstLayout", DATA_LAYOUT),
        attr("static_output_shape", AttrKind::I64Array),
    ],
    results: &[one("result")],
    format: "$source `output_shape` custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict \
             `:` `(`type($source)`)` `->` type($result)",
    customs: &[DYNAMIC_INDEX_LIST],
    traits: Traits::PURE,
    verify: Some(verify_convert_layout),
    ..OpSpec::EMPTY
};

fn verify_convert_layout(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (Some(&source), Some(&result)) = (ir.operands(op).first(), ir.results(op).first()) else { return Ok(()) };
    let (st, rt) = (ir.value_type(source), ir.value_type(result));
    if !is_tensor_or_memref(ir, st) {
        return Err(type_error(ir, "operand", 0, "Tensor or Memref", st));
    }
    if !is_tensor_or_memref(ir, rt) {
        return Err(type_error(ir, "result", 0, "Tensor or Memref", rt));
    }
    if crate::util::element_or_self(ir, st) != crate::util::element_or_self(ir, rt) {
        return Err("requires the same element type for all operands and results".into());
    }
    let dynamic = crate::util::i64_array(ir, op, "static_output_shape").iter().filter(|d| **d == DYNAMIC).count();
    let given = ir.operands(op).len() - 1;
    if dynamic != given {
        return Err(format!("expected {dynamic} dynamic dimensions but got {given}").into());
    }
    Ok(())
}

const ANCHOR: OpSpec = OpSpec {
    name: "hivm.hir.anchor",
    attrs: &[attr("id", AttrKind::Int(64)), opt_attr("tcore_type", TCORE_TYPE)],
    format: "attr-dict",
    ..OpSpec::EMPTY
};

const INIT_DEBUG: OpSpec = OpSpec { name: "hivm.hir.init_debug", format: "attr-dict", ..OpSpec::EMPTY };
const FINISH_DEBUG: OpSpec = OpSpec { name: "hivm.hir.finish_debug", format: "attr-dict", ..OpSpec::EMPTY };

const DEBUG: OpSpec = OpSpec {
    name: "hivm.hir.debug",
    operands: &[one("arg")],
    attrs: &[
        attr("debugtype", AttrKind::Str),
        attr("prefix", AttrKind::Str),
        attr("hex", AttrKind::Bool),
        opt_attr("tcoretype", TCORE_TYPE),
        opt_attr("memscope", ADDRESS_SPACE),
    ],
    format: "attr-dict $arg `:` type($arg)",
    ..OpSpec::EMPTY
};

const DCCI: OpSpec = OpSpec {
    name: "hivm.hir.dcci",
    operands: &[opt("ptr")],
    attrs: &[attr("mode", DCCI_MODE), attr("dataCacheKind", DATA_CACHE_KIND)],
    format: "attr-dict `(` $mode `,` $dataCacheKind (`,` $ptr^ `:` type($ptr))? `)`",
    ..OpSpec::EMPTY
};

const SET_ATOMIC: OpSpec = OpSpec {
    name: "hivm.hir.set_atomic",
    attrs: &[attr("kind", ATOMIC_KIND), opt_attr("type", AttrKind::TypeAttr)],
    format: "`kind` `=` $kind `[` `type` `=` $type `]` attr-dict",
    ..OpSpec::EMPTY
};

/// `get_block_idx` and the other i64 queries.
const fn query(name: &'static str, traits: Traits) -> OpSpec {
    const RESULT: &[hivm_ir::opspec::ValueDef] = &[one("result")];
    OpSpec {
        name,
        results: RESULT,
        format: "attr-dict `->` type($result)",
        traits,
        verify: Some(verify_query),
        ..OpSpec::EMPTY
    }
}

const PURE_QUERIES: &[&str] = &[
    "hivm.hir.get_block_idx",
    "hivm.hir.get_block_num",
    "hivm.hir.get_sub_block_idx",
    "hivm.hir.get_sub_block_num",
    "hivm.hir.get_sys_cnt",
];

pub fn defs() -> Vec<OpDef> {
    let mut v: Vec<OpDef> = [LOAD, STORE, COPY, LOAD_SCALE, POINTER_CAST, SET_MASK_NORM, SET_FFTS_BASE_ADDR, SET_CTRL]
        .into_iter()
        .map(OpSpec::def)
        .collect();
    v.extend([BITCAST, CONVERT_LAYOUT, ANCHOR, INIT_DEBUG, FINISH_DEBUG, DEBUG, DCCI, SET_ATOMIC].map(OpSpec::def));
    v.extend(PURE_QUERIES.iter().map(|q| query(q, Traits::PURE).def()));
    // The sync solver's per-loop iteration counter (not pure: it advances).
    v.push(query("hivm.hir.multi_buffer_counter", Traits::NONE).def());
    v
}

// ----- structural checks MLIR derives from an op's ODS arguments -----

/// ODS's type-constraint failure: `operand #i must be <summary>, but got 'T'`.
pub(super) fn type_error(ir: &Ir, kind: &str, i: usize, summary: &str, t: Type) -> VerifyError {
    format!("{kind} #{i} must be {summary}, but got '{}'", type_str(ir, t)).into()
}

/// Upstream `TensorOrMemref`: a ranked memref or a ranked tensor.
pub(super) fn is_tensor_or_memref(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::MemRef { .. } | TypeData::RankedTensor { .. })
}

/// MLIR's `DestinationStyleOpInterface` checks for a DPS op whose inits are
/// the operands in `inits` (the results are the tensor inits, in order).
pub(crate) fn verify_dps(ir: &Ir, op: OpId, inits: std::ops::Range<usize>) -> Result<(), VerifyError> {
    let mut tensor_inits = Vec::new();
    for i in inits {
        let Some(&v) = ir.operands(op).get(i) else { break };
        let td = ir.type_data(ir.value_type(v));
        if td.is_tensor() {
            tensor_inits.push((i, ir.value_type(v)));
        } else if !td.is_memref() {
            return Err(format!("expected that operand #{i} is a tensor or a memref").into());
        }
    }
    let tensor_results = ir.results(op).iter().filter(|r| ir.type_data(ir.value_type(**r)).is_tensor()).count();
    if tensor_results != tensor_inits.len() {
        return Err(format!(
            "expected the number of tensor results ({tensor_results}) to be equal to the number of output tensors ({})",
            tensor_inits.len()
        )
        .into());
    }
    for (k, (i, t)) in tensor_inits.into_iter().enumerate() {
        let Some(&r) = ir.results(op).get(k) else { break };
        if ir.value_type(r) != t {
            return Err(format!(
                "expected type of operand #{i} ({}) to match type of corresponding result ({})",
                type_str(ir, t),
                type_str(ir, ir.value_type(r))
            )
            .into());
        }
    }
    Ok(())
}

pub fn dps_inits(ir: &Ir, op: OpId) -> Option<std::ops::Range<usize>> {
    let seg = match ir.op_name(op) {
        "hivm.hir.load_scale" => return (ir.operands(op).len() >= 2).then_some(1..2),
        "hivm.hir.mmadL1" | "hivm.hir.batchMmadL1" => 6,
        "hivm.hir.mmadmxL1" => 8,
        "hivm.hir.matmul" => 10,
        _ => return None,
    };
    let sizes = crate::util::segments(ir, op);
    let start: usize = sizes.iter().take(seg).sum();
    let len = *sizes.get(seg)?;
    (start + len <= ir.operands(op).len()).then_some(start..start + len)
}

/// The pipe(s) an op occupies, as the sync solver sees them (spec sync-solver.md §1.3).
pub fn op_pipes(ir: &Ir, op: OpId) -> Vec<String> {
    let space = |v: hivm_ir::Value| -> Option<String> {
        match ir.type_data(ir.value_type(v)) {
            TypeData::MemRef { memory_space: Some(a), .. } => enum_value(ir, *a, "address_space").map(str::to_string),
            _ => None,
        }
    };
    let name = ir.op_name(op);
    let fixed = match name {
        "hivm.hir.load" | "hivm.hir.nd2nz" | "hivm.hir.load_scale" => Some("PIPE_MTE2"),
        "hivm.hir.store" | "hivm.hir.nz2nd" => Some("PIPE_MTE3"),
        "hivm.hir.fixpipe" => Some("PIPE_FIX"),
        "hivm.hir.l12ub" => Some("PIPE_MTE1"),
        _ if name.starts_with("hivm.hir.v") && name != "hivm.hir.vbrc" => Some("PIPE_V"),
        _ => None,
    };
    if let Some(p) = fixed {
        return vec![p.to_string()];
    }
    match name {
        "hivm.hir.mmadL1" | "hivm.hir.batchMmadL1" | "hivm.hir.mmadmxL1" => {
            vec!["PIPE_MTE1".to_string(), "PIPE_M".to_string()]
        }
        "hivm.hir.matmul" => vec!["PIPE_MTE2".to_string(), "PIPE_MTE3".to_string()],
        super::custom::CUSTOM | super::custom::MACRO => {
            super::custom::pipes(ir, op).into_iter().map(str::to_string).collect()
        }
        "hivm.hir.vbrc" => {
            // Broadcasting into L1 is a DMA; into UB it is vector work.
            let into_l1 = space(ir.operand(op, 1)).as_deref() == Some("cbuf");
            vec![if into_l1 { "PIPE_MTE2" } else { "PIPE_V" }.to_string()]
        }
        "hivm.hir.copy" => {
            let (s, d) = (space(ir.operand(op, 0)), space(ir.operand(op, 1)));
            let pipe = match (s.as_deref(), d.as_deref()) {
                (Some("ub"), Some("ub")) => "PIPE_V",
                (Some("cc"), Some("gm")) => "PIPE_FIX",
                (Some("gm"), Some("cbuf")) => "PIPE_MTE2",
                (Some("ub"), Some("cbuf")) => "PIPE_MTE3",
                _ => "PIPE_UNASSIGNED",
            };
            vec![pipe.to_string()]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = r#"
func.func @k(%gm: memref<4xui8, #hivm.address_space<gm>>, %l1: memref<4xui8, #hivm.address_space<cbuf>>,
             %a: memref<16xf8E5M2>, %s: memref<1xui8>, %c: memref<16xf32>, %e: i64, %bias: memref<16xf32>) {
  %t = arith.constant true
  %i = arith.constant 16 : index
  hivm.hir.set_ffts_base_addr %e
  hivm.hir.set_mask_norm
  hivm.hir.set_ctrl false at ctrl[60]
  hivm.hir.load_scale ins(%gm : memref<4xui8, #hivm.address_space<gm>>) outs(%l1 : memref<4xui8, #hivm.address_space<cbuf>>)
  hivm.hir.mmadmxL1 ins(%a, %a, %s, %s, %t, %i, %i, %i, %bias : memref<16xf8E5M2>, memref<16xf8E5M2>, memref<1xui8>, memref<1xui8>, i1, index, index, index, memref<16xf32>) outs(%c : memref<16xf32>) sync_related_args(%e, %e : i64, i64)
  return
}
"#;

    fn hivm_ops(ir: &Ir, m: OpId) -> Vec<OpId> {
        let mut v = Vec::new();
        ir.walk(m, &mut |o| {
            if ir.op_name(o).starts_with("hivm.") {
                v.push(o);
            }
        });
        v
    }

    #[test]
    fn sync_solver_sees_pipes_and_inits() {
        let mut ir = Ir::new(crate::shared_registry());
        let m = {
            let mut p = hivm_ir::parser::Parser::new(&mut ir, KERNEL, "k.mlir", 0);
            p.parse_module().map_err(|e| e.msg).unwrap()
        };
        assert!(hivm_ir::verifier::verify_all(&ir, m).is_empty());
        let ops = hivm_ops(&ir, m);
        let pipes: Vec<Vec<String>> = ops.iter().map(|o| op_pipes(&ir, *o)).collect();
        let none: Vec<String> = Vec::new();
        assert_eq!(pipes[..3], [none.clone(), none.clone(), none]);
        assert_eq!(pipes[3], ["PIPE_MTE2"]);
        assert_eq!(pipes[4], ["PIPE_MTE1", "PIPE_M"]);
        // load_scale: (src, dst); mmadmxL1: C is operand 8, after the eight inputs.
        assert_eq!(dps_inits(&ir, ops[3]), Some(1..2));
        assert_eq!(dps_inits(&ir, ops[4]), Some(8..9));
        let args = ir.block_args(ir.parent_block(ops[4]).unwrap());
        assert_eq!(ir.operand(ops[4], 8), args[4]);
        assert_eq!(dps_inits(&ir, ops[0]), None);
    }
}

//! HIVM vector ops (PIPE_V), each one declarative definition. The
//! elementwise ops share upstream's structured format
//! `attr-dict ins(...) outs(...) (temp_buffer(...))? (extra clauses)?
//! (broadcast = [..])? (transpose = [..])? (-> types)?`, in a few variants
//! (some make `ins`/`outs` optional, some have no temp buffer).

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrDef, AttrKind, Compiled, CustomDirective, DYNAMIC_INDEX_LIST, Fixed, FormatState, OpSpec, ValueDef, Var, attr,
    default_attr, one, opt, opt_attr, optional_default_attr, var,
};
use hivm_ir::parser::{PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId};

use super::attrs::kinds::{CAST, COMPARE_MODE, DEINTERLEAVE_MODE, REDUCE_OP, ROUND_MODE};

/// The elementwise ops whose semantics the rest of hivm-rs knows
/// (bufferization, the CPU twin), with their input counts.
const ELEMENTWISE: &[(&str, usize)] = &[
    ("vcast", 1),
    ("vexp", 1),
    ("vabs", 1),
    ("vln", 1),
    ("vrelu", 1),
    ("vsqrt", 1),
    ("vrsqrt", 1),
    ("vrec", 1),
    ("vnot", 1),
    ("vtanh", 1),
    ("vsin", 1),
    ("vcos", 1),
    ("vadd", 2),
    ("vsub", 2),
    ("vmul", 2),
    ("vdiv", 2),
    ("vmax", 2),
    ("vmin", 2),
    ("vand", 2),
    ("vor", 2),
    ("vxor", 2),
    ("vpow", 2),
    ("vcmp", 2),
    ("vsel", 3),
];

/// Whether `name` is one of the elementwise vector ops (`hivm.hir.vadd`, ...).
pub fn is_elementwise(name: &str) -> bool {
    inputs(name).is_some()
}

fn inputs(name: &str) -> Option<usize> {
    let m = name.strip_prefix("hivm.hir.")?;
    ELEMENTWISE.iter().find(|(n, _)| *n == m).map(|(_, i)| *i)
}

/// The elementwise ops without upstream's `BroadcastableOTF` trait (all of
/// them are `TransposableOTF`).
const NOT_BROADCASTABLE_OTF: &[&str] = &["hivm.hir.vpow", "hivm.hir.vxor", "hivm.hir.vcmp"];

/// Upstream's `HIVMStructuredOpInterface` check: an op may broadcast or
/// transpose on the fly, not both.
fn verify_otf(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let name = ir.op_name(op);
    let broadcastable = !NOT_BROADCASTABLE_OTF.contains(&name) && !NO_TEMP_OPS.contains(&name);
    if broadcastable
        && !crate::util::i64_array(ir, op, "broadcast").is_empty()
        && !crate::util::i64_array(ir, op, "transpose").is_empty()
    {
        return Err(VerifyError::plain("Broadcast OTF and Transpose OTF cannot be enabled at the same time"));
    }
    Ok(())
}

fn verify_elementwise(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    verify_otf(ir, op)?;
    let (src, dst) = (c.operand_group(ir, op, 0), c.operand_group(ir, op, 1));
    let extra = if c.spec.operands.get(2).is_some_and(|o| o.name == "temp_buffer") {
        c.operand_group(ir, op, 2).len()
    } else {
        0
    };
    // Upstream's traits, for the ops whose semantics we know (some others,
    // such as vmulext, write two outputs).
    let Some(n) = inputs(ir.op_name(op)) else { return Ok(()) };
    let operands: Vec<hivm_ir::Value> = src.iter().chain(dst).copied().collect();
    super::traits::same_rank(ir, op, &operands)?;
    super::traits::elementwise_nary(ir, op, n, src, dst, extra)?;
    super::traits::transposable_otf(ir, op, src, dst)?;
    let traits = elementwise_traits(ir.op_name(op));
    if traits.same_element_type {
        let elem = |v: &hivm_ir::Value| crate::util::element_or_self(ir, ir.value_type(*v));
        let mut all = ir.operands(op).iter().map(elem);
        if let Some(first) = all.next()
            && all.any(|t| t != first)
        {
            return Err("requires the same element type for all operands".into());
        }
    }
    for &idx in traits.vector_only {
        super::traits::vector_only(ir, op, idx)?;
    }
    if !NOT_BROADCASTABLE_OTF.contains(&ir.op_name(op)) {
        super::traits::broadcastable_otf(ir, op, src, dst)?;
    }
    if dst.len() != 1 {
        return Err(format!("expected 1 output operand, but got {}", dst.len()).into());
    }
    verify_result_matches(ir, op, dst[0])
}

/// Upstream's `VectorOnlyTrait<idx>` and `SameOperandsElementType` on the
/// ops this verifier sees (`vsub` and `vdiv` take scalars anywhere; the
/// casts and compares change the element type).
struct ElementwiseTraits {
    vector_only: &'static [usize],
    /// Every operand, scalars and scratch included, has one element type.
    same_element_type: bool,
}

fn elementwise_traits(name: &str) -> ElementwiseTraits {
    let (vector_only, same_element_type): (&'static [usize], bool) =
        match name.strip_prefix("hivm.hir.").unwrap_or(name) {
            "vor" | "vand" | "vxor" | "vpow" | "vldexp" => (&[0, 1], true),
            "vcast" | "vcmp" | "visinf" | "visnan" => (&[0], false),
            "vexp" | "vexp2" | "vabs" | "vln" | "vlog2" | "vlog10" | "vlog1p" | "vexpm1" | "vilogb" | "vrelu"
            | "vrsqrt" | "vsqrt" | "vtanh" | "vsin" | "vcos" | "vatan" | "vtan" | "verf" | "vrec" | "vnot" | "vadd"
            | "vmul" | "vmulext" | "vmulextui" | "vmax" | "vmin" | "vmod" | "vmodui" | "vshl" | "vshr" => (&[0], true),
            _ => (&[], false),
        };
    ElementwiseTraits { vector_only, same_element_type }
}

/// The operands `name` takes only as vectors (upstream's `VectorOnlyTrait`),
/// which `convert-hfusion-to-hivm` must not leave scalar.
pub fn vector_only_operands(name: &str) -> &'static [usize] {
    elementwise_traits(name).vector_only
}

/// A tensor destination gives the one result; a memref destination none.
fn verify_result_matches(ir: &Ir, op: OpId, dst: hivm_ir::Value) -> Result<(), VerifyError> {
    let dt = ir.value_type(dst);
    if !ir.type_data(dt).is_shaped() {
        return Err("output must be a shaped type".into());
    }
    let tensor_dst = ir.type_data(dt).is_tensor();
    let results = ir.results(op);
    if tensor_dst != (results.len() == 1) || results.iter().any(|r| ir.value_type(*r) != dt) {
        return Err("expected one result of the output's tensor type, or none for a memref output".into());
    }
    Ok(())
}

// ----- the elementwise family -----

macro_rules! ins_outs {
    (required) => {
        "attr-dict `ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)` "
    };
    (optional) => {
        "attr-dict (`ins` `(` $src^ `:` type($src) `)`)? (`outs` `(` $dst^ `:` type($dst) `)`)? "
    };
}
macro_rules! temp_buffer {
    () => {
        "(`temp_buffer` `(` $temp_buffer^ `:` type($temp_buffer) `)`)? "
    };
}
macro_rules! broadcast_transpose {
    () => {
        "(`broadcast` `=` $broadcast^)? (`transpose` `=` $transpose^)? (`->` type($result)^)?"
    };
}

const WITH_TEMP: &[ValueDef] = &[var("src"), var("dst"), opt("temp_buffer")];
const NO_TEMP: &[ValueDef] = &[var("src"), var("dst")];
const RESULTS: &[ValueDef] = &[var("result")];
const BT: &[AttrDef] =
    &[default_attr("transpose", AttrKind::I64Array, "[]"), default_attr("broadcast", AttrKind::I64Array, "[]")];

const fn elementwise(
    name: &'static str,
    operands: &'static [ValueDef],
    attrs: &'static [AttrDef],
    format: &'static str,
) -> OpSpec {
    OpSpec {
        name,
        operands,
        attrs,
        results: RESULTS,
        segments: true,
        format,
        verify: Some(verify_elementwise),
        ..OpSpec::EMPTY
    }
}

/// `ins`/`outs` required, with a temp buffer.
const fn plain(name: &'static str) -> OpSpec {
    elementwise(name, WITH_TEMP, BT, concat!(ins_outs!(required), temp_buffer!(), broadcast_transpose!()))
}

/// `ins`/`outs` optional, no temp buffer.
const fn no_temp(name: &'static str) -> OpSpec {
    elementwise(name, NO_TEMP, BT, concat!(ins_outs!(optional), broadcast_transpose!()))
}

/// `ins`/`outs` optional, with a temp buffer.
const fn optional_ins(name: &'static str) -> OpSpec {
    elementwise(name, WITH_TEMP, BT, concat!(ins_outs!(optional), temp_buffer!(), broadcast_transpose!()))
}

const SIGNED_BT: &[AttrDef] = &[
    default_attr("is_signed", AttrKind::Bool, "true"),
    default_attr("transpose", AttrKind::I64Array, "[]"),
    default_attr("broadcast", AttrKind::I64Array, "[]"),
];

/// `vmax` / `vmin`.
const fn min_max(name: &'static str) -> OpSpec {
    elementwise(
        name,
        WITH_TEMP,
        SIGNED_BT,
        concat!(ins_outs!(required), temp_buffer!(), "(`is_signed` `=` $is_signed^)? ", broadcast_transpose!()),
    )
}

const VCAST: OpSpec = OpSpec { verify: Some(verify_vcast), ..VCAST_FORMAT };

/// Upstream's `VCastOp::verify`, after the elementwise traits: the
/// conversion must be one the hardware or the target's library provides.
fn verify_vcast(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify_elementwise(ir, op)?;
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let (Some(src), Some(dst)) = (c.operand_group(ir, op, 0).first(), c.operand_group(ir, op, 1).first()) else {
        return Ok(());
    };
    let elem = |v: &hivm_ir::Value| crate::util::element_or_self(ir, ir.value_type(*v));
    let enum_arg = |key: &str, default: &'static str| {
        ir.get_attr(op, key).and_then(|a| crate::util::opaque_arg(ir, a, key)).unwrap_or(default)
    };
    let register_based = crate::hacc::nearest_module_target(ir, op).is_some_and(crate::hacc::is_regbase);
    let unsigned = enum_arg("cast", "cast_signed") == "cast_unsigned";
    super::cast_support::check(ir, elem(src), elem(dst), enum_arg("round_mode", "rint"), unsigned, register_based)
        .map_err(VerifyError::from)
}

const VCAST_FORMAT: OpSpec = elementwise(
    "hivm.hir.vcast",
    WITH_TEMP,
    &[
        default_attr("round_mode", ROUND_MODE, "rint"),
        default_attr("cast", CAST, "cast_signed"),
        default_attr("transpose", AttrKind::I64Array, "[]"),
        default_attr("broadcast", AttrKind::I64Array, "[]"),
    ],
    concat!(
        ins_outs!(optional),
        temp_buffer!(),
        "(`round_mode` `=` $round_mode^)? (`cast` `=` $cast^)? ",
        broadcast_transpose!()
    ),
);

/// `is_signed : false`, upstream's syntax; `is_signed = false`, the
/// spelling two of upstream's tests (written against an earlier format)
/// use, is read too. Printed as upstream prints it.
const SIGNED_FLAG: CustomDirective = CustomDirective { name: "SignedFlag", parse: parse_signed, print: print_signed };

fn parse_signed(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    if !p.consume_if(Tok::Equal) {
        p.expect(Tok::Colon, "':'")?;
    }
    let a = hivm_ir::opspec::parse_attr(p, AttrKind::Bool)?;
    st.set_attr(args[0], a);
    Ok(())
}

fn print_signed(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let Var::Attr(i) = args[0] else { return };
    p.push(": ");
    if let Some(a) = p.ir.get_attr(op, c.spec.attrs[i].name) {
        hivm_ir::opspec::print_attr(p, AttrKind::Bool, a);
    }
}

const VCMP: OpSpec = OpSpec {
    customs: &[SIGNED_FLAG],
    ..elementwise(
        "hivm.hir.vcmp",
        WITH_TEMP,
        &[
            default_attr("is_signed", AttrKind::Bool, "true"),
            default_attr("compare_mode", COMPARE_MODE, "eq"),
            default_attr("transpose", AttrKind::I64Array, "[]"),
            default_attr("broadcast", AttrKind::I64Array, "[]"),
        ],
        concat!(
            ins_outs!(optional),
            temp_buffer!(),
            "(`compare_mode` `=` $compare_mode^ )? (`is_signed` custom<SignedFlag>($is_signed)^ )? ",
            broadcast_transpose!()
        ),
    )
};

const VDIV: OpSpec = elementwise(
    "hivm.hir.vdiv",
    WITH_TEMP,
    &[
        default_attr("isSigned", AttrKind::Bool, "true"),
        default_attr("isHP", AttrKind::Bool, "false"),
        default_attr("transpose", AttrKind::I64Array, "[]"),
        default_attr("broadcast", AttrKind::I64Array, "[]"),
    ],
    concat!(
        ins_outs!(optional),
        temp_buffer!(),
        "(`isSigned` `=` $isSigned^)? (`isHP` `=` $isHP^)? ",
        broadcast_transpose!()
    ),
);

const VSHR: OpSpec = elementwise(
    "hivm.hir.vshr",
    WITH_TEMP,
    &[
        default_attr("is_signed", AttrKind::Bool, "true"),
        optional_default_attr("round", AttrKind::Bool, "true"),
        default_attr("transpose", AttrKind::I64Array, "[]"),
        default_attr("broadcast", AttrKind::I64Array, "[]"),
    ],
    concat!(
        ins_outs!(optional),
        temp_buffer!(),
        "(`round` `:` $round^ )? (`is_signed` `:` $is_signed^ )? ",
        broadcast_transpose!()
    ),
);

/// `visinf` / `visnan`: no temp buffer, no broadcast or transpose clause.
const fn class_test(name: &'static str) -> OpSpec {
    elementwise(name, NO_TEMP, BT, concat!(ins_outs!(required), "(`->` type($result)^)?"))
}

const PLAIN: &[&str] = &[
    "hivm.hir.vabs",
    "hivm.hir.vadd",
    "hivm.hir.vand",
    "hivm.hir.vexp",
    "hivm.hir.vln",
    "hivm.hir.vmul",
    "hivm.hir.vnot",
    "hivm.hir.vor",
    "hivm.hir.vrec",
    "hivm.hir.vrelu",
    "hivm.hir.vrsqrt",
    "hivm.hir.vshl",
    "hivm.hir.vsqrt",
];
const NO_TEMP_OPS: &[&str] = &[
    "hivm.hir.vatan",
    "hivm.hir.vcos",
    "hivm.hir.verf",
    "hivm.hir.vexp2",
    "hivm.hir.vexpm1",
    "hivm.hir.vilogb",
    "hivm.hir.vldexp",
    "hivm.hir.vlog10",
    "hivm.hir.vlog1p",
    "hivm.hir.vlog2",
    "hivm.hir.vmod",
    "hivm.hir.vmodui",
    "hivm.hir.vmulext",
    "hivm.hir.vmulextui",
    "hivm.hir.vsin",
    "hivm.hir.vtan",
    "hivm.hir.vtanh",
];
const OPTIONAL_INS: &[&str] = &["hivm.hir.vpow", "hivm.hir.vsel", "hivm.hir.vsub", "hivm.hir.vxor"];

// ----- the other vector ops -----

fn verify_single_dst(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let Some(i) = c.operand_index("dst") else { return Ok(()) };
    match c.operand_group(ir, op, i) {
        [d] => verify_result_matches(ir, op, *d),
        _ => Ok(()),
    }
}

macro_rules! src_dst {
    () => {
        "`ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)`"
    };
}

const SRC_DST_TEMP: &[ValueDef] = &[one("src"), one("dst"), opt("temp_buffer")];

const VBRC: OpSpec = OpSpec {
    name: "hivm.hir.vbrc",
    operands: SRC_DST_TEMP,
    attrs: &[default_attr("broadcast_dims", AttrKind::I64Array, "[]")],
    results: RESULTS,
    format: concat!(
        "attr-dict ",
        src_dst!(),
        " ",
        temp_buffer!(),
        "(`broadcast_dims` `=` $broadcast_dims^)? (`->` type($result)^)?"
    ),
    verify: Some(verify_vbrc),
    ..OpSpec::EMPTY
};

/// A scratch buffer, when given, is one-dimensional.
fn check_temp_rank(ir: &Ir, temp: &[hivm_ir::Value]) -> Result<(), VerifyError> {
    match temp.first() {
        Some(t) if ir.type_data(ir.value_type(*t)).rank() != 1 => Err("temp_buffer'rank should be one".into()),
        _ => Ok(()),
    }
}

/// Upstream's `VBrcOp::verify`: a shaped source broadcasts along listed
/// unit dimensions; a scalar source takes no dimensions.
fn verify_vbrc(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let src = ir.value_type(ir.operand(op, 0));
    if super::ops::fp8_unsupported(ir, op, crate::util::element_or_self(ir, src)) {
        return Err("Current hardware doesn't support fp8 type".into());
    }
    check_temp_rank(ir, c.operand_group(ir, op, 2))?;
    let dims = crate::util::i64_array(ir, op, "broadcast_dims");
    match ir.type_data(src).shape() {
        Some(shape) => {
            if dims.is_empty() {
                return Err("have empty broadcast dims array".into());
            }
            if dims.len() > shape.len() {
                return Err("have too many indices in the broadcast dims array".into());
            }
            for &d in &dims {
                if d < 0 || d as usize >= shape.len() {
                    return Err(format!("have invalid index '{d}' inside broadcast dims array").into());
                }
                if shape[d as usize] != 1 {
                    return Err(format!("invalid source vector shape, 'SrcVecDim[{d}]' != 1\n").into());
                }
            }
        }
        None if !dims.is_empty() => return Err("broadcast dims must be empty for scalar src".into()),
        None => {}
    }
    verify_single_dst(ir, op)
}

const VREDUCE: OpSpec = OpSpec {
    name: "hivm.hir.vreduce",
    operands: &[one("src"), var("dst"), opt("temp_buffer"), opt("indices")],
    attrs: &[
        attr("arith", REDUCE_OP),
        default_attr("unsigned_src", AttrKind::Bool, "false"),
        default_attr("tie_break_left", AttrKind::Bool, "true"),
        attr("reduce_dims", AttrKind::I64Array),
    ],
    results: RESULTS,
    segments: true,
    format: concat!(
        "attr-dict $arith `ins` `(` $src `:` type($src) `)` (`indices` `(` $indices^ `:` type($indices) `)`)? ",
        "`outs` `(` $dst `:` type($dst) `)` ",
        temp_buffer!(),
        "(`unsigned_src` `=` $unsigned_src^ )? (`tie_break_left` `=` $tie_break_left^ )? ",
        "`reduce_dims` `=` $reduce_dims (`->` type($result)^)?"
    ),
    verify: Some(verify_vreduce),
    ..OpSpec::EMPTY
};

fn verify_vreduce(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let dst = c.operand_group(ir, op, 1);
    if dst.is_empty() {
        return Err("expects one input and at least one output".into());
    }
    check_temp_rank(ir, c.operand_group(ir, op, 2))?;
    let src = ir.value_type(ir.operand(op, 0));
    let target = crate::hacc::module_target(ir, op);
    if !target.as_deref().is_some_and(crate::hacc::is_910_95_family)
        && super::ops::is_fp8(ir, crate::util::element_or_self(ir, src))
    {
        return Err("fp8 is not supported.".into());
    }
    verify_vreduce_dims(ir, src, ir.value_type(dst[0]), &crate::util::i64_array(ir, op, "reduce_dims"))
}

/// Upstream's `verifyVReduceDims`: the reduced dimensions are listed, valid
/// and of size 1 in the destination; the others agree between source and
/// destination.
fn verify_vreduce_dims(ir: &Ir, src: hivm_ir::Type, dst: hivm_ir::Type, dims: &[i64]) -> Result<(), VerifyError> {
    let (Some(src_shape), Some(dst_shape)) = (ir.type_data(src).shape(), ir.type_data(dst).shape()) else {
        return Ok(());
    };
    if dims.is_empty() {
        return Err("have empty reduce dims array".into());
    }
    if dims.len() > src_shape.len() {
        return Err("have too many indices in the reduce dims array".into());
    }
    for &d in dims {
        if d < 0 || d as usize >= dst_shape.len() {
            return Err(format!("have invalid index '{d}' inside reduce dims array").into());
        }
        if dst_shape[d as usize] != 1 {
            return Err(format!("invalid dst vector shape, 'DstVecDim[{d}]' != 1\n").into());
        }
    }
    if src_shape.len() != dst_shape.len() {
        return Err("have src and dst with different ranks".into());
    }
    for (i, (s, d)) in src_shape.iter().zip(dst_shape).enumerate() {
        if !dims.contains(&(i as i64)) && !super::traits::compatible_dims(&[*s, *d]) {
            return Err(format!("have dim at index {i} different between src and dst").into());
        }
    }
    Ok(())
}

const VGATHER: OpSpec = OpSpec {
    name: "hivm.hir.vgather",
    operands: &[one("src"), one("indices"), one("dst"), opt("temp_buffer")],
    attrs: &[opt_attr("gather_axis", AttrKind::Int(64))],
    results: RESULTS,
    format: concat!(
        "attr-dict `ins` `(` $src `:` type($src) `)` `indices` `(` $indices `:` type($indices) `)` ",
        "`outs` `(` $dst `:` type($dst) `)` ",
        temp_buffer!(),
        "(`gather_axis` `=` $gather_axis^)? (`->` type($result)^)?"
    ),
    ..OpSpec::EMPTY
};

const VTRANSPOSE: OpSpec = OpSpec {
    name: "hivm.hir.vtranspose",
    operands: SRC_DST_TEMP,
    attrs: &[
        default_attr("permutation", AttrKind::I64Array, "[]"),
        default_attr("disable_align", AttrKind::Bool, "false"),
    ],
    results: RESULTS,
    format: concat!(
        "attr-dict ",
        src_dst!(),
        " ",
        temp_buffer!(),
        "(`permutation` `=` $permutation^)? (`disable_align` `=` $disable_align^)? (`->` type($result)^)?"
    ),
    verify: Some(verify_vtranspose),
    ..OpSpec::EMPTY
};

/// Upstream's `VTransposeOp::verify`, up to its alignment checks.
fn verify_vtranspose(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (Some(&src), Some(&dst)) = (ir.operands(op).first(), ir.operands(op).get(1)) else { return Ok(()) };
    let (st, dt) = (ir.type_data(ir.value_type(src)), ir.type_data(ir.value_type(dst)));
    let src_elem = st.element_type().unwrap_or(ir.value_type(src));
    if super::ops::fp8_unsupported(ir, op, src_elem) {
        return Err("Current hardware doesn't support fp8 type".into());
    }
    let perm = crate::util::i64_array(ir, op, "permutation");
    if perm.is_empty() {
        return Err("Permutation array should not be empty.".into());
    }
    let rank = st.rank();
    if perm.len() != rank {
        return Err("Permutation size should be equal to src rank".into());
    }
    let mut moved = 0;
    for &p in &perm {
        if p < 0 || p as usize >= rank {
            return Err(format!("have invalid index '{p}' inside permutation array").into());
        }
        // Upstream compares `idx` with `permutation[idx]`.
        if perm[p as usize] != p {
            moved += 1;
        }
    }
    if moved != 2 {
        if rank != 4 {
            return Err("Vtranspose only support two axes transpose".into());
        }
        // Two swaps: the cycles of the permutation, each of length l, take l - 1.
        let mut seen = vec![false; rank];
        let mut swaps = 0;
        for i in 0..rank {
            if seen[i] {
                continue;
            }
            let (mut j, mut len) = (i, 0);
            while !seen[j] {
                seen[j] = true;
                j = perm[j] as usize;
                len += 1;
            }
            swaps += len - 1;
        }
        if swaps != 2 {
            return Err(format!(
                "Vtranspose supports only swapping two axes; for rank-4, also allows permutations equivalent to two \
                 swaps (got moved={moved}, swaps={swaps})"
            )
            .into());
        }
    }
    if dt.element_type() != Some(src_elem) {
        return Err("ElementType of src and dst are not the same".into());
    }
    if dt.rank() != rank {
        return Err("Rank of src and dst are not the same".into());
    }
    verify_single_dst(ir, op)
}

/// `vcumsum`, `vcumprod`, `vcummax`, `vcummin` (upstream materialises the
/// `reverse` default for the last two only).
const fn cumulative(name: &'static str, materialised: bool) -> OpSpec {
    const OPTIONAL: &[AttrDef] =
        &[attr("cum_dims", AttrKind::I64Array), optional_default_attr("reverse", AttrKind::Bool, "false")];
    const MATERIALISED: &[AttrDef] =
        &[attr("cum_dims", AttrKind::I64Array), default_attr("reverse", AttrKind::Bool, "false")];
    OpSpec {
        name,
        operands: SRC_DST_TEMP,
        attrs: if materialised { MATERIALISED } else { OPTIONAL },
        results: RESULTS,
        format: concat!(
            "attr-dict ",
            src_dst!(),
            " ",
            temp_buffer!(),
            "`cum_dims` `=` $cum_dims `reverse` `=` $reverse (`->` type($result)^)?"
        ),
        verify: Some(verify_single_dst),
        ..OpSpec::EMPTY
    }
}

const VCONCAT: OpSpec = OpSpec {
    name: "hivm.hir.vconcat",
    operands: &[var("src"), one("dst")],
    attrs: &[attr("dim", AttrKind::Int(64))],
    results: RESULTS,
    format: concat!("`dim` `(` $dim `)` attr-dict ", src_dst!(), " (`->` type($result)^)?"),
    verify: Some(verify_single_dst),
    ..OpSpec::EMPTY
};

const VINTERLEAVE: OpSpec = OpSpec {
    name: "hivm.hir.vinterleave",
    operands: &[var("src"), one("dst"), opt("temp_buffer")],
    attrs: &[default_attr("interleave_channel_nums", AttrKind::Int(64), "2")],
    results: RESULTS,
    segments: true,
    format: concat!(
        "attr-dict ",
        src_dst!(),
        " `interleave_channel_nums` `=` $interleave_channel_nums ",
        temp_buffer!(),
        "(`->` type($result)^)?"
    ),
    verify: Some(verify_single_dst),
    ..OpSpec::EMPTY
};

const VDEINTERLEAVE: OpSpec = OpSpec {
    name: "hivm.hir.vdeinterleave",
    operands: &[one("src"), var("dst")],
    attrs: &[
        optional_default_attr("channel_num", AttrKind::Int(64), "2"),
        optional_default_attr("index_mode", DEINTERLEAVE_MODE, "ALL_CHANNELS"),
    ],
    results: RESULTS,
    format: concat!(
        "attr-dict ",
        src_dst!(),
        " (`channel_num` `=` $channel_num^)? (`index_mode` `=` $index_mode^)? (`->` type($result)^)?"
    ),
    ..OpSpec::EMPTY
};

const VPAD: OpSpec = OpSpec {
    name: "hivm.hir.vpad",
    operands: &[one("src"), one("dst"), one("pad_value"), var("low").of(Fixed::Index), var("high").of(Fixed::Index)],
    attrs: &[attr("static_low", AttrKind::I64Array), attr("static_high", AttrKind::I64Array)],
    results: RESULTS,
    segments: true,
    format: concat!(
        "attr-dict ",
        src_dst!(),
        " `low` `` custom<DynamicIndexList>($low, $static_low) `high` `` custom<DynamicIndexList>($high, $static_high)",
        " `pad_value` $pad_value `:` type($pad_value) (`->` type($result)^)?"
    ),
    customs: &[DYNAMIC_INDEX_LIST],
    verify: Some(verify_single_dst),
    ..OpSpec::EMPTY
};

const VFLIP: OpSpec = OpSpec {
    name: "hivm.hir.vflip",
    operands: &[one("src"), one("dst")],
    attrs: &[attr("flip_axis", AttrKind::Int(64))],
    results: RESULTS,
    format: concat!("attr-dict ", src_dst!(), " `flip_axis` `=` $flip_axis (`->` type($result)^)?"),
    verify: Some(verify_single_dst),
    ..OpSpec::EMPTY
};

const VSORT: OpSpec = OpSpec {
    name: "hivm.hir.vsort",
    operands: &[one("src"), var("dst"), opt("temp_buffer")],
    attrs: &[
        optional_default_attr("descending", AttrKind::Bool, "false"),
        default_attr("sort_axis", AttrKind::Int(64), "-1"),
    ],
    results: RESULTS,
    segments: true,
    format: concat!(
        "attr-dict ",
        src_dst!(),
        " `descending` `=` $descending `sort_axis` `=` $sort_axis ",
        temp_buffer!(),
        "(`->` type($result)^)?"
    ),
    ..OpSpec::EMPTY
};

const VARANGE: OpSpec = OpSpec {
    name: "hivm.hir.varange",
    operands: &[one("dst"), opt("offset").of(Fixed::Index), var("strides").of(Fixed::Index)],
    results: &[opt("result")],
    segments: true,
    format: "attr-dict (`offset` `[` $offset^ `]`)? `strides` `[` $strides `]` `outs` `(` $dst `:` type($dst) `)` \
             (`->` type($result)^)?",
    verify: Some(verify_single_dst),
    ..OpSpec::EMPTY
};

const VGATHERMASK: OpSpec = OpSpec {
    name: "hivm.hir.vgathermask",
    operands: &[one("src"), one("mask"), var("dst")],
    results: RESULTS,
    format: "attr-dict `ins` `(` $src `:` type($src) `)` `mask` `(` $mask `:` type($mask) `)` \
             `outs` `(` $dst `:` type($dst) `)` (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

const VMULEXTENDED: OpSpec = OpSpec {
    name: "hivm.hir.vmulextended",
    operands: WITH_TEMP,
    results: RESULTS,
    segments: true,
    format: concat!("attr-dict ", src_dst!(), " ", temp_buffer!(), "(`->` type($result)^)?"),
    ..OpSpec::EMPTY
};

pub fn defs() -> Vec<OpDef> {
    let mut specs: Vec<OpSpec> = Vec::new();
    specs.extend(PLAIN.iter().map(|n| plain(n)));
    specs.extend(NO_TEMP_OPS.iter().map(|n| no_temp(n)));
    specs.extend(OPTIONAL_INS.iter().map(|n| optional_ins(n)));
    specs.extend([min_max("hivm.hir.vmax"), min_max("hivm.hir.vmin"), VCAST, VCMP, VDIV, VSHR]);
    specs.extend([class_test("hivm.hir.visinf"), class_test("hivm.hir.visnan")]);
    specs.extend([VBRC, VREDUCE, VGATHER, VTRANSPOSE, VCONCAT, VINTERLEAVE, VDEINTERLEAVE, VPAD, VFLIP, VSORT]);
    specs.extend([VARANGE, VGATHERMASK, VMULEXTENDED]);
    specs.extend([
        cumulative("hivm.hir.vcumsum", false),
        cumulative("hivm.hir.vcumprod", false),
        cumulative("hivm.hir.vcummax", true),
        cumulative("hivm.hir.vcummin", true),
    ]);
    specs.into_iter().map(OpSpec::def).collect()
}

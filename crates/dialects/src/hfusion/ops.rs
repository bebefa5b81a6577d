//! hfusion's declaratively formatted ops: `interleave`, `deinterleave`,
//! `cumsum` and `cumprod` (value semantics, no body), the debug, atomic and
//! SIMT memory ops (`gather_load`, `embedding_gather`, `index_put`,
//! `gatherT`, ...), and `signbit`, which has no custom form.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrDef, AttrKind, Compiled, CustomDirective, FormatState, OpSpec, Var, attr, one, opt, opt_attr,
    optional_default_attr, var,
};
use hivm_ir::parser::{PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData, Value};

/// Ranks of the ranked operands and results, which must agree
/// (`SameOperandsAndResultRank`).
fn same_rank(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let mut ranks =
        ir.operands(op).iter().chain(ir.results(op)).filter_map(|v| ir.type_data(ir.value_type(*v)).shape());
    let Some(first) = ranks.next().map(|s| s.len()) else { return Ok(()) };
    if ranks.any(|s| s.len() != first) {
        return Err("requires the same rank for all operands and results".into());
    }
    Ok(())
}

fn last_dim(ir: &Ir, t: Type) -> Option<i64> {
    ir.type_data(t).shape().and_then(|s| s.last().copied()).filter(|d| *d >= 0)
}

fn verify_interleave(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    same_rank(ir, op)?;
    if ir.operands(op).len() != 2 {
        return Err("num of interleave op input must equal channel num".into());
    }
    if last_dim(ir, ir.value_type(ir.result(op, 0))).is_some_and(|d| d % 2 != 0) {
        return Err("last dimension size of output RankedTensorType must be multiples of current channel num".into());
    }
    Ok(())
}

pub(crate) const INTERLEAVE: OpSpec = OpSpec {
    name: "hfusion.interleave",
    operands: &[var("input")],
    results: &[one("output")],
    format: "$input attr-dict `:` type($input) `->` type($output)",
    traits: Traits::PURE,
    verify: Some(verify_interleave),
    ..OpSpec::EMPTY
};

/// `custom<HFusionDeinterleave>($channelIndex)`: `channel<0>`, or
/// `channel<all>` for -1.
const DEINTERLEAVE_CHANNEL: CustomDirective =
    CustomDirective { name: "HFusionDeinterleave", parse: parse_channel, print: print_channel };

fn parse_channel(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    if !p.parse_optional_keyword("channel") || !p.consume_if(Tok::Less) {
        return p.error("expects the keyword `channel<`");
    }
    let n = if p.parse_optional_keyword("all") {
        -1
    } else if p.is(Tok::Integer) {
        p.parse_integer("channel")? as i64
    } else {
        return p.error("expects a channel integer or keyword `all`");
    };
    if !p.consume_if(Tok::Greater) {
        return p.error("expects a closing bracket `>`");
    }
    let a = p.ir.i64_attr(n);
    st.set_attr(args[0], a);
    Ok(())
}

fn print_channel(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let Var::Attr(i) = args[0] else { return };
    let n = p.ir.get_attr(op, c.spec.attrs[i].name).and_then(|a| p.ir.as_int(a)).unwrap_or(0);
    p.push(&if n == -1 { "channel<all>".to_string() } else { format!("channel<{n}>") });
}

fn verify_deinterleave(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    same_rank(ir, op)?;
    let input = ir.value_type(ir.operands(op)[0]);
    if ir.type_data(input).rank() < 1 {
        return Err("requires input rank to be at least 1".into());
    }
    if last_dim(ir, input).is_some_and(|d| d % 2 != 0) {
        return Err("last dimension size of input RankedTensorType must be multiples of 2".into());
    }
    if ir.results(op).len() > 1 {
        return Err("num of deinterleave op output is either one or zero".into());
    }
    Ok(())
}

pub(crate) const DEINTERLEAVE: OpSpec = OpSpec {
    name: "hfusion.deinterleave",
    operands: &[one("input")],
    attrs: &[attr("channelIndex", AttrKind::Int(64))],
    results: &[var("output")],
    format: "$input custom<HFusionDeinterleave>($channelIndex) attr-dict `:` type($input) `->` type($output)",
    customs: &[DEINTERLEAVE_CHANNEL],
    traits: Traits::PURE,
    verify: Some(verify_deinterleave),
    ..OpSpec::EMPTY
};

/// Upstream's `verifyCumOp`: one valid, unrepeated cumulative dimension.
fn verify_cum(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let dims = crate::util::i64_array(ir, op, "cum_dims");
    let rank = ir.type_data(ir.value_type(ir.operands(op)[0])).rank() as i64;
    if dims.is_empty() {
        return Err("have empty cum dims array".into());
    }
    if dims.len() as i64 > rank {
        return Err("have too many indices in the cum dims array".into());
    }
    let mut seen = Vec::new();
    for d in &dims {
        if *d < 0 || *d >= rank {
            return Err(format!("have invalid index '{d}' inside cum dims array").into());
        }
        if seen.contains(d) {
            return Err(format!("have duplicate index '{d}' inside cum dims array").into());
        }
        seen.push(*d);
    }
    if dims.len() > 1 {
        return Err("have more than one cumulative dims".into());
    }
    Ok(())
}

const CUM_ATTRS: &[AttrDef] =
    &[attr("cum_dims", AttrKind::I64Array), optional_default_attr("reverse", AttrKind::Bool, "false")];
const CUM_FORMAT: &str =
    "$input attr-dict `:` type($input) `cum_dims` `=` $cum_dims `reverse` `=` $reverse `->` type($output)";

pub(crate) const CUMSUM: OpSpec = OpSpec {
    name: "hfusion.cumsum",
    operands: &[one("input")],
    attrs: CUM_ATTRS,
    results: &[one("output")],
    format: CUM_FORMAT,
    traits: Traits::PURE,
    verify: Some(verify_cum),
    ..OpSpec::EMPTY
};

pub(crate) const CUMPROD: OpSpec = OpSpec { name: "hfusion.cumprod", ..CUMSUM };

// ----- ops whose syntax is all in their format -----

const fn hfusion_enum(mnemonic: &'static str, summary: &'static str) -> AttrKind {
    AttrKind::Enum(hivm_ir::opspec::EnumKind { dialect: "hfusion", mnemonic, summary })
}

const ATOMIC_KIND: AttrKind = hfusion_enum("atomic_kind", "Atomic Operation Kind for StoreOp");

const INPUT: &[hivm_ir::opspec::ValueDef] = &[one("input")];
const OUTPUT: &[hivm_ir::opspec::ValueDef] = &[one("output")];
const MULEXT_OPERANDS: &[hivm_ir::opspec::ValueDef] = &[one("lhs"), one("rhs").like("lhs")];
const MULEXT_RESULTS: &[hivm_ir::opspec::ValueDef] = &[one("low").like("lhs"), one("high").like("lhs")];
const CUM_EXTREME_ATTRS: &[AttrDef] = &[
    attr("cum_dims", AttrKind::I64Array),
    attr("reverse", AttrKind::Bool),
    hivm_ir::opspec::default_attr("propagate_nan", AttrKind::Bool, "true"),
];

/// Unary tensor ops written `%r = hfusion.x %in : T -> U`.
const fn tensor_unary(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: INPUT,
        results: OUTPUT,
        format: "$input attr-dict `:` type($input) `->` type($output)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

/// `%low, %high = hfusion.mulext ...`: upstream's tests print the halves as
/// two results (as arith's extended multiplications name theirs).
pub(crate) const MULEXT: [OpSpec; 2] = [mulext("hfusion.mulext"), mulext("hfusion.mulextui")];

const fn mulext(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: MULEXT_OPERANDS,
        results: MULEXT_RESULTS,
        format: "$lhs `,` $rhs attr-dict `:` type($lhs)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn cum_extreme(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: INPUT,
        attrs: CUM_EXTREME_ATTRS,
        results: OUTPUT,
        format: CUM_FORMAT,
        traits: Traits::PURE,
        verify: Some(verify_cum),
        ..OpSpec::EMPTY
    }
}

// ----- ODS type constraints -----

/// The type constraints of upstream's operand and result declarations that
/// the newer ops check, with the summaries of MLIR's "must be" messages.
#[derive(Copy, Clone)]
pub(super) enum Ty {
    /// `AnyMemRef`.
    MemRef,
    /// `AnyRankedTensor`.
    RankedTensor,
    /// `RankedTensorOf<[I32, I64]>`.
    IndexTensor,
    /// `RankedTensorOf<[I1]>`.
    BoolTensor,
    /// `AnyTypeOf<[I32, I64]>`.
    Int,
    /// hfusion's `TensorOrMemref`.
    TensorOrMemref,
    /// `AnyShaped`.
    Shaped,
    /// `AnyTensor`.
    Tensor,
    /// `RankedTensorOf<[F16, F32]>`.
    HalfOrFloatTensor,
    /// `RankedTensorOf<[I1, I8]>`.
    MaskTensor,
    /// `RankedTensorOf<[I8, UI8, I16, UI16, I32, UI32, I64, UI64]>`.
    HistogramInput,
    /// `RankedTensorOf<[I1, I8, I16]>`.
    HistogramMask,
    /// `RankedTensorOf<[I8, I16, I32, I64]>`.
    HistogramOutput,
}

impl Ty {
    fn holds(self, ir: &Ir, t: Type) -> bool {
        let td = ir.type_data(t);
        let elem = |ok: &dyn Fn(&TypeData) -> bool| match td {
            TypeData::RankedTensor { elem, .. } => ok(ir.type_data(*elem)),
            _ => false,
        };
        match self {
            Ty::MemRef => matches!(td, TypeData::MemRef { .. }),
            Ty::RankedTensor => matches!(td, TypeData::RankedTensor { .. }),
            Ty::IndexTensor => elem(&|e| e.is_signless_int(32) || e.is_signless_int(64)),
            Ty::BoolTensor => elem(&|e| e.is_signless_int(1)),
            Ty::Int => td.is_signless_int(32) || td.is_signless_int(64),
            Ty::TensorOrMemref => matches!(td, TypeData::MemRef { .. } | TypeData::RankedTensor { .. }),
            Ty::Shaped => td.is_shaped(),
            Ty::Tensor => td.is_tensor(),
            Ty::HalfOrFloatTensor => {
                elem(&|e| matches!(e, TypeData::Float(hivm_ir::types::FloatKind::F16 | hivm_ir::types::FloatKind::F32)))
            }
            Ty::MaskTensor => elem(&|e| e.is_signless_int(1) || e.is_signless_int(8)),
            Ty::HistogramInput => elem(&|e| {
                matches!(e, TypeData::Integer { width: 8 | 16 | 32 | 64, signedness }
                    if *signedness != hivm_ir::types::Signedness::Signed)
            }),
            Ty::HistogramMask => elem(&|e| [1, 8, 16].iter().any(|w| e.is_signless_int(*w))),
            Ty::HistogramOutput => elem(&|e| [8, 16, 32, 64].iter().any(|w| e.is_signless_int(*w))),
        }
    }

    fn summary(self) -> &'static str {
        match self {
            Ty::MemRef => "memref of any type values",
            Ty::RankedTensor => "ranked tensor of any type values",
            Ty::IndexTensor => "ranked tensor of 32-bit signless integer or 64-bit signless integer values",
            Ty::BoolTensor => "ranked tensor of 1-bit signless integer values",
            Ty::Int => "32-bit signless integer or 64-bit signless integer",
            Ty::TensorOrMemref => "Tensor or Memref",
            Ty::Shaped => "shaped of any type values",
            Ty::Tensor => "tensor of any type values",
            Ty::HalfOrFloatTensor => "ranked tensor of 16-bit float or 32-bit float values",
            Ty::MaskTensor => "ranked tensor of 1-bit signless integer or 8-bit signless integer values",
            Ty::HistogramInput => {
                "ranked tensor of 8-bit signless integer or 8-bit unsigned integer or 16-bit signless integer or \
                 16-bit unsigned integer or 32-bit signless integer or 32-bit unsigned integer or 64-bit signless \
                 integer or 64-bit unsigned integer values"
            }
            Ty::HistogramMask => {
                "ranked tensor of 1-bit signless integer or 8-bit signless integer or 16-bit signless integer values"
            }
            Ty::HistogramOutput => {
                "ranked tensor of 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or \
                 64-bit signless integer values"
            }
        }
    }
}

/// `what #i` (an operand or result, numbered as ODS numbers them) meets `ty`.
pub(super) fn check_type(ir: &Ir, what: &str, i: usize, v: Value, ty: Ty) -> Result<(), VerifyError> {
    let t = ir.value_type(v);
    if ty.holds(ir, t) {
        return Ok(());
    }
    Err(format!("{what} #{i} must be {}, but got '{}'", ty.summary(), crate::util::type_str(ir, t)).into())
}

/// The constraints of a declaratively defined op, one per operand group and
/// per result group (in declaration order), checked value by value.
fn check_groups(ir: &Ir, op: OpId, operands: &[Ty], results: &[Ty]) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let mut n = 0;
    for (g, ty) in operands.iter().enumerate() {
        for v in c.operand_group(ir, op, g) {
            check_type(ir, "operand", n, *v, *ty)?;
            n += 1;
        }
    }
    let mut n = 0;
    for (g, ty) in results.iter().enumerate() {
        for v in c.result_group(ir, op, g) {
            check_type(ir, "result", n, *v, *ty)?;
            n += 1;
        }
    }
    Ok(())
}

/// The value of operand group `name` when it holds one.
fn operand(ir: &Ir, op: OpId, name: &str) -> Option<Value> {
    let c = ir.op_def(op).and_then(|d| d.spec)?;
    c.operand_group(ir, op, c.operand_index(name)?).first().copied()
}

fn shape(ir: &Ir, v: Value) -> Option<Vec<i64>> {
    ir.type_data(ir.value_type(v)).shape().map(<[i64]>::to_vec)
}

// ----- gather_load -----

fn verify_gather_load(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    use Ty::*;
    check_groups(ir, op, &[MemRef, IndexTensor, Int, BoolTensor, RankedTensor, TensorOrMemref], &[RankedTensor])?;
    let (Some(base), Some(indices), Some(dst)) =
        (operand(ir, op, "base"), operand(ir, op, "indices"), operand(ir, op, "dst"))
    else {
        return Ok(());
    };
    let elem = |v: Value| crate::util::element_or_self(ir, ir.value_type(v));
    if elem(base) != elem(dst) {
        return Err("failed to verify that all of {base, dst} have same element type".into());
    }
    let (index_shape, dst_shape) = (shape(ir, indices).unwrap_or_default(), shape(ir, dst).unwrap_or_default());
    if index_shape.len() != dst_shape.len() {
        return Err("failed to verify that all of {indices, dst} have same rank".into());
    }
    if index_shape != dst_shape {
        return Err("failed to verify that all of {indices, dst} have same shape".into());
    }
    let n = ir.operands(op).len();
    crate::hivm::ops::verify_dps(ir, op, n - 1..n)?;
    if let Some(mask) = operand(ir, op, "mask")
        && shape(ir, mask).unwrap_or_default() != index_shape
    {
        return Err("mask of hfusion::GatherLoadOp must have the same shape and rank as indices".into());
    }
    if let Some(other) = operand(ir, op, "other") {
        if shape(ir, other).unwrap_or_default() != index_shape {
            return Err("other of hfusion::GatherLoadOp must have the same shape and rank as indices".into());
        }
        if elem(other) != elem(base) {
            return Err("other of hfusion::GatherLoadOp must have the same element type as base".into());
        }
    }
    Ok(())
}

const GATHER_LOAD: OpSpec = OpSpec {
    name: "hfusion.gather_load",
    operands: &[one("base"), one("indices"), one("burst_len"), opt("mask"), opt("other"), one("dst")],
    attrs: &[
        opt_attr("cache", AttrKind::Any),
        opt_attr("evict", AttrKind::Any),
        opt_attr("isVolatile", AttrKind::Bool),
    ],
    results: &[opt("result")],
    format: "`ins` `(` $base `:` type($base) `,` $indices `:` type($indices) `,` $burst_len `:` type($burst_len) \
             (`,` $mask `:` type($mask)^)? (`,` $other `:` type($other)^)? `)` `outs` `(` $dst `:` type($dst) `)` \
             attr-dict (`->` type($result)^)?",
    verify: Some(verify_gather_load),
    ..OpSpec::EMPTY
};

// ----- scatter_store -----

fn verify_scatter_store(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    use Ty::*;
    check_groups(ir, op, &[IndexTensor, RankedTensor, Int, BoolTensor, TensorOrMemref], &[RankedTensor])?;
    let (Some(indices), Some(data), Some(base)) =
        (operand(ir, op, "indices"), operand(ir, op, "data"), operand(ir, op, "base"))
    else {
        return Ok(());
    };
    let elem = |v: Value| crate::util::element_or_self(ir, ir.value_type(v));
    if elem(base) != elem(data) {
        return Err("failed to verify that all of {base, data} have same element type".into());
    }
    let (index_shape, data_shape) = (shape(ir, indices).unwrap_or_default(), shape(ir, data).unwrap_or_default());
    if index_shape.len() != data_shape.len() {
        return Err("failed to verify that all of {indices, data} have same rank".into());
    }
    if index_shape != data_shape {
        return Err("failed to verify that all of {indices, data} have same shape".into());
    }
    let n = ir.operands(op).len();
    crate::hivm::ops::verify_dps(ir, op, n - 1..n)?;
    if let Some(mask) = operand(ir, op, "mask")
        && shape(ir, mask).unwrap_or_default() != data_shape
    {
        return Err("mask of hfusion::ScatterStoreOp must have the same shape and rank as data".into());
    }
    Ok(())
}

// ----- matmul_mx -----

/// Upstream's checks: 2-D inputs with matching inner sizes, and the result
/// (and accumulator) `[M, N]`; sizes compare as written (`?` only equals `?`).
fn verify_matmul_mx(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    crate::hivm::ops::verify_dps(ir, op, 4..5)?;
    let s = |v: Value| shape(ir, v);
    let (Some(a), Some(b), Some(_), Some(_)) = (s(ops[0]), s(ops[1]), s(ops[2]), s(ops[3])) else {
        return Err("requires shaped types for input".into());
    };
    if a.len() != 2 || b.len() != 2 {
        return Err("requires both input to have rank 2".into());
    }
    if a[1] != b[0] {
        return Err("requires inner dimension of matmul matrix to match".into());
    }
    let result = s(ir.result(op, 0)).unwrap_or_default();
    if result.first() != Some(&a[0]) || result.get(1) != Some(&b[1]) {
        return Err("requires output shape to match with input shapes".into());
    }
    if s(ops[4]).unwrap_or_default() != result {
        return Err("acc and output should have the same shape".into());
    }
    Ok(())
}

// ----- the SIMT gathers and scatters (their operand lists split evenly,
// as upstream's `SameVariadicOperandSize`) -----

fn verify_embedding_gather(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    use Ty::*;
    check_groups(ir, op, &[MemRef, RankedTensor, RankedTensor, Int, Int, Int], &[RankedTensor])
}

const EMBEDDING_GATHER: OpSpec = OpSpec {
    name: "hfusion.embedding_gather",
    operands: &[one("src"), one("index"), one("dst"), one("bound"), var("offsets"), var("numels")],
    results: &[opt("result")],
    format: "`ins` `(` $src `:` type($src) `,` $index `:` type($index) `,` $bound `:` type($bound) `,` \
             `[` $offsets `:` type($offsets) `]` `,` `[` $numels `:` type($numels) `]` `)` \
             `outs` `(` $dst `:` type($dst) `)` attr-dict (`->` type($result)^)?",
    verify: Some(verify_embedding_gather),
    ..OpSpec::EMPTY
};

fn verify_index_put(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    use Ty::*;
    check_groups(ir, op, &[MemRef, RankedTensor, RankedTensor, Int, Int, Int, Int, Int], &[])
}

const INDEX_PUT: OpSpec = OpSpec {
    name: "hfusion.index_put",
    operands: crate::hivm::memory_ops::INDEX_PUT_OPERANDS,
    format: crate::hivm::memory_ops::INDEX_PUT_FORMAT,
    verify: Some(verify_index_put),
    ..OpSpec::EMPTY
};

fn verify_gather_t(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    use Ty::*;
    check_groups(ir, op, &[MemRef, RankedTensor, RankedTensor, Int, Int, Int, Int, Int], &[RankedTensor])
}

const GATHER_T: OpSpec = OpSpec {
    name: "hfusion.gatherT",
    operands: crate::hivm::memory_ops::GATHER_T_OPERANDS,
    results: &[opt("result")],
    format: crate::hivm::memory_ops::GATHER_T_FORMAT,
    verify: Some(verify_gather_t),
    ..OpSpec::EMPTY
};

// ----- signbit: no custom form upstream, so generic only -----

fn verify_signbit(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (input, output) = (ir.operands(op)[0], ir.result(op, 0));
    check_type(ir, "operand", 0, input, Ty::HalfOrFloatTensor)?;
    check_type(ir, "result", 0, output, Ty::MaskTensor)?;
    // `Elementwise` (before `SameOperandsAndResultShape`, which agrees).
    let (a, b) = (shape(ir, input).unwrap_or_default(), shape(ir, output).unwrap_or_default());
    let compatible = a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| *x == hivm_ir::types::DYNAMIC || *y == hivm_ir::types::DYNAMIC || x == y);
    if !compatible {
        return Err("all non-scalar operands/results must have the same shape and base type".into());
    }
    Ok(())
}

pub(crate) fn signbit() -> OpDef {
    OpDef::new("hfusion.signbit")
        .arity((1, Some(1)), (1, Some(1)), 0)
        .traits(Traits::PURE.with(Traits::ZERO_REGIONS).with(Traits::ELEMENTWISE))
        .verifier(verify_signbit)
}

pub(crate) const DECLARATIVE: &[OpSpec] = &[
    GATHER_LOAD,
    EMBEDDING_GATHER,
    INDEX_PUT,
    GATHER_T,
    // The SIMT strided accesses: hfusion's forms are HIVM's, same syntax.
    OpSpec { name: "hfusion.stride_load", ..crate::hivm::memory_ops::STRIDE_LOAD },
    OpSpec { name: "hfusion.stride_store", ..crate::hivm::memory_ops::STRIDE_STORE },
    OpSpec {
        name: "hfusion.print",
        operands: &[one("arg")],
        attrs: &[attr("prefix", AttrKind::Str), attr("hex", AttrKind::Bool)],
        format: "$prefix attr-dict $arg `:` type($arg)",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.assert",
        operands: &[one("cond")],
        attrs: &[attr("msg", AttrKind::Str)],
        format: "$msg attr-dict $cond `:` type($cond)",
        ..OpSpec::EMPTY
    },
    OpSpec { name: "hfusion.barrier", format: "attr-dict", ..OpSpec::EMPTY },
    OpSpec {
        name: "hfusion.symbolic_dim",
        attrs: &[attr("symbolName", AttrKind::Any)],
        results: &[one("result").of(hivm_ir::opspec::Fixed::Index)],
        format: "$symbolName attr-dict `:` type($result)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.flip",
        operands: &[one("input")],
        attrs: &[attr("flip_axis", AttrKind::Int(64))],
        results: &[one("output")],
        format: "$input attr-dict `:` type($input) `flip_axis` `=` $flip_axis `->` type($output)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    tensor_unary("hfusion.isinf"),
    tensor_unary("hfusion.isnan"),
    tensor_unary("hfusion.isfinite"),
    tensor_unary("hfusion.erfinv"),
    tensor_unary("hfusion.cyl_bessel_i0"),
    cum_extreme("hfusion.cummax"),
    cum_extreme("hfusion.cummin"),
    OpSpec {
        name: "hfusion.nextafter",
        operands: &[one("x"), one("y")],
        results: &[one("output")],
        format: "$x `,` $y attr-dict `:` type($x) `,` type($y) `->` type($output)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.hypot",
        operands: &[one("x"), one("y"), opt("z")],
        results: &[one("output")],
        format: "$x `,` $y (`,` $z^)? attr-dict `:` type($x) `,` type($y) (`,` type($z)^)? `->` type($output)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.atomic_cas",
        operands: &[var("input"), one("dst")],
        results: &[opt("output")],
        format: "attr-dict `ins` `(` $input `:` type($input) `)` `outs` `(` $dst `:` type($dst) `)` \
                 (`->` type($output)^)?",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.atomic_xchg",
        operands: &[one("input"), one("dst"), opt("mask")],
        results: &[opt("output")],
        format: "attr-dict `ins` `(` $input `:` type($input) `)` `outs` `(` $dst `:` type($dst) `)` \
                 (`mask` `(` $mask^ `:` type($mask) `)`)? (`->` type($output)^)?",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.atomic_rmw",
        operands: &[one("input"), one("dst")],
        attrs: &[attr("atomic_kind", ATOMIC_KIND)],
        results: &[opt("output")],
        format: "attr-dict `ins` `(` $input `:` type($input) `)` `outs` `(` $dst `:` type($dst) `)` \
                 `atomic_kind` `=` $atomic_kind (`->` type($output)^)?",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.sort",
        operands: &[one("src")],
        attrs: &[optional_default_attr("descending", AttrKind::Bool, "false"), attr("sort_axis", AttrKind::Int(64))],
        results: &[var("result")],
        format: "attr-dict `ins` `(` $src `:` type($src) `)` `descending` `=` $descending `sort_axis` `=` $sort_axis \
                 (`->` type($result)^)?",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.histogram",
        operands: &[one("input"), opt("mask")],
        attrs: &[attr("num_bins", AttrKind::Int(64))],
        results: &[one("output")],
        format: "$input `,` $num_bins (`,` $mask^)? attr-dict `:` type($input) (`,` type($mask)^)? `->` type($output)",
        verify: Some(verify_histogram),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.scatter_store",
        operands: &[one("indices"), one("data"), one("burst_len"), opt("mask"), one("base")],
        attrs: &[opt_attr("cache", AttrKind::Any), opt_attr("evict", AttrKind::Any)],
        results: &[opt("result")],
        format: "`ins` `(` $indices `:` type($indices) `,` $data `:` type($data) `,` $burst_len `:` type($burst_len) \
                 (`,` $mask `:` type($mask)^)? `)` `outs` `(` $base `:` type($base) `)` attr-dict (`->` type($result)^)?",
        verify: Some(verify_scatter_store),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.indirect_load",
        operands: &[one("src"), one("offsets"), one("dst"), one("mask"), one("other")],
        attrs: &[hivm_ir::opspec::default_attr("isVolatile", AttrKind::Bool, "true")],
        results: &[opt("result")],
        format: "`ins` `(` $src `:` type($src) `,` $offsets `:` type($offsets) `,` $mask `:` type($mask) `,` \
                 $other `:` type($other) `)` `outs` `(` $dst `:` type($dst) `)` attr-dict (`->` type($result)^)?",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.indirect_store",
        operands: &[one("dst"), one("offsets"), one("src"), opt("mask")],
        format: "`ins` `(` $src `:` type($src) `,` $offsets `:` type($offsets) (`,` $mask^ `:` type($mask))? `)` \
                 `outs` `(` $dst `:` type($dst) `)` attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.scatterT",
        operands: &[
            one("dst"),
            one("value"),
            one("index_tile"),
            one("index_boundary"),
            one("dim"),
            var("dst_stride"),
            var("index_shape"),
            var("offsets"),
        ],
        segments: true,
        format: "`ins` `(` $dst `:` type($dst) `,` $value `:` type($value) `,` $index_tile `:` type($index_tile) `,` \
                 $index_boundary `:` type($index_boundary) `,` $dim `:` type($dim) `,` \
                 `[` $dst_stride `:` type($dst_stride) `]` `,` `[` $index_shape `:` type($index_shape) `]` `,` \
                 `[` $offsets `:` type($offsets) `]` `)` attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.matmul_mx",
        operands: &[one("inputA"), one("inputB"), one("scaleA"), one("scaleB"), one("acc")],
        attrs: &[opt_attr("lhsFormat", AttrKind::Any), opt_attr("rhsFormat", AttrKind::Any)],
        results: &[one("result")],
        format: "attr-dict `ins` `(` $inputA `,` $inputB `,` $scaleA `,` $scaleB `:` type($inputA) `,` \
                 type($inputB) `,` type($scaleA) `,` type($scaleB) `)` `outs` `(` $acc `:` type($acc) `)` \
                 `->` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_matmul_mx),
        ..OpSpec::EMPTY
    },
];

/// Upstream's `HistogramOp` checks after its ODS constraints: a static
/// rank-1 output of i32 or i64 counts with one entry per bin, and a mask
/// shaped like the input.
fn verify_histogram(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_groups(ir, op, &[Ty::HistogramInput, Ty::HistogramMask], &[Ty::HistogramOutput])?;
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let shape = |v: Value| ir.type_data(ir.value_type(v)).shape().map(<[i64]>::to_vec).unwrap_or_default();
    let input = c.operand_group(ir, op, 0)[0];
    let output = ir.result(op, 0);
    let out_shape = shape(output);
    if out_shape.len() != 1 {
        return Err("output must be rank-1".into());
    }
    if out_shape[0] == hivm_ir::types::DYNAMIC {
        return Err("output must have static shape".into());
    }
    let out_elem = crate::util::element_or_self(ir, ir.value_type(output));
    if !(ir.type_data(out_elem).is_signless_int(32) || ir.type_data(out_elem).is_signless_int(64)) {
        return Err("output element type must be i32 or i64".into());
    }
    let bins = crate::util::int_attr(ir, op, "num_bins").unwrap_or(0);
    if out_shape[0] as i128 != bins {
        return Err(format!("output length ({}) must equal num_bins ({bins})", out_shape[0]).into());
    }
    if let Some(mask) = c.operand_group(ir, op, 1).first()
        && shape(*mask) != shape(input)
    {
        return Err("mask shape must match input shape".into());
    }
    Ok(())
}

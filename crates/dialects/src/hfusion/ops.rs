//! hfusion's declaratively formatted ops: `interleave`, `deinterleave`,
//! `cumsum` and `cumprod` (value semantics, no body).

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrDef, AttrKind, Compiled, CustomDirective, FormatState, OpSpec, Var, attr, one, opt, opt_attr,
    optional_default_attr, var,
};
use hivm_ir::parser::{PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpId, Traits, Type};

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

pub(crate) const DECLARATIVE: &[OpSpec] = &[
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
    mulext("hfusion.mulext"),
    mulext("hfusion.mulextui"),
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
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "hfusion.scatter_store",
        operands: &[one("indices"), one("data"), one("burst_len"), opt("mask"), one("base")],
        attrs: &[opt_attr("cache", AttrKind::Any), opt_attr("evict", AttrKind::Any)],
        results: &[opt("result")],
        format: "`ins` `(` $indices `:` type($indices) `,` $data `:` type($data) `,` $burst_len `:` type($burst_len) \
                 (`,` $mask `:` type($mask)^)? `)` `outs` `(` $base `:` type($base) `)` attr-dict (`->` type($result)^)?",
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
        ..OpSpec::EMPTY
    },
];

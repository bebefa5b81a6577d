//! hfusion's declaratively formatted ops: `interleave`, `deinterleave`,
//! `cumsum` and `cumprod` (value semantics, no body).

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrDef, AttrKind, Compiled, CustomDirective, FormatState, OpSpec, Var, attr, one, optional_default_attr, var,
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

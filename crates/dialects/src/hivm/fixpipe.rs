//! `hivm.hir.fixpipe` (L0C -> out on PIPE_FIX), whose syntax upstream
//! writes by hand too; the other cube ops are declarative (`matmul_ops.rs`).

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, Value};

use super::attrs;
use crate::util::{check_segments, push_attr, segment, segment_attr};

fn group(p: &mut Parser<'_>, kw: &str, required: bool) -> PResult<Vec<Value>> {
    match crate::util::parse_keyword_group(p, kw)? {
        Some(v) => Ok(v),
        None if required => p.error(format!("expected '{kw}'")),
        None => Ok(Vec::new()),
    }
}

use crate::util::print_keyword_group as print_group;

fn value_clause(p: &mut Parser<'_>, kw: &str) -> PResult<Option<Value>> {
    if !p.parse_optional_keyword(kw) {
        return Ok(None);
    }
    p.expect(Tok::Equal, "'='")?;
    let u = p.parse_operand()?;
    let t = p.parse_colon_type()?;
    p.resolve_operand(&u, t).map(Some)
}

fn print_value_clause(p: &mut Printer<'_>, kw: &str, vals: &[Value]) {
    if let Some(&v) = vals.first() {
        p.push(&format!(" {kw} = "));
        p.print_value(v);
        p.push(" : ");
        p.print_type(p.ir.value_type(v));
    }
}

// ----- fixpipe (L0C -> out, PIPE_FIX) -----
// Segments: src, dst, unit_flag_cond, quant_scale. Default-valued attributes
// are left out of the attribute dictionary as upstream's printer does.

const FIXPIPE_DEFAULTS: &[(&str, &str, &str)] = &[
    ("sub_block_idx", "fixpipe_sub_block", "sub_block_0"),
    ("dma_mode", "dma_mode", "normal"),
    ("pre_quant", "fixpipe_pre_quant_mode", "NO_QUANT"),
    ("pre_relu", "fixpipe_pre_relu_mode", "NO_RELU"),
];

fn fixpipe_defaults(ir: &mut Ir) -> Vec<(&'static str, hivm_ir::Attribute)> {
    vec![("dma_mode", crate::util::opaque_attr(ir, "hivm", "dma_mode<normal>"))]
}

fn parse_fixpipe(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    // Backward compatibility: `{enable_nz2nd}` means `dma_mode = nz2nd`.
    let legacy = p.ir.sym("enable_nz2nd");
    if r.attrs.iter().any(|(k, _)| *k == legacy) {
        r.attrs.retain(|(k, _)| *k != legacy);
        let a = crate::util::opaque_attr(p.ir, "hivm", "dma_mode<nz2nd>");
        push_attr(p, r, "dma_mode", a);
    }
    let src = group(p, "ins", true)?;
    let dst = group(p, "outs", true)?;
    if src.len() != 1 || dst.len() != 1 {
        return p.error("expected one source and one destination");
    }
    let quant = value_clause(p, "quant_scale")?;
    if p.parse_optional_keyword("dual_dst_mode") {
        p.expect(Tok::Equal, "'='")?;
        let a = super::attrs::parse_stripped_enum(p, "fixpipe_dual_dst_mode")?;
        push_attr(p, r, "dual_dst_mode", a);
    }
    let cond = parse_unit_flag(p, r)?;
    if p.consume_if(Tok::Arrow) {
        r.result_types.push(p.parse_type()?);
    }
    let seg = segment_attr(p.ir, &[1, 1, cond.len(), quant.iter().len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = src.into_iter().chain(dst).chain(cond).chain(quant).collect();
    Ok(())
}

fn print_fixpipe(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let mut elided = vec!["operandSegmentSizes", "dual_dst_mode", "unit_flag_mode"];
    for (attr, mnemonic, default) in FIXPIPE_DEFAULTS {
        if ir.get_attr(op, attr).and_then(|a| super::attrs::enum_value(ir, a, mnemonic)) == Some(*default) {
            elided.push(attr);
        }
    }
    if ir.get_attr(op, "channel_split").and_then(|a| ir.as_int(a)) == Some(0) {
        elided.push("channel_split");
    }
    p.print_optional_attr_dict(op, &elided);
    print_group(p, "ins", segment(ir, op, 0));
    print_group(p, "outs", segment(ir, op, 1));
    print_value_clause(p, "quant_scale", segment(ir, op, 3));
    if let Some(a) = ir.get_attr(op, "dual_dst_mode") {
        p.push(" dual_dst_mode = ");
        super::attrs::print_stripped_enum(p, a, "fixpipe_dual_dst_mode");
    }
    print_unit_flag_and_results(p, op, 2);
}

fn verify_fixpipe(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 4)?;
    let target = crate::hacc::module_target(ir, op);
    // Upstream's `isAscend950` is the whole generation (Ascend910_9589, ...).
    let is_950 = target.as_deref().is_some_and(crate::hacc::is_910_95_family);
    let mode = ir.get_attr(op, "dma_mode").and_then(|a| attrs::enum_value(ir, a, "dma_mode")).unwrap_or("normal");
    let space = |v: Value| match ir.type_data(ir.value_type(v)) {
        hivm_ir::TypeData::MemRef { memory_space: Some(a), .. } => attrs::enum_value(ir, *a, "address_space"),
        _ => None,
    };
    let dst_space = segment(ir, op, 1).first().and_then(|v| space(*v));
    if mode == "nz2dn" && !is_950 {
        return Err("NZ2DN is only supported on Ascend950!".into());
    }
    if dst_space == Some("ub") && !is_950 {
        return Err("dst=UB is only supported on Ascend950!".into());
    }
    if !is_950 && mode != "nz2nd" && mode != "normal" {
        return Err("The current hardware does not support dma mode is nz2nz".into());
    }
    let Some(dual) = ir.get_attr(op, "dual_dst_mode").and_then(|a| attrs::enum_value(ir, a, "fixpipe_dual_dst_mode"))
    else {
        return Ok(());
    };
    if dual == "NO_DUAL" {
        return Ok(());
    }
    if ir.get_attr(op, "sub_block_idx").is_some() {
        return Err("sub_block_idx must not be set when dual_dst_mode is enabled!".into());
    }
    if !is_950 {
        return Err("dual_dst_mode is only supported on Ascend950!".into());
    }
    let src_space = segment(ir, op, 0).first().and_then(|v| space(*v));
    if let (Some(s), Some(d)) = (src_space, dst_space)
        && (s != "cc" || d != "ub")
    {
        return Err("if dual_dst_mode is enabled, the data movement must be performed from L0C to UB!".into());
    }
    Ok(())
}

pub fn fixpipe_def() -> OpDef {
    OpDef::new("hivm.hir.fixpipe")
        .inherent(&[
            "operandSegmentSizes",
            "dma_mode",
            "dual_dst_mode",
            "sub_block_idx",
            "pre_quant",
            "pre_relu",
            "channel_split",
            "c0_pad_en",
            "unit_flag_mode",
            "unit_flag_group_id",
        ])
        .assembly(parse_fixpipe, print_fixpipe)
        .verifier(verify_fixpipe)
        .defaults(&["dma_mode"], fixpipe_defaults)
}

/// ` unit_flag_mode(...) unit_flag_cond(...) -> types`, shared by the ops
/// with unit flags; `cond_segment` is where each keeps its condition.
fn print_unit_flag_and_results(p: &mut Printer<'_>, op: OpId, cond_segment: usize) {
    let ir = p.ir;
    if let Some(a) = ir.get_attr(op, "unit_flag_mode") {
        p.push(" unit_flag_mode(");
        p.print_attr(a, hivm_ir::printer::Elide::Never);
        p.push(")");
    }
    let cond = segment(ir, op, cond_segment);
    if !cond.is_empty() {
        p.push(" unit_flag_cond(");
        p.print_values(cond);
        p.push(")");
    }
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

/// ` unit_flag_mode(...) unit_flag_cond(...)`, both optional; returns the
/// condition operands.
fn parse_unit_flag(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<Vec<Value>> {
    if p.parse_optional_keyword("unit_flag_mode") {
        p.expect(Tok::LParen, "'('")?;
        let a = p.parse_attribute(None)?;
        p.expect(Tok::RParen, "')'")?;
        push_attr(p, r, "unit_flag_mode", a);
    }
    let mut cond = Vec::new();
    if p.parse_optional_keyword("unit_flag_cond") {
        p.expect(Tok::LParen, "'('")?;
        let ops = p.parse_operand_list()?;
        p.expect(Tok::RParen, "')'")?;
        let i1 = p.ir.int_type(1);
        for u in &ops {
            cond.push(p.resolve_operand(u, i1)?);
        }
    }
    Ok(cond)
}

pub fn defs() -> Vec<OpDef> {
    vec![fixpipe_def()]
}

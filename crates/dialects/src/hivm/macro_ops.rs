//! `hivm.hir.nd2nz` (a DMA on PIPE_MTE2), `hivm.hir.mmadL1` and
//! `hivm.hir.mmadmxL1` (the local matrix multiplies, plain and MX-scaled:
//! read on PIPE_MTE1, write on PIPE_M), `matmul` and `fixpipe`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::types::{FloatKind, Signedness};
use hivm_ir::{AttrData, Ir, OpDef, OpId, Traits, TypeData, Value};

use super::ops::{Arity, check_arity, is_tensor_or_memref, type_error, verify_dps};
use crate::util::{check_segments, push_attr, segment, segment_attr, type_str};

fn group(p: &mut Parser<'_>, kw: &str, required: bool) -> PResult<Vec<Value>> {
    match crate::util::parse_keyword_group(p, kw)? {
        Some(v) => Ok(v),
        None if required => p.error(format!("expected '{kw}'")),
        None => Ok(Vec::new()),
    }
}

use crate::util::print_keyword_group as print_group;

// ----- nd2nz: `attr-dict ins(src) outs(dst) (init_out_buffer = b)? (pad_value = %v : T)?
//                (init_condition = %c : T)? (-> T)?` -----

fn value_clause(p: &mut Parser<'_>, kw: &str) -> PResult<Option<Value>> {
    if !p.parse_optional_keyword(kw) {
        return Ok(None);
    }
    p.expect(Tok::Equal, "'='")?;
    let u = p.parse_operand()?;
    let t = p.parse_colon_type()?;
    p.resolve_operand(&u, t).map(Some)
}

fn parse_nd2nz(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src = group(p, "ins", true)?;
    let dst = group(p, "outs", true)?;
    if p.parse_optional_keyword("init_out_buffer") {
        p.expect(Tok::Equal, "'='")?;
        let a = p.parse_attribute(None)?;
        push_attr(p, r, "init_out_buffer", a);
    }
    let pad = value_clause(p, "pad_value")?;
    let cond = value_clause(p, "init_condition")?;
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let seg = segment_attr(p.ir, &[src.len(), dst.len(), pad.iter().len(), cond.iter().len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = src.into_iter().chain(dst).chain(pad).chain(cond).collect();
    Ok(())
}

fn print_nd2nz(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "init_out_buffer"]);
    print_group(p, "ins", segment(ir, op, 0));
    print_group(p, "outs", segment(ir, op, 1));
    if ir.get_attr(op, "init_out_buffer").and_then(|a| ir.as_int(a)).is_some_and(|v| v != 0) {
        p.push(" init_out_buffer = true");
    }
    for (kw, seg) in [("pad_value", 2), ("init_condition", 3)] {
        if let Some(&v) = segment(ir, op, seg).first() {
            p.push(&format!(" {kw} = "));
            p.print_value(v);
            p.push(" : ");
            p.print_type(ir.value_type(v));
        }
    }
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_nd2nz(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 4)?;
    if segment(ir, op, 0).len() != 1 || segment(ir, op, 1).len() != 1 {
        return Err("expects one source and one destination".into());
    }
    Ok(())
}

// ----- mmadL1 -----
// Segments: a, b, init_condition, real_m, real_k, real_n, c, sync_related_args,
// unit_flag_cond, per_channel_bias.

fn parse_mmad(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ins = group(p, "ins", true)?;
    if !(6..=7).contains(&ins.len()) {
        return p.error("expected 6 or 7 operands in 'ins' (a, b, init_condition, real_m, real_k, real_n[, bias])");
    }
    let outs = group(p, "outs", true)?;
    let sync = group(p, "sync_related_args", false)?;
    let cond = parse_unit_flag(p, r)?;
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let bias: Vec<Value> = ins.get(6).copied().into_iter().collect();
    let seg = segment_attr(p.ir, &[1, 1, 1, 1, 1, 1, outs.len(), sync.len(), cond.len(), bias.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = ins[..6].iter().copied().chain(outs).chain(sync).chain(cond).chain(bias).collect();
    Ok(())
}

fn print_mmad(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "unit_flag_mode"]);
    let mut ins: Vec<Value> = (0..6).filter_map(|i| segment(ir, op, i).first().copied()).collect();
    ins.extend(segment(ir, op, 9).iter().copied());
    print_group(p, "ins", &ins);
    print_group(p, "outs", segment(ir, op, 6));
    print_group(p, "sync_related_args", segment(ir, op, 7));
    print_unit_flag_and_results(p, op, 8);
}

fn verify_mmad(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 10)?;
    // a, b, init_condition, real_m/k/n and c are single operands.
    let sizes = crate::util::segments(ir, op);
    for seg in 0..7 {
        if sizes[seg] != 1 {
            let start: usize = sizes[..seg].iter().sum();
            return Err(
                format!("operand group starting at #{start} requires 1 element, but found {}", sizes[seg]).into()
            );
        }
    }
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
        if !matches!(ir.type_data(ir.value_type(v)), hivm_ir::TypeData::Index) {
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
// `attr-dict (a_transpose)? (b_transpose)? ins(a, b, scaleA, scaleB,
// init_condition, real_m, real_k, real_n[, per_channel_bias] : types)
// outs(c : T) (sync_related_args(... : i64...))? (-> types)?`
// Segments (upstream's operand order): a, b, scaleA, scaleB, init_condition,
// real_m, real_k, real_n, c, sync_related_args, per_channel_bias.

const MX_SEGMENTS: usize = 11;
/// Segment of C, the init.
const MX_C: usize = 8;
const MX_SYNC: usize = 9;
const MX_BIAS: usize = 10;

fn parse_mmad_mx(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    for kw in ["a_transpose", "b_transpose"] {
        if p.parse_optional_keyword(kw) {
            let u = p.ir.unit_attr();
            push_attr(p, r, kw, u);
        }
    }
    let pos = p.pos();
    let ins = group(p, "ins", true)?;
    if !(8..=9).contains(&ins.len()) {
        return p.error_at(
            pos,
            "expected 8 or 9 operands in 'ins' (a, b, scaleA, scaleB, init_condition, real_m, real_k, real_n[, bias])",
        );
    }
    let pos = p.pos();
    let outs = group(p, "outs", true)?;
    if outs.len() != 1 {
        return p.error_at(pos, "expected one operand (c) in 'outs'");
    }
    let sync = group(p, "sync_related_args", false)?;
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let bias: Vec<Value> = ins.get(8).copied().into_iter().collect();
    let seg = segment_attr(p.ir, &[1, 1, 1, 1, 1, 1, 1, 1, 1, sync.len(), bias.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = ins[..8].iter().copied().chain(outs).chain(sync).chain(bias).collect();
    Ok(())
}

fn print_mmad_mx(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "a_transpose", "b_transpose"]);
    for kw in ["a_transpose", "b_transpose"] {
        if ir.has_attr(op, kw) {
            p.push(&format!(" {kw}"));
        }
    }
    let mut ins: Vec<Value> = (0..MX_C).flat_map(|i| segment(ir, op, i).iter().copied()).collect();
    ins.extend(segment(ir, op, MX_BIAS).iter().copied());
    print_group(p, "ins", &ins);
    print_group(p, "outs", segment(ir, op, MX_C));
    print_group(p, "sync_related_args", segment(ir, op, MX_SYNC));
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

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

/// ODS's checks of mmadmxL1 (attributes, operand groups and types, results)
/// and the destination-style ones; upstream has no verifier of its own.
fn verify_mmad_mx(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_arity(ir, op, false, Arity::AtLeast(9))?;
    check_segments(ir, op, MX_SEGMENTS)?;
    for k in ["lhsFormat", "rhsFormat"] {
        if let Some(a) = ir.get_attr(op, k) {
            let ok = matches!(ir.attr_data(a), AttrData::Integer { value, ty }
                if ir.type_data(*ty).is_signless_int(32) && (1..=3).contains(value));
            if !ok {
                return Err(format!(
                    "attribute '{k}' failed to satisfy constraint: allowed 32-bit signless integer cases: 1, 2, 3"
                )
                .into());
            }
        }
    }
    for k in ["a_transpose", "b_transpose"] {
        if let Some(a) = ir.get_attr(op, k)
            && !matches!(ir.attr_data(a), AttrData::Unit)
        {
            return Err(format!("attribute '{k}' failed to satisfy constraint: unit attribute").into());
        }
    }
    let sizes = crate::util::segments(ir, op);
    let starts: Vec<usize> = sizes.iter().scan(0, |acc, n| Some(std::mem::replace(acc, *acc + n))).collect();
    for seg in (0..=MX_C).chain([MX_BIAS]) {
        let (n, want) = (sizes[seg], if seg == MX_BIAS { "0 or 1 element" } else { "1 element" });
        if n > 1 || (n == 0 && seg != MX_BIAS) {
            return Err(format!("operand group starting at #{} requires {want}, but found {n}", starts[seg]).into());
        }
    }
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

pub fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("hivm.hir.nd2nz")
            .inherent(&["operandSegmentSizes", "dst_continuous", "init_out_buffer"])
            .assembly(parse_nd2nz, print_nd2nz)
            .verifier(verify_nd2nz),
        OpDef::new("hivm.hir.mmadL1")
            .inherent(&[
                "operandSegmentSizes",
                "a_transpose",
                "b_transpose",
                "enable_HF32",
                "enable_I4",
                "unit_flag_mode",
                "unit_flag_group_id",
            ])
            .assembly(parse_mmad, print_mmad)
            .verifier(verify_mmad),
        OpDef::new("hivm.hir.mmadmxL1")
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["operandSegmentSizes", "lhsFormat", "rhsFormat", "a_transpose", "b_transpose"])
            .assembly(parse_mmad_mx, print_mmad_mx)
            .verifier(verify_mmad_mx),
        matmul_def(),
        fixpipe_def(),
    ]
}

// ----- matmul (global): reads on PIPE_MTE2, writes on PIPE_MTE3 -----
// Segments: a, b, tiling_params, bias, descale, block_sizes, process_sizes,
// swizzle_offset, swizzle_direction, epilogue_p_tiles, c.

/// `kw = %v : T` clauses of matmul, with their segment index.
const MATMUL_VALUES: &[(&str, usize)] = &[("tiling_params", 2), ("bias", 3), ("descale", 4)];
const MATMUL_TAIL: &[(&str, usize)] = &[("swizzle_offset", 7), ("swizzle_direction", 8), ("epilogue_p_tiles", 9)];

fn parse_matmul(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ins = group(p, "ins", true)?;
    if ins.len() != 2 {
        return p.error("expected two operands (a, b) in 'ins'");
    }
    let outs = group(p, "outs", true)?;
    let mut segs: Vec<Vec<Value>> = vec![Vec::new(); 11];
    segs[0].push(ins[0]);
    segs[1].push(ins[1]);
    segs[10] = outs;
    for (kw, s) in MATMUL_VALUES {
        if let Some(v) = value_clause(p, kw)? {
            segs[*s].push(v);
        }
    }
    for (kw, attr) in [("a_transpose", "aTranspose"), ("b_transpose", "bTranspose")] {
        if p.parse_optional_keyword(kw) {
            let u = p.ir.unit_attr();
            push_attr(p, r, attr, u);
        }
    }
    if p.parse_optional_keyword("descale_mode") {
        p.expect(Tok::Equal, "'='")?;
        let a = super::attrs::parse_stripped_enum(p, "descale_mode")?;
        push_attr(p, r, "descaleMode", a);
    }
    segs[5] = group(p, "block_sizes", false)?;
    segs[6] = group(p, "process_sizes", false)?;
    for (kw, s) in MATMUL_TAIL {
        if let Some(v) = value_clause(p, kw)? {
            segs[*s].push(v);
        }
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let sizes: Vec<usize> = segs.iter().map(Vec::len).collect();
    let seg = segment_attr(p.ir, &sizes);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = segs.into_iter().flatten().collect();
    Ok(())
}

fn print_value_clause(p: &mut Printer<'_>, kw: &str, vals: &[Value]) {
    if let Some(&v) = vals.first() {
        p.push(&format!(" {kw} = "));
        p.print_value(v);
        p.push(" : ");
        p.print_type(p.ir.value_type(v));
    }
}

fn print_matmul(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "aTranspose", "bTranspose", "descaleMode"]);
    let ins: Vec<Value> = [0, 1].iter().filter_map(|i| segment(ir, op, *i).first().copied()).collect();
    print_group(p, "ins", &ins);
    print_group(p, "outs", segment(ir, op, 10));
    for (kw, s) in MATMUL_VALUES {
        print_value_clause(p, kw, segment(ir, op, *s));
    }
    for (kw, attr) in [("a_transpose", "aTranspose"), ("b_transpose", "bTranspose")] {
        if ir.has_attr(op, attr) {
            p.push(&format!(" {kw}"));
        }
    }
    if let Some(v) = ir.get_attr(op, "descaleMode").and_then(|a| super::attrs::enum_value(ir, a, "descale_mode")) {
        p.push(&format!(" descale_mode = <{v}>"));
    }
    print_group(p, "block_sizes", segment(ir, op, 5));
    print_group(p, "process_sizes", segment(ir, op, 6));
    for (kw, s) in MATMUL_TAIL {
        print_value_clause(p, kw, segment(ir, op, *s));
    }
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_matmul(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 11)?;
    if segment(ir, op, 10).len() != 1 {
        return Err("expects exactly one output matrix".into());
    }
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
    Ok(())
}

pub fn matmul_def() -> OpDef {
    OpDef::new("hivm.hir.matmul")
        .inherent(&["operandSegmentSizes", "aTranspose", "bTranspose", "descaleMode"])
        .assembly(parse_matmul, print_matmul)
        .verifier(verify_matmul)
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
    let is_950 = target.as_deref().is_some_and(|t| t.starts_with("Ascend950"));
    let is_910_95 = target.as_deref().is_some_and(crate::hacc::is_910_95_family);
    let mode =
        ir.get_attr(op, "dma_mode").and_then(|a| super::attrs::enum_value(ir, a, "dma_mode")).unwrap_or("normal");
    let dst = segment(ir, op, 1)[0];
    let dst_space = match ir.type_data(ir.value_type(dst)) {
        hivm_ir::TypeData::MemRef { memory_space: Some(a), .. } => super::attrs::enum_value(ir, *a, "address_space"),
        _ => None,
    };
    if mode == "nz2dn" && !is_950 {
        return Err("NZ2DN is only supported on Ascend950!".into());
    }
    if dst_space == Some("ub") && !is_950 {
        return Err("dst=UB is only supported on Ascend950!".into());
    }
    if !is_910_95 && mode != "nz2nd" && mode != "normal" {
        return Err("The current hardware does not support dma mode is nz2nz".into());
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

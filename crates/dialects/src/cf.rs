//! The `cf` dialect: unstructured branches.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{BlockId, Dialect, Ir, OpDef, OpId, Traits, Value};

use crate::util::{segment, segment_attr, type_str};

/// `^bb(%a, %b : T1, T2)`; returns the block and resolved operands.
pub fn parse_successor_with_operands(p: &mut Parser<'_>) -> PResult<(BlockId, Vec<Value>)> {
    let b = p.parse_successor()?;
    let mut vals = Vec::new();
    if p.consume_if(Tok::LParen) {
        let ops = p.parse_operand_list()?;
        let pos = p.pos();
        let tys = p.parse_colon_type_list()?;
        vals = p.resolve_operands(&ops, &tys, pos)?;
        p.expect(Tok::RParen, "')'")?;
    }
    Ok((b, vals))
}

pub(crate) fn parse_br(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let (b, vals) = parse_successor_with_operands(p)?;
    r.successors.push(b);
    r.operands = vals;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

pub(crate) fn print_br(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_successor_and_operands(ir.successors(op)[0], ir.operands(op));
    p.print_optional_attr_dict(op, &[]);
}

/// `cf.assert %cond, "message"`.
fn parse_assert(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let c = p.parse_operand()?;
    let i1 = p.ir.int_type(1);
    let cv = p.resolve_operand(&c, i1)?;
    r.operands.push(cv);
    p.expect(Tok::Comma, "','")?;
    let msg = p.parse_string("message")?;
    let a = p.ir.attr(hivm_ir::AttrData::String { value: msg, ty: None });
    let k = p.ir.sym("msg");
    r.attrs.push((k, a));
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_assert(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(", ");
    if let Some(a) = ir.get_attr(op, "msg") {
        p.print_attr(a, hivm_ir::printer::Elide::Never);
    }
    p.print_optional_attr_dict(op, &["msg"]);
}

pub(crate) fn parse_cond_br(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let c = p.parse_operand()?;
    let i1 = p.ir.int_type(1);
    let cv = p.resolve_operand(&c, i1)?;
    if p.parse_optional_keyword("weights") {
        p.expect(Tok::LParen, "'('")?;
        let mut weights = Vec::new();
        p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "branch weights", &mut |p| {
            weights.push(crate::util::parse_int_field(p, "cf.cond_br", "branch weight", 32)?);
            Ok(())
        })?;
        p.expect(Tok::RParen, "')'")?;
        let elem = p.ir.int_type(32);
        let w = p.ir.attr(hivm_ir::AttrData::DenseArray { elem, data: hivm_ir::attrs::DenseArrayData::Int(weights) });
        let k = p.ir.sym("branch_weights");
        r.attrs.push((k, w));
    }
    p.expect(Tok::Comma, "','")?;
    let (t, tv) = parse_successor_with_operands(p)?;
    p.expect(Tok::Comma, "','")?;
    let (f, fv) = parse_successor_with_operands(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let seg = segment_attr(p.ir, &[1, tv.len(), fv.len()]);
    let k = p.ir.sym("operandSegmentSizes");
    r.attrs.push((k, seg));
    r.operands.push(cv);
    r.operands.extend(tv);
    r.operands.extend(fv);
    r.successors = vec![t, f];
    Ok(())
}

pub(crate) fn print_cond_br(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    let weights = match ir.get_attr(op, "branch_weights").map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => Some(v.clone()),
        _ => None,
    };
    if let Some(w) = &weights {
        let text: Vec<String> = w.iter().map(|x| x.to_string()).collect();
        p.push(&format!(" weights([{}])", text.join(", ")));
    }
    p.push(", ");
    p.print_successor_and_operands(ir.successors(op)[0], segment(ir, op, 1));
    p.push(", ");
    p.print_successor_and_operands(ir.successors(op)[1], segment(ir, op, 2));
    let elided: &[&str] =
        if weights.is_some() { &["operandSegmentSizes", "branch_weights"] } else { &["operandSegmentSizes"] };
    p.print_optional_attr_dict(op, elided);
}

pub fn check_successor_operands(
    ir: &Ir,
    succ: BlockId,
    ops: &[Value],
    index: usize,
) -> Result<(), hivm_ir::dialect::VerifyError> {
    let args = ir.block_args(succ);
    if args.len() != ops.len() {
        return Err(format!(
            "branch has {} operands for successor #{index}, but target block has {}",
            ops.len(),
            args.len()
        )
        .into());
    }
    for (i, (a, v)) in args.iter().zip(ops).enumerate() {
        if ir.value_type(*a) != ir.value_type(*v) {
            return Err(format!(
                "type mismatch for bb argument #{i} of successor #{index}: '{}' vs '{}'",
                type_str(ir, ir.value_type(*v)),
                type_str(ir, ir.value_type(*a))
            )
            .into());
        }
    }
    Ok(())
}

pub(crate) fn verify_br(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(&s) = ir.successors(op).first() else { return Err("requires 1 successor but found 0".into()) };
    check_successor_operands(ir, s, ir.operands(op), 0)
}

pub(crate) fn verify_cond_br(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    crate::util::check_segments(ir, op, 3)?;
    if ir.successors(op).len() != 2 {
        return Err(format!("requires 2 successors but found {}", ir.successors(op).len()).into());
    }
    if let Some(a) = ir.get_attr(op, "branch_weights") {
        match ir.attr_data(a) {
            hivm_ir::AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(w), elem }
                if matches!(ir.type_data(*elem), hivm_ir::TypeData::Integer { width: 32, .. }) =>
            {
                if w.len() != 2 {
                    // Upstream's shared weight check reports without the op prefix.
                    return Err(hivm_ir::dialect::VerifyError::plain(format!(
                        "expects number of branch weights to match number of successors: {} vs 2",
                        w.len()
                    )));
                }
            }
            _ => {
                return Err("attribute 'branch_weights' failed to satisfy constraint: i32 dense array attribute".into());
            }
        }
    }
    check_successor_operands(ir, ir.successors(op)[0], segment(ir, op, 1), 0)?;
    check_successor_operands(ir, ir.successors(op)[1], segment(ir, op, 2), 1)
}

// ----- cf.switch -----
// `cf.switch %flag : i32, [ default: ^bb1(...), 42: ^bb2(...), ... ]`.
// Operand groups: flag, default operands, case operands (split per case by
// `case_operand_segments`); successors: default, then one per case.

/// `cf.switch %v : T, [default: ^bb, 1: ^bb1(...)]`, or LLVM's spelling
/// `llvm.switch %v : T, ^bb [1: ^bb1(...)]` (the default before the list).
pub(crate) fn parse_switch(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let llvm = p.ir.sym_str(r.name) == "llvm.switch";
    let flag = p.parse_operand()?;
    p.expect(Tok::Colon, "':'")?;
    let ty_pos = p.pos();
    let flag_ty = p.parse_type()?;
    if !matches!(p.ir.type_data(flag_ty), hivm_ir::TypeData::Integer { .. }) {
        let t = type_str(p.ir, flag_ty);
        return p
            .op_error_at(ty_pos, format!("invalid kind of type specified: expected builtin.integer, but found '{t}'"));
    }
    let fv = p.resolve_operand(&flag, flag_ty)?;
    p.expect(Tok::Comma, "','")?;
    let (default, default_ops) = if llvm {
        let d = parse_successor_with_operands(p)?;
        p.expect(Tok::LSquare, "'['")?;
        d
    } else {
        p.expect(Tok::LSquare, "'['")?;
        p.expect_keyword("default")?;
        p.expect(Tok::Colon, "':'")?;
        parse_successor_with_operands(p)?
    };
    let (mut values, mut dests, mut case_ops, mut case_segs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // LLVM's list has no leading comma (no default entry precedes the cases).
    let mut first = llvm;
    while (first && !p.is(Tok::RSquare)) || p.consume_if(Tok::Comma) {
        first = false;
        let negative = p.consume_if(Tok::Minus);
        let v = p.parse_integer("case value")?;
        let v = if negative { -v } else { v };
        // Stored wrapped to the flag's width, as an APInt of that width.
        let w = p.ir.type_data(flag_ty).int_width().unwrap_or(64);
        values.push(sign_wrap(v, w));
        p.expect(Tok::Colon, "':'")?;
        let (b, ops) = parse_successor_with_operands(p)?;
        dests.push(b);
        case_segs.push(ops.len() as i64);
        case_ops.extend(ops);
    }
    p.expect(Tok::RSquare, "']'")?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    if !values.is_empty() {
        let elem = p.ir.value_type(fv);
        let ty = p.ir.ty(hivm_ir::TypeData::Vector {
            shape: vec![values.len() as i64],
            scalable: vec![false],
            elem,
            encoding: None,
        });
        let splat = values.iter().all(|v| *v == values[0]);
        let elems = if splat {
            vec![hivm_ir::attrs::DenseElem::Int(values[0])]
        } else {
            values.iter().map(|v| hivm_ir::attrs::DenseElem::Int(*v)).collect()
        };
        let a = p.ir.attr(hivm_ir::AttrData::DenseElements { ty, splat, elems });
        crate::util::push_attr(p, r, "case_values", a);
    }
    let elem = p.ir.int_type(32);
    let segs = p.ir.attr(hivm_ir::AttrData::DenseArray { elem, data: hivm_ir::attrs::DenseArrayData::Int(case_segs) });
    crate::util::push_attr(p, r, "case_operand_segments", segs);
    let seg = segment_attr(p.ir, &[1, default_ops.len(), case_ops.len()]);
    crate::util::push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = std::iter::once(fv).chain(default_ops).chain(case_ops).collect();
    r.successors = std::iter::once(default).chain(dests).collect();
    Ok(())
}

fn case_segments(ir: &Ir, op: OpId) -> Vec<usize> {
    match ir.get_attr(op, "case_operand_segments").map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => {
            v.iter().map(|n| (*n).max(0) as usize).collect()
        }
        _ => Vec::new(),
    }
}

fn case_values(ir: &Ir, op: OpId) -> Vec<i128> {
    match ir.get_attr(op, "case_values").map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::DenseElements { ty, splat, elems }) => {
            let n = ir.type_data(*ty).shape().and_then(|s| s.first().copied()).unwrap_or(0).max(0) as usize;
            let int = |e: &hivm_ir::attrs::DenseElem| match e {
                hivm_ir::attrs::DenseElem::Int(v) => *v,
                _ => 0,
            };
            if *splat {
                elems.first().map(|e| vec![int(e); n]).unwrap_or_default()
            } else {
                elems.iter().map(int).collect()
            }
        }
        _ => Vec::new(),
    }
}

pub(crate) fn print_switch(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let llvm = ir.op_name(op) == "llvm.switch";
    let flag = ir.operand(op, 0);
    p.push(" ");
    p.print_value(flag);
    p.push(" : ");
    p.print_type(ir.value_type(flag));
    let succ = ir.successors(op);
    if llvm {
        p.push(", ");
        p.print_successor_and_operands(succ[0], segment(ir, op, 1));
        p.push(" [");
    } else {
        p.push(", [");
        p.print_newline();
        p.push("  default: ");
        p.print_successor_and_operands(succ[0], segment(ir, op, 1));
    }
    let (values, segs) = (case_values(ir, op), case_segments(ir, op));
    let cases = segment(ir, op, 2);
    let mut start = 0;
    let w = ir.type_data(ir.value_type(flag)).int_width().unwrap_or(64);
    for (i, v) in values.iter().enumerate() {
        let n = segs.get(i).copied().unwrap_or(0);
        let ops = cases.get(start..start + n).unwrap_or(&[]);
        start += n;
        if !llvm || i > 0 {
            p.push(",");
        }
        p.print_newline();
        // cf prints the value's unsigned reading, capped at 64 bits
        // (`getLimitedValue`); LLVM its signed one.
        let text = if llvm { sign_wrap(*v, w).to_string() } else { unsigned(*v, w).min(u64::MAX as u128).to_string() };
        p.push(&format!("  {text}: "));
        if let Some(&b) = succ.get(i + 1) {
            p.print_successor_and_operands(b, ops);
        }
    }
    // Without cases cf's bracket closes on the default's line, LLVM's on
    // its own.
    if !values.is_empty() || llvm {
        p.print_newline();
    }
    p.push("]");
    p.print_optional_attr_dict(op, &["case_values", "case_operand_segments", "operandSegmentSizes"]);
}

/// `v` wrapped to a signed `w`-bit value (two's complement).
fn sign_wrap(v: i128, w: u32) -> i128 {
    if w == 0 || w >= 128 {
        return v;
    }
    let shift = 128 - w;
    (v << shift) >> shift
}

/// The unsigned reading of the `w`-bit value `v`.
fn unsigned(v: i128, w: u32) -> u128 {
    if w >= 128 { v as u128 } else { (v as u128) & ((1u128 << w) - 1) }
}

pub(crate) fn verify_switch(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    crate::util::check_segments(ir, op, 3)?;
    if segment(ir, op, 0).len() != 1 {
        return Err("expected one flag operand".into());
    }
    let flag_ty = ir.value_type(segment(ir, op, 0)[0]);
    if !matches!(ir.type_data(flag_ty), hivm_ir::TypeData::Integer { .. }) {
        return Err(format!("operand #0 must be integer, but got '{}'", type_str(ir, flag_ty)).into());
    }
    if let Some(a) = ir.get_attr(op, "case_values") {
        let elem = match ir.attr_data(a) {
            hivm_ir::AttrData::DenseElements { ty, .. } => ir.type_data(*ty).element_type(),
            _ => None,
        };
        if elem != Some(flag_ty) {
            return Err(format!("'flag' type ({}) should match case value type", type_str(ir, flag_ty)).into());
        }
    }
    let (values, segs) = (case_values(ir, op), case_segments(ir, op));
    if values.len() + 1 != ir.successors(op).len() {
        return Err(format!(
            "number of case values ({}) and case destinations ({}) should match",
            values.len(),
            ir.successors(op).len().saturating_sub(1)
        )
        .into());
    }
    if segs.len() != values.len() || segs.iter().sum::<usize>() != segment(ir, op, 2).len() {
        return Err("case operand segments do not match the case operands".into());
    }
    // Each successor receives as many values, of the types, as it takes.
    let succ = ir.successors(op);
    check_successor_operands(ir, succ[0], segment(ir, op, 1), 0)?;
    let cases = segment(ir, op, 2);
    let mut start = 0;
    for (i, n) in segs.iter().enumerate() {
        check_successor_operands(ir, succ[i + 1], &cases[start..start + n], i + 1)?;
        start += n;
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "cf",
        vec![
            OpDef::new("cf.br")
                .traits(Traits::TERMINATOR | Traits::PURE)
                .assembly(parse_br, print_br)
                .verifier(verify_br),
            OpDef::new("cf.assert")
                .arity((1, Some(1)), (0, Some(0)), 0)
                .inherent(&["msg"])
                .assembly(parse_assert, print_assert),
            OpDef::new("cf.switch")
                .traits(Traits::TERMINATOR | Traits::PURE)
                .inherent(&["case_operand_segments", "case_values", "operandSegmentSizes"])
                .assembly(parse_switch, print_switch)
                .verifier(verify_switch),
            OpDef::new("cf.cond_br")
                .traits(Traits::TERMINATOR | Traits::PURE)
                .inherent(&["operandSegmentSizes", "branch_weights"])
                .assembly(parse_cond_br, print_cond_br)
                .verifier(verify_cond_br),
        ],
    )
}

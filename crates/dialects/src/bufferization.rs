//! The `bufferization` dialect subset. Both the MLIR 22 spellings and the
//! MLIR 19 ones that AscendNPU-IR emits are accepted on input.

use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{OpSpec, one};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::*;

fn unit_flag(p: &mut Parser<'_>, r: &mut OpParseResult, kw: &str) {
    if p.parse_optional_keyword(kw) {
        let u = p.ir.unit_attr();
        push_attr(p, r, kw, u);
    }
}

fn tensor_for(ir: &mut Ir, memref: Type) -> Option<Type> {
    match ir.type_data(memref).clone() {
        TypeData::MemRef { shape, elem, .. } => Some(ir.ty(TypeData::RankedTensor { shape, elem, encoding: None })),
        TypeData::UnrankedMemRef { elem, .. } => Some(ir.ty(TypeData::UnrankedTensor { elem })),
        _ => None,
    }
}

fn parse_to_tensor(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let m = p.parse_operand()?;
    unit_flag(p, r, "restrict");
    unit_flag(p, r, "writable");
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let mt = p.parse_colon_type()?;
    let tt = if p.parse_optional_keyword("to") {
        p.parse_type()?
    } else {
        // MLIR 19 form: `bufferization.to_tensor %m : memref<...>`.
        match tensor_for(p.ir, mt) {
            Some(t) => t,
            None => return p.error_at(pos, "expected a memref type"),
        }
    };
    let v = p.resolve_operand(&m, mt)?;
    r.operands.push(v);
    r.result_types.push(tt);
    Ok(())
}

fn print_to_tensor(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    for kw in ["restrict", "writable"] {
        if ir.has_attr(op, kw) {
            p.push(" ");
            p.push(kw);
        }
    }
    p.print_optional_attr_dict(op, &["restrict", "writable"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn parse_to_buffer(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let t = p.parse_operand()?;
    unit_flag(p, r, "read_only");
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let first = p.parse_colon_type()?;
    let (tt, mt) = if p.parse_optional_keyword("to") {
        (first, p.parse_type()?)
    } else {
        // MLIR 19 form: `bufferization.to_memref %t : memref<...>`.
        let pos = p.pos();
        match tensor_for(p.ir, first) {
            Some(tt) => (tt, first),
            None => return p.error_at(pos, "expected a memref type"),
        }
    };
    let v = p.resolve_operand(&t, tt)?;
    r.operands.push(v);
    r.result_types.push(mt);
    Ok(())
}

fn parse_to_memref(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    r.name = p.ir.sym("bufferization.to_buffer");
    parse_to_buffer(p, r)
}

fn print_to_buffer(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    if ir.has_attr(op, "read_only") {
        p.push(" read_only");
    }
    p.print_optional_attr_dict(op, &["read_only"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn parse_mat(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    p.expect_keyword("in")?;
    unit_flag(p, r, "restrict");
    unit_flag(p, r, "writable");
    let d = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    crate::util::parse_functional_type_tail(p, r, &[s, d])?;
    Ok(())
}

fn print_mat(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" in");
    for kw in ["restrict", "writable"] {
        if ir.has_attr(op, kw) {
            p.push(" ");
            p.push(kw);
        }
    }
    p.push(" ");
    p.print_value(ir.operand(op, 1));
    p.print_optional_attr_dict(op, &["restrict", "writable"]);
    p.push(" : ");
    p.print_functional_type(op);
}

fn parse_alloc_tensor(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut dyns = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dynamic sizes", &mut |p| {
        dyns.push(p.parse_operand()?);
        Ok(())
    })?;
    let mut copy = None;
    if p.parse_optional_keyword("copy") {
        p.expect(Tok::LParen, "'('")?;
        copy = Some(p.parse_operand()?);
        p.expect(Tok::RParen, "')'")?;
    }
    let mut hint = None;
    if p.parse_optional_keyword("size_hint") {
        p.expect(Tok::Equal, "'='")?;
        hint = Some(p.parse_operand()?);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let it = p.ir.index_type();
    resolve_all(p, &dyns, it, r)?;
    if let Some(c) = &copy {
        let v = p.resolve_operand(c, t)?;
        r.operands.push(v);
    }
    if let Some(h) = &hint {
        let v = p.resolve_operand(h, it)?;
        r.operands.push(v);
    }
    let seg = segment_attr(p.ir, &[dyns.len(), copy.is_some() as usize, hint.is_some() as usize]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.result_types.push(t);
    Ok(())
}

fn print_alloc_tensor(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("(");
    p.print_values(segment(ir, op, 0));
    p.push(")");
    if let Some(c) = segment(ir, op, 1).first() {
        p.push(" copy(");
        p.print_value(*c);
        p.push(")");
    }
    if let Some(h) = segment(ir, op, 2).first() {
        p.push(" size_hint=");
        p.print_value(*h);
    }
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_alloc_tensor(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 3)
}

pub fn dialect() -> Dialect {
    let to_buffer = OpDef::new("bufferization.to_buffer")
        .arity((1, Some(1)), (1, Some(1)), 0)
        .traits(Traits::PURE)
        .inherent(&["read_only"])
        .assembly(parse_to_buffer, print_to_buffer);
    // The MLIR 19 spelling parses into the MLIR 22 op.
    let to_memref = OpDef::new("bufferization.to_memref")
        .arity((1, Some(1)), (1, Some(1)), 0)
        .assembly(parse_to_memref, print_to_buffer);
    Dialect::new(
        "bufferization",
        vec![
            OpDef::new("bufferization.to_tensor")
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["restrict", "writable"])
                .assembly(parse_to_tensor, print_to_tensor),
            to_buffer,
            to_memref,
            OpDef::new("bufferization.materialize_in_destination")
                .arity((2, Some(2)), (0, Some(1)), 0)
                .inherent(&["restrict", "writable"])
                .assembly(parse_mat, print_mat),
            OpDef::new("bufferization.alloc_tensor")
                .inherent(&["operandSegmentSizes", "memory_space"])
                .assembly(parse_alloc_tensor, print_alloc_tensor)
                .verifier(verify_alloc_tensor),
            CLONE.def(),
            DEALLOC_TENSOR.def(),
        ],
    )
}

/// `%b = bufferization.clone %a : memref<4xf32> to memref<4xf32>`.
const CLONE: OpSpec = OpSpec {
    name: "bufferization.clone",
    operands: &[one("input")],
    results: &[one("output")],
    format: "$input attr-dict `:` type($input) `to` type($output)",
    ..OpSpec::EMPTY
};

const DEALLOC_TENSOR: OpSpec = OpSpec {
    name: "bufferization.dealloc_tensor",
    operands: &[one("tensor")],
    format: "$tensor attr-dict `:` type($tensor)",
    ..OpSpec::EMPTY
};

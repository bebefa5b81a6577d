//! Pieces of Triton's assembly formats the format engine derives no type
//! for: the types a load or store infers from its pointer
//! (`TypesMatchWith` in ODS), pointer types printed stripped (`<tensor<..>>`
//! for a `TT_TensorPtr` written with `type($x)`), a functional type of
//! some operands only, and a bare offset list.

use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{Compiled, CustomDirective, FormatState, Var};
use hivm_ir::parser::{PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{OpId, Type, TypeData};

use super::types::{i1_text, is_ptr, loaded_text, ptr_body, ptr_parts, tensor, type_from_text};

fn operand_slot(args: &[Var], k: usize) -> Option<usize> {
    match args.get(k) {
        Some(Var::Operand(i)) => Some(*i),
        _ => None,
    }
}

fn result_slot(args: &[Var], k: usize) -> Option<usize> {
    match args.get(k) {
        Some(Var::Result(i)) => Some(*i),
        _ => None,
    }
}

fn print_operand_type(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    if let Some(i) = operand_slot(args, 0)
        && let Some(v) = c.operand_group(ir, op, i).first()
    {
        p.print_type(ir.value_type(*v));
    }
}

/// Builds the type written as `text`, reporting a failure at `pos`.
fn build(p: &mut Parser<'_>, text: &str, pos: u32) -> PResult<Type> {
    match type_from_text(p.ir, text) {
        Ok(t) => Ok(t),
        Err(m) => p.error_at(pos, m),
    }
}

/// The type of the pointer operand, with what a load or store derives
/// from it: `(ptr, mask, other, result)` for loads, `(ptr, value, mask)`
/// for stores (`value` and `other` are the pointee, `mask` `i1` of the
/// same shape).
fn parse_ptr_type(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var], store: bool) -> PResult<()> {
    let pos = p.pos();
    let t = p.parse_type()?;
    let Some(ptr) = operand_slot(args, 0) else { return p.error("bad pointer-type directive") };
    st.operand_types[ptr] = vec![t];
    let Some(loaded) = loaded_text(p.ir, t) else {
        let got = super::types::text_of(p.ir, t);
        return p.error_at(pos, format!("'{}' expects a pointer or a tensor of pointers, got '{got}'", st.op));
    };
    let shaped = if super::types::is_tensor_ptr(p.ir, t) { build(p, &loaded, pos)? } else { t };
    let i1 = i1_text(p.ir, shaped);
    let (mask, other) = if store { (2, None) } else { (1, Some(2)) };
    if let Some(m) = operand_slot(args, mask)
        && !st.operands[m].is_empty()
    {
        st.operand_types[m] = vec![build(p, &i1, pos)?];
    }
    let loaded_ty = build(p, &loaded, pos)?;
    if store {
        if let Some(v) = operand_slot(args, 1) {
            st.operand_types[v] = vec![loaded_ty];
        }
    } else {
        if let Some(o) = other.and_then(|k| operand_slot(args, k))
            && !st.operands[o].is_empty()
        {
            st.operand_types[o] = vec![loaded_ty];
        }
        if let Some(r) = result_slot(args, 3) {
            st.result_types[r] = vec![loaded_ty];
        }
    }
    Ok(())
}

pub(crate) const LOAD_TYPE: CustomDirective = CustomDirective {
    name: "LoadType",
    parse: |p, st, args| parse_ptr_type(p, st, args, false),
    print: print_operand_type,
};

pub(crate) const STORE_TYPE: CustomDirective = CustomDirective {
    name: "StoreType",
    parse: |p, st, args| parse_ptr_type(p, st, args, true),
    print: print_operand_type,
};

/// A `!tt.ptr` written stripped (`<tensor<8x8xf16>>`) or in full; with a
/// second argument, that operand gets the pointer to the tensor's element
/// type (`tt.make_tensor_ptr`'s base).
fn parse_stripped_ptr(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let pos = p.pos();
    let t = if p.is(Tok::Less) {
        let body = format!("ptr{}", p.parse_pretty_body()?);
        let body = match super::types::check_type(&body) {
            Ok(b) => b,
            Err(m) => return p.error_at(pos, m),
        };
        p.ir.ty(TypeData::Opaque { dialect: "tt".into(), body })
    } else {
        p.parse_type()?
    };
    let Some(r) = result_slot(args, 0) else { return p.error("bad stripped-pointer directive") };
    st.result_types[r] = vec![t];
    if let Some(base) = operand_slot(args, 1) {
        let elem = match p.ir.type_data(t) {
            TypeData::Opaque { dialect, body } if dialect == "tt" => ptr_parts(body),
            _ => None,
        };
        let Some((pointee, space)) = elem else {
            return p.error_at(pos, "expected a pointer to a tensor");
        };
        let pointee_ty = build(p, &pointee, pos)?;
        let Some((_, e, _)) = tensor(p.ir, pointee_ty) else {
            return p.error_at(pos, "expected a pointer to a tensor");
        };
        let text = super::types::text_of(p.ir, e);
        let base_ty = p.ir.ty(TypeData::Opaque { dialect: "tt".into(), body: ptr_body(&text, space) });
        st.operand_types[base] = vec![base_ty; st.operands[base].len()];
    }
    Ok(())
}

fn print_stripped_ptr(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let Some(r) = result_slot(args, 0) else { return };
    let Some(v) = c.result_group(ir, op, r).first() else { return };
    let t = ir.value_type(*v);
    let start = p.out.len();
    p.print_type(t);
    if is_ptr(ir, t) && p.out[start..].starts_with("!tt.ptr<") {
        p.out.replace_range(start..start + "!tt.ptr".len(), "");
    }
}

pub(crate) const STRIPPED_PTR: CustomDirective =
    CustomDirective { name: "StrippedPtr", parse: parse_stripped_ptr, print: print_stripped_ptr };

/// `functional-type($args, results)` for an op whose other operands are
/// typed elsewhere: `(T1, T2) -> R`.
fn parse_call_type(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let pos = p.pos();
    let t = p.parse_type()?;
    let TypeData::Function { inputs, results } = p.ir.type_data(t).clone() else {
        return p.error_at(pos, "expected function type");
    };
    let (Some(a), Some(r)) = (operand_slot(args, 0), result_slot(args, 1)) else {
        return p.error("bad call-type directive");
    };
    if inputs.len() != st.operands[a].len() {
        return p.error_at(pos, format!("{} operands present, but expected {}", st.operands[a].len(), inputs.len()));
    }
    st.operand_types[a] = inputs;
    st.result_types[r] = results;
    Ok(())
}

fn print_call_type(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let (Some(a), Some(r)) = (operand_slot(args, 0), result_slot(args, 1)) else { return };
    p.push("(");
    p.print_value_types(c.operand_group(ir, op, a));
    p.push(") -> ");
    let results: Vec<Type> = c.result_group(ir, op, r).iter().map(|v| ir.value_type(*v)).collect();
    p.print_result_types(&results);
}

pub(crate) const CALL_TYPE: CustomDirective =
    CustomDirective { name: "CallType", parse: parse_call_type, print: print_call_type };

/// A bare list of integers (`0, 16`), as a dense `i32` array.
fn parse_offsets(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let mut v = Vec::new();
    if !p.is(Tok::RSquare) {
        loop {
            let pos = p.pos();
            let neg = p.consume_if(Tok::Minus);
            let n = p.parse_integer("integer value")?;
            let n = if neg { -n } else { n };
            let n = i32::try_from(n).or_else(|_| p.error_at(pos, "integer value too large"))?;
            v.push(n as i64);
            if !p.consume_if(Tok::Comma) {
                break;
            }
        }
    }
    let elem = p.ir.int_type(32);
    let a = p.ir.attr(hivm_ir::AttrData::DenseArray { elem, data: hivm_ir::attrs::DenseArrayData::Int(v) });
    if let Some(v) = args.first() {
        st.set_attr(*v, a);
    }
    Ok(())
}

fn print_offsets(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let Some(Var::Attr(i)) = args.first() else { return };
    let vals = match ir.get_attr(op, c.spec.attrs[*i].name).map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => v.clone(),
        _ => Vec::new(),
    };
    let items: Vec<String> = vals.iter().map(i64::to_string).collect();
    p.push(&items.join(", "));
}

pub(crate) const OFFSETS: CustomDirective =
    CustomDirective { name: "Offsets", parse: parse_offsets, print: print_offsets };

/// The source type of `tt.histogram`, from which its optional mask takes
/// `i1` elements of the same shape.
fn parse_masked_src(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let pos = p.pos();
    let t = p.parse_type()?;
    let (Some(src), Some(mask)) = (operand_slot(args, 0), operand_slot(args, 1)) else {
        return p.error("bad masked-source directive");
    };
    st.operand_types[src] = vec![t];
    if !st.operands[mask].is_empty() {
        let i1 = i1_text(p.ir, t);
        st.operand_types[mask] = vec![build(p, &i1, pos)?];
    }
    Ok(())
}

pub(crate) const MASKED_SRC: CustomDirective =
    CustomDirective { name: "MaskedSrc", parse: parse_masked_src, print: print_operand_type };

//! `func.func`, `func.return`, `func.call`.

use hivm_ir::attrs::AttrData;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg, UnresolvedOperand};
use hivm_ir::printer::Printer;
use hivm_ir::{Attribute, Dialect, Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::type_str;

pub(crate) fn parse_func(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let vis_pos = p.pos();
    if p.tok.kind == Tok::BareIdent {
        let v = p.parse_keyword("visibility")?;
        if !matches!(v, "private" | "public" | "nested") {
            return p.error_at(vis_pos, "expected 'public', 'private', or 'nested'");
        }
        let (k, a) = (p.ir.sym("sym_visibility"), p.ir.str_attr(v));
        r.attrs.push((k, a));
    }
    let name = p.parse_symbol_name()?;
    let (k, a) = (p.ir.sym("sym_name"), p.ir.str_attr(&name));
    r.attrs.push((k, a));
    // Arguments: named (`%a: T {attrs} loc(..)`) for definitions, bare types for declarations.
    let mut args: Vec<RegionArg> = Vec::new();
    let mut arg_types = Vec::new();
    let mut arg_attrs: Vec<Attribute> = Vec::new();
    let mut named = None;
    p.parse_paren_list(&mut |p| {
        let is_named = p.is(Tok::PercentIdent);
        if *named.get_or_insert(is_named) != is_named {
            return p.error("expected SSA identifier");
        }
        let (name, ty) = if is_named {
            let n = p.parse_argument_name()?;
            p.expect(Tok::Colon, "':'")?;
            (Some(n), p.parse_type()?)
        } else {
            (None, p.parse_type()?)
        };
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        let loc = if p.is_keyword("loc") { Some(p.parse_location()?) } else { None };
        arg_attrs.push(p.ir.dict_attr(attrs));
        arg_types.push(ty);
        let name = name.unwrap_or(UnresolvedOperand::NONE);
        args.push(RegionArg { name, ty, loc });
        Ok(())
    })?;
    let mut results = Vec::new();
    let mut res_attrs = Vec::new();
    if p.consume_if(Tok::Arrow) {
        if p.is(Tok::LParen) {
            p.parse_paren_list(&mut |p| {
                results.push(p.parse_type()?);
                let mut attrs = Vec::new();
                p.parse_optional_attr_dict(&mut attrs)?;
                res_attrs.push(p.ir.dict_attr(attrs));
                Ok(())
            })?;
        } else {
            results.push(p.parse_type()?);
            res_attrs.push(p.ir.empty_dict());
        }
    }
    let fty = p.ir.function_type(arg_types, results);
    let (k, a) = (p.ir.sym("function_type"), p.ir.type_attr(fty));
    r.attrs.push((k, a));
    let empty = p.ir.empty_dict();
    if arg_attrs.iter().any(|a| *a != empty) {
        let (k, a) = (p.ir.sym("arg_attrs"), p.ir.array_attr(arg_attrs));
        r.attrs.push((k, a));
    }
    if res_attrs.iter().any(|a| *a != empty) {
        let (k, a) = (p.ir.sym("res_attrs"), p.ir.array_attr(res_attrs));
        r.attrs.push((k, a));
    }
    p.parse_optional_attr_dict_with_keyword(&mut r.attrs)?;
    if p.is(Tok::LBrace) {
        // Unnamed arguments: the body's entry block names them itself
        // (`^bb0(%a: T, ...)`), as the old function syntax does.
        let entry: &[hivm_ir::parser::RegionArg] = if named == Some(false) { &[] } else { &args };
        let region = p.parse_region(entry, true)?;
        if p.ir.region_blocks(region).is_empty() {
            return p.error_at(vis_pos, "expected non-empty function body");
        }
        r.regions.push(region);
    } else {
        let region = p.ir.new_region();
        r.regions.push(region);
    }
    Ok(())
}

pub(crate) fn print_func(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    if let Some(v) = ir.get_attr(op, "sym_visibility").and_then(|a| ir.as_str(a)) {
        p.push(v);
        p.push(" ");
    }
    let name = ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("");
    p.print_symbol_name(name);
    let (inputs, results) = func_signature(ir, op);
    let arg_attrs = ir.get_attr(op, "arg_attrs").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    let res_attrs = ir.get_attr(op, "res_attrs").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    let body = ir.regions(op)[0];
    let entry = ir.region_blocks(body).first().copied();
    p.push("(");
    for (i, t) in inputs.iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        if let Some(b) = entry {
            let arg = ir.block_args(b)[i];
            p.print_value(arg);
            p.push(": ");
            p.print_type(ir.value_type(arg));
        } else {
            p.print_type(*t);
        }
        if let Some(a) = arg_attrs.get(i) {
            p.print_attr_dict(*a, &[]);
        }
        if p.options.debuginfo
            && let Some(b) = entry
        {
            let arg = ir.block_args(b)[i];
            p.print_arg_loc(ir.block_arg_loc(arg).unwrap_or(ir.unknown_loc()));
        }
    }
    p.push(")");
    if !results.is_empty() {
        p.push(" -> ");
        let has_attrs = res_attrs.iter().any(|a| !ir.dict_entries(*a).is_empty());
        let wrap = has_attrs || results.len() > 1 || matches!(ir.type_data(results[0]), TypeData::Function { .. });
        if wrap {
            p.push("(");
        }
        for (i, t) in results.iter().enumerate() {
            if i > 0 {
                p.push(", ");
            }
            p.print_type(*t);
            if let Some(a) = res_attrs.get(i) {
                p.print_attr_dict(*a, &[]);
            }
        }
        if wrap {
            p.push(")");
        }
    }
    p.print_optional_attr_dict_with_keyword(
        op,
        &["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"],
    );
    if entry.is_some() {
        p.push(" ");
        p.print_region(body, false, true);
    }
}

pub fn func_signature(ir: &Ir, op: OpId) -> (Vec<Type>, Vec<Type>) {
    match ir.get_attr(op, "function_type").and_then(|a| ir.as_type(a)).map(|t| ir.type_data(t)) {
        Some(TypeData::Function { inputs, results }) => (inputs.clone(), results.clone()),
        _ => (Vec::new(), Vec::new()),
    }
}

pub(crate) fn verify_func(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(ft) = ir.get_attr(op, "function_type") else {
        return Err("requires attribute 'function_type'".into());
    };
    if !matches!(ir.as_type(ft).map(|t| ir.type_data(t)), Some(TypeData::Function { .. })) {
        return Err("attribute 'function_type' failed to satisfy constraint: type attribute of function type".into());
    }
    if ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).is_none() {
        return Err("requires attribute 'sym_name'".into());
    }
    let (inputs, results) = func_signature(ir, op);
    for (key, n) in [("arg_attrs", inputs.len()), ("res_attrs", results.len())] {
        if let Some(a) = ir.get_attr(op, key) {
            let Some(arr) = ir.as_array(a) else { return Err(format!("expects {key} to be an array").into()) };
            if arr.len() != n {
                let what = if key == "arg_attrs" { "argument" } else { "result" };
                return Err(format!("expects {what} attribute array to have the same number of elements as the number of function {what}s, got {}, but expected {n}", arr.len()).into());
            }
            if key == "res_attrs" {
                for d in arr {
                    if ir.dict_entries(*d).iter().any(|(k, _)| !ir.sym_str(*k).contains('.')) {
                        return Err("results may only have dialect attributes".into());
                    }
                }
            }
        }
    }
    let body = ir.regions(op)[0];
    match ir.region_blocks(body).first() {
        None => {
            let vis = ir.get_attr(op, "sym_visibility").and_then(|a| ir.as_str(a));
            if vis.is_none() || vis == Some("public") {
                return Err("symbol declaration cannot have public visibility".into());
            }
        }
        Some(&entry) => {
            let args = ir.block_args(entry);
            if args.len() != inputs.len() {
                return Err(
                    format!("entry block must have {} arguments to match function signature", inputs.len()).into()
                );
            }
            for (i, (a, t)) in args.iter().zip(&inputs).enumerate() {
                let at = ir.value_type(*a);
                if at != *t {
                    return Err(format!(
                        "type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                        type_str(ir, at),
                        type_str(ir, *t)
                    ).into());
                }
            }
        }
    }
    Ok(())
}

fn verify_return(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(func) = ir.parent_op(op).filter(|f| ir.is_op(*f, "func.func")) else {
        return Err("expects parent op 'func.func'".into());
    };
    let (_, results) = func_signature(ir, func);
    let name = ir.get_attr(func, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("");
    let ops = ir.operands(op);
    if ops.len() != results.len() {
        return Err(hivm_ir::dialect::VerifyError::plain(format!(
            "has {} operands, but enclosing function (@{name}) returns {}",
            ops.len(),
            results.len()
        )));
    }
    for (i, (v, t)) in ops.iter().zip(&results).enumerate() {
        let vt = ir.value_type(*v);
        if vt != *t {
            return Err(hivm_ir::dialect::VerifyError::plain(format!(
                "type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{name}",
                type_str(ir, vt),
                type_str(ir, *t)
            )));
        }
    }
    Ok(())
}

fn parse_call(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let callee = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(callee), AttrData::SymbolRef { .. }) {
        return p.error("expected symbol reference");
    }
    let (k, _) = (p.ir.sym("callee"), ());
    r.attrs.push((k, callee));
    let ops = crate::util::parse_paren_operand_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    crate::util::parse_functional_type_tail(p, r, &ops)?;
    Ok(())
}

fn print_call(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    if let Some(c) = ir.get_attr(op, "callee") {
        p.print_attr(c, hivm_ir::printer::Elide::Never);
    }
    p.push("(");
    p.print_values(ir.operands(op));
    p.push(")");
    p.print_optional_attr_dict(op, &["callee"]);
    p.push(" : ");
    p.print_functional_type(op);
}

/// `call_indirect %f(%args) : (A) -> R`: operand and result types come
/// from the callee's function type.
fn parse_call_indirect(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let callee = p.parse_operand()?;
    let ops = crate::util::parse_paren_operand_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::Colon, "':'")?;
    let pos = p.pos();
    let ft = p.parse_type()?;
    let TypeData::Function { inputs, results } = p.ir.type_data(ft).clone() else {
        return p.op_error_at(
            pos,
            "invalid kind of type specified: expected builtin.function, but found a non-function type",
        );
    };
    let f = p.resolve_operand(&callee, ft)?;
    r.operands.push(f);
    let args = p.resolve_operands(&ops, &inputs, pos)?;
    r.operands.extend(args);
    r.result_types = results;
    Ok(())
}

fn print_call_indirect(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    p.push(" ");
    p.print_value(ops[0]);
    p.push("(");
    p.print_values(&ops[1..]);
    p.push(")");
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ops[0]));
}

fn verify_call_indirect(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(&f) = ir.operands(op).first() else { return Err("expected a callee operand".into()) };
    let TypeData::Function { inputs, results } = ir.type_data(ir.value_type(f)) else {
        return Err("callee must be a function".into());
    };
    let args: Vec<_> = ir.operands(op)[1..].iter().map(|v| ir.value_type(*v)).collect();
    let res: Vec<_> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
    if *inputs != args || *results != res {
        return Err("callee type does not match the call's operands and results".into());
    }
    Ok(())
}

/// Finds a `func.func` by name, as seen from `from`.
pub fn lookup_func(ir: &Ir, from: OpId, name: &str) -> Option<OpId> {
    hivm_ir::builder::lookup_symbol_from(ir, from, name).filter(|o| ir.is_op(*o, "func.func"))
}

fn verify_call(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(callee) = ir.get_attr(op, "callee") else { return Err("requires attribute 'callee'".into()) };
    let AttrData::SymbolRef { root, nested } = ir.attr_data(callee) else {
        return Err("attribute 'callee' failed to satisfy constraint: flat symbol reference attribute".into());
    };
    if !nested.is_empty() {
        return Err("attribute 'callee' failed to satisfy constraint: flat symbol reference attribute".into());
    }
    let name = ir.sym_str(*root);
    let Some(f) = lookup_func(ir, op, name) else {
        return Err(format!("'{name}' does not reference a valid function").into());
    };
    let (inputs, results) = func_signature(ir, f);
    let ops = ir.operands(op);
    if ops.len() != inputs.len() {
        return Err("incorrect number of operands for callee".into());
    }
    for (i, (v, t)) in ops.iter().zip(&inputs).enumerate() {
        if ir.value_type(*v) != *t {
            return Err(format!(
                "operand type mismatch: expected operand type '{}', but provided '{}' for operand number {i}",
                type_str(ir, *t),
                type_str(ir, ir.value_type(*v))
            )
            .into());
        }
    }
    let res = ir.results(op);
    if res.len() != results.len() {
        return Err("incorrect number of results for callee".into());
    }
    for (i, (v, t)) in res.iter().zip(&results).enumerate() {
        if ir.value_type(*v) != *t {
            let _ = t;
            return Err(format!("result type mismatch at index {i}").into());
        }
    }
    Ok(())
}

/// `func.constant {attrs} @f : type`: a function as a value.
fn parse_constant(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let f = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(f), AttrData::SymbolRef { .. }) {
        return p.error_at(pos, "expected symbol reference");
    }
    let k = p.ir.sym("value");
    r.attrs.push((k, f));
    p.expect(Tok::Colon, "':'")?;
    let t = p.parse_type()?;
    r.result_types.push(t);
    Ok(())
}

fn print_constant(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["value"]);
    p.push(" ");
    if let Some(v) = ir.get_attr(op, "value") {
        p.print_attr(v, hivm_ir::printer::Elide::Never);
    }
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

/// MLIR names every such result `%f`.
fn constant_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(hivm_ir::Value, String)) {
    set(ir.result(op, 0), "f".to_string());
}

fn verify_constant(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(AttrData::SymbolRef { root, nested }) = ir.get_attr(op, "value").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'value'".into());
    };
    if !nested.is_empty() {
        return Err("attribute 'value' failed to satisfy constraint: flat symbol reference attribute".into());
    }
    let name = ir.sym_str(*root);
    let Some(f) = lookup_func(ir, op, name) else {
        return Err(format!("reference to undefined function '{name}'").into());
    };
    let ty = ir.get_attr(f, "function_type").and_then(|a| ir.as_type(a));
    if ty != ir.results(op).first().map(|r| ir.value_type(*r)) {
        return Err("reference to function with mismatched type".into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "func",
        vec![
            OpDef::new("func.func")
                .traits(Traits::ISOLATED_FROM_ABOVE | Traits::SYMBOL | Traits::AFFINE_SCOPE)
                .inherent(&["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs", "no_inline"])
                .assembly(parse_func, print_func)
                .verifier(verify_func)
                .default_dialect("func"),
            OpDef::new("func.return")
                .traits(Traits::TERMINATOR | Traits::PURE | Traits::RETURN_LIKE)
                .assembly(crate::util::parse_terminator_operands, crate::util::print_terminator_operands)
                .verifier(verify_return),
            OpDef::new("func.call")
                .inherent(&["callee", "arg_attrs", "res_attrs", "no_inline"])
                .assembly(parse_call, print_call)
                .verifier(verify_call),
            OpDef::new("func.call_indirect")
                .arity((1, None), (0, None), 0)
                .inherent(&["arg_attrs", "res_attrs"])
                .assembly(parse_call_indirect, print_call_indirect)
                .verifier(verify_call_indirect),
            OpDef::new("func.constant")
                .traits(Traits::PURE)
                .inherent(&["value"])
                .assembly(parse_constant, print_constant)
                .verifier(verify_constant)
                .names(constant_names),
        ],
    )
}

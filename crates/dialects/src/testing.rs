//! MLIR's `test` dialect, which bishengir's tools link for their tests: it
//! accepts any op (`"test.consume"(%x) : (T) -> ()`), in generic form, as
//! MLIR's does with `allowUnknownOperations`, and knows the custom syntax of
//! the ops upstream's tests (bishengir's and MLIR's own parser tests) write
//! in it: `test.destination_style_op`, graph and affine-scope regions,
//! `polyfor`'s induction variables, the literal-parsing ops and the ops
//! printed by the dialect's own hook.

use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{OpSpec, ValueDef, opt, var};
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, TypeData};

/// `test.destination_style_op {attrs} ins(%a : A) outs(%b : B) (%c : C) -> R`:
/// a destination-style op with no semantics of its own.
const DESTINATION_STYLE: OpSpec = OpSpec {
    name: "test.destination_style_op",
    operands: &[var("inputs"), var("outputs"), var("other_operands")],
    results: RESULTS,
    segments: true,
    format: "attr-dict (`ins` `(` $inputs^ `:` type($inputs) `)`)? (`outs` `(` $outputs^ `:` type($outputs) `)`)? \
             (`(` $other_operands^ `:` type($other_operands) `)`)? (`->` type($results)^)?",
    verify: Some(verify_destination_style),
    ..OpSpec::EMPTY
};

const RESULTS: &[ValueDef] = &[var("results")];

/// MLIR's `DestinationStyleOpInterface` checks: inits are tensors or
/// memrefs, and each tensor init has a result of its type.
fn verify_destination_style(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let segments = crate::util::segments(ir, op);
    let (first, count) = (segments.first().copied().unwrap_or(0), segments.get(1).copied().unwrap_or(0));
    let is_tensor = |t| matches!(ir.type_data(t), TypeData::RankedTensor { .. } | TypeData::UnrankedTensor { .. });
    let is_memref = |t| matches!(ir.type_data(t), TypeData::MemRef { .. } | TypeData::UnrankedMemRef { .. });
    let mut tensor_inits = Vec::new();
    for i in first..first + count {
        let t = ir.value_type(ir.operand(op, i));
        if is_tensor(t) {
            tensor_inits.push(i);
        } else if !is_memref(t) {
            return Err(format!("expected that operand #{i} is a tensor or a memref").into());
        }
    }
    let tensor_results: Vec<_> = ir.results(op).iter().filter(|r| is_tensor(ir.value_type(**r))).collect();
    if tensor_results.len() != tensor_inits.len() {
        return Err(format!(
            "expected the number of tensor results ({}) to be equal to the number of output tensors ({})",
            tensor_results.len(),
            tensor_inits.len()
        )
        .into());
    }
    for (i, r) in tensor_inits.iter().zip(tensor_results) {
        let (a, b) = (ir.value_type(ir.operand(op, *i)), ir.value_type(*r));
        if a != b {
            return Err(format!(
                "expected type of operand #{i} ('{}') to match type of corresponding result ('{}')",
                crate::util::type_str(ir, a),
                crate::util::type_str(ir, b)
            )
            .into());
        }
    }
    Ok(())
}

/// `test.graph_region { ... }`: a region whose ops may use values defined
/// after them.
const GRAPH_REGION: OpSpec = OpSpec {
    name: "test.graph_region",
    regions: &["region"],
    format: "attr-dict-with-keyword $region",
    traits: Traits::GRAPH_REGION,
    ..OpSpec::EMPTY
};

/// `test.affine_scope { ... }`: a new scope for affine symbols.
const AFFINE_SCOPE: OpSpec = OpSpec {
    name: "test.affine_scope",
    regions: &["region"],
    format: "attr-dict-with-keyword $region",
    traits: Traits::AFFINE_SCOPE,
    ..OpSpec::EMPTY
};

/// `test.op.with_dot_in_name`: a dot in the op's own name.
const WITH_DOT: OpSpec = OpSpec { name: "test.op.with_dot_in_name", format: "attr-dict", ..OpSpec::EMPTY };

fn parse_nothing(_: &mut Parser<'_>, _: &mut OpParseResult) -> PResult<()> {
    Ok(())
}

/// `%r = test.format_optional_result_d_op : f80`.
const OPTIONAL_RESULT: OpSpec = OpSpec {
    name: "test.format_optional_result_d_op",
    results: &[opt("optional")],
    format: "(`:` type($optional)^)? attr-dict",
    ..OpSpec::EMPTY
};

/// `test.parse_wrapped_keyword foo.keyword`: a bare keyword, dots included.
fn parse_wrapped_keyword(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let word = p.parse_keyword("keyword")?.to_string();
    let (k, v) = (p.ir.sym("keyword"), p.ir.str_attr(&word));
    r.attrs.push((k, v));
    Ok(())
}

fn print_wrapped_keyword(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(w) = ir.get_attr(op, "keyword").and_then(|a| ir.as_str(a)) {
        p.push(" ");
        p.push(w);
    }
}

/// `test.polyfor %i, %j { ... }`: the names are the region's index arguments.
fn parse_polyfor(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let index = p.ir.index_type();
    let mut args = Vec::new();
    loop {
        let name = p.parse_operand()?;
        let loc = if p.is_keyword("loc") { Some(p.parse_location()?) } else { None };
        args.push(RegionArg { name, ty: index, loc });
        if !p.consume_if(Tok::Comma) {
            break;
        }
    }
    let region = p.parse_region(&args, false)?;
    r.regions.push(region);
    Ok(())
}

fn print_polyfor(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let Some(&region) = ir.regions(op).first() else { return };
    if let Some(&entry) = ir.region_blocks(region).first() {
        for (i, a) in ir.block_args(entry).iter().enumerate() {
            p.push(if i == 0 { " " } else { ", " });
            p.print_value(*a);
            if p.options.debuginfo {
                p.print_arg_loc(ir.block_arg_loc(*a).unwrap_or(ir.unknown_loc()));
            }
        }
    }
    p.push(" ");
    p.print_region(region, false, true);
}

/// More results than any real op has: a count beyond it is an error rather
/// than an attempt to allocate them.
const MAX_RESULTS: u64 = 1 << 20;

/// `%r:5 = test.parse_integer_literal : 5`: as many index results as the
/// literal says (none without one).
fn parse_integer_literal(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if !p.consume_if(Tok::Colon) {
        return Ok(());
    }
    let pos = p.pos();
    let n = p.parse_integer("integer value")?;
    let Ok(n) = u64::try_from(n) else { return p.error_at(pos, "expected a non-negative result count") };
    if n > MAX_RESULTS {
        return p.error_at(pos, "too many results");
    }
    let index = p.ir.index_type();
    r.result_types = vec![index; n as usize];
    Ok(())
}

fn print_integer_literal(p: &mut Printer<'_>, op: OpId) {
    let n = p.ir.results(op).len();
    if n > 0 {
        p.push(&format!(" : {n}"));
    }
}

/// `test.parse_b64 "aGVsbG8="`: the property holds the decoded bytes.
fn parse_b64(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let text = p.parse_utf8_string("base64 string")?;
    let Some(bytes) = base64_decode(&text) else { return p.error_at(pos, "expected valid base64 string") };
    let (k, v) = (p.ir.sym("b64"), p.ir.attr(hivm_ir::AttrData::String { value: bytes, ty: None }));
    r.attrs.push((k, v));
    Ok(())
}

fn print_b64(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(hivm_ir::AttrData::String { value, .. }) = ir.get_attr(op, "b64").map(|a| ir.attr_data(a)) {
        p.push(&format!(" \"{}\"", base64_encode(value)));
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (*b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = B64.iter().position(|b| *b == c)? as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits & 0xff) as u8);
        }
    }
    Some(out)
}

/// `test.isolated_region %v { ... }`: the region is isolated from above and
/// its one argument is written with the operand's name.
fn parse_isolated_region(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let operand = p.parse_operand()?;
    let index = p.ir.index_type();
    let v = p.resolve_operand(&operand, index)?;
    r.operands.push(v);
    let region = p.parse_region(&[RegionArg { name: operand, ty: index, loc: None }], true)?;
    r.regions.push(region);
    Ok(())
}

fn print_isolated_region(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    if let Some(&region) = ir.regions(op).first() {
        p.push(" ");
        p.print_region(region, false, true);
    }
}

/// `test.default_dialect { ... } attributes {...}`: ops inside may leave
/// out `test.`.
fn parse_default_dialect(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let region = p.parse_region(&[], false)?;
    r.regions.push(region);
    p.parse_optional_attr_dict_with_keyword(&mut r.attrs)
}

fn print_default_dialect(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(&region) = ir.regions(op).first() {
        p.push(" ");
        p.print_region(region, true, true);
    }
    p.print_optional_attr_dict_with_keyword(op, &[]);
}

/// `%x = test.string_attr_pretty_name (attributes {names = [...]})?`: the
/// `names` property, written or taken from the result names, names the
/// results when printed, and is printed only where the printed names differ.
fn parse_pretty_name(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.result_count() > MAX_RESULTS {
        return p.op_error_at(r.pos, "too many results");
    }
    let written: Vec<String> = p.result_names().iter().map(|n| n.to_string()).collect();
    p.parse_optional_attr_dict_with_keyword(&mut r.attrs)?;
    let i32t = p.ir.int_type(32);
    r.result_types = vec![i32t; written.len()];
    if written.is_empty() || r.attrs.iter().any(|(k, _)| p.ir.sym_str(*k) == "names") {
        return Ok(());
    }
    // Numbered names (`%0`) give no name.
    let names: Vec<hivm_ir::Attribute> = written
        .iter()
        .map(|n| if n.starts_with(|c: char| c.is_ascii_digit()) { "" } else { n.as_str() })
        .map(|n| p.ir.str_attr(n))
        .collect();
    let (k, v) = (p.ir.sym("names"), p.ir.array_attr(names));
    r.attrs.push((k, v));
    Ok(())
}

fn pretty_names(ir: &Ir, op: OpId) -> Vec<Option<&str>> {
    match ir.get_attr(op, "names").map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::Array(items)) => items.iter().map(|a| ir.as_str(*a)).collect(),
        _ => Vec::new(),
    }
}

fn print_pretty_name(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let names = pretty_names(ir, op);
    let results = ir.results(op);
    let agree = names.len() == results.len()
        && results.iter().zip(&names).all(|(v, n)| n.is_some_and(|n| p.value_text(*v)[1..] == *n));
    p.print_optional_attr_dict_with_keyword(op, if agree { &["names"] } else { &[] });
}

fn verify_pretty_name(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    match ir.get_attr(op, "names").map(|a| ir.attr_data(a)) {
        None => Err("requires attribute 'names'".into()),
        Some(hivm_ir::AttrData::Array(items)) if items.iter().all(|a| ir.as_str(*a).is_some()) => Ok(()),
        Some(_) => Err("attribute 'names' failed to satisfy constraint: string array attribute".into()),
    }
}

fn pretty_result_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(hivm_ir::Value, String)) {
    for (v, n) in ir.results(op).iter().zip(pretty_names(ir, op)) {
        if let Some(n) = n.filter(|n| !n.is_empty()) {
            set(*v, n.to_string());
        }
    }
}

/// `test.asm_interface_op` (generic form only) names its first result
/// `first`, its middle results as one group `middle_results`, and numbers
/// its last result on its own.
fn asm_interface_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(hivm_ir::Value, String)) {
    let results = ir.results(op);
    let Some((&last, rest)) = results.split_last() else { return };
    if let Some((&first, middle)) = rest.split_first() {
        set(first, "first".into());
        if let Some(&m) = middle.first() {
            set(m, "middle_results".into());
        }
    }
    set(last, String::new());
}

/// `test.three_result` (generic form only) names its results after their
/// ODS names, `result1` to `result3`.
fn three_result_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(hivm_ir::Value, String)) {
    for (i, v) in ir.results(op).iter().enumerate() {
        set(*v, format!("result{}", i + 1));
    }
}

/// An op the test dialect's own hook parses: its name, then one fixed word.
fn word_op(name: &'static str, parse: hivm_ir::dialect::ParseFn, print: hivm_ir::dialect::PrintFn) -> OpDef {
    OpDef::new(name).arity((0, Some(0)), (0, Some(0)), 0).assembly(parse, print)
}

fn parse_custom_format(p: &mut Parser<'_>, _: &mut OpParseResult) -> PResult<()> {
    p.expect_keyword("custom_format")
}

fn print_custom_format(p: &mut Printer<'_>, _: OpId) {
    p.push(" custom_format");
}

fn parse_custom_format_fallback(p: &mut Parser<'_>, _: &mut OpParseResult) -> PResult<()> {
    p.expect_keyword("custom_format_fallback")
}

fn print_custom_format_fallback(p: &mut Printer<'_>, _: OpId) {
    p.push(" custom_format_fallback");
}

pub fn dialect() -> Dialect {
    let mut ops: Vec<OpDef> =
        [DESTINATION_STYLE, GRAPH_REGION, AFFINE_SCOPE, OPTIONAL_RESULT].into_iter().map(OpSpec::def).collect();
    ops.push(
        OpDef::new("test.parse_wrapped_keyword")
            .arity((0, Some(0)), (0, Some(0)), 0)
            .inherent(&["keyword"])
            .assembly(parse_wrapped_keyword, print_wrapped_keyword),
    );
    ops.push(OpDef::new("test.polyfor").arity((0, Some(0)), (0, Some(0)), 1).assembly(parse_polyfor, print_polyfor));
    ops.push(
        OpDef::new("test.parse_integer_literal")
            .arity((0, Some(0)), (0, None), 0)
            .assembly(parse_integer_literal, print_integer_literal),
    );
    ops.push(
        OpDef::new("test.parse_b64")
            .arity((0, Some(0)), (0, Some(0)), 0)
            .inherent(&["b64"])
            .assembly(parse_b64, print_b64),
    );
    ops.push(word_op("test.dialect_custom_printer", parse_custom_format, print_custom_format));
    ops.push(word_op(
        "test.dialect_custom_format_fallback",
        parse_custom_format_fallback,
        print_custom_format_fallback,
    ));
    ops.push(
        OpDef::new("test.isolated_region")
            .arity((1, Some(1)), (0, Some(0)), 1)
            .traits(Traits::ISOLATED_FROM_ABOVE)
            .assembly(parse_isolated_region, print_isolated_region)
            .shadowing_region_args(),
    );
    ops.push(
        OpDef::new("test.default_dialect")
            .arity((0, Some(0)), (0, Some(0)), 1)
            .assembly(parse_default_dialect, print_default_dialect)
            .default_dialect("test"),
    );
    ops.push(WITH_DOT.def());
    ops.push(OpDef::new("test.asm_interface_op").arity((0, Some(0)), (2, None), 0).names(asm_interface_names));
    ops.push(OpDef::new("test.three_result").arity((0, Some(0)), (3, Some(3)), 0).names(three_result_names));
    ops.push(
        OpDef::new("test.string_attr_pretty_name")
            .arity((0, Some(0)), (0, None), 0)
            .inherent(&["names"])
            .assembly(parse_pretty_name, print_pretty_name)
            .verifier(verify_pretty_name)
            .names(pretty_result_names),
    );
    // Read in custom form by the dialect's hook, printed in generic form.
    let mut dotted = OpDef::new("test.dialect_custom_printer.with.dot").arity((0, Some(0)), (0, Some(0)), 0);
    dotted.parse = Some(parse_nothing);
    ops.push(dotted);
    let mut d = Dialect::new("test", ops);
    d.allow_unknown_ops = true;
    d
}

//! The transform ops whose bodies MLIR parses and prints by hand or with
//! syntax the format engine lacks: `named_sequence` (a function, written
//! as `func.func` is), `sequence` (optional operands before `failures(...)`,
//! an implicit `yield`) and `foreach` (an implicit `yield`).

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData};

use super::{Class, Kind, class_of};
use crate::util::type_str;

const YIELD: &str = "transform.yield";

// ----- named_sequence -----

/// MLIR's `verifyNamedSequenceOp` (less the checks of consumed/readonly
/// argument annotations, which need every op's effects).
fn verify_named_sequence(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    // The `Symbol` trait's check comes first.
    if let Some(p) = ir.parent_op(op)
        && !ir.op_def(p).is_some_and(|d| d.has(Traits::SYMBOL_TABLE))
    {
        return Err("symbol's parent must have the SymbolTable trait".into());
    }
    let fty = ir.get_attr(op, "function_type").and_then(|a| ir.as_type(a));
    let Some(TypeData::Function { inputs, results }) = fty.map(|t| ir.type_data(t)) else {
        return Err(if ir.get_attr(op, "function_type").is_none() {
            "requires attribute 'function_type'".into()
        } else {
            "attribute 'function_type' failed to satisfy constraint: function type attribute".into()
        });
    };
    if ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).is_none() {
        return Err("requires attribute 'sym_name'".into());
    }
    for (key, n) in [("arg_attrs", inputs.len()), ("res_attrs", results.len())] {
        if let Some(a) = ir.get_attr(op, key) {
            let Some(arr) = ir.as_array(a) else {
                return Err(
                    format!("attribute '{key}' failed to satisfy constraint: Array of dictionary attributes").into()
                );
            };
            if arr.len() != n {
                let what = if key == "arg_attrs" { "argument" } else { "result" };
                return Err(format!("expects {what} attribute array to have the same number of elements as the number of function {what}s, got {}, but expected {n}", arr.len()).into());
            }
        }
    }
    // The nearest symbol table must allow named sequences.
    let mut parent = ir.parent_op(op);
    while let Some(p) = parent {
        if ir.op_def(p).is_some_and(|d| d.has(Traits::SYMBOL_TABLE)) {
            if ir.get_attr(p, "transform.with_named_sequence").is_none() {
                return Err(VerifyError::plain(
                    "expects the parent symbol table to have the 'transform.with_named_sequence' attribute",
                ));
            }
            break;
        }
        parent = ir.parent_op(p);
    }
    let mut parent = ir.parent_op(op);
    while let Some(p) = parent {
        if is_transform_op(ir.op_name(p)) {
            return Err(VerifyError::plain("cannot be defined inside another transform op"));
        }
        parent = ir.parent_op(p);
    }
    let body = ir.regions(op)[0];
    let Some(&entry) = ir.region_blocks(body).first() else { return Ok(()) };
    let args = ir.block_args(entry);
    if args.len() != inputs.len() {
        return Err(format!("entry block must have {} arguments to match function signature", inputs.len()).into());
    }
    for (i, (a, t)) in args.iter().zip(inputs).enumerate() {
        let at = ir.value_type(*a);
        if at != *t {
            return Err(format!(
                "type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                type_str(ir, at),
                type_str(ir, *t)
            )
            .into());
        }
    }
    let Some(last) = ir.block_ops(entry).last() else {
        return Err(VerifyError::plain("expected a non-empty body block"));
    };
    if ir.op_name(last) != YIELD {
        return Err(VerifyError::plain(format!("expected '{YIELD}' as terminator")));
    }
    let yielded = ir.operands(last);
    if yielded.len() != results.len() {
        return Err(VerifyError::plain_at(
            last,
            "expected terminator to have as many operands as the parent op has results",
        ));
    }
    for (i, (v, t)) in yielded.iter().zip(results).enumerate() {
        let vt = ir.value_type(*v);
        if vt != *t {
            return Err(VerifyError::plain_at(
                last,
                format!(
                    "the type of the terminator operand #{i} must match the type of the corresponding parent op result ('{}' vs '{}')",
                    type_str(ir, vt),
                    type_str(ir, *t)
                ),
            ));
        }
    }
    Ok(())
}

/// Ops of the transform dialect that transform (MLIR's
/// `TransformOpInterface`): all but the terminator and the pattern
/// descriptors.
fn is_transform_op(name: &str) -> bool {
    name.starts_with("transform.") && name != YIELD && !super::patterns::is_pattern_descriptor(name)
}

// ----- sequence -----

/// `[%root[, %extra...] : T | (T, E...)] [-> R...] failures(mode) [attributes {...}] { ... }`.
fn parse_sequence(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut root = Vec::new();
    let mut extra = Vec::new();
    let mut root_type = Vec::new();
    let mut extra_types = Vec::new();
    let pos = p.pos();
    if p.is(Tok::PercentIdent) {
        root.push(p.parse_operand()?);
        if p.consume_if(Tok::Comma) {
            extra = p.parse_operand_list()?;
        }
        p.expect(Tok::Colon, "':'")?;
        // The parentheses are optional.
        let paren = p.consume_if(Tok::LParen);
        root_type.push(p.parse_type()?);
        if !extra.is_empty() {
            p.expect(Tok::Comma, "','")?;
            extra_types.push(p.parse_type()?);
            while p.consume_if(Tok::Comma) {
                extra_types.push(p.parse_type()?);
            }
        }
        if extra_types.len() != extra.len() {
            return p.error_at(r.pos, "expected types to be provided for all operands");
        }
        if paren {
            p.consume_if(Tok::RParen);
        }
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types.push(p.parse_type()?);
        while p.consume_if(Tok::Comma) {
            r.result_types.push(p.parse_type()?);
        }
    }
    p.expect_keyword("failures")?;
    p.expect(Tok::LParen, "'('")?;
    let mode = hivm_ir::opspec::parse_attr(p, super::FAILURE_PROPAGATION_KIND)?;
    p.expect(Tok::RParen, "')'")?;
    let roots = p.resolve_operands(&root, &root_type, pos)?;
    let extras = p.resolve_operands(&extra, &extra_types, pos)?;
    r.operands.extend(roots);
    r.operands.extend(extras);
    crate::util::push_attr(p, r, "failure_propagation_mode", mode);
    let sizes = crate::util::segment_attr(p.ir, &[root.len(), extra.len()]);
    crate::util::push_attr(p, r, "operandSegmentSizes", sizes);
    p.parse_optional_attr_dict_with_keyword(&mut r.attrs)?;
    let loc = r.loc;
    let body = p.parse_region_with_terminator(&[], false, Some(YIELD), loc)?;
    r.regions.push(body);
    Ok(())
}

/// Whether the terminator of the region's block is a bare `yield`, which
/// the custom form leaves out.
fn print_terminator(ir: &Ir, op: OpId) -> bool {
    let Some(&region) = ir.regions(op).first() else { return true };
    let Some(&block) = ir.region_blocks(region).first() else { return true };
    match ir.terminator(block) {
        Some(t) => {
            !ir.operands(t).is_empty()
                || !ir.results(t).is_empty()
                || !ir.attr_names(t).is_empty()
                || !ir.op_def(t).is_some_and(|d| d.has(Traits::TERMINATOR))
        }
        None => true,
    }
}

fn print_sequence(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let sizes = crate::util::segments(ir, op);
    let ops = ir.operands(op);
    let n_root = sizes.first().copied().unwrap_or(0).min(ops.len());
    let (root, extra) = ops.split_at(n_root);
    p.push(" ");
    if let Some(&root) = root.first() {
        p.print_value(root);
        if !extra.is_empty() {
            p.push(", ");
            p.print_values(extra);
        }
        p.push(" : ");
        if !extra.is_empty() {
            p.push("(");
        }
        p.print_type(ir.value_type(root));
        if !extra.is_empty() {
            p.push(", ");
            p.print_value_types(extra);
            p.push(")");
        }
    }
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
    p.push(" failures(");
    let mode = crate::util::int_attr(ir, op, "failure_propagation_mode");
    let name = mode.and_then(|m| super::FAILURE_PROPAGATION.name_of(m as i64));
    match (name, ir.get_attr(op, "failure_propagation_mode")) {
        (Some(n), _) => p.push(n),
        (None, Some(a)) => p.print_attr(a, hivm_ir::printer::Elide::Never),
        (None, None) => {}
    }
    p.push(")");
    p.print_optional_attr_dict_with_keyword(op, &["operandSegmentSizes", "failure_propagation_mode"]);
    p.push(" ");
    let terminators = print_terminator(ir, op);
    p.print_region(ir.regions(op)[0], true, terminators);
}

/// MLIR's `PossibleTopLevelTransformOpTrait` checks, then `SequenceOp::verify`
/// (less the checks that a handle is consumed once, which need every op's
/// effects).
fn verify_sequence(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    match ir.get_attr(op, "failure_propagation_mode").map(|a| ir.attr_data(a)) {
        None => return Err("requires attribute 'failure_propagation_mode'".into()),
        Some(hivm_ir::attrs::AttrData::Integer { ty, value })
            if ir.type_data(*ty).is_signless_int(32) && super::FAILURE_PROPAGATION.name_of(*value as i64).is_some() => {
        }
        Some(_) => {
            return Err("attribute 'failure_propagation_mode' failed to satisfy constraint: Silenceable error propagation policy".into());
        }
    }
    crate::util::check_segments(ir, op, 2)?;
    let sizes = crate::util::segments(ir, op);
    if sizes[0] > 1 {
        return Err(format!("operand group starting at #0 requires 0 or 1 element, but found {}", sizes[0]).into());
    }
    let (root, extra) = ir.operands(op).split_at(sizes[0]);
    let mut index = 0;
    super::check_group(ir, "operand", &mut index, root, Kind::Handle, false)?;
    super::check_group(ir, "operand", &mut index, extra, Kind::Any, true)?;
    let mut index = 0;
    super::check_group(ir, "result", &mut index, ir.results(op), Kind::Handle, true)?;
    verify_top_level_body(ir, op)?;
    if root.is_empty() && !extra.is_empty() {
        return Err("does not expect extra operands when used as top-level".into());
    }
    let body = ir.region_blocks(ir.regions(op)[0])[0];
    let ops: Vec<OpId> = ir.block_ops(body).collect();
    for (i, &child) in ops.iter().enumerate() {
        if i + 1 != ops.len() && !is_transform_op(ir.op_name(child)) {
            return Err("expected children ops to implement TransformOpInterface".into());
        }
    }
    let Some(&last) = ops.last().filter(|t| ir.op_def(**t).is_some_and(|d| d.has(Traits::TERMINATOR))) else {
        return Err("expects to have a terminator in the body".into());
    };
    let yielded: Vec<Type> = ir.operands(last).iter().map(|v| ir.value_type(*v)).collect();
    let results: Vec<Type> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
    if yielded != results {
        return Err("expects the types of the terminator operands to match the types of the result".into());
    }
    Ok(())
}

/// `PossibleTopLevelTransformOpTrait`: the body's arguments stand for the
/// operands, or for the payload root when there are none.
fn verify_top_level_body(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(&region) = ir.regions(op).first() else { return Err("expects at least one region".into()) };
    let blocks = ir.region_blocks(region);
    if blocks.len() != 1 {
        return Err("expects a single-block region".into());
    }
    let args = ir.block_args(blocks[0]);
    let Some(&first) = args.first() else {
        return Err("expects the entry block to have at least one argument".into());
    };
    if class_of(ir, ir.value_type(first)) != Some(Class::Handle) {
        return Err(
            "expects the first entry block argument to be of type implementing TransformHandleTypeInterface".into()
        );
    }
    if let Some(&operand) = ir.operands(op).first()
        && ir.value_type(operand) != ir.value_type(first)
    {
        return Err("expects the type of the block argument to match the type of the operand".into());
    }
    if args[1..].iter().any(|a| class_of(ir, ir.value_type(*a)).is_none()) {
        return Err("expects trailing entry block arguments to be of type implementing TransformHandleTypeInterface, TransformValueHandleTypeInterface or TransformParamTypeInterface".into());
    }
    let mut parent = ir.parent_op(op);
    while let Some(p) = parent {
        if ir.op_name(p) == "transform.sequence" {
            if ir.operands(op).len() != args.len() {
                return Err("expects operands to be provided for a nested op".into());
            }
            break;
        }
        parent = ir.parent_op(p);
    }
    Ok(())
}

// ----- foreach -----

/// `%t, ... [with_zip_shortest] : T, ... [-> R, ...] { ... } [attrs]`.
fn parse_foreach(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let targets = p.parse_operand_list()?;
    if p.parse_optional_keyword("with_zip_shortest") {
        let u = p.ir.unit_attr();
        crate::util::push_attr(p, r, "with_zip_shortest", u);
    }
    p.expect(Tok::Colon, "':'")?;
    let mut types = vec![p.parse_type()?];
    while p.consume_if(Tok::Comma) {
        types.push(p.parse_type()?);
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types.push(p.parse_type()?);
        while p.consume_if(Tok::Comma) {
            r.result_types.push(p.parse_type()?);
        }
    }
    let loc = r.loc;
    let body = p.parse_region_with_terminator(&[], false, Some(YIELD), loc)?;
    r.regions.push(body);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let values = p.resolve_operands(&targets, &types, pos)?;
    r.operands.extend(values);
    Ok(())
}

fn print_foreach(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    if ir.get_attr(op, "with_zip_shortest").is_some() {
        p.push(" with_zip_shortest");
    }
    p.push(" : ");
    p.print_value_types(ir.operands(op));
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
    p.push(" ");
    let terminators = print_terminator(ir, op);
    p.print_region(ir.regions(op)[0], true, terminators);
    p.print_optional_attr_dict(op, &["with_zip_shortest"]);
}

fn verify_foreach(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if let Some(a) = ir.get_attr(op, "with_zip_shortest")
        && !matches!(ir.attr_data(a), hivm_ir::attrs::AttrData::Unit)
    {
        return Err("attribute 'with_zip_shortest' failed to satisfy constraint: unit attribute".into());
    }
    let mut index = 0;
    super::check_group(ir, "operand", &mut index, ir.operands(op), Kind::Any, true)?;
    let mut index = 0;
    super::check_group(ir, "result", &mut index, ir.results(op), Kind::Any, true)?;
    let blocks = ir.region_blocks(ir.regions(op)[0]);
    if blocks.len() != 1 {
        return Err("expects a single-block region".into());
    }
    let body = blocks[0];
    let Some(term) = ir.terminator(body).filter(|t| ir.op_name(*t) == YIELD) else {
        return Err(format!("expects regions to end with '{YIELD}'").into());
    };
    let same_class = |a: Type, b: Type| class_of(ir, a) == class_of(ir, b);
    let yielded = ir.operands(term);
    if yielded.len() != ir.results(op).len() {
        return Err("expects the same number of results as the yield terminator has operands".into());
    }
    for (v, r) in yielded.iter().zip(ir.results(op)) {
        if !same_class(ir.value_type(*v), ir.value_type(*r)) {
            return Err("expects co-indexed results and yield operands to have the same op/value/param type".into());
        }
    }
    let args = ir.block_args(body);
    if args.len() != ir.operands(op).len() {
        return Err("expects the same number of targets as the body has block arguments".into());
    }
    for (a, t) in args.iter().zip(ir.operands(op)) {
        if !same_class(ir.value_type(*a), ir.value_type(*t)) {
            return Err(
                "expects co-indexed targets and the body's block arguments to have the same op/value/param type".into(),
            );
        }
    }
    Ok(())
}

pub(super) fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("transform.named_sequence")
            .arity((0, Some(0)), (0, Some(0)), 1)
            // Its terminator is checked by its own verifier, in its words.
            .traits(Traits::ISOLATED_FROM_ABOVE | Traits::SYMBOL | Traits::NO_TERMINATOR)
            .inherent(&["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"])
            .assembly(crate::func::parse_func, crate::func::print_func)
            .verifier(verify_named_sequence),
        OpDef::new("transform.sequence")
            .arity((0, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .implicit_terminator(YIELD)
            .inherent(&["failure_propagation_mode", "operandSegmentSizes"])
            .default_dialect("transform")
            .assembly(parse_sequence, print_sequence)
            .verifier(verify_sequence),
        OpDef::new("transform.foreach")
            .arity((0, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .implicit_terminator(YIELD)
            .inherent(&["with_zip_shortest"])
            .assembly(parse_foreach, print_foreach)
            .verifier(verify_foreach),
    ]
}

//! AscendNPU-IR's transform extensions with hand-written syntax (its
//! `parse`/`print` in C++): `structured.extended_fuse_into_containing_op`,
//! `loop.tile` and `parallel_loop.tile`.

use hivm_ir::attrs::AttrData;
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Attribute, Ir, OpDef, OpId, TypeData, Value};

use super::Kind;
use crate::util::{i64_array, push_attr};

/// The function type after `:`, with where it starts.
fn parse_function_type(p: &mut Parser<'_>) -> PResult<(u32, Vec<hivm_ir::Type>, Vec<hivm_ir::Type>)> {
    p.expect(Tok::Colon, "':'")?;
    let pos = p.pos();
    let t = p.parse_type()?;
    match p.ir.type_data(t).clone() {
        TypeData::Function { inputs, results } => Ok((pos, inputs, results)),
        _ => {
            p.error_at(pos, "invalid kind of type specified: expected builtin.function, but found a non-function type")
        }
    }
}

fn check(ir: &Ir, what: &str, vals: &[Value], k: Kind, variadic: bool) -> Result<(), VerifyError> {
    let mut index = 0;
    super::check_group(ir, what, &mut index, vals, k, variadic)
}

fn bool_attr(ir: &Ir, op: OpId, name: &str) -> Result<(), VerifyError> {
    match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        None => Ok(()),
        Some(AttrData::Integer { ty, .. }) if ir.type_data(*ty).is_signless_int(1) => Ok(()),
        Some(_) => Err(format!("attribute '{name}' failed to satisfy constraint: bool attribute").into()),
    }
}

// ----- structured.extended_fuse_into_containing_op -----

/// `%producer into %c1, %c2 {attrs} : (T...) -> (R...)`; the results are
/// one fused op and one new containing op per containing op.
fn parse_extended_fuse(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let producer = p.parse_operand()?;
    p.expect_keyword("into")?;
    let containing_pos = p.pos();
    let containing = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let n = containing.len();
    let sizes = crate::util::segment_attr(p.ir, &[n, n]);
    push_attr(p, r, "resultSegmentSizes", sizes);
    let (pos, inputs, results) = parse_function_type(p)?;
    let Some((first, rest)) = inputs.split_first() else {
        return p.error_at(pos, format!("{} operands present, but expected 0", n + 1));
    };
    let v = p.resolve_operand(&producer, *first)?;
    r.operands.push(v);
    let vals = p.resolve_operands(&containing, rest, containing_pos)?;
    r.operands.extend(vals);
    r.result_types = results;
    Ok(())
}

fn print_extended_fuse(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    p.push(" ");
    if let Some((first, rest)) = ops.split_first() {
        p.print_value(*first);
        p.push(" into ");
        p.print_values(rest);
    }
    p.print_optional_attr_dict(op, &["resultSegmentSizes"]);
    p.push(" : ");
    p.print_functional_type(op);
}

fn result_segments(ir: &Ir, op: OpId) -> Result<Vec<usize>, VerifyError> {
    let Some(a) = ir.get_attr(op, "resultSegmentSizes") else {
        return Err("requires attribute 'resultSegmentSizes'".into());
    };
    let AttrData::DenseArray { elem, data: hivm_ir::attrs::DenseArrayData::Int(sizes) } = ir.attr_data(a) else {
        return Err("attribute 'resultSegmentSizes' failed to satisfy constraint: i32 dense array attribute".into());
    };
    if !ir.type_data(*elem).is_signless_int(32) {
        return Err("attribute 'resultSegmentSizes' failed to satisfy constraint: i32 dense array attribute".into());
    }
    if sizes.len() != 2 {
        return Err(format!(
            "'resultSegmentSizes' attribute for specifying result segments must have 2 elements, but got {}",
            sizes.len()
        )
        .into());
    }
    if sizes.iter().any(|s| *s < 0) {
        return Err("'resultSegmentSizes' attribute cannot have negative elements".into());
    }
    let total = sizes.iter().fold(0i64, |a, s| a.saturating_add(*s));
    if total != ir.results(op).len() as i64 {
        return Err(format!(
            "result count ({}) does not match with the total size ({total}) specified in attribute 'resultSegmentSizes'",
            ir.results(op).len()
        )
        .into());
    }
    Ok(sizes.iter().map(|s| *s as usize).collect())
}

fn verify_extended_fuse(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    result_segments(ir, op)?;
    bool_attr(ir, op, "duplicate_producer")?;
    let ops = ir.operands(op);
    check(ir, "operand", &ops[..1], Kind::Handle, false)?;
    let mut index = 1;
    super::check_group(ir, "operand", &mut index, &ops[1..], Kind::Handle, true)?;
    check(ir, "result", ir.results(op), Kind::Handle, true)
}

/// The first fused op and the first new containing op, named as MLIR's
/// generated `getAsmResultNames` names them.
fn extended_fuse_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    let Ok(sizes) = result_segments(ir, op) else { return };
    let results = ir.results(op);
    if sizes[0] > 0 {
        set(results[0], "fused_op".into());
    }
    if sizes[1] > 0 && sizes[0] < results.len() {
        set(results[sizes[0]], "new_containing_op".into());
    }
}

// ----- loop.tile -----

/// `%target[4, %n] {attrs} : (T, S...) -> (L...)`: one result more than
/// there are non-zero sizes.
fn parse_loop_tile(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let target = p.parse_operand()?;
    let operand_pos = p.pos();
    let (statics, dynamics) = crate::util::parse_dynamic_index_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let (_, inputs, results) = parse_function_type(p)?;
    let loops = statics.iter().filter(|s| **s != 0).count();
    if results.len() != loops + 1 {
        return p.error_at(r.pos, format!("expected {} result type(s)", loops + 1));
    }
    if inputs.len() != dynamics.len() + 1 {
        return p.error_at(operand_pos, format!("expected {} operand type(s)", dynamics.len() + 1));
    }
    let v = p.resolve_operand(&target, inputs[0])?;
    r.operands.push(v);
    let vals = p.resolve_operands(&dynamics, &inputs[1..], operand_pos)?;
    r.operands.extend(vals);
    let a = crate::util::i64_array_attr(p.ir, &statics);
    push_attr(p, r, "static_sizes", a);
    r.result_types = results;
    Ok(())
}

fn is_false(ir: &Ir, a: Option<Attribute>) -> bool {
    matches!(a.map(|a| ir.attr_data(a)), Some(AttrData::Integer { value: 0, ty }) if ir.type_data(*ty).is_signless_int(1))
}

fn print_loop_tile(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    p.push(" ");
    if let Some((target, dynamics)) = ops.split_first() {
        p.print_value(*target);
        crate::util::print_dynamic_index_list(p, &i64_array(ir, op, "static_sizes"), dynamics);
    }
    let mut elided = vec!["static_sizes"];
    for name in ["is_npart_mode", "is_reorder_mode"] {
        if is_false(ir, ir.get_attr(op, name)) {
            elided.push(name);
        }
    }
    p.print_optional_attr_dict(op, &elided);
    p.push(" : ");
    p.print_functional_type(op);
}

fn verify_loop_tile(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    bool_attr(ir, op, "is_npart_mode")?;
    bool_attr(ir, op, "is_reorder_mode")?;
    if let Some(a) = ir.get_attr(op, "static_sizes")
        && !matches!(ir.attr_data(a), AttrData::DenseArray { elem, .. } if ir.type_data(*elem).is_signless_int(64))
    {
        return Err("attribute 'static_sizes' failed to satisfy constraint: i64 dense array attribute".into());
    }
    let ops = ir.operands(op);
    check(ir, "operand", &ops[..1], Kind::Handle, false)?;
    let mut index = 1;
    super::check_group(ir, "operand", &mut index, &ops[1..], Kind::Any, true)?;
    check(ir, "result", ir.results(op), Kind::Handle, true)?;
    let dynamic = i64_array(ir, op, "static_sizes").iter().filter(|s| **s == DYNAMIC).count();
    if dynamic != ops.len() - 1 {
        return Err(format!(
            "expected {dynamic} dynamic values for the '?' entries of 'static_sizes', but got {}",
            ops.len() - 1
        )
        .into());
    }
    Ok(())
}

fn loop_tile_defaults(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    let f = ir.bool_attr(false);
    vec![("is_npart_mode", f), ("is_reorder_mode", f)]
}

// ----- parallel_loop.tile -----

/// `%target {attrs} : (T) -> (L...)`.
fn parse_parallel_loop_tile(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let target = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let (pos, inputs, results) = parse_function_type(p)?;
    if inputs.len() != 1 {
        return p.error_at(pos, "expected one input type");
    }
    let v = p.resolve_operand(&target, inputs[0])?;
    r.operands.push(v);
    r.result_types = results;
    Ok(())
}

fn print_parallel_loop_tile(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_functional_type(op);
}

fn verify_parallel_loop_tile(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if let Some(a) = ir.get_attr(op, "static_sizes") {
        let ok = match ir.attr_data(a) {
            AttrData::Array(items) => items.iter().all(
                |i| matches!(ir.attr_data(*i), AttrData::Integer { ty, .. } if ir.type_data(*ty).is_signless_int(64)),
            ),
            _ => false,
        };
        if !ok {
            return Err("attribute 'static_sizes' failed to satisfy constraint: 64-bit integer array attribute".into());
        }
    }
    check(ir, "operand", ir.operands(op), Kind::Handle, false)?;
    check(ir, "result", ir.results(op), Kind::Handle, true)
}

fn parallel_loop_tile_defaults(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    vec![("static_sizes", ir.array_attr(Vec::new()))]
}

pub(super) fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("transform.structured.extended_fuse_into_containing_op")
            .arity((1, None), (0, None), 0)
            .traits(hivm_ir::Traits::ZERO_REGIONS)
            .inherent(&["duplicate_producer", "resultSegmentSizes"])
            .assembly(parse_extended_fuse, print_extended_fuse)
            .verifier(verify_extended_fuse)
            .names(extended_fuse_names),
        OpDef::new("transform.loop.tile")
            .arity((1, None), (0, None), 0)
            .traits(hivm_ir::Traits::ZERO_REGIONS)
            .inherent(&["static_sizes", "is_npart_mode", "is_reorder_mode"])
            .defaults(&["is_npart_mode", "is_reorder_mode"], loop_tile_defaults)
            .assembly(parse_loop_tile, print_loop_tile)
            .verifier(verify_loop_tile),
        OpDef::new("transform.parallel_loop.tile")
            .arity((1, Some(1)), (0, None), 0)
            .traits(hivm_ir::Traits::ZERO_REGIONS)
            .inherent(&["static_sizes"])
            .defaults(&["static_sizes"], parallel_loop_tile_defaults)
            .assembly(parse_parallel_loop_tile, print_parallel_loop_tile)
            .verifier(verify_parallel_loop_tile),
    ]
}

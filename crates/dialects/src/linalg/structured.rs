//! `linalg.generic` and the named structured ops `linalg.reduce`,
//! `linalg.transpose` and `linalg.broadcast`, with mlir-opt's syntax: shared
//! `ins(...) outs(...)` parts, results for the tensor inits, the generic op's
//! trait dictionary (iterator types written as strings), the short form
//! `{ arith.addf }` of a reduction whose body is one payload op, and the
//! implicit bodies of transpose and broadcast.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{AttrData, Attribute, Ir, OpId, OperationState, RegionId, Type, Value};

use crate::util::{element_or_self, i64_array, i64_array_attr, push_attr, segment, segment_attr};

/// `ins(%a, %b : A, B)` and `outs(...)`, each optional; values resolved.
pub(crate) fn parse_ins_outs(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<(Vec<Value>, Vec<Value>)> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let mut groups = [Vec::new(), Vec::new()];
    for (g, kw) in groups.iter_mut().zip(["ins", "outs"]) {
        if p.parse_optional_keyword(kw) {
            p.expect(Tok::LParen, "'('")?;
            let ops = p.parse_operand_list()?;
            let pos = p.pos();
            let tys = if ops.is_empty() { Vec::new() } else { p.parse_colon_type_list()? };
            p.expect(Tok::RParen, "')'")?;
            *g = p.resolve_operands(&ops, &tys, pos)?;
        }
    }
    let [ins, outs] = groups;
    Ok((ins, outs))
}

pub(crate) fn print_ins_outs(p: &mut Printer<'_>, ins: &[Value], outs: &[Value]) {
    for (kw, vals) in [("ins", ins), ("outs", outs)] {
        if !vals.is_empty() {
            p.push(&format!(" {kw}("));
            p.print_values(vals);
            p.push(" : ");
            p.print_value_types(vals);
            p.push(")");
        }
    }
}

/// The results of a structured op: one per tensor init.
fn tensor_results(p: &Parser<'_>, outs: &[Value]) -> Vec<Type> {
    outs.iter().map(|v| p.ir.value_type(*v)).filter(|t| p.ir.type_data(*t).is_tensor()).collect()
}

/// Inputs and inits: from `operandSegmentSizes` (generic) or, for the named
/// ops, the inputs are all operands but the last `inits`.
fn split_operands(ir: &Ir, op: OpId) -> (&[Value], &[Value]) {
    if ir.get_attr(op, "operandSegmentSizes").is_some() {
        return (segment(ir, op, 0), segment(ir, op, 1));
    }
    let ops = ir.operands(op);
    let inits = ops.len().min(1);
    ops.split_at(ops.len() - inits)
}

// ----- linalg.generic -----

/// The attributes printed in the leading dictionary.
const TRAIT_ATTRS: &[&str] = &["doc", "indexing_maps", "iterator_types", "library_call"];

fn iterator_attr(ir: &mut Ir, kind: &str) -> Attribute {
    crate::util::opaque_attr(ir, "linalg", &format!("iterator_type<{kind}>"))
}

fn parse_generic(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    // The dictionary may be given through an alias (`linalg.generic #trait`).
    let pos = p.pos();
    let dict = p.parse_attribute(None)?;
    let AttrData::Dictionary(entries) = p.ir.attr_data(dict).clone() else {
        return p.error_at(pos, "expected a dictionary of the generic op's attributes");
    };
    let after = p.pos();
    for (k, v) in entries {
        // Iterator types are written as strings in the custom form.
        let v = if p.ir.sym_str(k) == "iterator_types"
            && let AttrData::Array(items) = p.ir.attr_data(v).clone()
        {
            let mut kinds = Vec::new();
            for a in items {
                match p.ir.attr_data(a) {
                    AttrData::String { value, .. } => kinds.push(String::from_utf8_lossy(value).into_owned()),
                    _ => return p.op_error_at(after, "expected iterator types written as strings"),
                }
            }
            if let Some(bad) = kinds.iter().find(|k| !super::ITERATOR_TYPES.contains(&k.as_str())) {
                return p.op_error_at(after, format!("unexpected iterator_type ({bad})"));
            }
            let attrs: Vec<Attribute> = kinds.iter().map(|k| iterator_attr(p.ir, k)).collect();
            p.ir.attr(AttrData::Array(attrs))
        } else {
            v
        };
        r.attrs.push((k, v));
    }
    let (ins, outs) = parse_ins_outs(p, r)?;
    if p.parse_optional_keyword("attrs") {
        p.expect(Tok::Equal, "'='")?;
        p.parse_optional_attr_dict(&mut r.attrs)?;
    }
    let region = p.parse_region(&[], false)?;
    r.regions.push(region);
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    let seg = segment_attr(p.ir, &[ins.len(), outs.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = ins.into_iter().chain(outs).collect();
    Ok(())
}

fn print_generic(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let present: Vec<(&str, Attribute)> =
        TRAIT_ATTRS.iter().filter_map(|k| ir.get_attr(op, k).map(|a| (*k, a))).collect();
    if !present.is_empty() {
        p.push(" {");
        for (i, (k, a)) in present.iter().enumerate() {
            if i > 0 {
                p.push(", ");
            }
            p.push(k);
            p.push(" = ");
            match ir.attr_data(*a) {
                AttrData::Array(items) if *k == "iterator_types" => {
                    p.push("[");
                    for (j, it) in items.iter().enumerate() {
                        if j > 0 {
                            p.push(", ");
                        }
                        match crate::util::opaque_arg(ir, *it, "iterator_type") {
                            Some(kind) => p.push(&format!("\"{kind}\"")),
                            None => p.print_attr(*it, Elide::Never),
                        }
                    }
                    p.push("]");
                }
                _ => p.print_attr(*a, Elide::Never),
            }
        }
        p.push("}");
    } else {
        p.push(" ");
    }
    let (ins, outs) = split_operands(ir, op);
    print_ins_outs(p, ins, outs);
    let mut elided: Vec<&str> = TRAIT_ATTRS.to_vec();
    elided.push("operandSegmentSizes");
    let extra = ir.attr_names(op).into_iter().any(|n| !elided.contains(&n));
    if extra {
        p.push(" attrs = ");
        p.print_optional_attr_dict(op, &elided);
    }
    if let Some(&r) = ir.regions(op).first() {
        p.push(" ");
        p.print_region(r, true, true);
    }
    print_results(p, op);
}

/// ` -> T` or ` -> (T1, T2)` for the tensor results.
pub(crate) fn print_results(p: &mut Printer<'_>, op: OpId) {
    let results = p.ir.results(op);
    match results.len() {
        0 => {}
        1 => {
            p.push(" -> ");
            p.print_type(p.ir.value_type(results[0]));
        }
        _ => {
            p.push(" -> (");
            p.print_value_types(results);
            p.push(")");
        }
    }
}

/// The entry block of the op's body, if it has one.
fn body(ir: &Ir, op: OpId) -> Option<hivm_ir::BlockId> {
    ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()).copied()
}

/// Names the body's arguments `first` up to `split` (given the count) and
/// `rest` after, as upstream's `getAsmBlockArgumentNames` does.
fn name_body_args(ir: &Ir, op: OpId, split: usize, first: &str, rest: &str) -> Vec<(Value, String)> {
    let Some(b) = body(ir, op) else { return Vec::new() };
    ir.block_args(b).iter().enumerate().map(|(i, a)| (*a, if i < split { first } else { rest }.to_string())).collect()
}

fn body_arg_count(ir: &Ir, op: OpId) -> usize {
    body(ir, op).map_or(0, |b| ir.block_args(b).len())
}

/// Inputs `%in`, inits `%out`.
fn generic_arg_names(ir: &Ir, op: OpId) -> Vec<(Value, String)> {
    name_body_args(ir, op, segment(ir, op, 0).len(), "in", "out")
}

/// Inputs `%in`, inits `%init` (as many of each).
fn reduce_arg_names(ir: &Ir, op: OpId) -> Vec<(Value, String)> {
    name_body_args(ir, op, body_arg_count(ir, op).div_ceil(2), "in", "init")
}

/// Inputs `%in`, the one init `%init`.
fn map_arg_names(ir: &Ir, op: OpId) -> Vec<(Value, String)> {
    name_body_args(ir, op, body_arg_count(ir, op).saturating_sub(1), "in", "init")
}

/// A body of exactly one payload op and a yield of its results: the op and
/// the body's arguments (MLIR's `findPayloadOp`, before the operand test).
fn single_payload(ir: &Ir, op: OpId) -> Option<(OpId, &[Value])> {
    let b = body(ir, op)?;
    let ops: Vec<OpId> = ir.block_ops(b).collect();
    let [payload, yield_op] = ops[..] else { return None };
    (ir.operands(yield_op) == ir.results(payload)).then(|| (payload, ir.block_args(b)))
}

/// Whether the op has its one region with a body block.
fn has_body(ir: &Ir, op: OpId) -> bool {
    ir.regions(op).len() == 1 && body(ir, op).is_some()
}

fn verify_generic(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 2)?;
    let (ins, outs) = split_operands(ir, op);
    let Some(AttrData::Array(maps)) = ir.get_attr(op, "indexing_maps").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'indexing_maps'".into());
    };
    match ir.get_attr(op, "iterator_types").map(|a| ir.attr_data(a)) {
        None => return Err("requires attribute 'iterator_types'".into()),
        Some(AttrData::Array(items))
            if items.iter().all(|it| crate::util::opaque_arg(ir, *it, "iterator_type").is_some()) => {}
        Some(_) => {
            return Err(
                "attribute 'iterator_types' failed to satisfy constraint: Iterator type should be an enum.".into()
            );
        }
    }
    if !has_body(ir, op) {
        return Err("expected a region with a body block".into());
    }
    if maps.len() != ins.len() + outs.len() {
        return Err(format!(
            "expected the number of indexing_map ({}) to be equal to the number of input/output operands ({})",
            maps.len(),
            ins.len() + outs.len()
        )
        .into());
    }
    verify_results(ir, op, outs)
}

fn verify_results(ir: &Ir, op: OpId, outs: &[Value]) -> Result<(), VerifyError> {
    let tensor_outs: Vec<Type> =
        outs.iter().map(|v| ir.value_type(*v)).filter(|t| ir.type_data(*t).is_tensor()).collect();
    let results: Vec<Type> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
    if tensor_outs.len() != results.len() {
        return Err(format!(
            "expected the number of tensor results ({}) to be equal to the number of output tensors ({})",
            results.len(),
            tensor_outs.len()
        )
        .into());
    }
    Ok(())
}

// ----- linalg.reduce / transpose / broadcast -----

/// ` name = [1, 2] ` as MLIR's `printDenseI64ArrayAttr` writes it (with the
/// trailing space).
fn print_dims(p: &mut Printer<'_>, op: OpId, name: &str) {
    let v: Vec<String> = i64_array(p.ir, op, name).iter().map(|x| x.to_string()).collect();
    p.push(&format!(" {name} = [{}] ", v.join(", ")));
}

fn parse_dims(p: &mut Parser<'_>, r: &mut OpParseResult, name: &str) -> PResult<()> {
    let v = crate::util::parse_keyword_i64_list(p, name)?;
    let a = i64_array_attr(p.ir, &v);
    push_attr(p, r, name, a);
    Ok(())
}

/// A body block with one argument per operand's element type.
pub(crate) fn body_block(ir: &mut Ir, operands: &[Value], loc: Attribute) -> (RegionId, hivm_ir::BlockId, Vec<Value>) {
    let region = ir.new_region();
    let block = ir.create_block();
    ir.push_block(region, block);
    let types: Vec<Type> = operands.iter().map(|v| crate::util::body_element(ir, ir.value_type(*v))).collect();
    let args = types.into_iter().map(|t| ir.add_block_arg(block, t, Some(loc))).collect();
    (region, block, args)
}

pub(crate) fn yield_op(ir: &mut Ir, block: hivm_ir::BlockId, values: Vec<Value>, loc: Attribute) {
    let name = ir.sym("linalg.yield");
    let mut st = OperationState::new(name, loc);
    st.operands = values;
    let y = ir.create_op(st);
    ir.append_op(block, y);
}

fn parse_reduce(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    // `{ arith.addf {attrs} }`: the body is that op on (init, inputs...).
    let payload = parse_short_form(p)?;
    let (ins, outs) = parse_ins_outs(p, r)?;
    parse_dims(p, r, "dimensions")?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    let region = match payload {
        Some(pl) => {
            let inits = outs.len();
            let (ir_ref, outs_c) = (&*p.ir, outs.clone());
            let init_types: Vec<Type> = outs_c.iter().map(|v| element_or_self(ir_ref, ir_ref.value_type(*v))).collect();
            build_payload_body(p, r.loc, &all, pl, |args| {
                let mut operands: Vec<Value> = args[args.len() - inits..].to_vec();
                operands.extend(&args[..args.len() - inits]);
                (operands, init_types.clone())
            })
        }
        None => parse_long_form(p)?,
    };
    r.regions.push(region);
    r.result_types = tensor_results(p, &outs);
    r.operands = all;
    Ok(())
}

/// The reduction body when it is one op on (init, inputs...) whose result
/// is yielded (MLIR's `findPayloadOp` with the init first).
fn short_form_payload(ir: &Ir, op: OpId) -> Option<OpId> {
    let (payload, args) = single_payload(ir, op)?;
    let operands = ir.operands(payload);
    if operands.is_empty() || operands.len() != args.len() {
        return None;
    }
    if *operands.last()? != args[0] {
        return None;
    }
    operands.iter().zip(&args[1..]).all(|(o, a)| o == a).then_some(payload)
}

fn print_reduce(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let payload = short_form_payload(ir, op);
    if let Some(pl) = payload {
        print_short_form(p, pl);
    }
    let ops = ir.operands(op);
    let inits = ir.results(op).len().max(ops.len() / 2).min(ops.len());
    let (ins, outs) = ops.split_at(ops.len() - inits);
    print_ins_outs(p, ins, outs);
    print_dims(p, op, "dimensions");
    p.print_optional_attr_dict(op, &["dimensions"]);
    if payload.is_none() {
        print_long_form(p, op);
    }
}

/// A short form's op name and attributes.
type Payload = (String, Vec<(hivm_ir::Sym, Attribute)>);

/// `{ op.name {attrs} }`, the short form of a body that is one payload op.
fn parse_short_form(p: &mut Parser<'_>) -> PResult<Option<Payload>> {
    if !p.consume_if(Tok::LBrace) {
        return Ok(None);
    }
    let pos = p.pos();
    let name = p.parse_keyword("operation name")?.to_string();
    if !name.contains('.') || p.ir.registry.lookup(&name).is_none() {
        return p.error_at(pos, format!("custom op '{name}' is unknown"));
    }
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    p.expect(Tok::RBrace, "'}'")?;
    Ok(Some((name, attrs)))
}

/// Builds the body of a short form: `name` applied to `operands` (block
/// arguments), its results yielded. Arguments get unknown locations and the
/// ops the op's, as MLIR does.
fn build_payload_body(
    p: &mut Parser<'_>,
    loc: Attribute,
    all: &[Value],
    payload: Payload,
    pick: impl Fn(&[Value]) -> (Vec<Value>, Vec<Type>),
) -> RegionId {
    let (name, attrs) = payload;
    let unknown = p.ir.unknown_loc();
    let (region, block, args) = body_block(p.ir, all, unknown);
    let (operands, result_types) = pick(&args);
    let sym = p.ir.sym(&name);
    let mut st = OperationState::new(sym, loc);
    st.result_types = result_types;
    st.operands = operands;
    let inherent = p.ir.registry.lookup(&name).map(|d| p.ir.registry.def(d).inherent_attrs).unwrap_or(&[]);
    let (props, rest): (Vec<_>, Vec<_>) = attrs.into_iter().partition(|(k, _)| inherent.contains(&p.ir.sym_str(*k)));
    st.properties = Some(p.ir.dict_attr(props));
    st.attrs = rest;
    let op = p.ir.create_op(st);
    p.ir.append_op(block, op);
    let results = p.ir.results(op).to_vec();
    yield_op(p.ir, block, results, loc);
    region
}

/// `(%a: T, ...) { ... }`: a body with its arguments written before it.
fn parse_long_form(p: &mut Parser<'_>) -> PResult<RegionId> {
    let mut args = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "argument list", &mut |p| {
        args.push(p.parse_region_arg()?);
        Ok(())
    })?;
    let args = crate::util::locate_args(p, args);
    p.parse_region(&args, false)
}

/// Prints ` { op.name {attrs} }`, leaving out a `fastmath<none>`.
fn print_short_form(p: &mut Printer<'_>, payload: OpId) {
    let ir = p.ir;
    p.push(" { ");
    p.push(ir.op_name(payload));
    let elided: Vec<&str> = ir
        .attr_names(payload)
        .into_iter()
        .filter(|k| ir.get_attr(payload, k).and_then(|a| crate::util::opaque_arg(ir, a, "fastmath")) == Some("none"))
        .take(1)
        .collect();
    p.print_optional_attr_dict(payload, &elided);
    p.push(" }");
}

/// Prints the long form's `\n(%a: T, ...) { ... }`, one level deeper.
fn print_long_form(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let Some(&r) = ir.regions(op).first() else { return };
    p.indent_by(1);
    p.print_newline();
    p.push("(");
    if let Some(&b) = ir.region_blocks(r).first() {
        for (i, a) in ir.block_args(b).iter().enumerate() {
            if i > 0 {
                p.push(", ");
            }
            p.print_value(*a);
            p.push(": ");
            p.print_type(ir.value_type(*a));
            if p.options.debuginfo {
                p.print_arg_loc(ir.block_arg_loc(*a).unwrap_or(ir.unknown_loc()));
            }
        }
    }
    p.push(") ");
    p.print_region(r, false, true);
    p.indent_by(-1);
}

// ----- linalg.map -----

fn parse_map(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let payload = parse_short_form(p)?;
    let (ins, outs) = parse_ins_outs(p, r)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    let region = match payload {
        Some(pl) => {
            let (n_ins, init_ty) = (ins.len(), outs.first().map(|v| element_or_self(p.ir, p.ir.value_type(*v))));
            build_payload_body(p, r.loc, &all, pl, |args| {
                (args[..n_ins.min(args.len())].to_vec(), init_ty.into_iter().collect())
            })
        }
        None => parse_long_form(p)?,
    };
    r.regions.push(region);
    r.result_types = tensor_results(p, &outs);
    r.operands = all;
    Ok(())
}

/// The map body when it is one op on the inputs, in order.
fn map_payload(ir: &Ir, op: OpId) -> Option<OpId> {
    let (payload, args) = single_payload(ir, op)?;
    let operands = ir.operands(payload);
    let inputs = args.len().checked_sub(1)?;
    (!operands.is_empty() && operands == &args[..inputs]).then_some(payload)
}

fn print_map(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let payload = map_payload(ir, op);
    if let Some(pl) = payload {
        print_short_form(p, pl);
    }
    let ops = ir.operands(op);
    let (ins, outs) = ops.split_at(ops.len().saturating_sub(1));
    print_ins_outs(p, ins, outs);
    p.print_optional_attr_dict(op, &[]);
    if payload.is_none() {
        print_long_form(p, op);
    }
}

// ----- linalg.matmul -----

/// The default maps of a matmul-like op, as (number of dims, results):
/// `linalg.matmul` C[m, n] += A[m, k] * B[k, n] over (m, n, k);
/// `linalg.batch_matmul` the same with a leading batch dimension.
fn default_maps(name: &str) -> (u32, [&'static [u32]; 3]) {
    match name {
        "linalg.batch_matmul" => (4, [&[0, 1, 3], &[0, 3, 2], &[0, 1, 2]]),
        // C[m, n] += A[b, m, k] * B[b, k, n] over (b, m, n, k).
        "linalg.batch_reduce_matmul" => (4, [&[0, 1, 3], &[0, 3, 2], &[1, 2]]),
        _ => (3, [&[0, 2], &[2, 1], &[0, 1]]),
    }
}

fn matmul_maps(ir: &mut Ir, name: &str) -> Attribute {
    use hivm_ir::affine::{AffineExpr, AffineMap};
    let (dims, results) = default_maps(name);
    let maps: Vec<Attribute> = results
        .iter()
        .map(|r| {
            let m =
                AffineMap { num_dims: dims, num_symbols: 0, results: r.iter().map(|d| AffineExpr::Dim(*d)).collect() };
            ir.attr(AttrData::AffineMap(m))
        })
        .collect();
    ir.attr(AttrData::Array(maps))
}

/// The op converting a scalar of type `from` to `to` under linalg's
/// `cast_signed` / `cast_unsigned`, as MLIR's `convertScalarToDtype`
/// chooses it: none when the types agree or no conversion applies (same
/// widths, or a target that is neither an integer nor a float).
pub(crate) fn cast_op(ir: &Ir, from: Type, to: Type, unsigned: bool) -> Option<&'static str> {
    use hivm_ir::TypeData::{Float, Index, Integer};
    if from == to {
        return None;
    }
    let pick = |u: &'static str, s: &'static str| Some(if unsigned { u } else { s });
    match (ir.type_data(from), ir.type_data(to)) {
        (Float(_), Integer { .. }) => pick("arith.fptoui", "arith.fptosi"),
        (Index, Integer { .. }) => Some("arith.index_cast"),
        (Integer { width: f, .. }, Integer { width: t, .. }) => match t.cmp(f) {
            std::cmp::Ordering::Greater => pick("arith.extui", "arith.extsi"),
            std::cmp::Ordering::Less => Some("arith.trunci"),
            std::cmp::Ordering::Equal => None,
        },
        (Integer { .. }, Float(_)) => pick("arith.uitofp", "arith.sitofp"),
        (Float(f), Float(t)) => match t.bit_width().cmp(&f.bit_width()) {
            std::cmp::Ordering::Greater => Some("arith.extf"),
            std::cmp::Ordering::Less => Some("arith.truncf"),
            std::cmp::Ordering::Equal => None,
        },
        _ => None,
    }
}

fn parse_matmul(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.ir.sym_str(r.name).to_string();
    if p.parse_optional_keyword("indexing_maps") {
        p.expect(Tok::Equal, "'='")?;
        let maps = p.parse_attribute(None)?;
        if super::interface::maps_of(p.ir, maps).is_none() {
            return p.op_error_at(p.pos(), "element of indexing_maps array is not an affine_map");
        }
        push_attr(p, r, "indexing_maps", maps);
    } else if name == "linalg.contract" {
        return p.op_error_at(p.pos(), "expected 'indexing_maps' attribute");
    }
    let start = p.pos();
    let (ins, outs) = parse_ins_outs(p, r)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    if ins.len() != 2 || outs.len() != 1 {
        return p.error(format!(
            "custom op '{name}' [parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got {}",
            ins.len() + outs.len()
        ));
    }
    let key = p.ir.sym("indexing_maps");
    // LLVM 19's transposed matmuls fix their maps and store none.
    let fixed_maps = name.starts_with("linalg.matmul_transpose_");
    if !fixed_maps && !r.attrs.iter().any(|(k, _)| *k == key) {
        let maps = matmul_maps(p.ir, &name);
        r.attrs.push((key, maps));
    }
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    // The body C += A * B, with A and B cast to C's element type; MLIR
    // builds named-op bodies with unknown locations throughout.
    let loc = p.ir.unknown_loc();
    let (region, block, args) = body_block(p.ir, &all, loc);
    let built = {
        let mut b = super::elementwise::Body::new(p.ir, &name, block, loc, &r.attrs);
        // Upstream's batch_reduce_matmul stores `cast` but builds its body
        // with signed casts regardless.
        let unsigned = b.unsigned_cast() && name != "linalg.batch_reduce_matmul";
        let acc = b.ir.value_type(args[2]);
        let (x, y) = (b.cast(args[0], acc, unsigned), b.cast(args[1], acc, unsigned));
        super::elementwise::binary_fn(&mut b, "mul", x, y)
            .and_then(|prod| super::elementwise::binary_fn(&mut b, "add", args[2], prod))
    };
    let sum = match built {
        Ok(v) => v,
        Err(e) => return p.op_error_at(start, e),
    };
    yield_op(p.ir, block, vec![sum], loc);
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[2, 1]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = all;
    Ok(())
}

fn print_matmul(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    // Maps other than the default are printed before the operands.
    let (dims, want) = default_maps(ir.op_name(op));
    let always = ir.op_name(op) == "linalg.contract";
    let default = !always
        && match ir.get_attr(op, "indexing_maps").map(|a| ir.attr_data(a)) {
            Some(AttrData::Array(maps)) => {
                maps.len() == 3
                    && maps.iter().zip(want).all(|(m, w)| {
                        matches!(ir.attr_data(*m), AttrData::AffineMap(am) if am.num_dims == dims && am.num_symbols == 0
                        && am.results == w.iter().map(|d| hivm_ir::affine::AffineExpr::Dim(*d)).collect::<Vec<_>>())
                    })
            }
            _ => true,
        };
    if !default && let Some(a) = ir.get_attr(op, "indexing_maps") {
        p.push(" indexing_maps = ");
        p.print_attr(a, Elide::Never);
    }
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "linalg.memoized_indexing_maps", "indexing_maps"]);
    let (ins, outs) = (segment(ir, op, 0), segment(ir, op, 1));
    print_ins_outs(p, ins, outs);
    print_results(p, op);
}

/// `transpose` / `broadcast`: `ins(%in : A) outs(%init : B) kw = [...]`,
/// with the body `linalg.yield %in` built implicitly.
fn parse_permuting(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let kw = if p.ir.sym_str(r.name) == "linalg.transpose" { "permutation" } else { "dimensions" };
    let (ins, outs) = parse_ins_outs(p, r)?;
    parse_dims(p, r, kw)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    // MLIR gives each body argument its operand's location, the yield the op's.
    let unknown = p.ir.unknown_loc();
    let (region, block, args) = body_block(p.ir, &all, unknown);
    for (a, v) in args.iter().zip(&all) {
        let loc = p.ir.value_loc(*v).unwrap_or(unknown);
        p.ir.set_block_arg_loc(*a, loc);
    }
    yield_op(p.ir, block, args.first().copied().into_iter().collect(), r.loc);
    r.regions.push(region);
    r.result_types = tensor_results(p, &outs);
    r.operands = all;
    Ok(())
}

fn print_permuting(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let kw = if ir.op_name(op) == "linalg.transpose" { "permutation" } else { "dimensions" };
    let ops = ir.operands(op);
    let (ins, outs) = ops.split_at(ops.len().saturating_sub(1));
    print_ins_outs(p, ins, outs);
    print_dims(p, op, kw);
    p.print_optional_attr_dict(op, &[kw]);
}

fn verify_named(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    if !has_body(ir, op) {
        return Err("expected a region with a body block".into());
    }
    let name = ir.op_name(op);
    let kw = match name {
        "linalg.transpose" => Some("permutation"),
        "linalg.broadcast" | "linalg.reduce" => Some("dimensions"),
        _ => None,
    };
    if let Some(kw) = kw
        && !matches!(ir.get_attr(op, kw).map(|a| ir.attr_data(a)), Some(AttrData::DenseArray { .. }))
    {
        return Err(format!("requires attribute '{kw}'").into());
    }
    if name == "linalg.transpose"
        && let (Some(&input), Some(&init)) = (ops.first(), ops.get(1))
    {
        let perm = crate::util::i64_array(ir, op, "permutation");
        let (ri, ro) = (ir.type_data(ir.value_type(input)).rank(), ir.type_data(ir.value_type(init)).rank());
        let mut seen = vec![false; ri];
        let is_perm = perm.len() == ri
            && perm.iter().all(|d| {
                usize::try_from(*d).ok().and_then(|d| seen.get_mut(d)).is_some_and(|s| !std::mem::replace(s, true))
            });
        if !is_perm {
            return Err("permutation is not valid".into());
        }
        if ri != ro {
            return Err(format!("input rank {ri} does not match init rank {ro}").into());
        }
    }
    let inits = if ir.op_name(op) == "linalg.reduce" { ops.len() / 2 } else { 1 };
    if ops.len() < 2 * inits || inits == 0 {
        return Err("expected inputs and inits".into());
    }
    verify_results(ir, op, &ops[ops.len() - inits..])
}

fn verify_map(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    if !has_body(ir, op) {
        return Err("expected a region with a body block".into());
    }
    if ops.is_empty() {
        return Err("expected an init".into());
    }
    verify_results(ir, op, &ops[ops.len() - 1..])
}

fn verify_matmul(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 2)?;
    if !has_body(ir, op) {
        return Err("expected a region with a body block".into());
    }
    if segment(ir, op, 0).len() != 2 || segment(ir, op, 1).len() != 1 {
        return Err("expected two inputs and one init".into());
    }
    if ir.op_name(op) == "linalg.contract" {
        return super::interface::verify_contract(ir, op, &matmul_family_maps(ir, op));
    }
    verify_results(ir, op, segment(ir, op, 1))
}

/// The maps a matmul-family op stores, else its defaults.
pub(crate) fn matmul_family_maps(ir: &Ir, op: OpId) -> Vec<hivm_ir::affine::AffineMap> {
    if let Some(maps) = ir.get_attr(op, "indexing_maps").and_then(|a| super::interface::maps_of(ir, a)) {
        return maps;
    }
    let (dims, results) = default_maps(ir.op_name(op));
    let map = |r: &[u32]| hivm_ir::affine::AffineMap {
        num_dims: dims,
        num_symbols: 0,
        results: r.iter().map(|d| hivm_ir::affine::AffineExpr::Dim(*d)).collect(),
    };
    results.iter().map(|r| map(r)).collect()
}

/// What MLIR checks once the body is verified: the destination-style and
/// structured-op interfaces, then (but for `linalg.contract`, which checks
/// its maps itself) the contraction interface.
fn verify_matmul_regions(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    super::named::verify_terminator(ir, op)?;
    let maps = matmul_family_maps(ir, op);
    let iters: Vec<bool> = match ir.op_name(op) {
        "linalg.contract" => maps.last().map(super::interface::iterators_from_output).unwrap_or_default(),
        "linalg.batch_matmul" => vec![true, true, true, false],
        "linalg.batch_reduce_matmul" => vec![false, true, true, false],
        _ => vec![true, true, false],
    };
    super::interface::verify_structured(ir, op, &maps, iters.len())?;
    if ir.op_name(op) != "linalg.contract" {
        super::interface::verify_contraction(ir, op, &maps, &iters, 2, 1)?;
    }
    Ok(())
}

crate::util::namer!(transposed_name, "transposed");
crate::util::namer!(broadcasted_name, "broadcasted");
crate::util::namer!(reduced_name, "reduced");
crate::util::namer!(mapped_name, "mapped");

pub fn defs() -> Vec<hivm_ir::OpDef> {
    use hivm_ir::{OpDef, Traits};
    vec![
        OpDef::new("linalg.generic")
            .inherent(&["doc", "indexing_maps", "iterator_types", "library_call", "operandSegmentSizes"])
            .assembly(parse_generic, print_generic)
            .verifier(verify_generic)
            .arg_names(generic_arg_names),
        OpDef::new("linalg.reduce")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["dimensions"])
            .assembly(parse_reduce, print_reduce)
            .verifier(verify_named)
            .names(reduced_name)
            .arg_names(reduce_arg_names),
        OpDef::new("linalg.map")
            .traits(Traits::SINGLE_BLOCK)
            .assembly(parse_map, print_map)
            .verifier(verify_map)
            .names(mapped_name)
            .arg_names(map_arg_names),
        OpDef::new("linalg.matmul")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["cast", "indexing_maps", "operandSegmentSizes"])
            .assembly(parse_matmul, print_matmul)
            .verifier(verify_matmul)
            .region_verifier(verify_matmul_regions),
        OpDef::new("linalg.batch_matmul")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["cast", "indexing_maps", "operandSegmentSizes"])
            .assembly(parse_matmul, print_matmul)
            .verifier(verify_matmul)
            .region_verifier(verify_matmul_regions),
        OpDef::new("linalg.batch_reduce_matmul")
            .arity((0, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["cast", "indexing_maps", "operandSegmentSizes"])
            .assembly(parse_matmul, print_matmul)
            .verifier(verify_matmul)
            .region_verifier(verify_matmul_regions),
        OpDef::new("linalg.contract")
            .arity((0, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["cast", "indexing_maps", "operandSegmentSizes"])
            .assembly(parse_matmul, print_matmul)
            .verifier(verify_matmul)
            .region_verifier(verify_matmul_regions),
        OpDef::new("linalg.matmul_transpose_a")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["cast", "operandSegmentSizes"])
            .assembly(parse_matmul, print_matmul)
            .verifier(verify_matmul),
        OpDef::new("linalg.matmul_transpose_b")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["cast", "operandSegmentSizes"])
            .assembly(parse_matmul, print_matmul)
            .verifier(verify_matmul),
        OpDef::new("linalg.transpose")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["permutation"])
            .assembly(parse_permuting, print_permuting)
            .verifier(verify_named)
            .names(transposed_name),
        OpDef::new("linalg.broadcast")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["dimensions"])
            .assembly(parse_permuting, print_permuting)
            .verifier(verify_named)
            .names(broadcasted_name),
    ]
}

//! `vector.contract` and `vector.outerproduct`, whose syntax is upstream's
//! hand-written one.
//!
//! `vector.contract {indexing_maps = [...], iterator_types = ["parallel",
//! ...], kind = #vector.kind<add>} %lhs, %rhs, %acc {attrs} : L, R into T`:
//! the leading dictionary holds the contraction's traits, its iterator types
//! written as strings (they are `#vector.iterator_type<...>` attributes,
//! which the generic form shows); the kind defaults to `add`.

use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{AttrData, Attribute, Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::{opaque_arg, opaque_attr, push_attr, type_str};

pub(super) const ITERATOR_TYPES: &[&str] = &["parallel", "reduction"];

/// The attributes the leading dictionary holds, in its (sorted) order.
const TRAIT_ATTRS: [&str; 3] = ["indexing_maps", "iterator_types", "kind"];

fn parse_contract(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let dict_pos = p.pos();
    let dict = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(dict), AttrData::Dictionary(_)) {
        return p.op_error_at(dict_pos, "invalid kind of attribute specified");
    }
    let mut operands = vec![p.parse_operand()?];
    for _ in 0..2 {
        p.expect(Tok::Comma, "','")?;
        operands.push(p.parse_operand()?);
    }
    // Two trailing mask operands, which MLIR 22 still reads (and then
    // rejects in the verifier: masking is `vector.mask`'s business).
    let mut masks = Vec::new();
    while p.consume_if(Tok::Comma) {
        masks.push(p.parse_operand()?);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let types_pos = p.pos();
    let types = p.parse_colon_type_list()?;
    p.expect_keyword("into")?;
    let res = p.parse_type()?;
    if types.len() != 2 {
        return p.op_error_at(types_pos, format!("expected 2 operand types, but found {}", types.len()));
    }
    for (u, t) in operands.iter().zip([types[0], types[1], res]) {
        let v = p.resolve_operand(u, t)?;
        r.operands.push(v);
    }
    r.result_types.push(res);
    // The dictionary's entries become the op's attributes, the iterator
    // types turned from strings into their enum attributes.
    let entries = p.ir.dict_entries(dict).to_vec();
    let it_key = p.ir.sym("iterator_types");
    let Some(&(_, its)) = entries.iter().find(|(k, _)| *k == it_key) else {
        return p.op_error_at(dict_pos, "expected \"iterator_types\" array attribute");
    };
    let AttrData::Array(items) = p.ir.attr_data(its).clone() else {
        return p.op_error_at(dict_pos, "expected \"iterator_types\" array attribute");
    };
    let mut converted = Vec::new();
    for a in items {
        let name = match p.ir.attr_data(a) {
            AttrData::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
            _ => hivm_ir::printer::attr_to_string(p.ir, a),
        };
        if !ITERATOR_TYPES.contains(&name.as_str()) {
            return p.op_error_at(dict_pos, format!("unexpected iterator_type ({name})"));
        }
        converted.push(opaque_attr(p.ir, "vector", &format!("iterator_type<{name}>")));
    }
    for (k, a) in entries {
        let a = if k == it_key { p.ir.array_attr(converted.clone()) } else { a };
        if !r.attrs.iter().any(|(x, _)| *x == k) {
            r.attrs.push((k, a));
        }
    }
    let kind_key = p.ir.sym("kind");
    if !r.attrs.iter().any(|(k, _)| *k == kind_key) {
        let add = opaque_attr(p.ir, "vector", "kind<add>");
        push_attr(p, r, "kind", add);
    }
    if masks.is_empty() {
        return Ok(());
    }
    if masks.len() != 2 {
        return p.op_error_at(r.pos, "expected zero or exactly 2 vector mask operands");
    }
    let i1 = p.ir.int_type(1);
    for (u, t) in masks.iter().zip([types[0], types[1]]) {
        let mask = match p.ir.type_data(t).clone() {
            TypeData::Vector { shape, scalable, .. } => {
                p.ir.ty(TypeData::Vector { shape, scalable, elem: i1, encoding: None })
            }
            _ => return p.op_error_at(types_pos, "expected vector operand types with mask operands"),
        };
        let v = p.resolve_operand(u, mask)?;
        r.operands.push(v);
    }
    Ok(())
}

fn print_contract(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" {");
    let mut first = true;
    for name in TRAIT_ATTRS {
        let Some(a) = ir.get_attr(op, name) else { continue };
        if !first {
            p.push(", ");
        }
        first = false;
        p.push(name);
        p.push(" = ");
        match (name, ir.attr_data(a)) {
            ("iterator_types", AttrData::Array(items)) => {
                let names: Vec<String> = items
                    .iter()
                    .map(|i| format!("\"{}\"", opaque_arg(ir, *i, "iterator_type").unwrap_or("?")))
                    .collect();
                p.push(&format!("[{}]", names.join(", ")));
            }
            _ => p.print_attr(a, Elide::Never),
        }
    }
    p.push("} ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, &TRAIT_ATTRS);
    p.push(" : ");
    for (i, v) in ir.operands(op).iter().take(2).enumerate() {
        if i > 0 {
            p.push(", ");
        }
        p.print_type(ir.value_type(*v));
    }
    p.push(" into ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn maps(ir: &Ir, op: OpId) -> Option<Vec<AffineMap>> {
    let AttrData::Array(items) = ir.attr_data(ir.get_attr(op, "indexing_maps")?) else { return None };
    items
        .iter()
        .map(|a| match ir.attr_data(*a) {
            AttrData::AffineMap(m) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

/// The iterator types, `true` for a reduction.
fn reductions(ir: &Ir, op: OpId) -> Option<Vec<bool>> {
    let AttrData::Array(items) = ir.attr_data(ir.get_attr(op, "iterator_types")?) else { return None };
    items.iter().map(|a| opaque_arg(ir, *a, "iterator_type").map(|t| t == "reduction")).collect()
}

fn vector_shape(ir: &Ir, t: Type) -> Option<(&[i64], &[bool], Type)> {
    match ir.type_data(t) {
        TypeData::Vector { shape, scalable, elem, .. } => Some((shape, scalable, *elem)),
        _ => None,
    }
}

/// MLIR's `isSupportedCombiningKind`: which kinds apply to an element type.
pub(super) fn kind_supported(ir: &Ir, kind: &str, elem: Type) -> bool {
    let d = ir.type_data(elem);
    let int = matches!(d, TypeData::Integer { .. } | TypeData::Index);
    let float = matches!(d, TypeData::Float(_));
    match kind {
        "add" | "mul" => int || float,
        "minui" | "minsi" | "maxui" | "maxsi" | "and" | "or" | "xor" => int,
        _ => float,
    }
}

/// Pairs of (lhs dim, rhs dim) iterated together by iterators of one kind.
fn dim_pairs(maps: &[AffineMap], reds: &[bool], reduction: bool) -> Vec<(usize, usize)> {
    let pos = |m: &AffineMap, d: usize| m.results.iter().position(|e| *e == AffineExpr::Dim(d as u32));
    (0..reds.len())
        .filter(|d| reds[*d] == reduction)
        .filter_map(|d| Some((pos(&maps[0], d)?, pos(&maps[1], d)?)))
        .collect()
}

fn is_projected_permutation(m: &AffineMap) -> bool {
    let mut seen = vec![false; m.num_dims as usize];
    m.results.iter().all(|e| {
        matches!(e, AffineExpr::Dim(d)
            if seen.get_mut(*d as usize).is_some_and(|s| !std::mem::replace(s, true)))
    })
}

fn verify_contract(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for name in ["indexing_maps", "iterator_types"] {
        if ir.get_attr(op, name).is_none() {
            return Err(format!("requires attribute '{name}'").into());
        }
    }
    let Some(maps) = maps(ir, op) else {
        return Err("attribute 'indexing_maps' failed to satisfy constraint: array attribute".into());
    };
    let Some(reds) = reductions(ir, op) else {
        return Err("attribute 'iterator_types' failed to satisfy constraint: Iterator type should be an enum.".into());
    };
    let kind = ir.get_attr(op, "kind").and_then(|a| opaque_arg(ir, a, "kind")).unwrap_or("add");
    let ops = ir.operands(op);
    let (lt, rt, acc) = (ir.value_type(ops[0]), ir.value_type(ops[1]), ir.value_type(ops[2]));
    let res = ir.value_type(ir.result(op, 0));
    for (i, t) in [(0, lt), (1, rt)] {
        if !matches!(vector_shape(ir, t), Some((s, _, _)) if !s.is_empty()) {
            return Err(format!(
                "operand #{i} must be vector of any type values of non-zero rank, but got '{}'",
                type_str(ir, t)
            )
            .into());
        }
    }
    let (Some((lshape, _, lelem)), Some((rshape, _, relem))) = (vector_shape(ir, lt), vector_shape(ir, rt)) else {
        return Ok(());
    };
    let elem_of = |t: Type| vector_shape(ir, t).map_or(t, |(_, _, e)| e);
    if lelem != relem {
        return Err("failed to verify that lhs and rhs have same element type".into());
    }
    if elem_of(res) != elem_of(acc) {
        return Err("failed to verify that third operand acc and result have same element type".into());
    }
    if matches!(ir.type_data(lelem), TypeData::Integer { signedness, .. }
        if *signedness != hivm_ir::types::Signedness::Signless)
    {
        return Err("only supports signless integer types".into());
    }
    if maps.len() != 3 {
        return Err("expected an indexing map for each vector operand".into());
    }
    for (i, m) in maps.iter().enumerate() {
        if m.num_symbols != 0 {
            return Err(format!("expected indexing map {i} to have no symbols").into());
        }
        let rank = vector_shape(ir, ir.value_type(ops[i])).map_or(0, |(s, _, _)| s.len());
        if m.num_dims as usize != reds.len() {
            return Err(format!("expected indexing map {i} to have {} number of inputs", reds.len()).into());
        }
        if m.results.len() != rank {
            return Err(format!("expected indexing map {i} to have {rank} number of outputs").into());
        }
        if !is_projected_permutation(m) {
            return Err(format!("expected indexing map {i} to be a projected permutation of its inputs").into());
        }
    }
    let contracting = dim_pairs(&maps, &reds, true);
    let batch = dim_pairs(&maps, &reds, false);
    if contracting.is_empty() {
        return Err("expected at least one contracting dimension pair".into());
    }
    let same = |pairs: &[(usize, usize)]| pairs.iter().all(|(l, r)| lshape[*l] == rshape[*r]);
    if !same(&contracting) {
        return Err("invalid contracting dimension map".into());
    }
    if !same(&batch) {
        return Err("invalid batch dimension map".into());
    }
    verify_output_shape(ir, &maps, (lt, rt), acc, res, &contracting, &batch)?;
    if !kind_supported(ir, kind, elem_of(res)) {
        return Err("unsupported contraction type".into());
    }
    Ok(())
}

/// The result (and accumulator) holds the lhs's free and batch dimensions
/// then the rhs's free ones: a scalar when there are none.
fn verify_output_shape(
    ir: &Ir,
    maps: &[AffineMap],
    (lt, rt): (Type, Type),
    acc: Type,
    res: Type,
    contracting: &[(usize, usize)],
    batch: &[(usize, usize)],
) -> Result<(), VerifyError> {
    let (Some((lshape, lsc, _)), Some((rshape, rsc, _))) = (vector_shape(ir, lt), vector_shape(ir, rt)) else {
        return Ok(());
    };
    let free_lhs = (0..lshape.len()).filter(|i| !contracting.iter().any(|(l, _)| l == i)).count();
    let free_rhs = (0..rshape.len()).filter(|i| !contracting.iter().chain(batch).any(|(_, r)| r == i)).count();
    let invalid = || -> VerifyError { "invalid accumulator/result vector shape".into() };
    if free_lhs + free_rhs == 0 {
        if vector_shape(ir, res).is_some() || vector_shape(ir, acc).is_some() {
            return Err(invalid());
        }
        return Ok(());
    }
    let (Some((_, _, res_elem)), Some(_)) = (vector_shape(ir, res), vector_shape(ir, acc)) else {
        return Err(invalid());
    };
    let n = maps[0].num_dims as usize;
    let mut used = vec![false; n];
    for m in &maps[..2] {
        for e in &m.results {
            if let AffineExpr::Dim(d) = e {
                used[*d as usize] = true;
            }
        }
    }
    if used.iter().any(|u| !u) {
        return Err("expected all dimensions to be either a LHS or a RHS dimension".into());
    }
    // Each iterator's extent (and scalability), from the first operand using it.
    let mut extents: Vec<Option<(i64, bool)>> = vec![None; n];
    for (shape, sc, m) in [(lshape, lsc, &maps[0]), (rshape, rsc, &maps[1])] {
        for (i, e) in m.results.iter().enumerate() {
            if let AffineExpr::Dim(d) = e
                && extents[*d as usize].is_none()
            {
                extents[*d as usize] = Some((shape[i], sc.get(i).copied().unwrap_or(false)));
            }
        }
    }
    let mut shape = Vec::new();
    for e in &maps[2].results {
        let AffineExpr::Dim(d) = e else { return Err(invalid()) };
        let Some((size, _)) = extents[*d as usize] else { return Err(invalid()) };
        shape.push(size);
    }
    let Some((_, res_sc, _)) = vector_shape(ir, res) else { return Err(invalid()) };
    let expected = TypeData::Vector { shape: shape.clone(), scalable: res_sc.to_vec(), elem: res_elem, encoding: None };
    if *ir.type_data(res) != expected || *ir.type_data(acc) != expected {
        let text = hivm_ir::printer::vector_type_string(ir, &shape, res_sc, res_elem);
        return Err(format!("invalid accumulator/result vector shape, expected: '{text}'").into());
    }
    Ok(())
}

/// The mask `vector.mask` must give a contraction: one i1 per iterator,
/// sized (and scalable) as the operand dimension it iterates (its shape
/// and scalable dims).
pub(super) fn expected_mask(ir: &Ir, op: OpId) -> Option<(Vec<i64>, Vec<bool>)> {
    let maps = maps(ir, op)?;
    let n = maps.first()?.num_dims as usize;
    let mut shape = vec![None; n];
    let mut scalable = vec![false; n];
    for (i, m) in maps.iter().take(2).enumerate() {
        let (s, sc, _) = vector_shape(ir, ir.value_type(*ir.operands(op).get(i)?))?;
        for (k, e) in m.results.iter().enumerate() {
            let AffineExpr::Dim(d) = e else { return None };
            *shape.get_mut(*d as usize)? = Some(*s.get(k)?);
            *scalable.get_mut(*d as usize)? = sc.get(k).copied().unwrap_or(false);
        }
    }
    Some((shape.into_iter().collect::<Option<_>>()?, scalable))
}

// ----- outerproduct -----
// `vector.outerproduct %lhs, %rhs (, %acc)? {attrs} : L, R`: the result is
// `L x R` (or `L` when the rhs is a scalar); upstream prints the attribute
// dictionary, kind included, only when there is an accumulator.

fn parse_outerproduct(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let operands = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let lt = p.parse_colon_type()?;
    p.expect(Tok::Comma, "','")?;
    let rt = p.parse_type()?;
    if operands.len() < 2 {
        return p.op_error_at(r.pos, "expected at least 2 operands");
    }
    let Some((lshape, lsc, elem)) = vector_shape(p.ir, lt).map(|(s, sc, e)| (s.to_vec(), sc.to_vec(), e)) else {
        return p.op_error_at(r.pos, "expected vector type for operand #1");
    };
    let first = |v: &[i64]| v.first().copied().unwrap_or(0);
    let first_sc = |v: &[bool]| v.first().copied().unwrap_or(false);
    let res = match vector_shape(p.ir, rt).map(|(s, sc, _)| (s.to_vec(), sc.to_vec())) {
        Some((rshape, rsc)) => TypeData::Vector {
            shape: vec![first(&lshape), first(&rshape)],
            scalable: vec![first_sc(&lsc), first_sc(&rsc)],
            elem,
            encoding: None,
        },
        None => TypeData::Vector { shape: vec![first(&lshape)], scalable: vec![first_sc(&lsc)], elem, encoding: None },
    };
    let res = p.ir.ty(res);
    let kind_key = p.ir.sym("kind");
    if !r.attrs.iter().any(|(k, _)| *k == kind_key) {
        let add = opaque_attr(p.ir, "vector", "kind<add>");
        push_attr(p, r, "kind", add);
    }
    for (u, t) in operands.iter().zip([lt, rt, res]) {
        let v = p.resolve_operand(u, t)?;
        r.operands.push(v);
    }
    if operands.len() > 3 {
        // The verifier reports the count; types for the extra operands are
        // those of the accumulator.
        for u in &operands[3..] {
            let v = p.resolve_operand(u, res)?;
            r.operands.push(v);
        }
    }
    r.result_types.push(res);
    Ok(())
}

fn print_outerproduct(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    if ir.operands(op).len() > 2 {
        p.print_optional_attr_dict(op, &[]);
    }
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(", ");
    p.print_type(ir.value_type(ir.operand(op, 1)));
}

fn verify_outerproduct(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    let (lt, rt) = (ir.value_type(ops[0]), ir.value_type(ops[1]));
    let res = ir.value_type(ir.result(op, 0));
    let kind = match ir.get_attr(op, "kind") {
        None => return Err("requires attribute 'kind'".into()),
        Some(a) => match opaque_arg(ir, a, "kind") {
            Some(k) => k,
            None => {
                return Err("attribute 'kind' failed to satisfy constraint: Kind of combining function for \
                            contractions and reductions"
                    .into());
            }
        },
    };
    let Some((lshape, lsc, lelem)) = vector_shape(ir, lt).filter(|(s, _, _)| !s.is_empty()) else {
        let t = type_str(ir, lt);
        return Err(format!("operand #0 must be vector of any type values of non-zero rank, but got '{t}'").into());
    };
    let Some((rshape, _, relem)) = vector_shape(ir, res).filter(|(s, _, _)| !s.is_empty()) else {
        let t = type_str(ir, res);
        return Err(format!("result #0 must be vector of any type values of non-zero rank, but got '{t}'").into());
    };
    let rhs_elem = vector_shape(ir, rt).map_or(rt, |(_, _, e)| e);
    if lelem != relem {
        return Err("failed to verify that lhs operand and result have same element type".into());
    }
    if rhs_elem != relem {
        return Err("failed to verify that rhs operand and result have same element type".into());
    }
    if lshape.len() != 1 {
        return Err("expected 1-d vector for operand #1".into());
    }
    if let Some((vshape, vsc, _)) = vector_shape(ir, rt) {
        if vshape.len() != 1 {
            return Err("expected 1-d vector for operand #2".into());
        }
        if rshape.len() != 2 {
            return Err("expected 2-d vector result".into());
        }
        if lshape[0] != rshape[0] {
            return Err("expected #1 operand dim to match result dim #1".into());
        }
        if vshape[0] != rshape[1] {
            return Err("expected #2 operand dim to match result dim #2".into());
        }
        if lsc.first() == Some(&true) && vsc.first() != Some(&true) {
            return Err("expected either both or only #2 operand dim to be scalable".into());
        }
    } else {
        if rshape.len() != 1 {
            return Err("expected 1-d vector result".into());
        }
        if lshape[0] != rshape[0] {
            return Err("expected #1 operand dim to match result dim #1".into());
        }
    }
    if let Some(&acc) = ops.get(2)
        && ir.value_type(acc) != res
    {
        return Err("expected operand #3 of same type as result type".into());
    }
    if !kind_supported(ir, kind, relem) {
        return Err("unsupported outerproduct type".into());
    }
    Ok(())
}

pub(super) fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("vector.contract")
            .arity((3, Some(3)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .inherent(&TRAIT_ATTRS)
            .defaults(&["kind"], kind_default)
            .assembly(parse_contract, print_contract)
            .verifier(verify_contract),
        OpDef::new("vector.outerproduct")
            .arity((2, Some(3)), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .inherent(&["kind"])
            .defaults(&["kind"], kind_default)
            .assembly(parse_outerproduct, print_outerproduct)
            .verifier(verify_outerproduct),
    ]
}

fn kind_default(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    vec![("kind", opaque_attr(ir, "vector", "kind<add>"))]
}

//! The `tensor` dialect subset.

mod gather;

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, TypeData};

use crate::memref::{
    SLICE_ATTRS, parse_dim, parse_reshape, parse_slice, print_dim, print_reshape, print_slice, print_slice_lists,
};
use crate::util::*;

use crate::util::namer;
use hivm_ir::opspec::{AttrKind, DYNAMIC_INDEX_LIST, Fixed, OpSpec, attr, one, opt_attr, var};
namer!(extracted_name, "extracted");
namer!(inserted_name, "inserted");
namer!(extracted_slice_name, "extracted_slice");
namer!(inserted_slice_name, "inserted_slice");
namer!(collapsed_name, "collapsed");
namer!(expanded_name, "expanded");
namer!(dim_name, "dim");
namer!(cast_name, "cast");
namer!(from_elements_name, "from_elements");
namer!(splat_name, "splat");

/// `tensor.from_elements %a, %b : tensor<2xf32>`: operands of the element type.
fn parse_from_elements(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ops_pos = p.pos();
    let ops = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let t = p.parse_colon_type()?;
    let Some(elem) = p.ir.type_data(t).element_type() else {
        return p.error_at(pos, "expected a ranked tensor type");
    };
    // Upstream resolves one operand per element while parsing.
    if let Some(shape) = p.ir.type_data(t).shape()
        && !shape.contains(&DYNAMIC)
    {
        let n: i64 = shape.iter().product();
        if n != ops.len() as i64 {
            return p.error_at(
                ops_pos,
                format!(
                    "custom op 'tensor.from_elements' number of operands and types do not match: got {} operands and {n} types",
                    ops.len()
                ),
            );
        }
    }
    resolve_all(p, &ops, elem, r)?;
    r.result_types.push(t);
    Ok(())
}

fn verify_from_elements(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let t = ir.value_type(ir.result(op, 0));
    let TypeData::RankedTensor { shape, elem, .. } = ir.type_data(t) else {
        return Err(format!(
            "result #0 must be statically shaped tensor of any type values, but got '{}'",
            type_str(ir, t)
        )
        .into());
    };
    if shape.contains(&DYNAMIC) {
        return Err(format!(
            "result #0 must be statically shaped tensor of any type values, but got '{}'",
            type_str(ir, t)
        )
        .into());
    }
    let n: i64 = shape.iter().product();
    if ir.operands(op).len() as i64 != n {
        return Err(format!(
            "number of operands and types do not match: got {} operands and {n} types",
            ir.operands(op).len()
        )
        .into());
    }
    if let Some(v) = ir.operands(op).iter().find(|v| ir.value_type(**v) != *elem) {
        return Err(format!(
            "failed to verify that operand types match result element type: '{}' vs '{}'",
            type_str(ir, ir.value_type(*v)),
            type_str(ir, *elem)
        )
        .into());
    }
    Ok(())
}

/// `tensor.splat %v[%d0, ...] : tensor<?x4xf32>`: one value, a size per dynamic dim.
fn parse_splat(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let v = p.parse_operand()?;
    let mut dyns = Vec::new();
    if p.is(Tok::LSquare) {
        p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "dynamic sizes", &mut |p| {
            dyns.push(p.parse_operand()?);
            Ok(())
        })?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let t = p.parse_colon_type()?;
    let Some(elem) = p.ir.type_data(t).element_type() else {
        return p.error_at(pos, "expected a ranked tensor type");
    };
    let vv = p.resolve_operand(&v, elem)?;
    r.operands.push(vv);
    let it = p.ir.index_type();
    resolve_all(p, &dyns, it, r)?;
    r.result_types.push(t);
    Ok(())
}

fn print_splat(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    let dyns = &ir.operands(op)[1..];
    if !dyns.is_empty() {
        p.push("[");
        p.print_values(dyns);
        p.push("]");
    }
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_splat(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let t = ir.value_type(ir.result(op, 0));
    let TypeData::RankedTensor { shape, .. } = ir.type_data(t) else {
        return Err(format!("result #0 must be ranked tensor of any type values, but got '{}'", type_str(ir, t)).into());
    };
    let dynamic = shape.iter().filter(|d| **d == DYNAMIC).count();
    if ir.operands(op).len() - 1 != dynamic {
        return Err(format!(
            "incorrect number of dynamic sizes, has {}, expected {dynamic}",
            ir.operands(op).len() - 1
        )
        .into());
    }
    Ok(())
}

fn parse_empty(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut dyns = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dynamic sizes", &mut |p| {
        dyns.push(p.parse_operand()?);
        Ok(())
    })?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let it = p.ir.index_type();
    resolve_all(p, &dyns, it, r)?;
    r.result_types.push(t);
    Ok(())
}

fn print_empty(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("(");
    p.print_values(ir.operands(op));
    p.push(")");
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_empty(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let t = ir.value_type(ir.result(op, 0));
    let TypeData::RankedTensor { shape, .. } = ir.type_data(t) else {
        return Err(format!("result #0 must be ranked tensor of any type values, but got '{}'", type_str(ir, t)).into());
    };
    if shape.iter().filter(|d| **d == DYNAMIC).count() != ir.operands(op).len() {
        let expected = shape.iter().filter(|d| **d == DYNAMIC).count();
        return Err(
            format!("incorrect number of dynamic sizes, has {}, expected {expected}", ir.operands(op).len()).into()
        );
    }
    Ok(())
}

fn parse_extract(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let t = p.parse_operand()?;
    let idx = parse_index_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ty = p.parse_colon_type()?;
    let Some(elem) = p.ir.type_data(ty).element_type() else { return p.error("expected tensor type") };
    let v = p.resolve_operand(&t, ty)?;
    r.operands.push(v);
    let it = p.ir.index_type();
    resolve_all(p, &idx, it, r)?;
    r.result_types.push(elem);
    Ok(())
}

fn print_extract(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    print_index_list(p, &ir.operands(op)[1..]);
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

fn parse_insert(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    p.expect_keyword("into")?;
    let d = p.parse_operand()?;
    let idx = parse_index_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ty = p.parse_colon_type()?;
    let Some(elem) = p.ir.type_data(ty).element_type() else { return p.error("expected tensor type") };
    let sv = p.resolve_operand(&s, elem)?;
    let dv = p.resolve_operand(&d, ty)?;
    r.operands = vec![sv, dv];
    let it = p.ir.index_type();
    resolve_all(p, &idx, it, r)?;
    r.result_types.push(ty);
    Ok(())
}

fn print_insert(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" into ");
    p.print_value(ir.operand(op, 1));
    print_index_list(p, &ir.operands(op)[2..]);
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 1)));
}

fn parse_insert_slice(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    p.expect_keyword("into")?;
    let d = p.parse_operand()?;
    let mut lists = Vec::new();
    let mut dyn_lists = Vec::new();
    for _ in 0..3 {
        let (st, dy) = parse_dynamic_index_list(p)?;
        lists.push(st);
        dyn_lists.push(dy);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src_t = p.parse_colon_type()?;
    p.expect_keyword("into")?;
    let dst_t = p.parse_type()?;
    let sv = p.resolve_operand(&s, src_t)?;
    let dv = p.resolve_operand(&d, dst_t)?;
    r.operands = vec![sv, dv];
    let it = p.ir.index_type();
    for l in &dyn_lists {
        resolve_all(p, l, it, r)?;
    }
    let seg = segment_attr(p.ir, &[1, 1, dyn_lists[0].len(), dyn_lists[1].len(), dyn_lists[2].len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    for (name, l) in ["static_offsets", "static_sizes", "static_strides"].iter().zip(&lists) {
        let a = i64_array_attr(p.ir, l);
        push_attr(p, r, name, a);
    }
    // The parallel form (inside `scf.forall.in_parallel`) has no result.
    if p.ir.sym_str(r.name) != "tensor.parallel_insert_slice" {
        r.result_types.push(dst_t);
    }
    Ok(())
}

fn verify_parallel_insert_slice(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 5)?;
    if ir.parent_op(op).is_none_or(|p| ir.op_name(p) != "scf.forall.in_parallel") {
        return Err("expected parent op to be 'scf.forall.in_parallel'".into());
    }
    Ok(())
}

fn print_insert_slice(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" into ");
    p.print_value(ir.operand(op, 1));
    print_slice_lists(p, op, 2);
    p.print_optional_attr_dict(op, SLICE_ATTRS);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" into ");
    p.print_type(ir.value_type(ir.operand(op, 1)));
}

fn rank_of(ir: &Ir, v: hivm_ir::Value) -> usize {
    ir.type_data(ir.value_type(v)).rank()
}

fn verify_extract_slice(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 4)?;
    let r = rank_of(ir, ir.operand(op, 0));
    verify_offset_size_stride(ir, op, 1, [r, r, r])?;
    verify_non_negative_sizes(ir, op)?;
    verify_tensor_slice_type(ir, op, ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)))?;
    crate::util::verify_slice_in_bounds(ir, op, ir.value_type(ir.operand(op, 0)))
}

fn verify_insert_slice(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 5)?;
    let r = rank_of(ir, ir.operand(op, 1));
    verify_offset_size_stride(ir, op, 2, [r, r, r])?;
    verify_non_negative_sizes(ir, op)?;
    verify_tensor_slice_type(ir, op, ir.value_type(ir.operand(op, 1)), ir.value_type(ir.operand(op, 0)))?;
    crate::util::verify_slice_in_bounds(ir, op, ir.value_type(ir.operand(op, 1)))
}

fn verify_extract(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let t = ir.value_type(ir.operand(op, 0));
    if ir.type_data(t).element_type() != Some(ir.value_type(ir.result(op, 0))) {
        return Err("failed to verify that result type matches element type of tensor".into());
    }
    if let Some(shape) = ir.type_data(t).shape()
        && shape.len() != ir.operands(op).len() - 1
    {
        return Err("incorrect number of indices for extract_element".into());
    }
    Ok(())
}

fn verify_insert(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let dest = ir.value_type(ir.operand(op, 1));
    if ir.value_type(ir.result(op, 0)) != dest {
        return Err("failed to verify that result type matches type of dest".into());
    }
    if ir.type_data(dest).element_type() != Some(ir.value_type(ir.operand(op, 0))) {
        return Err("failed to verify that scalar type matches element type of dest".into());
    }
    if let Some(shape) = ir.type_data(dest).shape()
        && shape.len() != ir.operands(op).len() - 2
    {
        return Err("incorrect number of indices".into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect::new(
        "tensor",
        vec![
            OpDef::new("tensor.empty")
                .arity((0, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_empty, print_empty)
                .verifier(verify_empty),
            OpDef::new("tensor.extract")
                .arity((1, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_extract, print_extract)
                .verifier(verify_extract)
                .names(extracted_name),
            OpDef::new("tensor.insert")
                .arity((2, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_insert, print_insert)
                .verifier(verify_insert)
                .names(inserted_name),
            OpDef::new("tensor.extract_slice")
                .traits(Traits::PURE)
                .inherent(SLICE_ATTRS)
                .assembly(parse_slice, print_slice)
                .verifier(verify_extract_slice)
                .names(extracted_slice_name),
            OpDef::new("tensor.insert_slice")
                .traits(Traits::PURE)
                .inherent(SLICE_ATTRS)
                .assembly(parse_insert_slice, print_insert_slice)
                .verifier(verify_insert_slice)
                .names(inserted_slice_name),
            OpDef::new("tensor.parallel_insert_slice")
                .inherent(SLICE_ATTRS)
                .assembly(parse_insert_slice, print_insert_slice)
                .verifier(verify_parallel_insert_slice),
            OpDef::new("tensor.collapse_shape")
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["reassociation"])
                .assembly(parse_reshape, print_reshape)
                .verifier(crate::util::verify_reshape)
                .names(collapsed_name),
            OpDef::new("tensor.expand_shape")
                .arity((1, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["reassociation", "static_output_shape"])
                .assembly(parse_reshape, print_reshape)
                .verifier(crate::util::verify_reshape)
                .names(expanded_name),
            OpDef::new("tensor.dim")
                .arity((2, Some(2)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_dim, print_dim)
                .names(dim_name),
            OpDef::new("tensor.cast")
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_cast, print_cast)
                .names(cast_name),
            OpDef::new("tensor.bitcast")
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_cast, print_cast),
            PAD.def().names(padded_name).add_traits(Traits::SINGLE_BLOCK),
            YIELD.def(),
            GENERATE.def().names(generated_name).add_traits(Traits::SINGLE_BLOCK),
            RANK.def().names(rank_name),
            CONCAT.def().names(concat_name),
            RESHAPE.def().names(reshape_name),
            OpDef::new("tensor.from_elements")
                .arity((0, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_from_elements, crate::util::print_operands_colon_result)
                .verifier(verify_from_elements)
                .names(from_elements_name),
            OpDef::new("tensor.splat")
                .arity((1, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_splat, print_splat)
                .verifier(verify_splat)
                .names(splat_name),
        ]
        .into_iter()
        .chain(gather::defs())
        .chain(crate::linalg::relayout::tensor_defs())
        .collect(),
    )
}

namer!(padded_name, "padded");
namer!(generated_name, "generated");
namer!(rank_name, "rank");

/// `tensor.pad %t (nofold)? low[...] high[...] { ^bb0(%i: index, ...): tensor.yield %v : T } : A to B`.
const PAD: OpSpec = OpSpec {
    name: "tensor.pad",
    operands: &[one("source"), var("low").of(Fixed::Index), var("high").of(Fixed::Index)],
    attrs: &[
        attr("static_low", AttrKind::I64Array),
        attr("static_high", AttrKind::I64Array),
        opt_attr("nofold", AttrKind::Unit),
    ],
    results: &[one("result")],
    regions: &["region"],
    segments: true,
    format: "$source (`nofold` $nofold^)? `low` `` custom<DynamicIndexList>($low, $static_low) `high` `` \
             custom<DynamicIndexList>($high, $static_high) $region attr-dict `:` type($source) `to` type($result)",
    customs: &[DYNAMIC_INDEX_LIST],
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const YIELD: OpSpec = OpSpec {
    name: "tensor.yield",
    operands: &[one("value")],
    format: "$value attr-dict `:` type($value)",
    traits: Traits::PURE.with(Traits::TERMINATOR).with(Traits::RETURN_LIKE),
    ..OpSpec::EMPTY
};

/// `tensor.generate %n { ^bb0(%i: index): tensor.yield %v : T } : tensor<?xT>`.
const GENERATE: OpSpec = OpSpec {
    name: "tensor.generate",
    operands: &[var("dynamicExtents").of(Fixed::Index)],
    results: &[one("result")],
    regions: &["body"],
    format: "$dynamicExtents $body attr-dict `:` type($result)",
    ..OpSpec::EMPTY
};

const RANK: OpSpec = OpSpec {
    name: "tensor.rank",
    operands: &[one("tensor")],
    results: &[one("result").of(Fixed::Index)],
    format: "$tensor attr-dict `:` type($tensor)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

// ----- concat / reshape -----

/// `%concat = tensor.concat dim(0) %a, %b : (A, B) -> R`.
const CONCAT: OpSpec = OpSpec {
    name: "tensor.concat",
    operands: &[var("inputs")],
    attrs: &[attr("dim", AttrKind::Int(64))],
    results: &[one("result")],
    format: "`dim` `(` $dim `)` $inputs attr-dict `:` functional-type(operands, results)",
    traits: Traits::PURE,
    verify: Some(verify_concat),
    ..OpSpec::EMPTY
};

/// MLIR's checks, in its order: ranks, element types, the dimension, then
/// the sizes (static ones along other dimensions agree; the concatenated
/// one sums).
fn verify_concat(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let inputs: Vec<(Vec<i64>, hivm_ir::Type)> = ir
        .operands(op)
        .iter()
        .filter_map(|v| match ir.type_data(ir.value_type(*v)) {
            TypeData::RankedTensor { shape, elem, .. } => Some((shape.clone(), *elem)),
            _ => None,
        })
        .collect();
    if inputs.is_empty() {
        return Err("requires at least one input".into());
    }
    let rt = ir.value_type(ir.result(op, 0));
    let TypeData::RankedTensor { shape: result, elem, .. } = ir.type_data(rt) else {
        return Err("result #0 must be ranked tensor of any type values".into());
    };
    if inputs.iter().any(|(s, _)| s.len() != result.len()) {
        return Err("rank of concatenated inputs must match result rank".into());
    }
    if inputs.iter().any(|(_, e)| e != elem) {
        return Err("inputs and result element type must match".into());
    }
    let dim = ir.get_attr(op, "dim").and_then(|a| ir.as_int(a)).unwrap_or(0);
    if dim < 0 || dim as usize >= result.len() {
        return Err("concatenation dim must be less than the tensor rank".into());
    }
    let dim = dim as usize;
    let mut inferred = vec![DYNAMIC; result.len()];
    for (i, slot) in inferred.iter_mut().enumerate() {
        if i == dim {
            *slot =
                inputs.iter().try_fold(0i64, |acc, (s, _)| (s[i] != DYNAMIC).then(|| acc + s[i])).unwrap_or(DYNAMIC);
            continue;
        }
        for (s, _) in &inputs {
            if s[i] == DYNAMIC {
                continue;
            }
            if *slot != DYNAMIC && *slot != s[i] {
                return Err(format!("static concatenation size mismatch along non-concatenated dimension {i}").into());
            }
            *slot = s[i];
        }
    }
    if inferred.iter().zip(result).any(|(a, b)| *a != DYNAMIC && *b != DYNAMIC && a != b) {
        let mut ir2 = String::new();
        let dims: Vec<String> =
            inferred.iter().map(|d| if *d == DYNAMIC { "?".into() } else { d.to_string() }).collect();
        ir2.push_str(&format!("tensor<{}x{}>", dims.join("x"), type_str(ir, *elem)));
        return Err(format!("result type {}does not match inferred shape {ir2} static sizes", type_str(ir, rt)).into());
    }
    Ok(())
}

/// `%reshape = tensor.reshape %src(%shape) : (S, tensor<Nxi64>) -> R`.
const RESHAPE: OpSpec = OpSpec {
    name: "tensor.reshape",
    operands: &[one("source"), one("shape")],
    results: &[one("result")],
    format: "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)",
    traits: Traits::PURE,
    verify: Some(verify_tensor_reshape),
    ..OpSpec::EMPTY
};

fn verify_tensor_reshape(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let (src, shape) = (ir.value_type(ir.operands(op)[0]), ir.value_type(ir.operands(op)[1]));
    let dst = ir.value_type(ir.result(op, 0));
    if element_or_self(ir, src) != element_or_self(ir, dst) {
        return Err("element types of source and destination tensor types should be the same".into());
    }
    let shape_len = ir.type_data(shape).shape().and_then(|s| s.first().copied()).unwrap_or(DYNAMIC);
    let Some(out) = ir.type_data(dst).shape() else { return Ok(()) };
    let count = |s: &[i64]| (!s.contains(&DYNAMIC)).then(|| s.iter().product::<i64>());
    if let (Some(a), Some(b)) = (ir.type_data(src).shape().and_then(count), count(out))
        && a != b
    {
        return Err("source and destination tensor should have the same number of elements".into());
    }
    if shape_len == DYNAMIC {
        return Err("cannot use shape operand with dynamic length to reshape to statically-ranked tensor type".into());
    }
    if shape_len != out.len() as i64 {
        return Err("length of shape operand differs from the result's tensor rank".into());
    }
    Ok(())
}

namer!(concat_name, "concat");
namer!(reshape_name, "reshape");

//! hfusion's hand-formatted structured ops, `reduce_with_index`, `arange`,
//! `gather`, `gather_mask`, `group_matmul` and the convolutions
//! `conv1d`/`conv2d`/`conv3d`: destination-style, with the bodies upstream's
//! parsers build.

use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Attribute, BlockId, Ir, OpDef, OpId, Traits, Type, TypeData, Value};

use super::ops::{Ty, check_type};
use crate::linalg::structured::{body_block, cast_op, parse_ins_outs, print_ins_outs, print_results, yield_op};
use crate::util::{i64_array, i64_array_attr, opaque_arg, opaque_attr, push_attr, segment, segment_attr};

fn append(
    ir: &mut Ir,
    block: BlockId,
    name: &str,
    operands: &[Value],
    ty: Type,
    attrs: Vec<(&str, Attribute)>,
) -> Value {
    let loc = ir.unknown_loc();
    let op = Builder::new(ir, InsertPoint::End(block)).op(name, operands, &[ty], attrs, loc);
    ir.result(op, 0)
}

fn compare(ir: &mut Ir, block: BlockId, pred: &str, l: Value, r: Value) -> Value {
    let float = matches!(ir.type_data(ir.value_type(l)), TypeData::Float(_));
    let name = if float { "arith.cmpf" } else { "arith.cmpi" };
    let p = crate::arith::cmp_predicate(ir, float, pred).expect("a predicate of the arith tables");
    let i1 = ir.int_type(1);
    append(ir, block, name, &[l, r], i1, vec![("predicate", p)])
}

/// ` name(%a, %b : A, B) ` as upstream prints these ops' operand groups
/// (with the trailing space).
fn print_group(p: &mut Printer<'_>, kw: &str, vals: &[Value]) {
    if vals.is_empty() {
        return;
    }
    p.push(&format!("{kw}("));
    p.print_values(vals);
    p.push(" : ");
    p.print_value_types(vals);
    p.push(") ");
}

fn results_only_if_tensor(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if !ir.results(op).is_empty() && !crate::hivm::traits::pure_tensor(ir, op) {
        return Err("failed to verify that Result must only exist if using tensor semantics".into());
    }
    Ok(())
}

// ----- reduce_with_index -----

const KINDS: &[&str] = &["min", "max", "minui", "maxui"];

fn parse_reduce(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::Less, "'<'")?;
    let pos = p.pos();
    let kind = p.parse_keyword("reduce kind")?.to_string();
    if !KINDS.contains(&kind.as_str()) {
        return p
            .error_at(pos, format!("expected one of [{}] for reduce_with_index_kind, got '{kind}'", KINDS.join(", ")));
    }
    p.expect(Tok::Greater, "'>'")?;
    let a = opaque_attr(p.ir, "hfusion", &format!("reduce_with_index_kind<{kind}>"));
    push_attr(p, r, "reduce_kind", a);
    let (ins, outs) = parse_ins_outs(p, r)?;
    let dims = crate::util::parse_keyword_i64_list(p, "dimensions")?;
    let d = i64_array_attr(p.ir, &dims);
    push_attr(p, r, "dimensions", d);
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    let region = match reduce_region(p.ir, &kind, &all, &dims) {
        Ok(region) => region,
        Err(e) => return p.error_at(r.pos, e),
    };
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[ins.len(), outs.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = all;
    Ok(())
}

/// The body of a `reduce_with_index` of `kind` over `all` (inputs, then
/// inits), as upstream's parser and builder make it.
fn reduce_region(ir: &mut Ir, kind: &str, all: &[Value], dims: &[i64]) -> Result<hivm_ir::RegionId, String> {
    let loc = ir.unknown_loc();
    let (region, block, args) = body_block(ir, all, loc);
    let float = args.first().is_some_and(|a| matches!(ir.type_data(ir.value_type(*a)), TypeData::Float(_)));
    let (pick, pred) = match (kind, float, args.len()) {
        ("max", true, _) => ("arith.maximumf", "ogt"),
        (_, true, _) => ("arith.minimumf", "olt"),
        ("max", false, _) => ("arith.maxsi", "sgt"),
        ("maxui", false, 3) => ("arith.maxui", "ugt"),
        ("minui", false, 3) => ("arith.minui", "ult"),
        _ => ("arith.minsi", "slt"),
    };
    let yielded = match args[..] {
        [v, idx, init_v, init_idx] => {
            let t = ir.value_type(v);
            let best = append(ir, block, pick, &[v, init_v], t, Vec::new());
            let better = compare(ir, block, pred, best, init_v);
            let it = ir.value_type(idx);
            let i = append(ir, block, "arith.select", &[better, idx, init_idx], it, Vec::new());
            vec![best, i]
        }
        [v, init_v, init_idx] => {
            let t = ir.value_type(v);
            let best = append(ir, block, pick, &[v, init_v], t, Vec::new());
            let better = compare(ir, block, pred, best, init_v);
            let index = ir.index_type();
            let dim = ir.i64_attr(dims.first().copied().unwrap_or(0));
            let d = append(ir, block, "linalg.index", &[], index, vec![("dim", dim)]);
            let it = ir.value_type(init_idx);
            let c = append(ir, block, "arith.index_cast", &[d], it, Vec::new());
            let i = append(ir, block, "arith.select", &[better, c, init_idx], it, Vec::new());
            vec![best, i]
        }
        _ => {
            return Err(format!("'hfusion.reduce_with_index' op expects 3 or 4 operands, got {}", all.len()));
        }
    };
    yield_op(ir, block, yielded, loc);
    Ok(region)
}

/// Builds `hfusion.reduce_with_index` of `kind` (`max`, `minui`, ...) at
/// `ip`, with its body; `tie_break_left` and `unsigned_src` are stored when
/// given. Results are the inits' types.
#[allow(clippy::too_many_arguments)]
pub fn build_reduce_with_index(
    ir: &mut Ir,
    ip: InsertPoint,
    kind: &str,
    ins: &[Value],
    outs: &[Value],
    dims: &[i64],
    flags: &[(&str, bool)],
    loc: Attribute,
) -> Result<OpId, String> {
    if !KINDS.contains(&kind) {
        return Err(format!("expected one of [{}] for reduce_with_index_kind, got '{kind}'", KINDS.join(", ")));
    }
    let all: Vec<Value> = ins.iter().chain(outs).copied().collect();
    let region = reduce_region(ir, kind, &all, dims)?;
    let mut props = vec![
        (ir.sym("reduce_kind"), opaque_attr(ir, "hfusion", &format!("reduce_with_index_kind<{kind}>"))),
        (ir.sym("dimensions"), i64_array_attr(ir, dims)),
        (ir.sym("operandSegmentSizes"), segment_attr(ir, &[ins.len(), outs.len()])),
    ];
    for (k, v) in flags {
        props.push((ir.sym(k), ir.bool_attr(*v)));
    }
    let mut st = hivm_ir::OperationState::new(ir.sym("hfusion.reduce_with_index"), loc);
    st.operands = all;
    st.result_types = outs.iter().map(|v| ir.value_type(*v)).filter(|t| ir.type_data(*t).is_tensor()).collect();
    st.regions = vec![region];
    st.properties = Some(ir.dict_attr(props));
    Ok(Builder::new(ir, ip).create(st))
}

fn print_reduce(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(
        op,
        &["operandSegmentSizes", "reduce_kind", "dimensions", "hfusion.memoized_indexing_maps"],
    );
    let kind = ir.get_attr(op, "reduce_kind").and_then(|a| opaque_arg(ir, a, "reduce_with_index_kind"));
    p.push(&format!(" <{}> ", kind.unwrap_or("min")));
    print_group(p, "ins", segment(ir, op, 0));
    print_group(p, "outs", segment(ir, op, 1));
    let dims: Vec<String> = i64_array(ir, op, "dimensions").iter().map(|d| d.to_string()).collect();
    p.push(&format!("dimensions = [{}] ", dims.join(", ")));
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_reduce(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 2)?;
    let dims = i64_array(ir, op, "dimensions");
    // ODS's `DenseArrayStrictlySorted` constraint on the attribute.
    if dims.windows(2).any(|w| w[0] >= w[1]) {
        return Err("attribute 'dimensions' failed to satisfy constraint: i64 dense array attribute should be in \
                    increasing order"
            .into());
    }
    results_only_if_tensor(ir, op)?;
    let (ins, inits) = (segment(ir, op, 0), segment(ir, op, 1));
    crate::hivm::ops::verify_dps(ir, op, ins.len()..ins.len() + inits.len())?;
    if dims.is_empty() || ins.is_empty() {
        return Err(VerifyError::plain("ReduceWithIndexOp requires positive number of dimensions and inputs"));
    }
    // Upstream compares the first init only, dimension by dimension (a
    // dynamic size matches only a dynamic size).
    let Some(&init) = inits.first() else { return Ok(()) };
    let shape = |v: Value| ir.type_data(ir.value_type(v)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let input = shape(ins[0]);
    let rank = input.len() as i64;
    if dims.iter().any(|d| *d < 0 || *d >= rank) {
        return Err(format!("dimensions for reduction should be in the range [0, {}].", rank - 1).into());
    }
    let kept: Vec<i64> =
        input.iter().enumerate().filter(|(i, _)| !dims.contains(&(*i as i64))).map(|(_, d)| *d).collect();
    let s = shape(init);
    if s.len() != kept.len() {
        return Err(format!(
            "number of dimensions after reduction {} doesn't match the init rank {}",
            kept.len(),
            s.len()
        )
        .into());
    }
    if s != kept {
        let list = |v: &[i64]| v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
        return Err(format!(
            "init dimensions [{}] doesn't match input dimensions after reduction [{}]",
            list(&s),
            list(&kept)
        )
        .into());
    }
    Ok(())
}

// ----- gather -----

fn parse_gather(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let (ins, outs) = parse_ins_outs(p, r)?;
    p.expect_keyword("axis")?;
    p.expect(Tok::Equal, "'='")?;
    let axis = p.parse_integer("axis")? as i64;
    let a = p.ir.i64_attr(axis);
    push_attr(p, r, "axis", a);
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    if all.len() != 3 {
        return p.error_at(r.pos, format!("'hfusion.gather' op requires 3 operands, got {}", all.len()));
    }
    let loc = p.ir.unknown_loc();
    let region = gather_region(p.ir, &all, axis, loc);
    r.regions.push(region);
    r.operands = all;
    Ok(())
}

/// The body of `hfusion.gather`: the source element where the index along
/// `axis` hits, else the init's.
fn gather_region(ir: &mut Ir, all: &[Value], axis: i64, loc: Attribute) -> hivm_ir::RegionId {
    let (region, block, args) = body_block(ir, all, loc);
    let index = ir.index_type();
    let dim = ir.i64_attr(axis + 1);
    let mut d = append(ir, block, "linalg.index", &[], index, vec![("dim", dim)]);
    let it = ir.value_type(args[1]);
    if it != index {
        d = append(ir, block, "arith.index_cast", &[d], it, Vec::new());
    }
    let hit = compare(ir, block, "eq", d, args[1]);
    let t = ir.value_type(args[0]);
    let s = append(ir, block, "arith.select", &[hit, args[0], args[2]], t, Vec::new());
    yield_op(ir, block, vec![s], loc);
    region
}

/// Builds `hfusion.gather ins(%src, %index) outs(%init) axis = N` at `ip`
/// with its body; the result is the init's type when it is a tensor.
pub fn build_gather(
    ir: &mut Ir,
    ip: InsertPoint,
    src: Value,
    index: Value,
    init: Value,
    axis: i64,
    loc: Attribute,
) -> OpId {
    let all = [src, index, init];
    let region = gather_region(ir, &all, axis, loc);
    let init_ty = ir.value_type(init);
    let mut st = hivm_ir::OperationState::new(ir.sym("hfusion.gather"), loc);
    st.operands = all.to_vec();
    st.result_types = if ir.type_data(init_ty).is_tensor() { vec![init_ty] } else { Vec::new() };
    st.regions = vec![region];
    let a = ir.i64_attr(axis);
    let key = ir.sym("axis");
    st.properties = Some(ir.dict_attr(vec![(key, a)]));
    Builder::new(ir, ip).create(st)
}

fn print_gather(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["axis"]);
    let ops = ir.operands(op);
    p.push(" ");
    print_group(p, "ins", &ops[..ops.len().min(2)]);
    print_group(p, "outs", &ops[ops.len().min(2)..]);
    let axis = ir.get_attr(op, "axis").and_then(|a| ir.as_int(a)).unwrap_or(0);
    p.push(&format!("axis = {axis}"));
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_gather(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    if ops.len() != 3 {
        return Err(format!("expected 3 operands, but found {}", ops.len()).into());
    }
    let shape = |v: Value| ir.type_data(ir.value_type(v)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let (src, index, init) = (shape(ops[0]), shape(ops[1]), shape(ops[2]));
    if src.len() != index.len() || src.len() != init.len() {
        return Err("failed to verify that all of {src, index, init} have same rank".into());
    }
    if index != init {
        return Err("failed to verify that all of {index, init} have same shape".into());
    }
    let elem = |v: Value| crate::util::element_or_self(ir, ir.value_type(v));
    if elem(ops[0]) != elem(ops[2]) {
        return Err("failed to verify that all of {src, init} have same element type".into());
    }
    let axis = ir.get_attr(op, "axis").and_then(|a| ir.as_int(a)).unwrap_or(0);
    if axis < 0 || axis >= init.len() as i128 {
        return Err("failed to verify that axis must be less than rank of init".into());
    }
    results_only_if_tensor(ir, op)?;
    if src.iter().zip(&init).enumerate().any(|(i, (a, b))| i as i128 != axis && *a >= 0 && *b >= 0 && a != b) {
        return Err("All dimensions must match except the gather axis".into());
    }
    if crate::hivm::traits::pure_tensor(ir, op) {
        if ir.results(op).len() != 1 {
            return Err("Expecting single result for gather op with tensor semantics".into());
        }
        if ir.value_type(ir.result(op, 0)) != ir.value_type(ops[2]) {
            return Err("Expecting gather op to have same result type as init type".into());
        }
    }
    Ok(())
}

// ----- arange: `hfusion.arange (offset[%o])? strides[%s0, ...] outs(%init : T) (-> T)?` -----

fn parse_arange(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let index = p.ir.index_type();
    let mut offset = None;
    if p.parse_optional_keyword("offset") {
        p.expect(Tok::LSquare, "'['")?;
        let u = p.parse_operand()?;
        p.expect(Tok::RSquare, "']'")?;
        offset = Some(p.resolve_operand(&u, index)?);
    }
    p.expect_keyword("strides")?;
    let strides = crate::util::parse_index_list(p)?;
    let mut all: Vec<Value> = offset.into_iter().collect();
    for u in &strides {
        let v = p.resolve_operand(u, index)?;
        all.push(v);
    }
    let (ins, outs) = parse_ins_outs(p, r)?;
    let (Some(&init), true) = (outs.first(), ins.is_empty() && outs.len() == 1) else {
        return p.error_at(r.pos, "'hfusion.arange' op expects one init (`outs`) and no inputs");
    };
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    let init_ty = p.ir.value_type(init);
    let Some(rank) = p.ir.type_data(init_ty).shape().map(|s| s.len()) else {
        return p.error_at(r.pos, "'hfusion.arange' op expects a shaped init");
    };
    let region = arange_region(p.ir, offset.is_some(), strides.len(), init_ty, rank, r.loc);
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[offset.is_some() as usize, strides.len(), 1]);
    push_attr(p, r, "operandSegmentSizes", seg);
    all.push(init);
    r.operands = all;
    Ok(())
}

/// The body of an `arange` (with an offset or not, `n_strides` strides)
/// into an init of type `init_ty` and rank `rank`, built at `loc`.
fn arange_region(
    ir: &mut Ir,
    offset: bool,
    n_strides: usize,
    init_ty: Type,
    rank: usize,
    loc: Attribute,
) -> hivm_ir::RegionId {
    // The body, built at the op's location: strides[k] * index(k) summed
    // (index ops made before the products, as upstream's builder nests its
    // calls), plus the offset, cast to the element type.
    let index = ir.index_type();
    let region = ir.new_region();
    let block = ir.create_block();
    ir.push_block(region, block);
    let mut args: Vec<Value> = (0..rank).map(|_| ir.add_block_arg(block, index, Some(loc))).collect();
    if offset {
        args.push(ir.add_block_arg(block, index, Some(loc)));
    }
    let elem = crate::util::element_or_self(ir, init_ty);
    let out = ir.add_block_arg(block, elem, Some(loc));
    let mut b = Builder::new(ir, InsertPoint::End(block));
    let mut next = 0;
    let off_arg = offset.then(|| {
        next += 1;
        args[0]
    });
    let mut sum: Option<Value> = None;
    for d in 0..n_strides {
        let dim = b.ir.i64_attr(d as i64);
        let i = b.op("linalg.index", &[], &[index], vec![("dim", dim)], loc);
        let iv = b.ir.result(i, 0);
        let m = b.op("arith.muli", &[args[next], iv], &[index], Vec::new(), loc);
        next += 1;
        let mv = b.ir.result(m, 0);
        sum = Some(match sum {
            None => mv,
            Some(s) => {
                let a = b.op("arith.addi", &[s, mv], &[index], Vec::new(), loc);
                b.ir.result(a, 0)
            }
        });
    }
    let mut v = sum.unwrap_or(args[0]);
    if let Some(o) = off_arg {
        let a = b.op("arith.addi", &[v, o], &[index], Vec::new(), loc);
        v = b.ir.result(a, 0);
    }
    let c = b.op("arith.index_cast", &[v], &[elem], Vec::new(), loc);
    let cv = b.ir.result(c, 0);
    let _ = out;
    yield_op(ir, block, vec![cv], loc);
    region
}

/// Builds `hfusion.arange offset[%offset] strides[...] outs(%init)` at `ip`
/// with its body; returns the op.
pub fn build_arange(
    ir: &mut Ir,
    ip: InsertPoint,
    offset: Option<Value>,
    strides: &[Value],
    init: Value,
    loc: Attribute,
) -> OpId {
    let init_ty = ir.value_type(init);
    let rank = ir.type_data(init_ty).shape().map_or(0, |s| s.len());
    let region = arange_region(ir, offset.is_some(), strides.len(), init_ty, rank, loc);
    let seg = segment_attr(ir, &[offset.is_some() as usize, strides.len(), 1]);
    let mut st = hivm_ir::OperationState::new(ir.sym("hfusion.arange"), loc);
    st.operands = offset.into_iter().chain(strides.iter().copied()).chain([init]).collect();
    st.result_types = if ir.type_data(init_ty).is_tensor() { vec![init_ty] } else { Vec::new() };
    st.regions = vec![region];
    let key = ir.sym("operandSegmentSizes");
    st.properties = Some(ir.dict_attr(vec![(key, seg)]));
    Builder::new(ir, ip).create(st)
}

fn print_arange(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(&o) = segment(ir, op, 0).first() {
        p.push(" offset[");
        p.print_value(o);
        p.push("]");
    }
    p.push(" strides[");
    p.print_values(segment(ir, op, 1));
    p.push("]");
    let init = segment(ir, op, 2);
    p.push(" outs(");
    p.print_values(init);
    p.push(" : ");
    p.print_value_types(init);
    p.push(")");
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_arange(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 3)?;
    let init = segment(ir, op, 2);
    if init.len() != 1 || segment(ir, op, 0).len() > 1 {
        return Err("expects an optional offset, strides and one init".into());
    }
    results_only_if_tensor(ir, op)?;
    let n = ir.operands(op).len();
    crate::hivm::ops::verify_dps(ir, op, n - 1..n)
}

// ----- shared by gather_mask and the convolutions -----

/// `parseOptionalArrowTypeList`: ` -> T` or ` -> (T, U)`, or nothing.
fn parse_optional_arrow_types(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    Ok(())
}

/// DPS's `hasPureTensorSemantics` and `hasPureBufferSemantics`: every
/// shaped operand a tensor (a buffer).
fn semantics(ir: &Ir, op: OpId) -> (bool, bool) {
    let td = |v: &Value| ir.type_data(ir.value_type(*v));
    let ops = ir.operands(op);
    let tensor = ops.iter().all(|v| !td(v).is_shaped() || td(v).is_tensor());
    let buffer = ops.iter().all(|v| !td(v).is_shaped() || td(v).is_memref());
    (tensor, buffer)
}

/// An affine map reading the loops `dims` of `loops`.
fn dims_map(loops: u32, dims: impl IntoIterator<Item = u32>) -> AffineMap {
    AffineMap { num_dims: loops, num_symbols: 0, results: dims.into_iter().map(AffineExpr::Dim).collect() }
}

fn rank(ir: &Ir, v: Value) -> usize {
    ir.type_data(ir.value_type(v)).rank()
}

// ----- gather_mask: `ins(%src, %mask : S, M) outs(%data, %size : D, N)` -----

fn parse_gather_mask(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let (ins, outs) = parse_ins_outs(p, r)?;
    parse_optional_arrow_types(p, r)?;
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    if all.len() < 2 {
        return p.error_at(
            r.pos,
            format!("'hfusion.gather_mask' op expects a source and a mask, got {} operands", all.len()),
        );
    }
    // The body: the source where the mask is set, else the data init; a zero
    // `i32` for every further init (the gathered length).
    let loc = r.loc;
    let (region, block, args) = body_block(p.ir, &all, loc);
    let ir = &mut *p.ir;
    let i1 = ir.int_type(1);
    let mut mask = args[1];
    if ir.value_type(mask) != i1 {
        mask = append_at(ir, block, "arith.trunci", &[mask], i1, Vec::new(), loc);
    }
    let mut yielded = Vec::new();
    for (k, init) in args[2..].iter().enumerate() {
        yielded.push(if k == 0 {
            let t = ir.value_type(args[0]);
            append_at(ir, block, "arith.select", &[mask, args[0], *init], t, Vec::new(), loc)
        } else {
            let i32 = ir.int_type(32);
            let zero = ir.int_attr(0, i32);
            append_at(ir, block, "arith.constant", &[], i32, vec![("value", zero)], loc)
        });
    }
    yield_op(p.ir, block, yielded, loc);
    r.regions.push(region);
    r.operands = all;
    Ok(())
}

fn append_at(
    ir: &mut Ir,
    block: BlockId,
    name: &str,
    operands: &[Value],
    ty: Type,
    attrs: Vec<(&str, Attribute)>,
    loc: Attribute,
) -> Value {
    let op = Builder::new(ir, InsertPoint::End(block)).op(name, operands, &[ty], attrs, loc);
    ir.result(op, 0)
}

fn print_gather_mask(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &[]);
    let ops = ir.operands(op);
    let (ins, outs) = ops.split_at(ops.len().min(2));
    print_ins_outs(p, ins, outs);
    print_results(p, op);
}

fn verify_gather_mask(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    for (i, v) in ops.iter().enumerate() {
        check_type(ir, "operand", i, *v, Ty::Shaped)?;
    }
    for (i, v) in ir.results(op).iter().enumerate() {
        check_type(ir, "result", i, *v, Ty::RankedTensor)?;
    }
    let (src, mask, inits) = (ops[0], ops[1], &ops[2..]);
    if rank(ir, src) != rank(ir, mask) {
        return Err("failed to verify that all of {src, mask} have same rank".into());
    }
    let shape = |v: Value| ir.type_data(ir.value_type(v)).shape().map(<[i64]>::to_vec);
    if shape(src) != shape(mask) {
        return Err("failed to verify that all of {src, mask} have same shape".into());
    }
    crate::hivm::ops::verify_dps(ir, op, 2..ops.len())?;
    results_only_if_tensor(ir, op)?;
    let (tensor, buffer) = semantics(ir, op);
    if !tensor && !buffer {
        return Err("must have pure tensor or pure memref semantics (cannot mix tensor/memref operands)".into());
    }
    let Some(&data) = inits.first() else {
        return Err("expects at least one init".into());
    };
    let ty = |v: Value| crate::util::type_str(ir, ir.value_type(v));
    let n = ir.results(op).len();
    if tensor {
        if n != 2 {
            return Err(format!("expecting exactly 2 result for tensor semantics, but got {n}").into());
        }
        if ir.value_type(ir.result(op, 0)) != ir.value_type(data) {
            return Err(format!(
                "tensor semantics: result type ('{}') must match init type ('{}')",
                ty(ir.result(op, 0)),
                ty(data)
            )
            .into());
        }
    }
    if buffer && n != 0 {
        return Err(format!("expecting 0 results for memref semantics, but got {n}").into());
    }
    let elem = |v: Value| crate::util::element_or_self(ir, ir.value_type(v));
    let mask_elem = ir.type_data(elem(mask));
    if !mask_elem.is_signless_int(1) && !mask_elem.is_signless_int(8) {
        return Err(
            format!("mask element type must be i1 or i8, but got '{}'", crate::util::type_str(ir, elem(mask))).into()
        );
    }
    // Ranks are compared when all three are ranked.
    let ranked =
        |v: Value| matches!(ir.type_data(ir.value_type(v)), TypeData::RankedTensor { .. } | TypeData::MemRef { .. });
    if ranked(src) && ranked(mask) && ranked(data) {
        let (s, m, d) = (rank(ir, src), rank(ir, mask), rank(ir, data));
        if s != m || s != d {
            return Err(format!(
                "src rank ({s}), mask rank ({m}), init rank ({d}) must be the same (for ranked types)"
            )
            .into());
        }
    }
    if elem(src) != elem(data) {
        return Err(format!(
            "src element type ('{}') must match init element type ('{}')",
            crate::util::type_str(ir, elem(src)),
            crate::util::type_str(ir, elem(data))
        )
        .into());
    }
    Ok(())
}

/// The linalg interface checks, once the body is verified: identity maps
/// over the data init's rank for the source, mask and data, and a map to
/// element 0 for the length.
fn verify_gather_mask_regions(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::linalg::named::verify_terminator(ir, op)?;
    let loops = ir.operands(op).get(2).map_or(0, |v| rank(ir, *v)) as u32;
    let identity = dims_map(loops, 0..loops);
    let length = AffineMap { num_dims: 1, num_symbols: 0, results: vec![AffineExpr::Constant(0)] };
    let maps = [identity.clone(), identity.clone(), identity, length];
    crate::linalg::interface::verify_structured_split(ir, op, 2, &maps, loops as usize)
}

// ----- conv1d, conv2d, conv3d -----

/// The spatial dimensions of each convolution.
fn conv_dims(ir: &Ir, op: OpId) -> usize {
    match ir.op_name(op) {
        "hfusion.conv1d" => 1,
        "hfusion.conv2d" => 2,
        _ => 3,
    }
}

/// `{attrs} ins(%input, %weight[, %bias] : ...) outs(%init : T) -> T`, the
/// body the input converted to the init's element type.
fn parse_conv(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let (ins, outs) = parse_ins_outs(p, r)?;
    parse_optional_arrow_types(p, r)?;
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    if all.len() != 3 && all.len() != 4 {
        let name = p.ir.sym_str(r.name).to_string();
        return p.error_at(r.pos, format!("'{name}' op expects 3 or 4 operands, got {}", all.len()));
    }
    let loc = r.loc;
    let (region, block, args) = body_block(p.ir, &all, loc);
    let ir = &mut *p.ir;
    let to = ir.value_type(args[args.len() - 1]);
    let mut v = args[0];
    if let Some(name) = cast_op(ir, ir.value_type(v), to, false) {
        v = append_at(ir, block, name, &[v], to, Vec::new(), loc);
    }
    yield_op(p.ir, block, vec![v], loc);
    r.regions.push(region);
    r.operands = all;
    Ok(())
}

fn print_conv(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &[]);
    let ops = ir.operands(op);
    let (ins, outs) = ops.split_at(ops.len().saturating_sub(1));
    print_ins_outs(p, ins, outs);
    print_results(p, op);
}

/// `stride`, `padding` or `dilation` of a 2-D or 3-D convolution: one
/// integer for every dimension, or one each (upstream's `getConvIntArrayAttr`).
fn conv_values(ir: &Ir, op: OpId, name: &str, n: usize) -> Result<Vec<i64>, VerifyError> {
    let bad = || VerifyError::from(format!("`{name}` must be an integer scalar or a {n}-element integer array"));
    let Some(a) = ir.get_attr(op, name) else { return Err(bad()) };
    if let Some(v) = ir.as_int(a) {
        return Ok(vec![v as i64; n]);
    }
    let values: Vec<i64> = match ir.attr_data(a) {
        AttrData::DenseArray { elem, .. } if ir.type_data(*elem).is_signless_int(64) => {
            crate::util::i64_array_of(ir, a)
        }
        AttrData::Array(items) => {
            items.iter().map(|i| ir.as_int(*i).map(|v| v as i64)).collect::<Option<_>>().ok_or_else(bad)?
        }
        _ => return Err(bad()),
    };
    if values.len() != n {
        return Err(bad());
    }
    Ok(values)
}

fn verify_conv(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let k = conv_dims(ir, op);
    // The attributes (conv1d's are all `I32Attr`; the others take any
    // attribute but `groups`), in the order ODS checks them.
    for name in ["dilation", "groups", "padding", "stride"] {
        let Some(a) = ir.get_attr(op, name) else {
            return Err(format!("requires attribute '{name}'").into());
        };
        let i32_attr = matches!(ir.attr_data(a), AttrData::Integer { ty, .. } if ir.type_data(*ty).is_signless_int(32));
        if (k == 1 || name == "groups") && !i32_attr {
            return Err(
                format!("attribute '{name}' failed to satisfy constraint: 32-bit signless integer attribute").into()
            );
        }
    }
    let ops = ir.operands(op);
    for (i, v) in ops.iter().enumerate() {
        check_type(ir, "operand", i, *v, Ty::Shaped)?;
    }
    let result = ir.result(op, 0);
    check_type(ir, "result", 0, result, Ty::Tensor)?;
    let (input, weight, init) = (ops[0], ops[1], ops[ops.len() - 1]);
    let bias = (ops.len() == 4).then(|| ops[2]);
    let elem = |v: Value| crate::util::element_or_self(ir, ir.value_type(v));
    if ops.iter().any(|v| elem(*v) != elem(input)) {
        return Err("failed to verify that all of {input, weight, bias, init} have same element type".into());
    }
    crate::hivm::ops::verify_dps(ir, op, ops.len() - 1..ops.len())?;
    results_only_if_tensor(ir, op)?;
    conv_shapes(ir, op, k, input, weight, bias, init, result)
}

/// Upstream's checks of the convolutions' shapes and window attributes:
/// `[N,] C, spatial...` input and init, `[oC, iC/groups, window...]` weight,
/// `[oC]` bias, stride and dilation 1, and each output size from its input,
/// padding and window.
#[allow(clippy::too_many_arguments)]
fn conv_shapes(
    ir: &Ir,
    op: OpId,
    k: usize,
    input: Value,
    weight: Value,
    bias: Option<Value>,
    init: Value,
    result: Value,
) -> Result<(), VerifyError> {
    let shape = |v: Value| ir.type_data(ir.value_type(v)).shape().map(<[i64]>::to_vec).unwrap_or_default();
    let (is, ws, os, rs) = (shape(input), shape(weight), shape(init), shape(result));
    let dynamic = |d: i64| d == hivm_ir::types::DYNAMIC;
    let conv3d = k == 3;
    let all_static = |s: &[i64]| !s.iter().any(|d| dynamic(*d));
    if conv3d && !(all_static(&is) && all_static(&ws) && all_static(&os) && all_static(&rs)) {
        return Err("currently only supports static shape for input/weight/init/result".into());
    }
    if os.len() != rs.len() {
        return Err("init and result must have the same rank".into());
    }
    if os.iter().zip(&rs).any(|(a, b)| !dynamic(*a) && !dynamic(*b) && a != b) {
        return Err("init and result must have the same shape".into());
    }
    if is.len() != os.len() {
        return Err("requires input and init to have the same rank".into());
    }
    let (plain, batched) = (k + 1, k + 2);
    if is.len() != plain && is.len() != batched {
        let names = ["2D or 3D", "3D or 4D", "4D or 5D"];
        return Err(format!("requires input and init to be {} tensors", names[k - 1]).into());
    }
    if ws.len() != k + 2 {
        let window = ["wW", "wH, wW", "wD, wH, wW"];
        return Err(format!("requires weight to have rank {}: [oC, iC/groups, {}]", k + 2, window[k - 1]).into());
    }
    // Two sizes differ when both are known.
    let differ = |a: i64, b: i64| !dynamic(a) && !dynamic(b) && a != b;
    let batch = is.len() == batched;
    if let Some(b) = bias {
        let bs = shape(b);
        if conv3d && !all_static(&bs) {
            return Err("currently only supports static shape for bias".into());
        }
        if bs.len() != 1 {
            return Err("requires bias to be 1D tensor".into());
        }
        if differ(bs[0], ws[0]) {
            return Err("requires bias shape to be oC from weight".into());
        }
        if differ(bs[0], os[batch as usize]) {
            return Err("requires bias shape to be oC from init".into());
        }
    }
    let groups = ir.get_attr(op, "groups").and_then(|a| ir.as_int(a)).unwrap_or(1) as i64;
    let channels = is[batch as usize];
    if !dynamic(channels) && !dynamic(ws[1]) && channels != ws[1].wrapping_mul(groups) {
        return Err("requires input channels == weight.shape[1] * groups".into());
    }
    if batch && differ(is[0], os[0]) {
        return Err("requires batch size of input and init to match".into());
    }
    let (stride, dilation, padding) = if k == 1 {
        let one = |name: &str| vec![ir.get_attr(op, name).and_then(|a| ir.as_int(a)).unwrap_or(0) as i64];
        (one("stride"), one("dilation"), one("padding"))
    } else {
        let (s, d) = (conv_values(ir, op, "stride", k)?, conv_values(ir, op, "dilation", k)?);
        (s, d, conv_values(ir, op, "padding", k)?)
    };
    if stride.iter().chain(&dilation).any(|v| *v != 1) {
        return Err("currently does not support stride != 1 or dilation != 1".into());
    }
    let first = batch as usize + 1;
    let names: &[&str] = match k {
        1 => &["width oW"],
        2 => &["height oH", "width oW"],
        _ => &["depth oD", "height oH", "width oW"],
    };
    for j in 0..k {
        let (i, w, o) = (is[first + j], ws[2 + j], os[first + j]);
        if dynamic(i) || dynamic(w) || dynamic(o) {
            continue;
        }
        let expected = (i + 2 * padding[j] - dilation[j] * (w - 1) - 1) / stride[j] + 1;
        if o != expected {
            let formula = match k {
                1 => "(iW + 2 * padding - dilation * (wW - 1) - 1) / stride + 1".to_string(),
                2 => {
                    let x = &names[j][names[j].len() - 1..];
                    format!("(i{x} + 2 * padding{x} - dilation{x} * (w{x} - 1) - 1) / stride{x} + 1")
                }
                _ => "(iX + 2 * paddingX - dilationX * (wX - 1) - 1) / strideX + 1".to_string(),
            };
            return Err(format!("requires output {} to be computed as: {formula}", names[j]).into());
        }
    }
    Ok(())
}

/// The linalg interface checks, once the body is verified: the input reads
/// the first loops, the weight the next `k + 2` (its first the output
/// channel, which the bias reads too), the init the batch, output channel
/// and the last `k` loops.
fn verify_conv_regions(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::linalg::named::verify_terminator(ir, op)?;
    let k = conv_dims(ir, op) as u32;
    let ops = ir.operands(op);
    let r = rank(ir, ops[0]) as u32;
    let loops = r + (k + 2) + k;
    let batch = r == k + 2;
    let mut maps = vec![dims_map(loops, 0..r), dims_map(loops, r..r + k + 2)];
    if ops.len() == 4 {
        maps.push(dims_map(loops, [r]));
    }
    let out = batch.then_some(0).into_iter().chain([r]).chain(loops - k..loops);
    maps.push(dims_map(loops, out));
    crate::linalg::interface::verify_structured_split(ir, op, ops.len() - 1, &maps, loops as usize)
}

// ----- group_matmul: an OpDSL op whose body yields its init unchanged -----

fn parse_group_matmul(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let (ins, outs) = parse_ins_outs(p, r)?;
    parse_optional_arrow_types(p, r)?;
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    if all.len() != 4 {
        return p.error(format!(
            "custom op 'hfusion.group_matmul' [parseNamedStructuredOpRegion] ods-gen generated region expects 4 \
             args, got {}",
            all.len()
        ));
    }
    let loc = p.ir.unknown_loc();
    let (region, block, args) = body_block(p.ir, &all, loc);
    yield_op(p.ir, block, vec![args[3]], loc);
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[ins.len(), outs.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = all;
    Ok(())
}

fn print_group_matmul(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "hfusion.memoized_indexing_maps"]);
    print_ins_outs(p, segment(ir, op, 0), segment(ir, op, 1));
    print_results(p, op);
}

fn verify_group_matmul(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 2)?;
    let ins = segment(ir, op, 0).len();
    crate::hivm::ops::verify_dps(ir, op, ins..ir.operands(op).len())
}

/// Its indexing maps over (d0, d1, d2): the weights read `(d2, d1, d0)`, the
/// tokens `(d0, d1)`, the per-expert counts element 0, the output `(d0, d0)`.
fn verify_group_matmul_regions(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::linalg::named::verify_terminator(ir, op)?;
    let maps = [
        dims_map(3, [2, 1, 0]),
        dims_map(3, [0, 1]),
        AffineMap { num_dims: 3, num_symbols: 0, results: vec![AffineExpr::Constant(0)] },
        dims_map(3, [0, 0]),
    ];
    crate::linalg::interface::verify_structured(ir, op, &maps, 3)
}

pub(crate) fn defs() -> Vec<OpDef> {
    let mut defs = vec![
        OpDef::new("hfusion.reduce_with_index")
            .arity((0, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["reduce_kind", "unsigned_src", "tie_break_left", "dimensions", "operandSegmentSizes"])
            .assembly(parse_reduce, print_reduce)
            .verifier(verify_reduce),
        OpDef::new("hfusion.arange")
            .arity((1, None), (0, Some(1)), 1)
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["operandSegmentSizes"])
            .assembly(parse_arange, print_arange)
            .verifier(verify_arange),
        OpDef::new("hfusion.gather")
            .arity((3, Some(3)), (0, Some(1)), 1)
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["axis"])
            .assembly(parse_gather, print_gather)
            .verifier(verify_gather),
        OpDef::new("hfusion.gather_mask")
            .arity((2, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .assembly(parse_gather_mask, print_gather_mask)
            .verifier(verify_gather_mask)
            .region_verifier(verify_gather_mask_regions),
        OpDef::new("hfusion.group_matmul")
            .arity((0, None), (0, None), 1)
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["operandSegmentSizes"])
            .assembly(parse_group_matmul, print_group_matmul)
            .verifier(verify_group_matmul)
            .region_verifier(verify_group_matmul_regions),
    ];
    for name in ["hfusion.conv1d", "hfusion.conv2d", "hfusion.conv3d"] {
        defs.push(
            OpDef::new(name)
                .arity((3, Some(4)), (1, Some(1)), 1)
                .traits(Traits::SINGLE_BLOCK)
                .inherent(&["dilation", "groups", "padding", "stride"])
                .assembly(parse_conv, print_conv)
                .verifier(verify_conv)
                .region_verifier(verify_conv_regions),
        );
    }
    defs
}

//! hfusion's hand-formatted structured ops, `reduce_with_index` and
//! `gather`: destination-style, with the bodies upstream's parsers build.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Attribute, BlockId, Ir, OpDef, OpId, Traits, Type, TypeData, Value};

use crate::linalg::structured::{body_block, parse_ins_outs, yield_op};
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
    let loc = p.ir.unknown_loc();
    let (region, block, args) = body_block(p.ir, &all, loc);
    let ir = &mut *p.ir;
    let float = args.first().is_some_and(|a| matches!(ir.type_data(ir.value_type(*a)), TypeData::Float(_)));
    let (pick, pred) = match (kind.as_str(), float, args.len()) {
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
            return p
                .error_at(r.pos, format!("'hfusion.reduce_with_index' op expects 3 or 4 operands, got {}", all.len()));
        }
    };
    yield_op(p.ir, block, yielded, loc);
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[ins.len(), outs.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = all;
    Ok(())
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
    results_only_if_tensor(ir, op)?;
    let (ins, inits) = (segment(ir, op, 0), segment(ir, op, 1));
    crate::hivm::ops::verify_dps(ir, op, ins.len()..ins.len() + inits.len())?;
    let dims = i64_array(ir, op, "dimensions");
    if dims.is_empty() || ins.is_empty() {
        return Err(VerifyError::plain("ReduceWithIndexOp requires positive number of dimensions and inputs"));
    }
    let shape = |v: Value| ir.type_data(ir.value_type(v)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let input = shape(ins[0]);
    let rank = input.len() as i64;
    if dims.iter().any(|d| *d < 0 || *d >= rank) {
        return Err(format!("dimensions for reduction should be in the range [0, {}].", rank - 1).into());
    }
    let kept: Vec<i64> =
        input.iter().enumerate().filter(|(i, _)| !dims.contains(&(*i as i64))).map(|(_, d)| *d).collect();
    for init in inits {
        let s = shape(*init);
        if s.len() != kept.len() {
            return Err(format!(
                "number of dimensions after reduction {} doesn't match the init rank {}",
                kept.len(),
                s.len()
            )
            .into());
        }
        if s.iter().zip(&kept).any(|(a, b)| *a >= 0 && *b >= 0 && a != b) {
            let list = |v: &[i64]| v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
            return Err(format!(
                "init dimensions [{}] doesn't match input dimensions after reduction [{}]",
                list(&s),
                list(&kept)
            )
            .into());
        }
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
    let (region, block, args) = body_block(p.ir, &all, loc);
    let ir = &mut *p.ir;
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
    yield_op(p.ir, block, vec![s], loc);
    r.regions.push(region);
    r.operands = all;
    Ok(())
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
    // The body, built at the op's location: strides[k] * index(k) summed
    // (index ops made before the products, as upstream's builder nests its
    // calls), plus the offset, cast to the element type.
    let loc = r.loc;
    let region = p.ir.new_region();
    let block = p.ir.create_block();
    p.ir.push_block(region, block);
    let mut args: Vec<Value> = (0..rank).map(|_| p.ir.add_block_arg(block, index, Some(loc))).collect();
    if offset.is_some() {
        args.push(p.ir.add_block_arg(block, index, Some(loc)));
    }
    let elem = crate::util::element_or_self(p.ir, init_ty);
    let out = p.ir.add_block_arg(block, elem, Some(loc));
    let ir = &mut *p.ir;
    let mut b = Builder::new(ir, InsertPoint::End(block));
    let mut next = 0;
    let off_arg = offset.is_some().then(|| {
        next += 1;
        args[0]
    });
    let mut sum: Option<Value> = None;
    for d in 0..strides.len() {
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
    yield_op(p.ir, block, vec![cv], loc);
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[offset.is_some() as usize, strides.len(), 1]);
    push_attr(p, r, "operandSegmentSizes", seg);
    all.push(init);
    r.operands = all;
    Ok(())
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

pub(crate) fn defs() -> Vec<OpDef> {
    vec![
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
    ]
}

//! The linalg dialect: `linalg.fill` (with its implicit scalar-yield
//! region), `linalg.yield`, the structured ops in `structured.rs`, the
//! OpDSL-style elementwise ops in `elementwise.rs` and the OpDSL ops with
//! fixed loop nests (convolutions, poolings, ...) in `named.rs`, checked
//! through the interfaces in `interface.rs`.

pub(crate) mod elementwise;

pub use elementwise::build as build_elementwise;
pub(crate) mod interface;
pub mod loops;
pub(crate) mod named;
pub(crate) mod relayout;
pub(crate) mod structured;

/// linalg's elementwise named ops (the engine also serves hfusion's).
pub(crate) static ELEMENTWISE: &[&elementwise::Named] = &[&elementwise::ELEMWISE_UNARY, &elementwise::ELEMWISE_BINARY];

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, UnresolvedOperand};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, Ir, OpDef, OpId, OperationState, Traits, Type};

use crate::util::*;

/// `ins(%a, %b : T1, T2)` or `outs(...)`.
fn parse_operand_group(p: &mut Parser<'_>, kw: &str) -> PResult<(Vec<UnresolvedOperand>, Vec<Type>, u32)> {
    if !p.parse_optional_keyword(kw) {
        return Ok((Vec::new(), Vec::new(), p.pos()));
    }
    p.expect(Tok::LParen, "'('")?;
    let ops = p.parse_operand_list()?;
    let pos = p.pos();
    let tys = if ops.is_empty() { Vec::new() } else { p.parse_colon_type_list()? };
    p.expect(Tok::RParen, "')'")?;
    Ok((ops, tys, pos))
}

fn parse_fill(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let (ins, in_tys, ipos) = parse_operand_group(p, "ins")?;
    let (outs, out_tys, opos) = parse_operand_group(p, "outs")?;
    let iv = p.resolve_operands(&ins, &in_tys, ipos)?;
    let ov = p.resolve_operands(&outs, &out_tys, opos)?;
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    if iv.len() + ov.len() != 2 {
        // mlir-opt's words and place: where the op's text ends.
        return p.error(format!(
            "custom op 'linalg.fill' [parseNamedStructuredOpRegion] ods-gen generated region expects 2 args, got {}",
            iv.len() + ov.len()
        ));
    }
    let seg = segment_attr(p.ir, &[iv.len(), ov.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = iv;
    r.operands.extend(ov);
    // MLIR builds this body with unknown locations.
    let unknown = p.ir.unknown_loc();
    let region = build_fill_region(p.ir, &in_tys, &out_tys, unknown);
    r.regions.push(region);
    Ok(())
}

/// The body MLIR materializes for `linalg.fill`: yield the scalar input.
fn build_fill_region(ir: &mut Ir, ins: &[Type], outs: &[Type], loc: hivm_ir::Attribute) -> hivm_ir::RegionId {
    let region = ir.new_region();
    let block = ir.create_block();
    ir.push_block(region, block);
    let mut args = Vec::new();
    for t in ins.iter().chain(outs) {
        let et = body_element(ir, *t);
        args.push(ir.add_block_arg(block, et, Some(loc)));
    }
    // The value converted to the output's element type, as upstream's
    // LLVM 19 fill builds it (`cast_signed`); MLIR 22 would reject the
    // mismatch instead, upstream's kernels rely on it.
    let mut value = args.first().copied();
    if let (Some(v), Some(&out)) = (value, args.get(1))
        && let Some(cast) = structured::cast_op(ir, ir.value_type(v), ir.value_type(out), false)
    {
        let sym = ir.sym(cast);
        let mut st = OperationState::new(sym, loc);
        st.operands = vec![v];
        st.result_types = vec![ir.value_type(out)];
        let c = ir.create_op(st);
        ir.append_op(block, c);
        value = Some(ir.result(c, 0));
    }
    let name = ir.sym("linalg.yield");
    let mut st = OperationState::new(name, loc);
    st.operands = value.into_iter().collect();
    let y = ir.create_op(st);
    ir.append_op(block, y);
    region
}

/// Builds `linalg.fill ins(value) outs(init)` at `ip`, with the body the
/// parser would give it; returns its result (none for a memref init).
pub fn build_fill(
    ir: &mut Ir,
    ip: hivm_ir::builder::InsertPoint,
    value: hivm_ir::Value,
    init: hivm_ir::Value,
    loc: hivm_ir::Attribute,
) -> Option<hivm_ir::Value> {
    let (vt, it) = (ir.value_type(value), ir.value_type(init));
    let unknown = ir.unknown_loc();
    let region = build_fill_region(ir, &[vt], &[it], unknown);
    let seg = segment_attr(ir, &[1, 1]);
    let mut st = OperationState::new(ir.sym("linalg.fill"), loc);
    st.operands = vec![value, init];
    st.result_types = if ir.type_data(it).is_tensor() { vec![it] } else { Vec::new() };
    st.regions = vec![region];
    let key = ir.sym("operandSegmentSizes");
    st.properties = Some(ir.dict_attr(vec![(key, seg)]));
    let op = hivm_ir::builder::Builder::new(ir, ip).create(st);
    ir.results(op).first().copied()
}

fn print_fill(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
    for (i, kw) in ["ins", "outs"].iter().enumerate() {
        print_keyword_group(p, kw, segment(ir, op, i));
    }
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_fill(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 2)?;
    if segment(ir, op, 0).len() != 1 || segment(ir, op, 1).len() != 1 {
        return Err(hivm_ir::dialect::VerifyError::plain("expected op with 1 input and 1 output"));
    }
    let outs = segment(ir, op, 1);
    let tensor_outs: Vec<Type> =
        outs.iter().map(|v| ir.value_type(*v)).filter(|t| ir.type_data(*t).is_tensor()).collect();
    let results: Vec<Type> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
    if tensor_outs != results {
        return Err(format!(
            "expected the number of tensor results ({}) to be equal to the number of output tensors ({})",
            results.len(),
            tensor_outs.len()
        )
        .into());
    }
    Ok(())
}

fn parse_yield(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ops = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    if !ops.is_empty() {
        let pos = p.pos();
        let tys = p.parse_colon_type_list()?;
        r.operands = p.resolve_operands(&ops, &tys, pos)?;
    }
    Ok(())
}

fn print_yield(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if !ir.operands(op).is_empty() {
        p.push(" ");
        p.print_values(ir.operands(op));
    }
    p.print_optional_attr_dict(op, &[]);
    if !ir.operands(op).is_empty() {
        p.push(" : ");
        p.print_operand_types(op);
    }
}

/// A structured op's body yields its inits' element types (checked where
/// the parent splits its operands into ins and outs).
fn verify_yield(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(parent) = ir.parent_op(op) else { return Ok(()) };
    if ir.get_attr(parent, "operandSegmentSizes").is_none() || crate::util::segments(ir, parent).len() != 2 {
        return Ok(());
    }
    let inits = segment(ir, parent, 1);
    if ir.operands(op).len() != inits.len() {
        return Err(format!(
            "expected number of yield values ({}) to match the number of inits / outs operands of the enclosing LinalgOp ({})",
            ir.operands(op).len(),
            inits.len()
        )
        .into());
    }
    for (i, (v, init)) in ir.operands(op).iter().zip(inits).enumerate() {
        let want = body_element(ir, ir.value_type(*init));
        let got = ir.value_type(*v);
        if got != want {
            return Err(format!(
                "type of yield operand {} ('{}') doesn't match the element type of the enclosing linalg.generic op ('{}')",
                i + 1,
                crate::util::type_str(ir, got),
                crate::util::type_str(ir, want)
            )
            .into());
        }
    }
    Ok(())
}

/// A structured op touches memory only through memref operands (MLIR's
/// memory effects of a LinalgOp): on tensors it has none, so CSE may merge it.
fn no_memref_operand(ir: &Ir, op: OpId) -> bool {
    ir.operands(op).iter().all(|v| !ir.type_data(ir.value_type(*v)).is_memref())
}

pub fn dialect() -> Dialect {
    let mut ops = vec![
        OpDef::new("linalg.fill")
            .traits(Traits::SINGLE_BLOCK)
            .inherent(&["operandSegmentSizes"])
            .assembly(parse_fill, print_fill)
            .verifier(verify_fill)
            .effects(no_memref_operand),
        OpDef::new("linalg.yield")
            .traits(Traits::TERMINATOR | Traits::PURE | Traits::RETURN_LIKE)
            .assembly(parse_yield, print_yield)
            .verifier(verify_yield),
    ];
    ops.extend(structured::defs());
    ops.extend(named::defs());
    ops.extend(ELEMENTWISE.iter().map(|n| n.def()));
    ops.extend(elementwise::NAMED_22.iter().map(|n| n.def()));
    ops.push(INDEX.def());
    ops.extend(relayout::linalg_defs());
    let mut d = Dialect::new("linalg", ops);
    d.check_attr = Some(check_attr);
    d
}

/// `%i = linalg.index 0 : index`: the iteration index along a dimension.
const INDEX: hivm_ir::opspec::OpSpec = hivm_ir::opspec::OpSpec {
    name: "linalg.index",
    attrs: &[hivm_ir::opspec::attr("dim", hivm_ir::opspec::AttrKind::Int(64))],
    results: &[hivm_ir::opspec::one("result").of(hivm_ir::opspec::Fixed::Index)],
    format: "$dim attr-dict `:` type($result)",
    traits: Traits::PURE,
    ..hivm_ir::opspec::OpSpec::EMPTY
};

/// MLIR's two iterator kinds and bishengir's additions to them (its LLVM
/// carries `concat` and `gather`, which its tests write in `linalg.generic`).
pub(crate) const ITERATOR_TYPES: &[&str] = &["parallel", "reduction", "concat", "gather"];

/// linalg's enum attributes, validated and canonicalized.
fn check_attr(body: &str) -> Result<String, String> {
    const ENUMS: &[(&str, &[&str])] = &[
        ("iterator_type", ITERATOR_TYPES),
        ("type_fn", &["cast_signed", "cast_unsigned"]),
        (
            "unary_fn",
            &[
                "exp",
                "log",
                "abs",
                "ceil",
                "floor",
                "negf",
                "reciprocal",
                "round",
                "sqrt",
                "rsqrt",
                "square",
                "tanh",
                "erf",
            ],
        ),
        (
            "binary_fn",
            &[
                "add",
                "sub",
                "mul",
                "div",
                "div_unsigned",
                "max_signed",
                "min_signed",
                "max_unsigned",
                "min_unsigned",
                "powf",
            ],
        ),
    ];
    crate::util::check_enum_attr("linalg", ENUMS, body)
}

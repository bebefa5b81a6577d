//! memref's DMA and prefetch ops, with upstream's hand-written syntax:
//! `memref.dma_start %src[..], %dst[..], %n, %tag[..] (, %stride, %per)? : A, B, T`
//! and `memref.prefetch %m[..], read|write, locality<N>, data|instr : M`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, UnresolvedOperand};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, Value};

fn parse_indexed(p: &mut Parser<'_>) -> PResult<(UnresolvedOperand, Vec<UnresolvedOperand>)> {
    let m = p.parse_operand()?;
    let mut idx = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
        idx.push(p.parse_operand()?);
        Ok(())
    })?;
    Ok((m, idx))
}

fn resolve_indexed(
    p: &mut Parser<'_>,
    m: &UnresolvedOperand,
    idx: &[UnresolvedOperand],
    t: Type,
) -> PResult<Vec<Value>> {
    let mut v = vec![p.resolve_operand(m, t)?];
    let it = p.ir.index_type();
    for i in idx {
        v.push(p.resolve_operand(i, it)?);
    }
    Ok(v)
}

fn rank(ir: &Ir, t: Type) -> usize {
    ir.type_data(t).rank()
}

fn parse_dma_start(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let (src, src_idx) = parse_indexed(p)?;
    p.expect(Tok::Comma, "','")?;
    let (dst, dst_idx) = parse_indexed(p)?;
    p.expect(Tok::Comma, "','")?;
    let n = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let (tag, tag_idx) = parse_indexed(p)?;
    let mut strided = Vec::new();
    if p.consume_if(Tok::Comma) {
        strided.push(p.parse_operand()?);
        p.expect(Tok::Comma, "','")?;
        strided.push(p.parse_operand()?);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let types = p.parse_colon_type_list()?;
    let [st, dt, tt] = types[..] else { return p.error_at(pos, "expected three types") };
    for (t, idx) in [(st, &src_idx), (dt, &dst_idx), (tt, &tag_idx)] {
        if !p.ir.type_data(t).is_memref() {
            return p.error_at(pos, "expected source, destination and tag to be of memref type");
        }
        if rank(p.ir, t) != idx.len() {
            return p.error_at(pos, "expected as many indices as the memref's rank");
        }
    }
    let mut ops = resolve_indexed(p, &src, &src_idx, st)?;
    ops.extend(resolve_indexed(p, &dst, &dst_idx, dt)?);
    let it = p.ir.index_type();
    ops.push(p.resolve_operand(&n, it)?);
    ops.extend(resolve_indexed(p, &tag, &tag_idx, tt)?);
    for s in &strided {
        ops.push(p.resolve_operand(s, it)?);
    }
    r.operands = ops;
    Ok(())
}

/// Where the groups start: src at 0, dst after its indices, then the
/// element count, the tag and its indices, and the optional stride pair.
fn dma_layout(ir: &Ir, op: OpId) -> Option<(usize, usize, usize, usize)> {
    let ops = ir.operands(op);
    let dst = 1 + rank(ir, ir.value_type(*ops.first()?));
    let num = dst + 1 + rank(ir, ir.value_type(*ops.get(dst)?));
    let tag = num + 1;
    let end = tag + 1 + rank(ir, ir.value_type(*ops.get(tag)?));
    (end == ops.len() || end + 2 == ops.len()).then_some((dst, num, tag, end))
}

fn print_dma_start(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    let Some((dst, num, tag, end)) = dma_layout(ir, op) else { return };
    let group = |p: &mut Printer<'_>, start: usize, stop: usize| {
        p.print_value(ops[start]);
        p.push("[");
        p.print_values(&ops[start + 1..stop]);
        p.push("]");
    };
    p.push(" ");
    group(p, 0, dst);
    p.push(", ");
    group(p, dst, num);
    p.push(", ");
    p.print_value(ops[num]);
    p.push(", ");
    group(p, tag, end);
    if ops.len() == end + 2 {
        p.push(", ");
        p.print_values(&ops[end..]);
    }
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    for (i, k) in [0, dst, tag].into_iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        p.print_type(ir.value_type(ops[k]));
    }
}

fn verify_dma_start(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if dma_layout(ir, op).is_none() {
        return Err("expected source, destination, element count and tag operands with their indices".into());
    }
    Ok(())
}

fn parse_prefetch(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let (m, idx) = parse_indexed(p)?;
    p.expect(Tok::Comma, "','")?;
    let pos = p.pos();
    let write = match p.parse_keyword("'read' or 'write'")? {
        "read" => false,
        "write" => true,
        _ => return p.error_at(pos, "rw specifier has to be 'read' or 'write'"),
    };
    p.expect(Tok::Comma, "','")?;
    p.expect_keyword("locality")?;
    p.expect(Tok::Less, "'<'")?;
    let i32t = p.ir.int_type(32);
    let hint = p.parse_attribute(Some(i32t))?;
    p.expect(Tok::Greater, "'>'")?;
    p.expect(Tok::Comma, "','")?;
    let pos = p.pos();
    let data = match p.parse_keyword("'data' or 'instr'")? {
        "data" => true,
        "instr" => false,
        _ => return p.error_at(pos, "cache type has to be 'data' or 'instr'"),
    };
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    r.operands = resolve_indexed(p, &m, &idx, t)?;
    let (w, d) = (p.ir.bool_attr(write), p.ir.bool_attr(data));
    for (k, a) in [("isWrite", w), ("localityHint", hint), ("isDataCache", d)] {
        crate::util::push_attr(p, r, k, a);
    }
    Ok(())
}

fn print_prefetch(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    let Some(&m) = ops.first() else { return };
    let flag = |k: &str| ir.get_attr(op, k).and_then(|a| ir.as_int(a)) == Some(1);
    p.push(" ");
    p.print_value(m);
    p.push("[");
    p.print_values(&ops[1..]);
    p.push("], ");
    p.push(if flag("isWrite") { "write" } else { "read" });
    p.push(", locality<");
    if let Some(h) = ir.get_attr(op, "localityHint") {
        p.print_attr(h, Elide::Must);
    }
    p.push(">, ");
    p.push(if flag("isDataCache") { "data" } else { "instr" });
    p.print_optional_attr_dict(op, &["localityHint", "isWrite", "isDataCache"]);
    p.push(" : ");
    p.print_type(ir.value_type(m));
}

fn verify_prefetch(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    let Some(&m) = ops.first() else { return Err("expected a memref operand".into()) };
    if ops.len() != 1 + rank(ir, ir.value_type(m)) {
        return Err("too few indices".into());
    }
    Ok(())
}

pub fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("memref.dma_start").assembly(parse_dma_start, print_dma_start).verifier(verify_dma_start),
        OpDef::new("memref.prefetch")
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["isDataCache", "isWrite", "localityHint"])
            .assembly(parse_prefetch, print_prefetch)
            .verifier(verify_prefetch),
    ]
}

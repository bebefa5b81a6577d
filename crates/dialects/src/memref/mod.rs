//! The `memref` dialect subset used by HIVM kernels.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits, TypeData, Value};

mod atomic;
mod dma;

pub(crate) use atomic::ATOMIC_RMW_KIND;
mod scope;
mod transpose;

use crate::util::*;
use hivm_ir::opspec::{AttrKind, Fixed, OpSpec, one, opt, opt_attr, var};

use crate::util::namer;
namer!(alloc_name, "alloc");
namer!(alloca_name, "alloca");
namer!(cast_name, "cast");
namer!(reinterpret_name, "reinterpret_cast");
namer!(subview_name, "subview");
namer!(dim_name, "dim");
namer!(collapse_name, "collapse_shape");
namer!(expand_name, "expand_shape");
namer!(view_name, "view");
namer!(memspace_name, "memspacecast");
namer!(assume_align_name, "assume_align");

/// The tensor type a global's initial value has: the memref's shape and
/// element type.
fn global_tensor_type(ir: &mut Ir, memref: hivm_ir::Type) -> Option<hivm_ir::Type> {
    let TypeData::MemRef { shape, elem, .. } = ir.type_data(memref).clone() else { return None };
    Some(ir.ty(TypeData::RankedTensor { shape, elem, encoding: None }))
}

/// `memref.global ["private"] [constant] @name : type [= uninitialized | = value]`.
fn parse_global(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.is(Tok::String) {
        let v = p.parse_string("visibility")?;
        let a = p.ir.attr(hivm_ir::AttrData::String { value: v, ty: None });
        let k = p.ir.sym("sym_visibility");
        r.attrs.push((k, a));
    }
    if p.parse_optional_keyword("constant") {
        let u = p.ir.attr(hivm_ir::AttrData::Unit);
        let k = p.ir.sym("constant");
        r.attrs.push((k, u));
    }
    let name = p.parse_symbol_name()?;
    let (k, a) = (p.ir.sym("sym_name"), p.ir.str_attr(&name));
    r.attrs.push((k, a));
    let tpos = p.pos();
    let t = p.parse_colon_type()?;
    if !matches!(p.ir.type_data(t), TypeData::MemRef { .. }) {
        return p.error_at(tpos, "type should be static shaped memref, but got ".to_string() + &p.type_str(t));
    }
    let ta = p.ir.type_attr(t);
    let k = p.ir.sym("type");
    r.attrs.push((k, ta));
    if p.consume_if(Tok::Equal) {
        let v = if p.parse_optional_keyword("uninitialized") {
            p.ir.attr(hivm_ir::AttrData::Unit)
        } else {
            let tt = global_tensor_type(p.ir, t);
            p.parse_attribute(tt)?
        };
        let k = p.ir.sym("initial_value");
        r.attrs.push((k, v));
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_global(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    if let Some(v) = ir.get_attr(op, "sym_visibility") {
        p.print_attr(v, Elide::Never);
        p.push(" ");
    }
    if ir.get_attr(op, "constant").is_some() {
        p.push("constant ");
    }
    p.print_symbol_name(ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or(""));
    p.push(" : ");
    if let Some(hivm_ir::AttrData::Type(t)) = ir.get_attr(op, "type").map(|a| ir.attr_data(a)) {
        p.print_type(*t);
    }
    if let Some(v) = ir.get_attr(op, "initial_value") {
        p.push(" = ");
        if matches!(ir.attr_data(v), hivm_ir::AttrData::Unit) {
            p.push("uninitialized");
        } else {
            p.print_attr(v, Elide::Must);
        }
    }
    p.print_optional_attr_dict(op, &["sym_visibility", "constant", "sym_name", "type", "initial_value"]);
}

fn verify_global(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(hivm_ir::AttrData::Type(t)) = ir.get_attr(op, "type").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'type'".into());
    };
    let TypeData::MemRef { shape, .. } = ir.type_data(*t) else {
        return Err(format!("type should be static shaped memref, but got {}", type_str(ir, *t)).into());
    };
    if shape.contains(&DYNAMIC) {
        return Err(format!("type should be static shaped memref, but got {}", type_str(ir, *t)).into());
    }
    Ok(())
}

/// `memref.get_global @name : type`.
fn parse_get_global(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let name = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(name), hivm_ir::AttrData::SymbolRef { .. }) {
        return p.error_at(pos, "expected symbol reference");
    }
    let k = p.ir.sym("name");
    r.attrs.push((k, name));
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    r.result_types.push(t);
    Ok(())
}

fn print_get_global(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    if let Some(n) = ir.get_attr(op, "name") {
        p.print_attr(n, Elide::Never);
    }
    p.print_optional_attr_dict(op, &["name"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_get_global(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(hivm_ir::AttrData::SymbolRef { root, .. }) = ir.get_attr(op, "name").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'name'".into());
    };
    let name = ir.sym_str(*root);
    let global = hivm_ir::builder::lookup_symbol_from(ir, op, name).filter(|g| ir.op_name(*g) == "memref.global");
    let Some(g) = global else {
        return Err(format!("'{name}' does not reference a valid global memref").into());
    };
    let want = match ir.get_attr(g, "type").map(|a| ir.attr_data(a)) {
        Some(hivm_ir::AttrData::Type(t)) => Some(*t),
        _ => None,
    };
    let got = ir.value_type(ir.result(op, 0));
    if want != Some(got) {
        return Err(format!(
            "result type {} does not match type {} of the global memref @{name}",
            type_str(ir, got),
            want.map(|t| type_str(ir, t)).unwrap_or_default()
        )
        .into());
    }
    Ok(())
}

/// `memref.assume_alignment %m, 16 : type`, returning the memref.
fn parse_assume_alignment(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let m = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    // An i32 attribute in upstream's format, so its range message.
    let pos = p.pos();
    let a = p.parse_integer("alignment")?;
    if a < i32::MIN as i128 || a > u32::MAX as i128 {
        return p.error_at(pos, "integer constant out of range for attribute");
    }
    let i32t = p.ir.int_type(32);
    let aa = p.ir.int_attr(a as u32 as i32 as i128, i32t);
    let k = p.ir.sym("alignment");
    r.attrs.push((k, aa));
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let mv = p.resolve_operand(&m, t)?;
    r.operands.push(mv);
    r.result_types.push(t);
    Ok(())
}

fn print_assume_alignment(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    let a = ir.get_attr(op, "alignment").and_then(|a| ir.as_int(a)).unwrap_or(0);
    p.push(&format!(", {a}"));
    p.print_optional_attr_dict(op, &["alignment"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

fn verify_assume_alignment(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let a = ir.get_attr(op, "alignment").and_then(|a| ir.as_int(a)).unwrap_or(0);
    if a <= 0 {
        return Err(
            "attribute 'alignment' failed to satisfy constraint: 32-bit signless integer attribute whose value \
                    is positive"
                .into(),
        );
    }
    if (a & (a - 1)) != 0 {
        return Err("alignment must be power of 2".into());
    }
    Ok(())
}

fn parse_alloc(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut dyns = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dynamic sizes", &mut |p| {
        dyns.push(p.parse_operand()?);
        Ok(())
    })?;
    let mut syms = Vec::new();
    if p.is(Tok::LSquare) {
        syms = parse_index_list(p)?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ty = p.parse_colon_type()?;
    let idx = p.ir.index_type();
    resolve_all(p, &dyns, idx, r)?;
    resolve_all(p, &syms, idx, r)?;
    let seg = segment_attr(p.ir, &[dyns.len(), syms.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.result_types.push(ty);
    Ok(())
}

fn print_alloc(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("(");
    p.print_values(segment(ir, op, 0));
    p.push(")");
    let syms = segment(ir, op, 1);
    if !syms.is_empty() {
        print_index_list(p, syms);
    }
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_alloc(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 2)?;
    let t = ir.value_type(ir.result(op, 0));
    let TypeData::MemRef { shape, .. } = ir.type_data(t) else {
        return Err(format!("result #0 must be memref of any type values, but got '{}'", type_str(ir, t)).into());
    };
    let dynamic = shape.iter().filter(|d| **d == DYNAMIC).count();
    if dynamic != segment(ir, op, 0).len() {
        return Err("dimension operand count does not equal memref dynamic dimension count".into());
    }
    Ok(())
}

fn parse_copy(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let a = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let b = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ta = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let tb = p.parse_type()?;
    let va = p.resolve_operand(&a, ta)?;
    let vb = p.resolve_operand(&b, tb)?;
    r.operands = vec![va, vb];
    Ok(())
}

fn print_copy(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.operand(op, 1)));
}

fn parse_load(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let m = p.parse_operand()?;
    let idx = parse_index_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let t = p.parse_colon_type()?;
    let Some(elem) = p.ir.type_data(t).element_type().filter(|_| p.ir.type_data(t).is_shaped()) else {
        return p.error_at(pos, "expected a shaped type");
    };
    let v = p.resolve_operand(&m, t)?;
    r.operands.push(v);
    let it = p.ir.index_type();
    resolve_all(p, &idx, it, r)?;
    r.result_types.push(elem);
    Ok(())
}

/// `nontemporal = false` is the default MLIR leaves out of the custom form.
fn load_store_elided(ir: &Ir, op: OpId) -> &'static [&'static str] {
    let default = ir.get_attr(op, "nontemporal").is_some_and(|a| ir.as_int(a) == Some(0));
    if default { &["nontemporal"] } else { &[] }
}

fn print_load(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    print_index_list(p, &ir.operands(op)[1..]);
    p.print_optional_attr_dict(op, load_store_elided(ir, op));
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

fn verify_load(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let t = ir.value_type(ir.operand(op, 0));
    if ir.type_data(t).element_type() != Some(ir.value_type(ir.result(op, 0))) {
        return Err("failed to verify that result type matches element type of 'memref'".into());
    }
    let rank = shape_of(ir, t).len();
    if ir.operands(op).len() - 1 != rank {
        return Err(format!(
            "incorrect number of indices for load, expected {rank} but got {}",
            ir.operands(op).len() - 1
        )
        .into());
    }
    Ok(())
}

fn parse_store(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let v = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let m = p.parse_operand()?;
    let idx = parse_index_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let t = p.parse_colon_type()?;
    let Some(elem) = p.ir.type_data(t).element_type() else { return p.error_at(pos, "expected a shaped type") };
    let vv = p.resolve_operand(&v, elem)?;
    let mv = p.resolve_operand(&m, t)?;
    r.operands = vec![vv, mv];
    let it = p.ir.index_type();
    resolve_all(p, &idx, it, r)?;
    Ok(())
}

fn print_store(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(", ");
    p.print_value(ir.operand(op, 1));
    print_index_list(p, &ir.operands(op)[2..]);
    p.print_optional_attr_dict(op, load_store_elided(ir, op));
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 1)));
}

fn verify_store(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let t = ir.value_type(ir.operand(op, 1));
    if ir.type_data(t).element_type() != Some(ir.value_type(ir.operand(op, 0))) {
        return Err("failed to verify that type of 'value' matches element type of 'memref'".into());
    }
    let rank = shape_of(ir, t).len();
    if ir.operands(op).len() - 2 != rank {
        return Err("store index operand count not equal to memref rank".into());
    }
    Ok(())
}

/// `%src, %idx : T` (dim).
pub fn parse_dim(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let i = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let sv = p.resolve_operand(&s, t)?;
    let it = p.ir.index_type();
    let iv = p.resolve_operand(&i, it)?;
    r.operands = vec![sv, iv];
    r.result_types.push(it);
    Ok(())
}

pub fn print_dim(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

/// `%src [[0, 1]] (output_shape [..])? : T1 into T2` (collapse/expand shape).
pub fn parse_reshape(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    let re = parse_reassociation(p)?;
    push_attr(p, r, "reassociation", re);
    let mut out_dyn = Vec::new();
    let mut is_expand = false;
    if p.parse_optional_keyword("output_shape") {
        is_expand = true;
        let (statics, dyns) = parse_dynamic_index_list(p)?;
        out_dyn = dyns;
        let a = i64_array_attr(p.ir, &statics);
        push_attr(p, r, "static_output_shape", a);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src_t = p.parse_colon_type()?;
    p.expect_keyword("into")?;
    let res_t = p.parse_type()?;
    let sv = p.resolve_operand(&s, src_t)?;
    r.operands.push(sv);
    let it = p.ir.index_type();
    resolve_all(p, &out_dyn, it, r)?;
    let _ = is_expand;
    r.result_types.push(res_t);
    Ok(())
}

pub fn print_reshape(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" ");
    if let Some(a) = ir.get_attr(op, "reassociation") {
        p.print_attr(a, Elide::May);
    }
    if ir.get_attr(op, "static_output_shape").is_some() {
        p.push(" output_shape ");
        let statics = i64_array(ir, op, "static_output_shape");
        print_dynamic_index_list(p, &statics, &ir.operands(op)[1..]);
    }
    p.print_optional_attr_dict(op, &["reassociation", "static_output_shape"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" into ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

/// `%src[offs] [sizes] [strides] : T1 to T2` (subview / extract_slice).
pub fn parse_slice(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    let mut lists = Vec::new();
    let mut dyn_lists = Vec::new();
    for _ in 0..3 {
        let (st, dy) = parse_dynamic_index_list(p)?;
        lists.push(st);
        dyn_lists.push(dy);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src_t = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let res_t = p.parse_type()?;
    let sv = p.resolve_operand(&s, src_t)?;
    r.operands.push(sv);
    let it = p.ir.index_type();
    for d in &dyn_lists {
        resolve_all(p, d, it, r)?;
    }
    let seg = segment_attr(p.ir, &[1, dyn_lists[0].len(), dyn_lists[1].len(), dyn_lists[2].len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    for (name, l) in ["static_offsets", "static_sizes", "static_strides"].iter().zip(&lists) {
        let a = i64_array_attr(p.ir, l);
        push_attr(p, r, name, a);
    }
    r.result_types.push(res_t);
    Ok(())
}

pub const SLICE_ATTRS: &[&str] = &["operandSegmentSizes", "static_offsets", "static_sizes", "static_strides"];

/// Prints `[offs] [sizes] [strides]` from segments starting at `first_seg`.
pub fn print_slice_lists(p: &mut Printer<'_>, op: OpId, first_seg: usize) {
    let ir = p.ir;
    for (i, name) in ["static_offsets", "static_sizes", "static_strides"].iter().enumerate() {
        if i > 0 {
            p.push(" ");
        }
        let statics = i64_array(ir, op, name);
        print_dynamic_index_list(p, &statics, segment(ir, op, first_seg + i));
    }
}

pub fn print_slice(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    print_slice_lists(p, op, 1);
    p.print_optional_attr_dict(op, SLICE_ATTRS);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_slice4(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 4)?;
    let r = ir.type_data(ir.value_type(ir.operand(op, 0))).rank();
    verify_offset_size_stride(ir, op, 1, [r, r, r])?;
    verify_non_negative_sizes(ir, op)?;
    verify_subview_type(ir, op)?;
    crate::util::verify_slice_in_bounds(ir, op, ir.value_type(ir.operand(op, 0)))
}

/// The result type against the one upstream infers, in its order and words.
fn verify_subview_type(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    use hivm_ir::dialect::VerifyError;
    let (base, result) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)));
    let (
        TypeData::MemRef { elem, memory_space, .. },
        TypeData::MemRef { shape, elem: r_elem, memory_space: r_space, .. },
    ) = (ir.type_data(base), ir.type_data(result))
    else {
        return Ok(());
    };
    let (bs, rs) = (type_str(ir, base), type_str(ir, result));
    if memory_space != r_space {
        return Err(VerifyError::plain(format!(
            "different memory spaces specified for base memref type '{bs}' and subview memref type '{rs}'"
        )));
    }
    let Some(src) = strides_and_offset(ir, base) else {
        return Err(VerifyError::plain(format!("base type '{bs}' is not strided")));
    };
    let sizes = i64_array(ir, op, "static_sizes");
    let (strides, offset) =
        subview_layout(&src, &i64_array(ir, op, "static_offsets"), &i64_array(ir, op, "static_strides"));
    let expected =
        hivm_ir::printer::shaped_type_string(ir, "memref", &sizes, *elem, Some((&strides, offset)), *memory_space);
    let layout_err = || {
        VerifyError::plain(format!(
            "expected result type to be '{expected}' or a rank-reduced version. (mismatch of result layout), but got '{rs}'"
        ))
    };
    if shape.len() > sizes.len() {
        return Err(VerifyError::plain(format!(
            "expected result rank to be smaller or equal to the source rank, but got '{rs}'"
        )));
    }
    if rank_reduction_keep(&sizes, shape).is_none() {
        return Err(VerifyError::plain(format!(
            "expected result type to be '{expected}' or a rank-reduced version. (mismatch of result sizes), but got '{rs}'"
        )));
    }
    if elem != r_elem {
        return Err(VerifyError::plain(format!(
            "expected result element type to be '{}', but got '{rs}'",
            type_str(ir, *elem)
        )));
    }
    let Some((r_strides, r_offset)) = strides_and_offset(ir, result) else { return Err(layout_err()) };
    let compatible = |a: i64, b: i64| a == b || a == DYNAMIC || b == DYNAMIC;
    if !compatible(offset, r_offset) {
        return Err(layout_err());
    }
    // Which unit dims were dropped is decided by the strides, as MLIR does.
    let Some(dropped) = dropped_dims(&sizes, &strides, &r_strides) else { return Err(layout_err()) };
    let kept: Vec<i64> = strides.iter().zip(&dropped).filter(|(_, d)| !**d).map(|(s, _)| *s).collect();
    if kept.len() != r_strides.len() || !kept.iter().zip(&r_strides).all(|(a, b)| compatible(*a, *b)) {
        return Err(layout_err());
    }
    Ok(())
}

/// MLIR's `computeMemRefRankReductionMask`: the unit dims a rank-reduced
/// subview drops. When more unit dims exist than are dropped, a dim counts
/// as dropped only while its stride occurs more often in the source layout
/// than in the result's (so `1x1` with strides `[4, 1]` may drop either).
fn dropped_dims(sizes: &[i64], strides: &[i64], result_strides: &[i64]) -> Option<Vec<bool>> {
    let n = sizes.len();
    let rank = result_strides.len();
    let mut dropped: Vec<bool> = sizes.iter().map(|s| *s == 1).collect();
    if n == rank {
        return Some(vec![false; n]);
    }
    if dropped.iter().filter(|d| **d).count() + rank == n {
        return Some(dropped);
    }
    let count = |v: &[i64]| {
        let mut m = std::collections::HashMap::new();
        for s in v {
            *m.entry(*s).or_insert(0usize) += 1;
        }
        m
    };
    let (mut unaccounted, in_result) = (count(strides), count(result_strides));
    for dim in 0..n {
        if !dropped[dim] {
            continue;
        }
        let s = strides[dim];
        let (have, want) = (unaccounted.get(&s).copied().unwrap_or(0), in_result.get(&s).copied().unwrap_or(0));
        match have.cmp(&want) {
            std::cmp::Ordering::Greater => *unaccounted.get_mut(&s)? -= 1,
            std::cmp::Ordering::Equal => dropped[dim] = false,
            std::cmp::Ordering::Less => return None,
        }
    }
    (dropped.iter().filter(|d| **d).count() + rank == n).then_some(dropped)
}

fn verify_reinterpret(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 4)?;
    // One offset; sizes and strides of the result's rank.
    let r = ir.type_data(ir.value_type(ir.result(op, 0))).rank();
    verify_offset_size_stride(ir, op, 1, [1, r, r])
}

fn parse_reinterpret(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    p.expect_keyword("to")?;
    let mut lists = Vec::new();
    let mut dyn_lists = Vec::new();
    for (i, kw) in ["offset", "sizes", "strides"].iter().enumerate() {
        if i > 0 {
            p.expect(Tok::Comma, "','")?;
        }
        p.expect_keyword(kw)?;
        p.expect(Tok::Colon, "':'")?;
        let (st, dy) = parse_dynamic_index_list(p)?;
        lists.push(st);
        dyn_lists.push(dy);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src_t = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let res_t = p.parse_type()?;
    let sv = p.resolve_operand(&s, src_t)?;
    r.operands.push(sv);
    let it = p.ir.index_type();
    for d in &dyn_lists {
        resolve_all(p, d, it, r)?;
    }
    let seg = segment_attr(p.ir, &[1, dyn_lists[0].len(), dyn_lists[1].len(), dyn_lists[2].len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    for (name, l) in ["static_offsets", "static_sizes", "static_strides"].iter().zip(&lists) {
        let a = i64_array_attr(p.ir, l);
        push_attr(p, r, name, a);
    }
    r.result_types.push(res_t);
    Ok(())
}

fn print_reinterpret(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" to ");
    for (i, (kw, name)) in
        [("offset", "static_offsets"), ("sizes", "static_sizes"), ("strides", "static_strides")].iter().enumerate()
    {
        if i > 0 {
            p.push(", ");
        }
        p.push(kw);
        p.push(": ");
        let statics = i64_array(ir, op, name);
        print_dynamic_index_list(p, &statics, segment(ir, op, 1 + i));
    }
    p.print_optional_attr_dict(op, SLICE_ATTRS);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn parse_view(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    let shift = parse_index_list(p)?;
    let sizes = parse_index_list(p)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src_t = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let res_t = p.parse_type()?;
    let sv = p.resolve_operand(&s, src_t)?;
    r.operands.push(sv);
    let it = p.ir.index_type();
    resolve_all(p, &shift, it, r)?;
    resolve_all(p, &sizes, it, r)?;
    r.result_types.push(res_t);
    Ok(())
}

fn print_view(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    let ops = ir.operands(op);
    print_index_list(p, &ops[1..2.min(ops.len())]);
    print_index_list(p, if ops.len() > 2 { &ops[2..] } else { &[] });
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn parse_esm(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let s = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    p.expect(Tok::Arrow, "'->'")?;
    r.result_types = p.parse_type_list_no_parens()?;
    let v = p.resolve_operand(&s, t)?;
    r.operands.push(v);
    Ok(())
}

fn print_esm(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" -> ");
    p.print_value_types(ir.results(op));
}

fn esm_names(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    let res = ir.results(op);
    if res.len() < 2 {
        return;
    }
    let rank = (res.len() - 2) / 2;
    set(res[0], "base_buffer".into());
    set(res[1], "offset".into());
    if rank > 0 {
        set(res[2], "sizes".into());
        set(res[2 + rank], "strides".into());
    }
}

pub fn dialect() -> Dialect {
    let seg = &["operandSegmentSizes", "alignment"];
    Dialect::new(
        "memref",
        vec![
            OpDef::new("memref.global")
                .traits(Traits::SYMBOL)
                .inherent(&["sym_visibility", "constant", "sym_name", "type", "initial_value", "alignment"])
                .assembly(parse_global, print_global)
                .verifier(verify_global),
            OpDef::new("memref.get_global")
                .traits(Traits::PURE)
                .inherent(&["name"])
                .assembly(parse_get_global, print_get_global)
                .verifier(verify_get_global),
            OpDef::new("memref.assume_alignment")
                .inherent(&["alignment"])
                .assembly(parse_assume_alignment, print_assume_alignment)
                .verifier(verify_assume_alignment)
                .names(assume_align_name),
            OpDef::new("memref.alloc")
                .inherent(seg)
                .assembly(parse_alloc, print_alloc)
                .verifier(verify_alloc)
                .names(alloc_name),
            OpDef::new("memref.alloca")
                .inherent(seg)
                .assembly(parse_alloc, print_alloc)
                .verifier(verify_alloc)
                .names(alloca_name),
            OpDef::new("memref.dealloc")
                .arity((1, Some(1)), (0, Some(0)), 0)
                .assembly(parse_unary_typed, print_unary_typed),
            OpDef::new("memref.cast")
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_cast, print_cast)
                .names(cast_name),
            OpDef::new("memref.copy").arity((2, Some(2)), (0, Some(0)), 0).assembly(parse_copy, print_copy),
            OpDef::new("memref.load")
                .arity((1, None), (1, Some(1)), 0)
                .inherent(&["nontemporal", "alignment"])
                .assembly(parse_load, print_load)
                .verifier(verify_load),
            OpDef::new("memref.store")
                .arity((2, None), (0, Some(0)), 0)
                .inherent(&["nontemporal", "alignment"])
                .assembly(parse_store, print_store)
                .verifier(verify_store),
            OpDef::new("memref.dim")
                .arity((2, Some(2)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_dim, print_dim)
                .names(dim_name),
            OpDef::new("memref.collapse_shape")
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["reassociation"])
                .assembly(parse_reshape, print_reshape)
                .verifier(crate::util::verify_reshape)
                .names(collapse_name),
            OpDef::new("memref.expand_shape")
                .arity((1, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .inherent(&["reassociation", "static_output_shape"])
                .assembly(parse_reshape, print_reshape)
                .verifier(crate::util::verify_reshape)
                .names(expand_name),
            OpDef::new("memref.subview")
                .traits(Traits::PURE)
                .inherent(SLICE_ATTRS)
                .assembly(parse_slice, print_slice)
                .verifier(verify_slice4)
                .names(subview_name),
            OpDef::new("memref.reinterpret_cast")
                .traits(Traits::PURE)
                .inherent(SLICE_ATTRS)
                .assembly(parse_reinterpret, print_reinterpret)
                .verifier(verify_reinterpret)
                .names(reinterpret_name),
            OpDef::new("memref.view")
                .arity((2, None), (1, Some(1)), 0)
                .traits(Traits::PURE)
                .assembly(parse_view, print_view)
                .names(view_name),
            OpDef::new("memref.memory_space_cast")
                .traits(Traits::PURE)
                .assembly(parse_cast, print_cast)
                .names(memspace_name),
            OpDef::new("memref.extract_strided_metadata")
                .arity((1, Some(1)), (2, None), 0)
                .traits(Traits::PURE)
                .assembly(parse_esm, print_esm)
                .names(esm_names),
            REALLOC.def(),
            DMA_WAIT.def(),
            MEMORY_SPACE_CAST.def().names(memspacecast_name),
            EXTRACT_ALIGNED_POINTER.def().names(intptr_name),
            RESHAPE.def().names(reshape_name),
            RANK.def(),
        ]
        .into_iter()
        .chain(atomic::defs())
        .chain(dma::defs())
        .chain(scope::defs())
        .chain(transpose::defs())
        .collect(),
    )
}

/// Builds `memref.alloc(sizes) {alignment}` of type `ty` right before
/// `before`, at its location: the one way passes create allocations.
pub fn build_alloc(ir: &mut Ir, before: OpId, ty: hivm_ir::Type, sizes: &[Value], alignment: Option<i64>) -> Value {
    let loc = ir.loc(before);
    let seg = segment_attr(ir, &[sizes.len(), 0]);
    let mut attrs = vec![("operandSegmentSizes", seg)];
    if let Some(a) = alignment {
        attrs.push(("alignment", ir.i64_attr(a)));
    }
    let op = hivm_ir::builder::Builder::new(ir, hivm_ir::builder::InsertPoint::Before(before)).op(
        "memref.alloc",
        sizes,
        &[ty],
        attrs,
        loc,
    );
    ir.result(op, 0)
}

namer!(intptr_name, "intptr");
namer!(reshape_name, "reshape");

/// `memref.reshape %m(%shape) : (memref<*xf32>, memref<1xi32>) -> memref<?xf32>`.
const RESHAPE: OpSpec = OpSpec {
    name: "memref.reshape",
    operands: &[one("source"), one("shape")],
    results: &[one("result")],
    format: "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const RANK: OpSpec = OpSpec {
    name: "memref.rank",
    operands: &[one("memref")],
    results: &[one("result").of(Fixed::Index)],
    format: "$memref attr-dict `:` type($memref)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};
namer!(memspacecast_name, "memspacecast");

/// `%b = memref.realloc %a (%n)? : memref<2xf32> to memref<?xf32>`.
const REALLOC: OpSpec = OpSpec {
    name: "memref.realloc",
    operands: &[one("source"), opt("dynamicResultSize").of(Fixed::Index)],
    attrs: &[opt_attr("alignment", AttrKind::Int(64))],
    results: &[one("result")],
    format: "$source (`(` $dynamicResultSize^ `)`)? attr-dict `:` type($source) `to` type(results)",
    ..OpSpec::EMPTY
};

/// `memref.dma_wait %tag[%i], %n : memref<1xi32>`.
const DMA_WAIT: OpSpec = OpSpec {
    name: "memref.dma_wait",
    operands: &[one("tagMemRef"), var("tagIndices").of(Fixed::Index), one("numElements").of(Fixed::Index)],
    format: "$tagMemRef `[` $tagIndices `]` `,` $numElements attr-dict `:` type($tagMemRef)",
    ..OpSpec::EMPTY
};

const MEMORY_SPACE_CAST: OpSpec = OpSpec {
    name: "memref.memory_space_cast",
    operands: &[one("source")],
    results: &[one("dest")],
    format: "$source attr-dict `:` type($source) `to` type($dest)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const EXTRACT_ALIGNED_POINTER: OpSpec = OpSpec {
    name: "memref.extract_aligned_pointer_as_index",
    operands: &[one("source")],
    results: &[one("aligned_pointer")],
    format: "$source `:` type($source) `->` type(results) attr-dict",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

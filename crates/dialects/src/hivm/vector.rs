//! HIVM elementwise vector ops (`hivm.hir.vadd`, `vexp`, ...), all on PIPE_V,
//! sharing upstream's structured format:
//! `attr-dict ins(...) outs(...) (temp_buffer(...))? (broadcast = [..])?
//! (transpose = [..])? (-> types)?`.

use hivm_ir::attrs::{AttrData, DenseArrayData};
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Attribute, Ir, OpDef, OpId};

use crate::util::{check_segments, i64_array, i64_array_attr, push_attr, segment, segment_attr};

/// A clause after `temp_buffer`, printed only when not the default: an enum
/// (`round_mode = <rint>`: attribute, mnemonic, default) or a boolean that
/// defaults to true (`is_signed = false`, or `is_signed : false`).
#[derive(Clone, Copy)]
enum Extra {
    Enum(&'static str, &'static str, &'static str),
    Bool(&'static str, &'static str),
}

/// The ops with extra clauses: mnemonic, clauses, and the function that
/// gives all their defaults (broadcast, transpose and the clauses).
const WITH_EXTRAS: &[(&str, &[Extra], hivm_ir::dialect::DefaultsFn)] = &[
    ("vcast", &[Extra::Enum("round_mode", "round_mode", "rint"), Extra::Enum("cast", "cast", "cast_signed")], |ir| {
        defaults_with(ir, "vcast")
    }),
    ("vdiv", &[Extra::Bool("isSigned", "=")], |ir| defaults_with(ir, "vdiv")),
    ("vmax", &[Extra::Bool("is_signed", "=")], |ir| defaults_with(ir, "vmax")),
    ("vmin", &[Extra::Bool("is_signed", "=")], |ir| defaults_with(ir, "vmin")),
    ("vcmp", &[Extra::Enum("compare_mode", "compare_mode", "eq"), Extra::Bool("is_signed", ":")], |ir| {
        defaults_with(ir, "vcmp")
    }),
];

fn extras(name: &str) -> &'static [Extra] {
    let m = name.strip_prefix("hivm.hir.").unwrap_or(name);
    WITH_EXTRAS.iter().find(|(n, _, _)| *n == m).map_or(&[], |(_, e, _)| e)
}

impl Extra {
    fn attr(&self) -> &'static str {
        match self {
            Extra::Enum(a, ..) | Extra::Bool(a, _) => a,
        }
    }
}

/// (mnemonic, inputs, has a temp_buffer operand).
const ELEMENTWISE: &[(&str, usize, bool)] = &[
    ("vcast", 1, true),
    ("vexp", 1, true),
    ("vabs", 1, true),
    ("vln", 1, true),
    ("vrelu", 1, true),
    ("vsqrt", 1, true),
    ("vrsqrt", 1, true),
    ("vrec", 1, true),
    ("vnot", 1, true),
    ("vtanh", 1, false),
    ("vsin", 1, false),
    ("vcos", 1, false),
    ("vadd", 2, true),
    ("vsub", 2, true),
    ("vmul", 2, true),
    ("vdiv", 2, true),
    ("vmax", 2, true),
    ("vmin", 2, true),
    ("vand", 2, true),
    ("vor", 2, true),
    ("vxor", 2, true),
    ("vpow", 2, true),
    ("vcmp", 2, true),
    ("vsel", 3, true),
];

/// Whether `name` is one of the elementwise vector ops (`hivm.hir.vadd`, ...).
pub fn is_elementwise(name: &str) -> bool {
    name.strip_prefix("hivm.hir.").is_some_and(|m| ELEMENTWISE.iter().any(|(n, _, _)| *n == m))
}

fn spec(ir: &Ir, name: &str) -> (usize, bool) {
    let _ = ir;
    let m = name.strip_prefix("hivm.hir.").unwrap_or(name);
    ELEMENTWISE.iter().find(|(n, _, _)| *n == m).map(|(_, i, t)| (*i, *t)).unwrap_or((1, false))
}

fn empty_i64_array(ir: &mut Ir) -> Attribute {
    i64_array_attr(ir, &[])
}

fn defaults(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    let e = empty_i64_array(ir);
    vec![("broadcast", e), ("transpose", e)]
}

/// The defaults of broadcast, transpose and the extra clauses of `mnemonic`.
fn defaults_with(ir: &mut Ir, mnemonic: &str) -> Vec<(&'static str, Attribute)> {
    let mut v = defaults(ir);
    for e in extras(mnemonic) {
        match *e {
            Extra::Enum(attr, mnemonic, default) => {
                v.push((attr, crate::util::opaque_attr(ir, "hivm", &format!("{mnemonic}<{default}>"))))
            }
            Extra::Bool(attr, _) => v.push((attr, ir.bool_attr(true))),
        }
    }
    v
}

fn parse_group(p: &mut Parser<'_>, kw: &str, out: &mut Vec<hivm_ir::Value>) -> PResult<bool> {
    match crate::util::parse_keyword_group(p, kw)? {
        Some(v) => {
            out.extend(v);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// `[1, 2]`: a DenseI64ArrayAttr in its stripped declarative form.
fn parse_i64_list(p: &mut Parser<'_>) -> PResult<Attribute> {
    let mut v = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "integer list", &mut |p| {
        v.push(p.parse_integer("integer")? as i64);
        Ok(())
    })?;
    Ok(i64_array_attr(p.ir, &v))
}

fn parse_vector(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let (_, has_tmp) = spec(p.ir, p.ir.sym_str(r.name));
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let (mut src, mut dst, mut tmp) = (Vec::new(), Vec::new(), Vec::new());
    parse_group(p, "ins", &mut src)?;
    parse_group(p, "outs", &mut dst)?;
    if has_tmp {
        parse_group(p, "temp_buffer", &mut tmp)?;
    }
    let name = p.ir.sym_str(r.name).to_string();
    for e in extras(&name) {
        match *e {
            Extra::Enum(attr, mnemonic, _) => {
                if p.parse_optional_keyword(attr) {
                    p.expect(Tok::Equal, "'='")?;
                    let a = super::attrs::parse_stripped_enum(p, mnemonic)?;
                    push_attr(p, r, attr, a);
                }
            }
            Extra::Bool(attr, sep) => {
                if p.parse_optional_keyword(attr) {
                    if sep == ":" {
                        p.expect(Tok::Colon, "':'")?;
                    } else {
                        p.expect(Tok::Equal, "'='")?;
                    }
                    let pos = p.pos();
                    let b = match p.parse_keyword("boolean")? {
                        "true" => true,
                        "false" => false,
                        _ => return p.error_at(pos, "expected 'true' or 'false'"),
                    };
                    let a = p.ir.bool_attr(b);
                    push_attr(p, r, attr, a);
                }
            }
        }
    }
    for kw in ["broadcast", "transpose"] {
        if p.parse_optional_keyword(kw) {
            p.expect(Tok::Equal, "'='")?;
            let a = parse_i64_list(p)?;
            push_attr(p, r, kw, a);
        }
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let mut sizes = vec![src.len(), dst.len()];
    if has_tmp {
        sizes.push(tmp.len());
    }
    let seg = segment_attr(p.ir, &sizes);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = src.into_iter().chain(dst).chain(tmp).collect();
    Ok(())
}

use crate::util::print_keyword_group as print_group;

fn print_vector(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let (_, has_tmp) = spec(ir, ir.op_name(op));
    let extra = extras(ir.op_name(op));
    let mut elided = vec!["operandSegmentSizes", "broadcast", "transpose"];
    elided.extend(extra.iter().map(|e| e.attr()));
    p.print_optional_attr_dict(op, &elided);
    print_group(p, "ins", segment(ir, op, 0));
    print_group(p, "outs", segment(ir, op, 1));
    if has_tmp {
        print_group(p, "temp_buffer", segment(ir, op, 2));
    }
    for e in extra {
        match *e {
            Extra::Enum(attr, mnemonic, default) => {
                if let Some(v) = ir.get_attr(op, attr).and_then(|a| super::attrs::enum_value(ir, a, mnemonic))
                    && v != default
                {
                    p.push(&format!(" {attr} = <{v}>"));
                }
            }
            Extra::Bool(attr, sep) => {
                if ir.get_attr(op, attr).and_then(|a| ir.as_int(a)) == Some(0) {
                    p.push(&format!(" {attr} {sep} false"));
                }
            }
        }
    }
    for kw in ["broadcast", "transpose"] {
        let v = i64_array(ir, op, kw);
        if !v.is_empty() {
            let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            p.push(&format!(" {kw} = [{}]", items.join(", ")));
        }
    }
    let results = ir.results(op);
    if !results.is_empty() {
        p.push(" -> ");
        p.print_value_types(results);
    }
}

fn verify_vector(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let (inputs, has_tmp) = spec(ir, ir.op_name(op));
    check_segments(ir, op, if has_tmp { 3 } else { 2 })?;
    let (src, dst) = (segment(ir, op, 0), segment(ir, op, 1));
    if src.len() != inputs {
        return Err(format!("expected {inputs} input operand(s), but got {}", src.len()).into());
    }
    if dst.len() != 1 {
        return Err(format!("expected 1 output operand, but got {}", dst.len()).into());
    }
    let dt = ir.value_type(dst[0]);
    if !ir.type_data(dt).is_shaped() {
        return Err("output must be a shaped type".into());
    }
    let tensor_dst = ir.type_data(dt).is_tensor();
    let results = ir.results(op);
    if tensor_dst != (results.len() == 1) || results.iter().any(|r| ir.value_type(*r) != dt) {
        return Err("expected one result of the output's tensor type, or none for a memref output".into());
    }
    for k in ["broadcast", "transpose"] {
        if let Some(a) = ir.get_attr(op, k)
            && !matches!(ir.attr_data(a), AttrData::DenseArray { data: DenseArrayData::Int(_), .. })
        {
            return Err(format!("attribute '{k}' failed to satisfy constraint: i64 dense array attribute").into());
        }
    }
    Ok(())
}

pub fn defs() -> Vec<OpDef> {
    let leak = |v: Vec<&'static str>| -> &'static [&'static str] { Box::leak(v.into_boxed_slice()) };
    ELEMENTWISE
        .iter()
        .map(|(n, _, _)| {
            let name: &'static str = Box::leak(format!("hivm.hir.{n}").into_boxed_str());
            let def = OpDef::new(name).assembly(parse_vector, print_vector).verifier(verify_vector);
            let (clauses, defaults_fn) = WITH_EXTRAS
                .iter()
                .find(|(m, _, _)| m == n)
                .map_or((&[][..], defaults as hivm_ir::dialect::DefaultsFn), |(_, e, f)| (*e, *f));
            let attrs = clauses.iter().map(|e| e.attr());
            let defaulted: Vec<&'static str> = ["broadcast", "transpose"].into_iter().chain(attrs).collect();
            let inherent: Vec<&'static str> = std::iter::once("operandSegmentSizes").chain(defaulted.clone()).collect();
            def.inherent(leak(inherent)).defaults(leak(defaulted), defaults_fn)
        })
        .collect()
}

// ----- vbrc: `attr-dict ins(src) outs(dst) (temp_buffer(..))? (broadcast_dims = [..])? (-> T)?` -----

fn brc_defaults(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    vec![("broadcast_dims", empty_i64_array(ir))]
}

fn parse_vbrc(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let mut ops = Vec::new();
    for kw in ["ins", "outs"] {
        if !parse_group(p, kw, &mut ops)? {
            return p.error(format!("expected '{kw}'"));
        }
    }
    parse_group(p, "temp_buffer", &mut ops)?;
    if p.parse_optional_keyword("broadcast_dims") {
        p.expect(Tok::Equal, "'='")?;
        let a = parse_i64_list(p)?;
        push_attr(p, r, "broadcast_dims", a);
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    r.operands = ops;
    Ok(())
}

fn print_vbrc(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    p.print_optional_attr_dict(op, &["broadcast_dims"]);
    print_group(p, "ins", &ops[..1.min(ops.len())]);
    print_group(p, "outs", ops.get(1..2).unwrap_or(&[]));
    print_group(p, "temp_buffer", ops.get(2..).unwrap_or(&[]));
    let dims = i64_array(ir, op, "broadcast_dims");
    if !dims.is_empty() {
        let items: Vec<String> = dims.iter().map(|x| x.to_string()).collect();
        p.push(&format!(" broadcast_dims = [{}]", items.join(", ")));
    }
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_vbrc(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let ops = ir.operands(op);
    if !(2..=3).contains(&ops.len()) {
        return Err(format!("expected 2 or 3 operands, but found {}", ops.len()).into());
    }
    let dt = ir.value_type(ops[1]);
    if !ir.type_data(dt).is_shaped() {
        return Err("output must be a tensor or memref".into());
    }
    let tensor_dst = ir.type_data(dt).is_tensor();
    let results = ir.results(op);
    if tensor_dst != (results.len() == 1) || results.iter().any(|r| ir.value_type(*r) != dt) {
        return Err("expected one result of the output's tensor type, or none for a memref output".into());
    }
    Ok(())
}

// ----- vreduce: `attr-dict <kind> ins(..) (indices(..))? outs(..) (temp_buffer(..))?
//       (unsigned_src = b)? (tie_break_left = b)? reduce_dims = [..] (-> T)?` -----

fn reduce_defaults(ir: &mut Ir) -> Vec<(&'static str, Attribute)> {
    let (f, t) = (ir.bool_attr(false), ir.bool_attr(true));
    vec![("unsigned_src", f), ("tie_break_left", t)]
}

fn parse_vreduce(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let kind = super::attrs::parse_stripped_enum(p, "reduce_op")?;
    push_attr(p, r, "arith", kind);
    let (mut src, mut idx, mut dst, mut tmp) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    if !parse_group(p, "ins", &mut src)? {
        return p.error("expected 'ins'");
    }
    parse_group(p, "indices", &mut idx)?;
    if !parse_group(p, "outs", &mut dst)? {
        return p.error("expected 'outs'");
    }
    parse_group(p, "temp_buffer", &mut tmp)?;
    for kw in ["unsigned_src", "tie_break_left"] {
        if p.parse_optional_keyword(kw) {
            p.expect(Tok::Equal, "'='")?;
            let a = p.parse_attribute(None)?;
            push_attr(p, r, kw, a);
        }
    }
    p.expect_keyword("reduce_dims")?;
    p.expect(Tok::Equal, "'='")?;
    let dims = parse_i64_list(p)?;
    push_attr(p, r, "reduce_dims", dims);
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    let seg = segment_attr(p.ir, &[src.len(), dst.len(), tmp.len(), idx.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.operands = src.into_iter().chain(dst).chain(tmp).chain(idx).collect();
    Ok(())
}

fn print_vreduce(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes", "arith", "unsigned_src", "tie_break_left", "reduce_dims"]);
    if let Some(a) = ir.get_attr(op, "arith")
        && let Some(v) = super::attrs::enum_value(ir, a, "reduce_op")
    {
        p.push(&format!(" <{v}>"));
    }
    print_group(p, "ins", segment(ir, op, 0));
    print_group(p, "indices", segment(ir, op, 3));
    print_group(p, "outs", segment(ir, op, 1));
    print_group(p, "temp_buffer", segment(ir, op, 2));
    for (kw, default) in [("unsigned_src", 0), ("tie_break_left", 1)] {
        if let Some(v) = ir.get_attr(op, kw).and_then(|a| ir.as_int(a))
            && v != default
        {
            p.push(&format!(" {kw} = {}", if v != 0 { "true" } else { "false" }));
        }
    }
    let dims: Vec<String> = i64_array(ir, op, "reduce_dims").iter().map(|x| x.to_string()).collect();
    p.push(&format!(" reduce_dims = [{}]", dims.join(", ")));
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_vreduce(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 4)?;
    if ir.get_attr(op, "reduce_dims").is_none() {
        return Err("requires attribute 'reduce_dims'".into());
    }
    if segment(ir, op, 0).len() != 1 || segment(ir, op, 1).is_empty() {
        return Err("expects one input and at least one output".into());
    }
    Ok(())
}

pub fn other_defs() -> Vec<OpDef> {
    vec![
        OpDef::new("hivm.hir.vbrc")
            .inherent(&["broadcast_dims"])
            .assembly(parse_vbrc, print_vbrc)
            .verifier(verify_vbrc)
            .defaults(&["broadcast_dims"], brc_defaults),
        OpDef::new("hivm.hir.vreduce")
            .inherent(&["operandSegmentSizes", "arith", "unsigned_src", "tie_break_left", "reduce_dims"])
            .assembly(parse_vreduce, print_vreduce)
            .verifier(verify_vreduce)
            .defaults(&["unsigned_src", "tie_break_left"], reduce_defaults),
        vgather_def(),
    ]
}

// ----- vgather: `attr-dict ins(src) indices(idx) outs(dst) (temp_buffer(..))?
//       (gather_axis = N)? (-> T)?` -----

fn parse_vgather(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let mut ops = Vec::new();
    for kw in ["ins", "indices", "outs"] {
        if !parse_group(p, kw, &mut ops)? {
            return p.error(format!("expected '{kw}'"));
        }
    }
    if ops.len() != 3 {
        return p.error("expected one operand each in ins, indices and outs");
    }
    parse_group(p, "temp_buffer", &mut ops)?;
    if p.parse_optional_keyword("gather_axis") {
        p.expect(Tok::Equal, "'='")?;
        let v = p.parse_integer("gather axis")?;
        let a = p.ir.i64_attr(v as i64);
        push_attr(p, r, "gather_axis", a);
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_type_list_no_parens()?;
    }
    r.operands = ops;
    Ok(())
}

fn print_vgather(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let ops = ir.operands(op);
    p.print_optional_attr_dict(op, &["gather_axis"]);
    for (i, kw) in ["ins", "indices", "outs"].iter().enumerate() {
        print_group(p, kw, ops.get(i..i + 1).unwrap_or(&[]));
    }
    print_group(p, "temp_buffer", ops.get(3..).unwrap_or(&[]));
    if let Some(v) = ir.get_attr(op, "gather_axis").and_then(|a| ir.as_int(a)) {
        p.push(&format!(" gather_axis = {v}"));
    }
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        p.print_value_types(ir.results(op));
    }
}

fn verify_vgather(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let ops = ir.operands(op);
    if !(3..=4).contains(&ops.len()) {
        return Err(format!("expected 3 or 4 operands, but found {}", ops.len()).into());
    }
    for (i, v) in ops[..3].iter().enumerate() {
        if !ir.type_data(ir.value_type(*v)).is_shaped() {
            return Err(format!("operand #{i} must be tensor or memref").into());
        }
    }
    Ok(())
}

pub fn vgather_def() -> OpDef {
    OpDef::new("hivm.hir.vgather")
        .inherent(&["gather_axis"])
        .assembly(parse_vgather, print_vgather)
        .verifier(verify_vgather)
}

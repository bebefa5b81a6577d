//! LLVM ops with hand-written syntax: `call`, `getelementptr`, `alloca`,
//! `inline_asm`, and the branches (cf's syntax); plus the NVVM special
//! registers Triton's SIMT kernels read.

use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{OpSpec, one};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{AttrData, OpDef, OpId, Traits};

use crate::util::{opaque_attr, parse_functional_type_tail, push_attr, segment_attr};

/// `kDynamicIndex`: a GEP index given by an operand.
const DYNAMIC_INDEX: i64 = i32::MIN as i64;

// ----- call: `llvm.call @f(%a) : (i32) -> i32` -----

fn parse_call(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let callee = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(callee), AttrData::SymbolRef { .. }) {
        return p.error("expected a direct callee (indirect llvm.call is not supported by hivm-rs yet)");
    }
    let ops = crate::util::parse_paren_operand_list(p)?;
    if p.parse_optional_keyword("vararg") {
        p.expect(Tok::LParen, "'('")?;
        let t = p.parse_type()?;
        p.expect(Tok::RParen, "')'")?;
        let a = p.ir.type_attr(t);
        push_attr(p, r, "var_callee_type", a);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    parse_functional_type_tail(p, r, &ops)?;
    push_attr(p, r, "callee", callee);
    for (k, body) in
        [("CConv", "cconv<ccc>"), ("TailCallKind", "tailcallkind<none>"), ("fastmathFlags", "fastmath<none>")]
    {
        if !r.attrs.iter().any(|(s, _)| p.ir.sym_str(*s) == k) {
            let a = opaque_attr(p.ir, "llvm", body);
            push_attr(p, r, k, a);
        }
    }
    let i32t = p.ir.int_type(32);
    let bundles = p.ir.attr(AttrData::DenseArray { elem: i32t, data: hivm_ir::attrs::DenseArrayData::Int(Vec::new()) });
    push_attr(p, r, "op_bundle_sizes", bundles);
    let seg = segment_attr(p.ir, &[r.operands.len(), 0]);
    push_attr(p, r, "operandSegmentSizes", seg);
    Ok(())
}

fn print_call(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    if let Some(c) = ir.get_attr(op, "callee") {
        p.print_attr(c, Elide::Never);
    }
    p.push("(");
    p.print_values(ir.operands(op));
    p.push(")");
    if let Some(AttrData::Type(t)) = ir.get_attr(op, "var_callee_type").map(|a| ir.attr_data(a)) {
        p.push(" vararg(");
        p.print_type(*t);
        p.push(")");
    }
    super::print_attrs_without_defaults(
        p,
        op,
        &["callee", "op_bundle_sizes", "operandSegmentSizes", "var_callee_type"],
    );
    p.push(" : ");
    p.print_functional_type(op);
}

/// The callee exists and takes these operands (MLIR's symbol-use check).
fn verify_call(ir: &hivm_ir::Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(AttrData::SymbolRef { root, .. }) = ir.get_attr(op, "callee").map(|a| ir.attr_data(a)) else {
        return Ok(());
    };
    let name = ir.sym_str(*root);
    let Some(f) = hivm_ir::builder::lookup_symbol_from(ir, op, name) else {
        return Err(format!("'{name}' does not reference a symbol in the current scope").into());
    };
    if !ir.is_op(f, "llvm.func") {
        return Err(format!("'{name}' does not reference a valid LLVM function").into());
    }
    let Some((_, params)) = super::func::signature_of(ir, f) else { return Ok(()) };
    let variadic = params.last().is_some_and(|p| p == "...");
    if variadic && ir.get_attr(op, "var_callee_type").is_none() {
        return Err("missing var_callee_type attribute for vararg call".into());
    }
    let fixed: Vec<&String> = params.iter().filter(|p| *p != "...").collect();
    let n = ir.operands(op).len();
    if n < fixed.len() || (!variadic && n != fixed.len()) {
        return Err(format!("incorrect number of operands ({n}) for callee (expecting: {})", fixed.len()).into());
    }
    for (i, (v, want)) in ir.operands(op).iter().zip(&fixed).enumerate() {
        let got = crate::util::type_str(ir, ir.value_type(*v));
        let want = super::qualify(want);
        if got != want {
            return Err(format!("operand type mismatch for operand {i}: '{got}' != '{want}'").into());
        }
    }
    Ok(())
}

/// `llvm.mlir.addressof` names a global or function.
pub(super) fn verify_addressof(ir: &hivm_ir::Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(AttrData::SymbolRef { root, .. }) = ir.get_attr(op, "global_name").map(|a| ir.attr_data(a)) else {
        return Ok(());
    };
    let target = hivm_ir::builder::lookup_symbol_from(ir, op, ir.sym_str(*root));
    if !target.is_some_and(|t| ir.is_op(t, "llvm.mlir.global") || ir.is_op(t, "llvm.func")) {
        return Err("must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'".into());
    }
    Ok(())
}

const CALL_INHERENT: &[&str] = &[
    "callee_type",
    "callee",
    "var_callee_type",
    "fastmathFlags",
    "branch_weights",
    "CConv",
    "TailCallKind",
    "memory_effects",
    "convergent",
    "no_unwind",
    "will_return",
    "op_bundle_sizes",
    "op_bundle_tags",
    "arg_attrs",
    "res_attrs",
    "no_inline",
    "always_inline",
    "inline_hint",
    "access_groups",
    "alias_scopes",
    "noalias_scopes",
    "tbaa",
    "operandSegmentSizes",
];

// ----- getelementptr: `llvm.getelementptr inbounds %p[%i, 1] : (P, I) -> P, T` -----

fn parse_gep_flags(p: &mut Parser<'_>) -> PResult<i128> {
    let mut bits = 0;
    loop {
        if p.tok.kind != Tok::BareIdent {
            return Ok(bits);
        }
        bits |= match p.text() {
            "inbounds" => 3,
            "nusw" => 2,
            "nuw" => 4,
            "none" => 0,
            _ => return Ok(bits),
        };
        p.bump();
        if !p.consume_if(Tok::Vertical) {
            return Ok(bits);
        }
    }
}

fn gep_flags_text(bits: i128) -> String {
    let mut parts = Vec::new();
    if bits & 3 == 3 {
        parts.push("inbounds");
    } else if bits & 2 != 0 {
        parts.push("nusw");
    }
    if bits & 4 != 0 {
        parts.push("nuw");
    }
    parts.join("|")
}

fn parse_gep(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let flags = parse_gep_flags(p)?;
    let base = p.parse_operand()?;
    let (mut dynamic, mut raw) = (Vec::new(), Vec::new());
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
        if p.is(Tok::PercentIdent) {
            dynamic.push(p.parse_operand()?);
            raw.push(DYNAMIC_INDEX);
        } else {
            raw.push(p.parse_integer("index")? as i64);
        }
        Ok(())
    })?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let mut all = vec![base];
    all.extend(dynamic);
    parse_functional_type_tail(p, r, &all)?;
    p.expect(Tok::Comma, "','")?;
    let elem = p.parse_type()?;
    let t = p.ir.type_attr(elem);
    push_attr(p, r, "elem_type", t);
    let i32t = p.ir.int_type(32);
    let f = p.ir.int_attr(flags, i32t);
    push_attr(p, r, "noWrapFlags", f);
    let raw_attr = p.ir.attr(AttrData::DenseArray { elem: i32t, data: hivm_ir::attrs::DenseArrayData::Int(raw) });
    push_attr(p, r, "rawConstantIndices", raw_attr);
    Ok(())
}

fn print_gep(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let flags = ir.get_attr(op, "noWrapFlags").and_then(|a| ir.as_int(a)).unwrap_or(0);
    let text = gep_flags_text(flags);
    if !text.is_empty() {
        p.push(&format!(" {text}"));
    }
    let ops = ir.operands(op);
    p.push(" ");
    p.print_value(ops[0]);
    p.push("[");
    let raw = match ir.get_attr(op, "rawConstantIndices").map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => v.clone(),
        _ => Vec::new(),
    };
    let mut next = ops[1..].iter();
    for (i, r) in raw.iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        match (*r == DYNAMIC_INDEX).then(|| next.next()).flatten() {
            Some(v) => p.print_value(*v),
            None => p.push(&r.to_string()),
        }
    }
    p.push("]");
    p.print_optional_attr_dict(op, &["elem_type", "noWrapFlags", "rawConstantIndices"]);
    p.push(" : ");
    p.print_functional_type(op);
    p.push(", ");
    if let Some(AttrData::Type(t)) = ir.get_attr(op, "elem_type").map(|a| ir.attr_data(a)) {
        p.print_type(*t);
    }
}

// ----- alloca: `llvm.alloca %n x T {alignment = 16 : i64} : (i32) -> !llvm.ptr` -----

fn parse_alloca(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.parse_optional_keyword("inalloca") {
        let u = p.ir.unit_attr();
        push_attr(p, r, "inalloca", u);
    }
    let n = p.parse_operand()?;
    p.expect_keyword("x")?;
    let elem = p.parse_type()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    // An alignment of 0 means none, and MLIR drops it.
    let ir = &*p.ir;
    r.attrs.retain(|(k, a)| !(ir.sym_str(*k) == "alignment" && ir.as_int(*a) == Some(0)));
    parse_functional_type_tail(p, r, &[n])?;
    let t = p.ir.type_attr(elem);
    push_attr(p, r, "elem_type", t);
    Ok(())
}

fn print_alloca(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if ir.get_attr(op, "inalloca").is_some() {
        p.push(" inalloca");
    }
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" x ");
    if let Some(AttrData::Type(t)) = ir.get_attr(op, "elem_type").map(|a| ir.attr_data(a)) {
        p.print_type(*t);
    }
    p.print_optional_attr_dict(op, &["elem_type", "inalloca"]);
    p.push(" : ");
    p.print_functional_type(op);
}

// ----- inline_asm -----

fn parse_inline_asm(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.parse_optional_keyword("has_side_effects") {
        let u = p.ir.unit_attr();
        push_attr(p, r, "has_side_effects", u);
    }
    if p.parse_optional_keyword("is_align_stack") {
        let u = p.ir.unit_attr();
        push_attr(p, r, "is_align_stack", u);
    }
    if p.parse_optional_keyword("tail_call_kind") {
        p.expect(Tok::Equal, "'='")?;
        let a = p.parse_attribute(None)?;
        push_attr(p, r, "tail_call_kind", a);
    }
    if p.parse_optional_keyword("asm_dialect") {
        p.expect(Tok::Equal, "'='")?;
        let pos = p.pos();
        let d = match p.parse_keyword("asm dialect")? {
            "att" => 0,
            "intel" => 1,
            other => return p.error_at(pos, format!("unknown asm dialect '{other}'")),
        };
        let i64t = p.ir.int_type(64);
        let a = p.ir.int_attr(d, i64t);
        push_attr(p, r, "asm_dialect", a);
    }
    if p.parse_optional_keyword("operand_attrs") {
        p.expect(Tok::Equal, "'='")?;
        let a = p.parse_attribute(None)?;
        push_attr(p, r, "operand_attrs", a);
    }
    let s = p.parse_string("asm string")?;
    let a = p.ir.attr(AttrData::String { value: s, ty: None });
    push_attr(p, r, "asm_string", a);
    p.expect(Tok::Comma, "','")?;
    let c = p.parse_string("constraints")?;
    let a = p.ir.attr(AttrData::String { value: c, ty: None });
    push_attr(p, r, "constraints", a);
    let ops = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    parse_functional_type_tail(p, r, &ops)?;
    if !r.attrs.iter().any(|(k, _)| p.ir.sym_str(*k) == "tail_call_kind") {
        let a = opaque_attr(p.ir, "llvm", "tailcallkind<none>");
        push_attr(p, r, "tail_call_kind", a);
    }
    Ok(())
}

fn print_inline_asm(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if ir.get_attr(op, "has_side_effects").is_some() {
        p.push(" has_side_effects");
    }
    if ir.get_attr(op, "is_align_stack").is_some() {
        p.push(" is_align_stack");
    }
    let tail = ir.get_attr(op, "tail_call_kind");
    if let Some(t) = tail.filter(|t| crate::util::opaque_arg(ir, *t, "tailcallkind") != Some("none")) {
        p.push(" tail_call_kind = ");
        p.print_attr(t, Elide::Never);
    }
    if let Some(d) = ir.get_attr(op, "asm_dialect").and_then(|a| ir.as_int(a)) {
        p.push(if d == 1 { " asm_dialect = intel" } else { " asm_dialect = att" });
    }
    if let Some(a) = ir.get_attr(op, "operand_attrs") {
        p.push(" operand_attrs = ");
        p.print_attr(a, Elide::Never);
    }
    for (i, k) in ["asm_string", "constraints"].iter().enumerate() {
        p.push(if i == 0 { " " } else { ", " });
        if let Some(a) = ir.get_attr(op, k) {
            p.print_attr(a, Elide::Never);
        }
    }
    // MLIR leaves the space before an empty operand list.
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(
        op,
        &[
            "has_side_effects",
            "is_align_stack",
            "tail_call_kind",
            "asm_dialect",
            "operand_attrs",
            "asm_string",
            "constraints",
        ],
    );
    p.push(" : ");
    p.print_functional_type(op);
}

/// `nvvm.read.ptx.sreg.tid.x : i32` and its kin.
const RES: &[hivm_ir::opspec::ValueDef] = &[one("res")];

const fn sreg(name: &'static str) -> OpSpec {
    OpSpec { name, results: RES, format: "attr-dict `:` type($res)", traits: Traits::PURE, ..OpSpec::EMPTY }
}

pub fn nvvm_dialect() -> hivm_ir::Dialect {
    let specs = [
        sreg("nvvm.read.ptx.sreg.tid.x"),
        sreg("nvvm.read.ptx.sreg.tid.y"),
        sreg("nvvm.read.ptx.sreg.tid.z"),
        sreg("nvvm.read.ptx.sreg.ntid.x"),
        sreg("nvvm.read.ptx.sreg.ntid.y"),
        sreg("nvvm.read.ptx.sreg.ntid.z"),
        sreg("nvvm.read.ptx.sreg.ctaid.x"),
        sreg("nvvm.read.ptx.sreg.ctaid.y"),
        sreg("nvvm.read.ptx.sreg.ctaid.z"),
        sreg("nvvm.read.ptx.sreg.nctaid.x"),
        sreg("nvvm.read.ptx.sreg.nctaid.y"),
        sreg("nvvm.read.ptx.sreg.nctaid.z"),
        sreg("nvvm.read.ptx.sreg.laneid"),
        sreg("nvvm.read.ptx.sreg.warpsize"),
    ];
    hivm_ir::Dialect::new("nvvm", specs.map(|s| s.def()).to_vec())
}

pub(super) fn defs() -> Vec<OpDef> {
    let mut defs = Vec::new();
    defs.extend([
        OpDef::new("llvm.call")
            .arity((0, None), (0, Some(1)), 0)
            .inherent(CALL_INHERENT)
            .assembly(parse_call, print_call)
            .verifier(verify_call),
        OpDef::new("llvm.getelementptr")
            .arity((1, None), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .inherent(&["rawConstantIndices", "elem_type", "noWrapFlags"])
            .assembly(parse_gep, print_gep),
        OpDef::new("llvm.alloca")
            .arity((1, Some(1)), (1, Some(1)), 0)
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["alignment", "elem_type", "inalloca"])
            .assembly(parse_alloca, print_alloca),
        OpDef::new("llvm.inline_asm")
            .arity((0, None), (0, Some(1)), 0)
            .inherent(&[
                "asm_string",
                "constraints",
                "has_side_effects",
                "is_align_stack",
                "tail_call_kind",
                "asm_dialect",
                "operand_attrs",
            ])
            .assembly(parse_inline_asm, print_inline_asm),
        OpDef::new("llvm.br")
            .traits(Traits::TERMINATOR | Traits::PURE)
            .inherent(&["loop_annotation"])
            .assembly(crate::cf::parse_br, crate::cf::print_br)
            .verifier(crate::cf::verify_br),
        OpDef::new("llvm.switch")
            .arity((1, None), (0, Some(0)), 0)
            .traits(Traits::TERMINATOR | Traits::PURE)
            .inherent(&["case_operand_segments", "case_values", "operandSegmentSizes", "branch_weights"])
            .assembly(crate::cf::parse_switch, crate::cf::print_switch)
            .verifier(crate::cf::verify_switch),
        OpDef::new("llvm.cond_br")
            .traits(Traits::TERMINATOR | Traits::PURE)
            .inherent(&["operandSegmentSizes", "branch_weights", "loop_annotation"])
            .assembly(crate::cf::parse_cond_br, crate::cf::print_cond_br)
            .verifier(crate::cf::verify_cond_br),
    ]);
    defs
}

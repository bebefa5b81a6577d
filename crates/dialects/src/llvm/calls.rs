//! LLVM ops with hand-written syntax: `call`, `getelementptr`, `alloca`,
//! `inline_asm`, and the branches (cf's syntax); plus the NVVM special
//! registers Triton's SIMT kernels read.

use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{OpSpec, one};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{AttrData, OpDef, OpId, Traits, TypeData};

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

// ----- call_intrinsic: `llvm.call_intrinsic "llvm.x"(%a) ["tag"(%p : T)] {attrs} : (A {..}) -> R` -----

/// `(T {attrs}, ...)`: the types, and one dictionary per entry.
fn parse_types_with_attrs(p: &mut Parser<'_>, what: &str) -> PResult<(Vec<hivm_ir::Type>, Vec<hivm_ir::Attribute>)> {
    let (mut types, mut dicts) = (Vec::new(), Vec::new());
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), what, &mut |p| {
        types.push(p.parse_type()?);
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        dicts.push(p.ir.dict_attr(attrs));
        Ok(())
    })?;
    Ok((types, dicts))
}

fn parse_call_intrinsic(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.parse_string("string")?;
    let intrin = p.ir.attr(AttrData::String { value: name, ty: None });
    let args = crate::util::parse_paren_operand_list(p)?;
    // Operand bundles: `["tag"(%a, %b : A, B), "other"()]`.
    let (mut bundle_ops, mut bundle_types, mut sizes, mut tags) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    if p.is(Tok::LSquare) {
        p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
            let tag = p.parse_string("string")?;
            tags.push(p.ir.attr(AttrData::String { value: tag, ty: None }));
            p.expect(Tok::LParen, "'('")?;
            let mut n = 0;
            if !p.consume_if(Tok::RParen) {
                let ops = p.parse_operand_list()?;
                p.expect(Tok::Colon, "':'")?;
                let mut tys = vec![p.parse_type()?];
                while p.consume_if(Tok::Comma) {
                    tys.push(p.parse_type()?);
                }
                p.expect(Tok::RParen, "')'")?;
                if ops.len() != tys.len() {
                    return p.error(format!("expected {} types, but got {}", ops.len(), tys.len()));
                }
                n = ops.len();
                bundle_ops.extend(ops);
                bundle_types.extend(tys);
            }
            sizes.push(n as i64);
            Ok(())
        })?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    p.expect(Tok::Colon, "':'")?;
    if !p.is(Tok::LParen) {
        return p.wrong_token_error("expected '('");
    }
    let (arg_types, arg_dicts) = parse_types_with_attrs(p, "'('")?;
    p.expect(Tok::Arrow, "'->'")?;
    let (results, res_dicts) = if p.is(Tok::LParen) {
        parse_types_with_attrs(p, "'('")?
    } else {
        let t = p.parse_type()?;
        let e = p.ir.empty_dict();
        (vec![t], vec![e])
    };
    if results.len() > 1 {
        return p.op_error_at(pos, "expected function with 0 or 1 result");
    }
    if args.len() != arg_types.len() {
        return p.op_error_at(
            r.pos,
            format!(
                "number of operands and types do not match: got {} operands and {} types",
                args.len(),
                arg_types.len()
            ),
        );
    }
    let vals = p.resolve_operands(&args, &arg_types, pos)?;
    r.operands.extend(vals);
    let vals = p.resolve_operands(&bundle_ops, &bundle_types, pos)?;
    r.operands.extend(vals);
    r.result_types = results;
    push_attr(p, r, "intrin", intrin);
    let empty = p.ir.empty_dict();
    for (k, dicts) in [("arg_attrs", arg_dicts), ("res_attrs", res_dicts)] {
        if dicts.iter().any(|d| *d != empty) {
            let a = p.ir.array_attr(dicts);
            push_attr(p, r, k, a);
        }
    }
    if !r.attrs.iter().any(|(k, _)| p.ir.sym_str(*k) == "fastmathFlags") {
        let a = opaque_attr(p.ir, "llvm", "fastmath<none>");
        push_attr(p, r, "fastmathFlags", a);
    }
    let i32t = p.ir.int_type(32);
    let sizes_attr = p.ir.attr(AttrData::DenseArray { elem: i32t, data: hivm_ir::attrs::DenseArrayData::Int(sizes) });
    push_attr(p, r, "op_bundle_sizes", sizes_attr);
    if !tags.is_empty() {
        let a = p.ir.array_attr(tags);
        push_attr(p, r, "op_bundle_tags", a);
    }
    let seg = segment_attr(p.ir, &[args.len(), bundle_ops.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    Ok(())
}

/// The bundle sizes, when they add up to the operands after the arguments.
fn bundle_sizes(ir: &hivm_ir::Ir, op: OpId) -> Option<Vec<usize>> {
    let sizes = match ir.get_attr(op, "op_bundle_sizes").map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => v.clone(),
        _ => return None,
    };
    if sizes.iter().any(|s| *s < 0) {
        return None;
    }
    let sizes: Vec<usize> = sizes.iter().map(|s| *s as usize).collect();
    let segs = crate::util::segments(ir, op);
    (segs.len() == 2 && sizes.iter().sum::<usize>() == segs[1] && segs[0] + segs[1] == ir.operands(op).len())
        .then_some(sizes)
}

fn print_type_with_attrs(p: &mut Printer<'_>, t: hivm_ir::Type, dict: Option<hivm_ir::Attribute>) {
    p.print_type(t);
    if let Some(d) = dict {
        p.print_attr_dict(d, &[]);
    }
}

fn print_call_intrinsic(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    if let Some(a) = ir.get_attr(op, "intrin") {
        p.print_attr(a, Elide::Never);
    }
    let ops = ir.operands(op);
    let nargs = crate::util::segments(ir, op).first().copied().unwrap_or(ops.len()).min(ops.len());
    p.push("(");
    p.print_values(&ops[..nargs]);
    p.push(")");
    if let Some(sizes) = bundle_sizes(ir, op).filter(|s| !s.is_empty()) {
        let tags =
            ir.get_attr(op, "op_bundle_tags").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
        p.push(" [");
        let mut start = nargs;
        for (i, n) in sizes.iter().enumerate() {
            if i > 0 {
                p.push(", ");
            }
            if let Some(t) = tags.get(i) {
                p.print_attr(*t, Elide::Never);
            }
            p.push("(");
            let vals = &ops[start..start + n];
            if !vals.is_empty() {
                p.print_values(vals);
                p.push(" : ");
                let tys: Vec<hivm_ir::Type> = vals.iter().map(|v| ir.value_type(*v)).collect();
                p.print_type_list(&tys);
            }
            p.push(")");
            start += n;
        }
        p.push("]");
    }
    super::print_attrs_without_defaults(
        p,
        op,
        &["intrin", "op_bundle_sizes", "op_bundle_tags", "operandSegmentSizes", "arg_attrs", "res_attrs"],
    );
    let dicts = |k: &str| ir.get_attr(op, k).and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    let (arg_dicts, res_dicts) = (dicts("arg_attrs"), dicts("res_attrs"));
    p.push(" : (");
    for (i, v) in ops[..nargs].iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        print_type_with_attrs(p, ir.value_type(*v), arg_dicts.get(i).copied());
    }
    p.push(") -> ");
    let results = ir.results(op);
    let empty = ir.empty_dict();
    let res_dict = res_dicts.first().copied().filter(|d| *d != empty);
    match results.first() {
        Some(r) if res_dict.is_none() => p.print_type(ir.value_type(*r)),
        Some(r) => {
            p.push("(");
            print_type_with_attrs(p, ir.value_type(*r), res_dict);
            p.push(")");
        }
        None => p.push("()"),
    }
}

/// Whether `t` is a type the LLVM dialect accepts (builtin signless
/// integers, floats and vectors of them, and its own types).
pub(super) fn is_llvm_compatible(ir: &hivm_ir::Ir, t: hivm_ir::Type) -> bool {
    match ir.type_data(t) {
        TypeData::Integer { signedness, .. } => *signedness == hivm_ir::types::Signedness::Signless,
        TypeData::Float(_) => true,
        TypeData::Vector { elem, .. } => is_llvm_compatible(ir, *elem),
        TypeData::Opaque { dialect, .. } => dialect == "llvm",
        _ => false,
    }
}

fn verify_call_intrinsic_invariants(ir: &hivm_ir::Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    if ir.get_attr(op, "intrin").and_then(|a| ir.as_str(a)).is_none() {
        return Err("requires attribute 'intrin'".into());
    }
    if bundle_sizes(ir, op).is_none() {
        return Err("operand bundle sizes do not match the bundle operands".into());
    }
    for (i, v) in ir.operands(op).iter().enumerate() {
        let t = ir.value_type(*v);
        if !is_llvm_compatible(ir, t) {
            return Err(format!(
                "operand #{i} must be variadic of LLVM dialect-compatible type, but got '{}'",
                crate::util::type_str(ir, t)
            )
            .into());
        }
    }
    if let Some(r) = ir.results(op).first()
        && !is_llvm_compatible(ir, ir.value_type(*r))
    {
        return Err(format!(
            "result #0 must be LLVM dialect-compatible type, but got '{}'",
            crate::util::type_str(ir, ir.value_type(*r))
        )
        .into());
    }
    Ok(())
}

fn verify_call_intrinsic(ir: &hivm_ir::Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let name = ir.get_attr(op, "intrin").and_then(|a| ir.as_str(a)).unwrap_or("");
    if !name.starts_with("llvm.") {
        return Err("intrinsic name must start with 'llvm.'".into());
    }
    let tags = ir.get_attr(op, "op_bundle_tags").map(|a| ir.as_array(a).map(|a| a.to_vec()));
    let tags = match tags {
        None => Vec::new(),
        Some(Some(t)) if t.iter().all(|a| ir.as_str(*a).is_some()) => t,
        Some(_) => return Err(hivm_ir::dialect::VerifyError::plain("operand bundle tag must be a StringAttr")),
    };
    let bundles = bundle_sizes(ir, op).map_or(0, |s| s.len());
    if bundles != tags.len() {
        return Err(hivm_ir::dialect::VerifyError::plain(format!(
            "expected {bundles} operand bundle tags, but actually got {}",
            tags.len()
        )));
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

// ----- nvvm.shfl.sync: `nvvm.shfl.sync  bfly %mask, %v, %off, %clamp : f32 -> f32` -----

const SHFL_KINDS: &[&str] = &["bfly", "up", "down", "idx"];

/// The text of an opaque dialect attribute (`shfl_kind bfly`).
fn opaque_body(ir: &hivm_ir::Ir, a: hivm_ir::Attribute) -> Option<&str> {
    match ir.attr_data(a) {
        AttrData::Opaque { body, .. } => Some(body.strip_prefix('<').and_then(|b| b.strip_suffix('>')).unwrap_or(body)),
        _ => None,
    }
}

fn parse_shfl(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let pos = p.pos();
    let kind = p.parse_keyword("valid keyword or string")?;
    if !SHFL_KINDS.contains(&kind) {
        return p.op_error_at(pos, "expected ::mlir::NVVM::ShflKind to be one of: bfly, up, down, idx");
    }
    let kind = opaque_attr(p.ir, "nvvm", &format!("shfl_kind {kind}"));
    push_attr(p, r, "kind", kind);
    let mut ops = Vec::new();
    for i in 0..4 {
        if i > 0 {
            p.expect(Tok::Comma, "','")?;
        }
        ops.push(p.parse_operand()?);
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::Colon, "':'")?;
    let val = p.parse_type()?;
    p.expect(Tok::Arrow, "'->'")?;
    let res = p.parse_type()?;
    let i32t = p.ir.int_type(32);
    let vals = p.resolve_operands(&ops, &[i32t, val, i32t, i32t], pos)?;
    r.operands.extend(vals);
    r.result_types.push(res);
    Ok(())
}

fn print_shfl(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let kind = ir.get_attr(op, "kind").and_then(|a| opaque_body(ir, a)).unwrap_or("");
    // The enum's own printer leads with a space, after the op's.
    p.push(&format!("  {}", kind.strip_prefix("shfl_kind ").unwrap_or(kind)));
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, &["kind"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 1)));
    p.push(" -> ");
    p.print_type(ir.value_type(ir.results(op)[0]));
}

/// The members of `!llvm.struct<(a, b)>`, as written inside it.
fn struct_members(ir: &hivm_ir::Ir, t: hivm_ir::Type) -> Option<Vec<String>> {
    match ir.type_data(t) {
        TypeData::Opaque { dialect, body } if dialect == "llvm" => {
            let inner = body.strip_prefix("struct<")?.strip_suffix('>')?.trim();
            let inner = inner.strip_prefix("packed").map_or(inner, str::trim_start);
            let members = inner.strip_prefix('(')?.strip_suffix(')')?;
            Some(super::split_top_level(members))
        }
        _ => None,
    }
}

fn verify_shfl_invariants(ir: &hivm_ir::Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let Some(kind) = ir.get_attr(op, "kind") else { return Err("requires attribute 'kind'".into()) };
    let valid =
        opaque_body(ir, kind).and_then(|b| b.strip_prefix("shfl_kind ")).is_some_and(|k| SHFL_KINDS.contains(&k));
    if !valid || !matches!(ir.attr_data(kind), AttrData::Opaque { dialect, .. } if ir.sym_str(*dialect) == "nvvm") {
        return Err("attribute 'kind' failed to satisfy constraint: NVVM shuffle kind".into());
    }
    let is_i32 = |t: hivm_ir::Type| ir.type_data(t).is_signless_int(32);
    let is_f32 = |t: hivm_ir::Type| crate::util::type_str(ir, t) == "f32";
    for (i, v) in ir.operands(op).iter().enumerate() {
        let t = ir.value_type(*v);
        let (ok, what) = if i == 1 {
            (is_i32(t) || is_f32(t), "32-bit signless integer or 32-bit float")
        } else {
            (is_i32(t), "32-bit signless integer")
        };
        if !ok {
            return Err(format!("operand #{i} must be {what}, but got '{}'", crate::util::type_str(ir, t)).into());
        }
    }
    let r = ir.value_type(ir.results(op)[0]);
    let is_struct = matches!(ir.type_data(r), TypeData::Opaque { dialect, body } if dialect == "llvm" && body.starts_with("struct<"));
    if !(is_i32(r) || is_f32(r) || is_struct) {
        return Err(format!(
            "result #0 must be 32-bit signless integer or 32-bit float or LLVM struct type, but got '{}'",
            crate::util::type_str(ir, r)
        )
        .into());
    }
    Ok(())
}

fn verify_shfl(ir: &hivm_ir::Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let val = ir.value_type(ir.operand(op, 1));
    let res = ir.value_type(ir.results(op)[0]);
    let flagged = ir.get_attr(op, "return_value_and_is_valid").is_some();
    let val_text = crate::util::type_str(ir, val);
    match struct_members(ir, res) {
        Some(members) => {
            if !flagged {
                return Err("\"return_value_and_is_valid\" attribute must be specified when the return type is a \
                            struct type"
                    .into());
            }
            if members.len() != 2 {
                return Err("expected return type to be a two-element struct".into());
            }
            if members[0] != val_text {
                return Err(format!(
                    "expected first element in the returned struct to be of type '{val_text}' but got '{}' instead",
                    super::qualify(&members[0])
                )
                .into());
            }
            if members[1] != "i1" {
                return Err(format!(
                    "expected second element in the returned struct to be of type 'i1' but got '{}' instead",
                    super::qualify(&members[1])
                )
                .into());
            }
        }
        None => {
            if flagged {
                return Err("expected return type to be a two-element struct".into());
            }
            if res != val {
                return Err(format!(
                    "expected return type to be of type '{val_text}' but got '{}' instead",
                    crate::util::type_str(ir, res)
                )
                .into());
            }
        }
    }
    Ok(())
}

/// NVVM's attributes: the shuffle kind is checked, the rest kept as written.
fn check_nvvm_attr(body: &str) -> Result<String, String> {
    let inner = body.strip_prefix('<').and_then(|b| b.strip_suffix('>')).unwrap_or(body);
    if let Some(kind) = inner.strip_prefix("shfl_kind") {
        let kind = kind.trim();
        if !SHFL_KINDS.contains(&kind) {
            return Err("expected ::mlir::NVVM::ShflKind to be one of: bfly, up, down, idx".into());
        }
        return Ok(format!("shfl_kind {kind}"));
    }
    Ok(body.to_string())
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
    let mut defs = specs.map(|s| s.def()).to_vec();
    defs.push(OpSpec { name: "nvvm.barrier0", format: "attr-dict", ..OpSpec::EMPTY }.def());
    defs.push(
        OpDef::new("nvvm.shfl.sync")
            .arity((4, Some(4)), (1, Some(1)), 0)
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["kind", "return_value_and_is_valid"])
            .assembly(parse_shfl, print_shfl)
            .invariants(verify_shfl_invariants)
            .verifier(verify_shfl),
    );
    let mut d = hivm_ir::Dialect::new("nvvm", defs);
    d.check_attr = Some(check_nvvm_attr);
    d
}

pub(super) fn defs() -> Vec<OpDef> {
    let mut defs = Vec::new();
    defs.extend([
        OpDef::new("llvm.call")
            .arity((0, None), (0, Some(1)), 0)
            .inherent(CALL_INHERENT)
            .assembly(parse_call, print_call)
            .verifier(verify_call),
        OpDef::new("llvm.call_intrinsic")
            .arity((0, None), (0, Some(1)), 0)
            .traits(Traits::ZERO_REGIONS)
            .inherent(&[
                "intrin",
                "fastmathFlags",
                "op_bundle_sizes",
                "op_bundle_tags",
                "arg_attrs",
                "res_attrs",
                "operandSegmentSizes",
            ])
            .defaults(&["fastmathFlags"], super::fastmath_default)
            .assembly(parse_call_intrinsic, print_call_intrinsic)
            .invariants(verify_call_intrinsic_invariants)
            .verifier(verify_call_intrinsic),
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

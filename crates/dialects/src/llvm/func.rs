//! `llvm.func` (linkage, visibility, calling convention, signature with
//! argument attributes, `attributes {...}`, optional body) and
//! `llvm.mlir.global`, with the properties mlir-opt 22 always stores.

use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, RegionArg, UnresolvedOperand};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{AttrData, Attribute, Ir, OpId, Type};

use crate::util::{opaque_arg, opaque_attr, push_attr, type_str};

pub(super) const LINKAGES: &[&str] = &[
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
];
const VISIBILITY: &[&str] = &["default", "hidden", "protected"];
const UNNAMED_ADDR: &[&str] = &["", "local_unnamed_addr", "unnamed_addr"];
const CCONVS: &[&str] = &["fastcc", "coldcc", "cc_10", "cc_11", "tailcc", "swiftcc", "cxx_fast_tlscc", "ghccc"];

/// The linkage, visibility and unnamed_addr keywords both ops start with.
fn parse_prefix(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mut linkage = "external";
    if p.tok.kind == Tok::BareIdent && LINKAGES.contains(&p.text()) {
        linkage = LINKAGES.iter().find(|l| **l == p.text()).copied().unwrap_or("external");
        p.bump();
    }
    let a = opaque_attr(p.ir, "llvm", &format!("linkage<{linkage}>"));
    push_attr(p, r, "linkage", a);
    let mut vis = 0;
    if p.tok.kind == Tok::BareIdent
        && let Some(i) = VISIBILITY.iter().position(|v| *v == p.text())
    {
        vis = i;
        p.bump();
    }
    let i64t = p.ir.int_type(64);
    let a = p.ir.int_attr(vis as i128, i64t);
    push_attr(p, r, "visibility_", a);
    Ok(())
}

fn parse_unnamed_addr(p: &mut Parser<'_>, r: &mut OpParseResult) {
    let mut ua = 0;
    if p.tok.kind == Tok::BareIdent
        && let Some(i) = UNNAMED_ADDR.iter().position(|v| !v.is_empty() && *v == p.text())
    {
        ua = i;
        p.bump();
    }
    let i64t = p.ir.int_type(64);
    let a = p.ir.int_attr(ua as i128, i64t);
    push_attr(p, r, "unnamed_addr", a);
}

/// Globals always spell their linkage; functions leave `external` out.
fn print_prefix(p: &mut Printer<'_>, op: OpId, always_linkage: bool) {
    let ir = p.ir;
    let linkage = ir.get_attr(op, "linkage").and_then(|a| opaque_arg(ir, a, "linkage")).unwrap_or("external");
    if always_linkage || linkage != "external" {
        p.push(&format!(" {linkage}"));
    }
    let vis = ir.get_attr(op, "visibility_").and_then(|a| ir.as_int(a)).unwrap_or(0) as usize;
    if vis > 0 && vis < VISIBILITY.len() {
        p.push(&format!(" {}", VISIBILITY[vis]));
    }
}

fn print_unnamed_addr(p: &mut Printer<'_>, op: OpId) {
    let ua = p.ir.get_attr(op, "unnamed_addr").and_then(|a| p.ir.as_int(a)).unwrap_or(0) as usize;
    if ua > 0 && ua < UNNAMED_ADDR.len() {
        p.push(&format!(" {}", UNNAMED_ADDR[ua]));
    }
}

/// A type as it appears inside `!llvm.func<...>`: LLVM types lose their
/// `!llvm.` prefix.
fn inner_type(ir: &Ir, t: Type) -> String {
    let s = type_str(ir, t);
    s.strip_prefix("!llvm.").map(str::to_string).unwrap_or(s)
}

pub(super) fn parse_func(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let start = p.pos();
    parse_prefix(p, r)?;
    parse_unnamed_addr(p, r);
    let mut cconv = "ccc";
    if p.tok.kind == Tok::BareIdent && CCONVS.contains(&p.text()) {
        cconv = CCONVS.iter().find(|c| **c == p.text()).copied().unwrap_or("ccc");
        p.bump();
    }
    let a = opaque_attr(p.ir, "llvm", &format!("cconv<{cconv}>"));
    push_attr(p, r, "CConv", a);
    let name = p.parse_symbol_name()?;
    let a = p.ir.str_attr(&name);
    push_attr(p, r, "sym_name", a);
    let (mut args, mut arg_types, mut arg_attrs, mut variadic) = (Vec::new(), Vec::new(), Vec::new(), false);
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "argument list", &mut |p| {
        if p.consume_if(Tok::Ellipsis) {
            variadic = true;
            return Ok(());
        }
        let named = p.is(Tok::PercentIdent).then(|| p.parse_operand()).transpose()?;
        if named.is_some() {
            p.expect(Tok::Colon, "':'")?;
        }
        let ty = p.parse_type()?;
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        let loc = if p.is_keyword("loc") { Some(p.parse_location()?) } else { None };
        arg_attrs.push(p.ir.dict_attr(attrs));
        arg_types.push(ty);
        args.push(RegionArg { name: named.unwrap_or(UnresolvedOperand::NONE), ty, loc });
        Ok(())
    })?;
    let result = if p.consume_if(Tok::Arrow) { Some(p.parse_type()?) } else { None };
    let mut sig: Vec<String> = arg_types.iter().map(|t| inner_type(p.ir, *t)).collect();
    if variadic {
        sig.push("...".into());
    }
    let res = result.map_or("void".to_string(), |t| inner_type(p.ir, t));
    let body = format!("func<{res} ({})>", sig.join(", "));
    let fty = p.ir.ty(hivm_ir::TypeData::Opaque { dialect: "llvm".into(), body });
    let a = p.ir.type_attr(fty);
    push_attr(p, r, "function_type", a);
    let empty = p.ir.empty_dict();
    if arg_attrs.iter().any(|a| *a != empty) {
        let a = p.ir.array_attr(arg_attrs);
        push_attr(p, r, "arg_attrs", a);
    }
    p.parse_optional_attr_dict_with_keyword(&mut r.attrs)?;
    if p.is(Tok::LBrace) {
        let region = p.parse_region(&args, true)?;
        if p.ir.region_blocks(region).is_empty() {
            return p.error_at(start, "expected non-empty function body");
        }
        r.regions.push(region);
    } else {
        let region = p.ir.new_region();
        r.regions.push(region);
    }
    Ok(())
}

/// `RES (A, B, ...)` of a `func<...>` body: the result and parameter texts.
pub(super) fn signature_of(ir: &Ir, op: OpId) -> Option<(String, Vec<String>)> {
    let t = ir.get_attr(op, "function_type")?;
    let AttrData::Type(t) = ir.attr_data(t) else { return None };
    let text = type_str(ir, *t);
    let body = text.strip_prefix("!llvm.func<")?.strip_suffix('>')?;
    let open = body.find(" (")?;
    let (res, params) = (&body[..open], &body[open + 2..]);
    let params = params.strip_suffix(')')?;
    Some((res.to_string(), super::split_top_level(params)))
}

pub(super) fn print_func(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    print_prefix(p, op, false);
    print_unnamed_addr(p, op);
    let cconv = ir.get_attr(op, "CConv").and_then(|a| opaque_arg(ir, a, "cconv")).unwrap_or("ccc");
    if cconv != "ccc" {
        p.push(&format!(" {cconv}"));
    }
    p.push(" ");
    let name = ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("");
    p.print_symbol_name(name);
    let (res, params) = signature_of(ir, op).unwrap_or_default();
    let arg_attrs = ir.get_attr(op, "arg_attrs").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    let body = ir.regions(op)[0];
    let entry = ir.region_blocks(body).first().copied();
    p.push("(");
    let mut i = 0;
    for param in &params {
        if i > 0 {
            p.push(", ");
        }
        if param == "..." {
            p.push("...");
            continue;
        }
        match entry.and_then(|b| ir.block_args(b).get(i).copied()) {
            Some(arg) => {
                p.print_value(arg);
                p.push(": ");
                p.print_type(ir.value_type(arg));
            }
            None => p.push(&super::qualify(param)),
        }
        if let Some(a) = arg_attrs.get(i) {
            p.print_attr_dict(*a, &[]);
        }
        if p.options.debuginfo
            && let Some(arg) = entry.and_then(|b| ir.block_args(b).get(i).copied())
        {
            p.print_arg_loc(ir.block_arg_loc(arg).unwrap_or(ir.unknown_loc()));
        }
        i += 1;
    }
    p.push(")");
    if res != "void" {
        p.push(&format!(" -> {}", super::qualify(&res)));
    }
    p.print_optional_attr_dict_with_keyword(
        op,
        &[
            "sym_name",
            "function_type",
            "arg_attrs",
            "res_attrs",
            "linkage",
            "CConv",
            "visibility_",
            "comdat",
            "unnamed_addr",
            "vscale_range",
        ],
    );
    if entry.is_some() {
        p.push(" ");
        p.print_region(body, false, true);
    }
}

/// Properties of `llvm.func` (mlir-opt keeps these in `<{...}>`).
pub(super) const FUNC_INHERENT: &[&str] = &[
    "sym_name",
    "sym_visibility",
    "function_type",
    "linkage",
    "dso_local",
    "CConv",
    "comdat",
    "convergent",
    "personality",
    "garbageCollector",
    "passthrough",
    "arg_attrs",
    "res_attrs",
    "function_entry_count",
    "memory_effects",
    "visibility_",
    "arm_streaming",
    "arm_locally_streaming",
    "arm_streaming_compatible",
    "arm_new_za",
    "section",
    "unnamed_addr",
    "alignment",
    "vscale_range",
    "frame_pointer",
    "target_cpu",
    "tune_cpu",
    "target_features",
    "unsafe_fp_math",
    "no_infs_fp_math",
    "no_nans_fp_math",
    "no_signed_zeros_fp_math",
    "denormal_fp_math",
    "denormal_fp_math_f32",
    "fp_contract",
    "instrument_function_entry",
    "instrument_function_exit",
    "no_inline",
    "always_inline",
    "inline_hint",
    "no_unwind",
    "will_return",
    "optimize_none",
    "vec_type_hint",
    "work_group_size_hint",
    "reqd_work_group_size",
    "intel_reqd_sub_group_size",
    "uwtable_kind",
];

// ----- llvm.mlir.global -----

pub(super) fn parse_global(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_prefix(p, r)?;
    if p.parse_optional_keyword("thread_local") {
        let u = p.ir.unit_attr();
        push_attr(p, r, "thread_local_", u);
    }
    parse_unnamed_addr(p, r);
    if p.parse_optional_keyword("constant") {
        let u = p.ir.unit_attr();
        push_attr(p, r, "constant", u);
    }
    let name = p.parse_symbol_name()?;
    let a = p.ir.str_attr(&name);
    push_attr(p, r, "sym_name", a);
    p.expect(Tok::LParen, "'('")?;
    let mut value: Option<Attribute> = None;
    if !p.is(Tok::RParen) {
        let v = p.parse_attribute(None)?;
        push_attr(p, r, "value", v);
        value = Some(v);
    }
    p.expect(Tok::RParen, "')'")?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let mut ty = None;
    if p.consume_if(Tok::Colon) {
        ty = Some(p.parse_type()?);
    }
    // A string value without a type is an i8 array of its length.
    let ty = match (ty, value.map(|v| p.ir.attr_data(v).clone())) {
        (Some(t), _) => t,
        (None, Some(AttrData::String { value, .. })) => {
            let body = format!("array<{} x i8>", value.len());
            p.ir.ty(hivm_ir::TypeData::Opaque { dialect: "llvm".into(), body })
        }
        _ => return p.error("type can only be omitted for string globals"),
    };
    let a = p.ir.type_attr(ty);
    push_attr(p, r, "global_type", a);
    if !r.attrs.iter().any(|(k, _)| p.ir.sym_str(*k) == "addr_space") {
        let i32t = p.ir.int_type(32);
        let z = p.ir.int_attr(0, i32t);
        push_attr(p, r, "addr_space", z);
    }
    let loc = r.loc;
    let region =
        if p.is(Tok::LBrace) { p.parse_region_with_terminator(&[], false, None, loc)? } else { p.ir.new_region() };
    r.regions.push(region);
    Ok(())
}

pub(super) fn print_global(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    print_prefix(p, op, true);
    if ir.get_attr(op, "thread_local_").is_some() {
        p.push(" thread_local");
    }
    print_unnamed_addr(p, op);
    if ir.get_attr(op, "constant").is_some() {
        p.push(" constant");
    }
    p.push(" ");
    let name = ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("");
    p.print_symbol_name(name);
    p.push("(");
    let value = ir.get_attr(op, "value");
    if let Some(v) = value {
        p.print_attr(v, Elide::Never);
    }
    p.push(")");
    p.print_optional_attr_dict(
        op,
        &["sym_name", "global_type", "constant", "value", "linkage", "unnamed_addr", "thread_local_", "visibility_"],
    );
    let is_string = value.is_some_and(|v| matches!(ir.attr_data(v), AttrData::String { .. }));
    if !is_string && let Some(AttrData::Type(t)) = ir.get_attr(op, "global_type").map(|a| ir.attr_data(a)) {
        p.push(" : ");
        p.print_type(*t);
    }
    let body = ir.regions(op)[0];
    if !ir.region_blocks(body).is_empty() {
        p.push(" ");
        p.print_region(body, false, true);
    }
}

pub(super) const GLOBAL_INHERENT: &[&str] = &[
    "global_type",
    "constant",
    "sym_name",
    "linkage",
    "dso_local",
    "thread_local_",
    "externally_initialized",
    "value",
    "alignment",
    "addr_space",
    "unnamed_addr",
    "section",
    "comdat",
    "dbg_exprs",
    "visibility_",
];

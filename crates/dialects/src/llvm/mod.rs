//! The part of MLIR's LLVM dialect HIVM kernels carry: pointers (`!llvm.ptr`,
//! `!llvm.ptr<11>`) and the other LLVM types (kept as text, canonicalized
//! by the dialect's type check), the pointer/integer casts, non-atomic
//! `load`/`store` (volatile or not), and the value ops in `ops.rs`, printed
//! as mlir-opt 22 does.

mod calls;
mod func;
mod ops;

pub use calls::nvvm_dialect;

use hivm_ir::Dialect;
use hivm_ir::opspec::{AttrDef, AttrKind, OpSpec, default_attr, one, opt_attr};

/// Type keywords of the LLVM dialect, which drop their `!llvm.` prefix
/// inside other LLVM types.
const KEYWORDS: &[&str] =
    &["ptr", "void", "struct", "array", "func", "vec", "token", "label", "metadata", "target", "x86_amx", "ppc_fp128"];

/// `member` as a standalone type: LLVM types regain their `!llvm.` prefix.
pub(crate) fn qualify(member: &str) -> String {
    let word = member.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("");
    if KEYWORDS.contains(&word) { format!("!llvm.{member}") } else { member.to_string() }
}

pub(crate) use crate::util::split_top_level;

/// Validates and canonicalizes a type body: `ptr<0>` is `ptr`; `array`,
/// `func` and `struct` bodies keep their text (whitespace normalised).
fn check_type(body: &str) -> Result<String, String> {
    let body = body.trim();
    if body == "ptr" || body == "void" || body == "token" || body == "label" || body == "metadata" {
        return Ok(body.to_string());
    }
    if let Some(space) = body.strip_prefix("ptr<").and_then(|r| r.strip_suffix('>')) {
        let n: u32 = space.trim().parse().map_err(|_| format!("invalid address space '{}'", space.trim()))?;
        return Ok(if n == 0 { "ptr".into() } else { format!("ptr<{n}>") });
    }
    for kind in ["array", "func", "struct", "vec", "target"] {
        if let Some(inner) = body.strip_prefix(kind).and_then(|r| r.trim_start().strip_prefix('<')) {
            let Some(inner) = inner.strip_suffix('>') else {
                return Err(format!("expected '>' to close !llvm.{kind}"));
            };
            return Ok(format!("{kind}<{}>", canonical_body(kind, inner.trim())));
        }
    }
    Err(format!("unknown LLVM type: {body}"))
}

/// Member lists with MLIR's spacing: `(i32, f32)`, `4 x i8`.
fn canonical_body(kind: &str, inner: &str) -> String {
    match kind {
        "struct" => {
            let (prefix, rest) = match inner.strip_prefix("packed") {
                Some(r) => ("packed ", r.trim_start()),
                None => ("", inner),
            };
            match rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
                Some(members) => format!("{prefix}({})", unqualified(split_top_level(members)).join(", ")),
                None => inner.to_string(),
            }
        }
        "array" => match inner.split_once('x') {
            Some((n, elem)) if n.trim().chars().all(|c| c.is_ascii_digit()) => {
                format!("{} x {}", n.trim(), elem.trim().trim_start_matches("!llvm."))
            }
            _ => inner.to_string(),
        },
        _ => inner.to_string(),
    }
}

/// Members as MLIR writes them inside an LLVM type: `ptr`, not `!llvm.ptr`.
fn unqualified(members: Vec<String>) -> Vec<String> {
    members.into_iter().map(|m| m.strip_prefix("!llvm.").map(str::to_string).unwrap_or(m)).collect()
}

/// LLVM properties printed only when they differ from their default:
/// name, mnemonic, default value.
const DEFAULTED: &[(&str, &str, &str)] =
    &[("CConv", "cconv", "ccc"), ("TailCallKind", "tailcallkind", "none"), ("fastmathFlags", "fastmath", "none")];

/// ` {attrs}` without `elided` and without defaulted properties at their
/// default.
pub(crate) fn print_attrs_without_defaults(p: &mut hivm_ir::printer::Printer<'_>, op: hivm_ir::OpId, elided: &[&str]) {
    let ir = p.ir;
    let mut skip = elided.to_vec();
    for (k, m, default) in DEFAULTED {
        if ir.get_attr(op, k).and_then(|a| crate::util::opaque_arg(ir, a, m)) == Some(*default) {
            skip.push(k);
        }
    }
    p.print_optional_attr_dict(op, &skip);
}

/// The `fastmathFlags` property every op that has one starts with.
pub(crate) fn fastmath_default(ir: &mut hivm_ir::Ir) -> Vec<(&'static str, hivm_ir::Attribute)> {
    vec![("fastmathFlags", crate::util::opaque_attr(ir, "llvm", "fastmath<none>"))]
}

/// Validates the LLVM attributes the ops use, canonicalizing fast-math
/// flag sets as arith's are; others are kept as written.
fn check_attr(body: &str) -> Result<String, String> {
    if body.starts_with("fastmath<") {
        // arith's flag set, but LLVM's printer separates flags with ", ".
        return crate::arith::check_attr(body).map(|b| b.replace(',', ", "));
    }
    Ok(body.to_string())
}

const INTTOPTR: OpSpec = OpSpec {
    name: "llvm.inttoptr",
    operands: &[one("arg")],
    results: &[one("res")],
    format: "$arg attr-dict `:` type($arg) `to` type($res)",
    traits: hivm_ir::Traits::PURE,
    ..OpSpec::EMPTY
};

const PTRTOINT: OpSpec = OpSpec { name: "llvm.ptrtoint", ..INTTOPTR };

/// The memory-access properties of `load` and `store` (atomic orderings
/// other than the default are not parsed: `atomic` is a syntax error).
const ACCESS_ATTRS: &[AttrDef] = &[
    opt_attr("volatile_", AttrKind::Unit),
    opt_attr("alignment", AttrKind::Int(64)),
    opt_attr("nontemporal", AttrKind::Unit),
    opt_attr("invariant", AttrKind::Unit),
    opt_attr("invariantGroup", AttrKind::Unit),
    opt_attr("dereferenceable", AttrKind::Any),
    default_attr("ordering", AttrKind::Int(64), "0"),
    opt_attr("syncscope", AttrKind::Str),
    opt_attr("access_groups", AttrKind::Array),
    opt_attr("alias_scopes", AttrKind::Array),
    opt_attr("noalias_scopes", AttrKind::Array),
    opt_attr("tbaa", AttrKind::Array),
];

const LOAD: OpSpec = OpSpec {
    name: "llvm.load",
    operands: &[one("addr")],
    attrs: ACCESS_ATTRS,
    results: &[one("res")],
    format: "(`volatile` $volatile_^)? $addr attr-dict `:` type($addr) `->` type($res)",
    ..OpSpec::EMPTY
};

const STORE: OpSpec = OpSpec {
    name: "llvm.store",
    operands: &[one("value"), one("addr")],
    attrs: ACCESS_ATTRS,
    format: "(`volatile` $volatile_^)? $value `,` $addr attr-dict `:` type($value) `,` type($addr)",
    ..OpSpec::EMPTY
};

pub fn dialect() -> Dialect {
    let mut defs = [INTTOPTR, PTRTOINT, LOAD, STORE].map(|s| s.def()).to_vec();
    defs.extend(ops::defs());
    defs.extend(calls::defs());
    defs.push(
        hivm_ir::OpDef::new("llvm.func")
            .arity((0, Some(0)), (0, Some(0)), 1)
            .traits(hivm_ir::Traits::ISOLATED_FROM_ABOVE.with(hivm_ir::Traits::SYMBOL))
            .inherent(func::FUNC_INHERENT)
            .assembly(func::parse_func, func::print_func),
    );
    defs.push(
        hivm_ir::OpDef::new("llvm.mlir.global")
            .arity((0, Some(0)), (0, Some(0)), 1)
            .traits(hivm_ir::Traits::SYMBOL.with(hivm_ir::Traits::ISOLATED_FROM_ABOVE))
            .inherent(func::GLOBAL_INHERENT)
            .assembly(func::parse_global, func::print_global),
    );
    let mut d = Dialect::new("llvm", defs);
    d.check_type = Some(check_type);
    d.check_attr = Some(check_attr);
    d
}

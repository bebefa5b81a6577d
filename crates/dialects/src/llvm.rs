//! The part of MLIR's LLVM dialect HIVM kernels carry: pointers (`!llvm.ptr`,
//! `!llvm.ptr<11>`) and a few other types, the pointer/integer casts, and
//! non-atomic `load`/`store` (volatile or not), printed as mlir-opt 22 does.

use hivm_ir::Dialect;
use hivm_ir::opspec::{AttrDef, AttrKind, OpSpec, default_attr, one, opt_attr};

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
            if !inner.ends_with('>') {
                return Err(format!("expected '>' to close !llvm.{kind}"));
            }
            return Ok(format!("{kind}<{inner}"));
        }
    }
    Err(format!("unknown LLVM type: {body}"))
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
    let mut d = Dialect::new("llvm", [INTTOPTR, PTRTOINT, LOAD, STORE].map(|s| s.def()).to_vec());
    d.check_type = Some(check_type);
    d
}

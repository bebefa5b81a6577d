//! The part of MLIR's LLVM dialect HIVM kernels carry: pointers (`!llvm.ptr`,
//! `!llvm.ptr<11>`) and the other LLVM types (kept as text, canonicalized
//! by the dialect's type check), the pointer/integer casts, the memory
//! ops in `memory.rs` and the value ops in `ops.rs`, printed as mlir-opt 22
//! does.

mod calls;
mod func;
mod intrinsics;
mod memory;
mod ops;

pub use calls::nvvm_dialect;

use hivm_ir::Dialect;
use hivm_ir::opspec::{OpSpec, one};

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

/// The LLVM attributes mlir-opt prints through an alias named after their
/// mnemonic (scopes, TBAA nodes, access groups, loop annotations, debug info).
const ALIASED_ATTRS: &[&str] = &[
    "access_group",
    "alias_scope",
    "alias_scope_domain",
    "di_basic_type",
    "di_common_block",
    "di_compile_unit",
    "di_composite_type",
    "di_derived_type",
    "di_file",
    "di_global_variable",
    "di_global_variable_expression",
    "di_imported_entity",
    "di_label",
    "di_lexical_block",
    "di_lexical_block_file",
    "di_local_variable",
    "di_module",
    "di_namespace",
    "di_null_type",
    "di_string_type",
    "di_subprogram",
    "di_subroutine_type",
    "loop_annotation",
    "loop_distribute",
    "loop_interleave",
    "loop_licm",
    "loop_peeled",
    "loop_pipeline",
    "loop_unroll",
    "loop_unroll_and_jam",
    "loop_unswitch",
    "loop_vectorize",
    "mmra_tag",
    "tbaa_root",
    "tbaa_tag",
    "tbaa_type_desc",
];

/// Every mnemonic MLIR 22's LLVM dialect parses (each probed against
/// `mlir-opt`, which reports any other as unknown).
const MNEMONICS: &[&str] = &[
    "access_group",
    "address_space",
    "alias_scope",
    "alias_scope_domain",
    "blockaddress",
    "blocktag",
    "cconv",
    "cgprofile_entry",
    "comdat",
    "constant_range",
    "dependent_libraries",
    "dereferenceable",
    "di_annotation",
    "di_basic_type",
    "di_common_block",
    "di_compile_unit",
    "di_composite_type",
    "di_derived_type",
    "di_expression",
    "di_expression_elem",
    "di_file",
    "di_generic_subrange",
    "di_global_variable",
    "di_global_variable_expression",
    "di_imported_entity",
    "di_label",
    "di_lexical_block",
    "di_lexical_block_file",
    "di_local_variable",
    "di_module",
    "di_namespace",
    "di_null_type",
    "di_string_type",
    "di_subprogram",
    "di_subrange",
    "di_subroutine_type",
    "dso_local_equivalent",
    "fastmath",
    "framePointerKind",
    "linkage",
    "loop_annotation",
    "loop_distribute",
    "loop_interleave",
    "loop_licm",
    "loop_peeled",
    "loop_pipeline",
    "loop_unroll",
    "loop_unroll_and_jam",
    "loop_unswitch",
    "loop_vectorize",
    "memory_effects",
    "mlir.module_flag",
    "mlir.workgroup_attribution",
    "mmra_tag",
    "overflow",
    "poison",
    "profile_summary",
    "profile_summary_detailed",
    "tailcallkind",
    "target",
    "target_features",
    "tbaa_member",
    "tbaa_root",
    "tbaa_tag",
    "tbaa_type_desc",
    "undef",
    "uwtableKind",
    "vec_type_hint",
    "vscale_range",
    "zero",
];

/// Validates the LLVM attributes the ops use, canonicalizing fast-math
/// flag sets as arith's are; others are kept as written once their
/// mnemonic is one LLVM's dialect has.
fn check_attr(body: &str) -> Result<String, String> {
    let mnemonic = body.split(['<', ' ']).next().unwrap_or("");
    if !MNEMONICS.contains(&mnemonic) {
        return Err(format!("unknown attribute `{mnemonic}` in dialect `llvm`"));
    }
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

pub fn dialect() -> Dialect {
    let mut defs = [INTTOPTR, PTRTOINT].map(|s| s.def()).to_vec();
    defs.extend(memory::defs());
    defs.extend(ops::defs());
    defs.extend(calls::defs());
    defs.extend(intrinsics::defs());
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
    // As upstream's: not every LLVM operation has an MLIR counterpart.
    d.allow_unknown_ops = true;
    d.alias_mnemonics = ALIASED_ATTRS;
    d
}

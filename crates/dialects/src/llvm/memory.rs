//! LLVM's memory-model ops: `load` and `store` (volatile, atomic,
//! invariant, nontemporal), `atomicrmw`, `cmpxchg` and `fence`, with the
//! orderings and read-modify-write operations kept as integers and written
//! as their names, as mlir-opt 22 does.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrDef, AttrKind, EnumKind, FormatState, IntEnumKind, OpSpec, default_attr, one, opt_attr};
use hivm_ir::{Ir, OpId, Type, TypeData};

use crate::util::type_str;

/// LLVM's `AtomicOrdering` (3, `consume`, has no MLIR counterpart).
pub(super) const ORDERING: IntEnumKind = IntEnumKind {
    cases: &[
        ("not_atomic", 0),
        ("unordered", 1),
        ("monotonic", 2),
        ("acquire", 4),
        ("release", 5),
        ("acq_rel", 6),
        ("seq_cst", 7),
    ],
    width: 64,
    summary: "Atomic ordering for LLVM's memory model",
};

const MONOTONIC: i64 = 2;
const ACQUIRE: i64 = 4;
const RELEASE: i64 = 5;
const ACQ_REL: i64 = 6;

/// `atomicrmw`'s operations.
const BIN_OP: IntEnumKind = IntEnumKind {
    cases: &[
        ("xchg", 0),
        ("add", 1),
        ("sub", 2),
        ("_and", 3),
        ("nand", 4),
        ("_or", 5),
        ("_xor", 6),
        ("max", 7),
        ("min", 8),
        ("umax", 9),
        ("umin", 10),
        ("fadd", 11),
        ("fsub", 12),
        ("fmax", 13),
        ("fmin", 14),
        ("uinc_wrap", 15),
        ("udec_wrap", 16),
        ("usub_cond", 17),
        ("usub_sat", 18),
        ("fmaximum", 19),
        ("fminimum", 20),
    ],
    width: 64,
    summary: "llvm.atomicrmw binary operations",
};

const DEREFERENCEABLE: AttrKind = AttrKind::Enum(EnumKind {
    dialect: "llvm",
    mnemonic: "dereferenceable",
    summary: "LLVM dereferenceable attribute",
});

/// The alias-analysis properties every memory access may carry.
const ALIAS_ATTRS: [AttrDef; 4] = [
    opt_attr("access_groups", AttrKind::Array),
    opt_attr("alias_scopes", AttrKind::Array),
    opt_attr("noalias_scopes", AttrKind::Array),
    opt_attr("tbaa", AttrKind::Array),
];

const ACCESS_ATTRS: &[AttrDef] = &[
    opt_attr("volatile_", AttrKind::Unit),
    opt_attr("alignment", AttrKind::Int(64)),
    opt_attr("nontemporal", AttrKind::Unit),
    opt_attr("invariant", AttrKind::Unit),
    opt_attr("invariantGroup", AttrKind::Unit),
    opt_attr("dereferenceable", DEREFERENCEABLE),
    default_attr("ordering", AttrKind::IntEnum(ORDERING), "not_atomic"),
    opt_attr("syncscope", AttrKind::Str),
    ALIAS_ATTRS[0],
    ALIAS_ATTRS[1],
    ALIAS_ATTRS[2],
    ALIAS_ATTRS[3],
];

const LOAD: OpSpec = OpSpec {
    name: "llvm.load",
    operands: &[one("addr")],
    attrs: ACCESS_ATTRS,
    results: &[one("res")],
    format: "(`volatile` $volatile_^)? $addr (`atomic` (`syncscope` `(` $syncscope^ `)`)? $ordering^)? \
             (`invariant` $invariant^)? (`invariant_group` $invariantGroup^)? \
             (`dereferenceable` `` $dereferenceable^)? attr-dict `:` type($addr) `->` type($res)",
    verify: Some(verify_load),
    ..OpSpec::EMPTY
};

const STORE: OpSpec = OpSpec {
    name: "llvm.store",
    operands: &[one("value"), one("addr")],
    attrs: ACCESS_ATTRS,
    format: "(`volatile` $volatile_^)? $value `,` $addr (`atomic` (`syncscope` `(` $syncscope^ `)`)? $ordering^)? \
             (`invariant_group` $invariantGroup^)? attr-dict `:` type($value) `,` type($addr)",
    verify: Some(verify_store),
    ..OpSpec::EMPTY
};

const ATOMICRMW: OpSpec = OpSpec {
    name: "llvm.atomicrmw",
    operands: &[one("ptr"), one("val")],
    attrs: &[
        attr_enum("bin_op", BIN_OP),
        attr_enum("ordering", ORDERING),
        opt_attr("syncscope", AttrKind::Str),
        opt_attr("alignment", AttrKind::Int(64)),
        opt_attr("volatile_", AttrKind::Unit),
        ALIAS_ATTRS[0],
        ALIAS_ATTRS[1],
        ALIAS_ATTRS[2],
        ALIAS_ATTRS[3],
    ],
    results: &[one("res")],
    format: "(`volatile` $volatile_^)? $bin_op $ptr `,` $val (`syncscope` `(` $syncscope^ `)`)? $ordering attr-dict \
             `:` type($ptr) `,` type($val)",
    infer: Some(like_val),
    verify: Some(verify_atomicrmw),
    ..OpSpec::EMPTY
};

const CMPXCHG: OpSpec = OpSpec {
    name: "llvm.cmpxchg",
    operands: &[one("ptr"), one("cmp").like("val"), one("val")],
    attrs: &[
        attr_enum("success_ordering", ORDERING),
        attr_enum("failure_ordering", ORDERING),
        opt_attr("syncscope", AttrKind::Str),
        opt_attr("alignment", AttrKind::Int(64)),
        opt_attr("weak", AttrKind::Unit),
        opt_attr("volatile_", AttrKind::Unit),
        ALIAS_ATTRS[0],
        ALIAS_ATTRS[1],
        ALIAS_ATTRS[2],
        ALIAS_ATTRS[3],
    ],
    results: &[one("res")],
    format: "(`weak` $weak^)? (`volatile` $volatile_^)? $ptr `,` $cmp `,` $val \
             (`syncscope` `(` $syncscope^ `)`)? $success_ordering $failure_ordering attr-dict `:` type($ptr) `,` \
             type($val)",
    infer: Some(value_and_flag),
    verify: Some(verify_cmpxchg),
    ..OpSpec::EMPTY
};

const FENCE: OpSpec = OpSpec {
    name: "llvm.fence",
    attrs: &[attr_enum("ordering", ORDERING), opt_attr("syncscope", AttrKind::Str)],
    format: "(`syncscope` `(` $syncscope^ `)`)? $ordering attr-dict",
    verify: Some(verify_fence),
    ..OpSpec::EMPTY
};

const fn attr_enum(name: &'static str, e: IntEnumKind) -> AttrDef {
    hivm_ir::opspec::attr(name, AttrKind::IntEnum(e))
}

/// `atomicrmw` yields the old value, of the operand's type.
fn like_val(_: &mut Ir, st: &FormatState) -> Result<Vec<Type>, String> {
    match st.operand_types.get(1).and_then(|t| t.first()) {
        Some(t) => Ok(vec![*t]),
        None => Err("expected the value's type".into()),
    }
}

/// `cmpxchg` yields `!llvm.struct<(T, i1)>`: the old value and success.
fn value_and_flag(ir: &mut Ir, st: &FormatState) -> Result<Vec<Type>, String> {
    let Some(&t) = st.operand_types.get(2).and_then(|t| t.first()) else {
        return Err("expected the value's type".into());
    };
    Ok(vec![cmpxchg_result(ir, t)])
}

pub(super) fn cmpxchg_result(ir: &mut Ir, t: Type) -> Type {
    let member = type_str(ir, t);
    let member = member.strip_prefix("!llvm.").unwrap_or(&member).to_string();
    let d = "llvm".to_string();
    ir.ty(TypeData::Opaque { dialect: d, body: format!("struct<({member}, i1)>") })
}

pub(super) fn is_llvm_ptr(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::Opaque { dialect, body }
        if dialect == "llvm" && (body == "ptr" || body.starts_with("ptr<")))
}

/// LLVM's floating-point types (`isCompatibleFloatingPointType`).
fn is_llvm_float(ir: &Ir, t: Type) -> bool {
    use hivm_ir::types::FloatKind::*;
    matches!(ir.type_data(t), TypeData::Float(BF16 | F16 | F32 | F64 | F80 | F128))
}

/// Integers, pointers and floats whose size is a power of two of at least
/// 8 bits (`isTypeCompatibleWithAtomicOp`).
fn atomic_compatible(ir: &Ir, t: Type) -> bool {
    let bits = match ir.type_data(t) {
        TypeData::Integer { width, .. } => *width,
        TypeData::Float(k) if is_llvm_float(ir, t) => k.bit_width(),
        _ if is_llvm_ptr(ir, t) => 64,
        _ => return false,
    };
    bits >= 8 && bits.is_power_of_two()
}

/// The LLVM pointer operand an access goes through (`LLVM_AnyPointer`).
fn check_pointer(ir: &Ir, op: OpId, i: usize) -> Result<(), VerifyError> {
    let t = ir.value_type(ir.operand(op, i));
    if !is_llvm_ptr(ir, t) {
        return Err(format!("operand #{i} must be LLVM pointer type, but got '{}'", type_str(ir, t)).into());
    }
    Ok(())
}

fn int_prop(ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    ir.get_attr(op, name).and_then(|a| ir.as_int(a)).map(|v| v as i64)
}

fn ordering_name(v: i64) -> &'static str {
    ORDERING.name_of(v).unwrap_or("?")
}

/// `verifyAtomicMemOp`: an atomic access needs a suitable type, an ordering
/// its kind of access allows and an alignment; syncscope only makes sense
/// for atomic ones.
fn verify_access(ir: &Ir, op: OpId, value: Type, unsupported: &[i64]) -> Result<(), VerifyError> {
    let ordering = int_prop(ir, op, "ordering").unwrap_or(0);
    if ordering != 0 {
        if !atomic_compatible(ir, value) {
            return Err(format!("unsupported type '{}' for atomic access", type_str(ir, value)).into());
        }
        if unsupported.contains(&ordering) {
            return Err(format!("unsupported ordering '{}'", ordering_name(ordering)).into());
        }
        if ir.get_attr(op, "alignment").is_none() {
            return Err("expected alignment for atomic access".into());
        }
        return Ok(());
    }
    if ir.get_attr(op, "syncscope").is_some() {
        return Err("expected syncscope to be null for non-atomic access".into());
    }
    Ok(())
}

fn verify_load(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_pointer(ir, op, 0)?;
    let res = ir.value_type(ir.result(op, 0));
    if ir.get_attr(op, "dereferenceable").is_some() && !is_llvm_ptr(ir, res) {
        return Err("expected op to return a single LLVM pointer type".into());
    }
    verify_access(ir, op, res, &[RELEASE, ACQ_REL])
}

fn verify_store(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_pointer(ir, op, 1)?;
    verify_access(ir, op, ir.value_type(ir.operand(op, 0)), &[ACQUIRE, ACQ_REL])
}

fn verify_atomicrmw(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_pointer(ir, op, 0)?;
    let t = ir.value_type(ir.operand(op, 1));
    let fixed_vector = matches!(ir.type_data(t), TypeData::Vector { scalable, .. } if !scalable.iter().any(|s| *s));
    let signless =
        matches!(ir.type_data(t), TypeData::Integer { signedness: hivm_ir::types::Signedness::Signless, .. });
    if !(is_llvm_float(ir, t) || is_llvm_ptr(ir, t) || signless || fixed_vector) {
        return Err(format!(
            "operand #1 must be floating point LLVM type or LLVM pointer type or signless integer or LLVM \
             dialect-compatible fixed-length vector type, but got '{}'",
            type_str(ir, t)
        )
        .into());
    }
    if ir.value_type(ir.result(op, 0)) != t {
        return Err("failed to verify that result #0 and operand #1 have the same type".into());
    }
    let bin_op = int_prop(ir, op, "bin_op").unwrap_or(0);
    match BIN_OP.name_of(bin_op).unwrap_or("") {
        "fadd" | "fsub" | "fmax" | "fmin" | "fmaximum" | "fminimum" => match ir.type_data(t) {
            TypeData::Vector { scalable, elem, .. } => {
                if scalable.iter().any(|s| *s) {
                    return Err("expected LLVM IR fixed vector type".into());
                }
                if !is_llvm_float(ir, *elem) {
                    return Err("expected LLVM IR floating point type for vector element".into());
                }
            }
            _ if !is_llvm_float(ir, t) => return Err("expected LLVM IR floating point type".into()),
            _ => {}
        },
        "xchg" if !atomic_compatible(ir, t) => return Err("unexpected LLVM IR type for 'xchg' bin_op".into()),
        "xchg" => {}
        _ => {
            if !matches!(ir.type_data(t), TypeData::Integer { width: 8 | 16 | 32 | 64, .. }) {
                return Err("expected LLVM IR integer type".into());
            }
        }
    }
    if int_prop(ir, op, "ordering").unwrap_or(0) < MONOTONIC {
        return Err("expected at least 'monotonic' ordering".into());
    }
    Ok(())
}

fn verify_cmpxchg(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_pointer(ir, op, 0)?;
    for i in [1, 2] {
        let t = ir.value_type(ir.operand(op, i));
        let signless =
            matches!(ir.type_data(t), TypeData::Integer { signedness: hivm_ir::types::Signedness::Signless, .. });
        if !signless && !is_llvm_ptr(ir, t) {
            let t = type_str(ir, t);
            return Err(format!("operand #{i} must be signless integer or LLVM pointer type, but got '{t}'").into());
        }
    }
    let t = ir.value_type(ir.operand(op, 2));
    if ir.value_type(ir.operand(op, 1)) != t {
        return Err("failed to verify that operand #1 and operand #2 have the same type".into());
    }
    let member = type_str(ir, t);
    let member = member.strip_prefix("!llvm.").unwrap_or(&member);
    if type_str(ir, ir.value_type(ir.result(op, 0))) != format!("!llvm.struct<({member}, i1)>") {
        return Err(
            "failed to verify that result #0 has an LLVM struct type consisting of the type of operand #2 and a bool"
                .into(),
        );
    }
    if !atomic_compatible(ir, t) {
        return Err("unexpected LLVM IR type".into());
    }
    let success = int_prop(ir, op, "success_ordering").unwrap_or(0);
    let failure = int_prop(ir, op, "failure_ordering").unwrap_or(0);
    if success < MONOTONIC || failure < MONOTONIC {
        return Err("ordering must be at least 'monotonic'".into());
    }
    if failure == RELEASE || failure == ACQ_REL {
        return Err("failure ordering cannot be 'release' or 'acq_rel'".into());
    }
    Ok(())
}

fn verify_fence(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if int_prop(ir, op, "ordering").unwrap_or(0) < ACQUIRE {
        return Err("can be given only acquire, release, acq_rel, and seq_cst orderings".into());
    }
    Ok(())
}

pub(super) fn defs() -> Vec<hivm_ir::OpDef> {
    [LOAD, STORE, ATOMICRMW, CMPXCHG, FENCE].map(OpSpec::def).to_vec()
}

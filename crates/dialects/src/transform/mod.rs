//! MLIR's `transform` dialect: the ops that script transformations of
//! payload IR (`transform.named_sequence`, `transform.structured.match`,
//! `transform.structured.tile_using_for`, ...), their handle and parameter
//! types (`!transform.any_op`, `!transform.op<"scf.for">`,
//! `!transform.any_value`, `!transform.param<i64>`, ...) and AscendNPU-IR's
//! extensions of it. This crate only parses, prints and verifies them;
//! nothing interprets them.
//!
//! The ops are declarative specs where MLIR's assembly format allows
//! (`core.rs`: the dialect's own ops; `structured.rs`: Linalg's;
//! `loops.rs`: SCF's; `patterns.rs`: the pattern descriptors of
//! `apply_patterns`; `bishengir.rs`: AscendNPU-IR's) and hand-written where
//! MLIR's are (`regions.rs`: `named_sequence`, `sequence`, `foreach`;
//! `custom_ops.rs`: the extensions with custom syntax). Custom directives
//! shared by the formats are in `customs.rs`.
//!
//! Syntax follows MLIR 22 where mlir-opt 22 knows an op; where AscendNPU-IR's
//! LLVM (19.1.7 with its patches) differs for an op its tests use, theirs is
//! followed: `structured.match` (`optional_attributes`),
//! `structured.tile_reduction_using_for` (dynamic tile sizes),
//! `apply_patterns` (`disable_patterns`) and `structured.fuse` (LLVM 19's
//! array attributes).

mod bishengir;
mod core;
mod custom_ops;
mod customs;
mod loops;
mod patterns;
mod regions;
mod structured;

use std::collections::HashMap;
use std::sync::OnceLock;

use hivm_ir::dialect::{VerifyError, VerifyFn};
use hivm_ir::opspec::{AttrKind, IntEnumKind, OpSpec};
use hivm_ir::{Dialect, Ir, OpDef, OpId, Type, TypeData, Value};

/// Operand and result groups most transform ops share.
pub(crate) const TARGET: &[hivm_ir::opspec::ValueDef] = &[hivm_ir::opspec::one("target")];
pub(crate) const RESULT: &[hivm_ir::opspec::ValueDef] = &[hivm_ir::opspec::one("result")];
pub(crate) const TRANSFORMED: &[hivm_ir::opspec::ValueDef] = &[hivm_ir::opspec::one("transformed")];
/// The commonest format: `%target : (T) -> (R...)`.
pub(crate) const TARGET_FUNCTIONAL: &str = "$target attr-dict `:` functional-type(operands, results)";

/// The type constraint of an operand or result group.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// `TransformHandleTypeInterface`: `!transform.any_op`, `!transform.op<...>`.
    Handle,
    /// `TransformValueHandleTypeInterface`: `!transform.any_value`.
    Value,
    /// `TransformParamTypeInterface`: `!transform.any_param`, `!transform.param<T>`, ...
    Param,
    /// `Transform_AnyHandleType`: an op or value handle.
    AnyHandle,
    /// `TransformAnyParamTypeOrAnyHandle`: a param or an op handle.
    ParamOrHandle,
    /// `Transform_AnyHandleOrParamType`: any transform type.
    Any,
    /// A handle to ops of one name (`!transform.op<"scf.for">`).
    OpNamed(&'static str),
}

/// What a transform type is.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Class {
    Handle,
    Value,
    Param,
}

fn class_of(ir: &Ir, t: Type) -> Option<Class> {
    let TypeData::Opaque { dialect, body } = ir.type_data(t) else { return None };
    if dialect != "transform" {
        return None;
    }
    let mnemonic = body.split('<').next().unwrap_or("");
    match mnemonic {
        "any_op" | "op" => Some(Class::Handle),
        "any_value" => Some(Class::Value),
        "any_param" | "param" | "type" | "affine_map" => Some(Class::Param),
        _ => None,
    }
}

impl Kind {
    fn accepts(self, ir: &Ir, t: Type) -> bool {
        let c = class_of(ir, t);
        match self {
            Kind::Handle => c == Some(Class::Handle),
            Kind::Value => c == Some(Class::Value),
            Kind::Param => c == Some(Class::Param),
            Kind::AnyHandle => matches!(c, Some(Class::Handle | Class::Value)),
            Kind::ParamOrHandle => matches!(c, Some(Class::Handle | Class::Param)),
            Kind::Any => c.is_some(),
            Kind::OpNamed(name) => {
                matches!(ir.type_data(t), TypeData::Opaque { dialect, body }
                    if dialect == "transform" && *body == format!("op<\"{name}\">"))
            }
        }
    }

    /// The constraint's summary, for "must be ..." messages.
    fn summary(self) -> String {
        match self {
            Kind::Handle => "TransformHandleTypeInterface instance".into(),
            Kind::Value => "TransformValueHandleTypeInterface instance".into(),
            Kind::Param => "TransformParamTypeInterface instance".into(),
            Kind::AnyHandle => "any transform handle".into(),
            Kind::ParamOrHandle => "transform any param type or any handle type".into(),
            Kind::Any => "any transform handle or parameter".into(),
            Kind::OpNamed(name) => format!("Transform IR handle to {name} operations"),
        }
    }
}

/// A spec with the type constraints of its operand and result groups (one
/// kind per group, in order) and its own checks.
#[derive(Clone, Copy)]
pub(crate) struct TOp {
    pub spec: OpSpec,
    pub operands: &'static [Kind],
    pub results: &'static [Kind],
    pub check: Option<VerifyFn>,
}

impl TOp {
    pub const fn new(spec: OpSpec, operands: &'static [Kind], results: &'static [Kind]) -> TOp {
        TOp { spec, operands, results, check: None }
    }

    pub const fn check(mut self, f: VerifyFn) -> TOp {
        self.check = Some(f);
        self
    }

    fn def(self) -> OpDef {
        debug_assert_eq!(self.spec.operands.len(), self.operands.len(), "{}", self.spec.name);
        debug_assert_eq!(self.spec.results.len(), self.results.len(), "{}", self.spec.name);
        let mut d = OpSpec { verify: Some(verify_spec_op), ..self.spec }.def();
        // MLIR names the results of ops with several result groups after them.
        if self.spec.results.len() > 1 {
            d = d.names(name_result_groups);
        }
        d
    }
}

/// Every spec'd op by name, for the shared verifier.
fn table() -> &'static HashMap<&'static str, TOp> {
    static TABLE: OnceLock<HashMap<&'static str, TOp>> = OnceLock::new();
    TABLE.get_or_init(|| all_specs().into_iter().map(|t| (t.spec.name, t)).collect())
}

fn all_specs() -> Vec<TOp> {
    [core::SPECS, structured::SPECS, loops::SPECS, bishengir::SPECS, &patterns::specs()].concat()
}

/// Checks each group's types against its constraint, then the op's own checks.
fn verify_spec_op(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(t) = table().get(ir.op_name(op)) else { return Ok(()) };
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let variadic = |d: &hivm_ir::opspec::ValueDef| d.arity == hivm_ir::opspec::Arity::Var;
    let mut index = 0;
    for (i, k) in t.operands.iter().enumerate() {
        let vals = c.operand_group(ir, op, i);
        check_group(ir, "operand", &mut index, vals, *k, variadic(&c.spec.operands[i]))?;
    }
    let mut index = 0;
    for (i, k) in t.results.iter().enumerate() {
        let vals = c.result_group(ir, op, i);
        check_group(ir, "result", &mut index, vals, *k, variadic(&c.spec.results[i]))?;
    }
    match t.check {
        Some(f) => f(ir, op),
        None => Ok(()),
    }
}

/// "operand #N must be ..., but got 'T'" for the first value of the wrong
/// kind; the constraint of a `variadic` group is "variadic of ...".
pub(crate) fn check_group(
    ir: &Ir,
    what: &str,
    index: &mut usize,
    vals: &[Value],
    k: Kind,
    variadic: bool,
) -> Result<(), VerifyError> {
    for v in vals {
        let t = ir.value_type(*v);
        if !k.accepts(ir, t) {
            let prefix = if variadic { "variadic of " } else { "" };
            let t = crate::util::type_str(ir, t);
            return Err(format!("{what} #{index} must be {prefix}{}, but got '{t}'", k.summary()).into());
        }
        *index += 1;
    }
    Ok(())
}

/// MLIR's generated `getAsmResultNames`: the first value of each non-empty
/// result group is named after the group.
fn name_result_groups(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return };
    for (i, r) in c.spec.results.iter().enumerate() {
        if let Some(v) = c.result_group(ir, op, i).first() {
            set(*v, r.name.to_string());
        }
    }
}

/// `FailurePropagationMode`, written `propagate` / `suppress`.
pub(crate) const FAILURE_PROPAGATION: IntEnumKind = IntEnumKind {
    cases: &[("propagate", 1), ("suppress", 2)],
    width: 32,
    summary: "Silenceable error propagation policy",
};

pub(crate) const FAILURE_PROPAGATION_KIND: AttrKind = AttrKind::IntEnum(FAILURE_PROPAGATION);

/// Validates a type body and returns MLIR's spelling of it.
fn check_type(body: &str) -> Result<String, String> {
    let body = body.trim();
    let (mnemonic, params) = match body.find('<') {
        Some(i) => {
            let Some(inner) = body[i + 1..].strip_suffix('>') else {
                return Err(format!("expected '>' to close !transform.{}", &body[..i]));
            };
            (body[..i].trim(), Some(inner.trim()))
        }
        None => (body, None),
    };
    match (mnemonic, params) {
        ("any_op" | "any_value" | "any_param" | "type" | "affine_map", None) => Ok(mnemonic.to_string()),
        // An empty parameter list is the parameterless type.
        ("any_op" | "any_value" | "any_param" | "type" | "affine_map", Some("")) => Ok(mnemonic.to_string()),
        ("op", Some(name)) => {
            let ok = name.len() >= 2
                && name.starts_with('"')
                && name.ends_with('"')
                && !name[1..name.len() - 1].contains('"');
            if !ok {
                return Err("expected string".into());
            }
            Ok(format!("op<{name}>"))
        }
        ("param", Some(t)) => {
            // An integer type of at most 64 bits: `i64`, `si8`, `ui32`.
            let digits = t.strip_prefix("si").or_else(|| t.strip_prefix("ui")).or_else(|| t.strip_prefix('i'));
            match digits.and_then(|d| d.parse::<u32>().ok()) {
                Some(w) if w <= 64 && !digits.is_some_and(|d| d.starts_with('+')) => Ok(format!("param<{t}>")),
                _ => Err("only supports integer types with width <=64".into()),
            }
        }
        ("op" | "param", None) => Err("expected '<'".into()),
        _ => Err(format!("unknown type mnemonic: {mnemonic}")),
    }
}

pub fn dialect() -> Dialect {
    let mut ops: Vec<OpDef> = all_specs().into_iter().map(TOp::def).collect();
    ops.extend(regions::defs());
    ops.extend(custom_ops::defs());
    let mut d = Dialect::new("transform", ops);
    d.check_type = Some(check_type);
    d
}

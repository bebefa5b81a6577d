//! The structural checks a spec implies, with the messages of MLIR's
//! generated verifiers; they run before the op's own verifier.

use super::{Arity, AttrKind, Compiled, Presence, ValueDef, segment_sizes};
use crate::attrs::{AttrData, DenseArrayData};
use crate::dialect::VerifyError;
use crate::ir::{Ir, OpId};

pub(super) fn verify(ir: &Ir, op: OpId, c: &Compiled) -> Result<(), VerifyError> {
    let s = &c.spec;
    // MLIR's order: the count traits, then the generated invariants
    // (attributes, then operand segments).
    count("result", s.results, ir.results(op).len())?;
    let regions = ir.regions(op).len();
    if !s.regions.is_empty() && regions != s.regions.len() {
        return Err(if s.regions.len() == 1 {
            "requires one region".to_string()
        } else {
            format!("expected {} regions", s.regions.len())
        }
        .into());
    }
    if !ir.successors(op).is_empty() {
        return Err(format!("requires 0 successors but found {}", ir.successors(op).len()).into());
    }
    let n = ir.operands(op).len();
    if !s.segments {
        count("operand", s.operands, n)?;
        // Without segments, variable groups share the spare operands equally
        // (MLIR's SameVariadicOperandSize); an uneven split is rejected.
        let fixed = s.operands.iter().filter(|d| d.arity == Arity::One).count();
        let variable = s.operands.len() - fixed;
        if variable > 1 && !(n - fixed).is_multiple_of(variable) {
            return Err(format!("expected the {variable} variadic operand groups to have the same size").into());
        }
        if variable > 1 && s.operands.iter().any(|d| d.arity == Arity::Opt) && n - fixed > variable {
            return Err(
                format!("expected each of the {variable} optional operand groups to have at most 1 element").into()
            );
        }
    }
    for (i, a) in s.attrs.iter().enumerate() {
        // An optional attribute the format always prints must be there.
        let needed =
            a.presence == Presence::Required || (a.presence == Presence::Optional && c.always_printed.contains(&i));
        match ir.get_attr(op, a.name) {
            None if needed && !a.kind.is_unit_like() => {
                return Err(format!("requires attribute '{}'", a.name).into());
            }
            Some(v) if !kind_matches(ir, a.kind, v) => {
                return Err(format!("attribute '{}' failed to satisfy constraint: {}", a.name, summary(a.kind)).into());
            }
            _ => {}
        }
    }
    if s.segments {
        let Some(attr) = ir.get_attr(op, "operandSegmentSizes") else {
            return Err("requires attribute 'operandSegmentSizes'".into());
        };
        let sizes = segment_sizes(ir, op);
        if !matches!(ir.attr_data(attr), AttrData::DenseArray { elem, data: DenseArrayData::Int(_) }
            if ir.type_data(*elem).is_signless_int(32))
        {
            return Err(
                "attribute 'operandSegmentSizes' failed to satisfy constraint: i32 dense array attribute".into()
            );
        }
        if sizes.len() != s.operands.len() {
            return Err(format!(
                "'operandSegmentSizes' attribute for specifying operand segments must have {} elements, but got {}",
                s.operands.len(),
                sizes.len()
            )
            .into());
        }
        if let AttrData::DenseArray { data: DenseArrayData::Int(raw), .. } = ir.attr_data(attr)
            && raw.iter().any(|k| *k < 0)
        {
            return Err("'operandSegmentSizes' attribute cannot have negative elements".into());
        }
        let total: usize = sizes.iter().sum();
        if total != n {
            return Err(format!(
                "operand count ({n}) does not match with the total size ({total}) specified in attribute 'operandSegmentSizes'"
            )
            .into());
        }
        let mut start = 0;
        for (d, k) in s.operands.iter().zip(&sizes) {
            group_size("operand", d, start, *k)?;
            start += k;
        }
    }
    types(ir, op, c)
}

/// Checks that run after the op's own verifier (whose messages for the
/// same faults are the upstream ones).
pub(super) fn verify_late(ir: &Ir, op: OpId, c: &Compiled) -> Result<(), VerifyError> {
    dynamic_lists(ir, op, c)
}

/// Fixed types (`Index`, `I64`, ...) and "like" types, which the custom
/// form leaves out and so must hold for it to read back the same.
fn types(ir: &Ir, op: OpId, c: &Compiled) -> Result<(), VerifyError> {
    let s = &c.spec;
    let mut start = 0;
    for (i, d) in s.operands.iter().enumerate() {
        let vals = c.operand_group(ir, op, i);
        if let Some(f) = d.fixed {
            for (k, v) in vals.iter().enumerate() {
                let t = ir.value_type(*v);
                if !f.matches(ir, t) {
                    return Err(format!(
                        "operand #{} must be {}, but got '{}'",
                        start + k,
                        f.summary(),
                        crate::printer::type_to_string(ir, t)
                    )
                    .into());
                }
            }
        }
        start += vals.len();
    }
    for (i, r) in s.results.iter().enumerate() {
        if let Some(f) = r.fixed {
            for v in c.result_group(ir, op, i) {
                let t = ir.value_type(*v);
                if !f.matches(ir, t) {
                    return Err(format!(
                        "result #{i} must be {}, but got '{}'",
                        f.summary(),
                        crate::printer::type_to_string(ir, t)
                    )
                    .into());
                }
            }
        }
    }
    // Every value with a "like" type has the type of the value it names.
    let type_of = |name: &str| -> Option<crate::types::Type> {
        let o = s.operands.iter().position(|d| d.name == name).and_then(|i| c.operand_group(ir, op, i).first());
        let r = s.results.iter().position(|d| d.name == name).and_then(|i| c.result_group(ir, op, i).first());
        o.or(r).map(|v| ir.value_type(*v))
    };
    let groups = s.operands.iter().enumerate().map(|(i, d)| (d, c.operand_group(ir, op, i)));
    let groups = groups.chain(s.results.iter().enumerate().map(|(i, d)| (d, c.result_group(ir, op, i))));
    for (d, vals) in groups {
        let Some(other) = d.like else { continue };
        let Some(want) = type_of(other) else { continue };
        if vals.iter().any(|v| ir.value_type(*v) != want) {
            return Err(format!("failed to verify that all of {{{}, {other}}} have same type", d.name).into());
        }
    }
    Ok(())
}

/// A `DynamicIndexList` has one dynamic value per `?` in its static list.
fn dynamic_lists(ir: &Ir, op: OpId, c: &Compiled) -> Result<(), VerifyError> {
    let mut result = Ok(());
    super::format::walk(&c.program, &mut |e| {
        if let super::Elem::Custom { index, args } = e
            && c.spec.customs[*index].name.starts_with("DynamicIndexList")
            && let [super::Var::Operand(o), super::Var::Attr(a)] = args[..]
            && result.is_ok()
        {
            let name = c.spec.attrs[a].name;
            let dynamic = match ir.get_attr(op, name).map(|x| ir.attr_data(x)) {
                Some(AttrData::DenseArray { data: DenseArrayData::Int(v), .. }) => {
                    v.iter().filter(|x| **x == crate::types::DYNAMIC).count()
                }
                _ => 0,
            };
            let have = c.operand_group(ir, op, o).len();
            if dynamic != have {
                result =
                    Err(format!("expected {dynamic} dynamic values for the '?' entries of '{name}', but got {have}")
                        .into());
            }
        }
    });
    result
}

fn group_size(what: &str, d: &ValueDef, start: usize, k: usize) -> Result<(), VerifyError> {
    match d.arity {
        Arity::One if k != 1 => {
            Err(format!("{what} group starting at #{start} requires 1 element, but found {k}").into())
        }
        Arity::Opt if k > 1 => {
            Err(format!("{what} group starting at #{start} requires 0 or 1 element, but found {k}").into())
        }
        _ => Ok(()),
    }
}

/// Counts without segments, in the words of MLIR's count traits
/// (`ZeroOperands`, `OneOperand`, `NOperands`, `AtLeastNOperands`, ...).
fn count(what: &str, defs: &[ValueDef], n: usize) -> Result<(), VerifyError> {
    let fixed = defs.iter().filter(|d| d.arity == Arity::One).count();
    let variable = defs.len() - fixed;
    let msg = match (variable, fixed) {
        (0, 0) if n != 0 => Some(format!("requires zero {what}s")),
        (0, 1) if n != 1 => {
            Some(if what == "operand" { "requires a single operand".into() } else { "requires one result".into() })
        }
        (0, k) if n != k => Some(format!("expected {k} {what}s, but found {n}")),
        (_, k) if n < k => Some(format!("expected {k} or more {what}s, but found {n}")),
        _ => None,
    };
    if let Some(m) = msg {
        return Err(m.into());
    }
    if variable == 1 && defs.iter().any(|d| d.arity == Arity::Opt) && n > fixed + 1 {
        let start = defs.iter().position(|d| d.arity == Arity::Opt).unwrap_or(0);
        return group_size(what, &defs[start], start, n - fixed);
    }
    Ok(())
}

pub(super) fn kind_matches(ir: &Ir, kind: AttrKind, a: crate::attrs::Attribute) -> bool {
    let d = ir.attr_data(a);
    match kind {
        AttrKind::Enum(e) => matches!(d, AttrData::Opaque { dialect, body }
            if ir.sym_str(*dialect) == e.dialect && body.strip_prefix(e.mnemonic).is_some_and(|r| r.starts_with('<'))),
        AttrKind::IntEnum(e) => matches!(d, AttrData::Integer { ty, value }
            if ir.type_data(*ty).is_signless_int(e.width) && e.name_of(*value as i64).is_some()),
        AttrKind::I64Array => {
            matches!(d, AttrData::DenseArray { elem, .. } if ir.type_data(*elem).is_signless_int(64))
        }
        AttrKind::I32Array => {
            matches!(d, AttrData::DenseArray { elem, .. } if ir.type_data(*elem).is_signless_int(32))
        }
        AttrKind::Bool => matches!(d, AttrData::Integer { ty, .. } if ir.type_data(*ty).is_signless_int(1)),
        AttrKind::Int(w) => matches!(d, AttrData::Integer { ty, .. } if ir.type_data(*ty).is_signless_int(w)),
        AttrKind::IndexInt => {
            matches!(d, AttrData::Integer { ty, .. } if matches!(ir.type_data(*ty), crate::TypeData::Index))
        }
        AttrKind::Str => matches!(d, AttrData::String { .. }),
        AttrKind::Unit => matches!(d, AttrData::Unit),
        AttrKind::UnitProp => {
            matches!(d, AttrData::Unit)
                || matches!(d, AttrData::Integer { ty, .. } if ir.type_data(*ty).is_signless_int(1))
        }
        AttrKind::TypeAttr => matches!(d, AttrData::Type(_)),
        AttrKind::Array => matches!(d, AttrData::Array(_)),
        AttrKind::SymbolRef => matches!(d, AttrData::SymbolRef { nested, .. } if nested.is_empty()),
        AttrKind::Any => true,
    }
}

/// MLIR's constraint summaries.
fn summary(kind: AttrKind) -> String {
    match kind {
        AttrKind::Enum(e) => e.summary.to_string(),
        AttrKind::IntEnum(e) => e.summary.to_string(),
        AttrKind::I64Array => "i64 dense array attribute".into(),
        AttrKind::I32Array => "i32 dense array attribute".into(),
        AttrKind::Bool => "bool attribute".into(),
        AttrKind::Int(w) => format!("{w}-bit signless integer attribute"),
        AttrKind::IndexInt => "index attribute".into(),
        AttrKind::Str => "string attribute".into(),
        AttrKind::Unit | AttrKind::UnitProp => "unit attribute".into(),
        AttrKind::TypeAttr => "any type attribute".into(),
        AttrKind::Array => "array attribute".into(),
        AttrKind::SymbolRef => "flat symbol reference attribute".into(),
        AttrKind::Any => "any attribute".into(),
    }
}

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
    }
    for a in s.attrs {
        match ir.get_attr(op, a.name) {
            None if a.presence == Presence::Required && !matches!(a.kind, AttrKind::Unit) => {
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
        if !matches!(ir.attr_data(attr), AttrData::DenseArray { data: DenseArrayData::Int(_), .. }) {
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
    Ok(())
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
        AttrKind::I64Array => "i64 dense array attribute".into(),
        AttrKind::I32Array => "i32 dense array attribute".into(),
        AttrKind::Bool => "bool attribute".into(),
        AttrKind::Int(w) => format!("{w}-bit signless integer attribute"),
        AttrKind::IndexInt => "index attribute".into(),
        AttrKind::Str => "string attribute".into(),
        AttrKind::Unit => "unit attribute".into(),
        AttrKind::TypeAttr => "any type attribute".into(),
        AttrKind::Array => "array attribute".into(),
        AttrKind::SymbolRef => "flat symbol reference attribute".into(),
        AttrKind::Any => "any attribute".into(),
    }
}

//! Scalable vectors: `vector.vscale` (the runtime multiple of scalable
//! dimensions) and `vector.scalable.insert` / `vector.scalable.extract`,
//! which move a vector into or out of a 1-D scalable one at a position that
//! is a multiple of the smaller vector's length.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, Fixed, OpSpec, attr, one};
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::type_str;

const VSCALE: OpSpec = OpSpec {
    name: "vector.vscale",
    results: &[one("res").of(Fixed::Index)],
    format: "attr-dict",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const SCALABLE_INSERT: OpSpec = OpSpec {
    name: "vector.scalable.insert",
    operands: &[one("valueToStore"), one("dest").like("res")],
    attrs: &[attr("pos", AttrKind::Int(64))],
    results: &[one("res")],
    format: "$valueToStore `,` $dest `[` $pos `]` attr-dict `:` type($valueToStore) `into` type($dest)",
    infer: Some(like_dest),
    traits: Traits::PURE,
    verify: Some(verify_scalable_insert),
    ..OpSpec::EMPTY
};

const SCALABLE_EXTRACT: OpSpec = OpSpec {
    name: "vector.scalable.extract",
    operands: &[one("source")],
    attrs: &[attr("pos", AttrKind::Int(64))],
    results: &[one("res")],
    format: "$source `[` $pos `]` attr-dict `:` type($res) `from` type($source)",
    traits: Traits::PURE,
    verify: Some(verify_scalable_extract),
    ..OpSpec::EMPTY
};

/// The insert's result is its destination.
fn like_dest(_: &mut Ir, st: &hivm_ir::opspec::FormatState) -> Result<Vec<Type>, String> {
    st.operand_types.get(1).and_then(|t| t.first()).map(|t| vec![*t]).ok_or_else(|| "expected a type".into())
}

/// Element count, element type and whether the vector is a 1-D scalable one.
fn parts(ir: &Ir, t: Type) -> Option<(i64, Type, bool)> {
    match ir.type_data(t) {
        TypeData::Vector { shape, scalable, elem, .. } if !shape.is_empty() => {
            Some((shape.iter().product(), *elem, shape.len() == 1 && scalable[0]))
        }
        _ => None,
    }
}

fn not_scalable(what: &str, ir: &Ir, t: Type) -> VerifyError {
    let t = type_str(ir, t);
    // Upstream's constraint summary is empty but for its rank.
    format!("{what} must be  of ranks 1, but got '{t}'").into()
}

/// `small` goes into (or comes out of) the scalable `big`; `names` are the
/// two values as the element-type check names them.
fn check(ir: &Ir, op: OpId, small: Type, big: Type, what: &str, names: &str) -> Result<(), VerifyError> {
    let Some((n, elem, _)) = parts(ir, small) else {
        let t = type_str(ir, small);
        return Err(format!("{what} must be vector of any type values of non-zero rank, but got '{t}'").into());
    };
    let Some((_, big_elem, true)) = parts(ir, big) else { return Err(not_scalable("operand #1", ir, big)) };
    if elem != big_elem {
        return Err(format!("failed to verify that all of {{{names}}} have same element type").into());
    }
    let pos = ir.get_attr(op, "pos").and_then(|a| ir.as_int(a)).unwrap_or(0) as i64;
    if n == 0 || pos % n != 0 {
        let which = if ir.op_name(op) == "vector.scalable.insert" { "source" } else { "result" };
        return Err(format!("failed to verify that position is a multiple of the {which} length.").into());
    }
    Ok(())
}

fn verify_scalable_insert(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (value, dest) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    check(ir, op, value, dest, "operand #0", "valueToStore, dest")
}

fn verify_scalable_extract(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (source, res) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)));
    if parts(ir, source).is_none_or(|(_, _, scalable)| !scalable) {
        return Err(not_scalable("operand #0", ir, source));
    }
    if ir.type_data(res).rank() != 1 {
        return Err(not_scalable("result #0", ir, res));
    }
    check(ir, op, res, source, "result #0", "source, result")
}

pub(super) fn defs() -> Vec<OpDef> {
    let mut d = vec![VSCALE.def().names(|ir, op, set| crate::util::name_result0(ir, op, set, "vscale"))];
    d.extend([SCALABLE_INSERT, SCALABLE_EXTRACT].map(OpSpec::def));
    d
}

//! The one scalar a splat tensor holds, for a load's `other` (the fill of
//! the lanes the mask leaves out). Like upstream's `getScalarValue` it looks
//! through `tt.splat`, splat constants and the two element casts a frontend
//! puts between them (`sitofp`, `truncf`); the casts are folded when the
//! scalar is a constant (so `other` is one `arith.constant` of the loaded
//! type, as upstream's folding leaves it), else applied to the scalar.

use hivm_ir::attrs::DenseElem;
use hivm_ir::minifloat::{bits_of_value, value_of_bits};
use hivm_ir::{AttrData, OpId, Type, TypeData, Value};

use super::Cx;
use super::emit::element_of;

/// A scalar known at compile time, as an element of type `ty`.
#[derive(Clone, Copy)]
enum Known {
    Int(i128),
    Float(u128),
}

enum Scalar {
    Known(Known, Type),
    Value(Value),
}

/// The converted scalar every element of old tensor `v` equals, or `None`
/// when `v` is not a splat this can see through.
pub fn splat_scalar(cx: &mut Cx<'_>, v: Value) -> Option<Value> {
    let mut casts: Vec<OpId> = Vec::new();
    let mut cur = v;
    let base = loop {
        let d = cx.ir.defining_op(cur)?;
        match cx.ir.op_name(d) {
            "tt.splat" => {
                let src = cx.ir.operand(d, 0);
                let ty = cx.ir.value_type(src);
                let known = cx.ir.defining_op(src).filter(|c| cx.ir.is_op(*c, "arith.constant")).and_then(|c| match cx
                    .ir
                    .attr_data(cx.ir.get_attr(c, "value")?)
                {
                    AttrData::Integer { value, .. } => Some(Known::Int(*value)),
                    AttrData::Float { bits, .. } => Some(Known::Float(*bits)),
                    _ => None,
                });
                break match known {
                    Some(k) => Scalar::Known(k, ty),
                    None => Scalar::Value(cx.lookup(src).ok()?),
                };
            }
            "arith.constant" => {
                let elem = element_of(cx.ir, cx.ir.value_type(cur));
                let attr = cx.ir.get_attr(d, "value")?;
                let k = match cx.ir.attr_data(attr) {
                    AttrData::DenseElements { splat: true, elems, .. } => match elems.first()? {
                        DenseElem::Int(i) => Known::Int(*i),
                        DenseElem::Float(bits) => Known::Float(*bits as u128),
                        _ => return None,
                    },
                    _ => return None,
                };
                break Scalar::Known(k, elem);
            }
            "arith.sitofp" | "arith.truncf" => {
                casts.push(d);
                cur = cx.ir.operand(d, 0);
            }
            _ => return None,
        }
    };
    let mut s = base;
    for op in casts.into_iter().rev() {
        let name = cx.ir.op_name(op).to_string();
        let to = element_of(cx.ir, cx.ir.value_type(cx.ir.result(op, 0)));
        s = match s {
            Scalar::Known(k, from) => match fold(cx, &name, k, from, to) {
                Some(k) => Scalar::Known(k, to),
                None => {
                    let c = materialize(cx, k, from);
                    Scalar::Value(cx.em().value1(&name, &[c], to, vec![]))
                }
            },
            Scalar::Value(x) => Scalar::Value(cx.em().value1(&name, &[x], to, vec![])),
        };
    }
    Some(match s {
        Scalar::Known(k, ty) => materialize(cx, k, ty),
        Scalar::Value(x) => x,
    })
}

fn float_kind(cx: &Cx<'_>, t: Type) -> Option<hivm_ir::types::FloatKind> {
    match cx.ir.type_data(t) {
        TypeData::Float(k) => Some(*k),
        _ => None,
    }
}

/// `name` applied to constant `k` of type `from`, when exactly one rounding
/// (to `to`) gives its result.
fn fold(cx: &Cx<'_>, name: &str, k: Known, from: Type, to: Type) -> Option<Known> {
    let to_kind = float_kind(cx, to)?;
    let value = match (name, k) {
        ("arith.sitofp", Known::Int(i)) => {
            let w = cx.ir.type_data(from).int_width()?;
            // The signed reading of the `w`-bit pattern (i1's true is -1).
            let shift = 128 - w.clamp(1, 128);
            let i = (i << shift) >> shift;
            // Beyond 2^53 the f64 would round once before the target does.
            if i.unsigned_abs() > 1u128 << 53 {
                return None;
            }
            i as f64
        }
        ("arith.truncf", Known::Float(bits)) => value_of_bits(float_kind(cx, from)?, bits)?,
        _ => return None,
    };
    Some(Known::Float(bits_of_value(to_kind, value)?))
}

fn materialize(cx: &mut Cx<'_>, k: Known, ty: Type) -> Value {
    let attr = match k {
        Known::Int(i) => cx.ir.int_attr(i, ty),
        Known::Float(bits) => cx.ir.attr(AttrData::Float { bits, ty }),
    };
    cx.em().constant(attr, ty)
}

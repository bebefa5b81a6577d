//! Mask analysis: a load or store mask built from comparisons of a range
//! against a bound (`cmpi slt/sle/sge/eq`, `andi`, `splat`, `broadcast`,
//! `expand_dims`) is a box — per dimension an offset and a size — so the
//! access becomes a `subview` of the block instead of a per-element select.
//! Sizes are clamped to the block, so an out-of-range bound reads nothing
//! rather than past the buffer.

use hivm_ir::Value;
use hivm_ir::diagnostics::Diagnostic;

use super::Cx;
use super::address::splat_int;
use super::emit::Ofr;

#[derive(Clone, Debug, Default)]
pub struct MaskState {
    /// For a range: its first and one-past-last values.
    pub start: Option<Ofr>,
    pub end: Option<Ofr>,
    /// The box, once the value is a mask.
    pub offsets: Vec<Ofr>,
    pub dims: Vec<Ofr>,
    pub scalar: Option<Ofr>,
}

impl MaskState {
    fn is_mask(&self) -> bool {
        !self.dims.is_empty()
    }
}

fn unsupported(cx: &Cx<'_>, v: Value, what: &str) -> Diagnostic {
    let (loc, name) = match cx.ir.defining_op(v) {
        Some(op) => (cx.ir.loc(op), format!("'{}' op", cx.ir.op_name(op))),
        None => (cx.ir.value_loc(v).unwrap_or(cx.loc), "a block argument".to_string()),
    };
    Diagnostic::error(loc, format!("{name} {what} is not supported by triton-to-linalg yet"))
}

fn clamp_non_negative(o: Ofr) -> Ofr {
    match o {
        Ofr::Const(c) => Ofr::Const(c.max(0)),
        v => v,
    }
}

/// The box the mask `v` (old IR) selects.
pub fn mask(cx: &mut Cx<'_>, v: Value) -> Result<MaskState, Diagnostic> {
    let st = parse(cx, v)?;
    if !st.is_mask() {
        return Err(unsupported(cx, v, "as a load/store mask"));
    }
    Ok(st)
}

fn parse(cx: &mut Cx<'_>, v: Value) -> Result<MaskState, Diagnostic> {
    let ty = cx.ir.value_type(v);
    let shape = cx.ir.type_data(ty).shape().map(|s| s.to_vec());
    if shape.is_none() {
        let s = match splat_int(cx, v) {
            Some(c) => Ofr::Const(c),
            None => {
                let new = cx.lookup(v)?;
                cx.em().as_index(new)
            }
        };
        return Ok(MaskState { scalar: Some(s), ..Default::default() });
    }
    let shape = shape.unwrap_or_default();
    let Some(op) = cx.ir.defining_op(v) else { return Err(unsupported(cx, v, "in a mask")) };
    let operands = cx.ir.operands(op).to_vec();
    match cx.ir.op_name(op) {
        "arith.constant" => {
            let c = splat_int(cx, v).ok_or_else(|| unsupported(cx, v, "(a non-splat constant) in a mask"))?;
            let elem = hivm_ir::types::TypeData::element_type(cx.ir.type_data(ty)).expect("a tensor");
            if cx.ir.type_data(elem).int_width() == Some(1) {
                let dims = shape.iter().map(|d| Ofr::Const(if c != 0 { *d } else { 0 })).collect();
                Ok(MaskState { offsets: vec![Ofr::Const(0); shape.len()], dims, ..Default::default() })
            } else {
                Ok(MaskState { scalar: Some(Ofr::Const(c)), ..Default::default() })
            }
        }
        "tt.make_range" => {
            let get = |n: &str| cx.ir.get_attr(op, n).and_then(|a| cx.ir.as_int(a)).unwrap_or(0) as i64;
            let (start, end) = (get("start"), get("end"));
            Ok(MaskState {
                start: Some(Ofr::Const(start)),
                end: Some(Ofr::Const(end)),
                dims: vec![Ofr::Const(shape[0])],
                offsets: vec![Ofr::Const(0)],
                scalar: None,
            })
        }
        "arith.extsi" | "arith.extui" => parse(cx, operands[0]),
        "arith.addi" => {
            let (a, b) = (parse(cx, operands[0])?, parse(cx, operands[1])?);
            let (range, s) = match (a.scalar, b.scalar) {
                (Some(s), None) => (b, s),
                (None, Some(s)) => (a, s),
                _ => return Err(unsupported(cx, v, "(an addition of two ranges or two scalars) in a mask")),
            };
            let (Some(start), Some(end)) = (range.start, range.end) else {
                return Err(unsupported(cx, v, "in a mask"));
            };
            let mut em = cx.em();
            let start = em.add(start, s);
            let end = em.add(end, s);
            let all_one = range.dims.iter().all(|d| *d == Ofr::Const(1));
            Ok(MaskState {
                start: Some(start),
                end: Some(end),
                offsets: range.offsets,
                dims: range.dims,
                scalar: all_one.then_some(start),
            })
        }
        "arith.andi" => {
            let (a, b) = (parse(cx, operands[0])?, parse(cx, operands[1])?);
            if !a.is_mask() || !b.is_mask() || a.dims.len() != b.dims.len() {
                return Err(unsupported(cx, v, "(an 'and' of non-box masks) in a mask"));
            }
            let mut em = cx.em();
            let mut st = MaskState::default();
            for i in 0..a.dims.len() {
                let offset = em.max(a.offsets[i], b.offsets[i]);
                let a_end = em.add(a.offsets[i], a.dims[i]);
                let b_end = em.add(b.offsets[i], b.dims[i]);
                let end = em.min(a_end, b_end);
                let dim = em.sub(end, offset);
                st.offsets.push(offset);
                st.dims.push(clamp_non_negative(dim));
            }
            Ok(st)
        }
        "arith.cmpi" => cmp(cx, v, op, &operands),
        "tt.broadcast" => {
            let mut st = parse(cx, operands[0])?;
            for (i, d) in shape.iter().enumerate() {
                if i < st.dims.len() && st.dims[i] == Ofr::Const(1) && *d != 1 {
                    st.dims[i] = Ofr::Const(*d);
                }
            }
            Ok(st)
        }
        "tt.splat" => {
            let mut st = parse(cx, operands[0])?;
            let src_t = cx.ir.value_type(operands[0]);
            if cx.ir.type_data(src_t).int_width() == Some(1) {
                // A splat condition: all or nothing.
                let s = st.scalar.take().expect("a scalar");
                let mut em = cx.em();
                st.dims = shape.iter().map(|d| em.mul(Ofr::Const(*d), s)).collect();
            } else {
                st.dims = shape.iter().map(|d| Ofr::Const(*d)).collect();
            }
            st.offsets = vec![Ofr::Const(0); shape.len()];
            Ok(st)
        }
        "tt.expand_dims" => {
            let mut st = parse(cx, operands[0])?;
            let axis = cx.ir.get_attr(op, "axis").and_then(|a| cx.ir.as_int(a)).unwrap_or(0) as usize;
            st.dims.insert(axis.min(st.dims.len()), Ofr::Const(1));
            st.offsets.insert(axis.min(st.offsets.len()), Ofr::Const(0));
            Ok(st)
        }
        _ => Err(unsupported(cx, v, "in a mask")),
    }
}

fn cmp(cx: &mut Cx<'_>, v: Value, op: hivm_ir::OpId, operands: &[Value]) -> Result<MaskState, Diagnostic> {
    let pred = cx.ir.get_attr(op, "predicate").and_then(|a| cx.ir.as_int(a)).unwrap_or(-1);
    // arith.cmpi predicates: eq 0, ne 1, slt 2, sle 3, sgt 4, sge 5, ult 6, ule 7, ugt 8, uge 9.
    if !matches!(pred, 0 | 2 | 3 | 5) {
        return Err(unsupported(cx, v, "(this comparison) in a mask"));
    }
    let lhs = parse(cx, operands[0])?;
    let rhs = parse(cx, operands[1])?;
    let (Some(bound), None) = (rhs.scalar, lhs.scalar) else {
        return Err(unsupported(cx, v, "(a comparison other than range against scalar) in a mask"));
    };
    let (Some(start), Some(end)) = (lhs.start, lhs.end) else {
        return Err(unsupported(cx, v, "in a mask"));
    };
    let mut wide = lhs.dims.iter().enumerate().filter(|(_, d)| **d != Ofr::Const(1)).map(|(i, _)| i);
    let dim = match (wide.next(), wide.next()) {
        (Some(d), None) => d,
        _ => return Err(unsupported(cx, v, "(a comparison over more than one dimension) in a mask")),
    };
    let mut st = MaskState { offsets: lhs.offsets.clone(), dims: lhs.dims.clone(), ..Default::default() };
    let mut em = cx.em();
    match pred {
        2 | 3 => {
            let bound = if pred == 3 { em.add(bound, Ofr::Const(1)) } else { bound };
            let real = em.max(start, bound);
            let new_end = em.min(end, real);
            let d = em.sub(new_end, start);
            st.dims[dim] = clamp_non_negative(d);
        }
        5 => {
            let real = em.max(start, bound);
            let new_start = em.min(end, real);
            st.offsets[dim] = em.sub(new_start, start);
            let d = em.sub(end, new_start);
            st.dims[dim] = clamp_non_negative(d);
        }
        _ => {
            st.offsets[dim] = em.sub(bound, start);
            st.dims[dim] = Ofr::Const(1);
        }
    }
    Ok(st)
}

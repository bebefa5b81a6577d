//! Address analysis: a tensor of pointers, or of offsets, described as a
//! strided block — per dimension an offset, a size and a stride — from the
//! ops that built it (`make_range`, `splat`, `addi`, `muli`, `expand_dims`,
//! `broadcast`, `addptr`). This is what lets a Triton load become one
//! `memref.reinterpret_cast` and a copy instead of a gather. Offsets are
//! element counts; the block's linear start is the sum of the offsets.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{TypeData, Value};

use super::Cx;
use super::emit::Ofr;

/// A tensor of integer offsets (rank 0 for a scalar).
#[derive(Clone, Debug)]
pub struct OffState {
    pub offsets: Vec<Ofr>,
    pub sizes: Vec<i64>,
    pub strides: Vec<Ofr>,
    /// The value itself, when every element is the same.
    pub scalar: Option<Ofr>,
}

/// A pointer (rank 0) or a tensor of pointers into one kernel argument.
#[derive(Clone, Debug)]
pub struct PtrState {
    /// The converted argument (`memref<?xT>`).
    pub source: Value,
    /// Scalar part of the offset (a scalar pointer's whole offset).
    pub base: Ofr,
    pub offsets: Vec<Ofr>,
    pub sizes: Vec<i64>,
    pub strides: Vec<Ofr>,
    /// The `memref.reinterpret_cast` made for this block, once made.
    pub view: Option<Value>,
}

impl PtrState {
    pub fn rank(&self) -> usize {
        self.sizes.len()
    }
}

fn unsupported(cx: &Cx<'_>, v: Value, what: &str) -> Diagnostic {
    let (loc, name) = match cx.ir.defining_op(v) {
        Some(op) => (cx.ir.loc(op), format!("'{}' op", cx.ir.op_name(op))),
        None => (cx.ir.value_loc(v).unwrap_or(cx.loc), "a block argument".to_string()),
    };
    Diagnostic::error(loc, format!("{name} {what} is not supported by triton-to-linalg yet"))
}

fn int_attr(cx: &Cx<'_>, op: hivm_ir::OpId, name: &str) -> Option<i64> {
    cx.ir.get_attr(op, name).and_then(|a| cx.ir.as_int(a)).and_then(|v| i64::try_from(v).ok())
}

/// The splat value of an integer `arith.constant` (scalar or dense splat).
pub fn splat_int(cx: &Cx<'_>, v: Value) -> Option<i64> {
    let op = cx.ir.defining_op(v)?;
    if !cx.ir.is_op(op, "arith.constant") {
        return None;
    }
    match cx.ir.attr_data(cx.ir.get_attr(op, "value")?) {
        hivm_ir::AttrData::Integer { value, .. } => i64::try_from(*value).ok(),
        hivm_ir::AttrData::DenseElements { splat: true, elems, .. } => match elems.first() {
            Some(hivm_ir::attrs::DenseElem::Int(i)) => i64::try_from(*i).ok(),
            _ => None,
        },
        _ => None,
    }
}

/// A block with a unit dimension inserted at `axis` (offset and stride 0).
fn expand_block(offsets: &mut Vec<Ofr>, strides: &mut Vec<Ofr>, sizes: &mut Vec<i64>, axis: usize, shape: Vec<i64>) {
    offsets.insert(axis, Ofr::Const(0));
    strides.insert(axis, Ofr::Const(0));
    *sizes = shape;
}

/// A block broadcast to `shape`: every widened dimension repeats (stride 0).
fn broadcast_block(strides: &mut [Ofr], sizes: &mut Vec<i64>, shape: Vec<i64>) {
    for (i, (from, to)) in sizes.iter().zip(&shape).enumerate() {
        if from != to {
            strides[i] = Ofr::Const(0);
        }
    }
    *sizes = shape;
}

/// The offsets described by integer value `v` (old IR).
pub fn offsets(cx: &mut Cx<'_>, v: Value) -> Result<OffState, Diagnostic> {
    let ty = cx.ir.value_type(v);
    let shape = cx.ir.type_data(ty).shape().map(|s| s.to_vec());
    let Some(shape) = shape else {
        // A scalar: its converted value, as an index.
        if let Some(c) = splat_int(cx, v) {
            return Ok(OffState { offsets: vec![], sizes: vec![], strides: vec![], scalar: Some(Ofr::Const(c)) });
        }
        let new = cx.lookup(v)?;
        let s = cx.em().as_index(new);
        return Ok(OffState { offsets: vec![], sizes: vec![], strides: vec![], scalar: Some(s) });
    };
    let splat = |s: Ofr, shape: &[i64]| {
        let mut offsets = vec![Ofr::Const(0); shape.len()];
        if let Some(first) = offsets.first_mut() {
            *first = s;
        }
        OffState { offsets, sizes: shape.to_vec(), strides: vec![Ofr::Const(0); shape.len()], scalar: Some(s) }
    };
    if let Some(c) = splat_int(cx, v) {
        return Ok(splat(Ofr::Const(c), &shape));
    }
    let Some(op) = cx.ir.defining_op(v) else { return Err(unsupported(cx, v, "as an address offset")) };
    let operands = cx.ir.operands(op).to_vec();
    match cx.ir.op_name(op) {
        "tt.make_range" => {
            let (start, end) = (int_attr(cx, op, "start").unwrap_or(0), int_attr(cx, op, "end").unwrap_or(0));
            Ok(OffState {
                offsets: vec![Ofr::Const(start)],
                sizes: vec![end - start],
                strides: vec![Ofr::Const(1)],
                scalar: None,
            })
        }
        "tt.splat" => {
            let s = offsets(cx, operands[0])?.scalar.expect("a scalar's state is a scalar");
            Ok(splat(s, &shape))
        }
        "arith.extsi" | "arith.extui" | "arith.trunci" | "arith.index_cast" => {
            let mut st = offsets(cx, operands[0])?;
            st.sizes = shape;
            Ok(st)
        }
        "arith.addi" => {
            let (a, b) = (offsets(cx, operands[0])?, offsets(cx, operands[1])?);
            let mut em = cx.em();
            let offsets = a.offsets.iter().zip(&b.offsets).map(|(x, y)| em.add(*x, *y)).collect();
            let strides = a.strides.iter().zip(&b.strides).map(|(x, y)| em.add(*x, *y)).collect();
            let scalar = match (a.scalar, b.scalar) {
                (Some(x), Some(y)) => Some(em.add(x, y)),
                _ => None,
            };
            Ok(OffState { offsets, sizes: shape, strides, scalar })
        }
        "arith.muli" => {
            let (a, b) = (offsets(cx, operands[0])?, offsets(cx, operands[1])?);
            let (vector, s) = match (a.scalar, b.scalar) {
                (_, Some(s)) => (a, s),
                (Some(s), None) => (b, s),
                (None, None) => return Err(unsupported(cx, v, "multiplying two non-uniform offsets")),
            };
            let mut em = cx.em();
            let offsets = vector.offsets.iter().map(|x| em.mul(*x, s)).collect();
            let strides = vector.strides.iter().map(|x| em.mul(*x, s)).collect();
            let scalar = vector.scalar.map(|x| em.mul(x, s));
            Ok(OffState { offsets, sizes: shape, strides, scalar })
        }
        "tt.expand_dims" => {
            let mut st = offsets(cx, operands[0])?;
            let axis = int_attr(cx, op, "axis").unwrap_or(0) as usize;
            expand_block(&mut st.offsets, &mut st.strides, &mut st.sizes, axis, shape);
            Ok(st)
        }
        "tt.broadcast" => {
            let mut st = offsets(cx, operands[0])?;
            broadcast_block(&mut st.strides, &mut st.sizes, shape);
            Ok(st)
        }
        _ => Err(unsupported(cx, v, "as an address offset")),
    }
}

/// The block pointer value `v` (old IR) points to.
pub fn pointer(cx: &mut Cx<'_>, v: Value) -> Result<PtrState, Diagnostic> {
    if let Some(st) = cx.ptrs.get(&v) {
        return Ok(st.clone());
    }
    let Some(op) = cx.ir.defining_op(v) else { return Err(unsupported(cx, v, "of pointer type")) };
    let operands = cx.ir.operands(op).to_vec();
    let shape = cx.ir.type_data(cx.ir.value_type(v)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let st = match cx.ir.op_name(op) {
        "tt.addptr" => {
            let p = pointer(cx, operands[0])?;
            let o = offsets(cx, operands[1])?;
            let mut em = cx.em();
            if o.sizes.is_empty() {
                if p.rank() != 0 {
                    let mut q = p.clone();
                    q.offsets[0] = em.add(q.offsets[0], o.scalar.expect("a scalar offset"));
                    q.view = None;
                    q
                } else {
                    let base = em.add(p.base, o.scalar.expect("a scalar offset"));
                    PtrState { base, view: None, ..p }
                }
            } else if p.rank() == 0 {
                PtrState {
                    source: p.source,
                    base: p.base,
                    offsets: o.offsets,
                    sizes: o.sizes,
                    strides: o.strides,
                    view: None,
                }
            } else {
                let offsets = p.offsets.iter().zip(&o.offsets).map(|(x, y)| em.add(*x, *y)).collect();
                let strides = p.strides.iter().zip(&o.strides).map(|(x, y)| em.add(*x, *y)).collect();
                PtrState { source: p.source, base: p.base, offsets, sizes: o.sizes, strides, view: None }
            }
        }
        "tt.splat" => {
            let p = pointer(cx, operands[0])?;
            PtrState {
                offsets: vec![Ofr::Const(0); shape.len()],
                strides: vec![Ofr::Const(0); shape.len()],
                sizes: shape,
                view: None,
                ..p
            }
        }
        "tt.expand_dims" => {
            let mut p = pointer(cx, operands[0])?;
            let axis = int_attr(cx, op, "axis").unwrap_or(0) as usize;
            expand_block(&mut p.offsets, &mut p.strides, &mut p.sizes, axis, shape);
            p.view = None;
            p
        }
        "tt.broadcast" => {
            let mut p = pointer(cx, operands[0])?;
            broadcast_block(&mut p.strides, &mut p.sizes, shape);
            p.view = None;
            p
        }
        _ => return Err(unsupported(cx, v, "producing a pointer")),
    };
    cx.ptrs.insert(v, st.clone());
    Ok(st)
}

/// The `memref.reinterpret_cast` viewing `v`'s block, made here if not yet.
pub fn view(cx: &mut Cx<'_>, v: Value) -> Result<Value, Diagnostic> {
    let st = pointer(cx, v)?;
    if let Some(view) = st.view {
        return Ok(view);
    }
    let mut em = cx.em();
    let mut total = st.base;
    for o in &st.offsets {
        total = em.add(total, *o);
    }
    let sizes = if st.sizes.is_empty() { vec![1] } else { st.sizes.clone() };
    let mut strides = if st.strides.is_empty() { vec![Ofr::Const(1)] } else { st.strides.clone() };
    // A unit dimension's stride never moves the address; like upstream, the
    // view gives it the extent of the dimensions inside it rather than 0
    // (the state keeps 0 for the arithmetic that follows).
    let mut inner = 1;
    for (stride, size) in strides.iter_mut().zip(&sizes).rev() {
        if *size == 1 && *stride == Ofr::Const(0) {
            *stride = Ofr::Const(inner);
        }
        inner *= size;
    }
    let view = em.reinterpret_cast(st.source, total, &sizes, &strides);
    if let Some(s) = cx.ptrs.get_mut(&v) {
        s.view = Some(view);
    }
    Ok(view)
}

/// Whether `t` is a Triton pointer or a tensor of them.
pub fn is_pointer_like(cx: &Cx<'_>, t: hivm_ir::Type) -> bool {
    let elem = match cx.ir.type_data(t) {
        TypeData::RankedTensor { elem, .. } => *elem,
        _ => t,
    };
    matches!(cx.ir.type_data(elem), TypeData::Opaque { dialect, body } if dialect == "tt" && body.starts_with("ptr<"))
}

//! Tensor values: constants and splats become filled `tensor.empty`s,
//! `make_range` a `linalg.generic` over `linalg.index`, shape ops their
//! tensor/linalg forms, element-wise arith/math stay as they are
//! (`named-ops=true`) or become `linalg.generic` (`false`), and `tt.reduce`
//! a `linalg.reduce` with the combiner as its body.

use hivm_ir::builder::InsertPoint;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{AttrData, OpId, OperationState, Type, TypeData, Value};

use super::Cx;
use super::emit::{Emitter, attr_from_text, element_of, shape_of, tensor_type};

fn unsupported(cx: &Cx<'_>, op: OpId, what: &str) -> Diagnostic {
    Diagnostic::error(
        cx.ir.loc(op),
        format!("'{}' op {what} is not supported by triton-to-linalg yet", cx.ir.op_name(op)),
    )
}

fn identity_maps(n: usize, rank: usize) -> String {
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let map = format!("affine_map<({}) -> ({})>", dims.join(", "), dims.join(", "));
    format!("[{}]", vec![map; n].join(", "))
}

fn parallel(rank: usize) -> String {
    format!("[{}]", vec!["#linalg.iterator_type<parallel>"; rank].join(", "))
}

/// `arith.constant`: a dense splat tensor becomes a filled `tensor.empty`.
pub fn constant(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let result = cx.ir.result(op, 0);
    let ty = cx.ir.value_type(result);
    let attr = cx.ir.get_attr(op, "value").expect("a constant's value");
    if let (TypeData::RankedTensor { shape, elem, .. }, AttrData::DenseElements { splat: true, elems, .. }) =
        (cx.ir.type_data(ty).clone(), cx.ir.attr_data(attr).clone())
    {
        let scalar = match elems.first() {
            Some(hivm_ir::attrs::DenseElem::Int(i)) => cx.ir.int_attr(*i, elem),
            Some(hivm_ir::attrs::DenseElem::Float(bits)) => {
                cx.ir.attr(AttrData::Float { bits: *bits as u128, ty: elem })
            }
            _ => return Err(unsupported(cx, op, "of this element kind")),
        };
        let loc = cx.ir.loc(op);
        let mut em = Emitter::new(cx.ir, cx.ip, loc);
        let c = em.constant(scalar, elem);
        let v = em.splat(c, &shape);
        cx.map.insert(result, v);
        return Ok(());
    }
    cx.clone_mapped(op)
}

/// `tt.splat` of a scalar. A splat of a constant is a constant tensor, which
/// upstream's folding puts at the top of the function, so its fill goes there.
pub fn splat(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let old_src = cx.ir.operand(op, 0);
    let src = cx.lookup(old_src)?;
    let result = cx.ir.result(op, 0);
    let shape = shape_of(cx.ir, cx.ir.value_type(result));
    let constant = cx.ir.defining_op(old_src).is_some_and(|d| cx.ir.is_op(d, "arith.constant"));
    let v = match (constant, function_start(cx)) {
        (true, Some(ip)) => {
            // The scalar is hoisted above this point when the function is cleaned up.
            let loc = cx.ir.loc(op);
            Emitter::new(cx.ir, ip, loc).splat(src, &shape)
        }
        _ => cx.em_at(op).splat(src, &shape),
    };
    cx.map.insert(result, v);
    Ok(())
}

/// The start of the entry block of the function being filled.
fn function_start(cx: &Cx<'_>) -> Option<InsertPoint> {
    Some(match cx.ir.block(cx.entry).first {
        Some(first) => InsertPoint::Before(first),
        None => InsertPoint::End(cx.entry),
    })
}

/// `tt.make_range` used as data: each element its index plus the start.
pub fn make_range(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let result = cx.ir.result(op, 0);
    let ty = cx.ir.value_type(result);
    let elem = element_of(cx.ir, ty);
    let shape = shape_of(cx.ir, ty);
    let start = cx.ir.get_attr(op, "start").and_then(|a| cx.ir.as_int(a)).unwrap_or(0);
    let maps = attr_from_text(cx.ir, &identity_maps(1, 1));
    let iters = attr_from_text(cx.ir, &parallel(1));
    let loc = cx.ir.loc(op);
    let mut em = Emitter::new(cx.ir, cx.ip, loc);
    let empty = em.empty(&shape, elem);
    let region = em.region(&[elem], |inner, _| {
        let index = inner.index_type();
        let dim = inner.ir.i64_attr(0);
        let i = inner.value1("linalg.index", &[], index, vec![("dim", dim)]);
        let mut v = inner.index_to_int(i, elem);
        if start != 0 {
            let s = inner.int_const(start, elem);
            v = inner.value1("arith.addi", &[v, s], elem, vec![]);
        }
        vec![v]
    });
    let seg = hivm_dialects::util::segment_attr(em.ir, &[0, 1]);
    let g = em.op_with_regions(
        "linalg.generic",
        &[empty],
        &[ty],
        vec![("indexing_maps", maps), ("iterator_types", iters), ("operandSegmentSizes", seg)],
        vec![region],
    );
    let v = em.ir.result(g, 0);
    cx.map.insert(result, v);
    Ok(())
}

/// Element-wise arith/math on tensors.
pub fn elementwise(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    if cx.named_ops {
        return cx.clone_mapped(op);
    }
    let operands: Vec<Value> =
        cx.ir.operands(op).to_vec().into_iter().map(|v| cx.lookup(v)).collect::<Result<_, _>>()?;
    let result = cx.ir.result(op, 0);
    let rt = cx.ir.value_type(result);
    let shape = shape_of(cx.ir, rt);
    let relem = element_of(cx.ir, rt);
    let (name, props, attrs) = (cx.ir.op(op).name, cx.ir.op(op).properties, cx.ir.op(op).attrs);
    let maps = attr_from_text(cx.ir, &identity_maps(operands.len() + 1, shape.len()));
    let iters = attr_from_text(cx.ir, &parallel(shape.len()));
    let loc = cx.ir.loc(op);
    let mut em = Emitter::new(cx.ir, cx.ip, loc);
    let out = match operands.iter().find(|v| em.ir.value_type(**v) == rt) {
        Some(v) => *v,
        None => em.empty(&shape, relem),
    };
    let mut types: Vec<Type> = operands.iter().map(|v| element_of(em.ir, em.ir.value_type(*v))).collect();
    types.push(relem);
    let n = operands.len();
    let region = em.region(&types, |inner, args| {
        let mut st = OperationState::new(name, loc);
        st.operands = args[..n].to_vec();
        st.result_types = vec![relem];
        st.properties = props;
        let o = inner.ir.create_op(st);
        inner.ir.op_mut(o).attrs = attrs;
        match inner.ip {
            hivm_ir::builder::InsertPoint::End(b) => inner.ir.append_op(b, o),
            _ => unreachable!("a region body is built at its end"),
        }
        vec![inner.ir.result(o, 0)]
    });
    let seg = hivm_dialects::util::segment_attr(em.ir, &[n, 1]);
    let mut all = operands.clone();
    all.push(out);
    let g = em.op_with_regions(
        "linalg.generic",
        &all,
        &[rt],
        vec![("indexing_maps", maps), ("iterator_types", iters), ("operandSegmentSizes", seg)],
        vec![region],
    );
    let v = em.ir.result(g, 0);
    cx.map.insert(result, v);
    Ok(())
}

/// `tt.expand_dims`: `tensor.expand_shape` adding a unit dimension.
pub fn expand_dims(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let src = cx.lookup(cx.ir.operand(op, 0))?;
    let result = cx.ir.result(op, 0);
    let ty = cx.ir.value_type(result);
    let shape = shape_of(cx.ir, ty);
    let axis = cx.ir.get_attr(op, "axis").and_then(|a| cx.ir.as_int(a)).unwrap_or(0) as usize;
    let v = expand(&mut cx.em_at(op), src, ty, &unit_groups(shape.len(), &[axis]));
    cx.map.insert(result, v);
    Ok(())
}

/// Reassociation putting each of `units` (dims of the larger shape) with a neighbour.
fn unit_groups(rank: usize, units: &[usize]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut pending: Vec<usize> = Vec::new();
    for d in 0..rank {
        pending.push(d);
        if !units.contains(&d) {
            groups.push(std::mem::take(&mut pending));
        }
    }
    if !pending.is_empty() {
        match groups.last_mut() {
            Some(last) => last.extend(pending),
            None => groups.push(pending),
        }
    }
    groups
}

fn groups_attr(em: &mut Emitter<'_>, groups: &[Vec<usize>]) -> hivm_ir::Attribute {
    let text: Vec<String> = groups
        .iter()
        .map(|g| format!("[{}]", g.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")))
        .collect();
    attr_from_text(em.ir, &format!("[{}]", text.join(", ")))
}

fn expand(em: &mut Emitter<'_>, src: Value, ty: Type, groups: &[Vec<usize>]) -> Value {
    let shape = shape_of(em.ir, ty);
    let reassociation = groups_attr(em, groups);
    let out = hivm_dialects::util::i64_array_attr(em.ir, &shape);
    em.value1("tensor.expand_shape", &[src], ty, vec![("reassociation", reassociation), ("static_output_shape", out)])
}

fn collapse(em: &mut Emitter<'_>, src: Value, ty: Type, groups: &[Vec<usize>]) -> Value {
    let reassociation = groups_attr(em, groups);
    em.value1("tensor.collapse_shape", &[src], ty, vec![("reassociation", reassociation)])
}

/// `tt.broadcast` of data: the unit dimensions dropped, then `linalg.broadcast`.
pub fn broadcast(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let old_src = cx.ir.operand(op, 0);
    let src = cx.lookup(old_src)?;
    let result = cx.ir.result(op, 0);
    let ty = cx.ir.value_type(result);
    let (from, to) = (shape_of(cx.ir, cx.ir.value_type(old_src)), shape_of(cx.ir, ty));
    let elem = element_of(cx.ir, ty);
    let dims: Vec<usize> = (0..to.len()).filter(|d| from[*d] != to[*d]).collect();
    if dims.is_empty() {
        cx.map.insert(result, src);
        return Ok(());
    }
    let loc = cx.ir.loc(op);
    let mut em = Emitter::new(cx.ir, cx.ip, loc);
    // The destination first, then the collapse, as upstream orders them.
    let empty = em.empty(&to, elem);
    let kept: Vec<i64> = (0..from.len()).filter(|d| !dims.contains(d)).map(|d| from[d]).collect();
    let collapsed = if kept.is_empty() {
        let t = tensor_type(em.ir, &[], elem);
        collapse(&mut em, src, t, &[])
    } else {
        let t = tensor_type(em.ir, &kept, elem);
        collapse(&mut em, src, t, &unit_groups(from.len(), &dims))
    };
    let region = em.region(&[elem, elem], |_, args| vec![args[0]]);
    let d: Vec<i64> = dims.iter().map(|d| *d as i64).collect();
    let dims_attr = hivm_dialects::util::i64_array_attr(em.ir, &d);
    let b = em.op_with_regions(
        "linalg.broadcast",
        &[collapsed, empty],
        &[ty],
        vec![("dimensions", dims_attr)],
        vec![region],
    );
    let v = em.ir.result(b, 0);
    cx.map.insert(result, v);
    Ok(())
}

/// `tt.reshape`: `tensor.reshape` by a constant `tensor<Nxi64>` shape, as upstream writes it.
pub fn reshape(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let src = cx.lookup(cx.ir.operand(op, 0))?;
    let result = cx.ir.result(op, 0);
    let ty = cx.ir.value_type(result);
    let shape = shape_of(cx.ir, ty);
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let text = if dims.len() == 1 {
        format!("dense<{}> : tensor<1xi64>", dims[0])
    } else {
        format!("dense<[{}]> : tensor<{}xi64>", dims.join(", "), dims.len())
    };
    let value = attr_from_text(cx.ir, &text);
    let loc = cx.ir.loc(op);
    let mut em = Emitter::new(cx.ir, cx.ip, loc);
    let i64t = em.ir.int_type(64);
    let shape_t = tensor_type(em.ir, &[shape.len() as i64], i64t);
    let c = em.constant(value, shape_t);
    let v = em.value1("tensor.reshape", &[src, c], ty, vec![]);
    cx.map.insert(result, v);
    Ok(())
}

/// `tt.trans`: `linalg.transpose` into a `tensor.empty`.
pub fn trans(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let src = cx.lookup(cx.ir.operand(op, 0))?;
    let result = cx.ir.result(op, 0);
    let ty = cx.ir.value_type(result);
    let (shape, elem) = (shape_of(cx.ir, ty), element_of(cx.ir, ty));
    let order = cx.ir.get_attr(op, "order").map(|a| hivm_dialects::util::i64_array_of(cx.ir, a)).unwrap_or_default();
    let loc = cx.ir.loc(op);
    let mut em = Emitter::new(cx.ir, cx.ip, loc);
    let empty = em.empty(&shape, elem);
    let region = em.region(&[elem, elem], |_, args| vec![args[0]]);
    let perm = hivm_dialects::util::i64_array_attr(em.ir, &order);
    let t = em.op_with_regions("linalg.transpose", &[src, empty], &[ty], vec![("permutation", perm)], vec![region]);
    let v = em.ir.result(t, 0);
    cx.map.insert(result, v);
    Ok(())
}

/// The identity element of a one-operand combiner's op, as attribute text.
fn identity(cx: &Cx<'_>, combiner: &str, elem: Type) -> Option<String> {
    let t = hivm_ir::printer::type_to_string(cx.ir, elem);
    let width = cx.ir.type_data(elem).int_width();
    let float = matches!(cx.ir.type_data(elem), TypeData::Float(_));
    let text = match (combiner, float) {
        ("arith.addf", true) => "0.000000e+00".to_string(),
        ("arith.mulf", true) => "1.000000e+00".to_string(),
        ("arith.maxnumf" | "arith.maximumf", true) => "0xFF800000".to_string(),
        ("arith.minnumf" | "arith.minimumf", true) => "0x7F800000".to_string(),
        ("arith.addi" | "arith.ori" | "arith.xori" | "arith.maxui", false) => "0".to_string(),
        ("arith.muli", false) => "1".to_string(),
        ("arith.andi" | "arith.minui", false) => "-1".to_string(),
        ("arith.maxsi", false) => format!("{}", -(1i128 << (width? - 1))),
        ("arith.minsi", false) => format!("{}", (1i128 << (width? - 1)) - 1),
        _ => return None,
    };
    let text = match (text.as_str(), t.as_str()) {
        // Infinities are spelled by their bits, which depend on the width.
        ("0xFF800000", "f16") => "0xFC00".to_string(),
        ("0x7F800000", "f16") => "0x7C00".to_string(),
        ("0xFF800000", "bf16") => "0xFF80".to_string(),
        ("0x7F800000", "bf16") => "0x7F80".to_string(),
        ("0xFF800000", "f64") => "0xFFF0000000000000".to_string(),
        ("0x7F800000", "f64") => "0x7FF0000000000000".to_string(),
        ("0xFF800000" | "0x7F800000", "f32") => text,
        (x, _) if x.starts_with("0x") => return None,
        _ => text,
    };
    Some(format!("{text} : {t}"))
}

/// `tt.reduce`: `linalg.reduce` whose body is the combiner, from the combiner's identity, or from the first
/// slice when the combiner has none we know.
pub fn reduce(cx: &mut Cx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let old_srcs = cx.ir.operands(op).to_vec();
    let srcs: Vec<Value> = old_srcs.iter().map(|v| cx.lookup(*v)).collect::<Result<_, _>>()?;
    let axis = cx.ir.get_attr(op, "axis").and_then(|a| cx.ir.as_int(a)).unwrap_or(0) as usize;
    let results = cx.ir.results(op).to_vec();
    let region = cx.ir.regions(op)[0];
    let body = cx.ir.single_block(region).ok_or_else(|| unsupported(cx, op, "with several blocks"))?;
    let body_ops: Vec<OpId> = cx.ir.block_ops(body).collect();
    let ret = *body_ops.last().ok_or_else(|| unsupported(cx, op, "with an empty combiner"))?;
    let n = srcs.len();
    let old_args = cx.ir.block_args(body).to_vec();
    let src_shape = shape_of(cx.ir, cx.ir.value_type(srcs[0]));
    let out_shape: Vec<i64> = src_shape.iter().enumerate().filter(|(d, _)| *d != axis).map(|(_, s)| *s).collect();
    let elems: Vec<Type> = srcs.iter().map(|s| element_of(cx.ir, cx.ir.value_type(*s))).collect();
    // The combiner's op, when it is a single one.
    let single = (n == 1 && body_ops.len() == 2).then(|| cx.ir.op_name(body_ops[0]).to_string());
    let ident = single.as_deref().and_then(|c| identity(cx, c, elems[0]));
    // Values the combiner takes from outside it (a constant `true`, say) are
    // their converted selves inside the new body.
    let mut inner_map = hivm_ir::ValueMap::default();
    for o in &body_ops {
        for v in cx.ir.operands(*o).to_vec() {
            if let Some(n) = cx.map.get(&v) {
                inner_map.insert(v, *n);
            }
        }
    }
    let loc = cx.ir.loc(op);
    let mut em = Emitter::new(cx.ir, cx.ip, loc);
    let (inputs, inits): (Vec<Value>, Vec<Value>) = match &ident {
        Some(text) => {
            let a = attr_from_text(em.ir, text);
            let c = em.constant(a, elems[0]);
            let init = if out_shape.is_empty() {
                // A rank-0 accumulator is an alloc_tensor, as upstream makes it.
                let t = tensor_type(em.ir, &[], elems[0]);
                let seg = hivm_dialects::util::segment_attr(em.ir, &[0, 0, 0]);
                let e = em.value1("bufferization.alloc_tensor", &[], t, vec![("operandSegmentSizes", seg)]);
                em.fill(c, e).expect("a tensor fill")
            } else {
                em.splat(c, &out_shape)
            };
            (srcs.clone(), vec![init])
        }
        None => {
            // A selecting combiner reduces every element onto a copy of the first slice.
            let selecting = super::with_index::selects(em.ir, ret, &old_args, n);
            let size = src_shape[axis];
            let mut inputs = Vec::new();
            let mut inits = Vec::new();
            for s in &srcs {
                let zeros = vec![super::emit::Ofr::Const(0); src_shape.len()];
                let mut first_sizes: Vec<super::emit::Ofr> =
                    src_shape.iter().map(|d| super::emit::Ofr::Const(*d)).collect();
                first_sizes[axis] = super::emit::Ofr::Const(1);
                let first = em.extract_slice(*s, &zeros, &first_sizes);
                let elem = element_of(em.ir, em.ir.value_type(*s));
                let t = tensor_type(em.ir, &out_shape, elem);
                let groups = if out_shape.is_empty() { vec![] } else { unit_groups(src_shape.len(), &[axis]) };
                inits.push(collapse(&mut em, first, t, &groups));
                let mut offs = zeros.clone();
                offs[axis] = super::emit::Ofr::Const(1);
                let mut rest_sizes: Vec<super::emit::Ofr> =
                    src_shape.iter().map(|d| super::emit::Ofr::Const(*d)).collect();
                rest_sizes[axis] = super::emit::Ofr::Const(size - 1);
                inputs.push(if selecting { *s } else { em.extract_slice(*s, &offs, &rest_sizes) });
            }
            (inputs, inits)
        }
    };
    let mut types = elems.clone();
    types.extend(elems.iter().copied());
    let region = em.region(&types, |inner, args| {
        // The combiner's arguments in order, as upstream maps them: its first half takes the
        // elements, its second the accumulators (Triton's combiners are symmetric in the two).
        for (old, new) in old_args.iter().zip(args) {
            inner_map.insert(*old, *new);
        }
        for o in &body_ops[..body_ops.len() - 1] {
            let c = inner.ir.clone_op(*o, &mut inner_map);
            if let hivm_ir::builder::InsertPoint::End(b) = inner.ip {
                inner.ir.append_op(b, c);
            }
        }
        inner.ir.operands(ret).iter().map(|v| *inner_map.get(v).unwrap_or(v)).collect()
    });
    let dims = hivm_dialects::util::i64_array_attr(em.ir, &[axis as i64]);
    let mut operands = inputs;
    operands.extend(inits.iter().copied());
    let out_types: Vec<Type> = inits.iter().map(|v| em.ir.value_type(*v)).collect();
    let r = em.op_with_regions("linalg.reduce", &operands, &out_types, vec![("dimensions", dims)], vec![region]);
    if ident.is_none()
        && let Some((mode, left)) = super::with_index::mode(em.ir, &body_ops, &old_args)
        && super::with_index::selects(em.ir, ret, &old_args, n)
    {
        let (m, l) = (em.ir.str_attr(mode), em.ir.str_attr(left));
        em.ir.set_attr(r, "reduce_mode", m);
        em.ir.set_attr(r, "tie_break_left", l);
    }
    for (i, old) in results.iter().enumerate() {
        let mut v = em.ir.result(r, i);
        if out_shape.is_empty() {
            let et = elems[i];
            v = em.value1("tensor.extract", &[v], et, vec![]);
        }
        cx.map.insert(*old, v);
    }
    Ok(())
}

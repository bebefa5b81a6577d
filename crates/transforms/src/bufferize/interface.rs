//! What each supported op does with its tensor operands, the facts One-Shot
//! Bufferize's analysis needs (MLIR's `BufferizableOpInterface`), kept in one
//! place so that the analysis and the rewrite agree.

use hivm_dialects::hivm::custom;
use hivm_dialects::linalg::loops::{self, Loops};
use hivm_ir::{Ir, OpId};

/// How an op is bufferized.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `bufferization.to_tensor`: the tensor is a view of its memref.
    ToTensor,
    /// `tensor.empty` / `bufferization.alloc_tensor`: a fresh allocation.
    Alloc,
    /// `arith.constant` of a tensor: a read-only global.
    Constant,
    /// `tensor.splat`: a fresh buffer filled by a `linalg.map`.
    Splat,
    /// `annotation.mark` on tensors: reads them, marks their buffers.
    Mark,
    /// Destination-passing ops (`linalg.fill` and the structured linalg
    /// ops, custom ops, HIVM ops): out #k becomes result #k.
    Dps,
    /// `bufferization.materialize_in_destination` into a memref: a copy.
    Materialize,
    /// `tensor.extract`: a load.
    Extract,
    /// `tensor.extract_slice`: a `memref.subview` of the source's buffer.
    ExtractSlice,
    /// `tensor.expand_shape` / `collapse_shape` / `reshape`: the memref
    /// reshape of the source's buffer.
    Reshape,
    /// `tensor.cast`: the memref cast of the source's buffer (same layout).
    Cast,
    /// `tensor.dim`: the memref dim of the source's buffer.
    Dim,
    /// `func.call` passing tensors (with function boundaries): operands the
    /// callee writes are passed in place or as copies.
    Call,
    /// Ops that keep tensor operands (`func.return`): they get `to_tensor`s.
    Boundary,
    /// `scf.if`: tensor results become memref results, yields forward buffers.
    If,
    /// `scf.for`: tensor iter_args and results become memrefs; an iter_arg
    /// reuses its init's buffer when the analysis allows.
    For,
    /// `scf.yield` in an `scf.if` or `scf.for`: forwards its operands' buffers.
    Yield,
    /// `scf.condition` of an `scf.while`: forwards its operands' buffers.
    Condition,
}

pub fn kind(ir: &Ir, op: OpId) -> Option<Kind> {
    Some(match ir.op_name(op) {
        "bufferization.to_tensor" => Kind::ToTensor,
        "tensor.empty" | "bufferization.alloc_tensor" => Kind::Alloc,
        "tensor.splat" => Kind::Splat,
        "annotation.mark" => Kind::Mark,
        "arith.constant" if ir.results(op).first().is_some_and(|r| crate::bufferize::is_tensor(ir, *r)) => {
            Kind::Constant
        }
        "linalg.fill" | custom::CUSTOM | custom::MACRO | "tensor.insert_slice" | "tensor.insert" => Kind::Dps,
        // hivm-expose-memref-write-to-tensor's copies: upstream's bufferizer
        // drops them (the result is the source), so they are casts here.
        "hivm.hir.copy" if ir.has_attr(op, "to_be_replaced") => Kind::Cast,
        n if is_hivm_dps(n) => Kind::Dps,
        n if (n.starts_with("linalg.") || loops::is_named_elementwise(n)) && structured(ir, op).is_some() => Kind::Dps,
        "bufferization.materialize_in_destination" => Kind::Materialize,
        "tensor.extract" => Kind::Extract,
        "tensor.extract_slice" => Kind::ExtractSlice,
        "tensor.expand_shape" | "tensor.collapse_shape" | "tensor.reshape" => Kind::Reshape,
        "tensor.cast" => Kind::Cast,
        "tensor.dim" => Kind::Dim,
        "func.return" => Kind::Boundary,
        "func.call" if ir.operands(op).iter().chain(ir.results(op)).any(|v| crate::bufferize::is_tensor(ir, *v)) => {
            Kind::Call
        }
        "scf.if" => Kind::If,
        "scf.for" | "scf.while" => Kind::For,
        "scf.condition" => Kind::Condition,
        "scf.yield" => Kind::Yield,
        _ => return None,
    })
}

/// HIVM structured ops (ins, outs, ...), bufferized like custom ops without
/// `inplace_outs`: outs may be read.
fn is_hivm_dps(name: &str) -> bool {
    hivm_dialects::hivm::vector::is_elementwise(name)
        || matches!(name, "hivm.hir.vreduce" | "hivm.hir.load" | "hivm.hir.store" | "hivm.hir.copy")
}

/// The loop nest of a structured linalg op (not `fill`, whose scalar input
/// the generic rules below handle), if it has one.
fn structured(ir: &Ir, op: OpId) -> Option<Loops> {
    if matches!(ir.op_name(op), "linalg.fill" | "linalg.yield" | "linalg.index") {
        return None;
    }
    loops::loops(ir, op).ok()
}

/// Whether the body of structured op `op` uses the argument standing for
/// operand `i` (MLIR's `payloadUsesValueFromOperand`, which is what a
/// linalg op reads: an init whose value the body ignores is only written).
fn payload_uses(ir: &Ir, op: OpId, i: usize) -> bool {
    let Some(block) = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first().copied()) else {
        return true;
    };
    let Some(&arg) = ir.block_args(block).get(i) else { return false };
    let mut used = false;
    for o in ir.block_ops(block) {
        ir.walk(o, &mut |n| used |= ir.operands(n).contains(&arg));
    }
    used
}

/// MLIR's `bufferizesToElementwiseAccess` of a structured op for a read of
/// operand `read` and a write of `write`: all loops parallel and both
/// operands accessed through the identity map, so each point reads its
/// element before writing it (no conflict when the two are one buffer).
pub fn elementwise_access(ir: &Ir, op: OpId, read: usize, write: usize) -> bool {
    let Some(l) = structured(ir, op) else { return false };
    let identity = |k: usize| {
        l.maps.get(k).is_some_and(|m| {
            m.results.len() == m.num_dims as usize
                && m.results.iter().enumerate().all(|(i, e)| *e == hivm_ir::affine::AffineExpr::Dim(i as u32))
        })
    };
    l.parallel.iter().all(|p| *p) && identity(read) && identity(write)
}

/// Operand range `[start, end)` of a DPS op's outs.
pub fn dps_outs(ir: &Ir, op: OpId) -> std::ops::Range<usize> {
    if ir.is_op(op, "tensor.insert") {
        return 1..2; // scalar, dest, indices
    }
    if (ir.op_name(op).starts_with("linalg.") || loops::is_named_elementwise(ir.op_name(op)))
        && let Some(l) = structured(ir, op)
    {
        return l.inputs..ir.operands(op).len();
    }
    match hivm_dialects::util::segment_sizes(ir, op) {
        &[ins, outs, ..] if ins >= 0 && outs >= 0 => ins as usize..ins.saturating_add(outs) as usize,
        // Ops without segment sizes (hivm.hir.store, copy): `ins(src) outs(dst)`.
        _ if ir.operands(op).len() >= 2 => 1..2,
        _ => 0..0,
    }
}

/// Out #k is in-place for a custom op iff some ins operand maps to it through
/// its `inplace_outs` argument attribute.
fn inplace_source(ir: &Ir, op: OpId, out: usize) -> Option<usize> {
    if !custom::is_custom(ir, op) {
        return None;
    }
    (0..custom::ins(ir, op).len())
        .find(|&i| custom::arg_attr(ir, op, i, "inplace_outs").and_then(|a| ir.as_int(a)) == Some(out as i128))
}

/// Whether operand `i` is read by `op`.
pub fn reads(ir: &Ir, op: OpId, i: usize) -> bool {
    match kind(ir, op) {
        Some(Kind::Dps) if structured(ir, op).is_some() => payload_uses(ir, op, i),
        Some(Kind::Dps) => {
            let outs = dps_outs(ir, op);
            if !outs.contains(&i) {
                return true;
            }
            // `linalg.fill` overwrites its out; `insert_slice` keeps what lies
            // outside the slice; a custom op may read its out unless it is
            // declared to alias an input.
            if ir.is_op(op, "tensor.insert_slice") {
                return !overwrites_all(ir, op);
            }
            !ir.is_op(op, "linalg.fill") && inplace_source(ir, op, i - outs.start).is_none()
        }
        Some(Kind::Materialize) => i == 0,
        // `tensor.reshape` reads its shape operand.
        Some(Kind::Reshape) if ir.is_op(op, "tensor.reshape") => i == 1,
        // A slice reads nothing itself; reads of the slice count for its source.
        Some(Kind::Alloc)
        | Some(Kind::Constant)
        | Some(Kind::Splat)
        | Some(Kind::ToTensor)
        | Some(Kind::ExtractSlice)
        | Some(Kind::Reshape)
        | Some(Kind::Cast)
        | Some(Kind::Dim) => false,
        // Forwarding is not a read: reads of the result or iter_arg are.
        Some(Kind::Yield) | Some(Kind::If) | Some(Kind::For) | Some(Kind::Condition) => false,
        _ => true,
    }
}

/// For a written operand, the result it becomes.
pub fn written_result(ir: &Ir, op: OpId, i: usize) -> Option<usize> {
    match kind(ir, op) {
        Some(Kind::Dps) => {
            let outs = dps_outs(ir, op);
            outs.contains(&i).then(|| i - outs.start)
        }
        _ => None,
    }
}

/// Whether an `insert_slice` covers its whole destination (static, no gaps).
fn overwrites_all(ir: &Ir, op: OpId) -> bool {
    let dest = ir.value_type(ir.operand(op, 1));
    let shape = ir.type_data(dest).shape().map(|s| s.to_vec()).unwrap_or_default();
    let offsets = hivm_dialects::util::i64_array(ir, op, "static_offsets");
    let sizes = hivm_dialects::util::i64_array(ir, op, "static_sizes");
    let strides = hivm_dialects::util::i64_array(ir, op, "static_strides");
    offsets.iter().all(|o| *o == 0) && strides.iter().all(|s| *s == 1) && sizes == shape
}

/// Outs that upstream forces in place (custom-op `inplace_outs`).
pub fn must_be_in_place(ir: &Ir, op: OpId, i: usize) -> bool {
    let outs = dps_outs(ir, op);
    outs.contains(&i) && inplace_source(ir, op, i - outs.start).is_some()
}

/// A read of `read` and a write of `write` by the same op that do not
/// conflict: the input an in-place out is declared to alias.
pub fn not_conflicting(ir: &Ir, op: OpId, read: usize, write: usize) -> bool {
    if read == write {
        return true;
    }
    // An insert_slice of data computed in place in the same slice of its
    // destination: the source read is the area being written.
    if ir.is_op(op, "tensor.insert_slice") && read == 0 && write == 1 && matched_insert_slice(ir, op) {
        return true;
    }
    let outs = dps_outs(ir, op);
    outs.contains(&write) && inplace_source(ir, op, write - outs.start) == Some(read)
}

/// Whether the source of `tensor.insert_slice` `op` was computed in place in
/// the very slice it is inserted into: it traces back, through destination
/// operands, to an `extract_slice` of the same destination with the same
/// offsets, sizes and strides. Then the insert's read of its destination
/// (the area outside the slice) conflicts with no write into that slice
/// (upstream's matching extract/insert pair rule).
pub fn matched_insert_slice(ir: &Ir, op: OpId) -> bool {
    let dest = ir.operand(op, 1);
    let mut v = ir.operand(op, 0);
    loop {
        let Some(def) = ir.defining_op(v) else { return false };
        if ir.is_op(def, "tensor.extract_slice") {
            return ir.operand(def, 0) == dest && same_slice(ir, def, 1, op, 2);
        }
        if kind(ir, def) != Some(Kind::Dps) || ir.is_op(def, "tensor.insert_slice") {
            return false;
        }
        let k = ir.results(def).iter().position(|r| *r == v).expect("a result of its op");
        v = ir.operand(def, dps_outs(ir, def).start + k);
    }
}

/// Whether two slicing ops use the same offsets, sizes and strides (static
/// lists and the dynamic operands from `a_dyn` / `b_dyn` on).
fn same_slice(ir: &Ir, a: OpId, a_dyn: usize, b: OpId, b_dyn: usize) -> bool {
    ["static_offsets", "static_sizes", "static_strides"].iter().all(|k| ir.get_attr(a, k) == ir.get_attr(b, k))
        && ir.operands(a)[a_dyn..] == ir.operands(b)[b_dyn..]
}

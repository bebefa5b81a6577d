//! Upstream's HIVM op traits as checks over an op's inputs and inits
//! (extra buffers left out): same rank, N-ary elementwise shapes, and
//! broadcast/transpose on the fly. Messages are upstream's.

use hivm_ir::dialect::VerifyError;
use hivm_ir::{Ir, OpId, Type, Value};

use crate::util::i64_array;

fn shape(ir: &Ir, t: Type) -> Option<Vec<i64>> {
    ir.type_data(t).shape().map(|s| s.to_vec())
}

/// The ranked types among the values and the op's results.
fn ranked(ir: &Ir, op: OpId, values: &[Value]) -> Vec<Vec<i64>> {
    values.iter().chain(ir.results(op)).filter_map(|v| shape(ir, ir.value_type(*v))).collect()
}

/// No operand is a buffer (scalars allowed).
pub(crate) fn pure_tensor(ir: &Ir, op: OpId) -> bool {
    ir.operands(op).iter().all(|v| !ir.type_data(ir.value_type(*v)).is_memref())
}

/// MLIR's `verifyCompatibleDims`: the static sizes agree.
pub(crate) fn compatible_dims(dims: &[i64]) -> bool {
    let mut statics = dims.iter().filter(|d| **d >= 0);
    statics.next().is_none_or(|first| statics.all(|d| d == first))
}

/// `HIVMOpSameOperandsAndResultRank`.
pub(crate) fn same_rank(ir: &Ir, op: OpId, operands: &[Value]) -> Result<(), VerifyError> {
    let shapes = ranked(ir, op, operands);
    if shapes.iter().any(|s| s.len() != shapes[0].len()) {
        return Err("operands must have same rank".into());
    }
    Ok(())
}

/// `ElementwiseNaryOpTrait<n>`; `inputs` exclude extra buffers, `extra`
/// counts them.
pub(crate) fn elementwise_nary(
    ir: &Ir,
    op: OpId,
    n: usize,
    inputs: &[Value],
    inits: &[Value],
    extra: usize,
) -> Result<(), VerifyError> {
    if inputs.len() != n {
        return Err(format!("elementwise op expected {n} inputs, but found {}", inputs.len() + extra).into());
    }
    let all: Vec<Value> = inputs.iter().chain(inits).copied().collect();
    let shapes = ranked(ir, op, &all);
    if shapes.is_empty() {
        return Err("at least one operands should be ranked".into());
    }
    if pure_tensor(ir, op) || !i64_array(ir, op, "broadcast").is_empty() || !i64_array(ir, op, "transpose").is_empty() {
        return Ok(());
    }
    let rank = shapes[0].len();
    let consistent = shapes.iter().all(|s| s.len() == rank)
        && (0..rank).all(|d| compatible_dims(&shapes.iter().map(|s| s[d]).collect::<Vec<_>>()));
    if !consistent {
        return Err("operands' shape are inconsistent".into());
    }
    Ok(())
}

/// The one init's shape, for the on-the-fly checks.
fn single_init(ir: &Ir, inits: &[Value], what: &str) -> Result<Vec<i64>, VerifyError> {
    if inits.len() != 1 {
        return Err(format!("{what} Op expect 1 output, but found {}", inits.len()).into());
    }
    Ok(shape(ir, ir.value_type(inits[0])).unwrap_or_default())
}

/// `BroadcastableOTF`: `broadcast` dims lie in the init's rank, and the
/// inputs have 1 (or the init's size) there and the init's size elsewhere.
pub(crate) fn broadcastable_otf(ir: &Ir, op: OpId, inputs: &[Value], inits: &[Value]) -> Result<(), VerifyError> {
    let dims = i64_array(ir, op, "broadcast");
    if pure_tensor(ir, op) || dims.is_empty() {
        return Ok(());
    }
    let out = single_init(ir, inits, "BroadcastableOTF")?;
    let rank = out.len() as i64;
    if !dims.iter().all(|d| (0..rank).contains(d)) {
        return Err("broadcast dim exceeds op's rank".into());
    }
    let shapes: Vec<Vec<i64>> = inputs.iter().filter_map(|v| shape(ir, ir.value_type(*v))).collect();
    for (d, &size) in out.iter().enumerate() {
        let mut sizes: Vec<i64> = shapes.iter().map(|s| s.get(d).copied().unwrap_or(-1)).collect();
        if dims.contains(&(d as i64)) {
            if !sizes.iter().all(|s| *s == 1 || *s == size || *s < 0) {
                return Err("input operand's broadcast dim is not 1".into());
            }
        } else {
            sizes.push(size);
            if !compatible_dims(&sizes) {
                return Err("input operand's non-broadcast dim does not match with output".into());
            }
        }
    }
    Ok(())
}

/// `TransposableOTF`: `transpose` permutes the init's dims, keeps the last
/// one, and the inputs' dims map onto the init's.
pub(crate) fn transposable_otf(ir: &Ir, op: OpId, inputs: &[Value], inits: &[Value]) -> Result<(), VerifyError> {
    let perm = i64_array(ir, op, "transpose");
    if pure_tensor(ir, op) || perm.is_empty() {
        return Ok(());
    }
    let out = single_init(ir, inits, "TransposableOTF")?;
    let rank = out.len() as i64;
    let mut sorted = perm.clone();
    sorted.sort_unstable();
    if sorted != (0..rank).collect::<Vec<_>>() {
        let list: Vec<String> = perm.iter().map(|d| d.to_string()).collect();
        return Err(format!("expects 'transpose' to be a permutation, found {}", list.join(", ")).into());
    }
    if perm.last() != Some(&(rank - 1)) {
        return Err("transpose dim is the last dimension".into());
    }
    let shapes: Vec<Vec<i64>> = inputs.iter().filter_map(|v| shape(ir, ir.value_type(*v))).collect();
    for d in 0..out.len() {
        let idx = out.len() - 1 - d;
        let t = perm[idx] as usize;
        let mut sizes: Vec<i64> = shapes.iter().map(|s| s.get(t).copied().unwrap_or(-1)).collect();
        sizes.push(out[idx]);
        if !compatible_dims(&sizes) {
            return Err(format!("failed to verify transpose behavior at {idx} {t}").into());
        }
    }
    Ok(())
}

/// `VectorOnlyTrait<idx>`: the operand exists and is shaped.
pub(crate) fn vector_only(ir: &Ir, op: OpId, idx: usize) -> Result<(), VerifyError> {
    let Some(v) = ir.operands(op).get(idx) else {
        return Err(format!("failed to verify that operand at index {idx} exists").into());
    };
    if !ir.type_data(ir.value_type(*v)).is_shaped() {
        return Err(format!("failed to verify that operand at index {idx} is vector-only").into());
    }
    Ok(())
}

/// `ScalarOnlyHWTrait<idx>`: upstream only checks that the operand exists.
pub(crate) fn scalar_only_hw(ir: &Ir, op: OpId, idx: usize) -> Result<(), VerifyError> {
    if ir.operands(op).len() <= idx {
        return Err(format!("failed to verify that operand at index {idx} exists").into());
    }
    Ok(())
}

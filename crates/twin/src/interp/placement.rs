//! Where a local buffer without a memory space lives. The device pipeline
//! puts such buffers in UB, except those a custom op reads through its
//! input pipe MTE2 (a GM -> UB mover: a `custom_macro` whose `pipe_in`, or
//! a `custom` whose `pipe`, is PIPE_MTE2), which stay in GM for the op's own
//! loads — as bishengir's memory-scope inference leaves them — and the
//! accumulator a local matmul writes, which that inference puts in L0C.

use std::collections::HashMap;

use hivm_ir::{Ir, OpId, Value};

use crate::memory::Space;

/// The buffers (allocation results) under `func` that do not go to UB, and
/// where they go: GM for those an MTE2-reading custom op takes as an `ins`
/// operand, L0C for those a local matmul (`mmadL1`, `batchMmadL1`,
/// `mmadmxL1`) writes as its C; directly or through views.
pub fn homes(ir: &Ir, func: OpId) -> HashMap<Value, Space> {
    let mut homes = HashMap::new();
    ir.walk(func, &mut |op| {
        if hivm_dialects::hivm::custom::is_custom(ir, op) {
            if hivm_dialects::hivm::custom::pipes(ir, op).first().copied() == Some("PIPE_MTE2") {
                for v in hivm_dialects::hivm::custom::ins(ir, op) {
                    homes.insert(root_of(ir, *v), Space::Gm);
                }
            }
            return;
        }
        let c = match ir.op_name(op) {
            "hivm.hir.mmadL1" | "hivm.hir.batchMmadL1" => 6,
            "hivm.hir.mmadmxL1" => 8,
            _ => return,
        };
        if let Some(v) = hivm_dialects::util::segment(ir, op, c).first() {
            homes.insert(root_of(ir, *v), Space::L0c);
        }
    });
    homes
}

/// The value a view chain starts from.
fn root_of(ir: &Ir, mut v: Value) -> Value {
    for _ in 0..10_000 {
        match ir.defining_op(v) {
            Some(d)
                if matches!(
                    ir.op_name(d),
                    "memref.subview"
                        | "memref.cast"
                        | "memref.reinterpret_cast"
                        | "memref.expand_shape"
                        | "memref.collapse_shape"
                        | "memref.memory_space_cast"
                ) =>
            {
                v = ir.operand(d, 0)
            }
            _ => return v,
        }
    }
    v
}

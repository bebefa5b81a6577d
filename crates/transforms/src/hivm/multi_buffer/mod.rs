//! Multi-buffering of on-chip buffers in loops, as upstream's pipeline does
//! it: `hivm-mark-multi-buffer` marks the local buffers DMA ops fill or
//! drain inside loops (`annotation.mark {hivm.multi_buffer = 2}`),
//! `hivm-plan-memory` gives every local `memref.alloc` its addresses (one
//! per buffer copy) as a `hivm.hir.pointer_cast`, and
//! `hivm-enable-multi-buffer` turns a multi-address `pointer_cast` in a
//! loop into one `pointer_cast` per copy selected by the loop's iteration
//! counter (the sync solver's `hivm.hir.multi_buffer_counter`).

mod calls;
mod cfg;
pub mod enable;
pub mod inplace;
mod loop_instances;
pub mod mark;
pub mod plan_memory;
mod reuse;

use hivm_ir::{Ir, OpId, Value};

/// Ops through which a buffer is seen under another value (a view, a
/// cast), with the operand that carries the buffer.
pub(super) fn view_source(ir: &Ir, op: OpId) -> Option<Value> {
    if view_source_name(ir.op_name(op)) { ir.operands(op).first().copied() } else { None }
}

/// Whether ops of this name are views or casts of their first operand.
fn view_source_name(name: &str) -> bool {
    matches!(
        name,
        "memref.cast"
            | "memref.collapse_shape"
            | "memref.expand_shape"
            | "memref.memory_space_cast"
            | "memref.reinterpret_cast"
            | "memref.reshape"
            | "memref.transpose"
            | "memref.view"
            | "memref.subview"
            | "builtin.unrealized_conversion_cast"
            | "bufferization.to_tensor"
            | "bufferization.to_memref"
            | "bufferization.to_buffer"
    )
}

/// The `memref.alloc` / `memref.alloca` a value is a view of, following
/// views, casts and loop-carried values back to their start.
pub fn root_alloc(ir: &Ir, v: Value) -> Option<OpId> {
    let mut v = v;
    for _ in 0..10_000 {
        match ir.value_def(v) {
            hivm_ir::ValueDef::Result { op, index } => {
                if matches!(ir.op_name(op), "memref.alloc" | "memref.alloca") {
                    return Some(op);
                }
                if let Some(src) = view_source(ir, op) {
                    v = src;
                } else if ir.is_op(op, "scf.for") {
                    v = *ir.operands(op).get(3 + index as usize)?;
                } else {
                    return None;
                }
            }
            hivm_ir::ValueDef::BlockArg { block, index } => {
                let owner = ir.block(block).parent.and_then(|r| ir.region_parent(r))?;
                // An iter_arg of scf.for starts as its init operand.
                if ir.is_op(owner, "scf.for") && index >= 1 {
                    v = *ir.operands(owner).get(3 + index as usize - 1)?;
                } else {
                    return None;
                }
            }
            hivm_ir::ValueDef::Placeholder => return None,
        }
    }
    None
}

/// The `annotation.mark` ops on `v` that carry `hivm.multi_buffer`.
fn multi_buffer_marks(ir: &Ir, func: OpId, v: Value) -> Vec<OpId> {
    let mut marks = Vec::new();
    ir.walk(func, &mut |o| {
        if ir.is_op(o, "annotation.mark")
            && ir.operands(o).first() == Some(&v)
            && ir.get_attr(o, "hivm.multi_buffer").is_some()
        {
            marks.push(o);
        }
    });
    marks
}

/// The nearest enclosing loop of `op`.
fn enclosing_loop(ir: &Ir, op: OpId) -> Option<OpId> {
    crate::hivm::gss::memory::ancestor(ir, op, crate::hivm::gss::memory::is_loop_like)
}

/// Whether `l` and every loop around it is an `scf.for` or `scf.while`.
fn only_sequential_loops(ir: &Ir, l: OpId) -> bool {
    let mut cur = Some(l);
    while let Some(x) = cur {
        if !matches!(ir.op_name(x), "scf.for" | "scf.while") {
            return false;
        }
        cur = enclosing_loop(ir, x);
    }
    true
}

/// Whether `f` is a host function or a vector function, which these
/// passes leave alone.
fn skipped_function(ir: &Ir, f: OpId) -> bool {
    is_host(ir, f) || ir.has_attr(f, "hivm.vector_function")
}

fn is_host(ir: &Ir, f: OpId) -> bool {
    let kind =
        ir.get_attr(f, "hacc.function_kind").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"));
    kind == Some("HOST")
}

/// The address space named by a memref type's `#hivm.address_space<...>`.
fn space(ir: &Ir, v: Value) -> Option<String> {
    match ir.type_data(ir.value_type(v)) {
        hivm_ir::TypeData::MemRef { memory_space: Some(a), .. } => {
            hivm_dialects::hivm::attrs::enum_value(ir, *a, "address_space").map(str::to_string)
        }
        _ => None,
    }
}

/// Bits of a scalar type as memory holds it.
fn scalar_bits(ir: &Ir, t: hivm_ir::Type) -> Option<u64> {
    Some(match ir.type_data(t) {
        hivm_ir::TypeData::Integer { width, .. } => *width as u64,
        hivm_ir::TypeData::Index => 64,
        hivm_ir::TypeData::Float(k) => k.bit_width() as u64,
        _ => return None,
    })
}

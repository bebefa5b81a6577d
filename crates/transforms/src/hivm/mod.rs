//! Passes over HIVM custom ops (spec customop.md §6).

pub mod aggregated_decompose;
pub mod alloc_extra_buffer;
pub mod bind_sub_block;
pub mod decompose_sync_block;
pub mod device_spec;
pub mod expose_writes;
pub mod gm_inputs;
pub mod gss;
pub mod implementations;
pub mod infer_func_core_type;
pub mod infer_mem_scope;
pub mod kernel_args;
pub mod lower_multi_buffer_counter;
pub mod mark_stride_align;
pub mod multi_buffer;
pub mod tensor_copy_insertion;
pub mod to_hivm_op;
pub mod to_std;
pub mod trace;

use hivm_ir::{Ir, OpId};

/// Whether `op` sits in a function marked `hacc.function_kind = HOST`
/// (several passes skip host code).
pub fn in_host_function(ir: &Ir, op: OpId) -> bool {
    let mut cur = ir.parent_op(op);
    while let Some(f) = cur {
        if ir.is_op(f, "func.func") {
            return ir
                .get_attr(f, "hacc.function_kind")
                .and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"))
                == Some("HOST");
        }
        cur = ir.parent_op(f);
    }
    false
}

/// Custom ops under `root` outside HOST functions, which the device passes
/// leave alone.
pub fn device_custom_ops(ir: &Ir, root: OpId) -> Vec<OpId> {
    custom_ops(ir, root).into_iter().filter(|op| !in_host_function(ir, *op)).collect()
}

/// The block of loop (or other region op) `owner` that holds `op`, at any
/// depth (a while loop has two).
pub fn block_in(ir: &Ir, owner: OpId, op: OpId) -> hivm_ir::BlockId {
    let mut block = ir.parent_block(op).expect("an op in a block");
    while ir.block(block).parent.and_then(|r| ir.region_parent(r)) != Some(owner) {
        let outer = ir.block(block).parent.and_then(|r| ir.region_parent(r)).expect("inside the owner");
        block = ir.parent_block(outer).expect("an op in a block");
    }
    block
}

/// `arith.constant v` of type i64, or index when `index`.
pub fn int_constant(
    b: &mut hivm_ir::builder::Builder<'_>,
    v: i128,
    index: bool,
    loc: hivm_ir::Attribute,
) -> hivm_ir::Value {
    let t = if index { b.ir.index_type() } else { b.ir.int_type(64) };
    let a = b.ir.int_attr(v, t);
    let c = b.op("arith.constant", &[], &[t], vec![("value", a)], loc);
    b.ir.result(c, 0)
}

/// The closest ancestor of `op` named `name` (`func.func`, `builtin.module`).
pub fn enclosing(ir: &Ir, mut op: OpId, name: &str) -> Option<OpId> {
    while let Some(p) = ir.parent_op(op) {
        if ir.is_op(p, name) {
            return Some(p);
        }
        op = p;
    }
    None
}

/// The symbol a `func.call` calls.
pub fn callee_name(ir: &Ir, call: OpId) -> Option<&str> {
    match ir.attr_data(ir.get_attr(call, "callee")?) {
        hivm_ir::AttrData::SymbolRef { root, .. } => Some(ir.sym_str(*root)),
        _ => None,
    }
}

/// The `#hivm.address_space<...>` of a memref value (`gm`, `ub`, `cbuf`, ...).
pub fn address_space(ir: &Ir, v: hivm_ir::Value) -> Option<&str> {
    match ir.type_data(ir.value_type(v)) {
        hivm_ir::TypeData::MemRef { memory_space: Some(a), .. } => {
            hivm_dialects::hivm::attrs::enum_value(ir, *a, "address_space")
        }
        _ => None,
    }
}

/// The `func.func` ops under `root` that have a body, in walk order.
pub fn defined_functions(ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut funcs = Vec::new();
    ir.walk(root, &mut |o| {
        if ir.is_op(o, "func.func") && !ir.regions(o).first().is_none_or(|r| ir.region_blocks(*r).is_empty()) {
            funcs.push(o);
        }
    });
    funcs
}

/// All custom / custom_macro ops under `root`, in walk order.
pub fn custom_ops(ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut v = Vec::new();
    ir.walk(root, &mut |o| {
        if hivm_dialects::hivm::custom::is_custom(ir, o) {
            v.push(o);
        }
    });
    v
}

/// Whether `a` comes before `b` in their (common) block.
pub fn before_in_block(ir: &Ir, a: OpId, b: OpId) -> bool {
    let mut cur = ir.next_op(a);
    while let Some(o) = cur {
        if o == b {
            return true;
        }
        cur = ir.next_op(o);
    }
    false
}

/// Whether op `a` runs before `b` on every path (structured control flow):
/// it precedes `b`, or an op enclosing `b`, in one block.
pub fn properly_dominates(ir: &Ir, a: OpId, b: OpId) -> bool {
    let block = ir.parent_block(a);
    let mut cur = Some(b);
    while let Some(o) = cur {
        if o == a {
            return false;
        }
        if ir.parent_block(o) == block {
            return before_in_block(ir, a, o);
        }
        cur = ir.parent_op(o);
    }
    false
}

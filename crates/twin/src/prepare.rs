//! Bringing a tensor-level kernel to the memrefs the interpreter runs, in
//! the order the device pipeline does it: arith/math on tensors become
//! `linalg.generic` (`convert-elementwise-to-linalg`), then
//! `one-shot-bufferize` (tensor constants become `memref.global`s, which
//! the interpreter fills from their initial values).

use hivm_ir::{Ir, OpId};

/// Whether any op of `module` takes or makes a tensor.
pub fn has_tensors(ir: &Ir, module: OpId) -> bool {
    let mut any = false;
    ir.walk(module, &mut |o| {
        any |= ir.operands(o).iter().chain(ir.results(o)).any(|v| ir.type_data(ir.value_type(*v)).is_tensor());
    });
    any
}

/// The passes a tensor-level kernel needs before the rest of the pipeline.
pub fn tensor_passes() -> [&'static str; 2] {
    ["convert-elementwise-to-linalg", "one-shot-bufferize"]
}

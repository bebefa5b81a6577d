//! torch-mlir's `torch` dialect, which AscendNPU-IR registers for its
//! Torch front end, and `torch_c` (TorchConversion), which its lowering
//! produces.
//!
//! - `types.rs`: the `!torch.` types (`!torch.vtensor<[2,?],f32>`,
//!   `!torch.int`, `!torch.list<int>`, `!torch.optional<...>`, ...), kept
//!   as text and printed as torch-mlir prints them.
//! - `generated.rs`: the ATen and prims ops. torch-mlir generates hundreds
//!   of `torch.aten.*` / `torch.prims.*` ops that all share one assembly
//!   form (`%r = torch.aten.add.Tensor %a, %b, %alpha : T0, T1, T2 -> R`).
//!   They are not listed one by one: any name under those prefixes is
//!   accepted in that form, and checked only generically (as many operand
//!   types as operands, every operand and result a torch type), not
//!   against each op's own signature.
//! - `ops.rs`: the ops with their own syntax: constants, `prim.ListConstruct`,
//!   the tensor literals, `symbolic_int` and `bind_symbolic_shape`.
//! - `conversion.rs`: `torch_c`'s casts between torch and builtin types.

mod conversion;
mod generated;
mod ops;
pub(crate) mod types;

use hivm_ir::Dialect;

pub use conversion::dialect as conversion_dialect;

pub fn dialect() -> Dialect {
    let mut defs = ops::defs();
    defs.extend(generated::defs());
    let mut d = Dialect::new("torch", defs);
    d.check_type = Some(types::check_type);
    d
}

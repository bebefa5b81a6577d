//! The HIVM dialect: attributes, the custom-operator ops, and the other ops
//! kernels with custom ops use.

pub mod attrs;
mod cast_support;
pub mod custom;
pub mod fixpipe;
pub mod matmul_ops;
pub mod memory_ops;
pub mod ops;
pub mod sync_ops;
pub(crate) mod traits;
pub mod vector;

use hivm_ir::{Dialect, Ir, OpDef, OpId};

/// A function's `hivm.func_core_type` (`AIC`, `AIV`, `MIX`, `AIC_OR_AIV`).
pub fn func_core_type(ir: &Ir, f: OpId) -> Option<&str> {
    ir.get_attr(f, "hivm.func_core_type").and_then(|a| crate::util::opaque_arg(ir, a, "func_core_type"))
}

pub fn dialect() -> Dialect {
    let inherent: &'static [&'static str] = &["name", "no_side_effect", "operandSegmentSizes"];
    let mut ops = vec![
        OpDef::new(custom::CUSTOM)
            .inherent(inherent)
            .assembly(custom::parse_custom, custom::print)
            .verifier(custom::verify)
            .effects(custom::no_side_effect)
            .canonicalizer(custom::canonicalize_builtin),
        OpDef::new(custom::MACRO)
            .inherent(inherent)
            .assembly(custom::parse_macro, custom::print)
            .verifier(custom::verify)
            .effects(custom::no_side_effect),
    ];
    ops.extend(ops::defs());
    ops.extend(sync_ops::defs());
    ops.extend(memory_ops::defs());
    ops.extend(vector::defs());
    ops.extend(fixpipe::defs());
    ops.extend(matmul_ops::defs());
    let mut d = Dialect::new("hivm", ops);
    d.check_attr = Some(attrs::check_attr);
    d
}

//! `call_scalar`: a call of a scalar function from SIMT code.

use hivm_ir::opspec::{AttrKind, OpSpec, attr, opt_attr, var};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "ascend_dpx.call_scalar",
    operands: &[var("call_args")],
    attrs: &[
        attr("callee", AttrKind::SymbolRef),
        opt_attr("arg_attrs", AttrKind::Array),
        opt_attr("res_attrs", AttrKind::Array),
        opt_attr("use_shmem_offset", AttrKind::Int(32)),
    ],
    results: &[var("results")],
    format: "$callee `(` $call_args `)` attr-dict `:` functional-type(operands, results)",
    ..OpSpec::EMPTY
}];

//! `adapt-triton-kernel`: the kernel triton-ascend hands over becomes a
//! HACC device entry. `global_kernel` functions get `hacc.entry` and
//! `#hacc.function_kind<DEVICE>`, the arguments `WorkspaceArgIdx` /
//! `SyncBlockLockArgIdx` name get their `#hacc.arg_type`, the library calls
//! triton-ascend emits for ops it has no linalg form for (`triton_print`,
//! `triton_gather`, `triton_cumsum`, ...) become hfusion ops, and loops marked
//! `bind_sub_block` are normalised to index bounds and marked for HFusion.

mod gm_access;
mod library;
mod sub_block;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

use crate::conversion::to_hfusion::{enum_attr, regbase};
use crate::func_args;
use crate::hivm::{callee_name, enclosing};

pub struct AdaptTritonKernel;

impl Pass for AdaptTritonKernel {
    fn name(&self) -> &str {
        "adapt-triton-kernel"
    }

    fn display_name(&self) -> &str {
        "AdaptTritonKernel"
    }

    fn run(&mut self, ir: &mut Ir, module: OpId) -> Result<(), Diagnostic> {
        let regbase = regbase(ir, module);
        let mut calls = Vec::new();
        ir.walk(module, &mut |o| {
            if ir.is_op(o, "func.call") {
                calls.push(o);
            }
        });
        for call in calls {
            if !ir.is_erased(call) {
                rewrite_call(ir, module, call, regbase)?;
            }
        }
        sub_block::normalize_marked_loops(ir, module);
        if regbase {
            mark_custom_gm_args(ir, module);
        }
        for f in crate::hivm::defined_functions(ir, module) {
            if ir.remove_attr(f, "global_kernel").is_none() {
                continue;
            }
            let entry = ir.unit_attr();
            ir.set_attr(f, "hacc.entry", entry);
            let kind = enum_attr(ir, "hacc", "function_kind", "DEVICE");
            ir.set_attr(f, "hacc.function_kind", kind);
            mark_kernel_arg(ir, f, "WorkspaceArgIdx", "workspace")?;
            mark_kernel_arg(ir, f, "SyncBlockLockArgIdx", "sync_block_lock")?;
        }
        if !regbase && hivmc_version_set(ir, module) {
            let unit = ir.unit_attr();
            ir.set_attr(module, "memref.memref_as_ptr", unit);
        }
        Ok(())
    }
}

/// Rewrites one call when its callee is a library function of triton-ascend
/// (the callee declaration goes once no call uses it any more).
fn rewrite_call(ir: &mut Ir, module: OpId, call: OpId, regbase: bool) -> Result<(), Diagnostic> {
    let Some(callee) = callee_name(ir, call).map(str::to_string) else { return Ok(()) };
    let Some(func) = hivm_dialects::func::lookup_func(ir, call, &callee) else { return Ok(()) };
    let rewritten = match library::rewrite(ir, call, func, &callee, regbase)? {
        true => true,
        false if regbase => gm_access::rewrite(ir, call, &callee)?,
        false => false,
    };
    if rewritten && library::erases_callee(&callee) && !symbol_used(ir, module, &callee) {
        ir.erase_op(func);
    }
    Ok(())
}

/// Whether any `func.call` still calls `name`.
fn symbol_used(ir: &Ir, module: OpId, name: &str) -> bool {
    let mut used = false;
    ir.walk(module, &mut |o| used |= ir.is_op(o, "func.call") && callee_name(ir, o) == Some(name));
    used
}

/// `hacc.arg_type = #hacc.arg_type<kind>` on the argument the function
/// attribute `index_attr` names, replacing its other attributes as upstream.
fn mark_kernel_arg(ir: &mut Ir, f: OpId, index_attr: &str, kind: &str) -> Result<(), Diagnostic> {
    let Some(idx) = ir.get_attr(f, index_attr).and_then(|a| ir.as_int(a)) else { return Ok(()) };
    let n = hivm_dialects::func::func_signature(ir, f).0.len();
    if idx < 0 || idx as usize >= n {
        return Err(Diagnostic::error(ir.loc(f), format!("'{index_attr}' is {idx} but the kernel has {n} arguments")));
    }
    let a = enum_attr(ir, "hacc", "arg_type", kind);
    func_args::set_arg_attrs(ir, f, idx as usize, vec![("hacc.arg_type", a)]);
    Ok(())
}

/// Register-based targets: the function arguments a custom op names in
/// `gm_addr_args_indices` are global-memory addresses.
fn mark_custom_gm_args(ir: &mut Ir, module: OpId) {
    for op in crate::hivm::custom_ops(ir, module) {
        let Some(a) = ir.get_attr(op, "gm_addr_args_indices") else { continue };
        let indices = hivm_dialects::util::i64_array_of(ir, a);
        let Some(f) = enclosing(ir, op, "func.func") else { continue };
        for i in indices {
            let Some(&v) = ir.operands(op).get(i as usize) else { continue };
            if let Some(arg) = func_args::argument_index(ir, f, v) {
                let t = enum_attr(ir, "hacc", "arg_type", "gm_addr");
                func_args::set_arg_attr(ir, f, arg, "hacc.arg_type", t);
            }
        }
    }
}

/// Whether the module carries a `#hacc.hivmc_version` above 0.0.0.
fn hivmc_version_set(ir: &Ir, module: OpId) -> bool {
    let Some(v) = ir.get_attr(module, "hacc.hivmc_version") else { return false };
    let Some(text) = hivm_dialects::util::opaque_arg(ir, v, "hivmc_version") else { return false };
    text.trim_matches('"').split('.').any(|p| p.parse::<u64>().is_ok_and(|n| n > 0))
}

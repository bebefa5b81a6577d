//! `hfusion-add-ffts-addr{force-add-ffts-addr=N}`: a device entry that
//! synchronises cube and vector cores gets the FFTS base address as a
//! leading `i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}`
//! argument. Mixed fusion kinds (`SHALLOW_CV`, `MIX_CV`, `MIX_C2`) always
//! need it; `force-add-ffts-addr` (bishengir-compile sets 0 for Triton
//! kernels) adds it to every entry. Callers of a changed function pass their
//! own FFTS argument on, getting one themselves first.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, Value};

use crate::conversion::to_hfusion::enum_attr;
use crate::func_args;

pub struct AddFftsAddr {
    force: i64,
}

impl AddFftsAddr {
    pub fn from_options(options: &str) -> Result<Self, String> {
        let mut force = -1;
        for part in options.split_whitespace() {
            match part.split_once('=') {
                Some(("force-add-ffts-addr", v)) => {
                    force = v.parse().map_err(|_| format!("invalid value '{v}' for 'force-add-ffts-addr'"))?;
                }
                _ => return Err(format!("'hfusion-add-ffts-addr' pass has no option '{part}'")),
            }
        }
        Ok(AddFftsAddr { force })
    }
}

const MIXED_KINDS: [&str; 3] = ["SHALLOW_CV", "MIX_CV", "MIX_C2"];

impl Pass for AddFftsAddr {
    fn name(&self) -> &str {
        "hfusion-add-ffts-addr"
    }

    fn display_name(&self) -> &str {
        "AddFFTSAddr"
    }

    fn run(&mut self, ir: &mut Ir, module: OpId) -> Result<(), Diagnostic> {
        let mut entries = Vec::new();
        ir.walk(module, &mut |o| {
            if ir.is_op(o, "func.func") && is_device_entry(ir, o) {
                entries.push(o);
            }
        });
        for f in entries {
            let pos = if self.force != -1 {
                self.force
            } else {
                let kind = ir
                    .get_attr(f, "hfusion.fusion_kind")
                    .and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "fusion_kind"));
                if kind.is_some_and(|k| MIXED_KINDS.contains(&k)) { 0 } else { -1 }
            };
            let n = hivm_dialects::func::func_signature(ir, f).0.len() as i64;
            // Upstream checks the position but always inserts in front.
            if (0..n).contains(&pos) {
                add_ffts_arg(ir, module, f, 0, 0);
            }
        }
        Ok(())
    }
}

fn is_device_entry(ir: &Ir, f: OpId) -> bool {
    ir.has_attr(f, "hacc.entry")
        && ir.get_attr(f, "hacc.function_kind").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"))
            == Some("DEVICE")
}

fn is_ffts_arg(ir: &Ir, f: OpId, idx: usize) -> bool {
    func_args::arg_attr(ir, f, idx, "hacc.arg_type").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "arg_type"))
        == Some("ffts_base_address")
}

/// Inserts the FFTS argument of `f` at `idx` unless it is there, then makes
/// every call of `f` pass its caller's (depth bounds mutual recursion).
fn add_ffts_arg(ir: &mut Ir, module: OpId, f: OpId, idx: usize, depth: usize) {
    if is_ffts_arg(ir, f, idx) || depth > 64 {
        return;
    }
    let i64t = ir.int_type(64);
    let kind = enum_attr(ir, "hacc", "arg_type", "ffts_base_address");
    let key = ir.sym("hacc.arg_type");
    let dict = ir.dict_attr(vec![(key, kind)]);
    let loc = Some(ir.loc(f));
    func_args::insert_argument(ir, f, idx, i64t, dict, loc);
    let name = ir.get_attr(f, "sym_name").and_then(|a| ir.as_str(a)).map(str::to_string);
    let Some(name) = name else { return };
    let mut calls = Vec::new();
    ir.walk(module, &mut |o| {
        if ir.is_op(o, "func.call") && crate::hivm::callee_name(ir, o) == Some(name.as_str()) {
            calls.push(o);
        }
    });
    for call in calls {
        let Some(caller) = crate::hivm::enclosing(ir, call, "func.func") else { continue };
        add_ffts_arg(ir, module, caller, idx, depth + 1);
        let Some(entry) = ir.regions(caller).first().and_then(|r| ir.region_blocks(*r).first().copied()) else {
            continue;
        };
        let ffts: Value = ir.block_args(entry)[idx];
        let mut operands = ir.operands(call).to_vec();
        operands.insert(idx.min(operands.len()), ffts);
        ir.set_operands(call, &operands);
    }
}

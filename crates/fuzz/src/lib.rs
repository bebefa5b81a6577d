//! The properties the fuzzer checks: reading any bytes never panics; any
//! module that parses and verifies prints to text that parses back and prints
//! identically (custom and generic form); and every pass either fails with a
//! diagnostic or leaves a module that verifies and prints to text that parses
//! back — never a panic, never silently broken output; and the CPU twin runs
//! every function without panicking.

use std::sync::Arc;

use hivm_ir::printer::{PrintOptions, print_top_level_to};
use hivm_ir::{Ir, Registry};

/// Parses `text` (unregistered ops allowed); `None` if it does not parse.
fn parse(reg: &Arc<Registry>, text: &str) -> Option<(Ir, hivm_ir::OpId)> {
    let mut ir = Ir::new(reg.clone());
    ir.allow_unregistered = true;
    let module = hivm_ir::parser::Parser::new(&mut ir, text, "fuzz.mlir", 0).parse_module().ok()?;
    Some((ir, module))
}

/// The printed module; `None` when the printer refuses it as too large (a
/// located error, as hivm-opt reports it: aliases that expand each other).
fn print_top_level(ir: &Ir, module: hivm_ir::OpId, options: PrintOptions) -> Option<String> {
    let mut out = Vec::new();
    print_top_level_to(ir, module, options, &mut out).ok()?;
    String::from_utf8(out).ok()
}

/// Parses and verifies; `Ok(Some(text))` is the printed module.
fn parse_print(reg: &Arc<Registry>, text: &str, generic: bool) -> Result<Option<String>, ()> {
    let Some((ir, module)) = parse(reg, text) else { return Ok(None) };
    if !hivm_ir::verifier::verify_all(&ir, module).is_empty() {
        return Ok(None);
    }
    Ok(print_top_level(&ir, module, PrintOptions { generic, debuginfo: false }))
}

/// Every registered pass, with the options (and the passes before it) it
/// needs.
const PASSES: &[&[&str]] = &[
    &["canonicalize"],
    &["cse"],
    &["one-shot-bufferize"],
    &["one-shot-bufferize{bufferize-function-boundaries}"],
    &["hivm-alloc-extra-buffer"],
    &["hivm-mark-stride-align"],
    &["hivm-bind-sub-block"],
    &["convert-hivm-to-std"],
    &["hacc-append-device-spec{target=Ascend910_9589}"],
    &["hivm-graph-sync-solver"],
    &["hivm-graph-sync-solver{enable-unit-flag=true}"],
    &["hivm-lower-multi-buffer-counter"],
    &["hivm-mark-multi-buffer{enable-auto=true}"],
    &["hacc-append-device-spec{target=Ascend910B1}", "hivm-mark-multi-buffer{enable-auto=true}", "hivm-plan-memory"],
    &["hivm-enable-multi-buffer"],
    &["convert-arith-to-hfusion"],
    &["convert-math-to-hfusion{enable-fma=true}"],
    &["convert-linalg-to-hfusion"],
    &["convert-hfusion-to-hivm"],
    &["hacc-append-device-spec{target=Ascend950PR_9589}", "convert-hfusion-to-hivm"],
    &["convert-tensor-to-hivm"],
    &["triton-global-kernel-args-to-hivm-op"],
    &["convert-to-hivm-op"],
    &["hivm-expose-memref-write-to-tensor"],
    &["hivm-tensor-copy-insertion"],
    &["hivm-infer-mem-scope"],
    &["convert-tensor-to-hfusion"],
    &["adapt-triton-kernel"],
    &["hacc-append-device-spec{target=Ascend950PR_9589}", "adapt-triton-kernel"],
    &["hfusion-add-ffts-addr{force-add-ffts-addr=0}"],
    &["hivm-infer-func-core-type"],
    &["hivm-aggregated-decompose-op{decompose-phase=before-hivm-align}"],
    &["hivm-custom-gm-inputs"],
];

fn check_passes(reg: &Arc<Registry>, text: &str) -> Result<(), String> {
    let passes = hivm_transforms::pass_registry();
    for pipeline in PASSES {
        let Some((mut ir, module)) = parse(reg, text) else { return Ok(()) };
        let pieces: Vec<String> = pipeline.iter().map(|p| p.to_string()).collect();
        let name = pieces.join(",");
        let mut pm =
            hivm_ir::pass::PassManager::from_cli(&passes, &pieces).map_err(|e| format!("pipeline '{name}': {e}"))?;
        if pm.run(&mut ir, module, true).is_err() {
            continue; // a located diagnostic: fine
        }
        let Some(out) = print_top_level(&ir, module, PrintOptions { generic: false, debuginfo: false }) else {
            continue; // too large to print: a located error
        };
        match parse_print(reg, &out, false) {
            Ok(Some(_)) => {}
            _ => return Err(format!("after '{name}' the output does not parse and verify:\n{out}")),
        }
        // Compaction (which the driver does between passes) renumbers every
        // id; what prints must not change, in either form.
        let Some(generic) = print_top_level(&ir, module, PrintOptions { generic: true, debuginfo: false }) else {
            continue;
        };
        let compacted = ir.compact(module);
        for (form, before) in [(false, &out), (true, &generic)] {
            let after = print_top_level(&ir, compacted, PrintOptions { generic: form, debuginfo: false });
            if after.as_ref() != Some(before) {
                return Err(format!(
                    "after '{name}', compacting changed the output (generic={form}):\n--- before\n{before}\n--- after\n{}",
                    after.unwrap_or_default()
                ));
            }
        }
    }
    Ok(())
}

/// Checks one input; `Err` describes a property violation (panics are caught
/// by the caller).
pub fn check(reg: &Arc<Registry>, input: &[u8]) -> Result<(), String> {
    let Ok(text) = std::str::from_utf8(input) else { return Ok(()) };
    for generic in [false, true] {
        let Ok(Some(first)) = parse_print(reg, text, generic) else { return Ok(()) };
        match parse_print(reg, &first, generic) {
            Ok(Some(second)) if second == first => {}
            Ok(Some(second)) => {
                return Err(format!(
                    "printing is not idempotent (generic={generic}):\n--- first\n{first}\n--- second\n{second}"
                ));
            }
            _ => return Err(format!("printed output does not parse back (generic={generic}):\n{first}")),
        }
    }
    check_passes(reg, text)?;
    check_twin(reg, text)
}

/// The CPU twin runs every function with zero-filled arguments (bufferized
/// first when it has tensors) and ends normally or with an error at an op.
fn check_twin(reg: &Arc<Registry>, text: &str) -> Result<(), String> {
    let Some((mut ir, module)) = parse(reg, text) else { return Ok(()) };
    if !hivm_ir::verifier::verify_all(&ir, module).is_empty() {
        return Ok(());
    }
    let passes = hivm_transforms::pass_registry();
    let pieces = ["hivm-alloc-extra-buffer".to_string(), "one-shot-bufferize".to_string()];
    let mut pm = hivm_ir::pass::PassManager::from_cli(&passes, &pieces).map_err(|e| e.to_string())?;
    if pm.run(&mut ir, module, true).is_err() {
        return Ok(());
    }
    // Outcomes are errors or success; a panic is what the caller catches.
    let _ = hivm_twin::run_all_for_fuzzing(&ir, module, 20_000);
    Ok(())
}

/// Runs [`check`] and turns a panic into an error.
pub fn check_catching(reg: &Arc<Registry>, input: &[u8]) -> Result<(), String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(reg, input))) {
        Ok(r) => r,
        Err(p) => {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(format!("panic: {}", msg.unwrap_or_default()))
        }
    }
}

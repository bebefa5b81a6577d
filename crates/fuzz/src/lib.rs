//! The property the fuzzer checks: reading any bytes never panics, and any
//! module that parses and verifies prints to text that parses back and prints
//! identically (custom and generic form).

use std::sync::Arc;

use hivm_ir::printer::{PrintOptions, print_top_level};
use hivm_ir::{Ir, Registry};

/// Parses and verifies; `Ok(Some(text))` is the printed module.
fn parse_print(reg: &Arc<Registry>, text: &str, generic: bool) -> Result<Option<String>, ()> {
    let mut ir = Ir::new(reg.clone());
    ir.allow_unregistered = true;
    let module = {
        let mut p = hivm_ir::parser::Parser::new(&mut ir, text, "fuzz.mlir", 0);
        match p.parse_module() {
            Ok(m) => m,
            Err(_) => return Ok(None),
        }
    };
    if !hivm_ir::verifier::verify_all(&ir, module).is_empty() {
        return Ok(None);
    }
    Ok(Some(print_top_level(&ir, module, PrintOptions { generic, debuginfo: false })))
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

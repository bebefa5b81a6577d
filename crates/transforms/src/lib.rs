//! Transformation passes, registered by name for `hivm-opt`.

pub mod canonicalize;
pub mod cse;

use hivm_ir::pass::{Pass, PassRegistry};

fn no_options(name: &str, options: &str, p: Box<dyn Pass>) -> Result<Box<dyn Pass>, String> {
    if options.trim().is_empty() { Ok(p) } else { Err(format!("'{name}' pass does not take options: '{options}'")) }
}

pub fn pass_registry() -> PassRegistry {
    let mut r = PassRegistry::default();
    r.register("canonicalize", "Fold constants, apply identities, remove dead pure ops", |o| {
        no_options("canonicalize", o, Box::new(canonicalize::Canonicalize))
    });
    r.register("cse", "Eliminate common sub-expressions", |o| no_options("cse", o, Box::new(cse::Cse)));
    r
}

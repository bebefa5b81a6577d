//! Transformation passes, registered by name for `hivm-opt`.

use hivm_ir::pass::PassRegistry;

pub fn pass_registry() -> PassRegistry {
    PassRegistry::default()
}

//! What the randomized test targets share.

/// A xorshift generator: deterministic per seed, so a failing seed reproduces.
pub use hivm_twin::tester::kernels::Rng;

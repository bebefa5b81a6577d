//! What the randomized test targets share.

/// A xorshift generator: deterministic per seed, so a failing seed reproduces.
pub use hivm_twin::tester::kernels::Rng;

/// Every error and sync report of a run, rendered as hivm-run prints them
/// (empty for a clean run).
#[allow(dead_code)] // not every test target that shares this module reports
pub fn problems(out: &hivm_twin::Outcome) -> String {
    let mut s = String::new();
    if let Some(e) = &out.error {
        s += &out.render(e);
    }
    for (b, r) in &out.reports {
        s += &out.render(&out.report_diagnostic(*b, r, 1));
    }
    s
}

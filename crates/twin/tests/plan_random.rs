//! The memory-plan tester (`hivm_twin::tester::plan`): random kernels of
//! local buffers run in the twin as written and after `hivm-plan-memory`,
//! with the same numbers and no ownership report.
//!
//! `HIVM_PLAN_KERNELS=N` sets the number of kernels (default 1000);
//! `HIVM_PLAN_SEED` the first seed.

use hivm_twin::tester::plan::{self, Verdict};

#[test]
fn planned_kernels_run_as_written() {
    let count: u64 = std::env::var("HIVM_PLAN_KERNELS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let first: u64 = std::env::var("HIVM_PLAN_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let (mut overflow, mut refused) = (0, 0);
    for seed in first..first + count {
        match plan::check(seed) {
            Ok(Verdict::Same) => {}
            Ok(Verdict::Overflow) => overflow += 1,
            Ok(Verdict::Refused) => refused += 1,
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    eprintln!(
        "{count} kernels from seed {first}: {} same numbers, {overflow} ub overflow, {refused} rotating loops refused",
        count - overflow - refused
    );
    if count >= 100 {
        assert!(refused > 0, "no rotating loop was generated and refused");
    }
}

/// The generator makes what the planner must get right: in-place reuse,
/// loop-carried pairs, control flow, dynamic subview offsets.
#[test]
fn kernels_cover_the_shapes() {
    let texts: Vec<String> = (1..=200).map(plan::kernel).collect();
    for needle in [
        "iter_args",
        "scf.if %flag ->",
        "cf.cond_br",
        "^bb3(",
        "[%i0]",
        "[%i1]",
        "call @callee",
        "memref.store",
        "hivm.hir.copy",
    ] {
        let n = texts.iter().filter(|t| t.contains(needle)).count();
        assert!(n >= 10, "only {n} of 200 kernels contain {needle:?}");
    }
    // Plans that share places: some pointer_cast address appears twice.
    let shared = texts
        .iter()
        .filter_map(|t| plan::plan(t).ok())
        .filter(|p| {
            let mut addrs: Vec<&str> = p.lines().filter_map(|l| l.split("pointer_cast(").nth(1)).collect();
            let n = addrs.len();
            addrs.sort();
            addrs.dedup();
            addrs.len() < n
        })
        .count();
    assert!(shared >= 20, "only {shared} of 200 plans share a place between two allocs");
}

/// Every third kernel holds buffers that do not fit in UB side by side;
/// most of them fit once dead buffers give up their places, and the main
/// test runs them all.
#[test]
fn big_kernels_fit_by_reuse() {
    const UB_BYTES: usize = 192 * 1024;
    let mut reusing = 0;
    for seed in (3..=600).step_by(3) {
        let text = plan::kernel(seed);
        let bigs = text.matches("= memref.alloc() : memref<18432xf32").count();
        if bigs * 18432 * 4 <= UB_BYTES {
            continue;
        }
        if plan::plan(&text).is_ok() {
            reusing += 1;
        }
    }
    eprintln!("{reusing} of 200 big kernels need and get shared places");
    assert!(reusing >= 40, "only {reusing} of 200 big kernels fit by reusing places");
}

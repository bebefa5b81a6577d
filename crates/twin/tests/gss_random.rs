//! The sync-solver tester (`hivm_twin::tester`) over kernels with custom
//! macros of every slot kind: each runs in the twin after the solver with no
//! race, hang or leftover flag, and gives the numbers of the same kernel
//! with `pipe_barrier[<PIPE_ALL>]` after every op.
//!
//! The same with double-buffered tiles in loops.
//!
//! `HIVM_GSS_KERNELS=N` sets the number of kernels (default 40, of each);
//! `HIVM_GSS_SEED` the first seed.

use std::path::PathBuf;

use hivm_twin::tester::{self, kernels::Shape};

#[test]
fn solver_output_runs_clean_and_right() {
    let count: u64 = std::env::var("HIVM_GSS_KERNELS").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    let first: u64 = std::env::var("HIVM_GSS_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let impls = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gss/macros.cpp")];
    if let Err(f) = tester::sweep(first, count, Shape::default(), &impls) {
        panic!("seed {}: {}\n{}", f.seed, f.message, f.kernel);
    }
    // Loops with double-buffered tiles: the solver's rotating event ids and
    // the twin's rotating addresses agree. (On this thread: the call worker
    // is the process's, and these kernels call macros too.)
    let shape = Shape { multi_buffer: true, ..Shape::default() };
    let tiled =
        (first..first + count).filter(|s| tester::kernels::kernel(*s, shape).bare.contains("pointer_cast(%ta")).count();
    assert!(tiled as u64 * 4 >= count, "only {tiled} of {count} kernels have a double-buffered tile");
    if let Err(f) = tester::sweep(first, count, shape, &impls) {
        panic!("multi-buffered, seed {}: {}\n{}", f.seed, f.message, f.kernel);
    }
}

/// Sizes and buffer counts like those of upstream's tester runs, no macros.
#[test]
fn larger_kernels_without_macros() {
    for (ops, buffers) in [(20, 5), (40, 20), (50, 5)] {
        let shape = Shape { ops, buffers, macros: false, multi_buffer: false, cube: false };
        if let Err(f) = tester::sweep(100, 5, shape, &[]) {
            panic!("{ops} ops, {buffers} buffers, seed {}: {}\n{}", f.seed, f.message, f.kernel);
        }
    }
}

/// The tester has teeth: without the solver, bare kernels race.
#[test]
fn bare_kernels_without_the_solver_are_caught() {
    let shape = Shape { ops: 12, buffers: 3, macros: false, multi_buffer: false, cube: false };
    let caught = (1..=10u64)
        .filter(|&seed| {
            let k = tester::kernels::kernel(seed, shape);
            matches!(tester::run(&k.bare, seed, true, false, &[]), Err(e) if e.contains("race"))
        })
        .count();
    assert!(caught >= 5, "only {caught} of 10 unsynchronised kernels were reported as racing");
}

/// Kernels with cube matmul steps (nd2nz, mmadL1, fixpipe over shared L1
/// and L0C buffers and the GM arguments the vector ops use): the solver's
/// output runs clean with the numbers of a barrier after every op.
#[test]
fn cube_kernels_run_clean_and_right() {
    let count: u64 = std::env::var("HIVM_GSS_KERNELS").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    let first: u64 = std::env::var("HIVM_GSS_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    for multi_buffer in [false, true] {
        let shape = Shape { ops: 14, buffers: 3, macros: false, multi_buffer, cube: true };
        let cubes = (first..first + count)
            .filter(|s| {
                let k = tester::kernels::kernel(*s, shape).bare;
                k.contains("mmadL1") && k.contains("fixpipe")
            })
            .count();
        assert!(cubes as u64 * 2 >= count, "only {cubes} of {count} kernels multiply and drain L0C");
        if let Err(f) = tester::sweep(first, count, shape, &[]) {
            panic!("cube, multi-buffer {multi_buffer}, seed {}: {}\n{}", f.seed, f.message, f.kernel);
        }
        // Teeth: without the solver they race on the cube pipes.
        let cube_races = (first..first + 10)
            .filter(|&seed| {
                let k = tester::kernels::kernel(seed, shape);
                matches!(tester::run(&k.bare, seed, true, false, &[]),
                    Err(e) if e.contains("PIPE_MTE1") || e.contains("PIPE_FIX") || e.contains("PIPE_M "))
            })
            .count();
        assert!(cube_races >= 5, "only {cube_races} of 10 unsynchronised cube kernels race on a cube pipe");
    }
}

//! Mix kernels in the twin: a cube matmul per loop step into a GM
//! workspace, handed to two vector cores by FFTS flag, each of which adds a
//! bias to its half of the rows, applies ReLU and stores; the cube reuses
//! the workspace only after both vector cores have loaded it. The numbers
//! must be a plain reference's for random inputs (small dyadic numbers, so
//! every sum is exact), with no report; dropping either handshake is
//! reported.

use std::path::Path;
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, Outcome, RunOptions};

mod common;
use common::Rng;
use common::problems;

const M: usize = 32;
const K: usize = 32;
const N: usize = 32;
const STEPS: usize = 3;

/// The kernel; `cube_waits` / `vector_waits` keep the two handshakes.
fn kernel(cube_waits: bool, vector_waits: bool) -> String {
    let l1 = "memref<2x2x16x16xf16, #hivm.address_space<cbuf>>";
    let l0c = "memref<2x2x16x16xf32, #hivm.address_space<cc>>";
    let ub = "memref<16x32xf32, #hivm.address_space<ub>>";
    let half = "memref<16x32xf32, strided<[32, 1], offset: ?>>";
    let cube_wait =
        if cube_waits { "    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE2>, <PIPE_S>] flag = 1\n" } else { "" };
    let vector_wait =
        if vector_waits { "    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0\n" } else { "" };
    let final_wait =
        if cube_waits { "  hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE2>, <PIPE_S>] flag = 1\n" } else { "" };
    format!(
        r#"func.func @mix(%a: memref<32x32xf16>, %b: memref<{STEPS}x32x32xf16>, %bias: memref<1x32xf32>, %ws: memref<32x32xf32>, %out: memref<{STEPS}x32x32xf32>) attributes {{hivm.func_core_type = #hivm.func_core_type<MIX>}} {{
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %steps = arith.constant {STEPS} : index
  %z = arith.constant 0 : i64
  %o = arith.constant 2048 : i64
  %l1a = hivm.hir.pointer_cast(%z) : {l1}
  %l1b = hivm.hir.pointer_cast(%o) : {l1}
  %acc = hivm.hir.pointer_cast(%z) : {l0c}
  %x = memref.alloc() : {ub}
  %bu = memref.alloc() : memref<1x32xf32, #hivm.address_space<ub>>
  %bb = memref.alloc() : {ub}
  %sb = hivm.hir.get_sub_block_idx -> i64
  %sbi = arith.index_cast %sb : i64 to index
  %row = arith.muli %sbi, %c16 : index
  %src = memref.subview %ws[%row, 0] [16, 32] [1, 1] : memref<32x32xf32> to {half}
  hivm.hir.load ins(%bias : memref<1x32xf32>) outs(%bu : memref<1x32xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vbrc ins(%bu : memref<1x32xf32, #hivm.address_space<ub>>) outs(%bb : {ub}) broadcast_dims = [0]
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.nd2nz {{dst_continuous}} ins(%a : memref<32x32xf16>) outs(%l1a : {l1})
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE2>, <PIPE_S>] flag = 1
  scf.for %i = %c0 to %steps step %c1 {{
    %bi = memref.subview %b[%i, 0, 0] [1, 32, 32] [1, 1, 1] : memref<{STEPS}x32x32xf16> to memref<32x32xf16, strided<[32, 1], offset: ?>>
    %dst = memref.subview %out[%i, %row, 0] [1, 16, 32] [1, 1, 1] : memref<{STEPS}x32x32xf32> to {half}
    hivm.hir.nd2nz {{dst_continuous}} ins(%bi : memref<32x32xf16, strided<[32, 1], offset: ?>>) outs(%l1b : {l1})
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.mmadL1 ins(%l1a, %l1b, %true, %c32, %c32, %c32 : {l1}, {l1}, i1, index, index, index) outs(%acc : {l0c})
    hivm.hir.pipe_barrier[<PIPE_ALL>]
{cube_wait}    hivm.hir.fixpipe {{enable_nz2nd}} ins(%acc : {l0c}) outs(%ws : memref<32x32xf32>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_S>] flag = 0
    hivm.hir.pipe_barrier[<PIPE_ALL>]
{vector_wait}    hivm.hir.load ins(%src : {half}) outs(%x : {ub})
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE2>, <PIPE_S>] flag = 1
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vadd ins(%x, %bb : {ub}, {ub}) outs(%x : {ub})
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vrelu ins(%x : {ub}) outs(%x : {ub})
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%x : {ub}) outs(%dst : {half})
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }}
{final_wait}  return
}}
"#
    )
}

fn values(rng: &mut Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| (rng.below(17) as i64 - 8) as f64 / 8.0).collect()
}

fn f16_bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| half::f16::from_f64(*x).to_le_bytes()).collect()
}

fn run(text: &str, args: Vec<ArgSpec>) -> Outcome {
    let opts = RunOptions { args, timeout: Duration::from_secs(60), max_ops: 10_000_000, ..RunOptions::default() };
    hivm_twin::run_source(text, "mix.mlir", Path::new("."), &opts)
}

/// Inputs for `seed` and the reference output.
fn case(seed: u64) -> (Vec<ArgSpec>, Vec<f64>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let a = values(&mut rng, M * K);
    let b = values(&mut rng, STEPS * K * N);
    let bias: Vec<f64> = (0..N).map(|_| (rng.below(9) as i64 - 4) as f64 / 4.0).collect();
    let mut want = vec![0.0; STEPS * M * N];
    for s in 0..STEPS {
        for i in 0..M {
            for j in 0..N {
                let dot: f64 = (0..K).map(|p| a[i * K + p] * b[s * K * N + p * N + j]).sum();
                want[(s * M + i) * N + j] = (dot + bias[j]).max(0.0);
            }
        }
    }
    let bias_bytes: Vec<u8> = bias.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect();
    let args = vec![
        ArgSpec::Array(Elem::F16, vec![M as i64, K as i64], f16_bytes(&a)),
        ArgSpec::Array(Elem::F16, vec![STEPS as i64, K as i64, N as i64], f16_bytes(&b)),
        ArgSpec::Array(Elem::F32, vec![1, N as i64], bias_bytes),
        ArgSpec::Zeros(vec![M as i64, N as i64], Elem::F32),
        ArgSpec::Zeros(vec![STEPS as i64, M as i64, N as i64], Elem::F32),
    ];
    (args, want)
}

#[test]
fn a_mix_kernel_gives_the_reference_numbers() {
    for seed in 1..4 {
        let (args, want) = case(seed);
        let out = run(&kernel(true, true), args);
        let p = problems(&out);
        assert!(p.is_empty(), "{p}");
        let (_, _, bytes) = out.args.last().cloned().flatten().expect("out");
        let got: Vec<f64> = bytes.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64).collect();
        assert_eq!(got, want, "seed {seed}");
    }
}

#[test]
fn a_missing_handshake_is_reported_at_both_sides() {
    for (cube_waits, vector_waits) in [(false, true), (true, false)] {
        let (args, _) = case(1);
        let out = run(&kernel(cube_waits, vector_waits), args);
        let p = problems(&out);
        assert!(p.contains("error: race across cores"), "cube_waits={cube_waits}: {p}");
        // The race names the fixpipe and the vector cores' load.
        assert!(p.contains("hivm.hir.fixpipe") && p.contains("hivm.hir.load ins(%src"), "{p}");
        assert!(p.contains("is still set when the kernel ends"), "{p}");
    }
}

/// The caller's stop check (Python's Ctrl-C) stops a mix kernel whatever
/// its cores are doing: here the vector cores spin while the cube core
/// waits for them.
#[test]
fn a_stop_request_ends_a_mix_run() {
    let text = r#"func.func @spin(%g: memref<4xi64>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000000 : index
  %one = arith.constant 1 : i64
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_S>] flag = 1
  %u = memref.alloc() : memref<4xi64, #hivm.address_space<ub>>
  %r = scf.for %i = %c0 to %big step %c1 iter_args(%a = %one) -> (i64) {
    %b = arith.addi %a, %one : i64
    scf.yield %b : i64
  }
  memref.store %r, %u[%c0] : memref<4xi64, #hivm.address_space<ub>>
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_S>] flag = 1
  return
}
"#;
    let opts = RunOptions {
        args: vec![ArgSpec::Zeros(vec![4], Elem::Int(64))],
        timeout: Duration::from_secs(60),
        ..RunOptions::default()
    };
    let started = std::time::Instant::now();
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let counter = asked.clone();
    // Yes from the third question on (the check is asked every 50 ms).
    let check: hivm_twin::interrupt::Check =
        std::sync::Arc::new(move || counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 2);
    let out = hivm_twin::interrupt::with_check(Some(check), || {
        hivm_twin::run_source(text, "spin.mlir", Path::new("."), &opts)
    });
    let err = out.error.as_ref().map(|e| e.message.clone()).unwrap_or_default();
    assert_eq!(err, "interrupted");
    assert!(asked.load(std::sync::atomic::Ordering::Relaxed) >= 3);
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
}

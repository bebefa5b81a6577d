//! The cube unit's fix pipe into UB and L1, as a custom op's C++
//! implementation drives it (tests/cube_fixpipe/fixpipe.cpp): L0C drained
//! to UB as an ND matrix and as NZ fractals gives a plain reference
//! product; L0C drained to L1 with `channel_split` holds float fractals
//! that a second `mad` reads back as its B operand, giving the reference
//! of the chained product, and without its FIX -> MTE1 handshake the
//! second load races with the copy; a copy past UB, a split to half and a
//! transposing load of float fractals are located errors.
//!
//! Inputs are small dyadic numbers, so every sum is exact in f32 and the
//! comparison is exact.

use std::path::{Path, PathBuf};
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, Outcome, RunOptions};

mod common;
use common::Rng;
use common::problems;

const L1A: &str = "memref<2x1x16x16xf16, #hivm.address_space<cbuf>>";
const L1B: &str = "memref<2x2x16x16xf16, #hivm.address_space<cbuf>>";
const L1F: &str = "memref<4x1x16x8xf32, #hivm.address_space<cbuf>>";

/// A (16 x 32) and B (32 x 32) in L1 as nd2nz lays them out, then the
/// custom op `symbol`.
fn prologue() -> String {
    format!(
        "  %z = arith.constant 0 : i64\n  %o = arith.constant 1024 : i64\n\
         \x20 %l1a = hivm.hir.pointer_cast(%z) : {L1A}\n  %l1b = hivm.hir.pointer_cast(%o) : {L1B}\n\
         \x20 hivm.hir.nd2nz {{dst_continuous}} ins(%a : memref<16x32xf16>) outs(%l1a : {L1A})\n\
         \x20 hivm.hir.nd2nz {{dst_continuous}} ins(%b : memref<32x32xf16>) outs(%l1b : {L1B})\n"
    )
}

fn custom(symbol: &str) -> String {
    format!(
        "hivm.hir.custom {{hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe = #hivm.pipe<PIPE_MTE1>, symbol = \"{symbol}\"}}"
    )
}

/// C = A x B drained to UB (ND and NZ), then stored to GM.
fn ub_kernel(symbol: &str) -> String {
    let ub_nd = "memref<16x32xf32, #hivm.address_space<ub>>";
    let ub_nz = "memref<2x16x16xf32, #hivm.address_space<ub>>";
    format!(
        "func.func @k(%a: memref<16x32xf16>, %b: memref<32x32xf16>, %c: memref<16x32xf32>, %cz: memref<2x16x16xf32>) {{\n{}\
         \x20 hivm.hir.pipe_barrier[<PIPE_ALL>]\n\
         \x20 %nd = memref.alloc() : {ub_nd}\n  %nz = memref.alloc() : {ub_nz}\n\
         \x20 {} \"mm\" ins(%l1a, %l1b : {L1A}, {L1B}) outs(%nd, %nz : {ub_nd}, {ub_nz})\n\
         \x20 hivm.hir.pipe_barrier[<PIPE_ALL>]\n\
         \x20 hivm.hir.store ins(%nd : {ub_nd}) outs(%c : memref<16x32xf32>)\n\
         \x20 hivm.hir.store ins(%nz : {ub_nz}) outs(%cz : memref<2x16x16xf32>)\n\
         \x20 return\n}}\n",
        prologue(),
        custom(symbol)
    )
}

/// C = A x B drained to L1 as float fractals, D = A2 x C^T to GM.
fn cbuf_kernel(symbol: &str) -> String {
    format!(
        "func.func @k(%a: memref<16x32xf16>, %b: memref<32x32xf16>, %a2: memref<16x32xf32>, %d: memref<16x16xf32>) {{\n{}\
         \x20 %p = arith.constant 8192 : i64\n  %q = arith.constant 16384 : i64\n\
         \x20 %l1a2 = hivm.hir.pointer_cast(%p) : {L1F}\n  %l1c = hivm.hir.pointer_cast(%q) : {L1F}\n\
         \x20 hivm.hir.nd2nz {{dst_continuous}} ins(%a2 : memref<16x32xf32>) outs(%l1a2 : {L1F})\n\
         \x20 hivm.hir.pipe_barrier[<PIPE_ALL>]\n\
         \x20 {} \"mm\" ins(%l1a, %l1b, %l1a2 : {L1A}, {L1B}, {L1F}) outs(%l1c, %d : {L1F}, memref<16x16xf32>)\n\
         \x20 return\n}}\n",
        prologue(),
        custom(symbol)
    )
}

fn values(rng: &mut Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| (rng.below(17) as i64 - 8) as f64 / 8.0).collect()
}

fn f16s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| half::f16::from_f64(*x).to_le_bytes()).collect()
}

fn f32s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect()
}

fn decode(bytes: &[u8]) -> Vec<f64> {
    bytes.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64).collect()
}

fn run(text: &str, args: Vec<ArgSpec>) -> Outcome {
    let impl_file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cube_fixpipe/fixpipe.cpp");
    let opts = RunOptions {
        impls: vec![impl_file],
        args,
        timeout: Duration::from_secs(60),
        max_ops: 100_000_000,
        ..RunOptions::default()
    };
    hivm_twin::run_source(text, "fixpipe.mlir", Path::new("."), &opts)
}

/// A (16 x 32), B (32 x 32) and their product C, row-major.
fn operands(seed: u64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let a = values(&mut rng, 16 * 32);
    let b = values(&mut rng, 32 * 32);
    let mut c = vec![0.0; 16 * 32];
    for i in 0..16 {
        for j in 0..32 {
            c[i * 32 + j] = (0..32).map(|p| a[i * 32 + p] * b[p * 32 + j]).sum();
        }
    }
    (a, b, c)
}

fn ub_args(a: &[f64], b: &[f64]) -> Vec<ArgSpec> {
    vec![
        ArgSpec::Array(Elem::F16, vec![16, 32], f16s(a)),
        ArgSpec::Array(Elem::F16, vec![32, 32], f16s(b)),
        ArgSpec::Zeros(vec![16, 32], Elem::F32),
        ArgSpec::Zeros(vec![2, 16, 16], Elem::F32),
    ]
}

fn cbuf_args(a: &[f64], b: &[f64], a2: &[f64]) -> Vec<ArgSpec> {
    vec![
        ArgSpec::Array(Elem::F16, vec![16, 32], f16s(a)),
        ArgSpec::Array(Elem::F16, vec![32, 32], f16s(b)),
        ArgSpec::Array(Elem::F32, vec![16, 32], f32s(a2)),
        ArgSpec::Zeros(vec![16, 16], Elem::F32),
    ]
}

fn arg(out: &Outcome, i: usize) -> Vec<f64> {
    let (_, _, bytes) = out.args[i].clone().expect("an array argument");
    decode(&bytes)
}

#[test]
fn l0c_to_ub_gives_the_reference_as_nd_and_as_fractals() {
    let (a, b, c) = operands(1);
    let text = ub_kernel("to_ub");
    let out = run(&text, ub_args(&a, &b));
    let p = problems(&out);
    assert!(p.is_empty(), "{p}\n{text}");
    assert_eq!(arg(&out, 2), c, "the ND copy");
    // Fractal column j1 holds columns 16 j1.. of every row, 16 a row, with ReLU.
    let mut nz = vec![0.0; 2 * 16 * 16];
    for j1 in 0..2 {
        for i in 0..16 {
            for j0 in 0..16 {
                nz[(j1 * 16 + i) * 16 + j0] = c[i * 32 + j1 * 16 + j0].max(0.0);
            }
        }
    }
    assert!(c.iter().any(|x| *x < 0.0), "ReLU is exercised");
    assert_eq!(arg(&out, 3), nz, "the NZ copy with ReLU");
}

#[test]
fn l0c_to_l1_split_into_float_fractals_feeds_a_float_mad() {
    let (a, b, c) = operands(2);
    let mut rng = Rng(99);
    let a2 = values(&mut rng, 16 * 32);
    let mut d = vec![0.0; 16 * 16];
    for i in 0..16 {
        for l in 0..16 {
            d[i * 16 + l] = (0..32).map(|j| a2[i * 32 + j] * c[l * 32 + j]).sum();
        }
    }
    let text = cbuf_kernel("to_cbuf");
    let out = run(&text, cbuf_args(&a, &b, &a2));
    let p = problems(&out);
    assert!(p.is_empty(), "{p}\n{text}");
    assert_eq!(arg(&out, 3), d);
}

fn error_of(text: &str, args: Vec<ArgSpec>) -> String {
    let out = run(text, args);
    out.error.as_ref().map(|e| e.message.clone()).unwrap_or_else(|| panic!("no error:\n{}", problems(&out)))
}

#[test]
fn misuses_of_the_fix_pipe_and_float_transposes_are_located_errors() {
    let (a, b, _) = operands(3);
    let a2 = vec![0.0; 16 * 32];
    let e = error_of(&ub_kernel("to_ub_far"), ub_args(&a, &b));
    assert!(e.contains("copy_matrix_cc_to_ub: UB access [") && e.contains(") is outside UB ("), "{e}");
    let e = error_of(&cbuf_kernel("to_cbuf_half"), cbuf_args(&a, &b, &a2));
    assert!(
        e.contains("copy_matrix_cc_to_cbuf: channel_split is emulated for float to float without nz2nd only"),
        "{e}"
    );
    let e = error_of(&cbuf_kernel("to_cbuf_transposed"), cbuf_args(&a, &b, &a2));
    assert!(
        e.contains("load_cbuf_to_cb: transposing fractals of 4-byte elements is not emulated (2-byte only)"),
        "{e}"
    );
}

#[test]
fn the_fix_pipe_writes_l1_on_pipe_fix() {
    let (a, b, _) = operands(4);
    let a2 = vec![0.0; 16 * 32];
    let out = run(&cbuf_kernel("to_cbuf_racy"), cbuf_args(&a, &b, &a2));
    let p = problems(&out);
    assert!(p.contains("PIPE_MTE1 read of L1[") && p.contains("earlier PIPE_FIX write of the same memory"), "{p}");
}

//! `mmadmxL1` against a reference written from the OCP MX definition:
//! random shapes (K not a multiple of the 32-element scale group),
//! transposes, A in ND or (by nd2nz) fractal layout, formats (f8E4M3FN /
//! f8E5M2 element types, or i8 codes with lhsFormat/rhsFormat), ND or
//! fractal scales and a per-channel bias, synchronised by the solver. The
//! codes keep every sum exact in f32, so any order of summation gives the
//! reference's numbers bit for bit. Then C accumulates a second product
//! (`init_condition` false).

use std::path::Path;
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

mod common;
use common::Rng;
use common::problems;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Fmt {
    E4M3,
    E5M2,
}

/// The value of an 8-bit float code, from its sign, exponent and fraction
/// fields (finite codes only).
fn value(f: Fmt, c: u8) -> f64 {
    let (mbits, bias) = match f {
        Fmt::E4M3 => (3, 7),
        Fmt::E5M2 => (2, 15),
    };
    let e = ((c & 0x7f) >> mbits) as i32;
    let m = (c & ((1 << mbits) - 1)) as f64 / (1 << mbits) as f64;
    let mag = if e == 0 { m * 2f64.powi(1 - bias) } else { (1.0 + m) * 2f64.powi(e - bias) };
    if c & 0x80 != 0 { -mag } else { mag }
}

/// A code of magnitude 0.5 .. 4 (or zero), either sign.
fn code(rng: &mut Rng, f: Fmt) -> u8 {
    if rng.below(8) == 0 {
        return 0;
    }
    let (mbits, e0) = match f {
        Fmt::E4M3 => (3, 6),
        Fmt::E5M2 => (2, 14),
    };
    let e = e0 + rng.below(3) as u8;
    let m = rng.below(1 << mbits) as u8;
    let s = if rng.below(2) == 0 { 0 } else { 0x80 };
    s | (e << mbits) | m
}

struct Case {
    text: String,
    args: Vec<ArgSpec>,
    want: Vec<f64>,
}

fn case(seed: u64) -> Case {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let m = 16 * (1 + rng.below(2) as usize);
    let n = 16 * (1 + rng.below(2) as usize);
    let k = 1 + rng.below(96) as usize;
    let groups = k.div_ceil(32);
    let (ta, tb) = (rng.below(2) == 1, rng.below(2) == 1);
    let fmt = if rng.below(2) == 0 { Fmt::E4M3 } else { Fmt::E5M2 };
    let as_codes = rng.below(2) == 1;
    // A untransposed may reach L1 by nd2nz, in the fractal layout.
    let a_fractal = !ta && rng.below(2) == 1;
    let with_bias = rng.below(2) == 1;
    let a: Vec<u8> = (0..m * k).map(|_| code(&mut rng, fmt)).collect(); // [i][p]
    let b: Vec<u8> = (0..k * n).map(|_| code(&mut rng, fmt)).collect(); // [p][j]
    let sa: Vec<u8> = (0..m * groups).map(|_| 126 + rng.below(3) as u8).collect();
    let sb: Vec<u8> = (0..n * groups).map(|_| 126 + rng.below(3) as u8).collect();
    let bias: Vec<f32> = (0..n).map(|_| (rng.below(9) as i64 - 4) as f32 / 4.0).collect();
    // The reference: C = bias + 2 * sum_p A[i][p] 2^(sa[i][p/32]-127) B[p][j] 2^(sb[j][p/32]-127).
    let mut want = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0;
            for p in 0..k {
                let x = value(fmt, a[i * k + p]) * 2f64.powi(sa[i * groups + p / 32] as i32 - 127);
                let y = value(fmt, b[p * n + j]) * 2f64.powi(sb[j * groups + p / 32] as i32 - 127);
                s += x * y;
            }
            want[i * n + j] = if with_bias { bias[j] as f64 } else { 0.0 } + 2.0 * s;
        }
    }
    // Stored operands: A as [K, M] when transposed, B as [N, K].
    let a_st: Vec<u8> = if ta { (0..k * m).map(|q| a[(q % m) * k + q / m]).collect() } else { a };
    let b_st: Vec<u8> = if tb { (0..n * k).map(|q| b[(q % k) * n + q / k]).collect() } else { b };
    let ash = if ta { [k, m] } else { [m, k] };
    let bsh = if tb { [n, k] } else { [k, n] };
    let elem_name = match (as_codes, fmt) {
        (true, _) => "i8",
        (false, Fmt::E4M3) => "f8E4M3FN",
        (false, Fmt::E5M2) => "f8E5M2",
    };
    let code_attr = match fmt {
        Fmt::E5M2 => 1,
        Fmt::E4M3 => 2,
    };
    let mut attrs = Vec::new();
    if as_codes {
        attrs.push(format!("lhsFormat = {code_attr} : i32, rhsFormat = {code_attr} : i32"));
    }
    if ta {
        attrs.push("a_transpose".to_string());
    }
    if tb {
        attrs.push("b_transpose".to_string());
    }
    let attrs = if attrs.is_empty() { String::new() } else { format!(" {{{}}}", attrs.join(", ")) };
    let ta_t = format!("memref<{}x{}x{elem_name}>", ash[0], ash[1]);
    let tb_t = format!("memref<{}x{}x{elem_name}>", bsh[0], bsh[1]);
    // Scales ND [rows, groups], or fractal [rows/16, ceil(groups/2), 16, 2]
    // with (r, g) at [r/16, g/2, r%16, g%2] (the rest zero, never read).
    let scale_fractal = rng.below(2) == 1;
    let g1 = groups.div_ceil(2);
    let scale_t = |rows: usize| {
        if scale_fractal {
            format!("memref<{}x{g1}x16x2xui8>", rows / 16)
        } else {
            format!("memref<{rows}x{groups}xui8>")
        }
    };
    let scale_shape = |rows: usize| {
        if scale_fractal { vec![(rows / 16) as i64, g1 as i64, 16, 2] } else { vec![rows as i64, groups as i64] }
    };
    let scale_bytes = |nd: &[u8], rows: usize| -> Vec<u8> {
        if !scale_fractal {
            return nd.to_vec();
        }
        let mut out = vec![0u8; rows * g1 * 2];
        for r in 0..rows {
            for g in 0..groups {
                out[((r / 16 * g1 + g / 2) * 16 + r % 16) * 2 + g % 2] = nd[r * groups + g];
            }
        }
        out
    };
    let sa_t = scale_t(m);
    let sb_t = scale_t(n);
    let cb = |t: &str| t.replace('>', ", #hivm.address_space<cbuf>>");
    let l1a = if a_fractal {
        format!("memref<{}x{}x16x32x{elem_name}, #hivm.address_space<cbuf>>", k.div_ceil(32), m / 16)
    } else {
        cb(&ta_t)
    };
    let load_a = if a_fractal {
        format!("  hivm.hir.nd2nz {{dst_continuous}} ins(%a : {ta_t}) outs(%l1a : {l1a})")
    } else {
        format!("  hivm.hir.load ins(%a : {ta_t}) outs(%l1a : {l1a})")
    };
    let c_t = format!("memref<{}x{}x16x16xf32, #hivm.address_space<cc>>", n / 16, m / 16);
    let (bias_in, bias_ty) = if with_bias {
        (", %l1bias".to_string(), format!(", {}", cb(&format!("memref<{n}xf32>"))))
    } else {
        (String::new(), String::new())
    };
    let mmad = |init: &str| {
        format!(
            "  hivm.hir.mmadmxL1{attrs} ins(%l1a, %l1b, %l1sa, %l1sb, {init}, %cm, %ck, %cn{bias_in} : {}, {}, {}, {}, i1, index, index, index{bias_ty}) outs(%acc : {c_t})\n",
            l1a,
            cb(&tb_t),
            cb(&sa_t),
            cb(&sb_t)
        )
    };
    let text = format!(
        r#"module attributes {{hacc.target = #hacc.target<"Ascend950PR_9589">}} {{
func.func @mx(%a: {ta_t}, %b: {tb_t}, %sa: {sa_t}, %sb: {sb_t}, %bias: memref<{n}xf32>, %c: memref<{m}x{n}xf32>) {{
  %true = arith.constant true
  %false = arith.constant false
  %cm = arith.constant {m} : index
  %ck = arith.constant {k} : index
  %cn = arith.constant {n} : index
  %z = arith.constant 0 : i64
  %o1 = arith.constant 8192 : i64
  %o2 = arith.constant 16384 : i64
  %o3 = arith.constant 20480 : i64
  %o4 = arith.constant 24576 : i64
  %l1a = hivm.hir.pointer_cast(%z) : {l1a}
  %l1b = hivm.hir.pointer_cast(%o1) : {l1b}
  %l1sa = hivm.hir.pointer_cast(%o2) : {l1sa}
  %l1sb = hivm.hir.pointer_cast(%o3) : {l1sb}
  %l1bias = hivm.hir.pointer_cast(%o4) : {l1bias}
  %acc = hivm.hir.pointer_cast(%z) : {c_t}
{load_a}
  hivm.hir.load ins(%b : {tb_t}) outs(%l1b : {l1b})
  hivm.hir.load ins(%sa : {sa_t}) outs(%l1sa : {l1sa})
  hivm.hir.load ins(%sb : {sb_t}) outs(%l1sb : {l1sb})
  hivm.hir.load ins(%bias : memref<{n}xf32>) outs(%l1bias : {l1bias})
{bias_barrier}{first}{second}  hivm.hir.fixpipe {{enable_nz2nd}} ins(%acc : {c_t}) outs(%c : memref<{m}x{n}xf32>)
  return
}}
}}
"#,
        l1b = cb(&tb_t),
        l1sa = cb(&sa_t),
        l1sb = cb(&sb_t),
        l1bias = cb(&format!("memref<{n}xf32>")),
        // The solver (as upstream's) gives the library's MTE1 read of the
        // bias no MTE2 -> MTE1 handshake: the kernel orders it itself.
        bias_barrier = if with_bias { "  hivm.hir.pipe_barrier[<PIPE_ALL>]\n" } else { "" },
        first = mmad("%true"),
        second = mmad("%false").replace(&bias_in, "").replace(&bias_ty, ""),
    );
    let elem = if as_codes { Elem::Int(8) } else { Elem::parse(elem_name).expect("an f8 element type") };
    let args = vec![
        ArgSpec::Array(elem, vec![ash[0] as i64, ash[1] as i64], a_st),
        ArgSpec::Array(elem, vec![bsh[0] as i64, bsh[1] as i64], b_st),
        ArgSpec::Array(Elem::Int(8), scale_shape(m), scale_bytes(&sa, m)),
        ArgSpec::Array(Elem::Int(8), scale_shape(n), scale_bytes(&sb, n)),
        ArgSpec::Array(Elem::F32, vec![n as i64], bias.iter().flat_map(|x| x.to_le_bytes()).collect()),
        ArgSpec::Zeros(vec![m as i64, n as i64], Elem::F32),
    ];
    Case { text, args, want }
}

#[test]
fn random_mx_matmuls_give_the_reference_numbers() {
    let count: u64 = std::env::var("HIVM_MX_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(24);
    for seed in 1..=count {
        let c = case(seed);
        let opts =
            RunOptions { args: c.args, timeout: Duration::from_secs(60), sync_solver: true, ..RunOptions::default() };
        let out = hivm_twin::run_source(&c.text, "mx.mlir", Path::new("."), &opts);
        let p = problems(&out);
        assert!(p.is_empty(), "seed {seed}: {p}\n{}", c.text);
        let (_, _, bytes) = out.args.last().cloned().flatten().expect("C");
        let got: Vec<f64> = bytes.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64).collect();
        assert_eq!(got, c.want, "seed {seed}\n{}", c.text);
    }
}

/// A copy of 8-bit floats moves their codes, whatever the view: every code,
/// NaNs of either sign and payload included, through a strided view (the
/// twin's element-wise copy path).
#[test]
fn f8_copies_keep_every_code() {
    let text = r#"func.func @c(%a: memref<512xf8E5M2>, %b: memref<256xf8E5M2>) {
  %s = memref.subview %a[0] [256] [2] : memref<512xf8E5M2> to memref<256xf8E5M2, strided<[2]>>
  memref.copy %s, %b : memref<256xf8E5M2, strided<[2]>> to memref<256xf8E5M2>
  return
}
"#;
    let codes: Vec<u8> = (0..512).map(|i| (i / 2) as u8).collect();
    let opts = RunOptions {
        args: vec![ArgSpec::Array(Elem::Int(8), vec![512], codes), ArgSpec::Zeros(vec![256], Elem::Int(8))],
        ..RunOptions::default()
    };
    let out = hivm_twin::run_source(text, "c.mlir", Path::new("."), &opts);
    assert!(problems(&out).is_empty(), "{}", problems(&out));
    let (_, _, bytes) = out.args.last().cloned().flatten().expect("b");
    assert_eq!(bytes, (0..=255u8).collect::<Vec<_>>());
}

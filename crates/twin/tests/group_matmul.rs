//! `hivm.hir.mix_group_matmul` against a plain per-expert reference: random
//! expert counts (some experts without tokens), shapes and `a_transpose`,
//! f16 values that keep every sum exact; then the same inputs with one
//! count off by one (or made negative) must be a located error, never
//! numbers.

use std::path::Path;
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, Outcome, RunOptions};

mod common;
use common::Rng;
use common::problems;

struct Case {
    text: String,
    args: Vec<ArgSpec>,
    counts: Vec<i64>,
    want: Vec<f64>,
}

fn values(rng: &mut Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| (rng.below(17) as i64 - 8) as f64 / 8.0).collect()
}

fn f16_bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| half::f16::from_f64(*x).to_le_bytes()).collect()
}

fn case(seed: u64) -> Case {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let e = 1 + rng.below(5) as usize;
    let mut counts: Vec<i64> = (0..e).map(|_| rng.below(5) as i64).collect();
    counts[rng.below(e as u64) as usize] += 1; // at least one token
    let t: usize = counts.iter().sum::<i64>() as usize;
    let (k, n) = (1 + rng.below(20) as usize, 1 + rng.below(20) as usize);
    let ta = rng.below(2) == 1;
    // Weights as the reference reads them: w[x][p][j] (K x N per expert).
    let w = values(&mut rng, e * k * n);
    let b = values(&mut rng, t * k);
    let mut want = vec![0.0; t * n];
    let mut row = 0;
    for (x, cnt) in counts.iter().enumerate() {
        for _ in 0..*cnt {
            for j in 0..n {
                let dot: f64 = (0..k).map(|p| b[row * k + p] * w[(x * k + p) * n + j]).sum();
                want[row * n + j] = dot;
            }
            row += 1;
        }
    }
    // Stored weights: [E, N, K] under a_transpose.
    let stored: Vec<f64> = if ta {
        (0..e * n * k).map(|q| (q / (n * k), (q / k) % n, q % k)).map(|(x, j, p)| w[(x * k + p) * n + j]).collect()
    } else {
        w
    };
    let wt = if ta { format!("memref<{e}x{n}x{k}xf16>") } else { format!("memref<{e}x{k}x{n}xf16>") };
    let ta_clause = if ta { " a_transpose" } else { "" };
    let text = format!(
        "func.func @g(%w: {wt}, %b: memref<{t}x{k}xf16>, %tpe: memref<{e}xi64>, %c: memref<{t}x{n}xf32>) {{
  hivm.hir.mix_group_matmul ins(%w, %b, %tpe : {wt}, memref<{t}x{k}xf16>, memref<{e}xi64>) outs(%c : memref<{t}x{n}xf32>){ta_clause}
  return
}}
"
    );
    let shape = if ta { vec![e as i64, n as i64, k as i64] } else { vec![e as i64, k as i64, n as i64] };
    let args = vec![
        ArgSpec::Array(Elem::F16, shape, f16_bytes(&stored)),
        ArgSpec::Array(Elem::F16, vec![t as i64, k as i64], f16_bytes(&b)),
        ArgSpec::Array(Elem::Int(64), vec![e as i64], Vec::new()),
        ArgSpec::Zeros(vec![t as i64, n as i64], Elem::F32),
    ];
    Case { text, args, counts, want }
}

fn run(c: &Case, counts: &[i64]) -> Outcome {
    let mut args = c.args.clone();
    args[2] =
        ArgSpec::Array(Elem::Int(64), vec![counts.len() as i64], counts.iter().flat_map(|x| x.to_le_bytes()).collect());
    let opts = RunOptions { args, timeout: Duration::from_secs(60), ..RunOptions::default() };
    hivm_twin::run_source(&c.text, "g.mlir", Path::new("."), &opts)
}

#[test]
fn random_grouped_matmuls_give_the_reference_numbers() {
    for seed in 1..=40 {
        let c = case(seed);
        let out = run(&c, &c.counts);
        let p = problems(&out);
        assert!(p.is_empty(), "seed {seed}: {p}\n{}", c.text);
        let (_, _, bytes) = out.args.last().cloned().flatten().expect("C");
        let got: Vec<f64> = bytes.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64).collect();
        assert_eq!(got, c.want, "seed {seed}\n{}", c.text);
    }
}

#[test]
fn counts_that_do_not_cover_the_tokens_are_located_errors() {
    for seed in 1..=20 {
        let c = case(seed);
        let mut rng = Rng(seed | 1);
        let mut counts = c.counts.clone();
        let at = rng.below(counts.len() as u64) as usize;
        let negative = rng.below(2) == 1;
        counts[at] = if negative { -1 - counts[at] } else { counts[at] + 1 };
        let out = run(&c, &counts);
        let err = out.error.as_ref().map(|e| out.render(e)).unwrap_or_default();
        let want = if negative { format!("tokens_per_expert[{at}] = ") } else { "tokens_per_expert adds up to".into() };
        assert!(err.contains("g.mlir:2:3: error: mix_group_matmul: ") && err.contains(&want), "seed {seed}: {err}");
        assert!(out.args.last().cloned().flatten().is_none_or(|(_, _, b)| b.iter().all(|x| *x == 0)));
    }
}

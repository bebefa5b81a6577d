//! Inputs that used to take quadratic time: a function of 100k blocks (the
//! `// pred:` comment of every block header) and affine sums of 16k terms
//! (simplification walked or copied the whole sum for every term). These
//! only check that hivm-opt finishes with the right output; speed is
//! measured by `bench/run.py --kinds blocks,affine`.

use std::fmt::Write;
use std::process::Command;

fn run_opt(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("hivm-linear-{}-{name}.mlir", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hivm-opt")).arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn hundred_thousand_blocks() {
    const N: usize = 100_000;
    let mut s = String::from("func.func @chain(%a: i32) {\n  cf.br ^bb1(%a : i32)\n");
    for i in 1..N {
        let _ = writeln!(s, "^bb{i}(%x{i}: i32):\n  cf.br ^bb{}(%x{i} : i32)", i + 1);
    }
    let _ = writeln!(s, "^bb{N}(%x{N}: i32):\n  return\n}}");
    let out = run_opt("blocks", &s);
    assert!(out.contains("  ^bb1(%0: i32):  // pred: ^bb0\n"));
    assert!(out.contains(&format!("  ^bb{N}(%{}: i32):  // pred: ^bb{}\n", N - 1, N - 1)));
    assert_eq!(out.matches("// pred: ").count(), N);
}

/// `affine.apply` of a map whose one result is `expr` over dims `d0..d<nd>`
/// and symbols `s0..s<ns>`; returns the printed map.
fn apply(name: &str, nd: usize, ns: usize, expr: &str) -> String {
    let dims: Vec<String> = (0..nd).map(|i| format!("d{i}")).collect();
    let syms: Vec<String> = (0..ns).map(|i| format!("s{i}")).collect();
    let args = format!("({})[{}]", vec!["%i"; nd].join(", "), vec!["%j"; ns].join(", "));
    let text = format!(
        "func.func @f(%i: index, %j: index) -> index {{\n  %r = affine.apply affine_map<({})[{}] -> ({expr})>{args}\n  return %r : index\n}}\n",
        dims.join(", "),
        syms.join(", ")
    );
    let out = run_opt(name, &text);
    out.lines().next().unwrap().to_string()
}

fn terms(n: usize, f: impl Fn(usize) -> String) -> String {
    (0..n).map(f).collect::<Vec<_>>().join(" + ")
}

const T: usize = 16_384;

#[test]
fn affine_sum_of_one_symbol() {
    let map = apply("same-symbol", 1, 1, &format!("d0 + {}", terms(T, |_| "s0".into())));
    // MLIR keeps repeated symbols as separate terms.
    assert!(map.starts_with("#map = affine_map<(d0)[s0] -> (d0 + s0 + s0 + "));
    assert_eq!(map.matches("s0").count(), T + 1);
}

#[test]
fn affine_sum_of_distinct_symbols_and_dims() {
    let map = apply("symbols", 1, T, &format!("d0 + {}", terms(T, |k| format!("s{k}"))));
    assert!(map.ends_with(&format!("s{} + s{})>", T - 2, T - 1)));
    let map = apply("dims", T, 0, &terms(T, |k| format!("d{k}")));
    assert!(map.ends_with(&format!("d{} + d{})>", T - 2, T - 1)));
}

#[test]
fn affine_sums_that_fold() {
    // d0 * 2 + d0 * 3 + ... folds into one product.
    let coeff: usize = (2..T + 2).sum();
    let map = apply("products", 1, 0, &terms(T, |k| format!("d0 * {}", k + 2)));
    assert_eq!(map, format!("#map = affine_map<(d0) -> (d0 * {coeff})>"));
    // (d0 + 1) + 2 + 3 + ... keeps one constant, on the right.
    let sum: usize = (1..T + 2).sum();
    let map = apply("constants", 1, 0, &format!("(d0 + 1) + {}", terms(T, |k| (k + 2).to_string())));
    assert_eq!(map, format!("#map = affine_map<(d0) -> (d0 + {sum})>"));
}

#[test]
fn affine_sum_of_mixed_terms() {
    // Products of symbols, dims and constants interleaved: each constant is
    // carried to the right end past every later term.
    let expr = terms(T, |k| {
        let t = if k % 3 == 0 { format!("d{}", k % 4) } else { format!("s{} * {}", k % 7, k % 5 + 1) };
        if k % 2 == 1 { format!("{t} + {k}") } else { t }
    });
    let map = apply("mixed", 4, 7, &expr);
    let constant: usize = (0..T).filter(|k| k % 2 == 1).sum();
    assert!(map.ends_with(&format!(" + {constant})>")), "{}", &map[map.len() - 80..]);
}

//! The sync solver's pruning (`gss/prune.rs`) must not change its output:
//! random kernels (loop nests, conditions, loads, stores and vector ops over
//! a few UB buffers, some overlapping, and GM arguments) solved with and
//! without it must print the same. `HIVM_GSS_PRUNE_KERNELS=N` for more.

use std::process::Command;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const G: &str = "memref<64xf32, #hivm.address_space<gm>>";
const U: &str = "memref<64xf32, #hivm.address_space<ub>>";

fn body(r: &mut Rng, out: &mut String, depth: usize, ops: &mut usize, names: &mut usize, cap: usize) {
    let pad = "  ".repeat(depth + 2);
    let n = 1 + r.below(5);
    for _ in 0..n {
        if *ops > cap {
            return;
        }
        let (u, v, w) = (r.below(6), r.below(6), r.below(6));
        let g = r.below(3);
        match r.below(9) {
            0 | 1 => out.push_str(&format!("{pad}hivm.hir.load ins(%g{g} : {G}) outs(%u{u} : {U})\n")),
            2 => out.push_str(&format!("{pad}hivm.hir.store ins(%u{u} : {U}) outs(%g{g} : {G})\n")),
            3 | 4 => out.push_str(&format!("{pad}hivm.hir.vadd ins(%u{u}, %u{v} : {U}, {U}) outs(%u{w} : {U})\n")),
            5 => out.push_str(&format!("{pad}hivm.hir.vmul ins(%u{u}, %u{v} : {U}, {U}) outs(%u{w} : {U})\n")),
            6 if depth < 4 => {
                *names += 1;
                out.push_str(&format!("{pad}scf.for %i{names} = %c0 to %c4 step %c1 {{\n"));
                body(r, out, depth + 1, ops, names, cap);
                out.push_str(&format!("{pad}}}\n"));
            }
            7 if depth < 4 => {
                out.push_str(&format!("{pad}scf.if %cond {{\n"));
                body(r, out, depth + 1, ops, names, cap);
                if r.below(2) == 0 {
                    out.push_str(&format!("{pad}}} else {{\n"));
                    body(r, out, depth + 1, ops, names, cap);
                }
                out.push_str(&format!("{pad}}}\n"));
            }
            _ => out.push_str(&format!("{pad}hivm.hir.vexp ins(%u{u} : {U}) outs(%u{v} : {U})\n")),
        }
        *ops += 1;
    }
}

fn kernel(seed: u64, cap: usize) -> String {
    let mut r = Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1);
    let mut s = format!(
        "func.func @k(%g0: {G}, %g1: {G}, %g2: {G}, %cond: i1) attributes {{hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>}} {{\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c4 = arith.constant 4 : index\n"
    );
    // Buffers 4 and 5 overlap 3 and each other.
    for (i, addr) in [0, 256, 512, 768, 896, 960].iter().enumerate() {
        s.push_str(&format!("  %a{i} = arith.constant {addr} : i64\n  %u{i} = hivm.hir.pointer_cast(%a{i}) : {U}\n"));
    }
    let (mut ops, mut names) = (0, 0);
    while ops < (8 + seed as usize % 40).max(cap) {
        body(&mut r, &mut s, 0, &mut ops, &mut names, cap.max(60));
    }
    s.push_str("  return\n}\n");
    s
}

fn solve(path: &std::path::Path, prune: bool) -> (bool, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hivm-opt"));
    c.arg(path).arg("-hivm-graph-sync-solver");
    if !prune {
        c.env("HIVM_GSS_NO_PRUNE", "1");
    }
    let out = c.output().expect("hivm-opt runs");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

#[test]
fn pruning_changes_nothing() {
    let n: u64 = std::env::var("HIVM_GSS_PRUNE_KERNELS").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let dir = std::env::temp_dir().join(format!("hivm-gss-prune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut solved = 0;
    for seed in 0..n {
        let text = kernel(seed, 0);
        let path = dir.join("k.mlir");
        std::fs::write(&path, &text).unwrap();
        let (ok_p, with) = solve(&path, true);
        let (ok_n, without) = solve(&path, false);
        assert_eq!(ok_p, ok_n, "seed {seed}: one run failed\n{with}\n{without}\n{text}");
        assert_eq!(with, without, "seed {seed}: pruning changed the output\n{text}");
        solved += ok_p as u32;
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(solved as u64 > n * 9 / 10, "only {solved} of {n} kernels were solved");
}

/// Bulk settling (`far.rs`) only pays off, and so only runs much, on
/// kernels long enough for ops to have many earlier ops in other loops.
#[test]
fn pruning_changes_nothing_on_long_kernels() {
    let dir = std::env::temp_dir().join(format!("hivm-gss-prune-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for seed in 1000..1004 {
        let text = kernel(seed, 300);
        let path = dir.join("k.mlir");
        std::fs::write(&path, &text).unwrap();
        let (ok_p, with) = solve(&path, true);
        let (ok_n, without) = solve(&path, false);
        assert!(ok_p && ok_n, "seed {seed}: the solver failed\n{with}\n{without}");
        assert_eq!(with, without, "seed {seed}: pruning changed the output\n{text}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

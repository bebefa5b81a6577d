//! `hivm-fuzz [--seconds N] [--seed S] [--out DIR] [--replay] CORPUS...`
//! (`--replay`: check each corpus file once and stop): mutates the
//! corpus files (MLIR snippets) with byte- and token-level edits and checks
//! the round-trip property on each mutant. Failing inputs are minimized a
//! little and written to `--out` (default `tests/fuzz-crashers`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

const TOKENS: &[&str] = &[
    "%0",
    "%1#1",
    "%arg0",
    "^bb1",
    "^bb0(%a: i32):",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "<{",
    "}>",
    ",",
    ":",
    "=",
    "->",
    "\"",
    "\\",
    "i32",
    "i1",
    "f16",
    "bf16",
    "index",
    "memref<",
    "tensor<",
    "vector<",
    "?x",
    "4x",
    "*x",
    "x",
    "affine_map<(d0)[s0] -> (d0 + s0)>",
    "affine_set<(d0) : (d0 >= 0)>",
    "dense<",
    "array<i32: ",
    "strided<[",
    "offset: ?",
    "#map",
    "#foo.bar<",
    "!foo.t",
    "@sym",
    "@a::@b",
    "loc(",
    "unknown",
    "\"a.b\"()",
    "func.func @f(",
    "return",
    "arith.constant",
    "arith.addi",
    "scf.for",
    "scf.yield",
    "cf.br",
    "memref.alloc()",
    "0x7FC00000",
    "-",
    "1.5e3",
    "99999999999999999999999",
    "true",
    "unit",
    "// -----",
    "\n",
    " ",
    "#-}",
    "{-#",
    "(%a, %b)",
    ": () -> ()",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

fn mutate(rng: &mut Rng, corpus: &[Vec<u8>], input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let pos = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 | 2 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(pos..pos, t.iter().copied());
            }
            3 if !v.is_empty() => {
                let end = (pos + 1 + rng.below(16)).min(v.len());
                v.drain(pos.min(end)..end);
            }
            4 if !v.is_empty() => {
                let a = rng.below(v.len());
                let b = (a + 1 + rng.below(32)).min(v.len());
                let chunk = v[a..b].to_vec();
                v.splice(pos..pos, chunk);
            }
            5 => {
                let other = &corpus[rng.below(corpus.len())];
                if !other.is_empty() {
                    let a = rng.below(other.len());
                    let b = (a + 1 + rng.below(64)).min(other.len());
                    v.splice(pos..pos, other[a..b].iter().copied());
                }
            }
            _ => v.truncate(pos),
        }
    }
    v
}

/// Drops chunks while the failure persists, to keep saved crashers readable;
/// gives up after a while (each check of a slow input may take seconds), so
/// the run keeps to its time.
fn minimize(reg: &std::sync::Arc<hivm_ir::Registry>, mut v: Vec<u8>) -> Vec<u8> {
    let until = Instant::now() + Duration::from_secs(20);
    let mut step = v.len() / 2;
    while step >= 1 {
        let mut i = 0;
        while i + step <= v.len() && Instant::now() < until {
            let mut c = v.clone();
            c.drain(i..i + step);
            if hivm_fuzz::check_catching(reg, &c).is_err() {
                v = c;
            } else {
                i += step;
            }
        }
        step /= 2;
    }
    v
}

fn main() {
    let mut seconds = 60u64;
    let mut seed = 0x5eed_u64;
    let mut out = PathBuf::from("tests/fuzz-crashers");
    let mut inputs = Vec::new();
    let mut replay = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|s| s.parse().ok()).unwrap_or(seconds),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(seed),
            "--out" => out = args.next().map(PathBuf::from).unwrap_or(out),
            "--replay" => replay = true,
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    let mut corpus: Vec<Vec<u8>> = Vec::new();
    for p in &inputs {
        let paths: Vec<PathBuf> = if p.is_dir() {
            let mut v: Vec<PathBuf> = walk(p);
            v.sort();
            v
        } else {
            vec![p.clone()]
        };
        for f in paths {
            if let Ok(b) = std::fs::read(&f) {
                // Fuzz each split chunk on its own: they are independent modules.
                for chunk in String::from_utf8_lossy(&b).split("// -----") {
                    corpus.push(chunk.as_bytes().to_vec());
                }
            }
        }
    }
    if corpus.is_empty() {
        eprintln!("hivm-fuzz: no corpus files given");
        std::process::exit(2);
    }
    let reg = hivm_dialects::shared_registry();
    if replay {
        // Check each input once, with the default panic message (its location).
        let mut bad = 0;
        for (i, c) in corpus.iter().enumerate() {
            if let Err(e) = hivm_fuzz::check_catching(&reg, c) {
                bad += 1;
                eprintln!("input {i}: {e}");
            }
        }
        println!("hivm-fuzz: replayed {} inputs, {bad} failing", corpus.len());
        std::process::exit(if bad > 0 { 1 } else { 0 });
    }
    // A panic is an expected outcome here; keep the default hook quiet.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed | 1);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut execs, mut failures) = (0u64, 0u64);
    let mut seen = std::collections::HashSet::new();
    while Instant::now() < deadline {
        let base = &corpus[rng.below(corpus.len())];
        let m = mutate(&mut rng, &corpus, base);
        execs += 1;
        if let Err(e) = hivm_fuzz::check_catching(&reg, &m) {
            let key: String = e.lines().next().unwrap_or("").chars().take(120).collect();
            if seen.insert(key.clone()) {
                failures += 1;
                eprintln!("FAILURE #{failures}: {key} (minimizing)");
                let small = minimize(&reg, m);
                let _ = std::fs::create_dir_all(&out);
                let path = out.join(format!("crash-{seed:x}-{execs}.mlir"));
                let _ = std::fs::write(&path, &small);
                eprintln!("FAILURE #{failures}: {key}\n  saved {}", path.display());
            }
        }
    }
    println!("hivm-fuzz: {execs} inputs in {seconds}s, {failures} distinct failures");
    if failures > 0 {
        std::process::exit(1);
    }
}

fn walk(dir: &PathBuf) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else if p.extension().is_some_and(|x| x == "mlir") {
                out.push(p);
            }
        }
    }
    out
}

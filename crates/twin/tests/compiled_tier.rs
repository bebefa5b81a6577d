//! The interpreter's compiled tier for scalar loops against its tree walker
//! (`HIVM_TWIN_INTERPRET=1`): random kernels of nested loops with carried
//! values, ifs with results, integer ops of every width (division by zero
//! included), float ops, comparisons, selects, casts and loads and stores
//! (out of bounds included) must give the same bits, or the same error at
//! the same op, including `--max-ops` stops.
//!
//! `HIVM_TIER_KERNELS=N` sets the number of kernels (default 150).

use std::path::Path;
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

mod common;
use common::Rng;

const TYPES: &[&str] = &["i1", "i8", "i16", "i32", "i64", "index", "f16", "f32", "f64"];
const SLOTS: usize = 48;

struct Gen {
    rng: Rng,
    body: String,
    n: usize,
    /// Live values by scope: (type, name).
    scopes: Vec<Vec<(&'static str, String)>>,
    depth: usize,
    stores: usize,
}

fn is_float(t: &str) -> bool {
    t.starts_with('f')
}

fn width(t: &str) -> u32 {
    match t {
        "index" => 64,
        _ => t[1..].parse().unwrap(),
    }
}

impl Gen {
    fn fresh(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }

    fn line(&mut self, s: String) {
        self.body.push_str(&"  ".repeat(self.depth + 2));
        self.body.push_str(&s);
        self.body.push('\n');
    }

    fn push(&mut self, t: &'static str, v: String) {
        self.scopes.last_mut().unwrap().push((t, v));
    }

    fn constant(&mut self, t: &'static str) -> String {
        let v = self.fresh();
        let text = if is_float(t) {
            ["0.0", "-0.0", "1.5", "-2.25", "3.0e+04", "1.0e-03", "7.0", "-1.0e+06"][self.rng.below(8) as usize]
                .to_string()
        } else if t == "i1" {
            ["true", "false"][self.rng.below(2) as usize].to_string()
        } else {
            let w = width(t);
            let x = self.rng.next_u64() as i64;
            let x = if self.rng.below(2) == 0 { x % 9 } else { x >> (64 - w) };
            x.to_string()
        };
        self.line(format!("{v} = arith.constant {text} : {t}"));
        self.push(t, v.clone());
        v
    }

    fn value(&mut self, t: &'static str) -> String {
        let cands: Vec<String> =
            self.scopes.iter().flatten().filter(|(x, _)| *x == t).map(|(_, n)| n.clone()).collect();
        if !cands.is_empty() && self.rng.below(5) != 0 {
            return self.rng.pick(&cands).clone();
        }
        self.constant(t)
    }

    fn ty(&mut self) -> &'static str {
        TYPES[self.rng.below(TYPES.len() as u64) as usize]
    }

    fn stmt(&mut self) {
        let t = self.ty();
        let r = self.fresh();
        match self.rng.below(if self.depth < 3 { 10 } else { 8 }) {
            0..=2 if !is_float(t) => {
                let ops = [
                    "addi",
                    "subi",
                    "muli",
                    "andi",
                    "ori",
                    "xori",
                    "maxsi",
                    "minsi",
                    "maxui",
                    "minui",
                    "divsi",
                    "remsi",
                    "ceildivsi",
                    "floordivsi",
                    "divui",
                    "remui",
                    "shli",
                    "shrsi",
                    "shrui",
                ];
                let op = *self.rng.pick(&ops);
                let (a, b) = (self.value(t), self.value(t));
                self.line(format!("{r} = arith.{op} {a}, {b} : {t}"));
                self.push(t, r);
            }
            0..=2 => {
                let op = *self.rng.pick(&["addf", "subf", "mulf", "divf", "maximumf", "minnumf", "remf"]);
                let (a, b) = (self.value(t), self.value(t));
                self.line(format!("{r} = arith.{op} {a}, {b} : {t}"));
                self.push(t, r);
            }
            3 => {
                let (a, b) = (self.value(t), self.value(t));
                if is_float(t) {
                    let p = *self.rng.pick(&["oeq", "olt", "uge", "une", "ord", "uno", "true"]);
                    self.line(format!("{r} = arith.cmpf {p}, {a}, {b} : {t}"));
                } else {
                    let p = *self.rng.pick(&["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]);
                    self.line(format!("{r} = arith.cmpi {p}, {a}, {b} : {t}"));
                }
                self.push("i1", r);
            }
            4 => {
                let (c, a, b) = (self.value("i1"), self.value(t), self.value(t));
                self.line(format!("{r} = arith.select {c}, {a}, {b} : {t}"));
                self.push(t, r);
            }
            5 | 6 => self.cast(r),
            7 if is_float(t) => {
                let a = self.value(t);
                self.line(format!("{r} = arith.negf {a} : {t}"));
                self.push(t, r);
            }
            7 => self.memory(r),
            8 => self.for_loop(r),
            _ => self.if_op(r),
        }
    }

    /// A load or store of `%mi` (i32) or `%mf` (f32), at an index that is
    /// usually in bounds (and sometimes not, to compare the errors).
    fn memory(&mut self, r: String) {
        let (t, m) = if self.rng.below(2) == 0 { ("i32", "%mi") } else { ("f32", "%mf") };
        let raw = self.value("i32");
        let idx = self.fresh();
        if self.rng.below(8) == 0 {
            self.line(format!("{idx} = arith.index_cast {raw} : i32 to index"));
        } else {
            let (sixteen, wrapped) = (self.fresh(), self.fresh());
            self.line(format!("{sixteen} = arith.constant 16 : i32"));
            self.line(format!("{wrapped} = arith.remui {raw}, {sixteen} : i32"));
            self.line(format!("{idx} = arith.index_cast {wrapped} : i32 to index"));
        }
        if self.rng.below(2) == 0 {
            self.line(format!("{r} = memref.load {m}[{idx}] : memref<16x{t}>"));
            self.push(t, r);
        } else {
            let v = self.value(t);
            self.line(format!("memref.store {v}, {m}[{idx}] : memref<16x{t}>"));
        }
    }

    fn cast(&mut self, r: String) {
        let from = self.ty();
        let to = self.ty();
        let a = self.value(from);
        let op = match (is_float(from), is_float(to)) {
            (false, false) if from == "index" || to == "index" => {
                if from == to {
                    return;
                }
                if self.rng.below(2) == 0 { "index_cast" } else { "index_castui" }
            }
            (false, false) if width(from) < width(to) => {
                if self.rng.below(2) == 0 {
                    "extsi"
                } else {
                    "extui"
                }
            }
            (false, false) if width(from) > width(to) => "trunci",
            (false, false) => return,
            (false, true) => {
                if from == "index" {
                    return;
                }
                if self.rng.below(2) == 0 { "sitofp" } else { "uitofp" }
            }
            (true, false) => {
                if to == "index" {
                    return;
                }
                if self.rng.below(2) == 0 { "fptosi" } else { "fptoui" }
            }
            (true, true) if width(from) < width(to) => "extf",
            (true, true) if width(from) > width(to) => "truncf",
            (true, true) => return,
        };
        self.line(format!("{r} = arith.{op} {a} : {from} to {to}"));
        self.push(to, r);
    }

    fn block(&mut self, n: u64) {
        for _ in 0..1 + self.rng.below(n) {
            self.stmt();
        }
    }

    fn for_loop(&mut self, r: String) {
        let t = if self.rng.below(2) == 0 { "i32" } else { "f32" };
        let (lb, ub, st) = (self.fresh(), self.fresh(), self.fresh());
        let trip = self.rng.below(5);
        self.line(format!("{lb} = arith.constant 0 : index"));
        self.line(format!("{ub} = arith.constant {trip} : index"));
        self.line(format!("{st} = arith.constant 1 : index"));
        let init = self.value(t);
        let (iv, acc) = (self.fresh(), self.fresh());
        self.line(format!("{r} = scf.for {iv} = {lb} to {ub} step {st} iter_args({acc} = {init}) -> ({t}) {{"));
        self.depth += 1;
        self.scopes.push(vec![("index", iv), (t, acc)]);
        self.block(5);
        let y = self.value(t);
        self.line(format!("scf.yield {y} : {t}"));
        self.scopes.pop();
        self.depth -= 1;
        self.line("}".into());
        self.push(t, r);
    }

    fn if_op(&mut self, r: String) {
        let t = self.ty();
        let c = self.value("i1");
        self.line(format!("{r} = scf.if {c} -> ({t}) {{"));
        for branch in 0..2 {
            if branch == 1 {
                self.line("} else {".into());
            }
            self.depth += 1;
            self.scopes.push(Vec::new());
            self.block(3);
            let y = self.value(t);
            self.line(format!("scf.yield {y} : {t}"));
            self.scopes.pop();
            self.depth -= 1;
        }
        self.line("}".into());
        self.push(t, r);
    }

    /// Stores every live top-level value, widened to i64 or f64.
    fn store_all(&mut self) {
        let vals: Vec<(&'static str, String)> = self.scopes[0].clone();
        for (t, v) in vals {
            if self.stores >= SLOTS {
                break;
            }
            let s = self.stores;
            self.stores += 1;
            let c = self.fresh();
            self.line(format!("{c} = arith.constant {s} : index"));
            let w = self.fresh();
            if is_float(t) {
                if t == "f64" {
                    self.line(format!("memref.store {v}, %fout[{c}] : memref<{SLOTS}xf64>"));
                } else {
                    self.line(format!("{w} = arith.extf {v} : {t} to f64"));
                    self.line(format!("memref.store {w}, %fout[{c}] : memref<{SLOTS}xf64>"));
                }
            } else if t == "i64" {
                self.line(format!("memref.store {v}, %out[{c}] : memref<{SLOTS}xi64>"));
            } else if t == "index" {
                self.line(format!("{w} = arith.index_cast {v} : index to i64"));
                self.line(format!("memref.store {w}, %out[{c}] : memref<{SLOTS}xi64>"));
            } else {
                self.line(format!("{w} = arith.extsi {v} : {t} to i64"));
                self.line(format!("memref.store {w}, %out[{c}] : memref<{SLOTS}xi64>"));
            }
        }
    }
}

fn kernel(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1),
        body: String::new(),
        n: 0,
        scopes: vec![Vec::new()],
        depth: 0,
        stores: 0,
    };
    for _ in 0..4 {
        g.rng.next_u64();
    }
    // An outer loop makes the whole kernel one compiled unit.
    let (lb, ub, st, iv, acc) = ("%olb", "%oub", "%ost", "%oiv", "%oacc");
    g.line(format!("{lb} = arith.constant 0 : index"));
    g.line(format!("{ub} = arith.constant 2 : index"));
    g.line(format!("{st} = arith.constant 1 : index"));
    g.line("%oinit = arith.constant 5 : i64".into());
    g.line(format!("%orun = scf.for {iv} = {lb} to {ub} step {st} iter_args({acc} = %oinit) -> (i64) {{"));
    g.depth += 1;
    g.scopes.push(vec![("index", iv.into()), ("i64", acc.into())]);
    g.block(12);
    let y = g.value("i64");
    g.line(format!("scf.yield {y} : i64"));
    g.scopes.pop();
    g.depth -= 1;
    g.line("}".into());
    g.push("i64", "%orun".into());
    // Also the same statements at top level, run by the walker around the
    // compiled loops, so both tiers meet.
    g.block(10);
    g.store_all();
    format!(
        "func.func @k(%out: memref<{SLOTS}xi64>, %fout: memref<{SLOTS}xf64>, %mi: memref<16xi32>, \
         %mf: memref<16xf32>) {{\n{}    return\n  }}\n",
        g.body
    )
}

/// The arguments' final bytes, or the rendered error.
type Outcome = Result<Vec<Vec<u8>>, String>;

fn run(text: &str, max_ops: u64) -> Outcome {
    let opts = RunOptions {
        entry: None,
        impls: vec![],
        args: vec![
            ArgSpec::Zeros(vec![SLOTS as i64], Elem::Int(64)),
            ArgSpec::Zeros(vec![SLOTS as i64], Elem::F64),
            ArgSpec::Zeros(vec![16], Elem::Int(32)),
            ArgSpec::Zeros(vec![16], Elem::F32),
        ],
        blocks: 1,
        timeout: Duration::from_secs(20),
        progress: false,
        max_ops,
        trace: false,
        sync_solver: false,
        part_alone: false,
    };
    let out = hivm_twin::run_source(text, "tier.mlir", Path::new("."), &opts);
    if let Some(e) = &out.error {
        return Err(out.render(e));
    }
    Ok(out.args.into_iter().flatten().map(|(_, _, b)| b).collect())
}

fn both(text: &str, max_ops: u64) -> (Outcome, Outcome) {
    // SAFETY (of the environment change): this is the test binary's only
    // test, so no other thread reads the environment meanwhile.
    unsafe { std::env::remove_var("HIVM_TWIN_INTERPRET") };
    let compiled = run(text, max_ops);
    unsafe { std::env::set_var("HIVM_TWIN_INTERPRET", "1") };
    let walked = run(text, max_ops);
    unsafe { std::env::remove_var("HIVM_TWIN_INTERPRET") };
    (compiled, walked)
}

#[test]
fn compiled_loops_match_the_tree_walker() {
    let count: u64 = std::env::var("HIVM_TIER_KERNELS").ok().and_then(|v| v.parse().ok()).unwrap_or(150);
    let mut errors = 0;
    for seed in 1..=count {
        let text = kernel(seed);
        let (c, w) = both(&text, 1_000_000);
        assert_eq!(c, w, "seed {seed}: the tiers differ\n{text}");
        errors += c.is_err() as u32;
        // Stopping at an op limit inside the loops: the same op, the same words.
        let (c, w) = both(&text, 40 + seed % 50);
        assert_eq!(c, w, "seed {seed} with --max-ops: the tiers differ\n{text}");
    }
    // Some kernels divide by zero: errors are compared too, not only values.
    assert!(errors > 0 && errors < count as u32, "{errors} of {count} kernels failed; the generator needs tuning");
}

//! A randomized tester for the sync solver, in the spirit of upstream's
//! SyncTester: random kernels of loads, stores, vector ops, scalar UB
//! accesses and custom macros (internal, wait and set slots, a pinned id)
//! under nested loops and ifs, over UB buffers that may alias, written
//! without any synchronisation. Each kernel runs in the CPU twin after the
//! solver, whose checker must see no race, hang or leftover flag, and must
//! give the numbers of the same kernel run with `pipe_barrier[<PIPE_ALL>]`
//! after every op.
//!
//! `HIVM_GSS_KERNELS=N` sets the number of kernels (default 40);
//! `HIVM_GSS_SEED` the first seed.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hivm_twin::{ArgSpec, RunOptions};

mod common;
use common::Rng;

const G: &str = "memref<64xf32, #hivm.address_space<gm>>";
const U: &str = "memref<64xf32, #hivm.address_space<ub>>";
const UB_BUFFERS: usize = 4;

/// One kernel in two forms: unsynchronised (for the solver) and with a
/// barrier after every op and hand-written macro flags (the reference).
struct Gen {
    rng: Rng,
    solver: String,
    reference: String,
    depth: usize,
    ivs: usize,
    scratch: usize,
    pinned_used: bool,
    ops: usize,
}

impl Gen {
    fn line(&mut self, indent: usize, both: &str, barrier: bool) {
        let pad = "  ".repeat(indent);
        writeln!(self.solver, "{pad}{both}").unwrap();
        writeln!(self.reference, "{pad}{both}").unwrap();
        if barrier {
            writeln!(self.reference, "{pad}hivm.hir.pipe_barrier[<PIPE_ALL>]").unwrap();
        }
    }

    fn reference_only(&mut self, indent: usize, text: &str) {
        writeln!(self.reference, "{}{text}", "  ".repeat(indent)).unwrap();
    }

    fn ub(&mut self) -> String {
        format!("%u{}", self.rng.below(UB_BUFFERS as u64))
    }

    fn gm(&mut self) -> String {
        format!("%g{}", self.rng.below(3))
    }

    fn stmt(&mut self, indent: usize) {
        self.ops += 1;
        let choice = if self.depth < 2 { self.rng.below(12) } else { self.rng.below(9) };
        match choice {
            0 | 1 => {
                let (g, u) = (self.gm(), self.ub());
                self.line(indent, &format!("hivm.hir.load ins({g} : {G}) outs({u} : {U})"), true);
            }
            2 | 3 => {
                let (u, g) = (self.ub(), self.gm());
                self.line(indent, &format!("hivm.hir.store ins({u} : {U}) outs({g} : {G})"), true);
            }
            4 | 5 => {
                let (x, y, z) = (self.ub(), self.ub(), self.ub());
                let op = if self.rng.below(2) == 0 { "vadd" } else { "vmul" };
                self.line(indent, &format!("hivm.hir.{op} ins({x}, {y} : {U}, {U}) outs({z} : {U})"), true);
            }
            6 => {
                let u = self.ub();
                if self.rng.below(2) == 0 {
                    self.line(indent, &format!("memref.store %half, {u}[%c5] : {U}"), true);
                } else {
                    let n = self.ops;
                    self.line(indent, &format!("%s{n} = memref.load {u}[%c7] : {U}"), true);
                }
            }
            7 | 8 => self.macro_call(indent),
            9 | 10 => {
                let iv = self.ivs;
                self.ivs += 1;
                let trip = 2 + self.rng.below(2);
                self.line(indent, &format!("scf.for %i{iv} = %c0 to %c{trip} step %c1 {{"), false);
                self.depth += 1;
                self.block(indent + 1);
                self.depth -= 1;
                self.line(indent, "}", false);
            }
            _ => {
                self.line(indent, "scf.if %flag {", false);
                self.depth += 1;
                self.block(indent + 1);
                self.line(indent, "} else {", false);
                self.block(indent + 1);
                self.depth -= 1;
                self.line(indent, "}", false);
            }
        }
    }

    fn block(&mut self, indent: usize) {
        let n = 1 + self.rng.below(4);
        for _ in 0..n {
            self.stmt(indent);
        }
    }

    fn macro_call(&mut self, indent: usize) {
        let kind = match self.rng.below(3) {
            2 if !self.pinned_used => {
                self.pinned_used = true;
                'c'
            }
            0 => 'a',
            _ => 'b',
        };
        let (g, u) = (self.gm(), self.ub());
        let s = self.scratch;
        self.scratch += 1;
        let wait = "#hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE2>, wait>";
        let internal = "#hivm.sync_event_slot<internal>";
        let (slots, args) = match kind {
            'a' => (format!("{wait}, {internal}"), "%e0, %e1 : i64, i64"),
            'b' => (
                format!("{wait}, {internal}, #hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE3>, set>"),
                "%e0, %e1, %e2 : i64, i64, i64",
            ),
            _ => (format!("#hivm.sync_event_slot<internal, <EVENT_ID3>>, {wait}"), "%e3, %e0 : i64, i64"),
        };
        let head = format!(
            "hivm.hir.custom_macro {{hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, \
             hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = \"mac_{kind}\", sync_event_slots = [{slots}]}} \"m\" \
             ins({g} : {G}) outs({u} : {U}) tmps(%scr{s} : {U})"
        );
        // The reference sets the flag the macro waits for, passes the ids
        // itself, and waits for the flag mac_b sets.
        self.reference_only(indent, "hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]");
        writeln!(self.solver, "{}{head}", "  ".repeat(indent)).unwrap();
        writeln!(self.reference, "{}{head} sync_related_args({args})", "  ".repeat(indent)).unwrap();
        if kind == 'b' {
            self.reference_only(indent, "hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]");
        }
        self.reference_only(indent, "hivm.hir.pipe_barrier[<PIPE_ALL>]");
    }
}

/// The two forms of kernel `seed`.
fn kernel(seed: u64) -> (String, String) {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1),
        solver: String::new(),
        reference: String::new(),
        depth: 0,
        ivs: 0,
        scratch: 0,
        pinned_used: false,
        ops: 0,
    };
    for _ in 0..6 {
        g.rng.next();
    }
    let n = 3 + g.rng.below(6);
    for _ in 0..n {
        g.stmt(2);
    }
    let mut head = String::new();
    writeln!(head, "module attributes {{hacc.target = #hacc.target<\"Ascend910B3\">}} {{").unwrap();
    writeln!(head, "  func.func @k(%g0: {G}, %g1: {G}, %g2: {G}, %flag: i1) {{").unwrap();
    writeln!(head, "    %half = arith.constant 1.5 : f32").unwrap();
    for c in [0, 1, 2, 3, 5, 7] {
        writeln!(head, "    %c{c} = arith.constant {c} : index").unwrap();
    }
    for e in 0..4 {
        writeln!(head, "    %e{e} = arith.constant {e} : i64").unwrap();
    }
    for i in 0..UB_BUFFERS {
        // Four slots of 256 bytes, so that buffers sometimes alias.
        let addr = 256 * g.rng.below(UB_BUFFERS as u64);
        writeln!(head, "    %a{i} = arith.constant {addr} : i64").unwrap();
        writeln!(head, "    %u{i} = hivm.hir.pointer_cast(%a{i}) : {U}").unwrap();
    }
    for s in 0..g.scratch {
        writeln!(head, "    %sa{s} = arith.constant {} : i64", 4096 + 256 * s).unwrap();
        writeln!(head, "    %scr{s} = hivm.hir.pointer_cast(%sa{s}) : {U}").unwrap();
    }
    let tail = "    return\n  }\n}\n";
    let solver = format!("{head}{}{tail}", g.solver);
    let reference = format!("{head}{}{tail}", g.reference);
    (solver, reference)
}

fn write_npy(path: &Path, seed: u64) {
    let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (64,), }";
    let total = 10 + header.len() + 1;
    let mut h = header.to_string();
    h.push_str(&" ".repeat(total.div_ceil(64) * 64 - total));
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(h.len() as u16).to_le_bytes());
    out.extend_from_slice(h.as_bytes());
    for i in 0..64u64 {
        out.extend_from_slice(&(((seed * 7 + i * 3) % 17) as f32 - 8.0).to_le_bytes());
    }
    std::fs::write(path, out).unwrap();
}

fn run(dir: &Path, name: &str, text: &str, solver: bool, flag: bool) -> Result<Vec<Vec<u8>>, String> {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let impl_file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gss/macros.cpp");
    let mut args: Vec<ArgSpec> = (0..3).map(|i| ArgSpec::Npy(dir.join(format!("g{i}.npy")))).collect();
    args.push(ArgSpec::Literal(if flag { "1" } else { "0" }.into()));
    let opts = RunOptions {
        entry: None,
        impls: vec![impl_file],
        args,
        blocks: 1,
        timeout: Duration::from_secs(20),
        progress: false,
        max_ops: 1_000_000,
        trace: false,
        sync_solver: solver,
    };
    let out = hivm_twin::run(&path, &opts);
    let mut problems = String::new();
    if let Some(e) = &out.error {
        problems.push_str(&out.render(e));
    }
    for (b, r) in &out.reports {
        problems.push_str(&out.render(&out.report_diagnostic(*b, r, 1)));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(out.args.into_iter().flatten().map(|(_, _, bytes)| bytes).collect())
}

#[test]
fn solver_output_runs_clean_and_right() {
    let count: u64 = std::env::var("HIVM_GSS_KERNELS").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    let first: u64 = std::env::var("HIVM_GSS_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let dir = std::env::temp_dir().join(format!("hivm-gss-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for seed in first..first + count {
        for i in 0..3 {
            write_npy(&dir.join(format!("g{i}.npy")), seed + i);
        }
        let (solver, reference) = kernel(seed);
        let flag = seed % 2 == 0;
        let expected = match run(&dir, "ref.mlir", &reference, false, flag) {
            Ok(v) => v,
            Err(e) => panic!("seed {seed}: the reference kernel itself fails (a tester bug):\n{e}\n{reference}"),
        };
        match run(&dir, "k.mlir", &solver, true, flag) {
            Ok(got) if got == expected => {}
            Ok(_) => failures.push(format!("seed {seed}: different numbers after the solver\n{solver}")),
            Err(e) => failures.push(format!("seed {seed}:\n{e}\n{solver}")),
        }
        if failures.len() >= 3 {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} kernel(s) failed:\n{}", failures.len(), failures.join("\n\n"));
}

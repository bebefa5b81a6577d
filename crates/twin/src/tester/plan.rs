//! The memory-plan tester: random kernels of local buffers (allocs filled
//! from GM or computed, elementwise ops in place or not, subviews at
//! constant and dynamic offsets, `scf.for` with and without carried
//! buffers, `scf.if`, and `cf` branches, block arguments and a back edge)
//! run in the twin as written, where every alloc gets bytes of its own,
//! and after `hivm-plan-memory`; the numbers must agree and the twin's
//! ownership check must stay silent. A plan that does not fit ("ub
//! overflow") is a legitimate answer and counts as skipped. Every third
//! kernel also parks buffers in big ones that do not fit side by side, so
//! the plan must give dead buffers' places to new ones.

use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use super::kernels::Rng;
use crate::value::Elem;
use crate::{ArgSpec, RunOptions};

const UB: &str = "memref<64xf32, #hivm.address_space<ub>>";
const SUB: &str = "memref<32xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>";
const GM: &str = "memref<64xf32, #hivm.address_space<gm>>";
const OUT: &str = "memref<1024xf32, #hivm.address_space<gm>>";
/// Output slots of 64 elements in the `%out` argument.
const SLOTS: usize = 16;
const OPS: &[&str] = &["vadd", "vmul", "vsub", "vmax", "vmin"];
/// A buffer of which two fit in UB beside the small ones, three not: kernels
/// with several fit only when dead ones give up their places.
const BIG: &str = "memref<18432xf32, #hivm.address_space<ub>>";
/// The head of a big buffer, where it keeps what it is given.
const HEAD: &str = "memref<64xf32, strided<[1]>, #hivm.address_space<ub>>";

/// What a run of one kernel came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same numbers, no report.
    Same,
    /// The plan does not fit in UB.
    Overflow,
    /// The planner refused a loop whose earlier instance of a buffer is
    /// still live when it writes the next (a rotating kernel).
    Refused,
}

/// Whether kernel `seed`'s loop-carried buffers rotate (one in five).
pub fn rotates(seed: u64) -> bool {
    seed % 5 == 2
}

struct Gen {
    rng: Rng,
    text: String,
    /// Buffers visible at each open scope.
    scopes: Vec<Vec<String>>,
    next: usize,
    depth: usize,
    budget: usize,
    /// Whether the module has `@callee`, a function with buffers of its own.
    callee: bool,
    /// Whether statements may park a small buffer in a big one.
    big: bool,
    /// Whether loop-carried buffers rotate through two iter_args (an
    /// earlier instance still live when the next is written: the planner
    /// must refuse, not share their bytes).
    rotate: bool,
}

impl Gen {
    fn name(&mut self, p: &str) -> String {
        self.next += 1;
        format!("%{p}{}", self.next)
    }

    fn line(&mut self, indent: usize, s: &str) {
        writeln!(self.text, "{}{s}", "  ".repeat(indent)).unwrap();
    }

    fn barrier(&mut self, indent: usize) {
        self.line(indent, "hivm.hir.pipe_barrier[<PIPE_ALL>]");
    }

    /// The small buffers in scope (big ones are named `%B...`).
    fn visible(&self) -> Vec<String> {
        self.scopes.iter().flatten().filter(|b| !b.starts_with("%B")).cloned().collect()
    }

    /// Parks a small buffer in the head of a new big one, or reads back the
    /// head of a big one still in scope (keeping it alive), into a fresh
    /// small buffer.
    fn big_stmt(&mut self, indent: usize) {
        let Some(x) = self.pick() else { return self.stmt_fresh(indent) };
        let bigs: Vec<String> = self.scopes.iter().flatten().filter(|b| b.starts_with("%B")).cloned().collect();
        let old = (!bigs.is_empty() && self.rng.below(3) == 0)
            .then(|| bigs[self.rng.below(bigs.len() as u64) as usize].clone());
        let head = self.name("s");
        match old {
            Some(b) => {
                self.line(indent, &format!("{head} = memref.subview {b}[0] [64] [1] : {BIG} to {HEAD}"));
            }
            None => {
                let b = self.name("B");
                self.line(indent, &format!("{b} = memref.alloc() : {BIG}"));
                self.line(indent, &format!("{head} = memref.subview {b}[0] [64] [1] : {BIG} to {HEAD}"));
                self.line(indent, &format!("hivm.hir.copy ins({x} : {UB}) outs({head} : {HEAD})"));
                self.barrier(indent);
                self.add(b);
            }
        }
        let n = self.name("b");
        self.line(indent, &format!("{n} = memref.alloc() : {UB}"));
        self.line(indent, &format!("hivm.hir.copy ins({head} : {HEAD}) outs({n} : {UB})"));
        self.barrier(indent);
        self.add(n);
    }

    /// A visible buffer, recent ones more likely (so that buffers die and
    /// their places may be taken over in place).
    fn pick(&mut self) -> Option<String> {
        let v = self.visible();
        if v.is_empty() {
            return None;
        }
        let n = v.len() as u64;
        let i = if self.rng.below(3) == 0 { self.rng.below(n) } else { n - 1 - self.rng.below(n.min(3)) };
        Some(v[i as usize].clone())
    }

    fn add(&mut self, b: String) {
        self.scopes.last_mut().expect("a scope").push(b);
    }

    fn offset(&mut self) -> &'static str {
        const OFFSETS: [&str; 5] = ["%c0", "%c16", "%c32", "%i0", "%i1"];
        OFFSETS[self.rng.below(5) as usize]
    }

    /// A new buffer, filled from GM or computed from two others.
    fn fresh(&mut self, indent: usize) -> String {
        let b = self.name("b");
        self.line(indent, &format!("{b} = memref.alloc() : {UB}"));
        let srcs = (self.pick(), self.pick());
        let how = self.rng.below(6);
        match srcs {
            (Some(x), Some(_)) if how == 0 => {
                self.line(indent, &format!("hivm.hir.copy ins({x} : {UB}) outs({b} : {UB})"));
            }
            (Some(x), Some(_)) if how == 1 => {
                // A scalar loop (the compiled tier's kind).
                let (i, e, d) = (self.name("i"), self.name("e"), self.name("e"));
                self.line(indent, &format!("scf.for {i} = %c0 to %c64 step %c1 {{"));
                self.line(indent + 1, &format!("{e} = memref.load {x}[{i}] : {UB}"));
                self.line(indent + 1, &format!("{d} = arith.mulf {e}, {e} : f32"));
                self.line(indent + 1, &format!("memref.store {d}, {b}[{i}] : {UB}"));
                self.line(indent, "}");
            }
            (Some(x), Some(y)) if how < 4 => {
                let op = *self.rng.pick(OPS);
                self.line(indent, &format!("hivm.hir.{op} ins({x}, {y} : {UB}, {UB}) outs({b} : {UB})"));
            }
            _ => {
                let g = self.rng.below(3);
                self.line(indent, &format!("hivm.hir.load ins(%g{g} : {GM}) outs({b} : {UB})"));
            }
        }
        self.barrier(indent);
        b
    }

    fn store(&mut self, indent: usize, b: &str) {
        let k = self.rng.below(SLOTS as u64);
        let t = format!("memref<64xf32, strided<[1], offset: {}>, #hivm.address_space<gm>>", 64 * k);
        self.line(indent, &format!("hivm.hir.store ins({b} : {UB}) outs(%o{k} : {t})"));
        self.barrier(indent);
    }

    fn stmt(&mut self, indent: usize) {
        self.budget = self.budget.saturating_sub(1);
        if self.big && self.rng.below(3) == 0 {
            return self.big_stmt(indent);
        }
        let nested = self.depth < 2 && self.budget > 2;
        match self.rng.below(if nested { 10 } else { 6 }) {
            0 | 1 => {
                let b = self.fresh(indent);
                self.add(b);
            }
            2 => {
                // Into an existing buffer (in place when it is an input).
                let (Some(x), Some(y), Some(z)) = (self.pick(), self.pick(), self.pick()) else {
                    return self.stmt_fresh(indent);
                };
                let op = *self.rng.pick(OPS);
                self.line(indent, &format!("hivm.hir.{op} ins({x}, {y} : {UB}, {UB}) outs({z} : {UB})"));
                self.barrier(indent);
            }
            3 => {
                // Halves through subviews: from one buffer into a fresh one
                // (an in-place candidate when the source dies here), or
                // within one buffer at one offset.
                let Some(x) = self.pick() else { return self.stmt_fresh(indent) };
                let (ox, sx) = (self.offset(), self.name("s"));
                self.line(indent, &format!("{sx} = memref.subview {x}[{ox}] [32] [1] : {UB} to {SUB}"));
                let op = *self.rng.pick(OPS);
                let how = self.rng.below(3);
                if how == 0 {
                    self.line(indent, &format!("hivm.hir.{op} ins({sx}, {sx} : {SUB}, {SUB}) outs({sx} : {SUB})"));
                    self.barrier(indent);
                } else if how == 1 {
                    // A buffer only ever seen through one half, first
                    // written here: it may take the source's place.
                    let (n, on, sn) = (self.name("b"), self.offset(), self.name("s"));
                    self.line(indent, &format!("{n} = memref.alloc() : {UB}"));
                    self.line(indent, &format!("{sn} = memref.subview {n}[{on}] [32] [1] : {UB} to {SUB}"));
                    self.line(indent, &format!("hivm.hir.{op} ins({sx}, {sx} : {SUB}, {SUB}) outs({sn} : {SUB})"));
                    self.barrier(indent);
                    let k = self.rng.below(SLOTS as u64);
                    let t = format!("memref<32xf32, strided<[1], offset: {}>, #hivm.address_space<gm>>", 64 * k + 32);
                    self.line(indent, &format!("hivm.hir.store ins({sn} : {SUB}) outs(%h{k} : {t})"));
                    self.barrier(indent);
                } else {
                    let n = self.fresh(indent);
                    let (on, sn) = (self.offset(), self.name("s"));
                    self.line(indent, &format!("{sn} = memref.subview {n}[{on}] [32] [1] : {UB} to {SUB}"));
                    self.line(indent, &format!("hivm.hir.{op} ins({sx}, {sx} : {SUB}, {SUB}) outs({sn} : {SUB})"));
                    self.barrier(indent);
                    self.add(n);
                }
            }
            4 if self.callee => {
                let g = self.rng.below(3);
                self.line(indent, &format!("func.call @callee(%g{g}, %out) : ({GM}, {OUT}) -> ()"));
            }
            4 | 5 => {
                let Some(x) = self.pick() else { return self.stmt_fresh(indent) };
                self.store(indent, &x);
            }
            6 => {
                let iv = self.name("i");
                self.line(indent, &format!("scf.for {iv} = %c0 to %c2 step %c1 {{"));
                self.region(indent + 1);
                self.line(indent, "}");
            }
            7 => self.carried_loop(indent),
            8 => {
                self.line(indent, "scf.if %flag {");
                self.region(indent + 1);
                self.line(indent, "} else {");
                self.region(indent + 1);
                self.line(indent, "}");
            }
            _ => {
                // A buffer chosen by a branch.
                let Some(x) = self.pick() else { return self.stmt_fresh(indent) };
                let r = self.name("r");
                self.line(indent, &format!("{r} = scf.if %flag -> ({UB}) {{"));
                self.depth += 1;
                self.scopes.push(Vec::new());
                let n = self.fresh(indent + 1);
                self.line(indent + 1, &format!("scf.yield {n} : {UB}"));
                self.scopes.pop();
                self.line(indent, "} else {");
                self.line(indent + 1, &format!("scf.yield {x} : {UB}"));
                self.line(indent, "}");
                self.depth -= 1;
                self.add(r);
            }
        }
    }

    fn stmt_fresh(&mut self, indent: usize) {
        let b = self.fresh(indent);
        self.add(b);
    }

    /// A nested block of a few statements in a scope of its own.
    fn region(&mut self, indent: usize) {
        self.depth += 1;
        self.scopes.push(Vec::new());
        let n = 1 + self.rng.below(4);
        for _ in 0..n {
            self.stmt(indent);
        }
        self.scopes.pop();
        self.depth -= 1;
    }

    /// `scf.for` carrying a buffer: the body may read the carried value (and
    /// now and then the init directly), computes the next one into a buffer
    /// it allocates, and after that does not read the carried value again
    /// (one address per alloc cannot serve a body that does).
    /// `iter_args(%x = a, %y = b) { %n = op(%x, %y); yield %n, %x }`: in
    /// each iteration the two previous instances of `%n` are live with the
    /// new one.
    fn rotating_loop(&mut self, indent: usize) {
        let Some(a) = self.pick() else { return self.stmt_fresh(indent) };
        let b = self.pick().unwrap_or(a.clone());
        let (r, iv, x, y) = (self.name("r"), self.name("i"), self.name("x"), self.name("y"));
        self.line(
            indent,
            &format!("{r}:2 = scf.for {iv} = %c0 to %c3 step %c1 iter_args({x} = {a}, {y} = {b}) -> ({UB}, {UB}) {{"),
        );
        let n = self.name("b");
        self.line(indent + 1, &format!("{n} = memref.alloc() : {UB}"));
        let op = *self.rng.pick(OPS);
        self.line(indent + 1, &format!("hivm.hir.{op} ins({x}, {y} : {UB}, {UB}) outs({n} : {UB})"));
        self.barrier(indent + 1);
        self.line(indent + 1, &format!("scf.yield {n}, {x} : {UB}, {UB}"));
        self.line(indent, "}");
        self.add(format!("{r}#0"));
        self.add(format!("{r}#1"));
    }

    fn carried_loop(&mut self, indent: usize) {
        if self.rotate {
            return self.rotating_loop(indent);
        }
        let Some(init) = self.pick() else { return self.stmt_fresh(indent) };
        let (r, iv, acc) = (self.name("r"), self.name("i"), self.name("acc"));
        self.line(indent, &format!("{r} = scf.for {iv} = %c0 to %c3 step %c1 iter_args({acc} = {init}) -> ({UB}) {{"));
        self.depth += 1;
        self.scopes.push(vec![acc.clone()]);
        let pre = self.rng.below(3);
        for _ in 0..pre {
            self.stmt(indent + 1);
        }
        let other = if self.rng.below(3) == 0 { init.clone() } else { self.pick().unwrap_or(acc.clone()) };
        // Without the carried value from here on, nor what the body made
        // before (a loop or branch result there may be the carried value).
        self.scopes.pop();
        self.scopes.push(Vec::new());
        let n = self.name("b");
        self.line(indent + 1, &format!("{n} = memref.alloc() : {UB}"));
        let op = *self.rng.pick(OPS);
        self.line(indent + 1, &format!("hivm.hir.{op} ins({acc}, {other} : {UB}, {UB}) outs({n} : {UB})"));
        self.barrier(indent + 1);
        self.add(n.clone());
        if self.rng.below(2) == 0 {
            self.stmt(indent + 1);
        }
        self.line(indent + 1, &format!("scf.yield {n} : {UB}"));
        self.scopes.pop();
        self.depth -= 1;
        self.line(indent, "}");
        self.add(r);
    }
}

/// Kernel `seed`: `@k(%g0, %g1, %g2, %out, %i0, %i1, %flag)`; sometimes its
/// body is split into `cf` blocks (a diamond passing a buffer to a block
/// argument, then a loop through a back edge).
pub fn kernel(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x2545F4914F6CDD1D) | 1),
        text: String::new(),
        scopes: vec![Vec::new()],
        next: 0,
        depth: 0,
        budget: 0,
        callee: false,
        // Not drawn from the generator, so other seeds keep their kernels.
        big: seed.is_multiple_of(3),
        rotate: rotates(seed),
    };
    for _ in 0..4 {
        g.rng.next_u64();
    }
    g.budget = 6 + g.rng.below(14) as usize;
    g.callee = g.rng.below(3) == 0;
    let first = g.fresh(2);
    g.add(first);
    let cf = g.rng.below(3) == 0;
    while g.budget > 0 {
        g.stmt(2);
    }
    if cf {
        cf_tail(&mut g);
    }
    for b in g.visible().into_iter().rev().take(SLOTS / 2) {
        g.store(2, &b);
    }
    let mut head = String::new();
    writeln!(head, "module attributes {{hacc.target = #hacc.target<\"Ascend910B1\">}} {{").unwrap();
    writeln!(
        head,
        "  func.func @k(%g0: {GM}, %g1: {GM}, %g2: {GM}, %out: {OUT}, %i0: index, %i1: index, %flag: i1) {{"
    )
    .unwrap();
    for c in [0, 1, 2, 3, 16, 32, 64] {
        writeln!(head, "    %c{c} = arith.constant {c} : index").unwrap();
    }
    for k in 0..SLOTS {
        let t = format!("memref<64xf32, strided<[1], offset: {}>, #hivm.address_space<gm>>", 64 * k);
        writeln!(head, "    %o{k} = memref.subview %out[{}] [64] [1] : {OUT} to {t}", 64 * k).unwrap();
        let h = format!("memref<32xf32, strided<[1], offset: {}>, #hivm.address_space<gm>>", 64 * k + 32);
        writeln!(head, "    %h{k} = memref.subview %out[{}] [32] [1] : {OUT} to {h}", 64 * k + 32).unwrap();
    }
    let callee = if g.callee { callee() } else { String::new() };
    format!("{head}{}    return\n  }}\n{callee}}}\n", g.text)
}

/// A function with buffers of its own, called between the kernel's ops:
/// it must not land on the caller's live buffers.
fn callee() -> String {
    let slot = "memref<64xf32, strided<[1], offset: 960>, #hivm.address_space<gm>>";
    [
        format!("  func.func @callee(%g: {GM}, %out: {OUT}) {{"),
        format!("    %t = memref.alloc() : {UB}"),
        format!("    %u = memref.alloc() : {UB}"),
        format!("    hivm.hir.load ins(%g : {GM}) outs(%t : {UB})"),
        "    hivm.hir.pipe_barrier[<PIPE_ALL>]".into(),
        format!("    hivm.hir.vmul ins(%t, %t : {UB}, {UB}) outs(%u : {UB})"),
        "    hivm.hir.pipe_barrier[<PIPE_ALL>]".into(),
        format!("    %s = memref.subview %out[960] [64] [1] : {OUT} to {slot}"),
        format!("    hivm.hir.store ins(%u : {UB}) outs(%s : {slot})"),
        "    hivm.hir.pipe_barrier[<PIPE_ALL>]".into(),
        "    return".into(),
        "  }".into(),
        String::new(),
    ]
    .join("\n")
}

/// Ends the entry block with a diamond whose arms hand a buffer to the
/// join block's argument, and a loop through a back edge.
fn cf_tail(g: &mut Gen) {
    let Some(x) = g.pick() else { return };
    g.line(2, "cf.cond_br %flag, ^bb1, ^bb2");
    for (blk, pass_own) in [("^bb1", true), ("^bb2", false)] {
        g.text.push_str(&format!("  {blk}:\n"));
        g.scopes.push(Vec::new());
        g.budget = 2;
        g.stmt(2);
        let y = if pass_own { g.fresh(2) } else { x.clone() };
        g.line(2, &format!("cf.br ^bb3({y} : {UB})"));
        g.scopes.pop();
    }
    let m = g.name("m");
    g.text.push_str(&format!("  ^bb3({m}: {UB}):\n"));
    g.add(m.clone());
    // The passed buffer's last direct use, with the block argument read
    // after it: an in-place candidate only program order would allow.
    let op = *g.rng.pick(OPS);
    let k = g.name("b");
    g.line(2, &format!("{k} = memref.alloc() : {UB}"));
    g.line(2, &format!("hivm.hir.{op} ins({x}, {x} : {UB}, {UB}) outs({k} : {UB})"));
    g.barrier(2);
    g.add(k);
    g.budget = 2;
    g.stmt(2);
    g.store(2, &m);
    g.line(2, "cf.br ^bb4(%c0 : index)");
    let iv = g.name("n");
    g.text.push_str(&format!("  ^bb4({iv}: index):\n"));
    g.scopes.push(Vec::new());
    // A buffer from before the loop whose textually last use is here: the
    // back edge reads it again.
    if let Some(z) = g.pick() {
        let (op, k) = (*g.rng.pick(OPS), g.name("b"));
        g.line(2, &format!("{k} = memref.alloc() : {UB}"));
        g.line(2, &format!("hivm.hir.{op} ins({z}, {z} : {UB}, {UB}) outs({k} : {UB})"));
        g.barrier(2);
        g.add(k);
    }
    g.budget = 3;
    while g.budget > 0 {
        g.stmt(2);
    }
    // Buffers made in the loop block are remade each time round; the exit
    // block sees the last ones.
    let (n, p) = (g.name("n"), g.name("p"));
    g.line(2, &format!("{n} = arith.addi {iv}, %c1 : index"));
    g.line(2, &format!("{p} = arith.cmpi slt, {n}, %c2 : index"));
    g.line(2, &format!("cf.cond_br {p}, ^bb4({n} : index), ^bb5"));
    g.text.push_str("  ^bb5:\n");
}

/// The numbers kernel `seed` leaves in `%out` when run as `text`, or the
/// twin's reports.
fn run(text: &str, seed: u64) -> Result<Vec<u8>, String> {
    let mut args: Vec<ArgSpec> =
        (0..3u64).map(|i| ArgSpec::Array(Elem::F32, vec![64], super::kernels::gm_data(seed, i))).collect();
    args.push(ArgSpec::Array(Elem::F32, vec![1024], vec![0; 4096]));
    let mut rng = Rng(seed | 1);
    for _ in 0..2 {
        args.push(ArgSpec::Literal(rng.below(33).to_string()));
    }
    args.push(ArgSpec::Literal(if seed.is_multiple_of(2) { "1" } else { "0" }.into()));
    let opts = RunOptions {
        entry: Some("k".into()),
        impls: Vec::new(),
        args,
        blocks: 1,
        timeout: Duration::from_secs(20),
        progress: false,
        max_ops: 1_000_000,
        trace: false,
        sync_solver: false,
        part_alone: false,
    };
    let out = crate::run_source(text, "plan.mlir", Path::new("."), &opts);
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
    Ok(out.args.into_iter().flatten().map(|(_, _, bytes)| bytes).collect::<Vec<_>>().concat())
}

/// `text` after `hivm-plan-memory`, or its diagnostic.
pub fn plan(text: &str) -> Result<String, String> {
    plan_with(text, "hivm-plan-memory")
}

/// `text` after the pass given (with its options), or its diagnostic.
pub fn plan_with(text: &str, pass: &str) -> Result<String, String> {
    let mut ir = hivm_ir::Ir::new(std::sync::Arc::new(hivm_dialects::registry()));
    let module = hivm_ir::parser::Parser::new(&mut ir, text, "plan.mlir", 0)
        .parse_module()
        .map_err(|e| format!("the generated kernel does not parse (a tester bug): {e:?}"))?;
    let reg = hivm_transforms::pass_registry();
    let mut pm = hivm_ir::pass::PassManager::from_cli(&reg, &[pass.to_string()])?;
    pm.run(&mut ir, module, true).map_err(|d| d.message.clone())?;
    let options = hivm_ir::printer::PrintOptions { generic: false, debuginfo: false };
    Ok(hivm_ir::printer::print_top_level(&ir, module, options))
}

/// Runs kernel `seed` unplanned and planned; an error says what differed.
pub fn check(seed: u64) -> Result<Verdict, String> {
    let text = kernel(seed);
    // Unplanned, every alloc has bytes of its own, which big buffers would
    // not find: the reference keeps only their heads, all they hold.
    let reference = text.replace(&BIG[..16], "memref<64xf32");
    let expected =
        run(&reference, seed).map_err(|e| format!("the unplanned kernel fails (a tester bug):\n{e}\n{reference}"))?;
    // Every other big kernel shares places biggest first.
    let pass = if seed.is_multiple_of(6) {
        "hivm-plan-memory{plan-memory-strategy=largest-first}"
    } else {
        "hivm-plan-memory"
    };
    let planned = match plan_with(&text, pass) {
        Ok(p) => p,
        Err(e) if e.starts_with("ub overflow") => return Ok(Verdict::Overflow),
        Err(e) if e.contains("carries this buffer into a later iteration") && text.contains(":2 = scf.for") => {
            return Ok(Verdict::Refused);
        }
        Err(e) => return Err(format!("hivm-plan-memory fails: {e}\n{text}")),
    };
    match run(&planned, seed) {
        Ok(got) if got == expected => Ok(Verdict::Same),
        Ok(_) => Err(format!("different numbers after hivm-plan-memory\n{text}\n--- planned:\n{planned}")),
        Err(e) => Err(format!("the planned kernel fails:\n{e}\n{text}\n--- planned:\n{planned}")),
    }
}

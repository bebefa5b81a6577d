//! The interpreter: walks memref-level IR (func, arith, scf, cf, memref,
//! linalg.fill, affine.apply) and HIVM ops, one block of the kernel at a
//! time. Values live in a table indexed by SSA value; memrefs are views of
//! twin buffers. HIVM ops and intrinsics inside implementations run on
//! their pipes; scalar memory work outside them (loads, stores, copies,
//! fills) on PIPE_S, as the hardware's scalar unit does it. Calls of
//! functions are a full barrier (each function is synchronised on its own).

mod arith;
mod block_lock;
mod builtins;
mod compiled;
mod cube;
mod custom;
mod fast;
mod group_matmul;
mod hivm;
mod linalg;
mod linalg_body;
mod liveness;
mod math;
mod memref;
mod mix;
mod multi_buffer;
mod ownership;
mod placement;
mod ub_bounds;
mod ub_guard;
mod vector_ops;
mod write_guard;

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{BlockId, Ir, OpId, RegionId, Value};

use crate::memory::{BufId, Capacities, Memory, Space};
use crate::native::{Natives, Shared};
use crate::sync::SyncChecker;
use crate::value::{Elem, MemRefVal, Val};

pub use mix::{ABORTED, MixCore, Side, side_of};

/// An error at an op (rendered at its location).
#[derive(Debug)]
pub struct RunError {
    pub op: Option<OpId>,
    pub msg: String,
    pub notes: Vec<String>,
}

impl RunError {
    pub fn at(op: OpId, msg: impl Into<String>) -> RunError {
        RunError { op: Some(op), msg: msg.into(), notes: Vec::new() }
    }

    pub fn to_diagnostic(&self, ir: &Ir) -> Diagnostic {
        let loc = self.op.map(|o| ir.loc(o)).unwrap_or_else(|| ir.unknown_loc());
        let mut d = Diagnostic::error(loc, self.msg.clone());
        for n in &self.notes {
            d = d.with_note(loc, n.clone());
        }
        d
    }
}

pub type R<T> = Result<T, RunError>;

/// How a region's execution ended.
enum Flow {
    /// `scf.yield` or `scf.condition` (whose first operand is the
    /// condition): the op, whose operands the caller reads.
    Yield(OpId),
    /// `func.return`.
    Return(Vec<Val>),
}

/// Settings of a run.
#[derive(Clone)]
pub struct Config {
    /// Implementation sources given on the command line (else each op's `source`).
    pub impls: Vec<PathBuf>,
    /// Directory `source` attributes are relative to.
    pub base_dir: PathBuf,
    pub timeout: Duration,
    pub caps: Capacities,
    pub regbase: bool,
    /// The `hacc.target` named by the module (None: upstream's default, 910B).
    pub target: Option<String>,
    pub progress: bool,
    /// Record what every pipe does (`--trace`).
    pub trace: bool,
    /// Ops a run may execute before it is stopped (`--max-ops`).
    pub max_steps: u64,
    /// Scalar memory ops are a full barrier instead of PIPE_S work: in a
    /// tensor-level kernel, which the twin bufferized itself, they stand for
    /// the copies and fills the device compiler turns into pipe ops and
    /// synchronises.
    pub scalar_barriers: bool,
    /// `RunOptions::part_alone`.
    pub part_alone: bool,
}

pub struct Interp<'a> {
    pub ir: &'a Ir,
    vals: Vec<Val>,
    pub mem: Memory,
    pub sync: SyncChecker,
    pub config: Config,
    natives: Natives,
    shared: Option<Shared>,
    /// This block's on-chip memories and how much of each `memref.alloc` used.
    onchip: Vec<(Space, BufId, usize)>,
    /// Where the kernel's own `pointer_cast`s end in each on-chip memory:
    /// the twin places `memref.alloc`s above them (computed on first use).
    cast_floors: Option<Vec<(Space, usize)>>,
    /// The 950 generation's matmul library alternates its L0 half with a
    /// static of the core that lives across calls: its last value.
    l1mmad_ping: u32,
    /// Which buffer owns each on-chip byte (`ownership.rs`).
    owners: ownership::Owners,
    block: (i64, i64),
    /// Buffers from this id on were allocated by the running block.
    block_start: BufId,
    /// UB buffers the running block allocated (memref.alloc, pointer_cast),
    /// by the value that names them: its defining op and host byte range.
    ub_roots: HashMap<Value, (OpId, u64, u64)>,
    /// Entry points whose signature could not be checked (said once).
    unchecked: std::collections::HashSet<String>,
    /// Program order of functions, for the liveness of `ub_roots`.
    orders: HashMap<OpId, liveness::FuncOrder>,
    /// Names of GM buffers (kernel arguments), for reports.
    pub named: Vec<(u64, u64, String)>,
    steps: u64,
    /// Reused by loops to pass yielded values without allocating.
    scratch: Vec<Val>,
    /// Element type of each value, decoded once (0 = not yet).
    elems: Vec<u8>,
    /// Kind of each arith op, decoded once (0 = not yet).
    arith_codes: Vec<u8>,
    started: Instant,
    last_progress: Instant,
    depth: u32,
    /// Scalar loops compiled once (`compiled.rs`), or None when one cannot be.
    compiled: HashMap<OpId, Option<Rc<compiled::Program>>>,
    /// The compiled tier's registers, and the step count of its next check.
    regs: Vec<u64>,
    tick_limit: u64,
    compile_loops: bool,
    /// The current point of each running structured op's loops (innermost
    /// op last), for `linalg.index`.
    linalg_points: Vec<Vec<i64>>,
    /// Per function, the unspaced buffers that do not go to UB, and where
    /// they go (`placement.rs`).
    homes: HashMap<OpId, Rc<HashMap<Value, Space>>>,
    /// This block's buffers of the `memref.global`s it read.
    globals: HashMap<OpId, Rc<MemRefVal>>,
    /// Structured ops' bodies decoded once (`linalg_body.rs`), or None.
    bodies: HashMap<OpId, Option<Rc<linalg_body::Program>>>,
    /// Loop bodies whose runs are counted (multi-buffer counters and
    /// rotating `pointer_cast`s), and the counts of the running call.
    counted: multi_buffer::CountedBlocks,
    counters: multi_buffer::Counters,
    /// The cube unit's working copies of its operands, kept between ops so
    /// that their pages are touched once per run, not once per op.
    cube_scratch: cube::Scratch,
    /// In a mix kernel, the core this interpreter is (`mix.rs`).
    pub mix: Option<MixCore>,
    /// Lock variables made without memory of their own: one per op for the
    /// whole launch (`block_lock.rs`).
    locks: HashMap<OpId, Rc<MemRefVal>>,
    /// Where the running block is in its lock's ring.
    lock_phase: crate::sync::blocks::Phase,
    /// The kernel's lock variable (buffer and element), once used, and the
    /// block whose unlock wrote its value.
    lock_var: Option<(BufId, i64)>,
    lock_writer: Option<i64>,
}

impl<'a> Interp<'a> {
    pub fn new(ir: &'a Ir, config: Config) -> Interp<'a> {
        Interp {
            ir,
            vals: vec![Val::Undef; ir.value_count()],
            mem: Memory::default(),
            sync: SyncChecker::new(config.regbase),
            config,
            natives: Natives::default(),
            shared: None,
            onchip: Vec::new(),
            cast_floors: None,
            l1mmad_ping: 1,
            owners: ownership::Owners::default(),
            block: (0, 1),
            block_start: BufId::MAX,
            ub_roots: HashMap::new(),
            orders: HashMap::new(),
            unchecked: Default::default(),
            named: Vec::new(),
            steps: 0,
            scratch: Vec::new(),
            elems: vec![0; ir.value_count()],
            arith_codes: Vec::new(),
            started: Instant::now(),
            last_progress: Instant::now(),
            depth: 0,
            compiled: HashMap::new(),
            regs: Vec::new(),
            tick_limit: 0,
            compile_loops: std::env::var_os("HIVM_TWIN_INTERPRET").is_none_or(|v| v != "1"),
            linalg_points: Vec::new(),
            homes: HashMap::new(),
            globals: HashMap::new(),
            bodies: HashMap::new(),
            counted: Default::default(),
            counters: Default::default(),
            cube_scratch: Default::default(),
            mix: None,
            locks: HashMap::new(),
            lock_phase: Default::default(),
            lock_var: None,
            lock_writer: None,
        }
    }

    /// Sets up block `idx` of `num`: fresh on-chip memories and sync state.
    pub fn start_block(&mut self, idx: i64, num: i64) -> Result<(), String> {
        self.block = (idx, num);
        // The previous block's memories are gone with it: its on-chip
        // memories start over empty, its global allocations are unmapped.
        for id in self.block_start..self.mem.next_id() {
            if !self.onchip.iter().any(|(_, o, _)| *o == id) && !self.locks.values().any(|l| l.buf == id) {
                self.mem.free(id);
            }
        }
        if self.onchip.is_empty() {
            let caps = self.config.caps;
            for space in [Space::Ub, Space::L1, Space::L0a, Space::L0b, Space::L0c] {
                let id = self.mem.alloc(caps.of(space), space)?;
                self.onchip.push((space, id, 0));
            }
        } else {
            for (_, id, used) in &mut self.onchip {
                self.mem.get_mut(*id).clear();
                *used = 0;
            }
        }
        self.block_start = self.mem.next_id();
        self.ub_roots.clear();
        self.globals.clear();
        self.owners.clear();
        self.sync = SyncChecker::new(self.config.regbase);
        self.l1mmad_ping = 1;
        if self.config.trace {
            self.sync.timeline = Some(Vec::new());
        }
        for (space, id, _) in self.onchip.clone() {
            let b = self.mem.get(id);
            self.sync.name_region(b.addr(), b.len() as u64, space.to_string());
        }
        for (addr, len, name) in self.named.clone() {
            self.sync.name_region(addr, len, name);
        }
        self.lock_phase = Default::default();
        if num > 1 {
            // Checked against the other blocks' once it ends (kernel.rs).
            let gm = self.named.iter().map(|(a, n, _)| (*a, *n)).collect();
            self.sync.blocks = Some(crate::sync::blocks::BlockLog::new(gm));
        }
        if let Some(s) = &self.shared {
            s.reset_mask();
        }
        Ok(())
    }

    pub fn onchip(&self, space: Space) -> Option<BufId> {
        self.onchip.iter().find(|(s, _, _)| *s == space).map(|(_, b, _)| *b)
    }

    fn get(&self, v: Value) -> &Val {
        &self.vals[v.index()]
    }

    fn set(&mut self, v: Value, val: Val) {
        self.vals[v.index()] = val;
    }

    fn int(&self, v: Value) -> i64 {
        self.get(v).int()
    }

    /// The function holding `op`.
    fn enclosing_func(&self, op: OpId) -> Option<OpId> {
        let ir = self.ir;
        let mut f = ir.parent_op(op);
        while let Some(p) = f.filter(|p| !ir.is_op(*p, "func.func")) {
            f = ir.parent_op(p);
        }
        f
    }

    fn memref(&self, op: OpId, v: Value) -> R<Rc<MemRefVal>> {
        match self.get(v) {
            Val::Mem(m) => Ok(m.clone()),
            _ => Err(RunError::at(op, "expected a memref operand (tensors must be bufferized first)")),
        }
    }

    /// Runs `func` with `args`, returning its results.
    pub fn call_function(&mut self, func: OpId, args: Vec<Val>) -> R<Vec<Val>> {
        let ir = self.ir;
        let Some(&region) = ir.regions(func).first() else {
            return Err(RunError::at(func, "cannot run a function declaration"));
        };
        if ir.region_blocks(region).is_empty() {
            return Err(RunError::at(func, "cannot run a function declaration"));
        }
        self.depth += 1;
        if self.depth > 200 {
            return Err(RunError::at(func, "call depth exceeds 200 (unbounded recursion?)"));
        }
        let saved = self.enter_counters(func);
        let r = self.run_region(region, args);
        self.leave_counters(saved);
        self.depth -= 1;
        match r? {
            Flow::Return(v) => Ok(v),
            Flow::Yield(y) => Ok(self.operand_vals(y)),
        }
    }

    /// Runs a region from its entry block, following branches.
    fn run_region(&mut self, region: RegionId, args: Vec<Val>) -> R<Flow> {
        let ir = self.ir;
        let mut block = ir.region_blocks(region)[0];
        let mut args = args;
        loop {
            for (a, v) in ir.block_args(block).iter().zip(args.drain(..)) {
                self.set(*a, v);
            }
            match self.run_block(block)? {
                Step::Jump(b, a) => {
                    block = b;
                    args = a;
                }
                Step::Done(f) => return Ok(f),
            }
        }
    }

    fn run_block(&mut self, block: BlockId) -> R<Step> {
        let ir = self.ir;
        for op in ir.block_ops(block) {
            self.steps += 1;
            if self.steps.is_multiple_of(crate::interrupt::OPS) {
                self.periodic(op)?;
            }
            if self.steps > self.config.max_steps {
                return Err(max_ops_error(op, self.config.max_steps));
            }
            if let Some(s) = self.exec(op)? {
                return Ok(s);
            }
        }
        Err(RunError { op: ir.block_parent_op(block), msg: "block ended without a terminator".into(), notes: vec![] })
    }

    /// Every [`crate::interrupt::OPS`] ops: a progress line now and then,
    /// and a stop when the caller asked for one.
    pub(super) fn periodic(&mut self, op: OpId) -> R<()> {
        if self.config.progress && self.steps.is_multiple_of(1 << 20) {
            self.progress();
        }
        if crate::interrupt::requested() || self.sync.cross().is_some_and(|l| l.shared.stopped()) {
            return Err(RunError::at(op, INTERRUPTED));
        }
        Ok(())
    }

    fn progress(&mut self) {
        if self.last_progress.elapsed() >= Duration::from_secs(1) {
            self.last_progress = Instant::now();
            eprintln!(
                "hivm-run: block {}/{}: {} ops executed in {:.1} s",
                self.block.0 + 1,
                self.block.1,
                self.steps,
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    /// Runs the single block of a structured op's region with `args`.
    fn run_body(&mut self, region: RegionId, args: Vec<Val>) -> R<Vec<Val>> {
        match self.run_region(region, args)? {
            Flow::Return(v) => Ok(v),
            Flow::Yield(y) => Ok(self.operand_vals(y)),
        }
    }

    fn operand_vals(&self, op: OpId) -> Vec<Val> {
        self.ir.operands(op).iter().map(|v| self.get(*v).clone()).collect()
    }

    /// Executes one op; `Some` when it ends its block.
    fn exec(&mut self, op: OpId) -> R<Option<Step>> {
        let ir = self.ir;
        if self.mix.is_some() && !self.runs_here(op) {
            return Ok(None);
        }
        let name = ir.op_name(op);
        let dialect = match name.as_bytes().iter().position(|b| *b == b'.') {
            Some(i) => &name[..i],
            None => name,
        };
        match dialect {
            "arith" => self.arith(op, name)?,
            "math" => self.math(op, name)?,
            "linalg" if name == "linalg.yield" => return Ok(Some(Step::Done(Flow::Yield(op)))),
            "linalg" if name == "linalg.index" => self.linalg_index(op)?,
            "linalg" if name != "linalg.fill" => {
                self.check_ownership(op)?;
                self.structured(op)?
            }
            // hfusion's elementwise named ops (the hfusion stage of a kernel).
            "hfusion" if hivm_dialects::linalg::loops::is_named_elementwise(name) => {
                self.check_ownership(op)?;
                self.structured(op)?
            }
            // Loads, stores, copies and fills here are the scalar unit's
            // (PIPE_S) work; views and allocations touch no data.
            "memref" | "linalg" | "bufferization" | "tensor" => {
                if matches!(name, "memref.load" | "memref.store" | "memref.copy" | "linalg.fill") {
                    self.check_ownership(op)?;
                }
                self.memref_op(op, name)?
            }
            "hivm" => {
                self.check_ownership(op)?;
                self.hivm(op, name)?
            }
            "annotation" => {}
            "affine" if matches!(name, "affine.apply" | "affine.min" | "affine.max") => self.affine_apply(op, name)?,
            "func" => match name {
                "func.return" => return Ok(Some(Step::Done(Flow::Return(self.operand_vals(op))))),
                "func.call" => self.func_call(op)?,
                _ => return Err(unsupported(ir, op)),
            },
            "scf" => return self.scf(op, name),
            "cf" => return self.cf(op, name),
            _ => return Err(unsupported(ir, op)),
        }
        Ok(None)
    }

    fn func_call(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let callee = ir
            .get_attr(op, "callee")
            .and_then(|a| match ir.attr_data(a) {
                hivm_ir::AttrData::SymbolRef { root, .. } => Some(ir.sym_str(*root).to_string()),
                _ => None,
            })
            .ok_or_else(|| RunError::at(op, "call without a callee"))?;
        let module = ir.top_ancestor(op);
        let Some(f) = find_func(ir, module, &callee) else {
            return Err(RunError::at(op, format!("call of unknown function @{callee}")));
        };
        if ir.regions(f).first().is_none_or(|r| ir.region_blocks(*r).is_empty()) {
            return self.call_declaration(op, f, &callee);
        }
        let args = self.operand_vals(op);
        self.sync.full_barrier();
        let results = self.call_function(f, args)?;
        for (r, v) in ir.results(op).iter().zip(results) {
            self.set(*r, v);
        }
        Ok(())
    }

    /// `affine.apply` (one result), `affine.min` / `affine.max` (over all).
    fn affine_apply(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let map = ir.get_attr(op, "map").and_then(|a| match ir.attr_data(a) {
            hivm_ir::AttrData::AffineMap(m) => Some(m.clone()),
            _ => None,
        });
        let Some(map) = map else { return Err(RunError::at(op, "affine.apply without a map")) };
        let vals: Vec<i64> = ir.operands(op).iter().map(|v| self.int(*v)).collect();
        let (dims, syms) = vals.split_at((map.num_dims as usize).min(vals.len()));
        let results: Option<Vec<i64>> = map.results.iter().map(|e| e.eval(dims, syms)).collect();
        let r = results
            .and_then(|v| match name {
                "affine.min" => v.into_iter().min(),
                "affine.max" => v.into_iter().max(),
                _ => v.first().copied(),
            })
            .ok_or_else(|| RunError::at(op, "affine map cannot be evaluated (division by zero?)"))?;
        self.set(ir.result(op, 0), Val::Int(r));
        Ok(())
    }

    fn scf(&mut self, op: OpId, name: &str) -> R<Option<Step>> {
        let ir = self.ir;
        match name {
            "scf.yield" | "scf.condition" => return Ok(Some(Step::Done(Flow::Yield(op)))),
            "scf.for" => {
                if let Some(r) = self.run_compiled(op) {
                    r?;
                    return Ok(None);
                }
                let ops = ir.operands(op);
                let (lb, ub, step) = (self.int(ops[0]), self.int(ops[1]), self.int(ops[2]));
                if step <= 0 {
                    return Err(RunError::at(op, format!("scf.for step must be positive, got {step}")));
                }
                // The body's block arguments hold the loop state; yielded
                // values pass through a scratch list (a yield may swap them).
                let body = ir.region_blocks(ir.regions(op)[0])[0];
                let args = ir.block_args(body);
                for (a, v) in args[1..].iter().zip(&ops[3..]) {
                    let v = self.get(*v).clone();
                    self.set(*a, v);
                }
                let mut scratch = std::mem::take(&mut self.scratch);
                let mut i = lb;
                while i < ub {
                    self.set(args[0], Val::Int(i));
                    let y = match self.run_block(body)? {
                        Step::Done(Flow::Yield(y)) => y,
                        _ => return Err(RunError::at(op, "scf.for body must end in scf.yield")),
                    };
                    self.count_run(body);
                    scratch.clear();
                    scratch.extend(ir.operands(y).iter().map(|v| self.get(*v).clone()));
                    for (a, v) in args[1..].iter().zip(scratch.drain(..)) {
                        self.set(*a, v);
                    }
                    i += step;
                }
                self.scratch = scratch;
                for (r, a) in ir.results(op).iter().zip(&args[1..]) {
                    let v = self.get(*a).clone();
                    self.set(*r, v);
                }
            }
            "scf.if" => {
                let c = self.int(ir.operand(op, 0)) != 0;
                let regions = ir.regions(op);
                let region = if c { Some(regions[0]) } else { regions.get(1).copied() };
                let results = match region {
                    Some(r) if !ir.region_blocks(r).is_empty() => self.run_body(r, Vec::new())?,
                    _ => Vec::new(),
                };
                for (r, v) in ir.results(op).iter().zip(results) {
                    self.set(*r, v);
                }
            }
            "scf.while" => {
                let regions = ir.regions(op);
                let mut args = self.operand_vals(op);
                let block = |i: usize| ir.region_blocks(regions[i]).first().copied();
                loop {
                    let mut cond = self.run_body(regions[0], args)?;
                    if let Some(b) = block(0) {
                        self.count_run(b);
                    }
                    if cond.is_empty() {
                        return Err(RunError::at(op, "scf.while condition without a value"));
                    }
                    let c = cond.remove(0).int() != 0;
                    if !c {
                        for (r, v) in ir.results(op).iter().zip(cond) {
                            self.set(*r, v);
                        }
                        break;
                    }
                    args = self.run_body(regions[1], cond)?;
                    if let Some(b) = block(1) {
                        self.count_run(b);
                    }
                }
            }
            _ => return Err(unsupported(ir, op)),
        }
        Ok(None)
    }

    fn cf(&mut self, op: OpId, name: &str) -> R<Option<Step>> {
        let ir = self.ir;
        let succ = ir.successors(op);
        match name {
            "cf.br" => Ok(Some(Step::Jump(succ[0], self.operand_vals(op)))),
            "cf.cond_br" => {
                let seg = hivm_dialects::util::segments(ir, op);
                let vals = self.operand_vals(op);
                let (n_true, n_false) = (seg.get(1).copied().unwrap_or(0), seg.get(2).copied().unwrap_or(0));
                let c = vals[0].int() != 0;
                if c {
                    Ok(Some(Step::Jump(succ[0], vals[1..1 + n_true].to_vec())))
                } else {
                    Ok(Some(Step::Jump(succ[1], vals[1 + n_true..1 + n_true + n_false].to_vec())))
                }
            }
            "cf.assert" => {
                if self.int(ir.operand(op, 0)) == 0 {
                    let msg = ir.get_attr(op, "msg").and_then(|a| ir.as_str(a)).unwrap_or("assertion failed");
                    return Err(RunError::at(op, format!("cf.assert failed: {msg}")));
                }
                Ok(None)
            }
            _ => Err(unsupported(ir, op)),
        }
    }

    /// A fresh buffer for a memref type: on-chip types come out of this
    /// block's memory of that kind (overflow is an error), others from GM.
    fn alloc(&mut self, op: OpId, elem: Elem, sizes: Vec<i64>, space: Space) -> R<Rc<MemRefVal>> {
        let bytes = sizes
            .iter()
            .try_fold(elem.size() as i64, |a, d| a.checked_mul(*d))
            .filter(|b| *b >= 0 && *b < (1 << 40))
            .ok_or_else(|| RunError::at(op, format!("allocation of {sizes:?} elements is too large")))?
            as usize;
        if space == Space::Gm {
            // A mix kernel's cores share its GM buffers, but not the scalar
            // unit's stack (`memref.alloca`).
            if self.mix.is_some() && !self.ir.is_op(op, "memref.alloca") {
                return self.mix_gm_alloc(op, elem, sizes, bytes);
            }
            let buf = self.mem.alloc(bytes, Space::Gm).map_err(|e| RunError::at(op, e))?;
            return Ok(Rc::new(MemRefVal::contiguous(buf, elem, sizes)));
        }
        let cap = self.config.caps.of(space);
        let floors = self.cast_floors(op);
        let floor = floors.iter().find(|(s, _)| *s == space).map_or(0, |(_, e)| *e);
        let Some(slot) = self.onchip.iter_mut().find(|(s, _, _)| *s == space) else {
            return Err(RunError::at(op, format!("no {space} memory in this block")));
        };
        // Allocations are 32-byte aligned, as the hardware requires.
        let start = slot.2.max(floor).div_ceil(32) * 32;
        if start + bytes > cap {
            return Err(RunError::at(
                op,
                format!(
                    "{space} overflow: allocating {bytes} bytes at offset {start} exceeds the {cap} bytes of {space}"
                ),
            ));
        }
        slot.2 = start + bytes;
        let elem_off = (start / elem.size()) as i64;
        let mut m = MemRefVal::contiguous(slot.1, elem, sizes);
        m.offset = elem_off;
        Ok(Rc::new(m))
    }
}

impl Interp<'_> {
    /// Where allocations start in each on-chip memory: past the kernel's
    /// `pointer_cast` buffers (see `cast_floors`), and past those whose
    /// address was computed at run time once they have run.
    fn cast_floors(&mut self, op: OpId) -> &mut Vec<(Space, usize)> {
        let ir = self.ir;
        self.cast_floors.get_or_insert_with(|| cast_floors(ir, ir.top_ancestor(op)))
    }

    /// Notes a `pointer_cast` buffer ending at byte `end` of `space`.
    pub(super) fn raise_cast_floor(&mut self, op: OpId, space: Space, end: usize) {
        let floors = self.cast_floors(op);
        match floors.iter_mut().find(|(s, _)| *s == space) {
            Some((_, x)) => *x = (*x).max(end),
            None => floors.push((space, end)),
        }
    }
}

/// The end of the bytes each on-chip memory's `pointer_cast`s with
/// constant addresses (or ones folded from constants) and sizes cover,
/// anywhere under `root`. (One whose address is computed at run time
/// cannot be avoided in advance: allocations made after it has run avoid
/// it, and the ownership check reports any buffer placed over it.)
fn cast_floors(ir: &Ir, root: OpId) -> Vec<(Space, usize)> {
    let mut out: Vec<(Space, usize)> = Vec::new();
    ir.walk(root, &mut |o| {
        if !ir.is_op(o, "hivm.hir.pointer_cast") {
            return;
        }
        let t = ir.value_type(ir.result(o, 0));
        let space = space_of(ir, t);
        let hivm_ir::TypeData::MemRef { shape, elem, .. } = ir.type_data(t) else { return };
        let Some(e) = Elem::of(ir, *elem) else { return };
        let Some(bytes) = shape.iter().try_fold(e.size() as i64, |a, d| if *d >= 0 { a.checked_mul(*d) } else { None })
        else {
            return;
        };
        for v in hivm_dialects::util::segment(ir, o, 0) {
            if let Some(a) = folded_int(ir, *v, 8).filter(|a| *a >= 0) {
                let end = (a as usize).saturating_add(bytes as usize);
                match out.iter_mut().find(|(s, _)| *s == space) {
                    Some((_, x)) => *x = (*x).max(end),
                    None => out.push((space, end)),
                }
            }
        }
    });
    out
}

/// An integer computed from constants by a few arith ops (an address
/// written as `%base + %offset` of constants), `depth` ops deep at most.
fn folded_int(ir: &Ir, v: Value, depth: u32) -> Option<i64> {
    if let Some(c) = hivm_dialects::util::constant_int(ir, v) {
        return Some(c);
    }
    let op = ir.defining_op(v)?;
    if depth == 0 {
        return None;
    }
    let arg = |i: usize| folded_int(ir, *ir.operands(op).get(i)?, depth - 1);
    match ir.op_name(op) {
        "arith.addi" => arg(0)?.checked_add(arg(1)?),
        "arith.subi" => arg(0)?.checked_sub(arg(1)?),
        "arith.muli" => arg(0)?.checked_mul(arg(1)?),
        "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" => arg(0),
        _ => None,
    }
}

enum Step {
    Jump(BlockId, Vec<Val>),
    Done(Flow),
}

/// The error of a run stopped from outside (the caller raises its own).
pub const INTERRUPTED: &str = "interrupted";

fn max_ops_error(op: OpId, max: u64) -> RunError {
    RunError::at(op, format!("stopped after {max} ops (--max-ops); an endless loop?"))
}

fn unsupported(ir: &Ir, op: OpId) -> RunError {
    RunError::at(op, format!("'{}' is not supported by the CPU twin yet", ir.op_name(op)))
}

pub fn find_func(ir: &Ir, module: OpId, name: &str) -> Option<OpId> {
    let body = ir.regions(module).first()?;
    let block = *ir.region_blocks(*body).first()?;
    ir.block_ops(block)
        .find(|o| ir.is_op(*o, "func.func") && ir.get_attr(*o, "sym_name").and_then(|a| ir.as_str(a)) == Some(name))
}

/// The memory space of a memref type.
pub fn space_of(ir: &Ir, t: hivm_ir::Type) -> Space {
    match ir.type_data(t) {
        hivm_ir::TypeData::MemRef { memory_space: Some(a), .. } => {
            hivm_dialects::hivm::attrs::enum_value(ir, *a, "address_space")
                .and_then(Space::from_attr)
                .unwrap_or(Space::Gm)
        }
        _ => Space::Gm,
    }
}

//! In-place analysis: may a written tensor operand reuse its buffer?
//!
//! Writing into the buffer of `v` in place is a read-after-write conflict
//! when a value that already holds that buffer's contents is still read at or
//! after the writing op (MLIR's `hasReadAfterWriteInterference`, for
//! straight-line code). Values share a buffer through in-place writes: a DPS
//! result aliases its out when that out is in place. Ops are decided in
//! program order, keeping for every buffer the last position at which any of
//! its values is read, so the analysis is linear in the size of the function.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

const NONE: u32 = u32::MAX;

/// Index vectors reused across the functions of one pass run: a dense slot
/// per value of the function being analyzed and the schedule position per
/// op. Entries are cleared after each function, so many small functions
/// cost no more than one large one.
#[derive(Default)]
pub struct Scratch {
    value_slot: Vec<u32>,
    op_pos: Vec<u32>,
}

/// A map from the analyzed function's values to `T`, stored densely by slot.
struct ValueTable<'a, T> {
    slots: &'a [u32],
    data: Vec<Option<T>>,
}

impl<'a, T: Copy> ValueTable<'a, T> {
    fn new(slots: &'a [u32], len: usize) -> Self {
        ValueTable { slots, data: vec![None; len] }
    }

    fn slot(&self, v: Value) -> Option<usize> {
        self.slots.get(v.index()).copied().filter(|s| *s != NONE).map(|s| s as usize)
    }

    fn get(&self, v: &Value) -> Option<&T> {
        self.slot(*v).and_then(|s| self.data[s].as_ref())
    }

    fn contains_key(&self, v: &Value) -> bool {
        self.get(v).is_some()
    }

    fn insert(&mut self, v: Value, t: T) {
        let s = self.slot(v).expect("value of the analyzed function");
        self.data[s] = Some(t);
    }
}

impl<T: Copy> std::ops::Index<&Value> for ValueTable<'_, T> {
    type Output = T;
    fn index(&self, v: &Value) -> &T {
        self.get(v).expect("tensor value without a buffer")
    }
}

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{BlockId, Ir, OpId, Value, ValueDef};

use super::interface::{self, Kind};
use super::is_tensor;

pub struct Analysis {
    out_of_place: HashSet<(OpId, usize)>,
    /// (loop, result): the body yields a buffer of its own, not the
    /// iter_arg's; it is copied into the iter_arg's buffer before the yield
    /// (upstream's `allowReturnAllocsFromLoops`, with one buffer per iter_arg).
    pub yield_copies: HashSet<(OpId, usize)>,
    /// What the function does with its tensor arguments, for its callers.
    pub summary: Summary,
}

/// A bufferized function as its callers see it (function boundaries).
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Per argument: read through any alias.
    pub reads: Vec<bool>,
    /// Per argument: written in place.
    pub writes: Vec<bool>,
    /// Per result: the argument whose buffer it returns, if any.
    pub returns_arg: Vec<Option<usize>>,
}

/// The function a `func.call` calls.
pub fn callee(ir: &Ir, call: OpId) -> Option<String> {
    ir.get_attr(call, "callee").and_then(|a| match ir.attr_data(a) {
        hivm_ir::AttrData::SymbolRef { root, .. } => Some(ir.sym_str(*root).to_string()),
        _ => None,
    })
}

/// A buffer being tracked: where it comes from and its values' last read.
struct Buffer {
    writable: bool,
    last_read: usize,
    /// Some value of it is read / it is written in place.
    read: bool,
    written: bool,
}

/// One step of the analysis: ops in post-order (an `scf.if` or `scf.for`
/// after its body), and for a loop also a step before its body, where its
/// iter_args are decided.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Step {
    Enter(OpId),
    Op(OpId),
}

/// The steps for the ops of a function body, in the order both the analysis
/// and the rewrite take them.
pub fn schedule(ir: &Ir, ops: &[OpId]) -> Vec<Step> {
    fn visit(ir: &Ir, op: OpId, out: &mut Vec<Step>) {
        if ir.is_op(op, "scf.for") || ir.is_op(op, "scf.while") {
            out.push(Step::Enter(op));
        }
        for &r in ir.regions(op) {
            for &b in ir.region_blocks(r) {
                for o in ir.block_ops(b) {
                    visit(ir, o, out);
                }
            }
        }
        out.push(Step::Op(op));
    }
    let mut out = Vec::new();
    for &op in ops {
        visit(ir, op, &mut out);
    }
    out
}

/// The ops enclosing the definition of `v`, innermost first.
fn def_ancestors(ir: &Ir, v: Value) -> Vec<OpId> {
    let mut cur = match ir.value_def(v) {
        ValueDef::Result { op, .. } => ir.parent_op(op),
        ValueDef::BlockArg { block, .. } => ir.block_parent_op(block),
        ValueDef::Placeholder => None,
    };
    let mut out = Vec::new();
    while let Some(a) = cur {
        out.push(a);
        cur = ir.parent_op(a);
    }
    out
}

struct State<'a> {
    ir: &'a Ir,
    an: Analysis,
    buffers: Vec<Buffer>,
    buffer_of: ValueTable<'a, usize>,
    /// Values that are a whole buffer (not a slice or reshape of one): only
    /// those can be equivalent to a loop's iter_arg.
    whole: ValueTable<'a, ()>,
    last_read: ValueTable<'a, usize>,
    summaries: &'a HashMap<String, Summary>,
    /// Per loop, the first buffer its body made (buffers after it are the body's own).
    body_buffers: HashMap<OpId, usize>,
}

impl State<'_> {
    fn read_at(&self, v: Value) -> usize {
        self.last_read.get(&v).copied().unwrap_or(0)
    }

    fn new_buffer(&mut self, v: Value, writable: bool) {
        let read = self.last_read.contains_key(&v);
        self.buffers.push(Buffer { writable, last_read: self.read_at(v), read, written: false });
        self.buffer_of.insert(v, self.buffers.len() - 1);
        self.whole.insert(v, ());
    }

    /// `v` shares buffer `b`; its reads are reads of `b`.
    fn alias(&mut self, v: Value, b: usize, whole: bool) {
        let r = self.read_at(v);
        self.buffers[b].last_read = self.buffers[b].last_read.max(r);
        self.buffers[b].read |= self.last_read.contains_key(&v);
        self.buffer_of.insert(v, b);
        if whole {
            self.whole.insert(v, ());
        }
    }

    /// Whether `u` and `v` are the same whole buffer.
    fn equivalent(&self, u: Value, v: Value) -> bool {
        self.whole.contains_key(&u) && self.whole.contains_key(&v) && self.buffer_of.get(&u) == self.buffer_of.get(&v)
    }

    fn dps(&mut self, op: OpId, p: usize) {
        let ir = self.ir;
        for i in interface::dps_outs(ir, op) {
            let v = ir.operand(op, i);
            if !is_tensor(ir, v) {
                continue;
            }
            let b = self.buffer_of[&v];
            let in_place = interface::must_be_in_place(ir, op, i)
                || (self.buffers[b].writable
                    && self.buffers[b].last_read <= p
                    && !ir.operands(op).iter().enumerate().any(|(j, w)| {
                        interface::reads(ir, op, j)
                            && is_tensor(ir, *w)
                            && self.buffer_of.get(w) == Some(&b)
                            && !interface::not_conflicting(ir, op, j, i)
                            // Reading and writing one whole buffer elementwise.
                            && !(interface::elementwise_access(ir, op, j, i) && (*w == v || self.equivalent(*w, v)))
                    }));
            let r = ir.result(op, i - interface::dps_outs(ir, op).start);
            if in_place {
                self.buffers[b].written = true;
                let whole = self.whole.contains_key(&v);
                self.alias(r, b, whole);
            } else {
                self.an.out_of_place.insert((op, i));
                self.new_buffer(r, true);
            }
        }
    }

    /// A call of a bufferized function: an operand the callee writes is
    /// passed in place when its buffer may be written then, else a copy; a
    /// result the callee returns as an argument is that operand's buffer.
    fn call(&mut self, op: OpId, p: usize) {
        let ir = self.ir;
        let Some(s) = callee(ir, op).and_then(|c| self.summaries.get(&c)).cloned() else { return };
        let ops = ir.operands(op).to_vec();
        let mut passed: Vec<Option<usize>> = vec![None; ops.len()];
        for (i, &v) in ops.iter().enumerate() {
            if !is_tensor(ir, v) {
                continue;
            }
            let b = self.buffer_of[&v];
            if !s.writes.get(i).copied().unwrap_or(false) {
                passed[i] = Some(b);
                continue;
            }
            let shared =
                ops.iter().enumerate().any(|(j, w)| j != i && is_tensor(ir, *w) && self.buffer_of.get(w) == Some(&b));
            if self.buffers[b].writable && self.buffers[b].last_read <= p && !shared {
                self.buffers[b].written = true;
                passed[i] = Some(b);
            } else {
                self.an.out_of_place.insert((op, i));
                self.buffers.push(Buffer { writable: true, last_read: 0, read: false, written: true });
                passed[i] = Some(self.buffers.len() - 1);
            }
        }
        for (j, &r) in ir.results(op).iter().enumerate() {
            if !is_tensor(ir, r) {
                continue;
            }
            match s.returns_arg.get(j).copied().flatten().and_then(|i| passed.get(i).copied().flatten()) {
                Some(b) => self.alias(r, b, true),
                None => self.new_buffer(r, true),
            }
        }
    }

    /// Before a loop's body: an iter_arg reuses its init's buffer unless that
    /// buffer is read-only or read (through any alias) once the loop starts.
    fn enter_for(&mut self, op: OpId, p: usize) {
        let ir = self.ir;
        let body = ir.regions(op)[0];
        let Some(&block) = ir.region_blocks(body).first() else { return };
        // scf.for: iter_args follow the induction variable, inits the bounds;
        // scf.while: the before region's arguments take the operands.
        let (skip, first) = if ir.is_op(op, "scf.while") { (0, 0) } else { (1, 3) };
        for (k, &arg) in ir.block_args(block).iter().enumerate().skip(skip) {
            let i = first + k - skip;
            let init = ir.operand(op, i);
            if !is_tensor(ir, init) {
                continue;
            }
            let b = self.buffer_of[&init];
            if self.buffers[b].writable && self.buffers[b].last_read < p && self.whole.contains_key(&init) {
                self.alias(arg, b, true);
            } else {
                self.an.out_of_place.insert((op, i));
                self.new_buffer(arg, true);
            }
        }
        self.body_buffers.insert(op, self.buffers.len());
    }

    /// `scf.condition` of an `scf.while`: each forwarded tensor must be the
    /// before region's argument buffer; the after region's arguments are it.
    fn condition(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let ir = self.ir;
        let Some(w) = ir.parent_op(op).filter(|w| ir.is_op(*w, "scf.while")) else { return Ok(()) };
        let before = ir.region_blocks(ir.regions(w)[0])[0];
        let after = ir.regions(w).get(1).and_then(|r| ir.region_blocks(*r).first().copied());
        for (k, &v) in ir.operands(op).iter().enumerate().skip(1) {
            if !is_tensor(ir, v) {
                continue;
            }
            let arg = ir.block_args(before).get(k - 1).copied();
            if !arg.is_some_and(|a| self.equivalent(a, v)) {
                let msg = format!("Condition arg #{} is not equivalent to the corresponding iter bbArg", k - 1);
                return Err(hivm_ir::verifier::plain_error(ir, op, &msg));
            }
            let b = self.buffer_of[&v];
            if let Some(a) = after.and_then(|blk| ir.block_args(blk).get(k - 1).copied()) {
                self.alias(a, b, true);
            }
        }
        Ok(())
    }

    /// After an `scf.while`: the after region yields each before argument's
    /// buffer back; the results are those buffers.
    fn exit_while(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let ir = self.ir;
        let before = ir.region_blocks(ir.regions(op)[0])[0];
        if let Some(after) = ir.regions(op).get(1).and_then(|r| ir.region_blocks(*r).first().copied())
            && let Some(y) = ir.terminator(after)
        {
            for (k, &v) in ir.operands(y).iter().enumerate() {
                if !is_tensor(ir, v) {
                    continue;
                }
                let arg = ir.block_args(before).get(k).copied();
                if !arg.is_some_and(|a| self.equivalent(a, v)) {
                    let msg = format!("Yield operand #{k} is not equivalent to the corresponding iter bbArg");
                    return Err(hivm_ir::verifier::plain_error(ir, y, &msg));
                }
            }
        }
        for (k, &r) in ir.results(op).iter().enumerate() {
            if is_tensor(ir, r) {
                let Some(&arg) = ir.block_args(before).get(k) else { continue };
                let b = self.buffer_of[&arg];
                self.alias(r, b, true);
            }
        }
        Ok(())
    }

    /// After a loop: each yielded tensor must be its iter_arg's buffer (as
    /// upstream requires); the result is that buffer.
    fn exit_for(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let ir = self.ir;
        let Some(&block) = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()) else { return Ok(()) };
        let Some(y) = ir.terminator(block) else { return Ok(()) };
        for (k, &r) in ir.results(op).iter().enumerate() {
            if !is_tensor(ir, r) {
                continue;
            }
            let arg = ir.block_args(block)[k + 1];
            let yielded = ir.operand(y, k);
            if !self.equivalent(arg, yielded) {
                // A buffer the body made for itself is copied back; anything
                // else (another iter_arg's buffer, an outside one) could be
                // overwritten before it is read.
                let first = self.body_buffers.get(&op).copied().unwrap_or(usize::MAX);
                let own = self.buffer_of.get(&yielded).is_some_and(|b| *b >= first);
                if !own {
                    let msg = format!("Yield operand #{k} is not equivalent to the corresponding iter bbArg");
                    return Err(hivm_ir::verifier::plain_error(ir, y, &msg));
                }
                self.an.yield_copies.insert((op, k));
            }
            let b = self.buffer_of[&arg];
            self.alias(r, b, true);
        }
        Ok(())
    }

    /// An `scf.if` result is its branches' buffer when they all yield the
    /// same one; otherwise a new read-only buffer whose reads count for every
    /// branch's.
    fn exit_if(&mut self, op: OpId) {
        let ir = self.ir;
        for (k, &r) in ir.results(op).iter().enumerate() {
            if !is_tensor(ir, r) {
                continue;
            }
            let yielded: Vec<Value> = branch_yields(ir, op).iter().map(|y| ir.operand(*y, k)).collect();
            if yielded.len() > 1 && yielded.windows(2).all(|w| self.equivalent(w[0], w[1])) {
                self.alias(r, self.buffer_of[&yielded[0]], true);
                continue;
            }
            for v in yielded {
                let b = self.buffer_of[&v];
                let rr = self.read_at(r);
                self.buffers[b].last_read = self.buffers[b].last_read.max(rr);
            }
            self.new_buffer(r, false);
        }
    }
}

impl Analysis {
    pub fn in_place(&self, op: OpId, operand: usize) -> bool {
        !self.out_of_place.contains(&(op, operand))
    }

    /// `writable_args`: whether the function's arguments may be written in
    /// place (with function-boundary bufferization), else they are read-only.
    pub fn run(
        ir: &Ir,
        entry: BlockId,
        steps: &[Step],
        writable_args: &[bool],
        summaries: &HashMap<String, Summary>,
        scratch: &mut Scratch,
    ) -> Result<Analysis, Diagnostic> {
        check_supported(ir, entry, steps)?;
        if scratch.value_slot.len() < ir.value_count() {
            scratch.value_slot.resize(ir.value_count(), NONE);
        }
        if scratch.op_pos.len() < ir.op_arena_len() {
            scratch.op_pos.resize(ir.op_arena_len(), NONE);
        }
        // The function's values: the entry's arguments, and the results and
        // block arguments of every op the schedule visits.
        let mut values: Vec<Value> = ir.block_args(entry).to_vec();
        for (i, step) in steps.iter().enumerate() {
            let Step::Op(op) = *step else { continue };
            scratch.op_pos[op.index()] = i as u32;
            values.extend(ir.results(op));
            for &r in ir.regions(op) {
                for &b in ir.region_blocks(r) {
                    values.extend(ir.block_args(b));
                }
            }
        }
        for (i, v) in values.iter().enumerate() {
            scratch.value_slot[v.index()] = i as u32;
        }
        let result = Self::analyze(ir, entry, steps, writable_args, summaries, scratch, values.len());
        for v in &values {
            scratch.value_slot[v.index()] = NONE;
        }
        for step in steps {
            if let Step::Op(op) = *step {
                scratch.op_pos[op.index()] = NONE;
            }
        }
        result
    }

    fn analyze(
        ir: &Ir,
        entry: BlockId,
        steps: &[Step],
        writable_args: &[bool],
        summaries: &HashMap<String, Summary>,
        scratch: &Scratch,
        n_values: usize,
    ) -> Result<Analysis, Diagnostic> {
        let slots = &scratch.value_slot[..];
        let pos_of = |op: OpId| scratch.op_pos.get(op.index()).copied().filter(|p| *p != NONE).map(|p| p as usize);
        // A read inside a loop happens, as far as writes elsewhere in the
        // loop are concerned, for as long as the loop runs: up to the end of
        // the outermost loop that does not also enclose the value's
        // definition (an iter_arg is fresh in each iteration).
        let read_pos = |op: OpId, v: Value| {
            let mut p = pos_of(op).expect("a scheduled op");
            let mut defs = None;
            let mut cur = ir.parent_op(op);
            while let Some((a, a_pos)) = cur.and_then(|a| pos_of(a).map(|q| (a, q))) {
                if defs.get_or_insert_with(|| def_ancestors(ir, v)).contains(&a) {
                    break;
                }
                if !ir.is_op(a, "scf.if") {
                    p = p.max(a_pos);
                }
                cur = ir.parent_op(a);
            }
            p
        };
        let mut last_read: ValueTable<usize> = ValueTable::new(slots, n_values);
        for step in steps {
            let Step::Op(op) = *step else { continue };
            // The area a matched insert_slice reads is outside the slice written.
            let matched = ir.is_op(op, "tensor.insert_slice") && interface::matched_insert_slice(ir, op);
            let call = (ir.is_op(op, "func.call")).then(|| callee(ir, op).and_then(|c| summaries.get(&c))).flatten();
            for (j, &v) in ir.operands(op).iter().enumerate() {
                let reads = match call {
                    Some(s) => s.reads.get(j).copied().unwrap_or(true),
                    None => interface::reads(ir, op, j),
                };
                if is_tensor(ir, v) && reads && !(matched && j == 1) {
                    let p = read_pos(op, v);
                    let seen = last_read.get(&v).copied();
                    last_read.insert(v, seen.map_or(p, |q| q.max(p)));
                }
            }
        }
        // A view's reads are reads of its source: a write into the source
        // before the view is made must see them (e.g. two fills of one
        // `tensor.empty`, the first read later only through a reshape).
        for step in steps.iter().rev() {
            let Step::Op(op) = *step else { continue };
            if !matches!(interface::kind(ir, op), Some(Kind::ExtractSlice | Kind::Reshape | Kind::Cast)) {
                continue;
            }
            let (src, view) = (ir.operand(op, 0), ir.result(op, 0));
            if let Some(&r) = last_read.get(&view) {
                let seen = last_read.get(&src).copied();
                last_read.insert(src, seen.map_or(r, |q| q.max(r)));
            }
        }
        let mut st = State {
            ir,
            an: Analysis {
                out_of_place: HashSet::default(),
                yield_copies: HashSet::default(),
                summary: Summary::default(),
            },
            buffers: Vec::new(),
            buffer_of: ValueTable::new(slots, n_values),
            whole: ValueTable::new(slots, n_values),
            last_read,
            summaries,
            body_buffers: HashMap::default(),
        };
        for (k, &arg) in ir.block_args(entry).iter().enumerate() {
            if is_tensor(ir, arg) {
                st.new_buffer(arg, writable_args.get(k).copied().unwrap_or(false));
            }
        }
        for (p, &step) in steps.iter().enumerate() {
            let op = match step {
                Step::Enter(op) => {
                    st.enter_for(op, p);
                    continue;
                }
                Step::Op(op) => op,
            };
            match interface::kind(ir, op) {
                Some(Kind::If) => st.exit_if(op),
                Some(Kind::For) if ir.is_op(op, "scf.while") => st.exit_while(op)?,
                Some(Kind::For) => st.exit_for(op)?,
                Some(Kind::Condition) => st.condition(op)?,
                Some(Kind::Dps) => st.dps(op, p),
                Some(Kind::Call) => st.call(op, p),
                kind => {
                    for &r in ir.results(op) {
                        if !is_tensor(ir, r) {
                            continue;
                        }
                        match kind {
                            Some(Kind::ToTensor) => st.new_buffer(r, ir.has_attr(op, "writable")),
                            // A constant's global is never written.
                            Some(Kind::Constant) => st.new_buffer(r, false),
                            // A view: its reads are reads of the source's buffer.
                            Some(Kind::ExtractSlice) | Some(Kind::Reshape) => {
                                let b = st.buffer_of[&ir.operand(op, 0)];
                                st.alias(r, b, false);
                            }
                            // The same buffer, seen with another static shape.
                            Some(Kind::Cast) => {
                                let src = ir.operand(op, 0);
                                let b = st.buffer_of[&src];
                                let whole = st.whole.contains_key(&src);
                                st.alias(r, b, whole);
                            }
                            _ => st.new_buffer(r, true),
                        }
                    }
                }
            }
        }
        // What callers need to know.
        let args = ir.block_args(entry);
        let arg_buffer: Vec<Option<usize>> = args.iter().map(|a| st.buffer_of.get(a).copied()).collect();
        st.an.summary.reads = arg_buffer.iter().map(|b| b.is_some_and(|b| st.buffers[b].read)).collect();
        st.an.summary.writes = arg_buffer.iter().map(|b| b.is_some_and(|b| st.buffers[b].written)).collect();
        if let Some(ret) = ir.terminator(entry).filter(|t| ir.is_op(*t, "func.return")) {
            st.an.summary.returns_arg = ir
                .operands(ret)
                .iter()
                .map(|v| {
                    let b = st.buffer_of.get(v).copied().filter(|_| st.whole.contains_key(v))?;
                    args.iter().position(|a| st.whole.contains_key(a) && st.buffer_of.get(a) == Some(&b))
                })
                .collect();
        }
        Ok(st.an)
    }
}

/// The `scf.yield`s ending the branches of an `scf.if`.
pub fn branch_yields(ir: &Ir, op: OpId) -> Vec<OpId> {
    ir.regions(op)
        .iter()
        .filter_map(|r| ir.region_blocks(*r).first().and_then(|b| ir.terminator(*b)))
        .filter(|t| ir.is_op(*t, "scf.yield"))
        .collect()
}

/// Every op touching tensors must be one we know, outside regions other
/// than `scf.if` and `scf.for` bodies.
fn check_supported(ir: &Ir, entry: BlockId, steps: &[Step]) -> Result<(), Diagnostic> {
    let func = ir.block_parent_op(entry);
    for step in steps {
        let Step::Op(op) = *step else { continue };
        let touches = ir.operands(op).iter().chain(ir.results(op)).any(|v| is_tensor(ir, *v));
        if !touches {
            continue;
        }
        let mut in_other_region = false;
        let mut cur = ir.parent_op(op);
        while let Some(a) = cur.filter(|a| Some(*a) != func) {
            in_other_region |= !ir.is_op(a, "scf.if") && !ir.is_op(a, "scf.for") && !ir.is_op(a, "scf.while");
            cur = ir.parent_op(a);
        }
        if interface::kind(ir, op).is_none() || in_other_region {
            let why = if in_other_region { "uses tensors inside a region" } else { "has tensor operands or results" };
            return Err(super::unsupported(ir, op, why));
        }
    }
    Ok(())
}

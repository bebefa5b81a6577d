//! Custom ops: the user's implementation, compiled for the host and called
//! through the `_mlir_ciface_` ABI in a child process; its intrinsics'
//! trace is fed to the sync checker, and a `custom_macro`'s handshakes are
//! compared with its declared `sync_event_slots`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hivm_dialects::hivm::attrs::MacroSync;
use hivm_dialects::hivm::custom;
use hivm_ir::OpId;

use super::{Interp, R, RunError};
use crate::native::{self, Arg, CallError, Region, Shared};
use crate::signature::{self, Mlir, Passed, Signature};
use crate::sync::{self, Class, Report, Site};
use crate::value::{Elem, Val};

/// What a call passes: operands with their names (`ins[0]`, ...), then
/// plain integers (a macro's event ids), and a summary for messages.
struct CallArgs<'a> {
    operands: &'a [hivm_ir::Value],
    names: &'a [String],
    extra: &'a [i64],
    counts: String,
}

impl Interp<'_> {
    /// The implementation's parameters (from its debug information) against
    /// what the op passes. Where no debug information describes the entry
    /// (a prebuilt object), says so once and carries on.
    fn check_signature(&mut self, op: OpId, what: &str, entry: &str, sources: &[PathBuf], args: &CallArgs) -> R<()> {
        let ir = self.ir;
        let sig = self.natives.signature(sources, entry).map_err(|e| RunError::at(op, e))?;
        let params = match &*sig {
            Signature::Params(p) => p,
            Signature::Open => return Ok(()),
            Signature::Unknown => {
                if self.unchecked.insert(entry.to_string()) {
                    let files: Vec<String> = sources.iter().map(|s| s.display().to_string()).collect();
                    self.sync.reports.push(Report {
                        class: Class::Warning,
                        site: Site { op: Some(op), detail: None },
                        message: format!(
                            "{what}: the signature check was skipped: no debug information describes {entry} in {} \
                             (build it with -g to have it checked)",
                            files.join(", ")
                        ),
                        other: None,
                    });
                }
                return Ok(());
            }
        };
        let mut passed = Vec::new();
        for (v, name) in args.operands.iter().zip(args.names) {
            let t = ir.value_type(*v);
            let (memref, elem) = match ir.type_data(t) {
                hivm_ir::TypeData::MemRef { shape, elem, .. } => (Some(shape.len() as u64), *elem),
                _ => (None, t),
            };
            passed.push(Passed {
                name: name.clone(),
                mlir: hivm_ir::printer::type_to_string(ir, t),
                memref,
                elem: Mlir::of(ir, elem),
                optional: false,
            });
        }
        for i in 0..args.extra.len() {
            passed.push(Passed {
                name: format!("sync arg {i}"),
                mlir: "i64".into(),
                memref: None,
                elem: Mlir::Int { bits: 64, signedness: hivm_ir::types::Signedness::Signless },
                optional: true,
            });
        }
        signature::compare(params, &passed, &args.counts).map_err(|e| RunError::at(op, format!("{what}: {e}")))
    }

    fn implementation_sources(&self, op: OpId) -> R<Vec<PathBuf>> {
        if !self.config.impls.is_empty() {
            return Ok(self.config.impls.clone());
        }
        let ir = self.ir;
        match ir.get_attr(op, "source").and_then(|a| ir.as_str(a)) {
            Some(s) => {
                let p = PathBuf::from(s);
                let p = if p.is_absolute() { p } else { self.config.base_dir.join(p) };
                crate::cache::check_source(&p).map_err(|e| {
                    RunError::at(
                        op,
                        format!(
                            "custom op '{}': cannot use its `source` attribute \"{s}\" ({}): {e}",
                            custom::name(ir, op),
                            p.display()
                        ),
                    )
                })?;
                Ok(vec![p])
            }
            None => Err(RunError::at(
                op,
                format!(
                    "custom op '{}' has no implementation to run: pass --impl FILE or give the op a `source` attribute",
                    custom::name(ir, op)
                ),
            )),
        }
    }

    /// `align_dim` entries of `arg_attrs`, checked as upstream's
    /// hivm-mark-stride-align checks them before the NPU build marks the
    /// operand's stride: entry i is about operand i, a memref whose rank
    /// the dim must be within.
    fn check_align_dims(&self, op: OpId) -> R<()> {
        let ir = self.ir;
        let Some(arr) = ir.get_attr(op, "arg_attrs").and_then(|a| ir.as_array(a)) else { return Ok(()) };
        let operands = ir.operands(op);
        for i in 0..arr.len() {
            let Some(a) = custom::arg_attr(ir, op, i, "align_dim") else { continue };
            let what = format!("custom op '{}': arg_attrs[{i}] align_dim", custom::name(ir, op));
            let Some(d) = ir.as_int(a) else {
                return Err(RunError::at(op, format!("{what} must be an integer")));
            };
            let Some(v) = operands.get(i) else {
                return Err(RunError::at(op, format!("{what}: the op has only {} operands", operands.len())));
            };
            let t = ir.value_type(*v);
            if let hivm_ir::TypeData::MemRef { shape, .. } = ir.type_data(t)
                && (d < 0 || d > shape.len() as i128 - 1)
            {
                let t = hivm_ir::printer::type_to_string(ir, t);
                let why = if d < 0 { "a dim is not negative" } else { "align dim is too large." };
                return Err(RunError::at(op, format!("{what} = {d} of operand #{i} ({t}): {why}")));
            }
        }
        Ok(())
    }

    pub(super) fn custom(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let name = custom::name(ir, op).to_string();
        self.check_align_dims(op)?;
        if custom::builtin(ir, op).is_some() {
            return self.builtin(op);
        }
        let symbol = custom::symbol(ir, op)
            .ok_or_else(|| RunError::at(op, format!("custom op '{name}' has no `symbol`")))?
            .to_string();
        let entry = format!("_mlir_ciface_{symbol}");
        let sources = self.implementation_sources(op)?;
        // Descriptors by pointer: ins, outs, tmps, then the sync args.
        let mut operands = Vec::new();
        let mut names = Vec::new();
        for (group, vals) in
            [("ins", custom::ins(ir, op)), ("outs", custom::outs(ir, op)), ("tmps", custom::tmps(ir, op))]
        {
            for (i, v) in vals.iter().enumerate() {
                operands.push(*v);
                names.push(format!("{group}[{i}]"));
            }
        }
        let events = self.macro_events(op)?;
        let what = format!("custom op '{name}'");
        let counts = format!(
            "ins: {}, outs: {}, tmps: {}, sync args: {}",
            custom::ins(ir, op).len(),
            custom::outs(ir, op).len(),
            custom::tmps(ir, op).len(),
            events.len()
        );
        let args = CallArgs { operands: &operands, names: &names, extra: &events, counts };
        let before = self.gm_snapshot(custom::outs(ir, op));
        let trace = self.native_call(op, &what, &entry, &sources, &args)?;
        self.replay(op, &trace);
        let pipes = custom::pipes(ir, op);
        let pout = pipes.last().and_then(|p| sync::pipe_index(p)).unwrap_or(sync::S);
        self.log_changed(op, pout, before);
        if custom::is_macro(ir, op) {
            self.check_macro(op, &name, &trace, &events);
        }
        Ok(())
    }

    /// The event ids a macro is given for its sync slots: its
    /// `sync_related_args`, or, where no sync solver filled them in, ids the
    /// twin assigns as the solver would: pinned ones as pinned, the others
    /// the lowest free id of their pipe pair.
    fn macro_events(&self, op: OpId) -> R<Vec<i64>> {
        let ir = self.ir;
        let args = custom::sync_args(ir, op);
        if !args.is_empty() || !custom::is_macro(ir, op) {
            return Ok(args.iter().map(|v| self.int(*v)).collect());
        }
        let slots = custom::sync_event_slots(ir, op);
        // A slot without pipes is between the macro's in and out pipes.
        let pipes = custom::pipes(ir, op);
        let default = (pipes[0].to_string(), pipes.get(1).unwrap_or(&pipes[0]).to_string());
        let pair = |s: &hivm_dialects::hivm::attrs::SyncEventSlot| s.pipes.clone().unwrap_or_else(|| default.clone());
        let mut taken: BTreeMap<(String, String), Vec<i64>> = BTreeMap::new();
        for s in &slots {
            if let Some(e) = s.event {
                taken.entry(pair(s)).or_default().push(e as i64);
            }
        }
        let mut ids = Vec::new();
        for s in &slots {
            let id = match s.event {
                Some(e) => e as i64,
                None => {
                    let used = taken.entry(pair(s)).or_default();
                    let free = (0..8).find(|i| !used.contains(i)).ok_or_else(|| {
                        RunError::at(
                            op,
                            "more than eight sync slots on one pipe pair: the hardware has eight event ids",
                        )
                    })?;
                    used.push(free);
                    free
                }
            };
            ids.push(id);
        }
        Ok(ids)
    }

    /// `func.call` of a declaration, as in kernels already lowered by
    /// `convert-hivm-to-std`: the implementation's `_mlir_ciface_` entry
    /// (the declaration carries `llvm.emit_c_interface`) is called with the
    /// call's operands. Without intrinsic accesses to go by, the call counts
    /// as fully synchronised, as code outside HIVM ops does.
    pub(super) fn call_declaration(&mut self, op: OpId, callee: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        if !ir.has_attr(callee, "llvm.emit_c_interface") {
            return Err(RunError::at(
                op,
                format!(
                    "@{name} is a declaration without llvm.emit_c_interface: the CPU twin calls C entry points only"
                ),
            ));
        }
        if !ir.results(op).is_empty() {
            return Err(RunError::at(
                op,
                format!("calls of @{name} with results are not supported by the CPU twin yet"),
            ));
        }
        if self.config.impls.is_empty() {
            return Err(RunError::at(
                op,
                format!("@{name} is only declared: pass its implementation with --impl FILE"),
            ));
        }
        let sources = self.config.impls.clone();
        let operands = ir.operands(op).to_vec();
        let names: Vec<String> = (0..operands.len()).map(|i| format!("operand #{i}")).collect();
        self.sync.full_barrier();
        let (what, entry) = (format!("@{name}"), format!("_mlir_ciface_{name}"));
        let counts = format!("{} operand(s)", operands.len());
        let args = CallArgs { operands: &operands, names: &names, extra: &[], counts };
        let before = self.gm_snapshot(&operands);
        let trace = self.native_call(op, &what, &entry, &sources, &args)?;
        if trace.iter().any(|r| r.kind == native::READ || r.kind == native::WRITE) {
            self.replay(op, &trace);
        }
        self.log_changed(op, sync::S, before);
        self.sync.full_barrier();
        Ok(())
    }

    /// Builds (or reuses) the library of `sources`, checks `entry`'s
    /// signature against `args`, calls it in a child process, and returns
    /// the trace of what it did.
    fn native_call(
        &mut self,
        op: OpId,
        what: &str,
        entry: &str,
        sources: &[PathBuf],
        args: &CallArgs,
    ) -> R<Vec<native::Rec>> {
        let ir = self.ir;
        let CallArgs { operands, names, extra, .. } = *args;
        let ub_map = self.ub_map(op, operands, names);
        let guard = self.write_guard(op, operands, names, ub_map.as_ref());
        if guard.open.len() > native::MAX_OPEN {
            return Err(RunError::at(
                op,
                format!("{what} is passed writable GM/L1/L0 operands in more than {} page ranges", native::MAX_OPEN),
            ));
        }
        let lib = self.natives.library(sources).map_err(|e| RunError::at(op, e))?;
        if !lib.exports(entry) {
            let files: Vec<String> = sources.iter().map(|s| s.display().to_string()).collect();
            return Err(RunError::at(op, format!("{what} has no implementation: no {entry} in {}", files.join(", "))));
        }
        self.check_signature(op, &format!("{what} ({entry})"), entry, sources, args)?;
        // Descriptors go to shared memory just before the call; until then
        // a word stands for the index of its descriptor.
        let mut descriptors: Vec<Vec<u64>> = Vec::new();
        let mut words = Vec::new();
        let mut descriptor_at = Vec::new();
        for v in operands {
            match self.get(*v).clone() {
                Val::Mem(m) => {
                    let base = self.mem.get(m.buf).addr();
                    let mut d = vec![base, base, m.offset as u64];
                    d.extend(m.sizes.iter().map(|s| *s as u64));
                    d.extend(m.strides.iter().map(|s| *s as u64));
                    descriptor_at.push(words.len());
                    descriptors.push(d);
                    words.push(Arg::Word(0));
                }
                Val::Int(i) => words.push(Arg::Word(i as u64)),
                Val::Float(f) => {
                    let e = Elem::of(ir, ir.value_type(*v));
                    if let Some(Elem::F8(_)) = e {
                        return Err(RunError::at(
                            op,
                            "an 8-bit float scalar operand is not supported by the CPU twin yet (C has no type to receive it)",
                        ));
                    }
                    words.push(Arg::Float(match e {
                        Some(Elem::F32) => (f as f32).to_bits() as u64,
                        Some(Elem::F16) => half::f16::from_f64(f).to_bits() as u64,
                        Some(Elem::BF16) => half::bf16::from_f64(f).to_bits() as u64,
                        _ => f.to_bits(),
                    }));
                }
                Val::Undef => {
                    return Err(RunError::at(op, "an operand has no value (tensors must be bufferized first)"));
                }
            }
        }
        words.extend(extra.iter().map(|e| Arg::Word(*e as u64)));
        if self.shared.is_none() {
            let shared = Shared::new().map_err(|e| RunError::at(op, e))?;
            shared.reset_mask();
            self.shared = Some(shared);
        }
        let ub = self.onchip(crate::memory::Space::Ub).expect("a block is running");
        let regions: Vec<Region> = self
            .mem
            .buffers()
            .filter(|b| b.space == crate::memory::Space::Gm)
            .map(|b| Region { start: b.addr(), len: b.len() as u64 })
            .collect();
        let (ub_addr, ub_len) = (self.mem.get(ub).addr(), self.mem.get(ub).len());
        let mut cube = [(0u64, 0u64); 4];
        use crate::memory::Space;
        for (i, space) in [Space::L1, Space::L0a, Space::L0b, Space::L0c].into_iter().enumerate() {
            if let Some(id) = self.onchip(space) {
                cube[i] = (self.mem.get(id).addr(), self.mem.get(id).len() as u64);
            }
        }
        let (bi, bn) = self.block;
        let shared = self.shared.as_mut().unwrap();
        shared.set_regions(&regions);
        shared.set_open(&guard.open);
        shared.set_ub_closed(&guard.ub.as_ref().map_or([0; native::UB_WORDS], |u| u.closed));
        // SAFETY: no child is running; the context is ours to fill.
        unsafe {
            let c = shared.ctx_mut();
            (*c).ub_base = ub_addr as *mut u8;
            (*c).cube_base = cube.map(|(a, _)| a);
            (*c).cube_size = cube.map(|(_, n)| n);
            (*c).ub_size = ub_len as u64;
            (*c).block_idx = bi;
            (*c).block_num = bn;
            (*c).trace_len = 0;
            (*c).failed = 0;
        }
        let addrs = shared.set_descriptors(&descriptors).map_err(|e| RunError::at(op, e))?;
        for (at, addr) in descriptor_at.into_iter().zip(addrs) {
            words[at] = Arg::Word(addr);
        }
        let (library, id) = self.natives.library_file(sources).expect("built above");
        let library = library.to_path_buf();
        let shared = self.shared.as_ref().unwrap();
        let what = format!("{what} ({entry})");
        let result = native::call((&library, id), entry, &words, shared, self.config.timeout);
        match result {
            Ok(()) => {
                let trace = shared.trace().to_vec();
                // Writes just outside a buffer (within its page) leave the canary broken.
                let mut bad = Vec::new();
                for b in self.mem.buffers() {
                    if let Some((under, over)) = b.overwritten_slack() {
                        let name = self.sync.region_name(b.addr()).unwrap_or("a local buffer").to_string();
                        let mut parts = Vec::new();
                        if under > 0 {
                            parts.push(format!("{under} bytes before"));
                        }
                        if over > 0 {
                            parts.push(format!("{over} bytes after"));
                        }
                        bad.push(format!("{} {name}", parts.join(" and ")));
                    }
                }
                if !bad.is_empty() {
                    return Err(RunError::at(op, format!("{what} wrote outside its buffers: {}", bad.join("; "))));
                }
                if let Some(m) = &ub_map {
                    m.check(op, &what, &trace)?;
                }
                guard.check(op, &what)?;
                if let (Some(u), Some(m)) = (&guard.ub, &ub_map) {
                    let (dirty, shadow) = self.shared.as_mut().expect("a call was made").take_ub_dirty();
                    u.check(m, op, &what, &trace, &dirty, shadow)?;
                }
                Ok(trace)
            }
            Err(e) => Err(self.call_error(op, &what, e, &guard)),
        }
    }

    /// A call that did not return, as a located error.
    fn call_error(&self, op: OpId, what: &str, e: CallError, guard: &super::write_guard::WriteGuard) -> RunError {
        let shared = self.shared.as_ref().expect("a call was made");
        let loading = shared.ctx().returned == native::LOADING;
        // Memory read-only in the worker: a fault there is a write.
        let target = match &e {
            CallError::Signal(_) if !loading && shared.ctx().fault != 0 => {
                self.fault_target(shared.ctx().fault_addr, guard)
            }
            _ => None,
        };
        let mut err = match e {
            CallError::Misuse(m) => RunError::at(op, format!("{what}: {m}")),
            CallError::Signal(s) if target.is_some() => {
                let (name, off) = target.expect("checked");
                RunError::at(
                    op,
                    format!(
                        "{what} wrote {name} at byte offset {off}, which it may not write (only operands it is \
                         passed there; the write faulted: {s})"
                    ),
                )
            }
            CallError::Signal(s) if !loading && shared.ctx().fault == native::FAULT_FREED => RunError::at(
                op,
                format!(
                    "{what} reached freed memory at {:#x}, which no buffer owns now (a pointer kept from an \
                         earlier call?); the access faulted: {s}",
                    shared.ctx().fault_addr
                ),
            ),
            CallError::Signal(s) => {
                let mut e = RunError::at(op, format!("{what} crashed with {s}"));
                if !loading && (s.contains("(Segmentation fault)") || s.contains("(Bus error)")) {
                    e.notes.push(
                        "a memory fault: every buffer passed to it ends at an inaccessible page, so running past \
                         one faults too"
                            .into(),
                    );
                }
                if let Some(last) = shared.trace().iter().rev().find(|r| r.kind == native::CALL) {
                    e.notes.push(format!("the last intrinsic it called: {}", last.text()));
                }
                e
            }
            CallError::StackOverflow => RunError::at(
                op,
                format!("{what} overflowed its stack (endless recursion, or locals too large for the stack?)"),
            ),
            CallError::Exit(c) => RunError::at(
                op,
                format!("{what} ended the process with exit status {c} (exit() or _exit() instead of returning)"),
            ),
            CallError::Interrupted => return RunError::at(op, super::INTERRUPTED),
            CallError::Timeout(t) => RunError::at(
                op,
                format!("{what} did not return within {} s (an endless loop?); see --timeout", t.as_secs_f64()),
            ),
            CallError::Internal(m) => RunError::at(op, format!("{what}: {m}")),
        };
        if loading {
            err.notes.push(
                "before the entry was reached: while the call worker loaded the library, whose static \
                 constructors run there"
                    .into(),
            );
        }
        err
    }

    /// Feeds what the implementation did to the sync checker. Without any
    /// recorded access (an implementation of plain C loops) the op counts as
    /// reading its inputs and writing its outputs on its declared pipe(s).
    /// For other blocks (`sync/blocks.rs`) it reads its inputs and writes
    /// the bytes it changed (`log_changed`): a plain C store of the value a
    /// byte already holds is not seen.
    fn replay(&mut self, op: OpId, trace: &[native::Rec]) {
        let ir = self.ir;
        let has_access = trace.iter().any(|r| r.kind == native::READ || r.kind == native::WRITE);
        let mut site = Site { op: Some(op), detail: None };
        // Plain C reads leave no trace: for the other blocks the op reads
        // all of its inputs (its writes are the bytes it changed).
        if has_access && self.sync.blocks.is_some() {
            let pin = sync::pipe_index(custom::pipes(ir, op)[0]).unwrap_or(sync::S);
            for v in custom::ins(ir, op).to_vec() {
                if let Val::Mem(m) = self.get(v).clone() {
                    let runs = self.byte_runs(&m);
                    self.sync.block_accesses(pin, &runs, sync::blocks::Kind::Read, &site);
                }
            }
        }
        if !has_access {
            let pipes = custom::pipes(ir, op);
            let pin = sync::pipe_index(pipes[0]).unwrap_or(sync::S);
            let pout = pipes.get(1).and_then(|p| sync::pipe_index(p)).unwrap_or(pin);
            let reads: Vec<_> = custom::ins(ir, op).iter().chain(custom::tmps(ir, op)).copied().collect();
            let writes: Vec<_> = custom::outs(ir, op).iter().chain(custom::tmps(ir, op)).copied().collect();
            self.sync.issue(pin);
            for v in reads {
                if let Val::Mem(m) = self.get(v).clone() {
                    self.access_view(pin, &m, false, &site);
                }
            }
            if pout != pin {
                self.sync.issue(pout);
            }
            // Other blocks see the bytes it changed (`log_changed`).
            for v in writes {
                if let Val::Mem(m) = self.get(v).clone() {
                    let (a, n) = self.span(&m);
                    self.sync.access_view(pout, a, n, &[], sync::blocks::Kind::Write, &site);
                }
            }
        }
        for r in trace {
            let pipe = r.pipe as usize;
            match r.kind {
                native::CALL => {
                    site.detail = Some(r.text());
                    self.sync.issue(pipe);
                }
                native::READ | native::WRITE => self.sync.access(pipe, r.a, r.b, r.kind == native::WRITE, &site),
                native::SET | native::WAIT | native::BARRIER => {
                    site.detail = Some(r.text());
                    match r.kind {
                        native::SET => self.sync.set_flag(pipe, r.a as usize, r.c, &site),
                        native::WAIT => self.sync.wait_flag(pipe, r.a as usize, r.c, &site),
                        _ => self.sync.barrier(pipe, &site),
                    }
                }
                _ => {}
            }
        }
    }

    /// When blocks run one by one: the kernel-argument bytes of `values`
    /// before an implementation runs, to find what it wrote (plain C stores
    /// leave no trace of their own).
    fn gm_snapshot(&self, values: &[hivm_ir::Value]) -> Vec<(crate::memory::BufId, u64, u64, Vec<u8>)> {
        if self.sync.blocks.is_none() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for v in values {
            let Val::Mem(m) = self.get(*v) else { continue };
            let buf = self.mem.get(m.buf);
            if !self.named.iter().any(|(a, n, _)| *a <= buf.addr() && buf.addr() < a + n) {
                continue;
            }
            let (base, bytes) = (buf.addr(), buf.bytes());
            for (a, n) in self.byte_runs(m) {
                let from = (a - base) as usize;
                out.push((m.buf, a, m.elem.size() as u64, bytes[from..from + n as usize].to_vec()));
            }
        }
        out
    }

    /// Logs for the other blocks the bytes of a snapshot that changed.
    fn log_changed(&mut self, op: OpId, pipe: usize, before: Vec<(crate::memory::BufId, u64, u64, Vec<u8>)>) {
        if before.is_empty() {
            return;
        }
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for (buf, a, size, old) in &before {
            let b = self.mem.get(*buf);
            let from = (*a - b.addr()) as usize;
            let now = &b.bytes()[from..from + old.len()];
            // Whole elements: a store writes all of an element's bytes.
            for (i, (x, y)) in old.chunks(*size as usize).zip(now.chunks(*size as usize)).enumerate() {
                if x != y {
                    let at = a + i as u64 * size;
                    match runs.last_mut() {
                        Some((s, n)) if *s + *n == at => *n += size,
                        _ => runs.push((at, *size)),
                    }
                }
            }
        }
        let site = Site { op: Some(op), detail: None };
        self.sync.block_accesses(pipe, &runs, sync::blocks::Kind::Write, &site);
    }

    /// The "common integration bug": the macro's set/wait handshakes per
    /// pipe pair against its declared slots and the event ids it was given.
    fn check_macro(&mut self, op: OpId, name: &str, trace: &[native::Rec], given: &[i64]) {
        let ir = self.ir;
        // Per (set pipe, wait pipe): events set, events waited, in order.
        let mut sets: BTreeMap<(usize, usize), Vec<i64>> = BTreeMap::new();
        let mut waits: BTreeMap<(usize, usize), Vec<i64>> = BTreeMap::new();
        for r in trace {
            let key = (r.pipe as usize, r.a as usize);
            match r.kind {
                native::SET => sets.entry(key).or_default().push(r.c),
                native::WAIT => waits.entry(key).or_default().push(r.c),
                _ => {}
            }
        }
        let mut internal: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut wait_only: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let mut set_only: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        let keys: std::collections::BTreeSet<_> = sets.keys().chain(waits.keys()).copied().collect();
        for k in keys {
            let mut s = sets.get(&k).cloned().unwrap_or_default();
            let w = waits.get(&k).cloned().unwrap_or_default();
            let mut pairs = 0;
            let mut unmatched_waits = 0;
            for e in &w {
                // A wait consumes a set of the same event made earlier in the call.
                if let Some(i) = s.iter().position(|x| x == e) {
                    s.remove(i);
                    pairs += 1;
                } else {
                    unmatched_waits += 1;
                }
            }
            *internal.entry(k).or_default() += pairs;
            *wait_only.entry(k).or_default() += unmatched_waits;
            *set_only.entry(k).or_default() += s.len();
        }
        let slots = custom::sync_event_slots(ir, op);
        let mut declared: BTreeMap<(MacroSync, usize, usize), usize> = BTreeMap::new();
        let pipes = custom::pipes(ir, op);
        let default = (
            sync::pipe_index(pipes[0]).unwrap_or(sync::S),
            pipes.get(1).and_then(|p| sync::pipe_index(p)).unwrap_or(sync::S),
        );
        for s in &slots {
            let (a, b) = s
                .pipes
                .as_ref()
                .and_then(|(a, b)| Some((sync::pipe_index(a)?, sync::pipe_index(b)?)))
                .unwrap_or(default);
            *declared.entry((s.mode, a, b)).or_default() += 1;
        }
        let site = Site { op: Some(op), detail: None };
        // Pipe pairs whose handshake count is already wrong: their event
        // ids cannot line up either, and saying so again adds nothing.
        let mut miscounted = std::collections::BTreeSet::new();
        let mut check = |mode: MacroSync, found: &BTreeMap<(usize, usize), usize>, what: &str| {
            let mut all: std::collections::BTreeSet<(usize, usize)> = found.keys().copied().collect();
            all.extend(declared.keys().filter(|(m, _, _)| *m == mode).map(|(_, a, b)| (*a, *b)));
            for (a, b) in all {
                let n = found.get(&(a, b)).copied().unwrap_or(0);
                let d = declared.get(&(mode, a, b)).copied().unwrap_or(0);
                if n != d {
                    miscounted.insert((a, b));
                    self.sync.reports.push(Report {
                        class: Class::Macro,
                        site: site.clone(),
                        message: format!(
                            "custom_macro '{name}' declares {d} {} sync slot(s) for {} -> {} but its implementation \
                             makes {n} {what}",
                            mode.as_str(),
                            sync::pipe_name(a),
                            sync::pipe_name(b)
                        ),
                        other: None,
                    });
                }
            }
        };
        check(MacroSync::Internal, &internal, "internal set_flag/wait_flag pair(s)");
        check(MacroSync::Wait, &wait_only, "wait_flag(s) with no set_flag of its own");
        check(MacroSync::Set, &set_only, "set_flag(s) left for a later wait");
        // The event ids it was given must be the ones used.
        if given.len() == slots.len() {
            for (slot, id) in slots.iter().zip(given) {
                if *id < 0 {
                    continue;
                }
                let (a, b) = slot
                    .pipes
                    .as_ref()
                    .and_then(|(a, b)| Some((sync::pipe_index(a)?, sync::pipe_index(b)?)))
                    .unwrap_or(default);
                let used: Vec<i64> = match slot.mode {
                    MacroSync::Set => sets.get(&(a, b)).cloned().unwrap_or_default(),
                    _ => waits.get(&(a, b)).cloned().unwrap_or_default(),
                };
                if !used.is_empty() && !used.contains(id) && !miscounted.contains(&(a, b)) {
                    self.sync.reports.push(Report {
                        class: Class::Macro,
                        site: site.clone(),
                        message: format!(
                            "custom_macro '{name}' was given event id {id} for its {} slot {} -> {}, but its \
                             implementation uses event(s) {used:?}",
                            slot.mode.as_str(),
                            sync::pipe_name(a),
                            sync::pipe_name(b)
                        ),
                        other: None,
                    });
                }
            }
        }
    }
}

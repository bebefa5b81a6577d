//! `hivm-infer-mem-scope`: after bufferization every memref gets the
//! address space it lives in, and the change flows through the values
//! derived from it (views, casts, loop-carried and yielded values):
//! - matmul and convolution operands: A, B (and MX scales, per-channel
//!   bias) in L1 (`cbuf`), the accumulator in L0C (`cc`), set on the
//!   allocations behind them;
//! - device function parameters in GM, vector function parameters in UB
//!   (external declarations: GM for memrefs without a space);
//! - `pointer_cast`s marked as GM;
//! - an `scf.if` result with a space passes it to the buffers it yields;
//! - the remaining allocations of functions with a core type: UB, or L1 on
//!   AIC; call sites then pass the callee's parameter spaces back to the
//!   buffers they pass, and HOST functions' signatures follow their bodies.
//!
//! Distributed custom ops (communication calls) take and return GM.

use rustc_hash::{FxHashMap, FxHashSet};

use hivm_dialects::util::opaque_arg;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Attribute, Ir, OpId, TypeData, Value, ValueDef};

mod matmul;
mod signatures;
mod types;

use matmul::matmul_groups;
use signatures::{callee, extern_function, function_type, host_signature, set_function_type, symbol_name};
use types::{is_memref, set_space, space_attr, space_of, with_space};

use crate::hivm::trace;

pub struct InferMemScope;

impl Pass for InferMemScope {
    fn name(&self) -> &str {
        "hivm-infer-mem-scope"
    }

    fn display_name(&self) -> &str {
        "InferHIVMMemScope"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let mut funcs = Vec::new();
        ir.walk(root, &mut |o| {
            if ir.is_op(o, "func.func") {
                funcs.push(o);
            }
        });
        let (host, device): (Vec<OpId>, Vec<OpId>) = funcs.into_iter().partition(|f| kind(ir, *f) == Some("HOST"));
        let mut cx = Cx { uses: uses(ir, root), done: FxHashSet::default(), root };
        for &f in &device {
            cx.device_function(ir, f)?;
        }
        for &f in &device {
            cx.call_sites(ir, f)?;
        }
        for &f in &host {
            host_signature(ir, f);
        }
        Ok(())
    }
}

fn kind(ir: &Ir, f: OpId) -> Option<&str> {
    ir.get_attr(f, "hacc.function_kind").and_then(|a| opaque_arg(ir, a, "function_kind"))
}

/// Every use in the module: (user, operand index).
fn uses(ir: &Ir, root: OpId) -> FxHashMap<Value, Vec<(OpId, usize)>> {
    let mut m: FxHashMap<Value, Vec<(OpId, usize)>> = FxHashMap::default();
    ir.walk(root, &mut |o| {
        for (i, v) in ir.operands(o).iter().enumerate() {
            m.entry(*v).or_default().push((o, i));
        }
    });
    m
}

/// Ops whose single memref result is a view or cast of an operand.
fn forwards_space(ir: &Ir, op: OpId) -> bool {
    matches!(
        ir.op_name(op),
        "memref.subview"
            | "memref.view"
            | "memref.cast"
            | "memref.reinterpret_cast"
            | "memref.collapse_shape"
            | "memref.expand_shape"
            | "memref.memory_space_cast"
            | "memref.reshape"
            | "memref.transpose"
            | "hivm.hir.bitcast"
            | "arith.select"
            | "hivm.hir.create_sync_block_lock"
            | "memref_ext.alloc_workspace"
            | "builtin.unrealized_conversion_cast"
    )
}

pub(super) struct Cx {
    uses: FxHashMap<Value, Vec<(OpId, usize)>>,
    /// (value, space) pairs already propagated.
    done: FxHashSet<(Value, Attribute)>,
    root: OpId,
}

impl Cx {
    /// Upstream's helper `Run`: a memref without a space gets `space`;
    /// either way its space flows on to its users.
    fn run(&mut self, ir: &mut Ir, v: Value, space: Attribute) -> Result<(), Diagnostic> {
        let t = ir.value_type(v);
        if !is_memref(ir, t) {
            return Err(Diagnostic::error(value_loc(ir, v), "memory scope of a value that is not a memref"));
        }
        if space_of(ir, t).is_none() {
            set_space(ir, v, space);
        }
        self.propagate(ir, v)
    }

    fn set_and_propagate(&mut self, ir: &mut Ir, v: Value, space: Attribute) -> Result<(), Diagnostic> {
        set_space(ir, v, space);
        self.propagate(ir, v)
    }

    fn propagate(&mut self, ir: &mut Ir, v: Value) -> Result<(), Diagnostic> {
        let Some(space) = space_of(ir, ir.value_type(v)) else { return Ok(()) };
        if !self.done.insert((v, space)) {
            return Ok(());
        }
        let users = self.uses.get(&v).cloned().unwrap_or_default();
        for (user, i) in users {
            self.propagate_into(ir, v, space, user, i)?;
        }
        Ok(())
    }

    fn propagate_into(
        &mut self,
        ir: &mut Ir,
        v: Value,
        space: Attribute,
        user: OpId,
        i: usize,
    ) -> Result<(), Diagnostic> {
        match ir.op_name(user) {
            "scf.yield" | "scope.return" => {
                let Some(parent) = ir.parent_op(user) else { return Ok(()) };
                let Some(&result) = ir.results(parent).get(i) else { return Ok(()) };
                let (yt, vt) = (ir.value_type(ir.operand(user, i)), ir.value_type(v));
                if !is_memref(ir, yt)
                    || !is_memref(ir, vt)
                    || ir.type_data(yt).element_type() != ir.type_data(vt).element_type()
                {
                    return Ok(());
                }
                self.set_and_propagate(ir, result, space)
            }
            "scf.for" if i >= 3 => {
                let k = i - 3;
                let (Some(&result), Some(arg)) = (ir.results(user).get(k), region_arg(ir, user, 0, k + 1)) else {
                    return Ok(());
                };
                set_space(ir, result, space);
                set_space(ir, arg, space);
                self.propagate(ir, arg)?;
                self.propagate(ir, result)
            }
            "scf.while" => {
                // Upstream pairs the i-th init with the i-th argument of both
                // regions and the i-th value the body yields.
                let (Some(before), Some(after), Some(yielded)) =
                    (region_arg(ir, user, 0, i), region_arg(ir, user, 1, i), terminator_operand(ir, user, 1, i))
                else {
                    return Err(Diagnostic::error(
                        ir.loc(user),
                        "hivm-infer-mem-scope: cannot pair this loop's init with its region arguments",
                    ));
                };
                for x in [before, yielded, after] {
                    set_space(ir, x, space);
                }
                self.propagate(ir, after)?;
                self.propagate(ir, before)?;
                self.propagate(ir, yielded)
            }
            "memref.extract_strided_metadata" => match ir.results(user).first() {
                Some(&base) => self.set_and_propagate(ir, base, space),
                None => Ok(()),
            },
            "func.call" => {
                self.pass_to_simt_callee(ir, user, v, space);
                Ok(())
            }
            "hivm.hir.fixpipe" => Ok(()),
            hivm_dialects::hivm::custom::CUSTOM if is_distributed(ir, user) => Ok(()),
            _ => {
                let results = ir.results(user).to_vec();
                if results.is_empty() || !results.iter().any(|r| is_memref(ir, ir.value_type(*r))) {
                    return Ok(());
                }
                if results.len() == 1 && forwards_space(ir, user) {
                    return self.set_and_propagate(ir, results[0], space);
                }
                Err(Diagnostic::error(
                    ir.loc(user),
                    format!("'{}' op Unsupported user for root alloc op.", ir.op_name(user)),
                ))
            }
        }
    }

    /// A SIMT vector function takes the spaces of what its callers pass.
    fn pass_to_simt_callee(&mut self, ir: &mut Ir, call: OpId, v: Value, space: Attribute) {
        let Some(callee) = callee(ir, self.root, call) else { return };
        let simt = ir.get_attr(callee, "hivm.vf_mode").and_then(|a| opaque_arg(ir, a, "vf_mode")) == Some("SIMT");
        if !simt {
            return;
        }
        let Some(TypeData::Function { mut inputs, results }) = function_type(ir, callee) else { return };
        let body = ir.regions(callee).first().and_then(|r| ir.region_blocks(*r).first().copied());
        for (idx, o) in ir.operands(call).to_vec().into_iter().enumerate() {
            if o != v || idx >= inputs.len() {
                continue;
            }
            inputs[idx] = with_space(ir, inputs[idx], space);
            if let Some(b) = body {
                let arg = ir.block_args(b)[idx];
                ir.set_value_type(arg, inputs[idx]);
            }
        }
        set_function_type(ir, callee, inputs, results);
    }

    fn device_function(&mut self, ir: &mut Ir, f: OpId) -> Result<(), Diagnostic> {
        let body = ir.regions(f).first().and_then(|r| ir.region_blocks(*r).first().copied());
        let Some(body) = body else {
            extern_function(ir, f);
            return Ok(());
        };
        let (l1, cc, gm, ub) =
            (space_attr(ir, "cbuf"), space_attr(ir, "cc"), space_attr(ir, "gm"), space_attr(ir, "ub"));
        let mut ops = Vec::new();
        ir.walk(f, &mut |o| ops.push(o));
        for &op in &ops {
            if let Some(groups) = matmul_groups(ir, op) {
                let r = self.matmul(ir, op, &groups, l1, cc);
                // Only mmadL1 failing is a warning upstream (left as it is).
                if r.is_err() && !ir.is_op(op, "hivm.hir.mmadL1") {
                    return r;
                }
            }
        }
        let vf = ir.has_attr(f, "hivm.vector_function");
        for arg in ir.block_args(body).to_vec() {
            if is_memref(ir, ir.value_type(arg)) {
                self.run(ir, arg, if vf { ub } else { gm })?;
            }
        }
        if !ir.block_args(body).is_empty()
            && let Some(TypeData::Function { results, .. }) = function_type(ir, f)
        {
            let inputs = ir.block_args(body).iter().map(|a| ir.value_type(*a)).collect();
            set_function_type(ir, f, inputs, results);
        }
        for &op in &ops {
            if is_distributed(ir, op) {
                self.distributed(ir, op, gm)?;
            }
        }
        for &op in &ops {
            if ir.is_op(op, "hivm.hir.pointer_cast") && gm_marked(ir, &self.uses, ir.result(op, 0)) {
                self.run(ir, ir.result(op, 0), gm)?;
            }
        }
        for &op in &ops {
            if ir.is_op(op, "scf.if") {
                self.if_results(ir, op)?;
            }
        }
        let core = if vf { Some("AIV") } else { hivm_dialects::hivm::func_core_type(ir, f) };
        if let Some(core) = core {
            let space = if core == "AIC" { l1 } else { ub };
            for &op in &ops {
                if !ir.is_op(op, "memref.alloc") {
                    continue;
                }
                let v = ir.result(op, 0);
                match space_of(ir, ir.value_type(v)) {
                    Some(s) if s == ub || s == l1 => self.run(ir, v, s)?,
                    Some(_) => {}
                    None => self.run(ir, v, space)?,
                }
            }
        }
        Ok(())
    }

    /// A distributed custom op is a call into the communication library:
    /// whatever it takes or returns lives in GM.
    fn distributed(&mut self, ir: &mut Ir, op: OpId, gm: Attribute) -> Result<(), Diagnostic> {
        use hivm_dialects::hivm::custom;
        let operands: Vec<Value> = custom::ins(ir, op).iter().chain(custom::outs(ir, op)).copied().collect();
        for v in operands {
            let t = ir.value_type(v);
            if is_memref(ir, t) && space_of(ir, t).is_none() {
                let root = trace::back_to_alloc(ir, v);
                self.run(ir, root, gm)?;
            }
        }
        for r in ir.results(op).to_vec() {
            if is_memref(ir, ir.value_type(r)) {
                self.run(ir, r, gm)?;
            }
        }
        Ok(())
    }

    fn if_results(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        for (k, r) in ir.results(op).to_vec().into_iter().enumerate() {
            let Some(space) = space_of(ir, ir.value_type(r)) else { continue };
            for branch in 0..2 {
                let Some(y) = terminator_operand(ir, op, branch, k) else { continue };
                if space_of(ir, ir.value_type(y)).is_some() {
                    continue;
                }
                for src in trace::back_to_allocs(ir, y) {
                    self.run(ir, src, space)?;
                }
            }
        }
        Ok(())
    }

    /// Passes the spaces of `f`'s parameters to what its callers pass, and
    /// of its results to the call results.
    fn call_sites(&mut self, ir: &mut Ir, f: OpId) -> Result<(), Diagnostic> {
        let name = ir.get_attr(f, "sym_name").and_then(|a| ir.as_str(a)).map(str::to_string);
        let Some(name) = name else { return Ok(()) };
        let Some(TypeData::Function { inputs, results }) = function_type(ir, f) else { return Ok(()) };
        let mut calls = Vec::new();
        ir.walk(self.root, &mut |o| {
            if ir.is_op(o, "func.call")
                && ir.get_attr(o, "callee").and_then(|a| symbol_name(ir, a)).as_deref() == Some(name.as_str())
            {
                calls.push(o);
            }
        });
        for call in calls {
            for (idx, o) in ir.operands(call).to_vec().into_iter().enumerate() {
                let Some(&pt) = inputs.get(idx) else { continue };
                if !is_memref(ir, ir.value_type(o)) || !is_memref(ir, pt) {
                    continue;
                }
                let Some(space) = space_of(ir, pt) else { continue };
                let root = trace::back_to_alloc(ir, o);
                self.run(ir, root, space)?;
            }
            for (idx, r) in ir.results(call).to_vec().into_iter().enumerate() {
                let Some(&rt) = results.get(idx) else { continue };
                if !is_memref(ir, ir.value_type(r)) || !is_memref(ir, rt) {
                    continue;
                }
                let Some(space) = space_of(ir, rt) else { continue };
                self.run(ir, r, space)?;
            }
        }
        Ok(())
    }
}

/// `isDistributedTypeCustomOp`.
pub fn is_distributed(ir: &Ir, op: OpId) -> bool {
    ir.is_op(op, hivm_dialects::hivm::custom::CUSTOM) && ir.has_attr(op, "hivm.is_distributed")
}

fn gm_marked(ir: &Ir, uses: &FxHashMap<Value, Vec<(OpId, usize)>>, v: Value) -> bool {
    uses.get(&v).is_some_and(|us| {
        us.iter().any(|(u, _)| {
            ir.is_op(*u, "annotation.mark")
                && ir.get_attr(*u, "address_space").and_then(|a| opaque_arg(ir, a, "address_space")) == Some("gm")
        })
    })
}

fn value_loc(ir: &Ir, v: Value) -> Attribute {
    match ir.value_def(v) {
        ValueDef::Result { op, .. } => ir.loc(op),
        ValueDef::BlockArg { block, .. } => ir.value_loc(v).unwrap_or_else(|| {
            let owner = ir.block(block).parent.and_then(|r| ir.region_parent(r));
            owner.map_or_else(|| ir.unknown_loc(), |o| ir.loc(o))
        }),
        ValueDef::Placeholder => ir.unknown_loc(),
    }
}

fn region_arg(ir: &Ir, op: OpId, r: usize, i: usize) -> Option<Value> {
    let block = *ir.region_blocks(*ir.regions(op).get(r)?).first()?;
    ir.block_args(block).get(i).copied()
}

fn terminator_operand(ir: &Ir, op: OpId, r: usize, i: usize) -> Option<Value> {
    let region = *ir.regions(op).get(r)?;
    let block = *ir.region_blocks(region).first()?;
    ir.operands(ir.block(block).last?).get(i).copied()
}

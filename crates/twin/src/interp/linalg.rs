//! Structured linalg ops on memrefs (`generic`, `map`, `reduce`,
//! `broadcast`, `transpose`, the matmul family, the elementwise named ops
//! and OpDSL ops): the loop nest the dialect describes
//! (`hivm_dialects::linalg::loops`), visited in row-major order, the body
//! run once per point on the elements its maps select. Outs are read and
//! written at each point, so reductions accumulate in the out as MLIR's
//! loops do. Every access is bounds-checked; a loop whose size no operand
//! gives, or an op the dialect has no loop nest for, is an error.

use hivm_dialects::linalg::loops::{Loops, loops};
use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::{OpId, Value};

use super::{Flow, Interp, R, RunError, Step, linalg_body};
use crate::value::{MemRefVal, Val, load, store};

/// How an operand's element is found at a point of the loop nest.
enum Access {
    Scalar(Val),
    /// A view read and written through its indexing map.
    Linear {
        m: std::rc::Rc<MemRefVal>,
        map: AffineMap,
    },
}

impl Interp<'_> {
    /// `linalg.index` inside the body of the running structured op.
    pub(super) fn linalg_index(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let dim = ir.get_attr(op, "dim").and_then(|a| ir.as_int(a)).unwrap_or(-1);
        let v = usize::try_from(dim).ok().and_then(|d| self.linalg_points.last().and_then(|p| p.get(d)).copied());
        let v =
            v.ok_or_else(|| RunError::at(op, format!("linalg.index {dim} outside the loops of its structured op")))?;
        self.set(ir.result(op, 0), Val::Int(v));
        Ok(())
    }

    pub(super) fn structured(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let name = ir.op_name(op);
        let nest = loops(ir, op)
            .map_err(|why| RunError::at(op, format!("'{name}' {why}: not supported by the CPU twin yet")))?;
        let Loops { inputs, maps, parallel } = nest;
        let operands = ir.operands(op);
        if ir.results(op).iter().any(|r| ir.type_data(ir.value_type(*r)).is_tensor()) {
            return Err(RunError::at(op, "expected a memref operand (tensors must be bufferized first)"));
        }
        if maps.len() != operands.len() {
            return Err(RunError::at(op, format!("'{name}' has {} maps for {} operands", maps.len(), operands.len())));
        }
        let n_loops = parallel.len();
        if maps.iter().any(|m| m.num_dims as usize != n_loops || m.num_symbols != 0) {
            return Err(RunError::at(
                op,
                format!(
                    "'{name}' has maps with symbols or other loop counts than its {n_loops} iterators: not supported by the CPU twin yet"
                ),
            ));
        }
        let mut access = Vec::with_capacity(operands.len());
        for (v, map) in operands.iter().zip(&maps) {
            access.push(match self.get(*v) {
                Val::Mem(m) => {
                    if m.sizes.len() != map.results.len() {
                        return Err(RunError::at(
                            op,
                            format!(
                                "'{name}' indexes a rank-{} operand with {} results",
                                m.sizes.len(),
                                map.results.len()
                            ),
                        ));
                    }
                    Access::Linear { m: m.clone(), map: map.clone() }
                }
                Val::Undef => return Err(RunError::at(op, "an operand has no value")),
                s => {
                    if !map.results.is_empty() {
                        return Err(RunError::at(op, "a scalar operand is indexed"));
                    }
                    Access::Scalar(s.clone())
                }
            });
        }
        let bounds = loop_bounds(op, name, &access, n_loops)?;
        let body = ir
            .regions(op)
            .first()
            .and_then(|r| ir.region_blocks(*r).first().copied())
            .ok_or_else(|| RunError::at(op, format!("'{name}' has no body")))?;
        let args = ir.block_args(body);
        // `linalg.map` bodies take the inputs only.
        if args.len() != operands.len() && args.len() != inputs {
            return Err(RunError::at(
                op,
                format!("'{name}' body takes {} arguments for {} operands", args.len(), operands.len()),
            ));
        }
        // Other blocks see what it reads and writes (all of each view).
        if self.sync.blocks.is_some() {
            let site = crate::sync::Site { op: Some(op), detail: None };
            for (i, v) in operands.iter().enumerate() {
                if let Val::Mem(m) = self.get(*v).clone() {
                    for (a, n) in self.byte_runs(&m) {
                        self.sync.block_accesses(
                            crate::sync::S,
                            &[(a, n)],
                            crate::sync::blocks::Kind::of(i >= inputs),
                            &site,
                        );
                    }
                }
            }
        }
        // Data moved by code outside HIVM ops is the compiler's to synchronise.
        self.sync.full_barrier();
        if bounds.contains(&0) {
            return Ok(());
        }
        if let Some(r) = self.fast_elementwise(op, body, inputs, &maps, &parallel) {
            return r.map_err(|e| RunError::at(op, format!("'{name}' {e}")));
        }
        self.linalg_points.push(vec![0; n_loops]);
        let r = self.visit_points(op, body, inputs, &access, &bounds);
        self.linalg_points.pop();
        r
    }

    /// The row-wise path (`fast.rs`) for an all-parallel op with identity
    /// maps whose body is one binary op on its two inputs, in order. Same
    /// results as the point-by-point path; None when it does not apply.
    fn fast_elementwise(
        &mut self,
        op: OpId,
        body: hivm_ir::BlockId,
        inputs: usize,
        maps: &[AffineMap],
        parallel: &[bool],
    ) -> Option<Result<(), &'static str>> {
        let ir = self.ir;
        let operands = ir.operands(op);
        if inputs != 2 || operands.len() != 3 || !parallel.iter().all(|p| *p) {
            return None;
        }
        let identity = |m: &AffineMap| {
            m.results.len() == parallel.len()
                && m.results.iter().enumerate().all(|(i, e)| *e == AffineExpr::Dim(i as u32))
        };
        if !maps.iter().all(identity) {
            return None;
        }
        let mut ops = ir.block_ops(body);
        let (payload, y) = (ops.next()?, ops.next()?);
        let args = ir.block_args(body);
        if ops.next().is_some() || ir.operands(payload) != &args[..2] || ir.operands(y) != ir.results(payload) {
            return None;
        }
        let vop = match ir.op_name(payload) {
            "arith.addf" | "arith.addi" => "vadd",
            "arith.subf" | "arith.subi" => "vsub",
            "arith.mulf" | "arith.muli" => "vmul",
            "arith.divf" => "vdiv",
            "arith.maxnumf" | "arith.maxsi" => "vmax",
            "arith.minnumf" | "arith.minsi" => "vmin",
            "arith.andi" => "vand",
            "arith.ori" => "vor",
            "arith.xori" => "vxor",
            _ => return None,
        };
        let Val::Mem(dst) = self.get(operands[2]).clone() else { return None };
        let ins = [self.get(operands[0]).clone(), self.get(operands[1]).clone()];
        if ins.iter().any(|v| !matches!(v, Val::Mem(m) if m.elem == dst.elem)) {
            return None;
        }
        super::fast::elementwise(&mut self.mem, vop, &ins, &dst)
    }

    fn visit_points(
        &mut self,
        op: OpId,
        body: hivm_ir::BlockId,
        inputs: usize,
        access: &[Access],
        bounds: &[i64],
    ) -> R<()> {
        let ir = self.ir;
        let args: Vec<Value> = ir.block_args(body).to_vec();
        let n = access.len();
        let mut offsets = vec![0i64; n];
        let mut idx = vec![0i64; bounds.len()];
        let program = if self.compile_loops {
            self.bodies.entry(op).or_insert_with(|| linalg_body::decode(ir, body).map(std::rc::Rc::new)).clone()
        } else {
            None
        };
        if let Some(p) = program {
            return self.run_program(op, &p, inputs, access, bounds, args.len());
        }
        loop {
            self.steps += 1;
            if self.steps > self.config.max_steps {
                return Err(super::max_ops_error(op, self.config.max_steps));
            }
            for (k, a) in access.iter().enumerate() {
                if let Access::Linear { m, map } = a {
                    offsets[k] = element_offset(op, m, map, &idx)?;
                }
            }
            for (k, a) in args.iter().enumerate() {
                let v = match &access[k] {
                    Access::Scalar(s) => s.clone(),
                    Access::Linear { m, .. } => load(&self.mem, m.buf, m.elem, offsets[k])
                        .ok_or_else(|| RunError::at(op, "load outside the memref's buffer"))?,
                };
                self.set(*a, v);
            }
            if let Some(p) = self.linalg_points.last_mut() {
                p.copy_from_slice(&idx);
            }
            let y = match self.run_block(body)? {
                Step::Done(Flow::Yield(y)) => y,
                _ => return Err(RunError::at(op, "a structured op's body must end in linalg.yield")),
            };
            let yielded = ir.operands(y);
            if yielded.len() != n - inputs {
                return Err(RunError::at(y, format!("yields {} values for {} outs", yielded.len(), n - inputs)));
            }
            for (j, v) in yielded.iter().enumerate() {
                let k = inputs + j;
                if let Access::Linear { m, .. } = &access[k] {
                    let val = self.get(*v).clone();
                    if !store(&mut self.mem, m.buf, m.elem, offsets[k], &val) {
                        return Err(RunError::at(op, "store outside the memref's buffer"));
                    }
                }
            }
            // Next point, row-major.
            let mut d = bounds.len();
            loop {
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < bounds[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }
}

impl Interp<'_> {
    /// [`Interp::visit_points`] with the body decoded into a program.
    fn run_program(
        &mut self,
        op: OpId,
        p: &linalg_body::Program,
        inputs: usize,
        access: &[Access],
        bounds: &[i64],
        n_args: usize,
    ) -> R<()> {
        let mut frame = p.frame(|v| self.get(v).clone());
        let n = access.len();
        let mut offsets = vec![0i64; n];
        let mut idx = vec![0i64; bounds.len()];
        let mut vals: Vec<Val> = Vec::with_capacity(n_args);
        let mut out = Vec::with_capacity(n - inputs);
        let mut points = 0u64;
        loop {
            self.steps += p.len();
            if self.steps > self.config.max_steps {
                return Err(super::max_ops_error(op, self.config.max_steps));
            }
            // One op can run for long (a large matmul): Ctrl-C is asked
            // inside it too, not only between ops.
            points += 1;
            if points.is_multiple_of(1 << 12) {
                self.periodic(op)?;
            }
            vals.clear();
            for (k, a) in access.iter().enumerate() {
                if let Access::Linear { m, map } = a {
                    offsets[k] = element_offset(op, m, map, &idx)?;
                }
                if k < n_args {
                    vals.push(match a {
                        Access::Scalar(s) => s.clone(),
                        Access::Linear { m, .. } => load(&self.mem, m.buf, m.elem, offsets[k])
                            .ok_or_else(|| RunError::at(op, "load outside the memref's buffer"))?,
                    });
                }
            }
            p.run(&mut frame, &vals, &idx, &mut out)?;
            if out.len() != n - inputs {
                return Err(RunError::at(op, format!("yields {} values for {} outs", out.len(), n - inputs)));
            }
            for (j, val) in out.iter().enumerate() {
                if let Access::Linear { m, .. } = &access[inputs + j]
                    && !store(&mut self.mem, m.buf, m.elem, offsets[inputs + j], val)
                {
                    return Err(RunError::at(op, "store outside the memref's buffer"));
                }
            }
            let mut d = bounds.len();
            loop {
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < bounds[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }
}

/// Each loop's size: the size of the first operand dimension its map reads
/// as exactly that loop (MLIR's shapes-to-loops map).
fn loop_bounds(op: OpId, name: &str, access: &[Access], n_loops: usize) -> R<Vec<i64>> {
    let mut bounds: Vec<Option<i64>> = vec![None; n_loops];
    for a in access {
        if let Access::Linear { m, map } = a {
            for (e, size) in map.results.iter().zip(&m.sizes) {
                if let AffineExpr::Dim(d) = e
                    && let Some(b) = bounds.get_mut(*d as usize)
                    && b.is_none()
                {
                    *b = Some(*size);
                }
            }
        }
    }
    bounds
        .into_iter()
        .enumerate()
        .map(|(d, b)| {
            b.ok_or_else(|| {
                RunError::at(
                    op,
                    format!("'{name}': no operand gives the size of loop {d}: not supported by the CPU twin yet"),
                )
            })
        })
        .collect()
}

/// The element offset of an operand at point `idx`, bounds-checked.
fn element_offset(op: OpId, m: &MemRefVal, map: &AffineMap, idx: &[i64]) -> R<i64> {
    // Results that are loops (the common case): no allocation.
    let mut off = m.offset;
    let mut simple = true;
    for ((e, n), s) in map.results.iter().zip(&m.sizes).zip(&m.strides) {
        match e {
            AffineExpr::Dim(d) => match idx.get(*d as usize) {
                Some(i) if *i < *n => {
                    off = i
                        .checked_mul(*s)
                        .and_then(|x| off.checked_add(x))
                        .ok_or_else(|| RunError::at(op, "an element offset overflows"))?;
                }
                _ => {
                    simple = false;
                    break;
                }
            },
            _ => {
                simple = false;
                break;
            }
        }
    }
    if simple {
        return Ok(off);
    }
    let mut at = Vec::with_capacity(map.results.len());
    for e in &map.results {
        at.push(e.eval(idx, &[]).ok_or_else(|| RunError::at(op, "an indexing map cannot be evaluated"))?);
    }
    let inside = at.iter().zip(&m.sizes).all(|(i, n)| *i >= 0 && i < n);
    if !inside {
        return Err(RunError::at(
            op,
            format!("index {at:?} (at loop point {idx:?}) is out of bounds of an operand of shape {:?}", m.sizes),
        ));
    }
    Ok(m.linear(&at).expect("checked above"))
}

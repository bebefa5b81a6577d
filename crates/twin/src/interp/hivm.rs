//! HIVM ops: on-chip views, data movement, vector ops and synchronisation,
//! each on its pipe as the sync checker sees it.

use std::rc::Rc;

use hivm_dialects::hivm::attrs::enum_value;
use hivm_dialects::util::{segment, segments};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, TypeData};

use super::{Interp, R, RunError, space_of, unsupported};
use crate::memory::Space;
use crate::sync::{self, Site};
use crate::value::{Elem, MemRefVal, Val, load, round_float, store, unflatten};

impl Interp<'_> {
    pub(super) fn enum_attr(&self, op: OpId, key: &str, mnemonic: &str) -> Option<String> {
        let a = self.ir.get_attr(op, key)?;
        enum_value(self.ir, a, mnemonic).map(str::to_string)
    }

    pub(super) fn pipe_attr(&self, op: OpId, key: &str) -> R<usize> {
        let p = self.enum_attr(op, key, "pipe").ok_or_else(|| RunError::at(op, format!("missing {key}")))?;
        sync::pipe_index(&p).ok_or_else(|| RunError::at(op, format!("unknown pipe {p}")))
    }

    /// Host address range of the bytes a view spans.
    pub(super) fn span(&self, m: &MemRefVal) -> (u64, u64) {
        let (lo, hi) = m.byte_span();
        let base = self.mem.get(m.buf).addr();
        (base + lo.max(0) as u64, (hi - lo).max(0) as u64)
    }

    /// An access of view `m` by the instruction last issued on `pipe`: its
    /// byte span for this core's pipes, and (blocks running one by one) the
    /// exact bytes for the other blocks, which may interleave with them.
    pub(super) fn access_view(&mut self, pipe: usize, m: &MemRefVal, write: bool, site: &Site) {
        let (a, n) = self.span(m);
        let runs = if self.sync.blocks.is_some() { self.byte_runs(m) } else { Vec::new() };
        self.sync.access_view(pipe, a, n, &runs, crate::sync::blocks::Kind::of(write), site);
    }

    /// L0A, L0B and L0C are the cube unit's own: loads from L1 (MTE1) fill
    /// L0A/L0B, the matmul (M) reads them and writes L0C, the fixpipe (FIX)
    /// drains L0C. A vector op, a DMA or a scalar access there has no
    /// hardware path; run anyway it would read or write L0C's fractal bytes
    /// in whatever order its type names.
    pub(super) fn refuse_l0(&self, op: OpId, what: &str) -> R<()> {
        let ir = self.ir;
        for v in ir.operands(op) {
            if let Val::Mem(m) = self.get(*v) {
                let space = self.mem.get(m.buf).space;
                if space.is_l0() {
                    return Err(RunError::at(
                        op,
                        format!(
                            "{what} cannot reach {}: only the cube unit's L1 -> L0 loads, matmul and fixpipe do",
                            space
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    pub(super) fn hivm(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let site = Site { op: Some(op), detail: None };
        if matches!(name, "hivm.hir.load" | "hivm.hir.store" | "hivm.hir.copy")
            || (name.starts_with("hivm.hir.v") && name != "hivm.hir.vbrc_scalar")
        {
            self.refuse_l0(op, &format!("'{name}'"))?;
        }
        match name {
            "hivm.hir.pointer_cast" => self.pointer_cast(op)?,
            "hivm.hir.multi_buffer_counter" => self.multi_buffer_counter(op)?,
            "hivm.hir.set_flag" | "hivm.hir.wait_flag" => {
                let set = self.pipe_attr(op, "set_pipe")?;
                let wait = self.pipe_attr(op, "wait_pipe")?;
                let event = match self.enum_attr(op, "static_event_id", "event") {
                    Some(e) => e.trim_start_matches("EVENT_ID").parse::<i64>().unwrap_or(0),
                    None => ir.operands(op).first().map(|v| self.int(*v)).unwrap_or(0),
                };
                if !(0..=7).contains(&event) {
                    return Err(RunError::at(
                        op,
                        format!("event id {event} is not one of EVENT_ID0..EVENT_ID7 (the hardware has eight)"),
                    ));
                }
                if name == "hivm.hir.set_flag" {
                    self.sync.set_flag(set, wait, event, &site);
                } else {
                    self.sync.wait_flag(set, wait, event, &site);
                }
            }
            "hivm.hir.pipe_barrier" => {
                let p = self.pipe_attr(op, "pipe")?;
                self.sync.barrier(p, &site);
            }
            "hivm.hir.create_sync_block_lock"
            | "hivm.hir.sync_block_lock"
            | "hivm.hir.sync_block_unlock"
            | "hivm.hir.free_lock_var" => self.block_lock(op, name)?,
            // The twin's cross-core flags need no FFTS base address.
            "hivm.hir.set_ffts_base_addr" => {}
            // The vector mask's mode, as implementations see it.
            "hivm.hir.set_mask_norm" => {
                if let Some(s) = &self.shared {
                    s.set_mask_counter(false);
                }
            }
            "hivm.hir.set_ctrl" => self.set_ctrl(op)?,
            "hivm.hir.get_block_idx" => self.set(ir.result(op, 0), Val::Int(self.block.0)),
            "hivm.hir.get_block_num" => self.set(ir.result(op, 0), Val::Int(self.block.1)),
            "hivm.hir.get_sub_block_idx" => self.set(ir.result(op, 0), Val::Int(self.sub_block().0)),
            "hivm.hir.get_sub_block_num" => self.set(ir.result(op, 0), Val::Int(self.sub_block().1)),
            "hivm.hir.sync_block_set" | "hivm.hir.sync_block_wait" => self.sync_block(op, name)?,
            "hivm.hir.load" | "hivm.hir.store" | "hivm.hir.copy" => {
                if name == "hivm.hir.load" {
                    self.check_load_padding(op)?;
                } else {
                    refuse_dma_clauses(ir, op)?;
                }
                let (src, dst) = (self.memref(op, ir.operand(op, 0))?, self.memref(op, ir.operand(op, 1))?);
                let pipe = self.op_pipe(op)?;
                self.sync.issue(pipe);
                self.access_view(pipe, &src, false, &site);
                self.access_view(pipe, &dst, true, &site);
                self.copy_elements(op, &src, &dst)?;
            }
            hivm_dialects::hivm::custom::CUSTOM | hivm_dialects::hivm::custom::MACRO => self.custom(op)?,
            "hivm.hir.vcast" => self.vcast(op)?,
            "hivm.hir.vcmp" => self.vcmp(op)?,
            "hivm.hir.vsel" => self.vsel(op)?,
            _ if hivm_dialects::hivm::vector::is_elementwise(name) => self.elementwise(op, name)?,
            "hivm.hir.vtranspose" => self.vtranspose(op)?,
            "hivm.hir.vflip" => self.vflip(op)?,
            "hivm.hir.vcumsum" | "hivm.hir.vcumprod" | "hivm.hir.vcummax" | "hivm.hir.vcummin" => {
                self.cumulative(op, name)?
            }
            "hivm.hir.vconcat" => self.vconcat(op)?,
            "hivm.hir.vpad" => self.vpad(op)?,
            "hivm.hir.vinterleave" => self.vinterleave(op)?,
            "hivm.hir.vdeinterleave" => self.vdeinterleave(op)?,
            "hivm.hir.vbrc" => self.vbrc(op)?,
            "hivm.hir.varange" => self.varange(op)?,
            "hivm.hir.vreduce" => self.vreduce(op)?,
            "hivm.hir.vgather" => self.vgather(op)?,
            "hivm.hir.matmul" | "hivm.hir.mix_matmul" => self.matmul(op)?,
            "hivm.hir.mix_group_matmul" => self.group_matmul(op)?,
            _ if self.cube(op, name)? => {}
            _ => return Err(unsupported(ir, op)),
        }
        if ir.results(op).len() == 1 && self.get(ir.result(op, 0)) == &Val::Undef {
            return Err(unsupported(ir, op));
        }
        Ok(())
    }

    /// `set_ctrl`: the saturation bits the device compiler sets around an
    /// entry, which are how the twin converts anyway (CTRL[48] on: no
    /// saturation of f16/bf16 results; CTRL[60] off: conversions saturate
    /// as each instruction says; CTRL[60] on again at the exit). Any other
    /// setting would change numbers the twin does not model: refused.
    fn set_ctrl(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let enable = ir.get_attr(op, "enable").and_then(|a| ir.as_int(a)).unwrap_or(0) != 0;
        let idx = ir.get_attr(op, "idx").and_then(|a| ir.as_int(a)).unwrap_or(-1);
        // At the exit: only synchronisation (which the solver may place
        // after it) comes before the return.
        let mut next = ir.next_op(op);
        while let Some(n) = next.filter(|n| {
            ["hivm.hir.set_flag", "hivm.hir.wait_flag", "hivm.hir.pipe_barrier"].iter().any(|s| ir.is_op(*n, s))
        }) {
            next = ir.next_op(n);
        }
        let at_exit = next.is_some_and(|n| ir.is_op(n, "func.return"));
        match (idx, enable) {
            (48, true) | (60, false) => Ok(()),
            (60, true) if at_exit => Ok(()),
            _ => Err(RunError::at(
                op,
                format!(
                    "set_ctrl {enable} at ctrl[{idx}] is not supported by the CPU twin yet (only the entry's saturation bits)"
                ),
            )),
        }
    }

    fn op_pipe(&self, op: OpId) -> R<usize> {
        let pipes = hivm_dialects::hivm::ops::op_pipes(self.ir, op);
        pipes
            .first()
            .and_then(|p| sync::pipe_index(p))
            .ok_or_else(|| RunError::at(op, "the CPU twin cannot tell which pipe this op runs on"))
    }

    /// A view of on-chip memory at a byte address.
    fn pointer_cast(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let res = ir.result(op, 0);
        let t = ir.value_type(res);
        let TypeData::MemRef { shape, elem, .. } = ir.type_data(t).clone() else {
            return Err(RunError::at(op, "pointer_cast to a non-memref type"));
        };
        let elem = Elem::of(ir, elem).ok_or_else(|| RunError::at(op, "unsupported element type"))?;
        let space = space_of(ir, t);
        if space == Space::Gm {
            return Err(RunError::at(
                op,
                "pointer_cast into GM is not supported by the CPU twin (only on-chip memories)",
            ));
        }
        // Several addresses: a multi-buffered buffer, which each run of its
        // loop finds at the address the iteration counter selects.
        let addrs = segment(ir, op, 0);
        let addr = self.int(addrs[self.address_slot(op, addrs.len())]);
        let sizes = self.mixed(&shape, &mut segment(ir, op, 1).iter());
        let buf = self.onchip(space).ok_or_else(|| RunError::at(op, format!("no {space} memory")))?;
        if addr < 0 || !(addr as usize).is_multiple_of(elem.size()) {
            return Err(RunError::at(op, format!("{space} address {addr} is not aligned to the element size")));
        }
        let (strides, extra) = match hivm_dialects::util::strides_and_offset(ir, t) {
            Some((s, o)) if !s.contains(&DYNAMIC) && o != DYNAMIC => (s, o),
            _ => (MemRefVal::contiguous(buf, elem, sizes.clone()).strides, 0),
        };
        let life = self.owners.born(op);
        let v =
            MemRefVal { buf, elem, offset: addr / elem.size() as i64 + extra, sizes, strides, root: Some(op), life };
        let (lo, hi) = v.byte_span();
        let cap = self.mem.get(buf).len() as i64;
        if lo < 0 || hi > cap {
            return Err(RunError::at(
                op,
                format!("{space} overflow: this view spans bytes [{lo}, {hi}) but {space} holds {cap} bytes"),
            ));
        }
        self.set(res, Val::Mem(Rc::new(v)));
        self.raise_cast_floor(op, space, hi.max(0) as usize);
        self.note_ub_root(op, res);
        Ok(())
    }

    /// `hivm.hir.vadd ins(a, b) outs(c)` and friends, elementwise over
    /// operands of one shape (scalar inputs broadcast).
    fn elementwise(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        for k in ["isSigned", "is_signed"] {
            if ir.get_attr(op, k).and_then(|a| ir.as_int(a)) == Some(0) {
                return Err(RunError::at(op, format!("{name} with {k} = false is not supported by the CPU twin yet")));
            }
        }
        if ir.get_attr(op, "isHP").and_then(|a| ir.as_int(a)) == Some(1) {
            return Err(RunError::at(op, format!("{name} with isHP = true is not supported by the CPU twin yet")));
        }
        if !hivm_dialects::util::i64_array(ir, op, "transpose").is_empty() {
            return Err(RunError::at(op, format!("{name} with a transpose is not supported by the CPU twin yet")));
        }
        let seg = segments(ir, op);
        let (n_in, n_out) = (seg.first().copied().unwrap_or(0), seg.get(1).copied().unwrap_or(0));
        if n_out != 1 {
            return Err(RunError::at(op, "expected one output"));
        }
        let ops = ir.operands(op);
        let dst = self.memref(op, ops[n_in])?;
        let ins: Vec<Val> = ops[..n_in].iter().map(|v| self.get(*v).clone()).collect();
        let site = Site { op: Some(op), detail: None };
        self.sync.issue(sync::V);
        for v in &ins {
            if let Val::Mem(m) = v {
                if m.sizes != dst.sizes {
                    return Err(RunError::at(op, "the CPU twin runs vector ops on operands of one shape only"));
                }
                self.access_view(sync::V, m, false, &site);
            }
        }
        self.access_view(sync::V, &dst, true, &site);
        let short = &name["hivm.hir.".len()..];
        if let Some(r) = super::fast::elementwise(&mut self.mem, short, &ins, &dst) {
            return r.map_err(|e| RunError::at(op, e));
        }
        let mut offs = Vec::new();
        dst.for_each(|o| offs.push(o));
        let in_offs: Vec<Vec<i64>> = ins
            .iter()
            .map(|v| match v {
                Val::Mem(m) => {
                    let mut o = Vec::new();
                    m.for_each(|x| o.push(x));
                    o
                }
                _ => Vec::new(),
            })
            .collect();
        for (k, d) in offs.iter().enumerate() {
            let mut xs = Vec::with_capacity(ins.len());
            for (i, v) in ins.iter().enumerate() {
                xs.push(match v {
                    Val::Mem(m) => load(&self.mem, m.buf, m.elem, in_offs[i][k])
                        .ok_or_else(|| RunError::at(op, "vector op reads outside its input buffer"))?,
                    other => other.clone(),
                });
            }
            let r = apply(short, dst.elem, &xs).ok_or_else(|| unsupported(ir, op))?;
            if !store(&mut self.mem, dst.buf, dst.elem, *d, &r) {
                return Err(RunError::at(op, "vector op writes outside its output buffer"));
            }
        }
        Ok(())
    }
}

impl Interp<'_> {
    /// Reads and writes of a one-instruction V op.
    fn v_accesses(&mut self, ins: &[Val], out: &MemRefVal, op: OpId) {
        self.pipe_accesses(sync::V, ins, out, op);
    }

    /// Reads and writes of a one-instruction op on `pipe`.
    pub(super) fn pipe_accesses(&mut self, pipe: usize, ins: &[Val], out: &MemRefVal, op: OpId) {
        let site = Site { op: Some(op), detail: None };
        self.sync.issue(pipe);
        for v in ins {
            if let Val::Mem(m) = v {
                self.access_view(pipe, m, false, &site);
            }
        }
        self.access_view(pipe, out, true, &site);
    }

    /// `vbrc`: a scalar, or a memref with size-1 dims, spread over the output.
    fn vbrc(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let src = self.get(ir.operand(op, 0)).clone();
        let dst = self.memref(op, ir.operand(op, 1))?;
        // Into L1 it is a DMA on MTE2 (the dialect's op -> pipe map), as the
        // solver synchronises it; into UB vector work.
        let pipe = self.op_pipe(op)?;
        self.pipe_accesses(pipe, std::slice::from_ref(&src), &dst, op);
        let mut offs = Vec::new();
        dst.for_each(|o| offs.push(o));
        for (k, o) in offs.iter().enumerate() {
            let v = match &src {
                Val::Mem(m) => {
                    if m.sizes.len() != dst.sizes.len() {
                        return Err(RunError::at(op, "vbrc operands must have the same rank"));
                    }
                    let mut idx = unflatten(k as i64, &dst.sizes);
                    for (d, i) in idx.iter_mut().enumerate() {
                        if m.sizes[d] == 1 {
                            *i = 0;
                        }
                    }
                    let off = m.linear(&idx).ok_or_else(|| RunError::at(op, "vbrc source shape does not broadcast"))?;
                    load(&self.mem, m.buf, m.elem, off)
                        .ok_or_else(|| RunError::at(op, "vbrc reads outside its source"))?
                }
                scalar => scalar.clone(),
            };
            let v = convert(&v, dst.elem, "rint", false);
            if !store(&mut self.mem, dst.buf, dst.elem, *o, &v) {
                return Err(RunError::at(op, "vbrc writes outside its output"));
            }
        }
        Ok(())
    }

    /// `varange`: each element of `dst` is `offset + sum(index[d] * strides[d])`.
    fn varange(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let sizes = segments(ir, op);
        let (dst_v, offset, strides) = match sizes[..] {
            [1, n_off, n_str] if n_off <= 1 => {
                let ops = ir.operands(op);
                (ops[0], ops.get(1).filter(|_| n_off == 1).copied(), ops[1 + n_off..1 + n_off + n_str].to_vec())
            }
            _ => return Err(RunError::at(op, "varange expects its destination, an optional offset and strides")),
        };
        let dst = self.memref(op, dst_v)?;
        if strides.len() != dst.sizes.len() {
            return Err(RunError::at(op, "varange needs one stride per dimension of its destination"));
        }
        let base = offset.map(|o| self.int(o)).unwrap_or(0);
        let steps: Vec<i64> = strides.iter().map(|s| self.int(*s)).collect();
        self.v_accesses(&[], &dst, op);
        let mut offs = Vec::new();
        dst.for_each(|o| offs.push(o));
        for (k, o) in offs.iter().enumerate() {
            let idx = unflatten(k as i64, &dst.sizes);
            let value = idx.iter().zip(&steps).fold(base, |acc, (i, s)| acc.wrapping_add(i.wrapping_mul(*s)));
            let v = convert(&Val::Int(value), dst.elem, "rint", false);
            if !store(&mut self.mem, dst.buf, dst.elem, *o, &v) {
                return Err(RunError::at(op, "varange writes outside its output"));
            }
        }
        Ok(())
    }

    /// `vcast`: elementwise conversion with the op's rounding mode.
    fn vcast(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let src = self.memref(op, ir.operand(op, 0))?;
        let dst = self.memref(op, ir.operand(op, 1))?;
        if src.sizes != dst.sizes {
            return Err(RunError::at(op, "vcast operands must have one shape"));
        }
        if let Elem::F8(_) = dst.elem {
            // Whether the vector unit saturates or overflows to NaN/inf, and
            // how it rounds, upstream does not say: refused, not guessed.
            return Err(RunError::at(op, format!("vcast to {} is not supported by the CPU twin yet", dst.elem.name())));
        }
        let mode = self.enum_attr(op, "round_mode", "round_mode").unwrap_or_else(|| "rint".into());
        let unsigned = self.enum_attr(op, "cast", "cast").as_deref() == Some("cast_unsigned");
        self.v_accesses(&[Val::Mem(src.clone())], &dst, op);
        let (mut so, mut dof) = (Vec::new(), Vec::new());
        src.for_each(|o| so.push(o));
        dst.for_each(|o| dof.push(o));
        for (s, d) in so.iter().zip(&dof) {
            let mut v =
                load(&self.mem, src.buf, src.elem, *s).ok_or_else(|| RunError::at(op, "vcast reads outside"))?;
            if unsigned && !src.elem.is_float() {
                v = Val::Int(crate::value::unsigned(v.int(), src.elem.width()) as i64);
            }
            let r = convert(&v, dst.elem, &mode, src.elem.is_float());
            if !store(&mut self.mem, dst.buf, dst.elem, *d, &r) {
                return Err(RunError::at(op, "vcast writes outside its output"));
            }
        }
        Ok(())
    }

    /// `vreduce <kind>` over the dims that have size 1 in the output; the
    /// `*_with_index` kinds also write the position of the winner (within
    /// the reduced dims, row-major) to a second output.
    fn vreduce(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let seg = segments(ir, op);
        let src = self.memref(op, ir.operand(op, 0))?;
        let dst = self.memref(op, ir.operand(op, seg[0]))?;
        let idx_out = if seg[1] > 1 { Some(self.memref(op, ir.operand(op, seg[0] + 1))?) } else { None };
        let kind = self.enum_attr(op, "arith", "reduce_op").unwrap_or_default();
        let with_index = kind.contains("with_index");
        if kind == "none" || (with_index && idx_out.is_none()) {
            return Err(RunError::at(
                op,
                format!(
                    "vreduce <{kind}> needs {}",
                    if with_index { "a second output for the index" } else { "a reduction kind" }
                ),
            ));
        }
        let tie_left = match kind.as_str() {
            k if k.ends_with("_left") => true,
            k if k.ends_with("_right") => false,
            _ => !ir
                .get_attr(op, "tie_break_left")
                .is_some_and(|a| matches!(ir.attr_data(a), hivm_ir::AttrData::Integer { value: 0, .. })),
        };
        let unsigned_src = ir
            .get_attr(op, "unsigned_src")
            .is_some_and(|a| matches!(ir.attr_data(a), hivm_ir::AttrData::Integer { value: 1, .. }));
        if src.sizes.len() != dst.sizes.len() {
            return Err(RunError::at(op, "vreduce operands must have the same rank"));
        }
        self.v_accesses(&[Val::Mem(src.clone())], &dst, op);
        if let Some(io) = &idx_out {
            let (a, n) = self.span(io);
            let site = Site { op: Some(op), detail: None };
            self.sync.access(sync::V, a, n, true, &site);
        }
        let n = dst.num_elements().max(0) as usize;
        let e = src.elem;
        let (float, w) = (e.is_float(), e.width());
        let key = |v: &Val| -> f64 {
            if float {
                v.float()
            } else if unsigned_src {
                crate::value::unsigned(v.int(), w) as f64
            } else {
                v.int() as f64
            }
        };
        let mut acc: Vec<Option<(Val, i64)>> = vec![None; n];
        let mut so = Vec::new();
        src.for_each(|o| so.push(o));
        for (k, o) in so.into_iter().enumerate() {
            let idx = unflatten(k as i64, &src.sizes);
            let slot = idx.iter().zip(&dst.sizes).fold(0i64, |a, (i, n)| a * n + if *n == 1 { 0 } else { *i }) as usize;
            // Position within the reduced dims.
            let pos = idx
                .iter()
                .zip(&src.sizes)
                .zip(&dst.sizes)
                .fold(0i64, |a, ((i, sn), dn)| if *dn == 1 && *sn != 1 { a * sn + i } else { a });
            let v = load(&self.mem, src.buf, src.elem, o)
                .ok_or_else(|| RunError::at(op, "vreduce reads outside its input"))?;
            acc[slot] = Some(match acc[slot].take() {
                None => (v, pos),
                Some((a, ai)) => {
                    let int = |f: fn(i64, i64) -> i64| Val::Int(crate::value::norm_int(f(a.int(), v.int()), w));
                    match kind.as_str() {
                        "sum" if float => (Val::Float(round_float(a.float() + v.float(), e)), ai),
                        "sum" => (int(i64::wrapping_add), ai),
                        "prod" if float => (Val::Float(round_float(a.float() * v.float(), e)), ai),
                        "prod" => (int(i64::wrapping_mul), ai),
                        "xori" => (int(|x, y| x ^ y), ai),
                        "ori" | "any" => (int(|x, y| x | y), ai),
                        "andi" | "all" => (int(|x, y| x & y), ai),
                        k => {
                            let max = k.starts_with("max");
                            let (ka, kv) = (key(&a), key(&v));
                            let better = if max { kv > ka } else { kv < ka };
                            let tie = kv == ka && !tie_left;
                            if better || tie { (v, pos) } else { (a, ai) }
                        }
                    }
                }
            });
        }
        let mut dof = Vec::new();
        dst.for_each(|o| dof.push(o));
        let mut iof = Vec::new();
        if let Some(io) = &idx_out {
            io.for_each(|o| iof.push(o));
        }
        for (k, (o, a)) in dof.iter().zip(acc).enumerate() {
            let Some((v, i)) = a else { continue };
            if !store(&mut self.mem, dst.buf, dst.elem, *o, &v) {
                return Err(RunError::at(op, "vreduce writes outside its output"));
            }
            if let (true, Some(io)) = (with_index, &idx_out)
                && !store(&mut self.mem, io.buf, io.elem, iof[k], &Val::Int(i))
            {
                return Err(RunError::at(op, "vreduce writes outside its index output"));
            }
        }
        Ok(())
    }

    /// `hivm.hir.matmul`: C = op(A) x op(B) (+ bias per column) over GM,
    /// reading on PIPE_MTE2 and writing on PIPE_MTE3, products summed in
    /// f32 (i32 for integer inputs) and rounded to C's type. Tiling operands
    /// (block/process sizes, swizzles) do not change the result.
    /// `hivm.hir.mix_matmul` is the same product when nothing is fused into
    /// it (no post-vector function, no communication); its workspace is the
    /// library's scratch and changes nothing either.
    fn matmul(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let seg = segments(ir, op);
        let group = |k: usize| -> Vec<hivm_ir::Value> { segment(ir, op, k).to_vec() };
        // Operand groups: (bias, descale, c), as each op's spec orders them.
        let (bias_at, descale_at, c_at) = if ir.is_op(op, "hivm.hir.mix_matmul") {
            for (k, what) in [(2, "a post-vector function"), (5, "communication parameters")] {
                if seg.get(k).copied().unwrap_or(0) > 0 {
                    return Err(RunError::at(
                        op,
                        format!("mix_matmul with {what} fused into it is not supported by the CPU twin yet"),
                    ));
                }
            }
            (6, 7, 13)
        } else {
            (3, 4, 10)
        };
        let (a, b) = (self.memref(op, group(0)[0])?, self.memref(op, group(1)[0])?);
        let Some(&cv) = group(c_at).first() else { return Err(RunError::at(op, "matmul without an output")) };
        let c = self.memref(op, cv)?;
        if seg.get(descale_at).copied().unwrap_or(0) > 0 {
            return Err(RunError::at(op, "matmul with descale is not supported by the CPU twin yet"));
        }
        let bias = match group(bias_at).first() {
            Some(v) => Some(self.memref(op, *v)?),
            None => None,
        };
        if a.sizes.len() != 2 || b.sizes.len() != 2 || c.sizes.len() != 2 {
            return Err(RunError::at(op, "the CPU twin runs 2-d matmuls only"));
        }
        let (ta, tb) = (ir.has_attr(op, "aTranspose"), ir.has_attr(op, "bTranspose"));
        let (m, k) = if ta { (a.sizes[1], a.sizes[0]) } else { (a.sizes[0], a.sizes[1]) };
        let (kb, n) = if tb { (b.sizes[1], b.sizes[0]) } else { (b.sizes[0], b.sizes[1]) };
        if k != kb || c.sizes != [m, n] {
            return Err(RunError::at(
                op,
                format!("matmul shapes do not agree: A is {m}x{k}, B is {kb}x{n}, C is {:?}", c.sizes),
            ));
        }
        let site = Site { op: Some(op), detail: None };
        self.sync.issue(sync::pipe_index("PIPE_MTE2").unwrap_or(sync::S));
        for x in [Some(&a), Some(&b), bias.as_ref()].into_iter().flatten() {
            self.access_view(sync::pipe_index("PIPE_MTE2").unwrap_or(sync::S), x, false, &site);
        }
        let mte3 = sync::pipe_index("PIPE_MTE3").unwrap_or(sync::S);
        self.sync.issue(mte3);
        self.access_view(mte3, &c, true, &site);
        let read = |this: &Self, x: &MemRefVal, i: i64, j: i64| -> R<Val> {
            let o = x.linear(&[i, j]).ok_or_else(|| RunError::at(op, "matmul index out of range"))?;
            load(&this.mem, x.buf, x.elem, o).ok_or_else(|| RunError::at(op, "matmul reads outside a buffer"))
        };
        let float = c.elem.is_float() || a.elem.is_float();
        for i in 0..m {
            for j in 0..n {
                // A large matmul is one op: Ctrl-C is asked inside it.
                self.periodic(op)?;
                let (mut fs, mut is) = (0f32, 0i64);
                for p in 0..k {
                    let x = if ta { read(self, &a, p, i)? } else { read(self, &a, i, p)? };
                    let y = if tb { read(self, &b, j, p)? } else { read(self, &b, p, j)? };
                    if float {
                        fs += x.float() as f32 * y.float() as f32;
                    } else {
                        is = is.wrapping_add(x.int().wrapping_mul(y.int()));
                    }
                }
                if let Some(bv) = &bias {
                    let o =
                        bv.linear(&[j]).or_else(|| bv.linear(&[0, j])).ok_or_else(|| RunError::at(op, "bias shape"))?;
                    let v = load(&self.mem, bv.buf, bv.elem, o).ok_or_else(|| RunError::at(op, "bias read"))?;
                    fs += v.float() as f32;
                    is = is.wrapping_add(v.int());
                }
                let out = if float {
                    Val::Float(round_float(fs as f64, c.elem))
                } else {
                    Val::Int(crate::value::norm_int(is, c.elem.width()))
                };
                let o = c.linear(&[i, j]).expect("in range");
                if !store(&mut self.mem, c.buf, c.elem, o, &out) {
                    return Err(RunError::at(op, "matmul writes outside its output"));
                }
            }
        }
        Ok(())
    }

    /// `vgather ins(src) indices(idx) outs(dst)`: dst[v] = src[v with the
    /// gather axis replaced by idx[v]].
    fn vgather(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let (src, idx, dst) = (
            self.memref(op, ir.operand(op, 0))?,
            self.memref(op, ir.operand(op, 1))?,
            self.memref(op, ir.operand(op, 2))?,
        );
        if idx.sizes != dst.sizes || src.sizes.len() != dst.sizes.len() {
            return Err(RunError::at(op, "vgather: indices and output must have one shape, of the source's rank"));
        }
        let axis = ir
            .get_attr(op, "gather_axis")
            .and_then(|a| ir.as_int(a))
            .map(|a| a as usize)
            .unwrap_or(dst.sizes.len().wrapping_sub(1));
        if axis >= dst.sizes.len() {
            return Err(RunError::at(
                op,
                format!("vgather: gather_axis {axis} is not a dimension of the rank-{} output", dst.sizes.len()),
            ));
        }
        self.v_accesses(&[Val::Mem(src.clone()), Val::Mem(idx.clone())], &dst, op);
        let mut dof = Vec::new();
        dst.for_each(|o| dof.push(o));
        for (k, o) in dof.iter().enumerate() {
            let mut at = unflatten(k as i64, &dst.sizes);
            let io = idx.linear(&at).expect("same shape");
            at[axis] = load(&self.mem, idx.buf, idx.elem, io)
                .ok_or_else(|| RunError::at(op, "vgather reads outside its indices"))?
                .int();
            let so = src.linear(&at).ok_or_else(|| {
                RunError::at(
                    op,
                    format!(
                        "vgather index {} is outside the source's {} elements on axis {axis}",
                        at[axis], src.sizes[axis]
                    ),
                )
            })?;
            let v = load(&self.mem, src.buf, src.elem, so)
                .ok_or_else(|| RunError::at(op, "vgather reads outside its source"))?;
            if !store(&mut self.mem, dst.buf, dst.elem, *o, &v) {
                return Err(RunError::at(op, "vgather writes outside its output"));
            }
        }
        Ok(())
    }
}

/// A value converted to element type `to`; floats become integers with
/// rounding `mode` (saturating except in `truncwithoverflow`).
fn convert(v: &Val, to: Elem, mode: &str, from_float: bool) -> Val {
    if to.is_float() {
        return Val::Float(round_float(v.float(), to));
    }
    if !from_float {
        return Val::Int(crate::value::norm_int(v.int(), to.width()));
    }
    let x = v.float();
    let r = match mode {
        "round" => x.round(),
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        "trunc" | "truncwithoverflow" => x.trunc(),
        _ => x.round_ties_even(),
    };
    if mode == "truncwithoverflow" {
        return Val::Int(crate::value::norm_int(r as i128 as i64, to.width()));
    }
    let w = to.width();
    let (lo, hi) = if w >= 64 {
        (i64::MIN as f64, i64::MAX as f64)
    } else {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0)
    };
    Val::Int(if r.is_nan() { 0 } else { r.clamp(lo, hi) as i64 })
}

pub(super) fn apply(op: &str, e: Elem, xs: &[Val]) -> Option<Val> {
    if e.is_float() {
        let a = xs.first()?.float();
        let b = xs.get(1).map(|v| v.float()).unwrap_or(0.0);
        let r = match op {
            "vadd" => a + b,
            "vsub" => a - b,
            "vmul" => a * b,
            "vdiv" => a / b,
            "vmax" => a.max(b),
            "vmin" => a.min(b),
            "vabs" => a.abs(),
            "vexp" => a.exp(),
            "vln" => a.ln(),
            "vrelu" => a.max(0.0),
            "vsqrt" => a.sqrt(),
            "vrsqrt" => 1.0 / a.sqrt(),
            "vrec" => 1.0 / a,
            "vtanh" => a.tanh(),
            "vsin" => a.sin(),
            "vcos" => a.cos(),
            "vpow" => a.powf(b),
            _ => return None,
        };
        Some(Val::Float(round_float(r, e)))
    } else {
        let a = xs.first()?.int();
        let b = xs.get(1).map(|v| v.int()).unwrap_or(0);
        let r = match op {
            "vadd" => a.wrapping_add(b),
            "vsub" => a.wrapping_sub(b),
            "vmul" => a.wrapping_mul(b),
            "vmax" => a.max(b),
            "vmin" => a.min(b),
            "vabs" => a.wrapping_abs(),
            "vrelu" => a.max(0),
            "vand" => a & b,
            "vor" => a | b,
            "vxor" => a ^ b,
            "vnot" => !a,
            "vdiv" if b != 0 => a.wrapping_div(b),
            "vpow" if b >= 0 => a.wrapping_pow(b.min(u32::MAX as i64) as u32),
            _ => return None,
        };
        Some(Val::Int(crate::value::norm_int(r, e.width())))
    }
}

impl Interp<'_> {
    /// A load's padding clauses: a pad value with no elements of padding
    /// (left and right counts 0 at run time, no initialisation of the
    /// destination; `hivm-aggregated-decompose-op` splits initialisation
    /// off as a `vbrc`) is a plain load; anything else is refused.
    fn check_load_padding(&self, op: OpId) -> R<()> {
        let ir = self.ir;
        let refuse = |what: &str| {
            Err(RunError::at(op, format!("hivm.hir.load with {what} is not supported by the CPU twin yet")))
        };
        let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return refuse_dma_clauses(ir, op) };
        let group = |name: &str| c.operand_index(name).map(|g| c.operand_group(ir, op, g).to_vec()).unwrap_or_default();
        if !group("init_condition").is_empty()
            || ir.get_attr(op, "init_out_buffer").and_then(|a| ir.as_int(a)) == Some(1)
        {
            return refuse("an initialisation of its destination (run hivm-aggregated-decompose-op first)");
        }
        for count in group("left_padding_num").into_iter().chain(group("right_padding_num")) {
            if self.int(count) != 0 {
                return refuse("padding elements");
            }
        }
        if ir.get_attr(op, "may_implicit_transpose_with_last_axis").and_then(|a| ir.as_int(a)) == Some(1) {
            return refuse("an implicit transpose");
        }
        Ok(())
    }
}

/// The DMA clauses the twin does not model (padding, initialisation of the
/// destination, implicit transposes, atomics): refused, never ignored.
fn refuse_dma_clauses(ir: &Ir, op: OpId) -> R<()> {
    let name = ir.op_name(op);
    let refuse = |what: &str| Err(RunError::at(op, format!("{name} with {what} is not supported by the CPU twin yet")));
    if ir.operands(op).len() > 2 {
        return refuse("padding or an initialisation condition");
    }
    let flag = |k: &str| ir.get_attr(op, k).and_then(|a| ir.as_int(a)) == Some(1);
    if flag("init_out_buffer") {
        return refuse("init_out_buffer = true");
    }
    if flag("may_implicit_transpose_with_last_axis") {
        return refuse("an implicit transpose");
    }
    let value = |k: &str, m: &str| {
        ir.get_attr(op, k).and_then(|a| hivm_dialects::util::opaque_arg(ir, a, m)).map(str::to_string)
    };
    if value("pad_mode", "padmode").is_some_and(|v| v != "PadNull") {
        return refuse("a pad mode");
    }
    if value("atomic_kind", "atomic_kind").is_some_and(|v| v != "none") {
        return refuse("an atomic kind");
    }
    if ir.get_attr(op, "collapse_reassociation").is_some() {
        return refuse("collapse_reassociation");
    }
    Ok(())
}

//! memref ops and `linalg.fill` on memrefs.

use std::rc::Rc;

use hivm_dialects::util::{i64_array, segments};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{OpId, TypeData, Value};

use super::{Interp, R, RunError, space_of, unsupported};
use crate::value::{Elem, MemRefVal, Val, load, store};

impl Interp<'_> {
    /// The element type and static shape of a memref-typed value.
    fn memref_type(&self, op: OpId, v: Value) -> R<(Elem, Vec<i64>)> {
        let ir = self.ir;
        match ir.type_data(ir.value_type(v)) {
            TypeData::MemRef { shape, elem, .. } => {
                let e = Elem::of(ir, *elem).ok_or_else(|| {
                    RunError::at(op, "memrefs of this element type are not supported by the CPU twin")
                })?;
                Ok((e, shape.clone()))
            }
            _ => Err(RunError::at(op, "expected a ranked memref")),
        }
    }

    /// A static list with `DYNAMIC` entries taken, in order, from `dynamic`.
    pub(super) fn mixed<'v>(&self, stat: &[i64], dynamic: &mut impl Iterator<Item = &'v Value>) -> Vec<i64> {
        stat.iter()
            .map(|x| if *x == DYNAMIC { dynamic.next().map(|v| self.int(*v)).unwrap_or(0) } else { *x })
            .collect()
    }

    fn indices(&self, vals: &[Value]) -> Vec<i64> {
        vals.iter().map(|v| self.int(*v)).collect()
    }

    fn element_offset(&self, op: OpId, m: &MemRefVal, idx: &[i64]) -> R<i64> {
        m.linear(idx).ok_or_else(|| {
            RunError::at(op, format!("index {idx:?} is out of bounds of a memref of shape {:?}", m.sizes))
        })
    }

    /// `memref.load`'s element (both interpreter tiers use this).
    pub(super) fn load_element(&self, op: OpId, m: &MemRefVal, idx: &[i64]) -> R<Val> {
        let off = self.element_offset(op, m, idx)?;
        load(&self.mem, m.buf, m.elem, off).ok_or_else(|| RunError::at(op, "load outside the memref's buffer"))
    }

    /// `memref.store` of `v` (both interpreter tiers use this).
    pub(super) fn store_element(&mut self, op: OpId, m: &MemRefVal, idx: &[i64], v: &Val) -> R<()> {
        let off = self.element_offset(op, m, idx)?;
        if !store(&mut self.mem, m.buf, m.elem, off, v) {
            return Err(RunError::at(op, "store outside the memref's buffer"));
        }
        Ok(())
    }

    /// Copies every element of `src` to the same position of `dst`.
    pub(super) fn copy_elements(&mut self, op: OpId, src: &MemRefVal, dst: &MemRefVal) -> R<()> {
        if src.sizes != dst.sizes {
            return Err(RunError::at(op, format!("copy between shapes {:?} and {:?}", src.sizes, dst.sizes)));
        }
        if let Some(r) = super::fast::copy(&mut self.mem, src, dst) {
            return r.map_err(|e| RunError::at(op, format!("copy {e}")));
        }
        let mut offs = Vec::with_capacity(src.num_elements().max(0) as usize);
        src.for_each(|o| offs.push(o));
        let mut i = 0;
        let mut err = None;
        let mut dst_offs = Vec::with_capacity(offs.len());
        dst.for_each(|o| dst_offs.push(o));
        for (s, d) in offs.iter().zip(&dst_offs) {
            let Some(v) = load(&self.mem, src.buf, src.elem, *s) else {
                err = Some("reads outside its source buffer");
                break;
            };
            if !store(&mut self.mem, dst.buf, dst.elem, *d, &v) {
                err = Some("writes outside its destination buffer");
                break;
            }
            i += 1;
        }
        let _ = i;
        match err {
            Some(e) => Err(RunError::at(op, format!("copy {e}"))),
            None => Ok(()),
        }
    }

    pub(super) fn memref_op(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let ops = ir.operands(op);
        match name {
            "memref.alloc" | "memref.alloca" => {
                let res = ir.result(op, 0);
                let (elem, shape) = self.memref_type(op, res)?;
                let n_dynamic = segments(ir, op).first().copied().unwrap_or(ops.len());
                let sizes = self.mixed(&shape, &mut ops[..n_dynamic].iter());
                if let Some(n) = sizes.iter().find(|n| **n < 0) {
                    return Err(RunError::at(op, format!("negative size {n}")));
                }
                // Local buffers without a memory space are placed in UB by the
                // device pipeline; here too, as long as they fit.
                let t = ir.value_type(res);
                let explicit = matches!(ir.type_data(t), TypeData::MemRef { memory_space: Some(_), .. });
                let space = space_of(ir, t);
                let m = if explicit {
                    self.alloc(op, elem, sizes, space)?
                } else {
                    match self.alloc(op, elem, sizes.clone(), crate::memory::Space::Ub) {
                        Ok(m) => m,
                        Err(_) => self.alloc(op, elem, sizes, crate::memory::Space::Gm)?,
                    }
                };
                let mut m = Rc::unwrap_or_clone(m);
                m.root = Some(op);
                self.set(res, Val::Mem(Rc::new(m)));
                self.note_ub_root(op, res);
                self.owners.born(op);
            }
            "memref.dealloc" => {}
            "memref.load" => {
                let m = self.memref(op, ops[0])?;
                let idx = self.indices(&ops[1..]);
                let v = self.load_element(op, &m, &idx)?;
                self.set(ir.result(op, 0), v);
            }
            "memref.store" => {
                let v = self.get(ops[0]).clone();
                let m = self.memref(op, ops[1])?;
                let idx = self.indices(&ops[2..]);
                self.store_element(op, &m, &idx, &v)?;
            }
            "memref.copy" => {
                let (s, d) = (self.memref(op, ops[0])?, self.memref(op, ops[1])?);
                self.copy_elements(op, &s, &d)?;
            }
            "linalg.fill" => {
                let v = self.get(ops[0]).clone();
                let d = self.memref(op, ops[1])?;
                let mut offs = Vec::new();
                d.for_each(|o| offs.push(o));
                for o in offs {
                    if !store(&mut self.mem, d.buf, d.elem, o, &v) {
                        return Err(RunError::at(op, "fill outside the memref's buffer"));
                    }
                }
            }
            "memref.cast" | "memref.memory_space_cast" | "bufferization.to_buffer" => {
                let m = self.memref(op, ops[0])?;
                self.set(ir.result(op, 0), Val::Mem(m));
            }
            "memref.dim" => {
                let m = self.memref(op, ops[0])?;
                let d = self.int(ops[1]);
                let n = usize::try_from(d).ok().and_then(|d| m.sizes.get(d)).copied();
                let n = n.ok_or_else(|| RunError::at(op, format!("dimension {d} out of range")))?;
                self.set(ir.result(op, 0), Val::Int(n));
            }
            "memref.subview" => {
                let m = self.memref(op, ops[0])?;
                let mut dynamic = ops[1..].iter();
                let offsets = self.mixed(&i64_array(ir, op, "static_offsets"), &mut dynamic);
                let sizes = self.mixed(&i64_array(ir, op, "static_sizes"), &mut dynamic);
                let strides = self.mixed(&i64_array(ir, op, "static_strides"), &mut dynamic);
                let mut off = m.offset;
                for (d, o) in offsets.iter().enumerate() {
                    let (n, s) = (m.sizes.get(d).copied().unwrap_or(1), m.strides.get(d).copied().unwrap_or(1));
                    let last = *o as i128 + (sizes[d] as i128 - 1).max(0) * strides[d] as i128;
                    if *o < 0 || strides[d] < 0 || (sizes[d] > 0 && last >= n as i128) {
                        return Err(RunError::at(
                            op,
                            format!("subview dimension {d} ({o} + {} x {}) exceeds size {n}", sizes[d], strides[d]),
                        ));
                    }
                    off = o
                        .checked_mul(s)
                        .and_then(|t| off.checked_add(t))
                        .ok_or_else(|| RunError::at(op, "subview offset overflows"))?;
                }
                let (_, rshape) = self.memref_type(op, ir.result(op, 0))?;
                let keep = hivm_dialects::util::rank_reduction_keep(&sizes, &rshape)
                    .unwrap_or_else(|| vec![true; sizes.len()]);
                let mut new_sizes = Vec::new();
                let mut new_strides = Vec::new();
                for d in 0..sizes.len() {
                    if keep[d] {
                        new_sizes.push(sizes[d]);
                        new_strides.push(m.strides[d].saturating_mul(strides[d]));
                    }
                }
                let v = MemRefVal {
                    buf: m.buf,
                    elem: m.elem,
                    offset: off,
                    sizes: new_sizes,
                    strides: new_strides,
                    root: m.root,
                };
                self.set(ir.result(op, 0), Val::Mem(Rc::new(v)));
            }
            "memref.reinterpret_cast" => {
                let m = self.memref(op, ops[0])?;
                let mut dynamic = ops[1..].iter();
                let offset = self.mixed(&i64_array(ir, op, "static_offsets"), &mut dynamic);
                let sizes = self.mixed(&i64_array(ir, op, "static_sizes"), &mut dynamic);
                let strides = self.mixed(&i64_array(ir, op, "static_strides"), &mut dynamic);
                let v = MemRefVal {
                    buf: m.buf,
                    elem: m.elem,
                    offset: offset.first().copied().unwrap_or(0),
                    sizes,
                    strides,
                    root: m.root,
                };
                let (lo, hi) = v.byte_span();
                let len = self.mem.get(v.buf).len() as i64;
                if lo < 0 || hi > len {
                    return Err(RunError::at(
                        op,
                        format!("reinterpret_cast views bytes [{lo}, {hi}) of a buffer of {len} bytes"),
                    ));
                }
                self.set(ir.result(op, 0), Val::Mem(Rc::new(v)));
            }
            "memref.collapse_shape" | "memref.expand_shape" => {
                let m = self.memref(op, ops[0])?;
                let (_, rshape) = self.memref_type(op, ir.result(op, 0))?;
                let groups: Vec<Vec<usize>> = hivm_dialects::util::reassociation(ir, op)
                    .into_iter()
                    .map(|g| g.into_iter().map(|d| d as usize).collect())
                    .collect();
                let v = if name == "memref.collapse_shape" {
                    let mut sizes = Vec::new();
                    let mut strides = Vec::new();
                    for g in &groups {
                        sizes.push(g.iter().fold(1i64, |a, d| a.saturating_mul(m.sizes[*d])));
                        strides.push(g.last().map(|d| m.strides[*d]).unwrap_or(1));
                    }
                    MemRefVal { buf: m.buf, elem: m.elem, offset: m.offset, sizes, strides, root: m.root }
                } else {
                    let out: Vec<i64> = i64_array(ir, op, "static_output_shape");
                    let out = if out.is_empty() { rshape.clone() } else { out };
                    let sizes = self.mixed(&out, &mut ops[1..].iter());
                    let mut strides = vec![1; sizes.len()];
                    for (src_dim, g) in groups.iter().enumerate() {
                        let mut s = m.strides[src_dim];
                        for d in g.iter().rev() {
                            strides[*d] = s;
                            s *= sizes[*d];
                        }
                    }
                    MemRefVal { buf: m.buf, elem: m.elem, offset: m.offset, sizes, strides, root: m.root }
                };
                self.set(ir.result(op, 0), Val::Mem(Rc::new(v)));
            }
            "bufferization.to_tensor" => {
                let m = self.memref(op, ops[0])?;
                self.set(ir.result(op, 0), Val::Mem(m));
            }
            _ => return Err(unsupported(ir, op)),
        }
        Ok(())
    }
}

//! memref ops and `linalg.fill` on memrefs.

use std::rc::Rc;

use hivm_dialects::util::{i64_array, segments};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{OpId, TypeData, Value};

use super::{Interp, R, RunError, space_of, unsupported};
use crate::memory::Space;
use crate::sync::{self, Site};
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
            let inside = idx.len() == m.sizes.len() && idx.iter().zip(&m.sizes).all(|(i, n)| *i >= 0 && i < n);
            match inside {
                // In the shape, but its offset overflows: no buffer reaches it.
                true => {
                    RunError::at(op, format!("index {idx:?} lies outside the memref's buffer (its offset overflows)"))
                }
                false => RunError::at(op, format!("index {idx:?} is out of bounds of a memref of shape {:?}", m.sizes)),
            }
        })
    }

    /// `memref.load`'s element (both interpreter tiers use this), read by
    /// the scalar unit.
    pub(super) fn load_element(&mut self, op: OpId, m: &MemRefVal, idx: &[i64]) -> R<Val> {
        let off = self.element_offset(op, m, idx)?;
        self.scalar_element(op, m, off, false);
        load(&self.mem, m.buf, m.elem, off).ok_or_else(|| RunError::at(op, "load outside the memref's buffer"))
    }

    /// `memref.store` of `v` (both interpreter tiers use this), written by
    /// the scalar unit.
    pub(super) fn store_element(&mut self, op: OpId, m: &MemRefVal, idx: &[i64], v: &Val) -> R<()> {
        let off = self.element_offset(op, m, idx)?;
        self.scalar_element(op, m, off, true);
        if !store(&mut self.mem, m.buf, m.elem, off, v) {
            return Err(RunError::at(op, "store outside the memref's buffer"));
        }
        Ok(())
    }

    /// One scalar instruction's access of the element at offset `off` of `m`.
    fn scalar_element(&mut self, op: OpId, m: &MemRefVal, off: i64, write: bool) {
        let size = m.elem.size() as u64;
        let addr = self.mem.get(m.buf).addr().wrapping_add((off as u64).wrapping_mul(size));
        let site = Site { op: Some(op), detail: None };
        if self.config.scalar_barriers {
            // Other blocks still see the access.
            self.sync.block_accesses(sync::S, &[(addr, size)], sync::blocks::Kind::of(write), &site);
            return self.sync.full_barrier();
        }
        self.sync.issue(sync::S);
        self.sync.access(sync::S, addr, size, write, &site);
    }

    /// One scalar op (`memref.copy`, `linalg.fill`) over whole views: the
    /// bytes their elements occupy, read from `reads` and written to `writes`.
    fn scalar_views(&mut self, op: OpId, reads: &[&MemRefVal], writes: &[&MemRefVal]) {
        let site = Site { op: Some(op), detail: None };
        if self.config.scalar_barriers {
            // Other blocks still see the accesses.
            if self.sync.blocks.is_some() {
                for (views, write) in [(reads, false), (writes, true)] {
                    for m in views {
                        for (a, n) in self.byte_runs(m) {
                            self.sync.block_accesses(sync::S, &[(a, n)], sync::blocks::Kind::of(write), &site);
                        }
                    }
                }
            }
            return self.sync.full_barrier();
        }
        self.sync.issue(sync::S);
        for (views, write) in [(reads, false), (writes, true)] {
            for m in views {
                for (a, n) in self.byte_runs(m) {
                    self.sync.access(sync::S, a, n, write, &site);
                }
            }
        }
    }

    /// The host byte ranges of a view's elements, touching ones merged.
    pub(super) fn byte_runs(&self, m: &MemRefVal) -> Vec<(u64, u64)> {
        let (lo, hi) = m.byte_span();
        let base = self.mem.get(m.buf).addr();
        let size = m.elem.size() as i64;
        if hi - lo == m.num_elements().saturating_mul(size) {
            return if hi > lo { vec![(base + lo.max(0) as u64, (hi - lo) as u64)] } else { Vec::new() };
        }
        let mut offs = Vec::new();
        m.for_each(|o| offs.push(o * size));
        offs.sort_unstable();
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for o in offs {
            let a = base.wrapping_add(o as u64);
            match runs.last_mut() {
                Some((s, n)) if *s + *n >= a => *n = (*n).max(a + size as u64 - *s),
                _ => runs.push((a, size as u64)),
            }
        }
        runs
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
        let size = src.elem.size();
        for (s, d) in offs.iter().zip(&dst_offs) {
            if src.elem == dst.elem {
                // Same type: the bits move as they are (an f8 NaN's sign and
                // payload are not the twin's to canonicalize).
                let bytes = self.mem.get(src.buf).bytes().get(*s as usize * size..(*s as usize + 1) * size);
                let Some(raw) = bytes.map(<[u8]>::to_vec) else {
                    err = Some("reads outside its source buffer");
                    break;
                };
                match self.mem.get_mut(dst.buf).bytes_mut().get_mut(*d as usize * size..(*d as usize + 1) * size) {
                    Some(out) => out.copy_from_slice(&raw),
                    None => {
                        err = Some("writes outside its destination buffer");
                        break;
                    }
                }
                i += 1;
                continue;
            }
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

    /// Where the unspaced buffer `res` (made by `op`) goes if not to UB
    /// (`placement.rs`).
    fn home(&mut self, op: OpId, res: hivm_ir::Value) -> Option<Space> {
        let (ir, func) = (self.ir, self.enclosing_func(op).unwrap_or(op));
        let homes = self.homes.entry(func).or_insert_with(|| std::rc::Rc::new(super::placement::homes(ir, func)));
        homes.get(&res).copied()
    }

    /// The buffer of the `memref.global` that `memref.get_global` `op`
    /// names, filled with its initial value when the block first reads it.
    fn global(&mut self, op: OpId) -> R<Rc<MemRefVal>> {
        let ir = self.ir;
        let name = match ir.get_attr(op, "name").map(|a| ir.attr_data(a)) {
            Some(hivm_ir::AttrData::SymbolRef { root, .. }) => ir.sym_str(*root),
            _ => return Err(RunError::at(op, "memref.get_global without a name")),
        };
        let g = hivm_ir::builder::lookup_symbol_from(ir, op, name)
            .filter(|g| ir.is_op(*g, "memref.global"))
            .ok_or_else(|| RunError::at(op, format!("no memref.global @{name}")))?;
        if let Some(m) = self.globals.get(&g) {
            return Ok(m.clone());
        }
        let (elem, shape) = self.memref_type(op, ir.result(op, 0))?;
        let m = self.alloc(op, elem, shape, crate::memory::Space::Gm)?;
        let init = ir.get_attr(g, "initial_value").map(|a| ir.attr_data(a));
        let Some(hivm_ir::AttrData::DenseElements { splat, elems, .. }) = init else {
            return Err(RunError::at(op, format!("@{name} has no dense initial value the CPU twin can read")));
        };
        let n = m.num_elements().max(0) as usize;
        for k in 0..n {
            let e = if *splat { elems.first() } else { elems.get(k) };
            let v = match e {
                Some(hivm_ir::attrs::DenseElem::Int(v)) => Val::Int(crate::value::norm_int(*v as i64, elem.width())),
                Some(hivm_ir::attrs::DenseElem::Float(bits)) => Val::Float(super::arith::float_from_bits(*bits, elem)),
                _ => return Err(RunError::at(op, format!("@{name}'s initial value is not numbers of its type"))),
            };
            if !store(&mut self.mem, m.buf, elem, k as i64, &v) {
                return Err(RunError::at(op, "global outside its buffer"));
            }
        }
        self.globals.insert(g, m.clone());
        Ok(m)
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
                } else if let (Some(Space::L0c), "memref.alloc") = (self.home(op, res), name) {
                    self.alloc(op, elem, sizes, Space::L0c)?
                } else if self.mix.is_some() || self.home(op, res) == Some(Space::Gm) || name == "memref.alloca" {
                    // GM-read buffers (placement.rs), and the scalar unit's stack (a
                    // lowered multi-buffer counter lives there): not in UB. Nor in a
                    // mix kernel, whose cores share only GM (a workspace between
                    // the cube and the vector cores).
                    self.alloc(op, elem, sizes, crate::memory::Space::Gm)?
                } else {
                    match self.alloc(op, elem, sizes.clone(), crate::memory::Space::Ub) {
                        Ok(m) => m,
                        Err(_) => self.alloc(op, elem, sizes, crate::memory::Space::Gm)?,
                    }
                };
                let mut m = Rc::unwrap_or_clone(m);
                m.root = Some(op);
                m.life = self.owners.born(op);
                self.set(res, Val::Mem(Rc::new(m)));
                self.note_ub_root(op, res);
            }
            "memref.dealloc" => {}
            "memref.get_global" => {
                let m = self.global(op)?;
                self.set(ir.result(op, 0), Val::Mem(m));
            }
            "memref.load" => {
                let m = self.memref(op, ops[0])?;
                if self.mem.get(m.buf).space.is_l0() {
                    self.refuse_l0(op, "a scalar load")?;
                }
                let idx = self.indices(&ops[1..]);
                let v = self.load_element(op, &m, &idx)?;
                self.set(ir.result(op, 0), v);
            }
            "memref.store" => {
                let v = self.get(ops[0]).clone();
                let m = self.memref(op, ops[1])?;
                if self.mem.get(m.buf).space.is_l0() {
                    self.refuse_l0(op, "a scalar store")?;
                }
                let idx = self.indices(&ops[2..]);
                self.store_element(op, &m, &idx, &v)?;
            }
            "memref.copy" => {
                self.refuse_l0(op, "memref.copy")?;
                let (s, d) = (self.memref(op, ops[0])?, self.memref(op, ops[1])?);
                self.scalar_views(op, &[&s], &[&d]);
                self.copy_elements(op, &s, &d)?;
            }
            "linalg.fill" => {
                let v = self.get(ops[0]).clone();
                let d = self.memref(op, ops[1])?;
                self.scalar_views(op, &[], &[&d]);
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
                    life: m.life,
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
                    life: m.life,
                };
                // The view may reach past its buffer: triton-to-linalg casts a
                // whole block at the tensor's edge and masks the access with a
                // subview. What is read or written is checked where it is.
                self.set(ir.result(op, 0), Val::Mem(Rc::new(v)));
            }
            // A typed view at a byte shift into a 1-d i8 buffer (a kernel's
            // workspace): row-major, of the result's shape.
            "memref.view" => {
                let m = self.memref(op, ops[0])?;
                if m.sizes.len() != 1 || m.elem.size() != 1 || m.strides.first().is_some_and(|s| *s != 1) {
                    return Err(RunError::at(op, "memref.view of a buffer that is not a contiguous 1-d i8 memref"));
                }
                let res = ir.result(op, 0);
                let (elem, shape) = self.memref_type(op, res)?;
                let shift = m.offset + self.int(ops[1]);
                if shift < 0 || shift % elem.size() as i64 != 0 {
                    return Err(RunError::at(
                        op,
                        format!(
                            "memref.view at byte {shift}, which is not a multiple of the {}-byte element",
                            elem.size()
                        ),
                    ));
                }
                let sizes = self.mixed(&shape, &mut ops[2..].iter());
                let mut v = MemRefVal::contiguous(m.buf, elem, sizes);
                v.offset = shift / elem.size() as i64;
                v.root = m.root;
                self.set(res, Val::Mem(Rc::new(v)));
            }
            "memref.reshape" => {
                // The shape operand's values are the sizes; the source is a
                // row-major buffer (an identity layout, which the op requires).
                let (m, shape) = (self.memref(op, ops[0])?, self.memref(op, ops[1])?);
                let mut sizes = Vec::new();
                for k in 0..shape.sizes.first().copied().unwrap_or(0) {
                    sizes.push(self.load_element(op, &shape, &[k])?.int());
                }
                let contiguous = crate::value::row_major_strides(&m.sizes);
                if m.strides != contiguous {
                    return Err(RunError::at(op, "memref.reshape of a buffer that is not row-major"));
                }
                let n = sizes.iter().try_fold(1i64, |a, d| a.checked_mul(*d));
                if sizes.iter().any(|d| *d < 0) || n != Some(m.num_elements()) {
                    return Err(RunError::at(
                        op,
                        format!("memref.reshape of {} elements to shape {sizes:?}", m.num_elements()),
                    ));
                }
                let strides = crate::value::row_major_strides(&sizes);
                let v = MemRefVal {
                    buf: m.buf,
                    elem: m.elem,
                    offset: m.offset,
                    sizes,
                    strides,
                    root: m.root,
                    life: m.life,
                };
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
                    MemRefVal { buf: m.buf, elem: m.elem, offset: m.offset, sizes, strides, root: m.root, life: m.life }
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
                    MemRefVal { buf: m.buf, elem: m.elem, offset: m.offset, sizes, strides, root: m.root, life: m.life }
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

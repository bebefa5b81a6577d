//! The HIVM vector ops outside the uniform elementwise family: compare and
//! select (whose operands differ in element type), and the ops that move
//! elements between positions (transpose, flip, the cumulative scans, concat, pad,
//! interleave and deinterleave). Each reads its inputs in row-major order,
//! computes the output positions, and writes them back, on PIPE_V.

use std::rc::Rc;

use hivm_ir::types::DYNAMIC;
use hivm_ir::{OpId, Value};

use super::{Interp, R, RunError};
use crate::sync::{self, Site};
use crate::value::{Elem, MemRefVal, Val, load, round_float, row_major_strides, store, unflatten, unsigned};

fn flat(idx: &[i64], strides: &[i64]) -> usize {
    idx.iter().zip(strides).map(|(i, s)| i * s).sum::<i64>() as usize
}

impl Interp<'_> {
    /// The operand group `name` of a declaratively defined op.
    fn group(&self, op: OpId, name: &str) -> Vec<Value> {
        let ir = self.ir;
        let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Vec::new() };
        c.operand_index(name).map(|i| c.operand_group(ir, op, i).to_vec()).unwrap_or_default()
    }

    fn memrefs(&self, op: OpId, vs: &[Value]) -> R<Vec<Rc<MemRefVal>>> {
        vs.iter().map(|v| self.memref(op, *v)).collect()
    }

    /// Every element of `m`, row-major.
    fn read_all(&self, op: OpId, m: &MemRefVal) -> R<Vec<Val>> {
        let mut offs = Vec::new();
        m.for_each(|o| offs.push(o));
        offs.iter()
            .map(|o| {
                load(&self.mem, m.buf, m.elem, *o).ok_or_else(|| RunError::at(op, "vector op reads outside its input"))
            })
            .collect()
    }

    /// Writes `vals` (row-major) into `m`.
    fn write_all(&mut self, op: OpId, m: &MemRefVal, vals: &[Val]) -> R<()> {
        let mut offs = Vec::new();
        m.for_each(|o| offs.push(o));
        for (o, v) in offs.iter().zip(vals) {
            if !store(&mut self.mem, m.buf, m.elem, *o, v) {
                return Err(RunError::at(op, "vector op writes outside its output"));
            }
        }
        Ok(())
    }

    /// The reads and writes of one PIPE_V instruction, for the sync checker.
    fn v_touch(&mut self, op: OpId, ins: &[&MemRefVal], outs: &[&MemRefVal]) {
        let site = Site { op: Some(op), detail: None };
        self.sync.issue(sync::V);
        for m in ins {
            self.access_view(sync::V, m, false, &site);
        }
        for m in outs {
            self.access_view(sync::V, m, true, &site);
        }
    }

    fn refuse_otf(&self, op: OpId, name: &str) -> R<()> {
        for k in ["transpose", "broadcast"] {
            if !hivm_dialects::util::i64_array(self.ir, op, k).is_empty() {
                return Err(RunError::at(
                    op,
                    format!("{name} with an on-the-fly {k} is not supported by the CPU twin yet"),
                ));
            }
        }
        Ok(())
    }

    /// `vcmp`: 1 where `a <mode> b` holds, else 0. Floats compare ordered
    /// (NaN compares false); integers signed unless `is_signed = false`,
    /// and i1 always unsigned, as upstream lowers the op to arith.
    pub(super) fn vcmp(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        self.refuse_otf(op, "hivm.hir.vcmp")?;
        let src = self.group(op, "src");
        let dst = self.memrefs(op, &self.group(op, "dst"))?;
        let [dst] = dst.as_slice() else { return Err(RunError::at(op, "expected one output")) };
        let a = self.memref(op, src[0])?;
        let b = self.get(src[1]).clone();
        let mode = self.enum_attr(op, "compare_mode", "compare_mode").unwrap_or_else(|| "eq".into());
        let signed = ir.get_attr(op, "is_signed").and_then(|x| ir.as_int(x)) != Some(0) && a.elem != Elem::Int(1);
        if a.sizes != dst.sizes || matches!(&b, Val::Mem(m) if m.sizes != dst.sizes) {
            return Err(RunError::at(op, "the CPU twin runs vector ops on operands of one shape only"));
        }
        let xs = self.read_all(op, &a)?;
        let ys = match &b {
            Val::Mem(m) => self.read_all(op, m)?,
            scalar => vec![scalar.clone(); xs.len()],
        };
        let mut ins = vec![a.as_ref()];
        if let Val::Mem(m) = &b {
            ins.push(m.as_ref());
        }
        self.v_touch(op, &ins, &[dst.as_ref()]);
        let width = a.elem.width();
        let mut out = Vec::with_capacity(xs.len());
        for (x, y) in xs.iter().zip(&ys) {
            let ord = if a.elem.is_float() {
                x.float().partial_cmp(&y.float())
            } else if signed {
                Some(x.int().cmp(&y.int()))
            } else {
                Some(unsigned(x.int(), width).cmp(&unsigned(y.int(), width)))
            };
            use std::cmp::Ordering::{Equal, Greater, Less};
            let holds = match (mode.as_str(), ord) {
                (_, None) => false,
                ("eq", Some(o)) => o == Equal,
                ("ne", Some(o)) => o != Equal,
                ("lt", Some(o)) => o == Less,
                ("gt", Some(o)) => o == Greater,
                ("le", Some(o)) => o != Greater,
                ("ge", Some(o)) => o != Less,
                (m, _) => return Err(RunError::at(op, format!("unknown compare mode {m}"))),
            };
            out.push(Val::Int(holds as i64));
        }
        self.write_all(op, dst, &out)
    }

    /// `vsel`: `src0` where the condition is non-zero, else `src1` (either
    /// may be a scalar).
    pub(super) fn vsel(&mut self, op: OpId) -> R<()> {
        self.refuse_otf(op, "hivm.hir.vsel")?;
        let src = self.group(op, "src");
        let dst = self.memrefs(op, &self.group(op, "dst"))?;
        let ([dst], [cond, a, b]) = (dst.as_slice(), src.as_slice()) else {
            return Err(RunError::at(op, "expected a condition, two values and one output"));
        };
        let cond = self.memref(op, *cond)?;
        let (a, b) = (self.get(*a).clone(), self.get(*b).clone());
        let shaped_alike = |v: &Val| !matches!(v, Val::Mem(m) if m.sizes != dst.sizes);
        if cond.sizes != dst.sizes || !shaped_alike(&a) || !shaped_alike(&b) {
            return Err(RunError::at(op, "the CPU twin runs vector ops on operands of one shape only"));
        }
        let n = dst.num_elements().max(0) as usize;
        let values = |me: &Self, v: &Val| -> R<Vec<Val>> {
            match v {
                Val::Mem(m) => me.read_all(op, m),
                scalar => Ok(vec![scalar.clone(); n]),
            }
        };
        let (cs, xs, ys) = (self.read_all(op, &cond)?, values(self, &a)?, values(self, &b)?);
        let mut ins = vec![cond.as_ref()];
        for v in [&a, &b] {
            if let Val::Mem(m) = v {
                ins.push(m.as_ref());
            }
        }
        self.v_touch(op, &ins, &[dst.as_ref()]);
        let out: Vec<Val> =
            cs.iter().zip(xs.into_iter().zip(ys)).map(|(c, (x, y))| if c.int() != 0 { x } else { y }).collect();
        self.write_all(op, dst, &out)
    }

    /// `vtranspose`: `dst[i] = src[j]` with `j[perm[k]] = i[k]`.
    pub(super) fn vtranspose(&mut self, op: OpId) -> R<()> {
        let src = self.memref(op, self.group(op, "src")[0])?;
        let dst = self.memref(op, self.group(op, "dst")[0])?;
        let perm = hivm_dialects::util::i64_array(self.ir, op, "permutation");
        let rank = src.sizes.len();
        let mut seen = vec![false; rank];
        let valid = perm.len() == rank
            && perm
                .iter()
                .all(|p| usize::try_from(*p).is_ok_and(|p| p < rank && !std::mem::replace(&mut seen[p], true)));
        if !valid || (0..rank).any(|i| dst.sizes.get(i) != Some(&src.sizes[perm[i] as usize])) {
            return Err(RunError::at(op, "vtranspose: the output shape is not the permuted input shape"));
        }
        let xs = self.read_all(op, &src)?;
        self.v_touch(op, &[src.as_ref()], &[dst.as_ref()]);
        let strides = row_major_strides(&src.sizes);
        let mut out = Vec::with_capacity(xs.len());
        let mut j = vec![0i64; rank];
        for k in 0..xs.len() {
            let i = unflatten(k as i64, &dst.sizes);
            for d in 0..rank {
                j[perm[d] as usize] = i[d];
            }
            out.push(xs[flat(&j, &strides)].clone());
        }
        self.write_all(op, &dst, &out)
    }

    /// `vflip`: `dst` is `src` reversed along `flip_axis`.
    pub(super) fn vflip(&mut self, op: OpId) -> R<()> {
        let src = self.memref(op, self.group(op, "src")[0])?;
        let dst = self.memref(op, self.group(op, "dst")[0])?;
        let rank = src.sizes.len();
        let axis = self.ir.get_attr(op, "flip_axis").and_then(|a| self.ir.as_int(a)).unwrap_or(-1);
        let Some(axis) = usize::try_from(axis).ok().filter(|a| *a < rank) else {
            return Err(RunError::at(
                op,
                format!("vflip: flip_axis {axis} is not a dimension of the rank-{rank} input"),
            ));
        };
        if dst.sizes != src.sizes || dst.elem != src.elem {
            return Err(RunError::at(op, "vflip: the output's shape and element type must be the input's"));
        }
        let xs = self.read_all(op, &src)?;
        self.v_touch(op, &[src.as_ref()], &[dst.as_ref()]);
        let strides = row_major_strides(&src.sizes);
        let n = src.sizes[axis];
        let out: Vec<Val> = (0..xs.len())
            .map(|k| {
                let mut i = unflatten(k as i64, &src.sizes);
                i[axis] = n - 1 - i[axis];
                xs[flat(&i, &strides)].clone()
            })
            .collect();
        self.write_all(op, &dst, &out)
    }

    /// `vcumsum`/`vcumprod`/`vcummax`/`vcummin` along one dim, from its
    /// start (or its end with `reverse = true`).
    pub(super) fn cumulative(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let src = self.memref(op, self.group(op, "src")[0])?;
        let dst = self.memref(op, self.group(op, "dst")[0])?;
        let dims = hivm_dialects::util::i64_array(ir, op, "cum_dims");
        let [dim] = dims.as_slice() else {
            return Err(RunError::at(op, format!("{name} over several dims is not supported by the CPU twin yet")));
        };
        let Some(dim) = usize::try_from(*dim).ok().filter(|d| *d < src.sizes.len()) else {
            return Err(RunError::at(op, format!("{name}: cum_dims names no dimension of the input")));
        };
        if src.sizes != dst.sizes || src.elem != dst.elem {
            return Err(RunError::at(op, format!("{name}: input and output differ in shape or element type")));
        }
        let reverse = ir.get_attr(op, "reverse").and_then(|a| ir.as_int(a)) == Some(1);
        let xs = self.read_all(op, &src)?;
        self.v_touch(op, &[src.as_ref()], &[dst.as_ref()]);
        let e = src.elem;
        let combine = |acc: &Val, x: &Val| -> Val {
            if e.is_float() {
                let (a, b) = (acc.float(), x.float());
                let r = match name {
                    "hivm.hir.vcumsum" => a + b,
                    "hivm.hir.vcumprod" => a * b,
                    "hivm.hir.vcummax" => a.max(b),
                    _ => a.min(b),
                };
                Val::Float(round_float(r, e))
            } else {
                let (a, b) = (acc.int(), x.int());
                let r = match name {
                    "hivm.hir.vcumsum" => a.wrapping_add(b),
                    "hivm.hir.vcumprod" => a.wrapping_mul(b),
                    "hivm.hir.vcummax" => a.max(b),
                    _ => a.min(b),
                };
                Val::Int(crate::value::norm_int(r, e.width()))
            }
        };
        let strides = row_major_strides(&src.sizes);
        let (n, step) = (src.sizes[dim] as usize, strides[dim] as usize);
        // The position along `dim` of row-major element k.
        let pos = |k: usize| (k / step) % n.max(1);
        let mut out = xs.clone();
        if reverse {
            for k in (0..xs.len()).rev() {
                if pos(k) + 1 < n {
                    out[k] = combine(&out[k + step], &xs[k]);
                }
            }
        } else {
            for k in 0..xs.len() {
                if pos(k) > 0 {
                    out[k] = combine(&out[k - step], &xs[k]);
                }
            }
        }
        self.write_all(op, &dst, &out)
    }

    /// `vconcat dim(d)`: the inputs one after another along `d`.
    pub(super) fn vconcat(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let srcs = self.memrefs(op, &self.group(op, "src"))?;
        let dst = self.memref(op, self.group(op, "dst")[0])?;
        let d = ir.get_attr(op, "dim").and_then(|a| ir.as_int(a)).unwrap_or(0) as i64;
        let Some(d) = usize::try_from(d).ok().filter(|d| *d < dst.sizes.len()) else {
            return Err(RunError::at(op, "vconcat: dim names no dimension of the output"));
        };
        let fits = srcs.iter().all(|s| {
            s.sizes.len() == dst.sizes.len() && (0..dst.sizes.len()).all(|k| k == d || s.sizes[k] == dst.sizes[k])
        }) && srcs.iter().map(|s| s.sizes[d]).sum::<i64>() == dst.sizes[d];
        if !fits {
            return Err(RunError::at(op, "vconcat: the inputs do not fill the output along the concatenated dim"));
        }
        let ins: Vec<Vec<Val>> = srcs.iter().map(|s| self.read_all(op, s)).collect::<R<_>>()?;
        let refs: Vec<&MemRefVal> = srcs.iter().map(|s| s.as_ref()).collect();
        self.v_touch(op, &refs, &[dst.as_ref()]);
        let n = dst.num_elements().max(0) as usize;
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let mut i = unflatten(k as i64, &dst.sizes);
            let mut which = 0;
            while i[d] >= srcs[which].sizes[d] {
                i[d] -= srcs[which].sizes[d];
                which += 1;
            }
            out.push(ins[which][flat(&i, &row_major_strides(&srcs[which].sizes))].clone());
        }
        self.write_all(op, &dst, &out)
    }

    /// `vpad`: the input placed after `low` pad values in every dim, the
    /// rest of the output `pad_value`.
    pub(super) fn vpad(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let src = self.memref(op, self.group(op, "src")[0])?;
        let dst = self.memref(op, self.group(op, "dst")[0])?;
        let pad = self.get(self.group(op, "pad_value")[0]).clone();
        let mixed = |statics: &str, dynamic: &str| -> Vec<i64> {
            let mut dyns = self.group(op, dynamic).into_iter();
            hivm_dialects::util::i64_array(ir, op, statics)
                .iter()
                .map(|s| if *s == DYNAMIC { dyns.next().map(|v| self.int(v)).unwrap_or(0) } else { *s })
                .collect()
        };
        let (low, high) = (mixed("static_low", "low"), mixed("static_high", "high"));
        let rank = src.sizes.len();
        if low.len() != rank
            || high.len() != rank
            || low.iter().chain(&high).any(|p| *p < 0)
            || (0..rank).any(|d| dst.sizes.get(d) != Some(&(src.sizes[d] + low[d] + high[d])))
        {
            return Err(RunError::at(op, "vpad: the output shape is not the input padded by low and high"));
        }
        let fill = match (&pad, dst.elem.is_float()) {
            (Val::Float(f), true) => Val::Float(round_float(*f, dst.elem)),
            (Val::Int(v), false) => Val::Int(crate::value::norm_int(*v, dst.elem.width())),
            _ => return Err(RunError::at(op, "vpad: the pad value's type is not the output's element type")),
        };
        let xs = self.read_all(op, &src)?;
        self.v_touch(op, &[src.as_ref()], &[dst.as_ref()]);
        let strides = row_major_strides(&src.sizes);
        let n = dst.num_elements().max(0) as usize;
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let i = unflatten(k as i64, &dst.sizes);
            let j: Vec<i64> = (0..rank).map(|d| i[d] - low[d]).collect();
            let inside = j.iter().zip(&src.sizes).all(|(x, s)| (0..*s).contains(x));
            out.push(if inside { xs[flat(&j, &strides)].clone() } else { fill.clone() });
        }
        self.write_all(op, &dst, &out)
    }

    /// `vinterleave`: `dst[.., j*N + c] = src_c[.., j]` over the last dim.
    pub(super) fn vinterleave(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let srcs = self.memrefs(op, &self.group(op, "src"))?;
        let dst = self.memref(op, self.group(op, "dst")[0])?;
        let n = ir.get_attr(op, "interleave_channel_nums").and_then(|a| ir.as_int(a)).unwrap_or(2) as i64;
        let Some(first) = srcs.first() else { return Err(RunError::at(op, "vinterleave: no inputs")) };
        let last = first.sizes.len().checked_sub(1);
        let ok = n == srcs.len() as i64
            && srcs.iter().all(|s| s.sizes == first.sizes)
            && last.is_some_and(|l| {
                dst.sizes.len() == l + 1 && dst.sizes[..l] == first.sizes[..l] && dst.sizes[l] == first.sizes[l] * n
            });
        let Some(l) = last.filter(|_| ok) else {
            return Err(RunError::at(op, "vinterleave: the output is not the inputs interleaved along the last dim"));
        };
        let ins: Vec<Vec<Val>> = srcs.iter().map(|s| self.read_all(op, s)).collect::<R<_>>()?;
        let refs: Vec<&MemRefVal> = srcs.iter().map(|s| s.as_ref()).collect();
        self.v_touch(op, &refs, &[dst.as_ref()]);
        let total = dst.num_elements().max(0) as usize;
        let strides = row_major_strides(&first.sizes);
        let mut out = Vec::with_capacity(total);
        for k in 0..total {
            let mut i = unflatten(k as i64, &dst.sizes);
            let c = (i[l] % n) as usize;
            i[l] /= n;
            out.push(ins[c][flat(&i, &strides)].clone());
        }
        self.write_all(op, &dst, &out)
    }

    /// `vdeinterleave`: channel `c` of the last dim is every N-th element
    /// from `c`; `ALL_CHANNELS` writes one output per channel, `CHANNEL_0`
    /// or `CHANNEL_1` the one output.
    pub(super) fn vdeinterleave(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let src = self.memref(op, self.group(op, "src")[0])?;
        let dsts = self.memrefs(op, &self.group(op, "dst"))?;
        let n = ir.get_attr(op, "channel_num").and_then(|a| ir.as_int(a)).unwrap_or(2) as i64;
        let mode = self.enum_attr(op, "index_mode", "deinterleave_mode").unwrap_or_else(|| "ALL_CHANNELS".into());
        let channels: Vec<i64> = match mode.as_str() {
            "ALL_CHANNELS" => (0..n).collect(),
            "CHANNEL_0" => vec![0],
            "CHANNEL_1" => vec![1],
            m => return Err(RunError::at(op, format!("vdeinterleave: unknown index mode {m}"))),
        };
        let l = src.sizes.len().checked_sub(1);
        let ok = n > 0
            && channels.len() == dsts.len()
            && channels.iter().all(|c| *c < n)
            && l.is_some_and(|l| {
                src.sizes[l] % n == 0
                    && dsts.iter().all(|d| {
                        d.sizes.len() == l + 1 && d.sizes[..l] == src.sizes[..l] && d.sizes[l] == src.sizes[l] / n
                    })
            });
        let Some(l) = l.filter(|_| ok) else {
            return Err(RunError::at(op, "vdeinterleave: the outputs are not the input's channels along the last dim"));
        };
        let xs = self.read_all(op, &src)?;
        let refs: Vec<&MemRefVal> = dsts.iter().map(|d| d.as_ref()).collect();
        self.v_touch(op, &[src.as_ref()], &refs);
        let strides = row_major_strides(&src.sizes);
        for (d, c) in dsts.iter().zip(&channels) {
            let total = d.num_elements().max(0) as usize;
            let mut out = Vec::with_capacity(total);
            for k in 0..total {
                let mut i = unflatten(k as i64, &d.sizes);
                i[l] = i[l] * n + c;
                out.push(xs[flat(&i, &strides)].clone());
            }
            self.write_all(op, d, &out)?;
        }
        Ok(())
    }
}

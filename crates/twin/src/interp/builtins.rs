//! The four builtin custom ops, run natively with upstream's operand
//! conventions and the semantics of its template library (SIMT kernels of
//! 1024 threads, where a thread stops at its first out-of-range element).
//! Each runs as one PIPE_V instruction reading its ins and writing its outs.

use std::rc::Rc;

use hivm_dialects::hivm::custom;
use hivm_ir::OpId;

use super::{Interp, R, RunError};
use crate::sync::{self, Site};
use crate::value::{MemRefVal, Val, load, norm_int, store, unflatten};

const THREADS: i64 = 1024;

/// Element offsets of a view in row-major order of its indices.
fn offsets(m: &MemRefVal) -> Vec<i64> {
    let mut v = Vec::with_capacity(m.num_elements().max(0) as usize);
    m.for_each(|o| v.push(o));
    v
}

/// Runs `body(e)` for e in 0..n as 1024 SIMT threads do (thread t takes
/// t, t + 1024, ... and stops when `body` returns false).
fn simt(n: i64, mut body: impl FnMut(i64) -> R<bool>) -> R<()> {
    for t in 0..THREADS.min(n) {
        let mut e = t;
        while e < n {
            if !body(e)? {
                break;
            }
            e += THREADS;
        }
    }
    Ok(())
}

/// The source rank of an index_select, as upstream reads it (the last
/// character of `extra_attr`), refused where the library has no such call
/// or where a `src_stride_len` entry says otherwise.
fn index_select_src_rank(ir: &hivm_ir::Ir, op: OpId) -> R<usize> {
    let extra = custom::extra_attr(ir, op);
    let rank = custom::index_select_src_rank(ir, op).and_then(|c| c.to_digit(10)).map(|d| d as usize);
    let declared = extra
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| k.trim() == "src_stride_len")
        .map(|(_, v)| v.trim());
    match rank {
        Some(r @ 2..=5) if declared.is_none_or(|d| d == r.to_string()) => Ok(r),
        _ => Err(RunError::at(
            op,
            format!(
                "__builtin_index_select: extra_attr must end in the source rank, 2 to 5 \
                 (\"src_stride_len=N\", from which upstream names the library call index_select_<N>d_...); \
                 got \"{extra}\""
            ),
        )),
    }
}

impl Interp<'_> {
    fn builtin_memref(&self, op: OpId, v: hivm_ir::Value, what: &str) -> R<Rc<MemRefVal>> {
        match self.get(v) {
            Val::Mem(m) => Ok(m.clone()),
            _ => Err(RunError::at(op, format!("{} expects a memref {what}", custom::name(self.ir, op)))),
        }
    }

    fn read(&self, op: OpId, m: &MemRefVal, off: i64) -> R<Val> {
        load(&self.mem, m.buf, m.elem, off)
            .ok_or_else(|| RunError::at(op, format!("{} reads outside a buffer", custom::name(self.ir, op))))
    }

    fn write(&mut self, op: OpId, m: &MemRefVal, off: i64, v: &Val) -> R<()> {
        if store(&mut self.mem, m.buf, m.elem, off, v) {
            Ok(())
        } else {
            Err(RunError::at(op, format!("{} writes outside a buffer", custom::name(self.ir, op))))
        }
    }

    pub(super) fn builtin(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let name = custom::name(ir, op).to_string();
        let ins = custom::ins(ir, op).to_vec();
        let outs = custom::outs(ir, op).to_vec();
        let site = Site { op: Some(op), detail: None };
        self.sync.issue(sync::V);
        // The indirect atomic updates its destination (an `ins`) in place.
        let atomic = (name == "__builtin_indirect_atomic").then(|| ins.first().copied()).flatten();
        for v in ins.iter().chain(&outs) {
            if let Val::Mem(m) = self.get(*v).clone() {
                if Some(*v) == atomic {
                    // Other blocks see only the elements it updates (below).
                    let (a, n) = self.span(&m);
                    let kind = sync::blocks::Kind::Atomic(atomic_code(&atomic_operate(ir, op)));
                    self.sync.access_view(sync::V, a, n, &[], kind, &site);
                } else {
                    self.access_view(sync::V, &m, outs.contains(v), &site);
                }
            }
        }
        let scalars = |from: usize| -> Vec<i64> { ins[from..].iter().map(|v| self.int(*v)).collect() };
        let arity = |n: usize| -> R<()> {
            if ins.len() < n || outs.is_empty() {
                return Err(RunError::at(op, format!("{name} expects at least {n} ins and one out")));
            }
            Ok(())
        };
        match name.as_str() {
            "__builtin_gather_load" => {
                arity(4)?;
                let src = self.builtin_memref(op, ins[0], "source")?;
                let idx = self.builtin_memref(op, ins[1], "index operand")?;
                let dst = self.builtin_memref(op, outs[0], "destination")?;
                let r = idx.sizes.len();
                let s = scalars(2);
                if s.len() != 2 + 3 * r {
                    return Err(RunError::at(
                        op,
                        format!("{name} with rank-{r} indices takes {} scalar operands, got {}", 2 + 3 * r, s.len()),
                    ));
                }
                let (boundary, dim) = (s[0], s[1] as usize);
                let (strides, ends, starts) = (&s[2..2 + r], &s[2 + r..2 + 2 * r], &s[2 + 2 * r..]);
                let (io, dof) = (offsets(&idx), offsets(&dst));
                let shape = idx.sizes.clone();
                simt(io.len().min(dof.len()) as i64, |e| {
                    let t = unflatten(e, &shape);
                    if (0..r).any(|d| t[d] + starts[d] >= ends[d]) {
                        return Ok(false);
                    }
                    let mut k = self.read(op, &idx, io[e as usize])?.int();
                    if k < 0 {
                        k += boundary;
                    }
                    if k < 0 || k >= boundary {
                        return Ok(false);
                    }
                    let pos: i64 = (0..r)
                        .map(|d| if d == dim { k } else { t[d] + starts[d] } * if r == 1 { 1 } else { strides[d] })
                        .sum();
                    let v = self.read(op, &src, src.offset + pos)?;
                    self.write(op, &dst, dof[e as usize], &v)?;
                    Ok(true)
                })?;
            }
            "__builtin_index_select" => {
                arity(4)?;
                let src = self.builtin_memref(op, ins[0], "source")?;
                let idx = self.builtin_memref(op, ins[1], "index operand")?;
                let dst = self.builtin_memref(op, outs[0], "destination")?;
                let src_rank = index_select_src_rank(ir, op)?;
                let (k_idx, val_rank) = (idx.sizes.len(), dst.sizes.len());
                if !(1..=2).contains(&k_idx) || val_rank != src_rank + k_idx - 1 {
                    return Err(RunError::at(
                        op,
                        format!(
                            "{name}: a rank-{src_rank} source (src_stride_len) gathered by rank-{k_idx} indices \
                             gives a rank-{} result, not {val_rank} (indices must be 1-d or 2-d)",
                            src_rank + k_idx - 1
                        ),
                    ));
                }
                // gather dim, boundary, then an end offset per result dim and
                // a start offset and a stride per source dim.
                let s = scalars(2);
                let want = 2 + val_rank + 2 * src_rank;
                if s.len() != want {
                    return Err(RunError::at(op, format!("{name} takes {want} scalar operands here, got {}", s.len())));
                }
                let (g, boundary) = (s[0] as usize, s[1]);
                if g >= src_rank {
                    return Err(RunError::at(op, format!("{name}: gather dim {g} of a rank-{src_rank} source")));
                }
                if src_rank == 2 && g != 0 {
                    // The 2-D kernel takes no gather dim: the NPU would gather rows.
                    return Err(RunError::at(
                        op,
                        format!(
                            "{name}: the library's 2-D index_select gathers along dim 0 whatever the gather dim \
                             says; got {g}"
                        ),
                    ));
                }
                let ends = &s[2..2 + val_rank];
                let starts = &s[2 + val_rank..2 + val_rank + src_rank];
                let strides = &s[2 + val_rank + src_rank..];
                // Result dim i starts at the source start of the dim it comes from.
                let mstart: Vec<i64> = (0..val_rank)
                    .map(|i| if i <= g { starts[i.min(src_rank - 1)] } else { starts[i + 1 - k_idx] })
                    .collect();
                let dof = offsets(&dst);
                let shape = dst.sizes.clone();
                for (e, d_off) in dof.iter().enumerate() {
                    let v = unflatten(e as i64, &shape);
                    if (0..val_rank).any(|d| v[d] >= ends[d] - mstart[d]) {
                        continue;
                    }
                    let at: Vec<i64> = v[g..g + k_idx].to_vec();
                    let io = idx
                        .linear(&at)
                        .ok_or_else(|| RunError::at(op, format!("{name}: index position out of range")))?;
                    let mut k = self.read(op, &idx, io)?.int();
                    if k < 0 {
                        k += boundary;
                    }
                    if k < 0 || k >= boundary {
                        continue;
                    }
                    let pos: i64 = (0..src_rank)
                        .map(|d| {
                            let sd = match d.cmp(&g) {
                                std::cmp::Ordering::Less => v[d] + starts[d],
                                std::cmp::Ordering::Equal => k,
                                std::cmp::Ordering::Greater => v[d + k_idx - 1] + starts[d],
                            };
                            sd * strides[d]
                        })
                        .sum();
                    // The library reads the source from its base pointer.
                    let x = self.read(op, &src, pos)?;
                    self.write(op, &dst, *d_off, &x)?;
                }
            }
            "__builtin_indirect_atomic" => {
                arity(3)?;
                let operate = atomic_operate(ir, op);
                let dst = self.builtin_memref(op, ins[0], "destination")?;
                let offs = self.builtin_memref(op, ins[1], "offsets")?;
                let vals = self.builtin_memref(op, ins[2], "values")?;
                let mask = match ins.get(3) {
                    Some(m) => Some(self.builtin_memref(op, *m, "mask")?),
                    None => None,
                };
                let out = self.builtin_memref(op, outs[0], "result")?;
                let (oo, vo, ro) = (offsets(&offs), offsets(&vals), offsets(&out));
                let mo = mask.as_ref().map(|m| offsets(m));
                let float = dst.elem.is_float();
                let w = dst.elem.width();
                let code = atomic_code(&operate);
                let (base, size) = (self.mem.get(dst.buf).addr(), dst.elem.size() as u64);
                let mut updated = Vec::new();
                for i in 0..oo.len().min(vo.len()).min(ro.len()) {
                    if let (Some(m), Some(mo)) = (&mask, &mo)
                        && self.read(op, m, mo[i])?.int() == 0
                    {
                        let neg = if float { Val::Float(-1.0) } else { Val::Int(norm_int(-1, w)) };
                        self.write(op, &out, ro[i], &neg)?;
                        continue;
                    }
                    let at = dst.offset + self.read(op, &offs, oo[i])?.int();
                    let old = self.read(op, &dst, at)?;
                    let v = self.read(op, &vals, vo[i])?;
                    let new = match (operate.as_str(), float) {
                        ("add", true) => Val::Float(old.float() + v.float()),
                        ("add", false) => Val::Int(norm_int(old.int().wrapping_add(v.int()), w)),
                        ("min", true) => Val::Float(old.float().min(v.float())),
                        ("min", false) => Val::Int(old.int().min(v.int())),
                        ("max", true) => Val::Float(old.float().max(v.float())),
                        ("max", false) => Val::Int(old.int().max(v.int())),
                        ("or", false) => Val::Int(old.int() | v.int()),
                        ("and", false) => Val::Int(old.int() & v.int()),
                        ("xor", false) => Val::Int(old.int() ^ v.int()),
                        ("xchg", _) => v.clone(),
                        (o, _) => {
                            return Err(RunError::at(
                                op,
                                format!("{name}: operate={o} on {} is not supported by the CPU twin", dst.elem.name()),
                            ));
                        }
                    };
                    self.write(op, &dst, at, &new)?;
                    self.write(op, &out, ro[i], &old)?;
                    updated.push(base.wrapping_add((at as u64).wrapping_mul(size)));
                }
                updated.sort_unstable();
                updated.dedup();
                let runs: Vec<(u64, u64)> = updated.iter().map(|a| (*a, size)).collect();
                self.sync.block_accesses(sync::V, &runs, sync::blocks::Kind::Atomic(code), &site);
            }
            "__builtin_histogram" => {
                arity(2)?;
                let src = self.builtin_memref(op, ins[0], "input")?;
                let mask = if ins.len() > 2 { Some(self.builtin_memref(op, ins[1], "mask")?) } else { None };
                let bins = self.int(*ins.last().unwrap());
                let dst = self.builtin_memref(op, outs[0], "bins")?;
                let (so, dof) = (offsets(&src), offsets(&dst));
                let mo = mask.as_ref().map(|m| offsets(m));
                let w = src.elem.width();
                for (i, o) in so.iter().enumerate() {
                    if let (Some(m), Some(mo)) = (&mask, &mo)
                        && self.read(op, m, mo[i])?.int() == 0
                    {
                        continue;
                    }
                    // Values count as unsigned, as the library reads them.
                    let v = crate::value::unsigned(self.read(op, &src, *o)?.int(), w);
                    if v >= bins.max(0) as u64 || v as usize >= dof.len() {
                        continue;
                    }
                    let at = dof[v as usize];
                    let c = self.read(op, &dst, at)?.int();
                    self.write(op, &dst, at, &Val::Int(norm_int(c + 1, 32)))?;
                }
            }
            _ => return Err(RunError::at(op, format!("builtin '{name}' is not known to the CPU twin"))),
        }
        Ok(())
    }
}

/// The `operate` of an indirect atomic's `extra_attr` (the last one given).
fn atomic_operate(ir: &hivm_ir::Ir, op: OpId) -> String {
    let extra = ir.get_attr(op, "extra_attr").and_then(|a| ir.as_str(a)).unwrap_or("");
    extra
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| k.trim() == "operate")
        .map(|(_, v)| v.trim().to_string())
        .next_back()
        .unwrap_or_default()
}

/// Atomics of one operation commute (their code is equal); of others not,
/// nor exchanges with each other (u8::MAX).
fn atomic_code(operate: &str) -> u8 {
    ["add", "min", "max", "or", "and", "xor"].iter().position(|o| *o == operate).map_or(u8::MAX, |p| p as u8)
}

//! `mmadL1`: C (L0C) = [C +] op(A) x op(B) [+ bias], A and B in L1.
//!
//! Numbers: A and B are the fractal images of ND matrices (`M x K` and
//! `K x N`, or `K x M` / `N x K` under `a_transpose` / `b_transpose`);
//! products are summed in f32 (i32 for i8) over `real_k`, for every row of
//! C that A has and the `real_n` columns (rounded up as the library rounds
//! them for i8). `init_condition` true starts from the per-channel bias (or
//! zero), false accumulates onto C; the bias is used only when starting.
//!
//! Synchronisation: the op is upstream's library routine, which splits K
//! into parts that fit half of L0A/L0B (ping-pong) and, per part, waits
//! M -> MTE1 for its L0 half, loads A and B on MTE1 (waiting MTE2 -> MTE1
//! on the ids in `sync_related_args` before the first load and releasing
//! L1 to MTE2 after the last), hands over to M and multiplies. The twin
//! issues the same accesses and flags, so the solver's ids are checked.

use hivm_dialects::util::segment;
use hivm_ir::OpId;

use super::layout::{self, Matrix};
use super::{Interp, R, RunError, check_l1_fractal};
use crate::memory::Space;
use crate::sync::unit_flag::Mode;
use crate::sync::{self, Site};
use crate::value::{Elem, MemRefVal};

/// The ids of `sync_related_args`, in upstream's order.
struct Ids {
    wait_a: i64,
    wait_b: i64,
    free_a: i64,
    free_b: i64,
    k_loop_parity: i64,
    back0: i64,
    back1: i64,
}

/// What one call does on the pipes.
struct Plan {
    parts: i64,
    double_buffer: bool,
    /// L0A/L0B bytes of one part, and of one ping-pong half.
    a_bytes: u64,
    b_bytes: u64,
    half: u64,
}

impl Interp<'_> {
    pub(super) fn mmad_l1(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let err = |m: String| RunError::at(op, format!("mmadL1: {m}"));
        let g = |k: usize| segment(ir, op, k);
        for k in ["enable_HF32", "enable_I4"] {
            if ir.has_attr(op, k) {
                return Err(err(format!("{k} is not supported by the CPU twin yet")));
            }
        }
        let uf = self.unit_flag_mode(op, 8)?;
        let a = self.memref(op, g(0)[0])?;
        let b = self.memref(op, g(1)[0])?;
        let c = self.memref(op, g(6)[0])?;
        let bias = match g(9).first() {
            Some(v) => Some(self.memref(op, *v)?),
            None => None,
        };
        let init = self.int(g(2)[0]) != 0;
        let (real_m, real_k, real_n) = (self.int(g(3)[0]), self.int(g(4)[0]), self.int(g(5)[0]));
        let ids = self.sync_ids(op, g(7))?;
        let (ta, tb) = (ir.has_attr(op, "a_transpose"), ir.has_attr(op, "b_transpose"));
        if a.elem != b.elem {
            return Err(err(format!("A and B have different element types ({} and {})", a.elem.name(), b.elem.name())));
        }
        let int = match (a.elem, c.elem) {
            (Elem::F16 | Elem::BF16 | Elem::F32, Elem::F32) => false,
            (Elem::Int(8), Elem::Int(32)) => true,
            (x, y) => {
                return Err(err(format!(
                    "{} x {} into {} is not a cube multiplication (f16/bf16/f32 into f32, i8 into i32)",
                    x.name(),
                    x.name(),
                    y.name()
                )));
            }
        };
        let am = Matrix::of(&a, "A", false).map_err(err)?;
        let bm = Matrix::of(&b, "B", false).map_err(err)?;
        let cm = Matrix::of(&c, "C", false).map_err(err)?;
        check_l1_fractal(&am, a.elem, "A").map_err(err)?;
        check_l1_fractal(&bm, b.elem, "B").map_err(err)?;
        if cm.fractal() != Some((16, 16)) {
            let (r0, c0) = cm.fractal().unwrap_or((0, 0));
            return Err(err(format!("C's fractal is {r0} x {c0}, but L0C fractals are 16 x 16")));
        }
        let (a_m, a_k) = if ta { (am.cols(), am.rows()) } else { (am.rows(), am.cols()) };
        let (b_k, b_n) = if tb { (bm.cols(), bm.rows()) } else { (bm.rows(), bm.cols()) };
        for (what, real, have) in [
            ("real_m", real_m, a_m.min(cm.rows())),
            ("real_k", real_k, a_k.min(b_k)),
            ("real_n", real_n, b_n.min(cm.cols())),
        ] {
            if real < 0 || real > have {
                return Err(err(format!(
                    "{what} = {real} is outside the operands (A is {a_m} x {a_k}, B is {b_k} x {b_n}, C is {} x {})",
                    cm.rows(),
                    cm.cols()
                )));
            }
        }
        let site = |d: &str| Site { op: Some(op), detail: Some(format!("mmadL1's library: {d}")) };
        if real_m == 0 || real_k == 0 || real_n == 0 {
            // The library only balances the handshakes it was given.
            self.l1_handshakes(&ids, true, true, &site);
            return Ok(());
        }
        let size = a.elem.size() as i64;
        // The library rounds n up to whole fractals where its L0 layout
        // needs it (i8; f32 with A transposed).
        let n = match a.elem {
            Elem::Int(8) if tb => ceil_to(real_n, 16),
            Elem::Int(8) => ceil_to(real_n, 32),
            Elem::F32 if ta => ceil_to(real_n, 16),
            _ => real_n,
        }
        .min(b_n)
        .min(cm.cols());
        let m = cm.rows().min(a_m);
        let plan = plan(self.config.caps.l0a as i64, size, a_m, b_n, real_k)
            .ok_or_else(|| err(format!("A ({a_m} rows) and B ({b_n} columns) do not fit L0A/L0B")))?;
        let bias_at = match &bias {
            Some(bv) => Some(bias_index(bv, n).map_err(err)?),
            None => None,
        };
        // The library's unit-flag bookkeeping: a group whose last matmul
        // ended with its flag off hands over FIX -> M first; a matmul that
        // leaves part of L0C's columns unwritten does not mark it ready.
        let mut uf = uf;
        if uf != Mode::Disabled {
            let group = ir.get_attr(op, "unit_flag_group_id").and_then(|a| ir.as_int(a)).unwrap_or(0) as i64;
            let was_off = *self.sync.unit_flag_group_off(group);
            if was_off {
                self.sync.handshake(sync::FIX, sync::M, &site("FIX -> M after a unit flag left off"));
            }
            let off = self.sync.unit_flag_group_off(group);
            if uf == Mode::WithoutUpdate {
                if was_off {
                    *off = false;
                    uf = Mode::Disabled;
                }
            } else {
                *off = n != cm.cols();
                if *off {
                    uf = Mode::WithoutUpdate;
                }
            }
        }
        self.mmad_pipes(op, &ids, &plan, [&a, &b, &c], bias.as_deref(), (init, uf), &site);
        // The numbers: op(A) as m x k and op(B) as k x n, row-major.
        for (mtx, what) in [(&am, "A"), (&bm, "B"), (&cm, "C")] {
            if !mtx.inside(self.mem.get(mtx.view.buf).len()) {
                return Err(err(format!("{what} reaches outside its buffer")));
            }
        }
        let (mu, ku, nu) = (m as usize, real_k as usize, n as usize);
        let a_nd = if ta { self.gather(&am, real_k, m) } else { self.gather(&am, m, real_k) };
        let b_nd = if tb { self.gather(&bm, n, real_k) } else { self.gather(&bm, real_k, n) };
        let av: Vec<f64> = if ta { transpose(&a_nd, ku, mu) } else { a_nd };
        let bv: Vec<f64> = if tb { transpose(&b_nd, nu, ku) } else { b_nd };
        let bias_vals: Vec<f64> = match (&bias, &bias_at) {
            (Some(bv), Some(at)) => {
                let bytes = self.mem.get(bv.buf).bytes();
                let (lo, hi) = bv.byte_span();
                if lo < 0 || hi as usize > bytes.len() {
                    return Err(err("the bias reaches outside its buffer".into()));
                }
                at.iter().map(|o| layout::read(bytes, bv.elem, *o)).collect()
            }
            _ => Vec::new(),
        };
        let (mut runs, mut row) = (Vec::new(), Vec::new());
        // C's row i as numbers, and back.
        let read_row = |bytes: &[u8], runs: &[(i64, i64)], row: &mut Vec<f64>| {
            row.clear();
            for (o, k) in runs {
                layout::read_run(bytes, c.elem, *o, *k, row);
            }
        };
        let write_row = |bytes: &mut [u8], runs: &[(i64, i64)], row: &[f64]| {
            let mut at = 0;
            for (o, k) in runs {
                layout::write_run(bytes, c.elem, *o, &row[at..at + *k as usize]);
                at += *k as usize;
            }
        };
        if int {
            let av: Vec<i32> = av.iter().map(|x| *x as i32).collect();
            let bv: Vec<i32> = bv.iter().map(|x| *x as i32).collect();
            let mut acc = vec![0i32; nu];
            for i in 0..mu {
                cm.row_runs(i as i64, n, &mut runs);
                let bytes = self.mem.get_mut(c.buf).bytes_mut();
                if init {
                    for (j, x) in acc.iter_mut().enumerate() {
                        *x = bias_vals.get(j).map_or(0, |v| *v as i32);
                    }
                } else {
                    read_row(bytes, &runs, &mut row);
                    for (x, v) in acc.iter_mut().zip(&row) {
                        *x = *v as i32;
                    }
                }
                for p in 0..ku {
                    let x = av[i * ku + p];
                    for (s, y) in acc.iter_mut().zip(&bv[p * nu..(p + 1) * nu]) {
                        *s = s.wrapping_add(x.wrapping_mul(*y));
                    }
                }
                row.clear();
                row.extend(acc.iter().map(|x| *x as f64));
                write_row(bytes, &runs, &row);
            }
        } else {
            let av: Vec<f32> = av.iter().map(|x| *x as f32).collect();
            let bv: Vec<f32> = bv.iter().map(|x| *x as f32).collect();
            let mut acc = vec![0f32; nu];
            for i in 0..mu {
                cm.row_runs(i as i64, n, &mut runs);
                let bytes = self.mem.get_mut(c.buf).bytes_mut();
                if init {
                    for (j, x) in acc.iter_mut().enumerate() {
                        *x = bias_vals.get(j).map_or(0.0, |v| *v as f32);
                    }
                } else {
                    read_row(bytes, &runs, &mut row);
                    for (x, v) in acc.iter_mut().zip(&row) {
                        *x = *v as f32;
                    }
                }
                mac_row(&mut acc, &av[i * ku..(i + 1) * ku], &bv, nu);
                row.clear();
                row.extend(acc.iter().map(|x| *x as f64));
                write_row(bytes, &runs, &row);
            }
        }
        Ok(())
    }

    /// The first `rows x cols` of a matrix, row-major.
    fn gather(&self, m: &Matrix, rows: i64, cols: i64) -> Vec<f64> {
        let bytes = self.mem.get(m.view.buf).bytes();
        let mut out = Vec::with_capacity((rows * cols).max(0) as usize);
        let mut runs = Vec::new();
        for r in 0..rows {
            m.row_runs(r, cols, &mut runs);
            for (o, n) in &runs {
                layout::read_run(bytes, m.view.elem, *o, *n, &mut out);
            }
        }
        out
    }

    fn sync_ids(&self, op: OpId, args: &[hivm_ir::Value]) -> R<Ids> {
        let v: Vec<i64> = args.iter().map(|a| self.int(*a)).collect();
        let v = match v.len() {
            0 => vec![-1; 7],
            7 => v,
            n => {
                return Err(RunError::at(op, format!("mmadL1: {n} sync_related_args; its library takes 7 (or none)")));
            }
        };
        for (i, x) in v.iter().enumerate() {
            // The fifth is the K loop's iteration parity, any integer.
            if i != 4 && !(-1..=7).contains(x) {
                return Err(RunError::at(
                    op,
                    format!("mmadL1: sync_related_args #{i} is {x}, not an event id (0..7) or -1"),
                ));
            }
        }
        Ok(Ids {
            wait_a: v[0],
            wait_b: v[1],
            free_a: v[2],
            free_b: v[3],
            k_loop_parity: v[4],
            back0: v[5],
            back1: v[6],
        })
    }

    /// The MTE2 -> MTE1 waits before the first L1 read and the MTE1 -> MTE2
    /// releases after the last, for the operands asked.
    fn l1_handshakes(&mut self, ids: &Ids, first: bool, last: bool, site: &dyn Fn(&str) -> Site) {
        if first {
            for id in [ids.wait_a, ids.wait_b] {
                if id >= 0 {
                    self.sync.wait_flag(sync::MTE2, sync::MTE1, id, &site("wait for L1"));
                }
            }
        }
        if last {
            for id in [ids.free_a, ids.free_b] {
                if id >= 0 {
                    self.sync.set_flag(sync::MTE1, sync::MTE2, id, &site("release L1"));
                }
            }
        }
    }

    /// The library's work on the pipes, part by part.
    #[allow(clippy::too_many_arguments)]
    fn mmad_pipes(
        &mut self,
        op: OpId,
        ids: &Ids,
        plan: &Plan,
        [a, b, c]: [&MemRefVal; 3],
        bias: Option<&MemRefVal>,
        (init, uf): (bool, Mode),
        site: &dyn Fn(&str) -> Site,
    ) {
        let here = Site { op: Some(op), detail: None };
        let l0 = |this: &Self, space: Space| this.onchip(space).map_or(0, |id| this.mem.get(id).addr());
        let (l0a, l0b) = (l0(self, Space::L0a), l0(self, Space::L0b));
        let own_back = [(ids.back0, 0i64), (ids.back1, 1i64)];
        for (id, lib) in own_back {
            if id < 0 {
                self.sync.set_flag(sync::M, sync::MTE1, lib, &site("L0 ping-pong prologue"));
            }
        }
        for part in 0..plan.parts {
            let (first, last) = (part == 0, part + 1 == plan.parts);
            let ping = if !plan.double_buffer {
                0
            } else if ids.k_loop_parity != -1 {
                (ids.k_loop_parity * plan.parts + part).rem_euclid(2)
            } else {
                part % 2
            };
            let event = if ping == 0 { own_back[0] } else { own_back[1] };
            let event = if event.0 >= 0 { event.0 } else { event.1 };
            if plan.double_buffer {
                self.sync.wait_flag(sync::M, sync::MTE1, event, &site("wait for its L0 half"));
            } else {
                self.sync.wait_flag(sync::M, sync::MTE1, 0, &site("wait for L0"));
                self.sync.wait_flag(sync::M, sync::MTE1, 1, &site("wait for L0"));
            }
            let off = ping as u64 * plan.half;
            for (wait, free, src, base, bytes) in
                [(ids.wait_a, ids.free_a, a, l0a, plan.a_bytes), (ids.wait_b, ids.free_b, b, l0b, plan.b_bytes)]
            {
                if first && wait >= 0 {
                    self.sync.wait_flag(sync::MTE2, sync::MTE1, wait, &site("wait for L1"));
                }
                self.sync.issue(sync::MTE1);
                let (addr, n) = self.span(src);
                self.sync.access(sync::MTE1, addr, n, false, &here);
                self.sync.access(sync::MTE1, base + off, bytes, true, &here);
                if last && free >= 0 {
                    self.sync.set_flag(sync::MTE1, sync::MTE2, free, &site("release L1"));
                }
            }
            if let Some(bv) = bias {
                self.sync.issue(sync::MTE1);
                let (addr, n) = self.span(bv);
                self.sync.access(sync::MTE1, addr, n, false, &here);
            }
            self.sync.handshake(sync::MTE1, sync::M, &site("MTE1 -> M before mad"));
            self.sync.issue(sync::M);
            let (addr, n) = self.span(c);
            // Parts before the last accumulate without marking L0C ready.
            let part_uf = if uf == Mode::Disabled || last { uf } else { Mode::WithoutUpdate };
            self.sync.unit_flag_mad(addr, n, part_uf);
            self.sync.access(sync::M, l0a + off, plan.a_bytes, false, &here);
            self.sync.access(sync::M, l0b + off, plan.b_bytes, false, &here);
            if !(init && first) {
                self.sync.access(sync::M, addr, n, false, &here);
            }
            self.sync.access(sync::M, addr, n, true, &here);
            if plan.double_buffer {
                self.sync.set_flag(sync::M, sync::MTE1, event, &site("free its L0 half"));
            } else {
                self.sync.set_flag(sync::M, sync::MTE1, 0, &site("free L0"));
                self.sync.set_flag(sync::M, sync::MTE1, 1, &site("free L0"));
            }
        }
        for (id, lib) in own_back {
            if id < 0 {
                self.sync.wait_flag(sync::M, sync::MTE1, lib, &site("L0 ping-pong epilogue"));
            }
        }
    }
}

/// `acc[j] += a[p] * b[p][j]` for p in order (so each sum is rounded as a
/// sequential loop over K rounds it), four rows of B per pass over `acc`.
fn mac_row(acc: &mut [f32], a: &[f32], b: &[f32], n: usize) {
    let mut p = 0;
    while p + 4 <= a.len() {
        let (x0, x1, x2, x3) = (a[p], a[p + 1], a[p + 2], a[p + 3]);
        let rows = &b[p * n..(p + 4) * n];
        let (r0, rest) = rows.split_at(n);
        let (r1, rest) = rest.split_at(n);
        let (r2, r3) = rest.split_at(n);
        for ((((s, y0), y1), y2), y3) in acc.iter_mut().zip(r0).zip(r1).zip(r2).zip(r3) {
            let mut t = *s;
            t += x0 * y0;
            t += x1 * y1;
            t += x2 * y2;
            t += x3 * y3;
            *s = t;
        }
        p += 4;
    }
    for (q, x) in a.iter().enumerate().skip(p) {
        for (s, y) in acc.iter_mut().zip(&b[q * n..(q + 1) * n]) {
            *s += x * y;
        }
    }
}

/// A row-major `rows x cols` matrix transposed.
fn transpose(x: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut t = vec![0.0; x.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = x[r * cols + c];
        }
    }
    t
}

/// `x` rounded up to a multiple of `f` (both positive).
fn ceil_to(x: i64, f: i64) -> i64 {
    (x + f - 1) / f * f
}

/// How the library splits K: parts of a multiple of the larger alignment
/// that fit half of L0A (the whole of it without double buffering).
fn plan(l0_bytes: i64, size: i64, a_m: i64, b_n: i64, real_k: i64) -> Option<Plan> {
    let align = (32 / size).max(16);
    let mn = ceil_to(a_m.max(b_n), align);
    let part = |len: i64| (len / mn) / align * align;
    let (mut len, mut double_buffer) = (l0_bytes / 2 / size, true);
    let mut k_part = part(len);
    if k_part == 0 {
        double_buffer = false;
        len = l0_bytes / size;
        k_part = part(len);
    }
    if k_part == 0 {
        return None;
    }
    let bytes = |rows: i64| (ceil_to(rows, 16) * k_part * size).min(len * size) as u64;
    Some(Plan {
        parts: (real_k + k_part - 1) / k_part,
        double_buffer,
        a_bytes: bytes(a_m),
        b_bytes: bytes(b_n),
        half: (len * size) as u64,
    })
}

/// Element offsets of the first `n` bias values: a 1-d `[N]`, a 2-d
/// `[1, N]`, or a fractal holding one row.
fn bias_index(bias: &MemRefVal, n: i64) -> Result<Vec<i64>, String> {
    let idx: Option<Vec<i64>> = match bias.sizes.len() {
        1 => (0..n).map(|j| bias.linear(&[j])).collect(),
        2 => (0..n).map(|j| bias.linear(&[0, j])).collect(),
        4 => {
            let m = Matrix::of(bias, "the bias", false)?;
            (0..n).map(|j| (j < m.cols()).then(|| m.at(0, j))).collect()
        }
        r => return Err(format!("the per-channel bias must be 1-d, 2-d or a fractal, not rank {r}")),
    };
    idx.ok_or_else(|| format!("the per-channel bias holds fewer than the {n} columns computed"))
}

impl Interp<'_> {
    /// The unit-flag mode `op` runs with: the first of `unit_flag_mode`
    /// whose `unit_flag_cond` (operand group `cond_group`) holds, the only
    /// one when there are no conditions, else DISABLED (upstream's lowering).
    pub(super) fn unit_flag_mode(&self, op: OpId, cond_group: usize) -> R<Mode> {
        let ir = self.ir;
        let Some(a) = ir.get_attr(op, "unit_flag_mode") else { return Ok(Mode::Disabled) };
        let hivm_ir::AttrData::Array(items) = ir.attr_data(a) else {
            return Err(RunError::at(op, "unit_flag_mode is not an array"));
        };
        let modes = items
            .iter()
            .map(|x| hivm_dialects::util::opaque_arg(ir, *x, "unit_flag").and_then(Mode::parse))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| RunError::at(op, "unit_flag_mode holds a mode the CPU twin does not know"))?;
        let conds = segment(ir, op, cond_group);
        if conds.is_empty() {
            return match modes.as_slice() {
                [] => Ok(Mode::Disabled),
                [m] => Ok(*m),
                _ => Err(RunError::at(op, "several unit_flag_mode entries need as many unit_flag_cond")),
            };
        }
        if conds.len() != modes.len() {
            return Err(RunError::at(op, "unit_flag_mode and unit_flag_cond differ in length"));
        }
        Ok(modes.iter().zip(conds).find(|(_, c)| self.int(**c) != 0).map_or(Mode::Disabled, |(m, _)| *m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_is_split_into_parts_that_fit_half_of_l0() {
        // 910B's 64 KiB L0A, 256 x 256 f16: 64 columns of K per half.
        let p = plan(65536, 2, 256, 256, 256).unwrap();
        assert_eq!((p.parts, p.double_buffer), (4, true));
        assert_eq!(p.a_bytes, 256 * 64 * 2);
        // Small matrices fit in one part.
        assert_eq!(plan(65536, 2, 32, 32, 64).unwrap().parts, 1);
        // Too large for even the whole of L0.
        assert!(plan(65536, 4, 8192, 16, 16).is_none());
    }
}

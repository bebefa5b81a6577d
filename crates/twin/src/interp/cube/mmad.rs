//! `mmadL1`: C (L0C) = [C +] op(A) x op(B) [+ bias], A and B in L1.
//!
//! Numbers: A and B are the fractal images of ND matrices (`M x K` and
//! `K x N`, or `K x M` / `N x K` under `a_transpose` / `b_transpose`);
//! products are summed in f32 (i32 for i8) over `real_k`, for every row of
//! C that A has and the `real_n` columns (rounded up as the library rounds
//! them for i8). `init_condition` true starts from the per-channel bias (or
//! zero), false accumulates onto C; the bias is used only when starting.
//!
//! Synchronisation: what upstream's library routine does on the pipes
//! (`library.rs`).

use hivm_dialects::util::segment;
use hivm_ir::OpId;

use super::layout::{self, Matrix};
use super::library::{Ids, ceil_to, plan};
use super::{Interp, R, RunError, check_l1_fractal};
use crate::sync::unit_flag::Mode;
use crate::sync::{self, Site};
use crate::value::{Elem, MemRefVal};
use std::rc::Rc;
/// One `mmadL1` call's operands and settings, as its op gives them
/// (`batchMmadL1` gives one per batch, its operands sliced).
pub(super) struct Call<'a> {
    pub a: &'a MemRefVal,
    pub b: &'a MemRefVal,
    pub c: &'a MemRefVal,
    pub bias: Option<&'a MemRefVal>,
    pub init: bool,
    pub real: (i64, i64, i64),
    pub ids: Ids,
    pub uf: Mode,
}

/// The operands of an `mmadL1`-form op (`batchMmadL1` has the same).
pub(super) struct Operands {
    pub a: Rc<MemRefVal>,
    pub b: Rc<MemRefVal>,
    pub c: Rc<MemRefVal>,
    pub bias: Option<Rc<MemRefVal>>,
    pub init: bool,
    pub real: (i64, i64, i64),
    pub ids: Ids,
    pub uf: Mode,
}

impl Interp<'_> {
    /// Reads `op`'s operands in the local matmul's segment order.
    pub(super) fn mmad_operands(&mut self, op: OpId) -> R<Operands> {
        let ir = self.ir;
        let g = |k: usize| segment(ir, op, k);
        let bias = match g(9).first() {
            Some(v) => Some(self.memref(op, *v)?),
            None => None,
        };
        Ok(Operands {
            a: self.memref(op, g(0)[0])?,
            b: self.memref(op, g(1)[0])?,
            c: self.memref(op, g(6)[0])?,
            bias,
            init: self.int(g(2)[0]) != 0,
            real: (self.int(g(3)[0]), self.int(g(4)[0]), self.int(g(5)[0])),
            ids: self.sync_ids(op, g(7))?,
            uf: self.unit_flag_mode(op, 8)?,
        })
    }

    pub(super) fn mmad_l1(&mut self, op: OpId) -> R<()> {
        let o = self.mmad_operands(op)?;
        let call = Call {
            a: &o.a,
            b: &o.b,
            c: &o.c,
            bias: o.bias.as_deref(),
            init: o.init,
            real: o.real,
            ids: o.ids,
            uf: o.uf,
        };
        self.mmad_call(op, "mmadL1", call)
    }

    /// What one `mmadL1` does with `call`, on the pipes and in numbers;
    /// errors start with `what`.
    pub(super) fn mmad_call(&mut self, op: OpId, what: &str, call: Call) -> R<()> {
        let ir = self.ir;
        let err = |m: String| RunError::at(op, format!("{what}: {m}"));
        if ir.has_attr(op, "enable_I4") {
            return Err(err("enable_I4 is not supported by the CPU twin yet".into()));
        }
        let hf32 = ir.has_attr(op, "enable_HF32");
        let Call { a, b, c, bias, init, real: (real_m, real_k, real_n), ids, uf } = call;
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
        if hf32 && a.elem != Elem::F32 {
            return Err(err(format!(
                "enable_HF32 rounds f32 operands, but A and B are {} (upstream's library has HF32 forms for f32 only)",
                a.elem.name()
            )));
        }
        holds_real_sizes([a, b, c], (real_m, real_k, real_n)).map_err(err)?;
        let c_fractal = self.l0c_2d(c).map_err(|e| err(format!("C: {e}")))?;
        let c = c_fractal.as_ref().unwrap_or(c);
        let am = Matrix::of(a, "A", false).map_err(err)?;
        let bm = Matrix::of(b, "B", false).map_err(err)?;
        let cm = Matrix::of(c, "C", false).map_err(err)?;
        check_l1_fractal(&am, a.elem, "A").map_err(err)?;
        check_l1_fractal(&bm, b.elem, "B").map_err(err)?;
        let (a_m, b_n) = dims(&am, &bm, &cm, (ta, tb), (real_m, real_k, real_n)).map_err(err)?;
        let site = |d: &str| Site { op: Some(op), detail: Some(format!("{what}'s library: {d}")) };
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
        // The 950 library sizes its K parts by the real M and N.
        let (pm, pn) = if self.config.regbase { (real_m, real_n) } else { (a_m, b_n) };
        let plan = plan(self.config.caps.l0a as i64, size, pm, pn, real_k)
            .ok_or_else(|| err(format!("A ({a_m} rows) and B ({b_n} columns) do not fit L0A/L0B")))?;
        let bias_at = match bias {
            Some(bv) => Some(bias_index(bv, n).map_err(err)?),
            None => None,
        };
        // The library's unit-flag bookkeeping: a group whose last matmul
        // ended with its flag off hands over FIX -> M first; a matmul that
        // leaves part of L0C's columns unwritten does not mark it ready.
        let mut uf = uf;
        if uf != Mode::Disabled {
            let was_off = *self.unit_flag_group_off(op);
            if was_off {
                self.sync.handshake(sync::FIX, sync::M, &site("FIX -> M after a unit flag left off"));
            }
            // 910B's library compares the columns it writes; the 950 one the
            // real M and N with L0C's.
            let partial = if self.config.regbase { real_n != cm.cols() || real_m != cm.rows() } else { n != cm.cols() };
            let off = self.unit_flag_group_off(op);
            if uf == Mode::WithoutUpdate {
                if was_off {
                    *off = false;
                    uf = Mode::Disabled;
                }
            } else {
                *off = partial;
                if *off {
                    uf = Mode::WithoutUpdate;
                }
            }
        }
        let loads = ids.loads(a, b);
        self.mmad_pipes(op, &ids, &plan, &loads, c, bias, (init, uf), &site);
        // The numbers: op(A) as m x k and op(B) as k x n, row-major.
        for (mtx, what) in [(&am, "A"), (&bm, "B"), (&cm, "C")] {
            if !mtx.inside(self.mem.get(mtx.view.buf).len()) {
                return Err(err(format!("{what} reaches outside its buffer")));
            }
        }
        let (mu, ku, nu) = (m as usize, real_k as usize, n as usize);
        let bias_vals: Vec<f64> = match (bias, &bias_at) {
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
            let a_nd = if ta { self.gather(&am, real_k, m) } else { self.gather(&am, m, real_k) };
            let b_nd = if tb { self.gather(&bm, n, real_k) } else { self.gather(&bm, real_k, n) };
            let av: Vec<f64> = if ta { transpose(&a_nd, ku, mu) } else { a_nd };
            let bv: Vec<f64> = if tb { transpose(&b_nd, nu, ku) } else { b_nd };
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
            // op(A) as m x k and op(B) as k x n, in f32 (exact for the
            // inputs), in buffers kept between ops.
            let mut s = std::mem::take(&mut self.cube_scratch);
            self.operand_f32(&am, if ta { (real_k, m) } else { (m, real_k) }, ta, &mut s.tmp, &mut s.a);
            self.operand_f32(&bm, if tb { (n, real_k) } else { (real_k, n) }, tb, &mut s.tmp, &mut s.b);
            if hf32 {
                // In HF32 mode the cube rounds its f32 inputs to HF32 first.
                for x in s.a.iter_mut().chain(s.b.iter_mut()) {
                    *x = to_hf32(*x);
                }
            }
            let (av, bv) = (&s.a, &s.b);
            // C's rows in groups of up to ROWS, which share each read of B.
            let mut acc = vec![0f32; ROWS * nu];
            let mut i = 0;
            while i < mu {
                let rows = (mu - i).min(ROWS);
                let bytes = self.mem.get_mut(c.buf).bytes_mut();
                for (q, acc) in acc.chunks_exact_mut(nu).take(rows).enumerate() {
                    if init {
                        for (j, x) in acc.iter_mut().enumerate() {
                            *x = bias_vals.get(j).map_or(0.0, |v| *v as f32);
                        }
                    } else {
                        cm.row_runs((i + q) as i64, n, &mut runs);
                        read_row(bytes, &runs, &mut row);
                        for (x, v) in acc.iter_mut().zip(&row) {
                            *x = *v as f32;
                        }
                    }
                }
                mac_rows(&mut acc[..rows * nu], &av[i * ku..(i + rows) * ku], bv, ku, nu);
                for (q, acc) in acc.chunks_exact(nu).take(rows).enumerate() {
                    cm.row_runs((i + q) as i64, n, &mut runs);
                    row.clear();
                    row.extend(acc.iter().map(|x| *x as f64));
                    write_row(bytes, &runs, &row);
                }
                i += rows;
            }
            self.cube_scratch = s;
        }
        Ok(())
    }

    /// The first `rows x cols` of a float matrix as f32, row-major, into
    /// `out`, transposed (`cols x rows`) when `transpose`; `tmp` is scratch.
    fn operand_f32(
        &self,
        m: &Matrix,
        (rows, cols): (i64, i64),
        transpose: bool,
        tmp: &mut Vec<f32>,
        out: &mut Vec<f32>,
    ) {
        let bytes = self.mem.get(m.view.buf).bytes();
        let dst = if transpose { &mut *tmp } else { &mut *out };
        dst.clear();
        let mut runs = Vec::new();
        for r in 0..rows {
            m.row_runs(r, cols, &mut runs);
            for (o, n) in &runs {
                layout::read_run_f32(bytes, m.view.elem, *o, *n, dst);
            }
        }
        if transpose {
            let (rows, cols) = (rows as usize, cols as usize);
            out.clear();
            out.resize(rows * cols, 0.0);
            for r in 0..rows {
                for c in 0..cols {
                    out[c * rows + r] = tmp[r * cols + c];
                }
            }
        }
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
}

/// Rows of C computed together (`mac_rows`).
const ROWS: usize = 6;
/// Columns of C a block of `ROWS` rows keeps in registers.
const COLS: usize = 16;

/// `c[r][j] += a[r][p] * b[p][j]` for the rows of `c` (`a` holds as many
/// rows of `k`, `b` is `k x n`), each sum taken over p in order, so it is
/// rounded as a sequential loop over K rounds it. With AVX the same loops
/// run eight lanes wide: products and sums are still rounded one by one
/// (Rust never fuses them), so the numbers are the same bit for bit.
pub(super) fn mac_rows(c: &mut [f32], a: &[f32], b: &[f32], k: usize, n: usize) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX (checked just above).
        return unsafe { mac_rows_avx(c, a, b, k, n) };
    }
    mac_rows_generic(c, a, b, k, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn mac_rows_avx(c: &mut [f32], a: &[f32], b: &[f32], k: usize, n: usize) {
    mac_rows_generic(c, a, b, k, n)
}

#[inline(always)]
fn mac_rows_generic(c: &mut [f32], a: &[f32], b: &[f32], k: usize, n: usize) {
    if c.len() != ROWS * n {
        for (c, a) in c.chunks_exact_mut(n).zip(a.chunks_exact(k)) {
            mac_row(c, a, b, n);
        }
        return;
    }
    // A block of ROWS x COLS sums stays in registers while p runs over K:
    // each COLS-wide piece of a row of B is read once for all ROWS rows,
    // the ROWS values of A it meets lie side by side.
    let mut packed = vec![[0f32; ROWS]; k];
    for (p, x) in packed.iter_mut().enumerate() {
        for (r, x) in x.iter_mut().enumerate() {
            *x = a[r * k + p];
        }
    }
    let mut j = 0;
    while j + COLS <= n {
        let mut blk = [[0f32; COLS]; ROWS];
        for (r, row) in blk.iter_mut().enumerate() {
            row.copy_from_slice(&c[r * n + j..r * n + j + COLS]);
        }
        for (p, x) in packed.iter().enumerate() {
            let bp: &[f32; COLS] = b[p * n + j..p * n + j + COLS].try_into().expect("COLS wide");
            for (row, x) in blk.iter_mut().zip(x) {
                for (s, y) in row.iter_mut().zip(bp) {
                    *s += x * y;
                }
            }
        }
        for (r, row) in blk.iter().enumerate() {
            c[r * n + j..r * n + j + COLS].copy_from_slice(row);
        }
        j += COLS;
    }
    if j < n {
        for r in 0..ROWS {
            for p in 0..k {
                let x = a[r * k + p];
                for (s, y) in c[r * n + j..(r + 1) * n].iter_mut().zip(&b[p * n + j..(p + 1) * n]) {
                    *s += x * y;
                }
            }
        }
    }
}

/// One row: `acc[j] += a[p] * b[p][j]` for p in order, four rows of B per
/// pass over `acc`.
#[inline(always)]
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

/// `x` rounded to HF32: f32's sign and exponent with 11 of its 23
/// fraction bits, to nearest, ties to even (the rounding the library
/// leaves the control register in).
pub(crate) fn to_hf32(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    const DROP: u32 = 23 - 11;
    let bits = x.to_bits();
    let half = (1u32 << (DROP - 1)) - 1 + ((bits >> DROP) & 1);
    f32::from_bits(bits.wrapping_add(half) & !((1u32 << DROP) - 1))
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

/// op(A)'s rows and op(B)'s columns under the transposes, once C is known to be L0C's 16 x 16 fractals and `real`
/// (M, K, N) to lie inside the operands.
/// A local matmul's operands must hold the matrices its real sizes name:
/// m x k of A, k x n of B, m x n of C. Some solver tests give a 16-element
/// 1-d buffer with m x k = 16 x 256; such a kernel cannot be given data,
/// which says more than that A is not a matrix.
pub(super) fn holds_real_sizes(
    [a, b, c]: [&crate::value::MemRefVal; 3],
    (m, k, n): (i64, i64, i64),
) -> Result<(), String> {
    for (what, v, rows, cols, names) in
        [("A", a, m, k, "real_m x real_k"), ("B", b, k, n, "real_k x real_n"), ("C", c, m, n, "real_m x real_n")]
    {
        // A matrix-shaped operand gets dims()'s account of what does not fit.
        if matches!(v.sizes.len(), 2 | 4) {
            continue;
        }
        let held: i64 = v.sizes.iter().product();
        let need = rows.checked_mul(cols);
        if need.is_none_or(|n| held < n) {
            let need = need.map_or_else(|| "more than 64 bits count".to_string(), |n| n.to_string());
            return Err(format!(
                "{what} holds {held} elements, but {names} = {rows} x {cols} needs {need}: the operand is too small \
                 for the matrix the op multiplies"
            ));
        }
    }
    Ok(())
}

pub(super) fn dims(
    am: &Matrix,
    bm: &Matrix,
    cm: &Matrix,
    (ta, tb): (bool, bool),
    (real_m, real_k, real_n): (i64, i64, i64),
) -> Result<(i64, i64), String> {
    if cm.fractal() != Some((16, 16)) {
        let (r0, c0) = cm.fractal().unwrap_or((0, 0));
        return Err(format!("C's fractal is {r0} x {c0}, but L0C fractals are 16 x 16"));
    }
    let (a_m, a_k) = if ta { (am.cols(), am.rows()) } else { (am.rows(), am.cols()) };
    let (b_k, b_n) = if tb { (bm.cols(), bm.rows()) } else { (bm.rows(), bm.cols()) };
    for (what, real, have) in [
        ("real_m", real_m, a_m.min(cm.rows())),
        ("real_k", real_k, a_k.min(b_k)),
        ("real_n", real_n, b_n.min(cm.cols())),
    ] {
        if real < 0 || real > have {
            return Err(format!(
                "{what} = {real} is outside the operands (A is {a_m} x {a_k}, B is {b_k} x {b_n}, C is {} x {})",
                cm.rows(),
                cm.cols()
            ));
        }
    }
    Ok((a_m, b_n))
}

/// Element offsets of the first `n` bias values: a 1-d `[N]`, a 2-d
/// `[1, N]`, or a fractal holding one row.
pub(super) fn bias_index(bias: &MemRefVal, n: i64) -> Result<Vec<i64>, String> {
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
    /// The library's unit-flag state of `op`'s `unit_flag_group_id` (group
    /// 0 without one), which its matmuls and fixpipes share.
    pub(super) fn unit_flag_group_off(&mut self, op: OpId) -> &mut bool {
        let ir = self.ir;
        let group = ir.get_attr(op, "unit_flag_group_id").and_then(|a| ir.as_int(a)).unwrap_or(0) as i64;
        self.sync.unit_flag_group_off(group)
    }

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
    use super::{ROWS, mac_rows, to_hf32};

    #[test]
    fn blocked_sums_are_the_sequential_sums_bit_for_bit() {
        // Sizes around the block edges; values with full f32 fractions.
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 - 0.5
        };
        for (rows, k, n) in [(ROWS, 37, 16), (ROWS, 5, 35), (ROWS, 64, 64), (3, 9, 20), (1, 4, 7)] {
            let a: Vec<f32> = (0..rows * k).map(|_| next()).collect();
            let b: Vec<f32> = (0..k * n).map(|_| next()).collect();
            let c0: Vec<f32> = (0..rows * n).map(|_| next()).collect();
            let mut want = c0.clone();
            for r in 0..rows {
                for j in 0..n {
                    for p in 0..k {
                        want[r * n + j] += a[r * k + p] * b[p * n + j];
                    }
                }
            }
            let mut got = c0;
            mac_rows(&mut got, &a, &b, k, n);
            assert!(got.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits()), "{rows} x {k} x {n}");
        }
    }

    #[test]
    fn hf32_keeps_eleven_fraction_bits_rounding_to_nearest_even() {
        let ulp = 1.0 / 2048.0; // one unit of the 11th fraction bit at 1.0
        assert_eq!(to_hf32(1.0 + ulp), 1.0 + ulp);
        // Exactly half a unit: ties go to the even neighbour.
        assert_eq!(to_hf32(1.0 + ulp / 2.0), 1.0);
        assert_eq!(to_hf32(1.0 + 3.0 * ulp / 2.0), 1.0 + 2.0 * ulp);
        // Above half a unit rounds up, below rounds down; signs are kept.
        assert_eq!(to_hf32(1.0 + ulp * 0.75), 1.0 + ulp);
        assert_eq!(to_hf32(-(1.0 + ulp * 0.25)), -1.0);
        // f32's exponent range: large and tiny numbers keep their scale.
        assert_eq!(to_hf32(3.0 * 2f32.powi(100)), 3.0 * 2f32.powi(100));
        assert_eq!(to_hf32(2f32.powi(-140)), 2f32.powi(-140));
        assert!(to_hf32(f32::NAN).is_nan());
        assert_eq!(to_hf32(f32::INFINITY), f32::INFINITY);
        // Carrying into the exponent.
        assert_eq!(to_hf32(2.0 - ulp / 4.0), 2.0);
    }
}

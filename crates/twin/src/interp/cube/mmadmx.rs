//! `mmadmxL1`: C (L0C, f32) = [C or bias] + MX(A, scaleA) x MX(B, scaleB),
//! the microscaled (OCP MX) matmul of the 950 generation.
//!
//! Numbers: A is `M x K` (`K x M` under `a_transpose`), B `K x N` (`N x K`
//! under `b_transpose`), ND or fractal, holding 8-bit floats: `f8E4M3FN` /
//! `f8E5M2`, or i8/ui8 codes with `lhsFormat` / `rhsFormat` naming the
//! format (1 e5m2, 2 e4m3). ScaleA is `M x ceil(K/32)`, scaleB `N x
//! ceil(K/32)` (upstream's ND scale layouts, whatever the transposes), of
//! E8M0 codes: element k of row i of A is multiplied by
//! 2^(scaleA[i][k/32] - 127), likewise B's column j by scaleB[j][k/32]. The scaled operands
//! are summed in f32 over `real_k` in K order, as `mmadL1` sums them.
//!
//! Scales may also be fractal (`scale_extent`).
//!
//! Refused rather than guessed: any target but the 950 generation (upstream
//! lowers `matmul_mx` only on register-based targets and its MX library is
//! the 950's), fp4 (`format = 3`: two values per byte, order unstated), i8
//! operands without a format, a format contradicting an f8 element type,
//! the E8M0 NaN code, and a scaled operand that is not exactly an f32.

use hivm_dialects::util::segment;
use hivm_ir::OpId;

use super::layout::{self, Matrix};
use super::library::{Ids, Load, plan};
use super::mmad::{bias_index, mac_rows};
use super::{Interp, R, RunError};
use crate::f8::{F8, e8m0};
use crate::memory::Space;
use crate::sync::Site;
use crate::sync::unit_flag::Mode;
use crate::value::{Elem, MemRefVal};

/// Scales cover groups of this many elements along K.
const GROUP: i64 = 32;

impl Interp<'_> {
    pub(super) fn mmadmx_l1(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let err = |m: String| RunError::at(op, format!("mmadmxL1: {m}"));
        let g = |k: usize| segment(ir, op, k);
        self.mx_target().map_err(err)?;
        let [a, b, sa, sb] = [0, 1, 2, 3].map(|k| self.memref(op, g(k)[0]));
        let (a, b, sa, sb) = (a?, b?, sa?, sb?);
        let c = self.memref(op, g(8)[0])?;
        let bias = match g(10).first() {
            Some(v) => Some(self.memref(op, *v)?),
            None => None,
        };
        let init = self.int(g(4)[0]) != 0;
        let (real_m, real_k, real_n) = (self.int(g(5)[0]), self.int(g(6)[0]), self.int(g(7)[0]));
        let (ta, tb) = (ir.has_attr(op, "a_transpose"), ir.has_attr(op, "b_transpose"));
        let fa = operand_format(ir, op, "A", "lhsFormat", a.elem).map_err(err)?;
        let fb = operand_format(ir, op, "B", "rhsFormat", b.elem).map_err(err)?;
        if let (Elem::F8(x), Elem::F8(y)) = (a.elem, b.elem)
            && x != y
        {
            return Err(err(format!(
                "A is {} but B is {}: upstream's library is chosen by A's type alone",
                a.elem.name(),
                b.elem.name()
            )));
        }
        if c.elem != Elem::F32 {
            return Err(err(format!("C must be f32 (the MX library accumulates into float), not {}", c.elem.name())));
        }
        let ids: Vec<i64> = g(9).iter().map(|v| self.int(*v)).collect();
        let ids = match ids.len() {
            0 => vec![-1; 8],
            8 => ids,
            n => return Err(err(format!("{n} sync_related_args; its library takes 8 (or none)"))),
        };
        if let Some((i, x)) = ids.iter().enumerate().find(|(_, x)| !(-1..=7).contains(*x)) {
            return Err(err(format!("sync_related_args #{i} is {x}, not an event id (0..7) or -1")));
        }
        super::mmad::holds_real_sizes([&a, &b, &c], (real_m, real_k, real_n)).map_err(err)?;
        let c = match self.l0c_2d(&c).map_err(|e| err(format!("C: {e}")))? {
            Some(f) => std::rc::Rc::new(f),
            None => c,
        };
        let am = Matrix::of(&a, "A", true).map_err(err)?;
        let bm = Matrix::of(&b, "B", true).map_err(err)?;
        let cm = Matrix::of(&c, "C", false).map_err(err)?;
        let (a_m, b_n) = super::mmad::dims(&am, &bm, &cm, (ta, tb), (real_m, real_k, real_n)).map_err(err)?;
        let groups = (real_k + GROUP - 1) / GROUP;
        for (s, what, rows) in [(&sa, "scaleA", real_m), (&sb, "scaleB", real_n)] {
            let (have_rows, have_groups) = scale_extent(s).map_err(|m| err(format!("{what} {m}")))?;
            if have_rows < rows || have_groups < groups {
                return Err(err(format!(
                    "{what} holds {have_rows} x {have_groups} scales, but {rows} rows of ceil(real_k / 32) = {groups} are needed"
                )));
            }
        }
        // On the pipes: what upstream's sync arguments say the library
        // does (A, scaleA, B, scaleB on MTE1), K in parts of L0.
        let site = |d: &str| Site { op: Some(op), detail: Some(format!("mmadmxL1's library: {d}")) };
        let loads = [
            Load { wait: ids[0], free: ids[4], src: &a, into: Some(Space::L0a) },
            Load { wait: ids[1], free: ids[5], src: &sa, into: None },
            Load { wait: ids[2], free: ids[6], src: &b, into: Some(Space::L0b) },
            Load { wait: ids[3], free: ids[7], src: &sb, into: None },
        ];
        if real_m == 0 || real_k == 0 || real_n == 0 {
            for l in &loads {
                if l.wait >= 0 {
                    self.sync.wait_flag(crate::sync::MTE2, crate::sync::MTE1, l.wait, &site("wait for L1"));
                }
            }
            for l in &loads {
                if l.free >= 0 {
                    self.sync.set_flag(crate::sync::MTE1, crate::sync::MTE2, l.free, &site("release L1"));
                }
            }
            return Ok(());
        }
        let plan = plan(self.config.caps.l0a as i64, 1, a_m, b_n, real_k)
            .ok_or_else(|| err(format!("A ({a_m} rows) and B ({b_n} columns) do not fit L0A/L0B")))?;
        let (m, n) = (real_m, real_n);
        let bias_at = match &bias {
            Some(bv) => Some(bias_index(bv, n).map_err(err)?),
            None => None,
        };
        self.mmad_pipes(op, &Ids::ping_pong_only(), &plan, &loads, &c, bias.as_deref(), (init, Mode::Disabled), &site);
        for (mtx, what) in [(&am, "A"), (&bm, "B"), (&cm, "C")] {
            if !mtx.inside(self.mem.get(mtx.view.buf).len()) {
                return Err(err(format!("{what} reaches outside its buffer")));
            }
        }
        for (s, what) in [(&sa, "scaleA"), (&sb, "scaleB")] {
            let (lo, hi) = s.byte_span();
            if lo < 0 || hi as usize > self.mem.get(s.buf).len() {
                return Err(err(format!("{what} reaches outside its buffer")));
            }
        }
        // op(A) as m x k, op(B) as k x n, scaled, row-major f32.
        let av = self.scaled(&am, ta, (m, real_k), fa, &sa, false).map_err(err)?;
        let bv = self.scaled(&bm, tb, (real_k, n), fb, &sb, true).map_err(err)?;
        let bias_vals: Vec<f32> = match (&bias, &bias_at) {
            (Some(bv), Some(at)) => {
                let bytes = self.mem.get(bv.buf).bytes();
                let (lo, hi) = bv.byte_span();
                if lo < 0 || hi as usize > bytes.len() {
                    return Err(err("the bias reaches outside its buffer".into()));
                }
                at.iter().map(|o| layout::read(bytes, bv.elem, *o) as f32).collect()
            }
            _ => Vec::new(),
        };
        let (mu, ku, nu) = (m as usize, real_k as usize, n as usize);
        let mut acc = vec![0f32; nu];
        let (mut runs, mut row) = (Vec::new(), Vec::new());
        for i in 0..mu {
            cm.row_runs(i as i64, n, &mut runs);
            let bytes = self.mem.get_mut(c.buf).bytes_mut();
            if init {
                for (j, x) in acc.iter_mut().enumerate() {
                    *x = bias_vals.get(j).copied().unwrap_or(0.0);
                }
            } else {
                row.clear();
                for (o, k) in &runs {
                    layout::read_run(bytes, Elem::F32, *o, *k, &mut row);
                }
                for (x, v) in acc.iter_mut().zip(&row) {
                    *x = *v as f32;
                }
            }
            mac_rows(&mut acc, &av[i * ku..(i + 1) * ku], &bv, ku, nu);
            row.clear();
            row.extend(acc.iter().map(|x| *x as f64));
            let mut at = 0;
            for (o, k) in &runs {
                layout::write_run(bytes, Elem::F32, *o, &row[at..at + *k as usize]);
                at += *k as usize;
            }
        }
        Ok(())
    }

    /// Whether the kernel's target has the MX matmul.
    fn mx_target(&self) -> Result<(), String> {
        match self.config.target.as_deref() {
            Some(t) if hivm_dialects::hacc::is_910_95_family(t) => Ok(()),
            Some(t) => Err(format!(
                "the target {t} has no MX matmul (upstream's MX library is the Ascend950 / 910_95 generation's)"
            )),
            None => Err("the module names no hacc.target, and upstream's default, Ascend910B, has no MX matmul".into()),
        }
    }

    /// The `rows x cols` operand (`op(A)` or `op(B)`, stored transposed when
    /// `transpose`), decoded from `f` and multiplied by its E8M0 scales:
    /// `scales[r][c / 32]` for A, `scales[c][r / 32]` for B (`k_rows`).
    fn scaled(
        &self,
        m: &Matrix,
        transpose: bool,
        (rows, cols): (i64, i64),
        f: F8,
        scales: &MemRefVal,
        k_rows: bool,
    ) -> Result<Vec<f32>, String> {
        let bytes = self.mem.get(m.view.buf).bytes();
        let sbytes = self.mem.get(scales.buf).bytes();
        let mut out = vec![0f32; (rows * cols) as usize];
        let name = if k_rows { "B" } else { "A" };
        for r in 0..rows {
            for c in 0..cols {
                let off = if transpose { m.at(c, r) } else { m.at(r, c) };
                let code = bytes[(off as usize) * m.view.elem.size()];
                let v = f.decode(code) as f64;
                let (si, sk) = if k_rows { (c, r / GROUP) } else { (r, c / GROUP) };
                let so = scale_at(scales, si, sk).ok_or("a scale index is outside its view")?;
                let s = sbytes[so as usize];
                let Some(scale) = e8m0(s) else {
                    return Err(format!(
                        "{} [{si}, {sk}] is 0xFF, E8M0's NaN code (what the cube does with it upstream does not say)",
                        if k_rows { "scaleB" } else { "scaleA" }
                    ));
                };
                let x = v * scale;
                if !v.is_nan() && (x as f32) as f64 != x {
                    return Err(format!(
                        "{name}'s element {v} scaled by 2^{} is {x:e}, not exactly an f32 (the twin sums scaled operands in f32)",
                        s as i32 - 127
                    ));
                }
                out[(r * cols + c) as usize] = x as f32;
            }
        }
        Ok(out)
    }
}

/// Rows and groups of a scale operand: ND `[rows, groups]` (upstream's
/// SCALEA_ND / SCALEB_DN), or fractal `[R1, G1, r0, g0]` holding (r, g) at
/// `[r / r0, g / g0, r % r0, g % g0]` (SCALEA_zZ / SCALEB_nN, the layout
/// upstream's convert_layout builds by expanding ND to `[R1, r0, G1, g0]`
/// and swapping the middle dims).
fn scale_extent(s: &MemRefVal) -> Result<(i64, i64), String> {
    match s.sizes.as_slice() {
        [r, g] => Ok((*r, *g)),
        [r1, g1, r0, g0] if *r0 > 0 && *g0 > 0 => Ok((r1 * r0, g1 * g0)),
        [_, _, r0, g0] => Err(format!("has an empty fractal ({r0} x {g0})")),
        d => Err(format!("must be 2-d (ND) or 4-d (fractal), not rank {}", d.len())),
    }
}

/// The element offset of scale (r, g) (see `scale_extent`).
fn scale_at(s: &MemRefVal, r: i64, g: i64) -> Option<i64> {
    match s.sizes.as_slice() {
        [_, _] => s.linear(&[r, g]),
        [_, _, r0, g0] => s.linear(&[r / r0, g / g0, r % r0, g % g0]),
        _ => None,
    }
}

/// The 8-bit format of operand `what`: its f8 element type, or for i8 / ui8
/// codes the format attribute.
fn operand_format(ir: &hivm_ir::Ir, op: OpId, what: &str, attr: &str, elem: Elem) -> Result<F8, String> {
    let fmt = ir.get_attr(op, attr).and_then(|a| ir.as_int(a));
    let of = |code: i128| match code {
        1 => Ok(F8::E5M2),
        2 => Ok(F8::E4M3FN),
        3 => Err(format!(
            "{attr} = 3 (fp4 e2m1) is not supported by the CPU twin yet: upstream packs two values per byte without saying in which order or how the shapes count them"
        )),
        x => Err(format!("{attr} = {x} is no MX data format")),
    };
    match (elem, fmt) {
        (Elem::F8(f), None) => Ok(f),
        (Elem::F8(f), Some(code)) => {
            let want = of(code)?;
            if want != f {
                return Err(format!(
                    "{what} is {} but {attr} = {code} names another format; which one the cube reads, upstream does not say",
                    elem.name()
                ));
            }
            Ok(f)
        }
        (Elem::Int(8), Some(code)) => of(code),
        (Elem::Int(8), None) => Err(format!("{what} holds i8 codes but no {attr} says which 8-bit float they are")),
        (e, _) => Err(format!("{what} is {}, not an 8-bit float or i8 codes", e.name())),
    }
}

//! `fixpipe ins(L0C) outs(dst)` on PIPE_FIX: every element of the
//! destination's matrix from the same (row, column) of the source's, so
//! `dma_mode = nz2nd` writes a 2-d (ND) destination and `normal` (NZ2NZ) a
//! fractal one. On the way: pre-stage quantisation (a scale from
//! `quant_scale`, or the conversion the element types imply, as upstream
//! infers `pre_quant` when it is not given), then pre-stage ReLU, then
//! rounding to the destination's type.

use hivm_dialects::util::segment;
use hivm_ir::OpId;

use super::layout::{self, Matrix};
use super::{Interp, R, RunError};
use crate::sync::unit_flag::Mode;
use crate::sync::{self, Site};
use crate::value::{Elem, round_float};

#[derive(Clone, Copy)]
enum Quant {
    /// Convert to the destination's type (float rounding, or none).
    Convert,
    /// Multiply by the scale in f32.
    Scale(f32),
    /// i32 times the scale, rounded and saturated to i8.
    ToI8(f32),
}

impl Interp<'_> {
    pub(super) fn fixpipe(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let err = |m: String| RunError::at(op, format!("fixpipe: {m}"));
        let uf = self.unit_flag_mode(op, 2)?;
        let src = self.memref(op, segment(ir, op, 0)[0])?;
        let src = match self.l0c_2d(&src).map_err(|e| err(format!("the source: {e}")))? {
            Some(f) => std::rc::Rc::new(f),
            None => src,
        };
        let dst_value = segment(ir, op, 1)[0];
        if self.mix.as_ref().is_some_and(|m| m.core == crate::sync::cross::CUBE)
            && super::super::space_of(ir, ir.value_type(dst_value)) == crate::memory::Space::Ub
        {
            // The cube core writing a vector core's UB (Ascend950's
            // cube-to-vector path) would need the vector cores' memories here.
            return Err(err("into UB from a mix kernel's cube core is not supported by the CPU twin yet \
                 (the cube and vector cores exchange data through GM here)"
                .into()));
        }
        let dst = self.memref(op, dst_value)?;
        let mode = self.enum_attr(op, "dma_mode", "dma_mode").unwrap_or_else(|| "normal".into());
        let dual = self.enum_attr(op, "dual_dst_mode", "fixpipe_dual_dst_mode");
        if dual.as_deref().is_some_and(|d| d != "NO_DUAL") {
            return Err(err("dual_dst_mode is not supported by the CPU twin yet".into()));
        }
        let channel_split = ir.get_attr(op, "channel_split").and_then(|a| ir.as_int(a)) == Some(1);
        let s = Matrix::of(&src, "the source", false).map_err(err)?;
        // L0C holds 16 x 16 fractals (what mmadL1 writes): another tiling
        // of it would read other elements than those the type names.
        if self.mem.get(src.buf).space == crate::memory::Space::L0c
            && let Some((r0, c0)) = s.fractal().filter(|f| *f != (16, 16))
        {
            return Err(err(format!("the source's fractal is {r0} x {c0}, but L0C fractals are 16 x 16")));
        }
        let d = match mode.as_str() {
            "nz2nd" => Matrix::of(&dst, "with dma_mode = nz2nd, the destination", true).and_then(|m| {
                if m.is_fractal() {
                    Err("with dma_mode = nz2nd, the destination must be 2-d (ND), not a fractal".into())
                } else {
                    Ok(m)
                }
            }),
            "normal" => Matrix::of(&dst, "with dma_mode = normal (NZ2NZ), the destination", false),
            m => Err(format!("dma_mode = {m} is not supported by the CPU twin yet")),
        }
        .map_err(err)?;
        // NZ2NZ writes 2- and 4-byte results in L0C's 16 x 16 fractals, or
        // with channel_split f32 in two 16 x 8 ones each (L1's f32 fractal).
        if let Some(f) = d.fractal() {
            let want = match (dst.elem.size(), channel_split) {
                (2, false) | (4, false) => (16, 16),
                (4, true) => (16, 8),
                (1, _) => {
                    return Err(err(format!(
                        "an NZ destination of {} (its fractal rows padded to 32 bytes or not, c0_pad_en) is not \
                         supported by the CPU twin yet",
                        dst.elem.name()
                    )));
                }
                _ => f,
            };
            if f != want {
                return Err(err(format!(
                    "the destination's fractal is {} x {}, but {} the fixpipe writes {} in {} x {} fractals",
                    f.0,
                    f.1,
                    if channel_split { "with channel_split" } else { "without channel_split" },
                    dst.elem.name(),
                    want.0,
                    want.1
                )));
            }
        }
        if channel_split && !(dst.elem == Elem::F32 && d.is_fractal()) {
            return Err(err(
                "channel_split splits f32 fractals: the destination must be an f32 fractal (with dma_mode = normal)"
                    .into(),
            ));
        }
        if d.rows() > s.rows() || d.cols() > s.cols() {
            return Err(err(format!(
                "the {} x {} destination is larger than the {} x {} source matrix",
                d.rows(),
                d.cols(),
                s.rows(),
                s.cols()
            )));
        }
        let scale = segment(ir, op, 3).first().map(|v| self.get(*v).float() as f32);
        let pre = self.enum_attr(op, "pre_quant", "fixpipe_pre_quant_mode").unwrap_or_else(|| "NO_QUANT".into());
        let (from, to) = (src.elem, dst.elem);
        let quant = match (pre.as_str(), from, to, scale) {
            ("NO_QUANT", Elem::F32, Elem::F32 | Elem::F16 | Elem::BF16, None) => Quant::Convert,
            ("NO_QUANT", Elem::Int(32), Elem::Int(32), None) => Quant::Convert,
            ("F322F16", Elem::F32, Elem::F16, None) | ("F322BF16", Elem::F32, Elem::BF16, None) => Quant::Convert,
            ("QF322F32_PRE", Elem::F32, Elem::F32, Some(k)) => Quant::Scale(k),
            ("S322I8", Elem::Int(32), Elem::Int(8), Some(k)) => Quant::ToI8(k),
            (p, f, t, k) => {
                return Err(err(format!(
                    "pre_quant = {p} from {} to {}{} is not supported by the CPU twin",
                    f.name(),
                    t.name(),
                    if k.is_some() { " with a quant_scale" } else { " without a quant_scale" }
                )));
            }
        };
        let relu = match self.enum_attr(op, "pre_relu", "fixpipe_pre_relu_mode").as_deref() {
            None | Some("NO_RELU") => false,
            Some("NORMAL_RELU") => true,
            Some(r) => return Err(err(format!("pre_relu = {r} is not supported by the CPU twin yet"))),
        };
        let site = Site { op: Some(op), detail: None };
        // The library's fixpipe, like its matmul, keeps the group's state: a
        // matmul that left its unit flag off (a partial tile) marked nothing,
        // so the fixpipe waits M -> FIX itself and reads without unit flags.
        let mut uf = uf;
        if uf != Mode::Disabled && *self.unit_flag_group_off(op) {
            let lib = Site { op: Some(op), detail: Some("fixpipe's library: M -> FIX, the unit flag left off".into()) };
            self.sync.handshake(sync::M, sync::FIX, &lib);
            uf = Mode::Disabled;
        }
        self.sync.issue(sync::FIX);
        let (a, n) = self.span(&src);
        self.sync.unit_flag_fixpipe(sync::FIX, a, n, uf, &site);
        self.sync.access(sync::FIX, a, n, false, &site);
        self.access_view(sync::FIX, &dst, true, &site);
        if !s.inside(self.mem.get(src.buf).len()) || !d.inside(self.mem.get(dst.buf).len()) {
            return Err(err("a view reaches outside its buffer".into()));
        }
        let (mut so, mut dof, mut row) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..d.rows() {
            s.row_runs(r, d.cols(), &mut so);
            d.row_runs(r, d.cols(), &mut dof);
            let sb = self.mem.get(src.buf).bytes();
            row.clear();
            for (o, k) in &so {
                layout::read_run(sb, from, *o, *k, &mut row);
            }
            for v in row.iter_mut() {
                *v = match quant {
                    Quant::Convert if from.is_float() => {
                        let x = if relu { v.max(0.0) } else { *v };
                        round_float(x, to)
                    }
                    Quant::Convert => {
                        if relu {
                            v.max(0.0)
                        } else {
                            *v
                        }
                    }
                    Quant::Scale(k) => {
                        let x = *v as f32 * k;
                        (if relu { x.max(0.0) } else { x }) as f64
                    }
                    Quant::ToI8(k) => {
                        let x = (*v as f32 * k).round_ties_even();
                        let x = if relu { x.max(0.0) } else { x };
                        if x.is_nan() { 0.0 } else { x.clamp(-128.0, 127.0) as f64 }
                    }
                };
            }
            let db = self.mem.get_mut(dst.buf).bytes_mut();
            let mut at = 0;
            for (o, k) in &dof {
                layout::write_run(db, to, *o, &row[at..at + *k as usize]);
                at += *k as usize;
            }
        }
        Ok(())
    }
}

//! The cube core's ops: `nd2nz` (GM -> L1 on PIPE_MTE2, ND to the fractal
//! layout), `load_scale` (MX scales GM -> L1 on PIPE_MTE2, `scale.rs`), `mmadL1` (L1 -> L0A/L0B on PIPE_MTE1, multiply-accumulate into
//! L0C on PIPE_M, with the flags its library sets and waits),
//! `batchMmadL1` (a loop of `mmadL1` over a batch, `batch.rs`), `mmadmxL1`
//! (the microscaled form, `mmadmx.rs`) and `fixpipe`
//! (L0C -> GM/L1/UB on PIPE_FIX, with layout change, quantisation, ReLU).
//! Matrices are read through `layout::Matrix`, so a fractal buffer is read
//! as the NPU reads it.

mod batch;
mod fixpipe;
mod layout;
mod library;
mod mmad;
mod mmadmx;
mod scale;

use hivm_dialects::util::segment;
use hivm_ir::OpId;

use super::{Interp, R, RunError};
use crate::sync;
use crate::value::Elem;
use layout::Matrix;

/// Reused buffers of `mmadL1` (operands as f32 matrices).
#[derive(Default)]
pub(super) struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
    tmp: Vec<f32>,
}

impl Interp<'_> {
    /// A 2-d view of L0C as the fractals L0C holds (`layout::l0c_as_fractal`),
    /// or None for any other view. Only a view of the whole buffer: a part
    /// of it (rows or columns of a larger accumulator) is not a matrix of
    /// its own in fractal order.
    pub(super) fn l0c_2d(&self, v: &crate::value::MemRefVal) -> Result<Option<crate::value::MemRefVal>, String> {
        if v.sizes.len() != 2 || self.mem.get(v.buf).space != crate::memory::Space::L0c {
            return Ok(None);
        }
        let whole = v.root.is_some_and(|r| {
            matches!(self.get(self.ir.result(r, 0)), super::Val::Mem(m)
                if m.buf == v.buf && m.offset == v.offset && m.sizes == v.sizes && m.strides == v.strides)
        });
        if !whole {
            return Err(format!(
                "a {} x {} view of part of an L0C buffer: L0C holds its buffer as 16 x 16 fractals, so only the \
                 whole buffer (or a 4-d fractal view) is a matrix",
                v.sizes[0], v.sizes[1]
            ));
        }
        layout::l0c_as_fractal(v).map(Some)
    }

    /// Runs a cube op; false when `name` is not one.
    pub(super) fn cube(&mut self, op: OpId, name: &str) -> R<bool> {
        match name {
            "hivm.hir.nd2nz" => self.nd2nz(op)?,
            "hivm.hir.load_scale" => self.load_scale(op)?,
            "hivm.hir.mmadL1" => self.mmad_l1(op)?,
            "hivm.hir.batchMmadL1" => self.batch_mmad_l1(op)?,
            "hivm.hir.mmadmxL1" => self.mmadmx_l1(op)?,
            "hivm.hir.fixpipe" => self.fixpipe(op)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `nd2nz ins(src) outs(dst)`: the 2-d matrix `src` into the fractal
    /// buffer `dst`, after filling `dst` with `pad_value` when
    /// `init_out_buffer` is set (and `init_condition`, if given, holds).
    /// Fractal elements outside the source keep what they held.
    fn nd2nz(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let err = |m: String| RunError::at(op, format!("nd2nz: {m}"));
        let src = self.memref(op, segment(ir, op, 0)[0])?;
        let dst = self.memref(op, segment(ir, op, 1)[0])?;
        if src.sizes.len() != 2 {
            return Err(err(format!("the source must be a 2-d (ND) matrix, not rank {}", src.sizes.len())));
        }
        if src.elem != dst.elem {
            return Err(err(format!(
                "source and destination element types differ ({} and {})",
                src.elem.name(),
                dst.elem.name()
            )));
        }
        let d = Matrix::of(&dst, "the destination", false).map_err(err)?;
        check_l1_fractal(&d, dst.elem, "the destination").map_err(err)?;
        let (rows, cols) = (src.sizes[0], src.sizes[1]);
        if rows > d.rows() || cols > d.cols() {
            return Err(err(format!(
                "the {rows} x {cols} source does not fit the destination's {} x {} fractal matrix",
                d.rows(),
                d.cols()
            )));
        }
        let init_out = ir.get_attr(op, "init_out_buffer").and_then(|a| ir.as_int(a)) == Some(1);
        let pad = segment(ir, op, 2).first().map(|v| self.get(*v).clone());
        let cond = segment(ir, op, 3).first().is_none_or(|v| self.int(*v) != 0);
        self.pipe_accesses(sync::MTE2, &[crate::value::Val::Mem(src.clone())], &dst, op);
        let sm = Matrix::of(&src, "the source", true).map_err(err)?;
        if !sm.inside(self.mem.get(src.buf).len()) || !d.inside(self.mem.get(dst.buf).len()) {
            return Err(err("a view reaches outside its buffer".into()));
        }
        let size = dst.elem.size();
        if init_out && cond {
            let Some(pad) = pad else {
                return Err(err("init_out_buffer = true needs a pad_value".into()));
            };
            let mut one = [0u8; 8];
            layout::write(&mut one, dst.elem, 0, pad.float());
            let bytes = self.mem.get_mut(dst.buf).bytes_mut();
            dst.for_each(|o| bytes[o as usize * size..][..size].copy_from_slice(&one[..size]));
        }
        // Same element type: each element's bytes move as they are.
        let (mut so, mut dof, mut row) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..rows {
            sm.row_runs(r, cols, &mut so);
            d.row_runs(r, cols, &mut dof);
            let sb = self.mem.get(src.buf).bytes();
            row.clear();
            for (o, n) in &so {
                row.extend_from_slice(&sb[*o as usize * size..(*o + *n) as usize * size]);
            }
            let db = self.mem.get_mut(dst.buf).bytes_mut();
            let mut at = 0;
            for (o, n) in &dof {
                let len = *n as usize * size;
                db[*o as usize * size..][..len].copy_from_slice(&row[at..at + len]);
                at += len;
            }
        }
        Ok(())
    }
}

/// L1 holds matrices in fractals of 16 rows of 32 bytes.
fn check_l1_fractal(m: &Matrix, elem: Elem, what: &str) -> Result<(), String> {
    let want = (16, 32 / elem.size() as i64);
    match m.fractal() {
        Some(f) if f == want => Ok(()),
        Some((r0, c0)) => Err(format!(
            "{what}'s fractal is {r0} x {c0} {}, but L1 fractals are {} x {} for {} (16 rows of 32 bytes)",
            elem.name(),
            want.0,
            want.1,
            elem.name()
        )),
        None => Ok(()),
    }
}

//! `load_scale`: an MX scale tensor from GM into L1 on PIPE_MTE2, in the
//! layout `mmadmxL1` reads.
//!
//! The source is ND `[rows, groups]` of E8M0 codes (rows of A or of B^T, one
//! group per 32 along K). Upstream's library (the 950's) moves it into a 4-d
//! L1 buffer `[R1, G1, 16, 2]`: fractals of 16 rows by 2 codes, each row-major,
//! the fractals row-major too (Zz), i.e. code (r, g) at `[r / 16, g / 2,
//! r % 16, g % 2]` -- the fractal scale layout `mmadmxL1` reads. It moves the
//! codes as f16 pairs, so the groups must come in pairs. A destination of
//! the source's own shape is the layout before upstream's layout conversion
//! (no library exists for it): the codes are copied as they are, the ND
//! scale layout `mmadmxL1` also reads. Destination elements outside the
//! source keep what they held, as with `nd2nz`.
//!
//! `is_transposed = true` is refused: upstream's library takes no such
//! argument and upstream's passes never set it, so what it would change is
//! not said.

use hivm_ir::OpId;

use super::{Interp, R, RunError};
use crate::sync;

/// The fractal upstream's library writes: 16 rows of 2 codes.
const FRACTAL: (i64, i64) = (16, 2);

impl Interp<'_> {
    pub(super) fn load_scale(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let err = |m: String| RunError::at(op, format!("load_scale: {m}"));
        let src = self.memref(op, ir.operand(op, 0))?;
        let dst = self.memref(op, ir.operand(op, 1))?;
        if ir.get_attr(op, "is_transposed").and_then(|a| ir.as_int(a)) == Some(1) {
            return Err(err("is_transposed = true is not supported by the CPU twin yet (upstream's library has no transposed form and never says what it would load)".into()));
        }
        if src.elem != dst.elem || src.elem.size() != 1 {
            return Err(err(format!(
                "source and destination must both hold 8-bit E8M0 codes (ui8 or i8), not {} and {}",
                src.elem.name(),
                dst.elem.name()
            )));
        }
        let fractal = match (src.sizes.as_slice(), dst.sizes.as_slice()) {
            (s, d) if s == d => false,
            ([rows, groups], [r1, g1, r0, g0]) => {
                if (*r0, *g0) != FRACTAL {
                    return Err(err(format!(
                        "the destination's fractal is {r0} x {g0}, but the library writes fractals of {} rows of {} codes",
                        FRACTAL.0, FRACTAL.1
                    )));
                }
                if groups % FRACTAL.1 != 0 {
                    return Err(err(format!(
                        "{groups} groups per row: the library moves codes in pairs (as f16), so the count must be even"
                    )));
                }
                if *rows > r1 * r0 || *groups > g1 * g0 {
                    return Err(err(format!(
                        "the {rows} x {groups} scales do not fit the destination's {} x {} fractal matrix",
                        r1 * r0,
                        g1 * g0
                    )));
                }
                true
            }
            (s, d) => {
                return Err(err(format!(
                    "the source must be 2-d [rows, groups] and the destination 4-d [R1, G1, 16, 2] (or the source's shape), not {s:?} into {d:?}"
                )));
            }
        };
        self.pipe_accesses(sync::MTE2, &[crate::value::Val::Mem(src.clone())], &dst, op);
        for (v, what) in [(&src, "the source"), (&dst, "the destination")] {
            let (lo, hi) = v.byte_span();
            if lo < 0 || hi as usize > self.mem.get(v.buf).len() {
                return Err(err(format!("{what} reaches outside its buffer")));
            }
        }
        // Pairs (destination, source) of element offsets, in the source's
        // order; the codes are read before any is written.
        let pairs: Vec<(i64, i64)> = if fractal {
            let (rows, groups) = (src.sizes[0], src.sizes[1]);
            let (f0, f1) = FRACTAL;
            let at = |v: &crate::value::MemRefVal, i: &[i64]| v.linear(i).expect("inside the view (checked above)");
            (0..rows)
                .flat_map(|r| (0..groups).map(move |g| (r, g)))
                .map(|(r, g)| (at(&dst, &[r / f0, g / f1, r % f0, g % f1]), at(&src, &[r, g])))
                .collect()
        } else {
            let (mut from, mut to) = (Vec::new(), Vec::new());
            src.for_each(|o| from.push(o));
            dst.for_each(|o| to.push(o));
            to.into_iter().zip(from).collect()
        };
        let sb = self.mem.get(src.buf).bytes();
        let moves: Vec<(i64, u8)> = pairs.iter().map(|(to, from)| (*to, sb[*from as usize])).collect();
        let db = self.mem.get_mut(dst.buf).bytes_mut();
        for (to, code) in moves {
            db[to as usize] = code;
        }
        Ok(())
    }
}

//! `batchMmadL1`: `mmadL1` with a leading batch dimension on A, B and C.
//! Upstream runs it as a loop over the batch of `mmadL1 {batch_matmul}` on
//! each batch's slices (tile-batchmm-into-loop); the twin does the same,
//! so at memref level A, B and C are 5-d: a batch of the fractal matrices
//! `mmadL1` takes. `init_condition`, `real_m/k/n`, the transposes and the
//! unit flag apply to every batch alike.
//!
//! The per-channel bias: upstream's loop hands every batch the same bias
//! operand, so a bias of a shape `mmadL1` takes (`[N]`, `[1, N]`, fractal)
//! is shared. A bias whose leading dimension is the batch (`[B, N]` with
//! B > 1, or a 5-d batch of fractals) gives each batch its own row.

use hivm_ir::OpId;

use super::mmad::Call;
use super::{Interp, R, RunError};
use crate::sync::Site;
use crate::value::MemRefVal;

impl Interp<'_> {
    pub(super) fn batch_mmad_l1(&mut self, op: OpId) -> R<()> {
        let err = |m: String| RunError::at(op, format!("batchMmadL1: {m}"));
        let super::mmad::Operands { a, b, c, bias, init, real, ids, uf } = self.mmad_operands(op)?;
        for (what, v) in [("A", &a), ("B", &b), ("C", &c)] {
            if v.sizes.len() != 5 {
                return Err(err(format!(
                    "{what} must be 5-d (a batch of fractal [col blocks, row blocks, rows, cols] matrices), not rank {}",
                    v.sizes.len()
                )));
            }
        }
        let batches = a.sizes[0];
        if b.sizes[0] != batches || c.sizes[0] != batches {
            return Err(err(format!(
                "the batch sizes differ: A has {batches}, B has {}, C has {}",
                b.sizes[0], c.sizes[0]
            )));
        }
        let per_batch = match &bias {
            None => false,
            Some(bv) => match bv.sizes.as_slice() {
                [_] | [_, _, _, _] | [1, _] => false,
                [d, _] | [d, _, _, _, _] if *d == batches => true,
                [d, ..] if matches!(bv.sizes.len(), 2 | 5) => {
                    return Err(err(format!(
                        "the per-channel bias's leading dimension is {d}, but there are {batches} batches (a bias is shared as [N] or [1, N], or per batch as [{batches}, N])"
                    )));
                }
                s => {
                    return Err(err(format!(
                        "the per-channel bias must be 1-d or 4-d (shared), or 2-d or 5-d (per batch), not rank {}",
                        s.len()
                    )));
                }
            },
        };
        if batches == 0 {
            let site = |d: &str| Site { op: Some(op), detail: Some(format!("batchMmadL1's library: {d}")) };
            self.l1_handshakes(&ids, true, true, &site);
            return Ok(());
        }
        for i in 0..batches {
            let (ai, bi, ci) = (slice(&a, i), slice(&b, i), slice(&c, i));
            let own_bias = bias.as_deref().map(|bv| if per_batch { slice(bv, i) } else { bv.clone() });
            let call = Call {
                a: &ai,
                b: &bi,
                c: &ci,
                bias: own_bias.as_ref(),
                init,
                real,
                ids: ids.for_batch(i == 0, i + 1 == batches),
                uf,
            };
            self.mmad_call(op, &format!("batchMmadL1 (batch {i})"), call)?;
        }
        Ok(())
    }
}

/// Batch `i` of `v`: the view without its leading dimension.
fn slice(v: &MemRefVal, i: i64) -> MemRefVal {
    MemRefVal {
        offset: v.offset + i * v.strides[0],
        sizes: v.sizes[1..].to_vec(),
        strides: v.strides[1..].to_vec(),
        ..v.clone()
    }
}

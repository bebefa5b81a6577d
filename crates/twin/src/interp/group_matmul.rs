//! `hivm.hir.mix_group_matmul` with nothing fused into it: the grouped
//! (mixture-of-experts) matmul over GM. Upstream names A the experts'
//! weights (3-d, one matrix per expert), B the tokens (2-d, one row per
//! token) and `tokens_per_expert` (1-d, one count per expert) how the
//! tokens are distributed: the first `tokens_per_expert[0]` rows of B go to
//! expert 0, the next to expert 1, and so on. Row r of C is row r of B times
//! its expert's weight, `E x K x N` (`E x N x K` under `a_transpose`);
//! sums in f32 (i32 for integers) in K order, rounded to C's type, as
//! `hivm.hir.matmul` computes them. Reads are on PIPE_MTE2, the write on
//! PIPE_MTE3. (The orientation of the weights is read from upstream's
//! operand comments and the hfusion op's "multiplies its weight matrix with
//! its assigned tokens"; upstream's library, which fixes it, is not public.)
//!
//! Counts that are negative, or do not add up to B's rows, are located
//! errors: the NPU library would read or write other experts' rows. So are
//! fused post-vector functions and communication (not modelled), descale,
//! `b_transpose` (how a transposed token matrix is grouped, upstream does
//! not say) and a bias: upstream's verifier sizes it by B's columns (the
//! tokens' K), not by C's, so what it is added to is unclear.

use hivm_dialects::util::{segment, segments};
use hivm_ir::OpId;

use super::{Interp, R, RunError};
use crate::sync::{self, Site};
use crate::value::{MemRefVal, Val, load, round_float, store};

/// Operand groups of the op's spec.
const A: usize = 0;
const B: usize = 1;
const TOKENS: usize = 2;

const BIAS: usize = 8;
const DESCALE: usize = 9;
const C: usize = 15;

impl Interp<'_> {
    pub(super) fn group_matmul(&mut self, op: OpId) -> R<()> {
        let ir = self.ir;
        let err = |m: String| RunError::at(op, format!("mix_group_matmul: {m}"));
        let seg = segments(ir, op);
        for (k, what) in [(3, "a post-vector function"), (4, "a post-vector function"), (7, "communication parameters")]
        {
            if seg.get(k).copied().unwrap_or(0) > 0 {
                return Err(err(format!("{what} fused into it is not supported by the CPU twin yet")));
            }
        }
        if seg.get(DESCALE).copied().unwrap_or(0) > 0 {
            return Err(err("descale is not supported by the CPU twin yet".into()));
        }
        if ir.has_attr(op, "bTranspose") {
            return Err(err(
                "b_transpose is not supported by the CPU twin yet (how transposed tokens are grouped, upstream does not say)"
                    .into(),
            ));
        }
        let one = |g: usize| segment(ir, op, g).first().copied();
        let a = self.memref(op, one(A).expect("one A"))?;
        let b = self.memref(op, one(B).expect("one B"))?;
        let t = self.memref(op, one(TOKENS).expect("one tokens_per_expert"))?;
        let c = self.memref(op, one(C).expect("one C"))?;
        if one(BIAS).is_some() {
            return Err(err(
                "a bias is not supported by the CPU twin yet (upstream's verifier sizes it by B's columns, the tokens' K, \
                 not by C's: what it is added to, upstream does not say)"
                    .into(),
            ));
        }
        if a.sizes.len() != 3 || b.sizes.len() != 2 || t.sizes.len() != 1 || c.sizes.len() != 2 {
            return Err(err("A must be 3-d, B and C 2-d, tokens_per_expert 1-d".into()));
        }
        if t.elem.is_float() {
            return Err(err(format!("tokens_per_expert holds {}, not integers", t.elem.name())));
        }
        let ta = ir.has_attr(op, "aTranspose");
        let experts = a.sizes[0];
        let (k, n) = if ta { (a.sizes[2], a.sizes[1]) } else { (a.sizes[1], a.sizes[2]) };
        let (rows, kb) = (b.sizes[0], b.sizes[1]);
        if kb != k || c.sizes != [rows, n] {
            return Err(err(format!(
                "shapes do not agree: each expert's weight is {k} x {n}, B is {rows} x {kb}, C is {} x {}",
                c.sizes[0], c.sizes[1]
            )));
        }
        if t.sizes[0] != experts {
            return Err(err(format!("tokens_per_expert has {} counts for {experts} experts", t.sizes[0])));
        }
        let site = Site { op: Some(op), detail: None };
        let mte2 = sync::pipe_index("PIPE_MTE2").unwrap_or(sync::S);
        let mte3 = sync::pipe_index("PIPE_MTE3").unwrap_or(sync::S);
        self.sync.issue(mte2);
        for x in [&a, &b, &t] {
            self.access_view(mte2, x, false, &site);
        }
        self.sync.issue(mte3);
        self.access_view(mte3, &c, true, &site);
        // The rows of each expert, checked before anything is written.
        let mut first = Vec::with_capacity(experts as usize);
        let mut at = 0i64;
        for e in 0..experts {
            let o = t.linear(&[e]).expect("in range");
            let cnt = load(&self.mem, t.buf, t.elem, o)
                .ok_or_else(|| err("tokens_per_expert is outside its buffer".into()))?;
            let cnt = cnt.int();
            if cnt < 0 {
                return Err(err(format!("tokens_per_expert[{e}] = {cnt} is negative")));
            }
            first.push(at);
            at = at.saturating_add(cnt);
        }
        if at != rows {
            return Err(err(format!("tokens_per_expert adds up to {at} tokens, but B has {rows} rows")));
        }
        let read = |this: &Self, x: &MemRefVal, idx: &[i64]| -> R<Val> {
            let o = x.linear(idx).ok_or_else(|| err("an index is out of range".into()))?;
            load(&this.mem, x.buf, x.elem, o).ok_or_else(|| err("a read is outside a buffer".into()))
        };
        let float = c.elem.is_float() || a.elem.is_float();
        for r in 0..rows {
            // The last expert whose rows start at or before r (experts with
            // no tokens start where the next does).
            let e = first.partition_point(|s| *s <= r) as i64 - 1;
            for j in 0..n {
                let (mut fs, mut is) = (0f32, 0i64);
                for p in 0..k {
                    let x = read(self, &b, &[r, p])?;
                    let y = if ta { read(self, &a, &[e, j, p])? } else { read(self, &a, &[e, p, j])? };
                    if float {
                        fs += x.float() as f32 * y.float() as f32;
                    } else {
                        is = is.wrapping_add(x.int().wrapping_mul(y.int()));
                    }
                }
                let out = if float {
                    Val::Float(round_float(fs as f64, c.elem))
                } else {
                    Val::Int(crate::value::norm_int(is, c.elem.width()))
                };
                let o = c.linear(&[r, j]).expect("in range");
                if !store(&mut self.mem, c.buf, c.elem, o, &out) {
                    return Err(err("C is outside its buffer".into()));
                }
            }
        }
        Ok(())
    }
}

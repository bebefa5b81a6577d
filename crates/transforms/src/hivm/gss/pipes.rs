//! Pipes as the solver numbers them (`hivm::PIPE`), which op runs on which,
//! how many event ids each pipe pair has, and the order in which upstream's
//! hash map hands out pipe pairs (spec §1, §4.13).

use hivm_dialects::hivm::custom;
use hivm_ir::{Ir, OpId, Value};

pub type Pipe = u8;

pub const S: Pipe = 0;
pub const V: Pipe = 1;
pub const M: Pipe = 2;
pub const MTE1: Pipe = 3;
pub const MTE2: Pipe = 4;
pub const ALL: Pipe = 6;
pub const UNASSIGNED: Pipe = 99;

pub fn name(p: Pipe) -> &'static str {
    if p == UNASSIGNED {
        return "PIPE_UNASSIGNED";
    }
    hivm_dialects::hivm::attrs::ENUMS[0].1.get(p as usize).copied().unwrap_or("PIPE_UNASSIGNED")
}

pub fn from_name(s: &str) -> Pipe {
    hivm_dialects::hivm::attrs::pipe_number(s).map(|n| n as Pipe).unwrap_or(UNASSIGNED)
}

/// The pipes an op reads and writes on (one for single-pipe ops, in and out
/// for macro ops), or nothing for ops that are not pipe work.
pub fn op_pipes(ir: &Ir, op: OpId) -> Vec<Pipe> {
    hivm_dialects::hivm::ops::op_pipes(ir, op).iter().map(|p| from_name(p)).collect()
}

/// A pipe-work op's inputs, inits and extra buffers.
pub fn dps_operands(ir: &Ir, op: OpId) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    if custom::is_custom(ir, op) {
        let ins = custom::ins(ir, op).iter().chain(custom::sync_args(ir, op)).copied().collect();
        return (ins, custom::outs(ir, op).to_vec(), custom::tmps(ir, op).to_vec());
    }
    // The matmul family keeps its init after its other segments.
    let outs =
        hivm_dialects::hivm::ops::dps_inits(ir, op).unwrap_or_else(|| crate::bufferize::interface::dps_outs(ir, op));
    let all = ir.operands(op);
    let ins = all.iter().enumerate().filter(|(i, _)| !outs.contains(i)).map(|(_, v)| *v).collect();
    (ins, all[outs].to_vec(), Vec::new())
}

/// Event ids of a pipe pair within one core: eight, or seven where the
/// hardware keeps one back.
pub fn hw_event_ids(src: Pipe, dst: Pipe) -> u32 {
    const SEVEN: [(Pipe, Pipe); 11] =
        [(0, 1), (0, 4), (0, 5), (1, 0), (1, 4), (1, 5), (2, 10), (4, 0), (4, 1), (5, 0), (10, 2)];
    if SEVEN.contains(&(src, dst)) { 7 } else { 8 }
}

/// Upstream iterates the pipe pairs of a loop's backward events in the
/// bucket order of an LLVM DenseMap over `(CorePipeInfo, CorePipeInfo)`
/// keys; the printed order of prologue sets and epilogue waits follows it.
/// This is that hash (LLVM's 64-bit `mix` combiner) for intra-core pairs.
pub fn pair_hash(src: Pipe, dst: Pipe) -> u32 {
    fn mix(x: u64) -> u64 {
        let y = x.wrapping_mul(0xbf58476d1ce4e5b9);
        y ^ (y >> 31)
    }
    fn combine(a: u32, b: u32) -> u32 {
        mix(((a as u64) << 32) | b as u64) as u32
    }
    let h = |v: u32| v.wrapping_mul(37);
    // Intra-core: the core type is CUBE_OR_VECTOR (3).
    let hp = |p: Pipe| combine(h(3), h(p as u32));
    combine(hp(src), combine(hp(dst), 0))
}

/// Orders keys as a DenseMap with 64 buckets and quadratic probing holds
/// them when inserted in the given order.
pub fn dense_map_order<K: Copy + PartialEq>(keys: &[K], hash: impl Fn(K) -> u32) -> Vec<K> {
    let mut buckets: Vec<Option<K>> = vec![None; 64.max(keys.len().next_power_of_two() * 2)];
    let mask = buckets.len() - 1;
    for &k in keys {
        let mut b = hash(k) as usize & mask;
        let mut probe = 1;
        while let Some(existing) = buckets[b] {
            if existing == k {
                break;
            }
            b = (b + probe) & mask;
            probe += 1;
        }
        buckets[b] = Some(k);
    }
    buckets.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_match_upstream_table() {
        // Spec §4.13: S->V 46, MTE2->V 52, V->MTE2 15, MTE3->V 2, FIX->MTE1 0.
        for (s, d, b) in [(0, 1, 46), (4, 1, 52), (1, 4, 15), (5, 1, 2), (10, 3, 0), (2, 5, 62)] {
            assert_eq!(pair_hash(s, d) & 63, b, "{s}->{d}");
        }
        assert_eq!(dense_map_order(&[(4u8, 1u8), (1, 4)], |(s, d)| pair_hash(s, d)), vec![(1, 4), (4, 1)]);
    }
}

//! Address reuse for `hivm-plan-memory` when the buffers of one memory do
//! not fit side by side: a buffer may take bytes of buffers that are dead
//! for its whole life. A life is a span of program positions, from where
//! the buffer is first written or, if earlier, the op at the buffer's own
//! nesting level holding its first use, to the end of the op at that level
//! holding its last use (so a buffer used in a loop, or any region, lives
//! through all of it). Buffers
//! whose uses the planner cannot order (escaped through branch results,
//! used in `cf` blocks), buffers carried by loops and multi-buffered ones
//! live for the whole function: they never share. Places are chosen first
//! fit, in the order the side-by-side plan uses.

/// One place to find: its size in bits and life span (inclusive).
pub struct Entry {
    pub bits: u64,
    pub start: usize,
    pub end: usize,
}

/// Bit offsets, one per entry (in the order given), at or above `base`,
/// aligned to `align`: the lowest offset where the entry overlaps no earlier
/// entry that is alive at the same time.
pub fn first_fit(entries: &[Entry], base: u64, align: u64) -> Vec<u64> {
    let mut placed: Vec<(u64, u64, usize, usize)> = Vec::new();
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let size = e.bits.div_ceil(align) * align;
        let mut live: Vec<(u64, u64)> =
            placed.iter().filter(|(_, _, s, t)| *s <= e.end && e.start <= *t).map(|(o, n, _, _)| (*o, o + n)).collect();
        live.sort_unstable();
        let mut at = base;
        for (lo, hi) in live {
            if at + size <= lo {
                break;
            }
            at = at.max(hi);
        }
        placed.push((at, size, e.start, e.end));
        out.push(at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_places_are_taken_live_ones_are_not() {
        let e = |bits, start, end| Entry { bits, start, end };
        // a [0,3], b [2,5] overlap; c [4,9] takes a's place (b is still
        // live); d [6,7] takes b's, now dead, above c.
        let offs = first_fit(&[e(100, 0, 3), e(64, 2, 5), e(128, 4, 9), e(50, 6, 7)], 0, 32);
        assert_eq!(offs, vec![0, 128, 0, 128]);
    }

    #[test]
    fn a_gap_too_small_is_skipped() {
        let e = |bits, start, end| Entry { bits, start, end };
        // Two live neighbours with a 32-bit hole between them after a dies.
        let offs = first_fit(&[e(32, 0, 1), e(64, 0, 9), e(32, 0, 9), e(64, 5, 6)], 256, 32);
        assert_eq!(offs[..3], [256, 288, 352]);
        assert_eq!(offs[3], 384);
    }
}

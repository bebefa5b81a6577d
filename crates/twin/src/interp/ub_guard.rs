//! UB a call may not change: the kernel's live buffers it was not passed,
//! and UB no live buffer owns, which only intrinsics may use (as scratch:
//! upstream's examples form such buffers from integer addresses). A plain C
//! store past the end of a UB operand lands there.
//!
//! Pages holding none of the call's operands are closed: read-only in the
//! call worker (`worker/ub_pages.rs`), which saves a page's bytes when a
//! write first faults there and opens it, so a call that writes none costs
//! nothing per call. The other bytes on the operands' pages are copied
//! before the call. Afterwards every changed byte is placed: in a live
//! buffer the op was not passed, an error; in free UB, an error unless an
//! intrinsic's traced write covers it.

use hivm_ir::OpId;

use super::ub_bounds::{UbBuf, UbMap};
use super::{R, RunError};
use crate::native::{self, UB_PAGES, UB_WORDS};

const PAGE: u64 = 4096;
/// Hardware allocations are 32-byte granules: the rest of an operand's
/// last granule is the operand's.
const GRANULE: u64 = 32;

pub(super) struct UbGuard {
    base: u64,
    /// Pages the call may not write, one bit each (see `Ctx::ub_closed`).
    pub(super) closed: [u64; UB_WORDS],
    /// Bytes on the operands' pages that are not theirs, as before the call.
    copies: Vec<(u64, Vec<u8>)>,
}

/// `[lo, hi)` minus the sorted, disjoint `cover`.
fn minus(lo: u64, hi: u64, cover: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut at = lo;
    for &(s, e) in cover.iter().filter(|(s, e)| *e > lo && *s < hi) {
        if s > at {
            out.push((at, s.min(hi)));
        }
        at = at.max(e);
    }
    if at < hi {
        out.push((at, hi));
    }
    out
}

/// Sorts and merges intervals.
fn merged(mut v: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    v.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(v.len());
    for (s, e) in v {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// The runs of bytes that differ, as addresses from `start`.
fn changed(start: u64, old: &[u8], new: &[u8], runs: &mut Vec<(u64, u64)>) {
    if old == new {
        return;
    }
    let mut i = 0;
    while i < old.len() {
        if old[i] == new[i] {
            i += 1;
            continue;
        }
        let j = (i..old.len()).find(|j| old[*j] == new[*j]).unwrap_or(old.len());
        runs.push((start + i as u64, start + j as u64));
        i = j;
    }
}

impl UbGuard {
    pub(super) fn new(map: &UbMap) -> UbGuard {
        let (base, size) = map.bounds();
        let pages = (size / PAGE).min(UB_PAGES as u64);
        let span = |o: &UbBuf| (o.start, o.start + o.len.div_ceil(GRANULE) * GRANULE);
        let owned = merged(map.operands.iter().filter(|o| o.len > 0).map(span).collect());
        let mut closed = native::ub_page_mask(pages);
        let mut copies = Vec::new();
        if !base.is_multiple_of(PAGE) {
            // Never so (UB is mapped page-aligned); then nothing is closed.
            closed = [0; UB_WORDS];
        }
        let mut last_page = None;
        for &(s, e) in &owned {
            let (first, end) = ((s - base) / PAGE, (e - base).div_ceil(PAGE));
            for p in first..end {
                if last_page.is_some_and(|l| p <= l) {
                    continue;
                }
                last_page = Some(p);
                if p < UB_PAGES as u64 {
                    closed[(p / 64) as usize] &= !(1u64 << (p % 64));
                }
                let (lo, hi) = (base + p * PAGE, (base + (p + 1) * PAGE).min(base + size));
                for (a, b) in minus(lo, hi, &owned) {
                    // SAFETY: inside UB, a live buffer readable here.
                    let bytes = unsafe { std::slice::from_raw_parts(a as *const u8, (b - a) as usize) };
                    copies.push((a, bytes.to_vec()));
                }
            }
        }
        UbGuard { base, closed, copies }
    }

    /// The first byte the call changed that it may not have, as a located
    /// error. `dirty` and `shadow` are the closed pages it wrote and their
    /// bytes before (`Shared::take_ub_dirty`); `map` is the one the guard
    /// was made from.
    pub(super) fn check(
        &self,
        map: &UbMap,
        op: OpId,
        what: &str,
        trace: &[native::Rec],
        dirty: &[u64; UB_WORDS],
        shadow: &[u8],
    ) -> R<()> {
        let mut runs = Vec::new();
        for (start, old) in &self.copies {
            // SAFETY: as in `new`; the buffers outlive the call.
            let now = unsafe { std::slice::from_raw_parts(*start as *const u8, old.len()) };
            changed(*start, old, now, &mut runs);
        }
        for (w, (d, c)) in dirty.iter().zip(&self.closed).enumerate() {
            let mut bits = d & c;
            while bits != 0 {
                let p = w as u64 * 64 + bits.trailing_zeros() as u64;
                bits &= bits - 1;
                let at = (p * PAGE) as usize;
                let Some(old) = shadow.get(at..at + PAGE as usize) else { continue };
                let start = self.base + p * PAGE;
                // SAFETY: a whole UB page (UB is whole pages), readable here.
                let now = unsafe { std::slice::from_raw_parts(start as *const u8, PAGE as usize) };
                changed(start, old, now, &mut runs);
            }
        }
        if runs.is_empty() {
            return Ok(());
        }
        let runs = merged(runs);
        for UbBuf { start: s, len: n, name } in &map.others {
            let hit: Vec<(u64, u64)> = runs
                .iter()
                .filter(|(a, b)| *a < s + n && *b > *s)
                .map(|(a, b)| (*a.max(s), *b.min(&(s + n))))
                .collect();
            if let (Some(first), Some(last)) = (hit.first(), hit.last()) {
                let (at, end) = (first.0 - s, last.1 - s);
                return Err(RunError::at(
                    op,
                    format!(
                        "{what} wrote {name} at byte offset {at} (bytes [{at}, {end}) of {n} changed), which it may not write"
                    ),
                ));
            }
        }
        // Free UB: fine where an intrinsic wrote it.
        let mut allowed: Vec<(u64, u64)> = map.others.iter().map(|o| (o.start, o.start + o.len)).collect();
        allowed.extend(trace.iter().filter(|r| r.kind == native::WRITE).map(|r| (r.a, r.a.saturating_add(r.b))));
        let allowed = merged(allowed);
        let stray = runs.iter().flat_map(|(a, b)| minus(*a, *b, &allowed)).next();
        let Some((a, b)) = stray else { return Ok(()) };
        let place = near(&map.operands, a, b);
        Err(RunError::at(
            op,
            format!(
                "{what} changed UB bytes [{}, {}){place}, which no live buffer owns, and no intrinsic wrote them \
                 (only intrinsics may use free UB, as scratch)",
                a - self.base,
                b - self.base
            ),
        ))
    }
}

/// Where `[a, b)` lies relative to the nearest of `operands`.
fn near(operands: &[UbBuf], a: u64, b: u64) -> String {
    let after = operands.iter().filter(|o| o.start + o.len <= a).max_by_key(|o| o.start + o.len);
    let before = operands.iter().filter(|o| o.start >= b).min_by_key(|o| o.start);
    // "outs[0]" reads as "its outs[0] operand"; a call's "operand #1" as itself.
    let named = |o: &UbBuf| match o.name.starts_with("operand") {
        true => o.name.clone(),
        false => format!("{} operand", o.name),
    };
    match (after, before) {
        (Some(o), _) if a - (o.start + o.len) < PAGE => match a - (o.start + o.len) {
            0 => format!(", just past the end of its {}", named(o)),
            d => format!(", {d} bytes past the end of its {}", named(o)),
        },
        (_, Some(o)) if o.start - b < PAGE => format!(", {} bytes before its {}", o.start - a, named(o)),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtracts_sorted_cover() {
        assert_eq!(minus(0, 100, &[(10, 20), (30, 40)]), vec![(0, 10), (20, 30), (40, 100)]);
        assert_eq!(minus(15, 35, &[(10, 20), (30, 40)]), vec![(20, 30)]);
        assert_eq!(minus(10, 20, &[(0, 100)]), vec![]);
        assert_eq!(merged(vec![(30, 40), (0, 10), (5, 12), (40, 41)]), vec![(0, 12), (30, 41)]);
    }

    #[test]
    fn finds_changed_runs() {
        let mut runs = Vec::new();
        changed(100, &[0, 1, 2, 3, 4, 5], &[0, 9, 9, 3, 4, 9], &mut runs);
        assert_eq!(runs, vec![(101, 103), (105, 106)]);
    }

    #[test]
    fn masks_whole_and_partial_words() {
        assert_eq!(native::ub_page_mask(48), [(1 << 48) - 1, 0, 0, 0]);
        assert_eq!(native::ub_page_mask(64), [u64::MAX, 0, 0, 0]);
        assert_eq!(native::ub_page_mask(70), [u64::MAX, 0b11_1111, 0, 0]);
        assert_eq!(native::ub_page_mask(10_000), [u64::MAX; UB_WORDS]);
    }
}

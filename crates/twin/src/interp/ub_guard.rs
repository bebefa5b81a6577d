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
    operands: Vec<(u64, u64, String)>,
    others: Vec<(u64, u64, String)>,
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
        let mut closed = [u64::MAX; UB_WORDS];
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
        for p in pages..UB_PAGES as u64 {
            closed[(p / 64) as usize] &= !(1u64 << (p % 64));
        }
        let named = |v: &[UbBuf]| v.iter().map(|o| (o.start, o.len, o.name.clone())).collect();
        UbGuard { base, closed, copies, operands: named(&map.operands), others: named(&map.others) }
    }

    /// The first byte the call changed that it may not have, as a located
    /// error. `dirty` and `shadow` are the closed pages it wrote and their
    /// bytes before (`Shared::ub_dirty`).
    pub(super) fn check(
        &self,
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
        for p in 0..UB_PAGES as u64 {
            let (w, mask) = ((p / 64) as usize, 1u64 << (p % 64));
            if dirty[w] & mask == 0 || self.closed[w] & mask == 0 {
                continue;
            }
            let at = (p * PAGE) as usize;
            let Some(old) = shadow.get(at..at + PAGE as usize) else { continue };
            let start = self.base + p * PAGE;
            // SAFETY: a whole UB page (UB is whole pages), readable here.
            let now = unsafe { std::slice::from_raw_parts(start as *const u8, PAGE as usize) };
            changed(start, old, now, &mut runs);
        }
        if runs.is_empty() {
            return Ok(());
        }
        let runs = merged(runs);
        for (s, n, name) in &self.others {
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
        let mut allowed: Vec<(u64, u64)> = self.others.iter().map(|(s, n, _)| (*s, s + n)).collect();
        allowed.extend(trace.iter().filter(|r| r.kind == native::WRITE).map(|r| (r.a, r.a.saturating_add(r.b))));
        let allowed = merged(allowed);
        let stray = runs.iter().flat_map(|(a, b)| minus(*a, *b, &allowed)).next();
        let Some((a, b)) = stray else { return Ok(()) };
        let place = self.near(a, b);
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

    /// Where `[a, b)` lies relative to the op's nearest UB operand.
    fn near(&self, a: u64, b: u64) -> String {
        let after = self.operands.iter().filter(|(s, n, _)| s + n <= a).max_by_key(|(s, n, _)| s + n);
        let before = self.operands.iter().filter(|(s, _, _)| *s >= b).min_by_key(|(s, _, _)| *s);
        match (after, before) {
            (Some((s, n, name)), _) if a - (s + n) < PAGE => match a - (s + n) {
                0 => format!(", just past the end of its {name} operand"),
                d => format!(", {d} bytes past the end of its {name} operand"),
            },
            (_, Some((s, _, name))) if s - b < PAGE => format!(", {} bytes before its {name} operand", s - a),
            _ => String::new(),
        }
    }
}

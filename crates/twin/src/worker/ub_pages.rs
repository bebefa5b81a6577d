//! UB pages a call may not write, closed (read-only) in the worker.
//!
//! Plain C stores leave no trace, so a store past the end of a UB operand
//! into UB no buffer owns would pass unseen, and copying all of UB around
//! every call costs more than the call. Instead the pages holding none of
//! the call's operands are read-only here. Intrinsics may still use free UB
//! as scratch (upstream's own examples form scratch buffers from integer
//! addresses): the first write to a closed page faults, `on_write_fault`
//! saves the page's bytes to the shadow, opens the page and lets the write
//! go on. The caller then compares each page the call wrote with its saved
//! bytes: a changed byte no intrinsic wrote is an error. A loop calling one
//! op over the same buffers changes no protection between calls.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::native::{Ctx, UB_PAGES, UB_WORDS};

const PAGE: u64 = 4096;

/// The UB mapping the bits below are for (its first page), and its pages.
static BASE: AtomicU64 = AtomicU64::new(0);
static PAGES: AtomicU64 = AtomicU64::new(0);
/// Pages read-only now. Changed by the worker's thread between calls and by
/// the fault handler during one.
static CLOSED: [AtomicU64; UB_WORDS] = [const { AtomicU64::new(0) }; UB_WORDS];

/// Forgets closed pages in `[start, start + len)`, which is mapped anew
/// (writable) or reserved.
pub(super) fn forget(start: u64, len: u64) {
    let (base, pages) = (BASE.load(Ordering::Relaxed), PAGES.load(Ordering::Relaxed));
    if start < base + pages * PAGE && base < start + len {
        for w in &CLOSED {
            w.store(0, Ordering::Relaxed);
        }
    }
}

fn bit(bits: &[u64; UB_WORDS], i: u64) -> bool {
    bits[(i / 64) as usize] >> (i % 64) & 1 != 0
}

fn now() -> [u64; UB_WORDS] {
    std::array::from_fn(|w| CLOSED[w].load(Ordering::Relaxed))
}

/// Sets the protection of pages `[from, to)` of the UB at `base`.
unsafe fn protect(base: u64, from: u64, to: u64, closed: bool) -> Result<(), String> {
    let prot = if closed { libc::PROT_READ } else { libc::PROT_READ | libc::PROT_WRITE };
    // SAFETY: UB pages, ours to change.
    unsafe { crate::raw_syscall::try_mprotect(base + from * PAGE, (to - from) * PAGE, prot) }
        .map_err(|e| format!("cannot protect the call's UB ({} pages at page {from}): {e}", to - from))
}

/// Makes the closed pages those `ctx` asks for, changing only what
/// differs, and clears its record of written pages.
///
/// # Safety
/// `ctx` is the call's context; UB is mapped where it says.
pub(super) unsafe fn sync(ctx: *mut Ctx) -> Result<(), String> {
    unsafe {
        let base = (*ctx).ub_base as u64;
        let pages = ((*ctx).ub_size / PAGE).min(UB_PAGES as u64);
        let (old_base, old_pages) = (BASE.load(Ordering::Relaxed), PAGES.load(Ordering::Relaxed));
        if old_base != base || old_pages != pages {
            // Another UB (another run's): open what we closed of it.
            let old = now();
            for i in (0..old_pages).filter(|i| bit(&old, *i)) {
                protect(old_base, i, i + 1, false)?;
            }
            for w in &CLOSED {
                w.store(0, Ordering::Relaxed);
            }
            BASE.store(base, Ordering::Relaxed);
            PAGES.store(pages, Ordering::Relaxed);
        }
        if !base.is_multiple_of(PAGE) {
            // Not page-aligned (never, as the twin maps UB): leave it open.
            return Ok(());
        }
        let mask = crate::native::ub_page_mask(pages);
        let want: [u64; UB_WORDS] = std::array::from_fn(|w| (*ctx).ub_closed[w] & mask[w]);
        let have = now();
        if want == have {
            return Ok(());
        }
        // Runs of pages whose state changes the same way: one call each.
        let mut i = 0;
        while i < pages {
            if bit(&want, i) == bit(&have, i) {
                i += 1;
                continue;
            }
            let close = bit(&want, i);
            let mut j = i + 1;
            while j < pages && bit(&want, j) == close && bit(&have, j) != close {
                j += 1;
            }
            protect(base, i, j, close)?;
            i = j;
        }
        for (w, c) in want.iter().zip(&CLOSED) {
            c.store(*w, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// In the fault handler: a write to a closed UB page saves the page to the
/// shadow, marks it written and opens it; true if the faulting access may
/// be retried.
///
/// # Safety
/// From the fault handler, with the call's context.
pub(super) unsafe fn on_write_fault(ctx: *mut Ctx, addr: u64) -> bool {
    let (base, pages) = (BASE.load(Ordering::Relaxed), PAGES.load(Ordering::Relaxed));
    if base == 0 || addr < base || addr >= base + pages * PAGE {
        return false;
    }
    let i = (addr - base) / PAGE;
    let (w, mask) = ((i / 64) as usize, 1u64 << (i % 64));
    unsafe {
        let dirty = &raw mut (*ctx).ub_dirty[w];
        if CLOSED[w].load(Ordering::Relaxed) & mask == 0 {
            // Opened by another thread's fault a moment ago: retry.
            return std::ptr::read_volatile(dirty) & mask != 0;
        }
        let shadow = (*ctx).ub_shadow;
        if shadow.is_null() {
            return false;
        }
        let page = base + i * PAGE;
        std::ptr::copy_nonoverlapping(page as *const u8, shadow.add((i * PAGE) as usize), PAGE as usize);
        std::ptr::write_volatile(dirty, std::ptr::read_volatile(dirty) | mask);
        if !crate::raw_syscall::mprotect(page, PAGE, libc::PROT_READ | libc::PROT_WRITE) {
            return false;
        }
        CLOSED[w].fetch_and(!mask, Ordering::Relaxed);
        true
    }
}

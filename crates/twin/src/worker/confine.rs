//! What an implementation may not do in the call worker, enforced by a
//! seccomp filter (the kernel checks every system call against it):
//!
//! - Start a process outside the worker's tree. The worker is subreaper of
//!   its descendants, so a daemon (double fork, `setsid`) stays in its tree
//!   and dies with the call; `clone(CLONE_PARENT)` would make a sibling of
//!   the worker — a child of the twin's own process — free to write the
//!   run's buffers after the call. Refused (EPERM), as is `clone3`, whose
//!   flags a filter cannot read (ENOSYS: the C library falls back to
//!   `clone`).
//! - Change the twin's memory other than by writing what it may write:
//!   `mprotect` (making a read-only buffer writable, to write it unseen),
//!   `munmap`, `mmap` over it, `madvise` (punching holes), `mremap` onto it,
//!   `mseal`, on any range that meets the twin's address arena, refused
//!   (EPERM) unless made by the twin itself from its known call site
//!   (`raw_syscall.rs`); `shmat` at a chosen address, io_uring,
//!   `process_madvise` and `userfaultfd` (memory changed by the kernel on
//!   the caller's behalf, past what a filter sees) refused. A later write
//!   then faults and is reported.
//! - Leave code to run after the call: timers (`timer_create`,
//!   `setitimer`; `alarm` is cancelled after every call), message-queue
//!   and SIGIO notifications (`mq_notify`, `F_SETOWN`/`F_SETSIG`,
//!   `FIOSETOWN`), kernel AIO. Their handlers would write the run's
//!   buffers between calls.
//! - Turn off the worker's subreaping (`PR_SET_CHILD_SUBREAPER`).
//! - As root, map a buffer's memory a second time, writable
//!   (`/proc/self/map_files` needs CAP_SYS_ADMIN, dropped here).
//! - Syscalls of another ABI (i386 through `int 0x80`, x32), which would
//!   bypass the filter's numbers, are refused too.

#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

/// `mseal` (the same number on every architecture, as all calls since 424).
const SYS_MSEAL: libc::c_long = 462;

/// The bits of an address's high word the kernel keeps (aarch64 ignores
/// the top byte of addresses given to memory calls).
const ADDRESS_HI: u32 = 0x00ff_ffff;

/// x32 syscall numbers carry this bit.
const X32_BIT: u32 = 0x4000_0000;

const LD_ABS_W: u16 = 0x20;
const LD_MEM: u16 = 0x60;
const ST: u16 = 0x02;
const TAX: u16 = 0x07;
const ADD_X: u16 = 0x0c;
const ADD_K: u16 = 0x04;
const AND_K: u16 = 0x54;
const JA: u16 = 0x05;
const JEQ: u16 = 0x15;
const JGT: u16 = 0x25;
const JGE: u16 = 0x35;
const JSET: u16 = 0x45;
const JGT_X: u16 = 0x2d;
const RET: u16 = 0x06;

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const EPERM: u32 = RET_ERRNO | libc::EPERM as u32;
const ENOSYS: u32 = RET_ERRNO | libc::ENOSYS as u32;

// Offsets in `struct seccomp_data` (little-endian halves of 64-bit fields).
const NR: u32 = 0;
const ARCH_AT: u32 = 4;
const IP_LO: u32 = 8;
const IP_HI: u32 = 12;
const fn arg_lo(i: u32) -> u32 {
    16 + 8 * i
}
const fn arg_hi(i: u32) -> u32 {
    20 + 8 * i
}

type Label = usize;

enum Ins {
    Op(u16, u32),
    Jump(u16, u32, Label, Label),
    Always(Label),
    At(Label),
}

/// A filter program under construction, with labels for jumps.
#[derive(Default)]
struct Program {
    ins: Vec<Ins>,
    labels: usize,
}

impl Program {
    fn label(&mut self) -> Label {
        self.labels += 1;
        self.labels - 1
    }
    fn op(&mut self, code: u16, k: u32) {
        self.ins.push(Ins::Op(code, k));
    }
    fn jump(&mut self, code: u16, k: u32, yes: Label, no: Label) {
        self.ins.push(Ins::Jump(code, k, yes, no));
    }
    fn always(&mut self, to: Label) {
        self.ins.push(Ins::Always(to));
    }
    fn at(&mut self, l: Label) {
        self.ins.push(Ins::At(l));
    }
    fn ret(&mut self, k: u32) {
        self.op(RET, k);
    }

    /// The instructions, jumps resolved (conditional jumps reach at most
    /// 255 instructions ahead, and only forward).
    fn assemble(&self) -> Result<Vec<libc::sock_filter>, String> {
        let mut pos = vec![usize::MAX; self.labels];
        let mut n = 0;
        for i in &self.ins {
            match i {
                Ins::At(l) => pos[*l] = n,
                _ => n += 1,
            }
        }
        let mut out = Vec::with_capacity(n);
        for i in &self.ins {
            let here = out.len();
            let off = |l: Label| pos[l].checked_sub(here + 1).ok_or("a jump backwards");
            let f = match i {
                Ins::At(_) => continue,
                Ins::Op(code, k) => libc::sock_filter { code: *code, jt: 0, jf: 0, k: *k },
                Ins::Always(l) => libc::sock_filter { code: JA, jt: 0, jf: 0, k: off(*l)? as u32 },
                Ins::Jump(code, k, yes, no) => {
                    let (jt, jf) = (off(*yes)?, off(*no)?);
                    let (Ok(jt), Ok(jf)) = (u8::try_from(jt), u8::try_from(jf)) else {
                        return Err("a jump too far".into());
                    };
                    libc::sock_filter { code: *code, jt, jf, k: *k }
                }
            };
            out.push(f);
        }
        Ok(out)
    }

    /// Jumps to `yes` if the 64-bit field at (`lo`, `hi`) equals `v`.
    fn if_eq64(&mut self, lo: u32, hi: u32, v: u64, yes: Label, no: Label) {
        let low = self.label();
        self.op(LD_ABS_W, hi);
        self.jump(JEQ, (v >> 32) as u32, low, no);
        self.at(low);
        self.op(LD_ABS_W, lo);
        self.jump(JEQ, v as u32, yes, no);
    }
}

/// Refuses (EPERM) a call that meets one of `arena`'s ranges through its
/// range argument (`addr` argument `a`, length argument `n`), unless made
/// from the twin's own call site.
fn range_check(p: &mut Program, a: u32, n: u32, arena: &[(u64, u64)], site: u64) {
    let (ours, theirs) = (p.label(), p.label());
    p.if_eq64(IP_LO, IP_HI, site, ours, theirs);
    p.at(ours);
    p.ret(RET_ALLOW);
    p.at(theirs);
    // end = addr + len, as two 32-bit halves in M[0] (low) and M[1] (high).
    let (carry, no_carry, summed) = (p.label(), p.label(), p.label());
    p.op(LD_ABS_W, arg_lo(n));
    p.op(TAX, 0);
    p.op(LD_ABS_W, arg_lo(a));
    p.op(ADD_X, 0);
    p.op(ST, 0);
    p.op(TAX, 0);
    p.op(LD_ABS_W, arg_lo(a));
    p.jump(JGT_X, 0, carry, no_carry);
    p.at(carry);
    p.op(LD_ABS_W, arg_hi(n));
    p.op(TAX, 0);
    p.op(LD_ABS_W, arg_hi(a));
    p.op(AND_K, ADDRESS_HI);
    p.op(ADD_X, 0);
    p.op(ADD_K, 1);
    p.op(ST, 1);
    p.always(summed);
    p.at(no_carry);
    p.op(LD_ABS_W, arg_hi(n));
    p.op(TAX, 0);
    p.op(LD_ABS_W, arg_hi(a));
    p.op(AND_K, ADDRESS_HI);
    p.op(ADD_X, 0);
    p.op(ST, 1);
    p.at(summed);
    for &(start, len) in arena {
        let stop = start + len;
        let (next, deny) = (p.label(), p.label());
        // addr < stop?
        let (a_lo, below, hi_eq) = (p.label(), p.label(), p.label());
        p.op(LD_ABS_W, arg_hi(a));
        p.op(AND_K, ADDRESS_HI);
        p.jump(JGT, (stop >> 32) as u32, next, hi_eq);
        p.at(hi_eq);
        p.jump(JEQ, (stop >> 32) as u32, a_lo, below);
        p.at(a_lo);
        p.op(LD_ABS_W, arg_lo(a));
        p.jump(JGE, stop as u32, next, below);
        p.at(below);
        // end > start?
        let (e_lo, e_eq) = (p.label(), p.label());
        p.op(LD_MEM, 1);
        p.jump(JGT, (start >> 32) as u32, deny, e_eq);
        p.at(e_eq);
        p.jump(JEQ, (start >> 32) as u32, e_lo, next);
        p.at(e_lo);
        p.op(LD_MEM, 0);
        p.jump(JGT, start as u32, deny, next);
        // Refused here, so that no jump reaches past one range's checks.
        p.at(deny);
        p.ret(EPERM);
        p.at(next);
    }
    p.ret(RET_ALLOW);
}

/// The filter for a worker whose twin memory lies in `arena`.
fn program(arena: &[(u64, u64)], site: u64) -> Result<Vec<libc::sock_filter>, String> {
    let mut p = Program::default();
    let (native, foreign) = (p.label(), p.label());
    p.op(LD_ABS_W, ARCH_AT);
    p.jump(JEQ, ARCH, native, foreign);
    p.at(foreign);
    p.ret(ENOSYS);
    p.at(native);
    p.op(LD_ABS_W, NR);
    let (x32, plain) = (p.label(), p.label());
    p.jump(JGE, X32_BIT, x32, plain);
    p.at(x32);
    p.ret(ENOSYS);
    p.at(plain);
    // One test per guarded call, each going to its own check below.
    let mut checks: Vec<(Label, Check)> = Vec::new();
    for (nr, check) in [
        (libc::SYS_clone3, Check::NoSys),
        (libc::SYS_clone, Check::Clone),
        (libc::SYS_mprotect, Check::Range(0, 1)),
        (libc::SYS_pkey_mprotect, Check::Range(0, 1)),
        (libc::SYS_munmap, Check::Range(0, 1)),
        (libc::SYS_madvise, Check::Range(0, 1)),
        (libc::SYS_mmap, Check::Range(0, 1)),
        (libc::SYS_mremap, Check::Mremap),
        (libc::SYS_remap_file_pages, Check::OursOnly),
        (SYS_MSEAL, Check::Range(0, 1)),
        (libc::SYS_shmat, Check::ShmAt),
        (libc::SYS_prctl, Check::Prctl),
        // Memory changed by the kernel on a later call's behalf, past the
        // filter's view of arguments: not for implementations.
        (libc::SYS_io_uring_setup, Check::OursOnly),
        (libc::SYS_io_uring_enter, Check::OursOnly),
        (libc::SYS_io_uring_register, Check::OursOnly),
        (libc::SYS_process_madvise, Check::OursOnly),
        (libc::SYS_userfaultfd, Check::OursOnly),
        (libc::SYS_io_setup, Check::OursOnly),
        (libc::SYS_io_submit, Check::OursOnly),
        // Code run after the call returns (a timer's signal handler or
        // thread, a SIGIO handler) would write the twin's memory between
        // calls, unseen: no timers but alarm (cancelled after each call),
        // no asynchronous I/O signals.
        (libc::SYS_timer_create, Check::Deny),
        (libc::SYS_setitimer, Check::Deny),
        (libc::SYS_mq_notify, Check::Deny),
        (libc::SYS_fcntl, Check::Args(1, &[8 /* F_SETOWN */, 10 /* F_SETSIG */, 15 /* F_SETOWN_EX */])),
        (libc::SYS_ioctl, Check::Args(1, &[0x8901 /* FIOSETOWN */, 0x8902 /* SIOCSPGRP */])),
    ] {
        let (hit, miss) = (p.label(), p.label());
        p.jump(JEQ, nr as u32, hit, miss);
        p.at(hit);
        let to = p.label();
        p.always(to);
        checks.push((to, check));
        p.at(miss);
    }
    p.ret(RET_ALLOW);
    for (at, check) in checks {
        p.at(at);
        match check {
            Check::NoSys => p.ret(ENOSYS),
            Check::Deny => p.ret(EPERM),
            Check::Args(i, refused) => {
                p.op(LD_ABS_W, arg_lo(i));
                for v in refused {
                    let (deny, next) = (p.label(), p.label());
                    p.jump(JEQ, *v, deny, next);
                    p.at(deny);
                    p.ret(EPERM);
                    p.at(next);
                }
                p.ret(RET_ALLOW);
            }
            Check::Clone => {
                let (deny, allow) = (p.label(), p.label());
                p.op(LD_ABS_W, arg_lo(0));
                p.jump(JSET, libc::CLONE_PARENT as u32, deny, allow);
                p.at(deny);
                p.ret(EPERM);
                p.at(allow);
                p.ret(RET_ALLOW);
            }
            Check::Range(a, n) => range_check(&mut p, a, n, arena, site),
            Check::Mremap => {
                // Moving a mapping to a chosen address (MREMAP_FIXED) is
                // left to the twin; otherwise the old range is checked.
                let (fixed, free) = (p.label(), p.label());
                p.op(LD_ABS_W, arg_lo(3));
                p.jump(JSET, libc::MREMAP_FIXED as u32, fixed, free);
                p.at(fixed);
                ours_only(&mut p, site);
                p.at(free);
                range_check(&mut p, 0, 1, arena, site);
            }
            Check::OursOnly => ours_only(&mut p, site),
            Check::ShmAt => {
                // Attached where the kernel chooses, or refused.
                let (lo, allow, deny) = (p.label(), p.label(), p.label());
                p.op(LD_ABS_W, arg_hi(1));
                p.jump(JEQ, 0, lo, deny);
                p.at(lo);
                p.op(LD_ABS_W, arg_lo(1));
                p.jump(JEQ, 0, allow, deny);
                p.at(deny);
                p.ret(EPERM);
                p.at(allow);
                p.ret(RET_ALLOW);
            }
            Check::Prctl => {
                // Subreaping stays on: turned off (even for a moment), a
                // double fork would leave the worker's tree.
                let (deny, allow) = (p.label(), p.label());
                p.op(LD_ABS_W, arg_lo(0));
                p.jump(JEQ, libc::PR_SET_CHILD_SUBREAPER as u32, deny, allow);
                p.at(deny);
                p.ret(EPERM);
                p.at(allow);
                p.ret(RET_ALLOW);
            }
        }
    }
    p.assemble()
}

#[derive(Clone, Copy)]
enum Check {
    NoSys,
    Deny,
    /// Refused when argument `.0`'s low word is one of `.1`.
    Args(u32, &'static [u32]),
    Clone,
    Range(u32, u32),
    Mremap,
    OursOnly,
    ShmAt,
    Prctl,
}

fn ours_only(p: &mut Program, site: u64) {
    let (ours, theirs) = (p.label(), p.label());
    p.if_eq64(IP_LO, IP_HI, site, ours, theirs);
    p.at(ours);
    p.ret(RET_ALLOW);
    p.at(theirs);
    p.ret(EPERM);
}

/// Capabilities that would let a worker running as root reach the twin's
/// buffers through another mapping of their memory
/// (`/proc/self/map_files`): dropped from the worker and all it starts.
const DROPPED_CAPS: [u32; 2] = [21 /* CAP_SYS_ADMIN */, 40 /* CAP_CHECKPOINT_RESTORE */];

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// Drops `DROPPED_CAPS` from the bounding set (so no program it runs gets
/// them back) and from the worker's own sets.
fn drop_capabilities() -> Result<(), String> {
    const VERSION_3: u32 = 0x2008_0522;
    for cap in DROPPED_CAPS {
        // SAFETY: a plain prctl. Without CAP_SETPCAP (not root) it fails,
        // and then the capability was never ours either.
        unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong, 0, 0, 0) };
    }
    let mut header = CapHeader { version: VERSION_3, pid: 0 };
    let mut data = [CapData::default(); 2];
    // SAFETY: capget/capset with a version-3 header and two data words.
    unsafe {
        if libc::syscall(libc::SYS_capget, &raw mut header, data.as_mut_ptr()) != 0 {
            return Err(format!("capget: {}", std::io::Error::last_os_error()));
        }
        for cap in DROPPED_CAPS {
            let (word, bit) = ((cap / 32) as usize, 1u32 << (cap % 32));
            data[word].effective &= !bit;
            data[word].permitted &= !bit;
            data[word].inheritable &= !bit;
        }
        header = CapHeader { version: VERSION_3, pid: 0 };
        if libc::syscall(libc::SYS_capset, &raw mut header, data.as_ptr()) != 0 {
            return Err(format!("capset: {}", std::io::Error::last_os_error()));
        }
    }
    Ok(())
}

/// Installs the filter on the calling thread, inherited by all the worker
/// starts; an error says why it could not be.
pub(super) fn install(arena: &[(u64, u64)]) -> Result<(), String> {
    drop_capabilities().map_err(|e| format!("cannot confine the call worker ({e})"))?;
    let program = program(arena, crate::raw_syscall::call_site())
        .map_err(|e| format!("cannot confine the call worker (seccomp filter: {e})"))?;
    let prog = libc::sock_fprog { len: program.len() as u16, filter: program.as_ptr() as *mut libc::sock_filter };
    // SAFETY: prctl with a program that lives through the call (the kernel
    // copies it).
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            || libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &raw const prog) != 0
        {
            return Err(format!("cannot confine the call worker (seccomp): {}", std::io::Error::last_os_error()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_assembles_for_several_arena_ranges() {
        let arena: Vec<(u64, u64)> = (0..40).map(|i| (0x2000_0000_0000 + (i << 36), 1 << 34)).collect();
        let p = program(&arena, 0x5555_0000_1234).unwrap();
        assert!(p.len() < 4096, "{}", p.len());
        assert_eq!(p.last().map(|f| f.code), Some(RET));
    }
}

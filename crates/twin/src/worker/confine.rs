//! Keeps what an implementation starts inside the call worker's process
//! tree. The worker is the subreaper of its descendants, so a daemon
//! (double fork, `setsid`) stays in its tree and dies with the call. One
//! way out remains that subreaping cannot see: `clone(CLONE_PARENT)` makes
//! the new process a sibling of the worker — a child of the twin's own
//! process — sharing the run's buffers and free to write them after the
//! call returned. A seccomp filter refuses that flag (EPERM) and `clone3`,
//! whose flags a filter cannot read (ENOSYS: the C library then falls back
//! to `clone`). Syscalls of another ABI (i386 through `int 0x80`, x32),
//! which would bypass the filter's numbers, are refused too.

#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

/// x32 syscall numbers carry this bit.
const X32_BIT: u32 = 0x4000_0000;

const LD_ABS_W: u16 = 0x20;
const JEQ: u16 = 0x15;
const JGE: u16 = 0x35;
const JSET: u16 = 0x45;
const RET: u16 = 0x06;

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;

// Offsets in `struct seccomp_data`: nr, arch, then args (the low half of
// args[0] on a little-endian machine).
const NR: u32 = 0;
const ARCH_AT: u32 = 4;
const ARG0_LOW: u32 = 16;

fn op(code: u16, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// Installs the filter on the calling thread, inherited by all the worker
/// starts; an error says why it could not be.
pub(super) fn install() -> Result<(), String> {
    let program = [
        op(LD_ABS_W, 0, 0, ARCH_AT),
        op(JEQ, 1, 0, ARCH),
        op(RET, 0, 0, RET_ERRNO | libc::ENOSYS as u32),
        op(LD_ABS_W, 0, 0, NR),
        op(JGE, 0, 1, X32_BIT),
        op(RET, 0, 0, RET_ERRNO | libc::ENOSYS as u32),
        op(JEQ, 0, 1, libc::SYS_clone3 as u32),
        op(RET, 0, 0, RET_ERRNO | libc::ENOSYS as u32),
        op(JEQ, 0, 3, libc::SYS_clone as u32),
        op(LD_ABS_W, 0, 0, ARG0_LOW),
        op(JSET, 0, 1, libc::CLONE_PARENT as u32),
        op(RET, 0, 0, RET_ERRNO | libc::EPERM as u32),
        op(RET, 0, 0, RET_ALLOW),
    ];
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

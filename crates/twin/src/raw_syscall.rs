//! The twin's own memory-management system calls, issued from one known
//! instruction. The call worker's seccomp filter (`worker/confine.rs`)
//! refuses `mprotect`, `mmap`, `munmap`, `madvise`, ... on the twin's
//! address arena unless they come from here, so an implementation cannot
//! make a read-only buffer writable (and write it unseen), unmap one, or
//! punch holes in one; the twin itself changes protections through these.

#[cfg(target_arch = "x86_64")]
core::arch::global_asm!(
    ".text",
    ".p2align 4",
    ".globl hivm_twin_raw_syscall6",
    ".hidden hivm_twin_raw_syscall6",
    "hivm_twin_raw_syscall6:",
    "mov rax, rdi",
    "mov rdi, rsi",
    "mov rsi, rdx",
    "mov rdx, rcx",
    "mov r10, r8",
    "mov r8, r9",
    "mov r9, [rsp + 8]",
    "syscall",
    ".globl hivm_twin_raw_syscall6_after",
    ".hidden hivm_twin_raw_syscall6_after",
    "hivm_twin_raw_syscall6_after:",
    "ret",
);

#[cfg(target_arch = "aarch64")]
core::arch::global_asm!(
    ".text",
    ".p2align 4",
    ".globl hivm_twin_raw_syscall6",
    ".hidden hivm_twin_raw_syscall6",
    "hivm_twin_raw_syscall6:",
    "mov x8, x0",
    "mov x0, x1",
    "mov x1, x2",
    "mov x2, x3",
    "mov x3, x4",
    "mov x4, x5",
    "mov x5, x6",
    "svc #0",
    ".globl hivm_twin_raw_syscall6_after",
    ".hidden hivm_twin_raw_syscall6_after",
    "hivm_twin_raw_syscall6_after:",
    "ret",
);

unsafe extern "C" {
    fn hivm_twin_raw_syscall6(nr: i64, a: u64, b: u64, c: u64, d: u64, e: u64, f: u64) -> i64;
    static hivm_twin_raw_syscall6_after: u8;
}

/// The address the kernel reports as the instruction pointer of a system
/// call made here (the instruction after it).
pub fn call_site() -> u64 {
    // Only the label's address is taken (no unsafe needed for that).
    (&raw const hivm_twin_raw_syscall6_after) as u64
}

/// A system call from the known site: the raw return (a negative errno on
/// failure).
///
/// # Safety
/// As the system call itself.
unsafe fn raw(nr: libc::c_long, a: u64, b: u64, c: u64, d: u64, e: u64, f: u64) -> i64 {
    // SAFETY: the caller's promise.
    unsafe { hivm_twin_raw_syscall6(nr, a, b, c, d, e, f) }
}

/// `mprotect`; true on success.
///
/// # Safety
/// The range is the caller's to change.
pub unsafe fn mprotect(start: u64, len: u64, prot: libc::c_int) -> bool {
    // SAFETY: the caller's promise.
    unsafe { try_mprotect(start, len, prot).is_ok() }
}

/// `mprotect`, with the error of a failure.
///
/// # Safety
/// The range is the caller's to change.
pub unsafe fn try_mprotect(start: u64, len: u64, prot: libc::c_int) -> Result<(), std::io::Error> {
    // SAFETY: the caller's promise.
    match unsafe { raw(libc::SYS_mprotect, start, len, prot as u64, 0, 0, 0) } {
        0 => Ok(()),
        e => Err(std::io::Error::from_raw_os_error(-e as i32)),
    }
}

/// `mmap` with `MAP_FIXED` at `start`; true if it is mapped there.
///
/// # Safety
/// The range is the caller's to replace.
pub unsafe fn mmap_fixed(start: u64, len: u64, prot: libc::c_int, flags: libc::c_int, fd: libc::c_int) -> bool {
    let flags = (flags | libc::MAP_FIXED) as u64;
    // SAFETY: the caller's promise.
    unsafe { raw(libc::SYS_mmap, start, len, prot as u64, flags, fd as i64 as u64, 0) as u64 == start }
}

#[cfg(test)]
mod tests {
    #[test]
    fn protects_and_maps_through_the_known_site() {
        // SAFETY: a private anonymous page of our own.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            ) as u64;
            assert!(super::mprotect(p, 4096, libc::PROT_READ));
            assert!(!super::mprotect(p + 1, 4096, libc::PROT_READ), "an unaligned start is refused");
            let anon = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
            assert!(super::mmap_fixed(p, 4096, libc::PROT_READ | libc::PROT_WRITE, anon, -1));
            *(p as *mut u8) = 7;
            assert_eq!(*(p as *const u8), 7);
            libc::munmap(p as *mut libc::c_void, 4096);
        }
        assert_ne!(super::call_site(), 0);
    }
}

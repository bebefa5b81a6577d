//! The worker's side: its set-up, its loop, and the call itself.

use std::os::fd::RawFd;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use super::doorbell::Doorbell;
use super::*;

#[cfg(not(target_arch = "aarch64"))]
#[rustfmt::skip]
type Entry = unsafe extern "C" fn(
    u64, u64, u64, u64, u64, u64,
    f64, f64, f64, f64, f64, f64, f64, f64,
    u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64,
);
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
type Entry = unsafe extern "C" fn(
    u64, u64, u64, u64, u64, u64, u64, u64,
    f64, f64, f64, f64, f64, f64, f64, f64,
    u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64,
);

/// The context of the call in progress, for the fault handler.
static FAULT_CTX: AtomicPtr<Ctx> = AtomicPtr::new(std::ptr::null_mut());
/// The worker's stack: [low, high).
static STACK_RANGE: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// Why the worker could not be confined (`confine.rs`), if it could not:
/// every call is then refused with this.
static UNCONFINED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Pages of read-only mappings (GM, cube memories) the last call opened,
/// still writable: the next call changes only what differs, so a loop
/// calling one op on the same operands costs no `mprotect`. (Only the
/// worker's one thread takes the lock.)
static OPEN_NOW: crate::fork_lock::ForkLock<Vec<crate::native::Region>> = crate::fork_lock::ForkLock::new(Vec::new());

/// Forgets open ranges inside `[start, start + len)`, which is mapped anew
/// (read-only again) or reserved.
fn forget_open(start: u64, len: u64) {
    OPEN_NOW.lock().retain(|r| r.start + r.len <= start || r.start >= start + len);
    super::ub_pages::forget(start, len);
}

/// The worker's loop.
///
/// # Safety
/// Only in the freshly forked child.
pub(super) unsafe fn serve(sock: RawFd, bell: &Doorbell, parent: libc::pid_t, arena: &[(u64, u64)]) -> ! {
    unsafe {
        setup(parent, arena);
        close_inherited(sock);
        let mut fds = Vec::with_capacity(FDS_PER_MSG + 3);
        let mut libs = Libraries::default();
        let task = libc::open(c"/proc/self/task".as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC);
        let mut last = 0;
        loop {
            let (seq, m) = bell.wait_request(last);
            last = seq;
            let reply = match m.first() {
                Some(&MSG_MAP) => {
                    let wanted = m.get(2).copied().unwrap_or(0) as usize;
                    if wanted > 0 && !recv_fds(sock, &mut fds) {
                        libc::_exit(0);
                    }
                    map_buffers(m, &fds, arena)
                }
                Some(&MSG_CALL) => run_call(m, &mut libs, task),
                _ => vec![REPLY_ERROR],
            };
            for fd in fds.drain(..) {
                libc::close(fd);
            }
            bell.finish(seq, &reply);
        }
    }
}

/// A process group of its own, death with the interpreter, subreaper of
/// whatever calls fork, and fault handlers on a stack of their own that tell
/// a stack overflow from other faults.
unsafe fn setup(parent: libc::pid_t, arena: &[(u64, u64)]) {
    unsafe {
        libc::setpgid(0, 0);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() != parent {
            libc::_exit(0);
        }
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
        if let Err(e) = super::confine::install(arena) {
            let _ = UNCONFINED.set(e);
        }
        libc::prctl(libc::PR_SET_NAME, c"hivm-twin-call".as_ptr());
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) == 0 {
            let mut addr: *mut libc::c_void = std::ptr::null_mut();
            let mut size: libc::size_t = 0;
            if libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0 {
                STACK_RANGE[0].store(addr as u64, Ordering::Relaxed);
                STACK_RANGE[1].store(addr as u64 + size as u64, Ordering::Relaxed);
            }
            libc::pthread_attr_destroy(&mut attr);
        }
        const ALT: usize = 256 * 1024;
        let alt = libc::mmap(
            std::ptr::null_mut(),
            ALT,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if alt != libc::MAP_FAILED {
            let ss = libc::stack_t { ss_sp: alt, ss_flags: 0, ss_size: ALT };
            libc::sigaltstack(&ss, std::ptr::null_mut());
        }
        install_fault_handlers();
        fegetenv(&raw mut START_FENV.0);
        libc::pthread_sigmask(libc::SIG_SETMASK, std::ptr::null(), (&raw mut START_MASK).cast());
    }
}

unsafe fn install_fault_handlers() {
    unsafe {
        for sig in [libc::SIGSEGV, libc::SIGBUS] {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_fault as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Closes every descriptor the worker inherited but the socket (and the
/// standard streams): pipes, sockets and locks of the interpreter's process
/// must not stay open, nor memfds keep freed buffers alive.
unsafe fn close_inherited(sock: RawFd) {
    unsafe {
        let ranges = [(3u32, (sock as u32).wrapping_sub(1)), (sock as u32 + 1, u32::MAX)];
        for (lo, hi) in ranges {
            if lo > hi {
                continue;
            }
            if libc::syscall(libc::SYS_close_range, lo, hi, 0) != 0 {
                // Kernels before 5.9: one by one, up to the descriptor limit.
                let limit = libc::sysconf(libc::_SC_OPEN_MAX).clamp(1024, 1 << 20) as u32;
                for fd in lo..hi.min(limit) {
                    libc::close(fd as RawFd);
                }
            }
        }
    }
}

/// The floating-point environment (rounding, exception flags) at start-up,
/// restored after every call so that one call's changes do not leak into the
/// next (`fenv_t` is at most 32 bytes on the targets we build for).
#[repr(C, align(16))]
struct FEnv([u8; 64]);
static mut START_FENV: FEnv = FEnv([0; 64]);
/// The signal mask at start-up, restored after every call: a signal the
/// call left blocked and pending is then handled before the call counts
/// as done, not during a later one.
static mut START_MASK: std::mem::MaybeUninit<libc::sigset_t> = std::mem::MaybeUninit::zeroed();

unsafe extern "C" {
    fn fegetenv(env: *mut [u8; 64]) -> libc::c_int;
    fn fesetenv(env: *const [u8; 64]) -> libc::c_int;
}

/// What a call may have changed in the process and must not pass on to the
/// next: the floating-point environment, the fault handlers, a pending
/// alarm, the signal mask.
unsafe fn reset_process_state() {
    unsafe {
        fesetenv(&raw const START_FENV.0);
        install_fault_handlers();
        libc::alarm(0);
        libc::pthread_sigmask(libc::SIG_SETMASK, (&raw const START_MASK).cast(), std::ptr::null_mut());
    }
}

/// Notes where the fault was, then lets the signal end the worker as it
/// would have without a handler (it is re-raised on return).
extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, _uc: *mut libc::c_void) {
    // SAFETY: async-signal-safe calls and plain stores into shared memory.
    unsafe {
        let addr = (*info).si_addr() as u64;
        let (lo, hi) = (STACK_RANGE[0].load(Ordering::Relaxed), STACK_RANGE[1].load(Ordering::Relaxed));
        let ctx = FAULT_CTX.load(Ordering::Relaxed);
        // A write to a closed UB page: saved, opened, retried.
        if sig == libc::SIGSEGV && !ctx.is_null() && super::ub_pages::on_write_fault(ctx, addr) {
            return;
        }
        if !ctx.is_null() {
            // Just below the stack, or in its lowest pages: it ran out.
            let overflow = lo != 0 && addr < hi && addr.saturating_add(1 << 20) >= lo && addr < lo + (64 << 10);
            (*ctx).fault = if overflow { 2 } else { 1 };
            (*ctx).fault_addr = addr;
        }
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// The descriptors of one message on the socket; false when it closed.
unsafe fn recv_fds(sock: RawFd, fds: &mut Vec<RawFd>) -> bool {
    unsafe {
        let mut byte = [0u8; 1];
        let mut iov = libc::iovec { iov_base: byte.as_mut_ptr() as *mut libc::c_void, iov_len: 1 };
        let space = libc::CMSG_SPACE((FDS_PER_MSG * std::mem::size_of::<RawFd>()) as u32) as usize;
        let mut control = vec![0u64; space.div_ceil(8)];
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
        msg.msg_controllen = space as _;
        let n = loop {
            let n = libc::recvmsg(sock, &mut msg, libc::MSG_CMSG_CLOEXEC);
            if n >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                break n;
            }
        };
        if n <= 0 {
            return false;
        }
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_RIGHTS {
                let count = ((*c).cmsg_len as usize - libc::CMSG_LEN(0) as usize) / std::mem::size_of::<RawFd>();
                let data = libc::CMSG_DATA(c) as *const RawFd;
                for i in 0..count {
                    fds.push(*data.add(i));
                }
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
        true
    }
}

/// Gives mappings inherited from the interpreter their protection here:
/// read-only (the cube memories, GM) or none (pooled mappings).
///
/// # Safety
/// Only in the worker, on ranges of its own mappings.
pub(super) unsafe fn protect(ranges: &[(u64, u64)], prot: libc::c_int) {
    for (start, len) in ranges {
        // SAFETY: data pages of a twin buffer this process maps. Should it
        // fail, the first call's sync (which checks) finds it.
        if !unsafe { crate::raw_syscall::mprotect(*start, *len, prot) } {
            unsafe { libc::_exit(0) };
        }
    }
}

/// `[MSG_MAP, unmaps, maps, protects, (base, len)*, (base, len, data_off,
/// data_len, read_only)*, (start, len, prot)*]`.
/// Every range lies in the twin's arena (`shm/arena.rs`), reserved in this
/// process since the fork, so `MAP_FIXED` only ever replaces a reservation
/// or a twin buffer; anything else is refused.
unsafe fn map_buffers(m: &[u64], fds: &[RawFd], arena: &[(u64, u64)]) -> Vec<u64> {
    use crate::shm::arena::{reserve, within};
    if m.len() < 4 {
        return vec![REPLY_ERROR];
    }
    let (nu, nm, np) = (m[1] as usize, m[2] as usize, m[3] as usize);
    if m.len() != 4 + 2 * nu + 5 * nm + 3 * np || fds.len() != nm {
        return vec![REPLY_ERROR];
    }
    let (unmaps, rest) = m[4..].split_at(2 * nu);
    let (maps, protects) = rest.split_at(5 * nm);
    unsafe {
        for u in unmaps.chunks(2) {
            if !within(arena, u[0], u[1]) || !reserve(u[0], u[1]) {
                return vec![REPLY_COLLISION];
            }
            forget_open(u[0], u[1]);
        }
        for (e, fd) in maps.chunks(5).zip(fds) {
            let (data, len) = (e[0] + e[2], e[3]);
            if !within(arena, e[0], e[1]) || e[2] + e[3] > e[1] {
                return vec![REPLY_COLLISION];
            }
            let prot = if e[4] != 0 { libc::PROT_READ } else { libc::PROT_READ | libc::PROT_WRITE };
            if !crate::raw_syscall::mmap_fixed(data, len, prot, libc::MAP_SHARED | libc::MAP_NORESERVE, *fd) {
                return vec![REPLY_COLLISION];
            }
            forget_open(e[0], e[1]);
        }
        for e in protects.chunks(3) {
            if !within(arena, e[0], e[1]) {
                return vec![REPLY_COLLISION];
            }
            if !crate::raw_syscall::mprotect(e[0], e[1], e[2] as libc::c_int) {
                return vec![REPLY_ERROR];
            }
            // Opened for an earlier call: its protection is this one now.
            forget_open(e[0], e[1]);
        }
    }
    vec![REPLY_OK]
}

/// `[MSG_CALL, ctx, words.., floats.., library\0.., symbol\0..]`.
unsafe fn run_call(m: &[u64], libs: &mut Libraries, task: RawFd) -> Vec<u64> {
    let fixed = 2 + WORDS + FPRS;
    if m.len() <= fixed {
        return vec![REPLY_ERROR];
    }
    if let Some(e) = UNCONFINED.get() {
        let mut r = vec![REPLY_ERROR];
        r.extend(super::words_of_text(e));
        return r;
    }
    let ctx = m[1] as *mut Ctx;
    let w = &m[2..2 + WORDS];
    let mut x = [0f64; FPRS];
    for (d, b) in x.iter_mut().zip(&m[2 + WORDS..fixed]) {
        *d = f64::from_bits(*b);
    }
    // Loading runs the library's constructors: a fault or exit there is not the entry's.
    unsafe { std::ptr::write_volatile(&raw mut (*ctx).returned, crate::native::LOADING) };
    let (f, attach) = match unsafe { libs.entry(&m[fixed..]) } {
        Ok(e) => e,
        Err(text) => {
            let mut e = vec![REPLY_ERROR];
            e.extend(super::words_of_text(&text));
            return e;
        }
    };
    unsafe {
        (*ctx).returned = 0;
        (*ctx).fault = 0;
        (*ctx).fault_addr = 0;
        FAULT_CTX.store(ctx, Ordering::Relaxed);
        if let Some(attach) = attach {
            attach(ctx);
        }
        let open = &(&(*ctx).open)[..((*ctx).n_open as usize).min(crate::native::MAX_OPEN)];
        let mut now = OPEN_NOW.lock();
        let same = |a: &crate::native::Region, b: &crate::native::Region| a.start == b.start && a.len == b.len;
        // A page left writable would let a call change GM it was not given
        // unseen: a failed protection ends the call (the caller replaces us).
        let protect = |r: &crate::native::Region, prot: libc::c_int| {
            let Err(err) = crate::raw_syscall::try_mprotect(r.start, r.len, prot) else {
                return None;
            };
            let mut e = vec![REPLY_ERROR];
            e.extend(super::words_of_text(&format!(
                "cannot protect the call's memory ({:#x}, {} bytes): {err}",
                r.start, r.len
            )));
            Some(e)
        };
        for r in now.iter().filter(|r| !open.iter().any(|o| same(o, r))) {
            if let Some(e) = protect(r, libc::PROT_READ) {
                return e;
            }
        }
        for r in open.iter().filter(|o| !now.iter().any(|r| same(o, r))) {
            if let Some(e) = protect(r, libc::PROT_READ | libc::PROT_WRITE) {
                return e;
            }
        }
        now.clear();
        now.extend_from_slice(open);
        drop(now);
        if let Err(text) = super::ub_pages::sync(ctx) {
            let mut e = vec![REPLY_ERROR];
            e.extend(super::words_of_text(&text));
            return e;
        }
        #[cfg(not(target_arch = "aarch64"))]
        f(
            w[0], w[1], w[2], w[3], w[4], w[5], x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], w[6], w[7], w[8], w[9],
            w[10], w[11], w[12], w[13], w[14], w[15], w[16], w[17], w[18], w[19], w[20], w[21],
        );
        #[cfg(target_arch = "aarch64")]
        f(
            w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], w[8], w[9],
            w[10], w[11], w[12], w[13], w[14], w[15], w[16], w[17], w[18], w[19], w[20], w[21], w[22], w[23],
        );
        libc::fflush(std::ptr::null_mut());
        // Only a call that came back says so: `exit(0)` inside it does not.
        std::ptr::write_volatile(&raw mut (*ctx).returned, 1);
        FAULT_CTX.store(std::ptr::null_mut(), Ordering::Relaxed);
        reset_process_state();
        let mut reaping: libc::c_int = 0;
        libc::prctl(libc::PR_GET_CHILD_SUBREAPER, &raw mut reaping);
        if reaping == 0 {
            return vec![REPLY_ESCAPED];
        }
        vec![if left_behind(task) { REPLY_DIRTY } else { REPLY_OK }]
    }
}

type Attach = unsafe extern "C" fn(*mut Ctx);

/// Libraries the worker has opened and entries it has looked up.
#[derive(Default)]
struct Libraries {
    handles: Vec<(Vec<u8>, *mut libc::c_void)>,
    /// (library path, NUL, symbol) -> entry and the library's attach hook.
    entries: Vec<(Vec<u64>, Entry, Option<Attach>)>,
}

impl Libraries {
    /// The entry named by `key` (`library\0symbol\0`, padded to words).
    unsafe fn entry(&mut self, key: &[u64]) -> Result<(Entry, Option<Attach>), String> {
        if let Some((_, f, a)) = self.entries.iter().find(|(k, _, _)| k == key) {
            return Ok((*f, *a));
        }
        let bytes: Vec<u8> = key.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut parts = bytes.split(|b| *b == 0).filter(|p| !p.is_empty());
        let (Some(path), Some(symbol)) = (parts.next(), parts.next()) else {
            return Err("a malformed call request".into());
        };
        unsafe {
            let handle = match self.handles.iter().find(|(p, _)| p == path) {
                Some((_, h)) => *h,
                None => {
                    let c = std::ffi::CString::new(path).unwrap_or_default();
                    let h = libc::dlopen(c.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL);
                    if h.is_null() {
                        return Err(format!("cannot load {}", String::from_utf8_lossy(path)));
                    }
                    self.handles.push((path.to_vec(), h));
                    h
                }
            };
            let sym = std::ffi::CString::new(symbol).unwrap_or_default();
            let f = libc::dlsym(handle, sym.as_ptr());
            if f.is_null() {
                return Err(format!("{} not found", String::from_utf8_lossy(symbol)));
            }
            let f: Entry = std::mem::transmute::<*mut libc::c_void, Entry>(f);
            let a = libc::dlsym(handle, c"hivm_twin_attach".as_ptr());
            let a = (!a.is_null()).then(|| std::mem::transmute::<*mut libc::c_void, Attach>(a));
            self.entries.push((key.to_vec(), f, a));
            Ok((f, a))
        }
    }
}

/// Whether the call left a child process (running or not yet reaped) or a
/// thread behind. `task` is `/proc/self/task` opened: its link count is two
/// plus the number of threads, one `fstat` instead of formatting `stat`.
unsafe fn left_behind(task: RawFd) -> bool {
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(libc::P_ALL, 0, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT);
        if r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ECHILD) {
            return true;
        }
        let mut st: libc::stat = std::mem::zeroed();
        task >= 0 && libc::fstat(task, &mut st) == 0 && st.st_nlink > 3
    }
}

//! hivm-run as the child subreaper of everything it starts: a process an
//! implementation leaves behind, even one that escaped the call worker's
//! sweep (the worker reads its tree from /proc, which misses processes
//! while they are reparented, and an implementation may even clear the
//! worker's own subreaper flag), is reparented to hivm-run instead of
//! init, and is killed and reaped before hivm-run exits.

use std::time::Duration;

/// Makes this process the subreaper of its descendants.
pub fn become_subreaper() {
    // SAFETY: a flag of this process.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1) };
}

/// Kills and reaps every remaining descendant: as each dies, its children
/// become ours, so this repeats until no child is left (bounded, so that a
/// fork bomb cannot keep hivm-run from exiting).
pub fn end_descendants() {
    for round in 0..20_000 {
        // Reap what has ended; no child at all: done.
        loop {
            let mut status = 0;
            // SAFETY: waiting for our own children.
            let r = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
            if r > 0 {
                continue;
            }
            if r < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return;
            }
            if r == 0 {
                break;
            }
        }
        for pid in children() {
            // SAFETY: a child of ours, not yet reaped (its pid cannot be reused).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        if round > 0 {
            std::thread::sleep(Duration::from_micros(500));
        }
    }
}

/// Our children: from /proc/self/task/*/children, or, where that misses
/// one being reparented, from every process's parent field.
fn children() -> Vec<libc::pid_t> {
    let mut out = Vec::new();
    for t in std::fs::read_dir("/proc/self/task").into_iter().flatten().flatten() {
        if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
            out.extend(text.split_whitespace().filter_map(|w| w.parse::<libc::pid_t>().ok()));
        }
    }
    if !out.is_empty() {
        return out;
    }
    // SAFETY: plain query.
    let me = unsafe { libc::getpid() };
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<libc::pid_t>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // After the command name: state, then the parent's pid.
        let ppid = stat.rsplit_once(") ").and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok());
        if ppid == Some(me) {
            out.push(pid);
        }
    }
    out
}

/// On SIGINT, SIGTERM or SIGHUP (where they would end the program), kills
/// the C/C++ compilers building implementations first, then ends as the
/// signal would: they run in process groups of their own (so that a build
/// can be stopped with everything it started), which the terminal's Ctrl-C
/// and `timeout`'s signal to its group do not reach.
pub fn end_builds_on_signal() {
    extern "C" fn on_signal(sig: libc::c_int) {
        hivm_twin::compiler::kill_running();
        // SAFETY: async-signal-safe calls; the default action ends the process.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: reading and setting this process's dispositions; an
        // ignored signal stays ignored.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 || old.sa_sigaction != libc::SIG_DFL {
                continue;
            }
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

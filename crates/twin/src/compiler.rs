//! Running the host C/C++ compiler, bounded. What an implementation
//! includes is read by the compiler, not by us, so a `#include` of a FIFO
//! would block it forever and one of `/dev/zero` grow it until the machine
//! runs out of memory. Each compiler run therefore has a process group of
//! its own (the driver starts cc1/cc1plus/as, which must end with it), an
//! address-space limit (`RLIMIT_AS`, inherited by everything it starts), a
//! wall-clock limit, and is waited for in a loop that asks the run's stop
//! check (Ctrl-C in Python), never in a blocking wait.

use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// Seconds a build (one compiler run) may take unless `HIVM_TWIN_BUILD_TIMEOUT` says.
pub const DEFAULT_TIME: u64 = 300;
/// The memory limit unless `HIVM_TWIN_BUILD_MEMORY` (MiB) says: 4 GiB, or
/// half of the machine's memory if that is less.
pub const DEFAULT_MEMORY: u64 = 4 << 30;
pub const TIME_VAR: &str = "HIVM_TWIN_BUILD_TIMEOUT";
pub const MEMORY_VAR: &str = "HIVM_TWIN_BUILD_MEMORY";

/// How often a running compiler's open files are looked at.
const LOOK: Duration = Duration::from_millis(400);

/// How much of the compiler's error output is kept.
const STDERR_CAP: usize = 1 << 20;

/// The bounds of one compiler run (`None`: unbounded, when the variable is 0).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Option<Duration>,
    pub memory: Option<u64>,
}

impl Limits {
    /// The defaults, or what the environment asks for.
    pub fn from_env() -> Result<Limits, String> {
        let number = |var: &str, unit: &str| -> Result<Option<f64>, String> {
            match std::env::var(var) {
                Err(_) => Ok(None),
                Ok(v) => match v.trim().parse::<f64>() {
                    Ok(x) if x >= 0.0 && x.is_finite() => Ok(Some(x)),
                    _ => Err(format!("{var}={v:?} is not a number of {unit} (0: no limit)")),
                },
            }
        };
        let time = match number(TIME_VAR, "seconds")? {
            None => Some(Duration::from_secs(DEFAULT_TIME)),
            Some(0.0) => None,
            Some(s) => Some(Duration::from_secs_f64(s)),
        };
        let memory = match number(MEMORY_VAR, "MiB")? {
            None => Some(default_memory()),
            Some(0.0) => None,
            Some(mib) => Some((mib * (1u64 << 20) as f64) as u64),
        };
        Ok(Limits { time, memory })
    }
}

fn default_memory() -> u64 {
    // SAFETY: plain queries.
    let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    if pages <= 0 || size <= 0 {
        return DEFAULT_MEMORY;
    }
    DEFAULT_MEMORY.min(pages as u64 * size as u64 / 2)
}

/// "4 GiB", "512 MiB": a memory size as people write it.
pub fn show_bytes(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 28) {
        format!("{} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// How a compiler run ended.
pub enum Ended {
    /// It exited (or was killed by a signal we did not send).
    Exited { status: ExitStatus, stderr: Vec<u8>, reading: Option<Special> },
    /// It ran past the time limit and was killed with everything it started.
    TimedOut { stderr: Vec<u8>, reading: Option<Special> },
    /// It was blocked opening a FIFO or device (at two looks in a row) and was killed.
    Blocked { special: Special },
    /// The caller asked the run to stop; it was killed likewise.
    Interrupted,
}

/// A file the compiler had open that is no regular file (a FIFO, a device).
#[derive(Clone, Debug)]
pub struct Special {
    pub path: PathBuf,
    pub kind: &'static str,
}

/// Process groups of compilers running now, for [`kill_running`].
static RUNNING: [AtomicI32; 16] = [const { AtomicI32::new(0) }; 16];
/// The process that registered them (a forked child's copy is not its own).
static OWNER: AtomicI32 = AtomicI32::new(0);

/// Kills every compiler this process is running, with what it started.
/// Async-signal-safe: for a program's SIGINT/SIGTERM handler, since the
/// compilers are not in its process group and the terminal's Ctrl-C (or
/// `timeout`'s signal to its group) does not reach them.
pub fn kill_running() {
    // SAFETY: plain query.
    if OWNER.load(Ordering::Relaxed) != unsafe { libc::getpid() } {
        return;
    }
    for slot in &RUNNING {
        let pgid = slot.load(Ordering::Relaxed);
        if pgid > 0 {
            // SAFETY: a process group we made (its leader is not reaped while registered).
            unsafe { libc::killpg(pgid, libc::SIGKILL) };
        }
    }
}

/// A compiler started: registered for [`kill_running`] until dropped, and
/// stopped with its group if dropped before it ended (an error on the way).
struct Running {
    child: std::process::Child,
    pgid: i32,
    slot: Option<&'static AtomicI32>,
    ended: bool,
}

impl Running {
    fn stop(&mut self) {
        stop(&mut self.child, self.pgid);
        self.ended = true;
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if !self.ended {
            stop(&mut self.child, self.pgid);
        }
        if let Some(slot) = self.slot {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

/// Sets a resource limit no higher than its current hard limit (which
/// cannot be raised). Async-signal-safe.
fn lower_limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) {
    let mut cur = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: plain calls on this process's limits.
    unsafe {
        if libc::getrlimit(resource, &mut cur) != 0 {
            return;
        }
        let l = libc::rlimit { rlim_cur: soft.min(cur.rlim_max), rlim_max: hard.min(cur.rlim_max) };
        libc::setrlimit(resource, &l);
    }
}

/// Runs `cmd` (its standard output discarded, its error output kept)
/// within `limits.memory`, until `deadline`.
pub fn run(mut cmd: Command, limits: &Limits, deadline: Option<Instant>) -> std::io::Result<Ended> {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).process_group(0);
    let memory = limits.memory;
    // A backstop for a compiler left behind if we die: CPU seconds (time
    // blocked on a FIFO does not count, but an endless loop does).
    let cpu = limits.time.map(|t| t.as_secs() + 2);
    // SAFETY: plain query.
    let parent = unsafe { libc::getpid() };
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(bytes) = memory {
                lower_limit(libc::RLIMIT_AS, bytes, bytes);
            }
            if let Some(secs) = cpu {
                lower_limit(libc::RLIMIT_CPU, secs, secs + 5);
            }
            // The driver dies with the thread waiting for it.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() != parent {
                libc::_exit(127);
            }
            Ok(())
        });
    }
    let child = cmd.spawn()?;
    let pgid = child.id() as i32;
    OWNER.store(parent, Ordering::Relaxed);
    let slot = RUNNING.iter().find(|s| s.compare_exchange(0, pgid, Ordering::Relaxed, Ordering::Relaxed).is_ok());
    let mut running = Running { child, pgid, slot, ended: false };
    let mut stderr = running
        .child
        .stderr
        .take()
        .ok_or_else(|| std::io::Error::other("the compiler's error output is not a pipe"))?;
    set_nonblocking(&stderr);
    let mut kept = Vec::new();
    let started = Instant::now();
    let mut reading = None;
    let mut next_look = LOOK;
    loop {
        drain(&mut stderr, &mut kept);
        if let Some(status) = running.child.try_wait()? {
            running.ended = true;
            drain(&mut stderr, &mut kept);
            return Ok(Ended::Exited { status, stderr: kept, reading: reading.map(|(s, _)| s) });
        }
        if crate::interrupt::requested() {
            running.stop();
            return Ok(Ended::Interrupted);
        }
        let elapsed = started.elapsed();
        if elapsed >= next_look {
            // What a slow compiler has open, to say why if it never ends.
            // Blocked opening the same special file (a FIFO without a
            // writer) at two looks in a row: it would wait for ever.
            let now = special_open(pgid);
            if let (Some((a, true)), Some((b, true))) = (&reading, &now)
                && a.path == b.path
            {
                let special = b.clone();
                running.stop();
                return Ok(Ended::Blocked { special });
            }
            if now.is_some() {
                reading = now;
            }
            next_look = elapsed + LOOK;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            if let Some(s) = special_open(pgid) {
                reading = Some(s);
            }
            running.stop();
            drain(&mut stderr, &mut kept);
            return Ok(Ended::TimedOut { stderr: kept, reading: reading.map(|(s, _)| s) });
        }
        wait_readable(&stderr, 10);
    }
}

/// Kills the compiler's process group and waits until none of it is left:
/// the driver is reaped here, the rest by whoever is their reaper now (us,
/// when we are a subreaper, as hivm-run is).
fn stop(child: &mut std::process::Child, pgid: i32) {
    // SAFETY: the group of our unreaped child.
    unsafe { libc::killpg(pgid, libc::SIGKILL) };
    let _ = child.wait();
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let mut status = 0;
        // SAFETY: reaping our own children of that group, if any are ours.
        while unsafe { libc::waitpid(-pgid, &mut status, libc::WNOHANG) } > 0 {}
        // SAFETY: signal 0 only asks whether the group still has members.
        let gone = unsafe { libc::killpg(pgid, 0) } != 0;
        if gone || Instant::now() >= until || only_zombies(pgid) {
            return;
        }
        // A member forked just before the kill may still be dying.
        // SAFETY: as above.
        unsafe { libc::killpg(pgid, libc::SIGKILL) };
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Whether every process of group `pgid` has ended (zombies waiting for a
/// reaper that is not us).
fn only_zombies(pgid: i32) -> bool {
    group(pgid).iter().all(|(_, state)| *state == 'Z')
}

/// The processes of group `pgid`, with their states, from /proc.
fn group(pgid: i32) -> Vec<(i32, char)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // After the command name: state, parent, process group.
        let Some((_, rest)) = stat.rsplit_once(") ") else { continue };
        let mut f = rest.split_whitespace();
        let state = f.next().and_then(|s| s.chars().next()).unwrap_or('?');
        if f.nth(1).and_then(|g| g.parse::<i32>().ok()) == Some(pgid) {
            out.push((pid, state));
        }
    }
    out
}

/// A named FIFO or device some process of the group is blocked opening
/// (true), or has open (false; not the standard streams, which are ours).
fn special_open(pgid: i32) -> Option<(Special, bool)> {
    for (pid, _) in group(pgid) {
        if let Some(s) = opening(pid) {
            return Some((s, true));
        }
        for fd in std::fs::read_dir(format!("/proc/{pid}/fd")).into_iter().flatten().flatten() {
            if fd.file_name().to_str().and_then(|n| n.parse::<u32>().ok()).is_none_or(|n| n <= 2) {
                continue;
            }
            let Ok(target) = std::fs::read_link(fd.path()) else { continue };
            if !target.is_absolute() || target == Path::new("/dev/null") {
                continue;
            }
            if let Some(kind) = std::fs::metadata(fd.path()).ok().and_then(|m| crate::cache::special_kind(&m)) {
                return Some((Special { path: target, kind }, false));
            }
        }
    }
    None
}

/// The special file process `pid` is blocked opening (a FIFO's open waits
/// for a writer, so it never shows among the open descriptors): the path
/// argument of its `openat`, read from its memory (it is our descendant).
fn opening(pid: i32) -> Option<Special> {
    use std::io::{Seek, SeekFrom};
    let call = std::fs::read_to_string(format!("/proc/{pid}/syscall")).ok()?;
    let mut f = call.split_whitespace();
    let nr: i64 = f.next()?.parse().ok()?;
    let args: Vec<u64> = f.filter_map(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok()).collect();
    let (dirfd, ptr) = if nr == libc::SYS_openat {
        (*args.first()? as u32 as i32, *args.get(1)?)
    } else {
        #[cfg(target_arch = "x86_64")]
        if nr == libc::SYS_open {
            (libc::AT_FDCWD, *args.first()?)
        } else {
            return None;
        }
        #[cfg(not(target_arch = "x86_64"))]
        return None;
    };
    let mut mem = std::fs::File::open(format!("/proc/{pid}/mem")).ok()?;
    mem.seek(SeekFrom::Start(ptr)).ok()?;
    let mut buf = vec![0u8; 4096];
    let n = mem.read(&mut buf).ok()?;
    let end = buf[..n].iter().position(|b| *b == 0)?;
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(&buf[..end]));
    let path = if path.is_absolute() {
        path
    } else if dirfd == libc::AT_FDCWD {
        std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?.join(path)
    } else {
        std::fs::read_link(format!("/proc/{pid}/fd/{dirfd}")).ok()?.join(path)
    };
    let kind = crate::cache::special_kind(&std::fs::metadata(&path).ok()?)?;
    Some(Special { path, kind })
}

fn set_nonblocking(f: &impl std::os::fd::AsRawFd) {
    // SAFETY: flags of a descriptor we own.
    unsafe {
        let fd = f.as_raw_fd();
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

/// Waits up to `ms` for output on `f` (a pause of the polling loop that
/// still lets the compiler write without blocking).
fn wait_readable(f: &impl std::os::fd::AsRawFd, ms: i32) {
    let mut p = libc::pollfd { fd: f.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // SAFETY: one valid pollfd.
    let r = unsafe { libc::poll(&mut p, 1, ms) };
    if r > 0 && p.revents & libc::POLLHUP != 0 && p.revents & libc::POLLIN == 0 {
        // Every writer closed it: nothing to wait for on it any more.
        std::thread::sleep(Duration::from_millis(ms as u64));
    }
}

/// Reads what is available, keeping at most [`STDERR_CAP`] bytes.
fn drain(f: &mut std::process::ChildStderr, kept: &mut Vec<u8>) {
    let mut buf = [0u8; 16384];
    loop {
        match f.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                let room = STDERR_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// Why a compiler run did not succeed.
pub enum Failure {
    /// It could not be started.
    Spawn(std::io::Error),
    /// It reported errors (its error output).
    Failed(String),
    /// It hit one of its limits (the whole message).
    Limit(String),
    /// The caller asked the run to stop.
    Interrupted,
}

/// Runs `cmd` within `limits`; `deadline` is when the build that started
/// with `limits.time` ends.
pub fn compile(cmd: Command, limits: &Limits, deadline: Option<Instant>) -> Result<(), Failure> {
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim_end().to_string();
    let hint = |reading: &Option<Special>, usual: &str| match reading {
        Some(s) => format!(
            "it was reading {}, {}: an implementation and what it includes must be regular files",
            s.path.display(),
            s.kind
        ),
        None => usual.to_string(),
    };
    match run(cmd, limits, deadline).map_err(Failure::Spawn)? {
        Ended::Exited { status, .. } if status.success() => Ok(()),
        Ended::Exited { stderr, reading, .. } => {
            let out = text(&stderr);
            match limits.memory {
                Some(bytes) if out_of_memory(&out) => Err(Failure::Limit(format!(
                    "the compiler ran out of its {} memory limit (set {MEMORY_VAR} in MiB to change it); {}\n{}",
                    show_bytes(bytes),
                    hint(&reading, "does the source include a device such as /dev/zero?"),
                    tail(&out)
                ))),
                _ => Err(Failure::Failed(out)),
            }
        }
        Ended::TimedOut { reading, .. } => Err(Failure::Limit(format!(
            "the compiler did not finish within {} s (set {TIME_VAR} in seconds to change it); {}",
            limits.time.map_or(0.0, |t| t.as_secs_f64()),
            hint(&reading, "does the source include a FIFO or device?")
        ))),
        Ended::Blocked { special } => Err(Failure::Limit(format!(
            "the compiler is waiting to open {}, {}: an implementation and what it includes must be regular files",
            special.path.display(),
            special.kind
        ))),
        Ended::Interrupted => Err(Failure::Interrupted),
    }
}

/// Whether a failed compiler's output says it could not get memory (GCC,
/// Clang and the assembler word it differently), in a line of its own,
/// not in a quoted source line (`  12 | ...`).
fn out_of_memory(stderr: &str) -> bool {
    stderr.lines().any(|l| {
        let quoted = l.split_once('|').is_some_and(|(pre, _)| pre.trim().bytes().all(|b| b.is_ascii_digit()));
        let l = l.to_ascii_lowercase();
        !quoted
            && ["out of memory", "memory exhausted", "std::bad_alloc", "cannot allocate memory"]
                .iter()
                .any(|p| l.contains(p))
    })
}

/// The last lines of a long output.
fn tail(out: &str) -> String {
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    let from = lines.len().saturating_sub(10);
    lines[from..].iter().map(|l| l.chars().take(300).collect::<String>()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_is_read_from_the_compilers_own_lines() {
        assert!(out_of_memory("cc1plus: out of memory allocating 1073741840 bytes after a total of 1114112 bytes"));
        assert!(out_of_memory("LLVM ERROR: out of memory\nAllocation failed"));
        assert!(out_of_memory("terminate called after throwing an instance of 'std::bad_alloc'"));
        // A quoted source line that happens to say it is an ordinary error.
        let quoted = "k.cpp:3:5: error: 'oops' was not declared in this scope\n    3 |     oops(\"out of memory\");\n      |     ^~~~";
        assert!(!out_of_memory(quoted));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(show_bytes(4 << 30), "4 GiB");
        assert_eq!(show_bytes(512 << 20), "512 MiB");
        assert_eq!(show_bytes(3 << 29), "1.5 GiB");
    }
}

//! User implementations on the host: compiled against the twin header by
//! the system C/C++ compiler, cached by content hash, loaded, and called in
//! the call worker (`worker.rs`), another process, so that a crash or an
//! endless loop is reported instead of taking hivm-run down.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::cache::{self, Key};
use crate::compiler::{self, Failure};
use crate::memory::{Buffer, Space};
use crate::signature::Signature;

pub const HEADER: &str = include_str!("../include/hivm_twin.h");
/// The cube intrinsics, which `hivm_twin.h` includes.
pub const CUBE_HEADER: &str = include_str!("../include/hivm_twin_cube.h");
const RUNTIME: &str = include_str!("../include/hivm_twin_rt.c");

/// Mirrors `struct hivm_twin_rec`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Rec {
    pub kind: u32,
    pub pipe: u32,
    pub a: u64,
    pub b: u64,
    pub c: i64,
    pub text: [u8; 160],
}

pub const CALL: u32 = 1;
pub const READ: u32 = 2;
pub const WRITE: u32 = 3;
pub const SET: u32 = 4;
pub const WAIT: u32 = 5;
pub const BARRIER: u32 = 6;

/// `Ctx::returned` while the worker loads the library and finds the entry
/// (0: the entry is running, 1: it returned).
pub const LOADING: i32 = 2;

impl Rec {
    pub fn text(&self) -> String {
        let n = self.text.iter().position(|b| *b == 0).unwrap_or(self.text.len());
        String::from_utf8_lossy(&self.text[..n]).into_owned()
    }
}

/// Mirrors `struct hivm_twin_region`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Region {
    pub start: u64,
    pub len: u64,
}

/// Mirrors `struct hivm_twin_ctx`.
#[repr(C)]
pub struct Ctx {
    pub ub_base: *mut u8,
    pub ub_size: u64,
    pub block_idx: i64,
    pub block_num: i64,
    pub mask_hi: u64,
    pub mask_lo: u64,
    pub mask_counter: i32,
    pub failed: i32,
    pub trace: *mut Rec,
    pub trace_len: u64,
    pub trace_cap: u64,
    pub regions: *const Region,
    pub n_regions: u64,
    pub error: [u8; 512],
    pub returned: i32,
    /// 0, or how the call faulted: 1 a memory fault, 2 a stack overflow,
    /// `FAULT_FREED` a memory fault in freed (pooled) memory.
    pub fault: i32,
    pub fault_addr: u64,
    /// Page ranges of GM and the cube memories (read-only in the worker)
    /// this call may write: its writable operands there.
    pub open: [Region; MAX_OPEN],
    pub n_open: u64,
    /// L1, L0A, L0B, L0C: host base and bytes, for the cube intrinsics.
    pub cube_base: [u64; 4],
    pub cube_size: [u64; 4],
    // Not in the header's struct (device code never reads them):
    /// UB pages the call may not write, one bit per page: read-only in the
    /// worker, which saves a page to `ub_shadow` and opens it when a write
    /// faults there (intrinsics may use free UB as scratch; the caller
    /// compares the page afterwards).
    pub ub_closed: [u64; UB_WORDS],
    /// The closed pages the call wrote (saved in `ub_shadow` first); set
    /// by the worker, cleared by the caller once read.
    pub ub_dirty: [u64; UB_WORDS],
    /// `UB_PAGES` pages: a closed page's bytes before the call's first write to it.
    pub ub_shadow: *mut u8,
}

/// Words of the closed/dirty UB page bitmaps (one cache line for both:
/// both processes touch them every call).
pub const UB_WORDS: usize = 4;
/// UB pages the bitmaps cover (1 MiB; targets have at most 256 KiB).
pub const UB_PAGES: usize = UB_WORDS * 64;

/// The bitmap of UB pages `[0, pages)`.
pub fn ub_page_mask(pages: u64) -> [u64; UB_WORDS] {
    std::array::from_fn(|w| {
        let lo = w as u64 * 64;
        match pages.saturating_sub(lo) {
            0 => 0,
            n if n >= 64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    })
}

/// A fault at an address no buffer owns now (set by the caller, which
/// knows the pool, when the worker has ended).
pub const FAULT_FREED: i32 = 3;

/// GM and cube-memory page ranges one call can open for writing.
pub const MAX_OPEN: usize = 64;

const MAX_REGIONS: usize = 4096;
const TRACE_CAP: usize = 1 << 22;

/// The context, trace and memref descriptors, in memory the worker shares.
/// They are kept for the next run when a run ends (`SPARE`): a run of a
/// small kernel would otherwise spend a good part of its time emptying and
/// refaulting the trace's mapping.
pub struct Shared {
    parts: std::mem::ManuallyDrop<Parts>,
}

struct Parts {
    ctx: Buffer,
    regions: Buffer,
    trace: Buffer,
    descriptors: Buffer,
    shadow: Buffer,
}

impl Parts {
    fn tainted(&self) -> bool {
        [&self.ctx, &self.regions, &self.trace, &self.descriptors, &self.shadow]
            .iter()
            .any(|b| crate::shm::is_tainted(b.serial()))
    }
}

/// Parts of ended runs, with the process that made them: a forked child
/// shares their pages with its parent, so it must never reuse them.
static SPARE: crate::fork_lock::ForkLock<(libc::pid_t, Vec<Parts>)> = crate::fork_lock::ForkLock::new((0, Vec::new()));

/// How many ended runs' parts are kept (one per thread running kernels at once).
const SPARES: usize = 4;

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: taken once, here; `parts` is not used again.
        let parts = unsafe { std::mem::ManuallyDrop::take(&mut self.parts) };
        // A lock held across a fork (in a child) is never waited for.
        if let Some(mut spare) = SPARE.try_lock() {
            // SAFETY: plain query.
            let me = unsafe { libc::getpid() };
            // Parts a stray process may still write are freed instead.
            if spare.0 == me && spare.1.len() < SPARES && !parts.tainted() {
                spare.1.push(parts);
            }
        }
    }
}

/// In a forked child: the spare parts' lock, if a thread of the parent held
/// it, is free (the parts themselves are the parent's: `Shared::new` in the
/// child forgets them).
///
/// # Safety
/// Only from an atfork child handler.
pub(crate) unsafe fn spares_after_fork_in_child() {
    // SAFETY: as the caller promises.
    unsafe { SPARE.reset_in_child() };
}

/// Frees the parts kept for later runs (memory a stray process may still
/// write must not be handed to a run).
pub fn drop_spares() {
    let Some(mut spare) = SPARE.try_lock() else { return };
    let parts = std::mem::take(&mut spare.1);
    // SAFETY: plain query.
    let me = unsafe { libc::getpid() };
    if spare.0 == me {
        drop(spare);
        drop(parts);
    } else {
        // A forked child's copy of its parent's parts: never freed here.
        std::mem::forget(parts);
    }
}

/// Words of memref descriptors one call can pass.
const DESCRIPTOR_WORDS: usize = 1 << 14;

impl Shared {
    pub fn new() -> Result<Shared, String> {
        let spare = SPARE.try_lock().and_then(|mut spare| {
            // SAFETY: plain query.
            let me = unsafe { libc::getpid() };
            if spare.0 != me {
                // Made by the parent of this forked process: never used here
                // (nor freed, which would pool them).
                std::mem::forget(std::mem::take(&mut spare.1));
                spare.0 = me;
            }
            spare.1.pop()
        });
        let parts = match spare {
            Some(mut p) => {
                // The last run's context must not show through; the trace,
                // regions and descriptors are read only as far as a call
                // writes them.
                p.ctx.bytes_mut().fill(0);
                p
            }
            None => Parts {
                ctx: Buffer::with_access(std::mem::size_of::<Ctx>(), Space::Gm, true)?,
                regions: Buffer::with_access(MAX_REGIONS * std::mem::size_of::<Region>(), Space::Gm, true)?,
                trace: Buffer::with_access(TRACE_CAP * std::mem::size_of::<Rec>(), Space::Gm, true)?,
                descriptors: Buffer::with_access(DESCRIPTOR_WORDS * 8, Space::Gm, true)?,
                shadow: Buffer::with_access(UB_PAGES * 4096, Space::Gm, true)?,
            },
        };
        let s = Shared { parts: std::mem::ManuallyDrop::new(parts) };
        let c = s.ctx_mut();
        // SAFETY: the mapping is zeroed and large enough for Ctx; pointers filled in here.
        unsafe {
            (*c).trace = s.parts.trace.addr() as *mut Rec;
            (*c).trace_cap = TRACE_CAP as u64;
            (*c).regions = s.parts.regions.addr() as *const Region;
            (*c).ub_shadow = s.parts.shadow.addr() as *mut u8;
        }
        Ok(s)
    }

    /// The vector mask at reset: normal mode, every element enabled. It
    /// then persists across calls within a block, as the hardware register.
    pub fn reset_mask(&self) {
        // SAFETY: no child is running while the interpreter calls this.
        unsafe {
            let c = self.ctx_mut();
            (*c).mask_hi = u64::MAX;
            (*c).mask_lo = u64::MAX;
            (*c).mask_counter = 0;
        }
    }

    /// The vector mask's mode (counter or normal), kept across calls.
    pub fn set_mask_counter(&self, counter: bool) {
        // SAFETY: no child is running while the interpreter calls this.
        unsafe { (*self.ctx_mut()).mask_counter = counter as i32 };
    }

    pub fn ctx_mut(&self) -> *mut Ctx {
        self.parts.ctx.addr() as *mut Ctx
    }

    pub fn ctx(&self) -> &Ctx {
        // SAFETY: valid for the life of self; the child only runs while we wait.
        unsafe { &*(self.parts.ctx.addr() as *const Ctx) }
    }

    /// The GM and cube-memory page ranges the next call may write (at most `MAX_OPEN`;
    /// the caller refuses more).
    pub fn set_open(&mut self, open: &[Region]) {
        let n = open.len().min(MAX_OPEN);
        // SAFETY: see ctx().
        unsafe {
            let c = self.ctx_mut();
            (&mut (*c).open)[..n].copy_from_slice(&open[..n]);
            (*c).n_open = n as u64;
        }
    }

    /// The UB pages the next call may not write (see `Ctx::ub_closed`).
    /// Written only when they change: the worker reads the line every call.
    pub fn set_ub_closed(&mut self, closed: &[u64; UB_WORDS]) {
        // SAFETY: see ctx().
        unsafe {
            let c = self.ctx_mut();
            if (*c).ub_closed != *closed {
                (*c).ub_closed = *closed;
            }
        }
    }

    /// The closed UB pages the last call wrote, and their bytes before it
    /// (page `i` at `i * 4096`); the record is cleared for the next call.
    pub fn take_ub_dirty(&mut self) -> ([u64; UB_WORDS], &[u8]) {
        // SAFETY: see ctx().
        let dirty = unsafe {
            let c = self.ctx_mut();
            let d = (*c).ub_dirty;
            if d != [0; UB_WORDS] {
                (*c).ub_dirty = [0; UB_WORDS];
            }
            d
        };
        (dirty, self.parts.shadow.bytes())
    }

    pub fn set_regions(&mut self, regions: &[Region]) {
        let n = regions.len().min(MAX_REGIONS);
        let dst = self.parts.regions.bytes_mut();
        for (i, r) in regions[..n].iter().enumerate() {
            let at = i * 16;
            dst[at..at + 8].copy_from_slice(&r.start.to_le_bytes());
            dst[at + 8..at + 16].copy_from_slice(&r.len.to_le_bytes());
        }
        // SAFETY: see ctx().
        unsafe { (*self.ctx_mut()).n_regions = n as u64 };
    }

    /// Places memref descriptors where the worker sees them; returns their
    /// addresses.
    pub fn set_descriptors(&mut self, descriptors: &[Vec<u64>]) -> Result<Vec<u64>, String> {
        let total: usize = descriptors.iter().map(Vec::len).sum();
        if total > DESCRIPTOR_WORDS {
            return Err(format!(
                "the call's memref descriptors take {total} words; the twin passes at most {DESCRIPTOR_WORDS}"
            ));
        }
        let base = self.parts.descriptors.addr();
        let dst = self.parts.descriptors.bytes_mut();
        let mut at = 0;
        let mut addrs = Vec::with_capacity(descriptors.len());
        for d in descriptors {
            addrs.push(base + at as u64);
            for w in d {
                dst[at..at + 8].copy_from_slice(&w.to_le_bytes());
                at += 8;
            }
        }
        Ok(addrs)
    }

    pub fn trace(&self) -> &[Rec] {
        let n = self.ctx().trace_len as usize;
        // SAFETY: the child wrote `trace_len` records into the trace mapping.
        unsafe { std::slice::from_raw_parts(self.parts.trace.addr() as *const Rec, n.min(TRACE_CAP)) }
    }
}

fn compilers() -> (String, String) {
    (std::env::var("CC").unwrap_or_else(|_| "cc".into()), std::env::var("CXX").unwrap_or_else(|_| "c++".into()))
}

fn is_c(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "c")
}

/// A library file's identity: device, inode, modification time.
pub type LibraryId = (u64, u64, i64, i64);

/// Libraries built in this run, by their source list. They are never
/// loaded here: only the call worker loads them (their constructors and
/// destructors run there, where a fault or an exit is a reported call
/// error), so what they export is read from their files.
#[derive(Default)]
pub struct Natives {
    libs: HashMap<Vec<PathBuf>, std::sync::Arc<crate::libraries::Remembered>>,
}

pub struct Built {
    pub path: PathBuf,
    pub id: LibraryId,
    /// Defined dynamic symbols of the library and of the shared libraries
    /// given with `--impl` (copied beside it).
    exports: std::collections::HashSet<String>,
}

impl Built {
    pub fn exports(&self, symbol: &str) -> bool {
        self.exports.contains(symbol)
    }
}

/// How a call into an implementation ended, when it did not return normally.
#[derive(Debug)]
pub enum CallError {
    /// The implementation misused an intrinsic (`hivm_twin_fail`).
    Misuse(String),
    Signal(String),
    /// The implementation ran out of stack.
    StackOverflow,
    Exit(i32),
    Timeout(Duration),
    /// The caller asked the run to stop while the call ran (it was ended).
    Interrupted,
    Internal(String),
}

/// An argument as the C calling convention passes it.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    /// Pointers and integers (already extended to 64 bits).
    Word(u64),
    /// A float; for `f32` the low 32 bits hold it.
    Float(u64),
}

impl Natives {
    /// Builds (or finds in the cache, or remembers from an earlier run in
    /// this process) the library of `sources`.
    pub fn library(&mut self, sources: &[PathBuf]) -> Result<&Built, String> {
        if !self.libs.contains_key(sources) {
            let r = match crate::libraries::find(sources) {
                Some(r) => r,
                None => {
                    let before = crate::libraries::stamps(sources);
                    let started = std::time::SystemTime::now();
                    let built = build_library(sources)?;
                    let (cc, cxx) = compilers();
                    let compilers: Vec<PathBuf> = [cc, cxx].iter().filter_map(|c| cache::compiler_path(c)).collect();
                    crate::libraries::remember(sources, before, started, &compilers, built)
                }
            };
            self.libs.insert(sources.to_vec(), r);
        }
        Ok(&self.libs[sources].built)
    }

    /// Where the library of `sources` (built already) lies, and which file
    /// it was when built.
    pub fn library_file(&self, sources: &[PathBuf]) -> Option<(&Path, LibraryId)> {
        self.libs.get(sources).map(|r| (r.built.path.as_path(), r.built.id))
    }

    /// The signature of `entry` in the library of `sources` (built already).
    pub fn signature(&mut self, sources: &[PathBuf], entry: &str) -> Result<std::sync::Arc<Signature>, String> {
        self.libs.get(sources).ok_or("the implementation is not built")?.signature(entry)
    }
}

/// Builds (or finds in the cache) the library of `sources` and reads what it exports.
fn build_library(sources: &[PathBuf]) -> Result<Built, String> {
    let path = build(sources)?;
    let id = {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        (m.dev(), m.ino(), m.mtime(), m.mtime_nsec())
    };
    let mut exports = crate::signature::exports(&path)?;
    // The copies of --impl shared libraries, in so<N>/ beside it (see build_in).
    let dir = path.parent().unwrap_or(Path::new("."));
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for sub in entries.flatten() {
        if !sub.file_name().to_string_lossy().starts_with("so") || !sub.path().is_dir() {
            continue;
        }
        for so in std::fs::read_dir(sub.path()).into_iter().flatten().flatten() {
            exports.extend(crate::signature::exports(&so.path())?);
        }
    }
    Ok(Built { path, id, exports })
}

/// What the compiler is asked for; part of the cache key.
/// A folder holding the twin header, for editors and `clang -I`: in the
/// build cache (`cache::dir`, private to the user), one subfolder per
/// header content, written once and entered by an atomic rename.
pub fn include_dir() -> Result<PathBuf, String> {
    let key = Key::new("include").field(HEADER.as_bytes()).field(CUBE_HEADER.as_bytes()).hex();
    let name = format!("include-{}", &key[..16]);
    let dir = cache::dir()?.join(&name);
    if std::fs::read(dir.join("hivm_twin.h")).is_ok_and(|h| h == HEADER.as_bytes()) {
        return Ok(dir);
    }
    // Named as a build folder, so that an interrupted one is cleaned up as those are.
    let tmp = dir.with_file_name(format!("{name}.build.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    std::fs::write(tmp.join("hivm_twin.h"), HEADER).map_err(|e| format!("cannot write the header: {e}"))?;
    std::fs::write(tmp.join("hivm_twin_cube.h"), CUBE_HEADER).map_err(|e| format!("cannot write the header: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::rename(&tmp, &dir).is_err() {
        // Another process put it there first.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    if std::fs::read(dir.join("hivm_twin.h")).is_ok_and(|h| h == HEADER.as_bytes()) {
        Ok(dir)
    } else {
        Err(format!("cannot write the twin header into {}", dir.display()))
    }
}

const CFLAGS: [&str; 6] = ["-O2", "-g", "-fPIC", "-fno-semantic-interposition", "-Wno-attributes", "-MD"];

/// Whether an `--impl` file is already compiled (linked as it is).
pub fn is_prebuilt(p: &Path) -> bool {
    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.ends_with(".o") || name.ends_with(".a") || name.ends_with(".so") || name.contains(".so.")
}

/// Compiles `sources` plus the twin runtime into a shared library, reusing
/// a cached one when nothing that goes into it changed. Each build happens
/// in a folder of its own and enters the cache by one atomic rename of that
/// folder, so concurrent runs never see half an entry and an interrupted
/// build leaves nothing that is used.
pub fn build(sources: &[PathBuf]) -> Result<PathBuf, String> {
    use std::os::unix::ffi::OsStrExt;
    let (cc, cxx) = compilers();
    let mut key = Key::new("hivm-twin library")
        .field(HEADER.as_bytes())
        .field(CUBE_HEADER.as_bytes())
        .field(RUNTIME.as_bytes())
        .field(cache::compiler_identity(&cc).as_bytes())
        .field(cache::compiler_identity(&cxx).as_bytes())
        .field(CFLAGS.join("\0").as_bytes())
        .field(&(sources.len() as u64).to_le_bytes());
    let mut shared_objects = HashMap::new();
    for s in sources {
        let limit = if is_prebuilt(s) { cache::OBJECT_LIMIT } else { cache::SOURCE_LIMIT };
        let text = cache::read_regular(s, limit, true)
            .map_err(|e| format!("cannot read implementation {}: {e}", s.display()))?;
        key = key.field(s.as_os_str().as_bytes()).field(&text);
        if is_shared_object(s) {
            shared_objects.insert(s.clone(), text);
        }
    }
    let h = key.hex();
    let dir = cache::dir()?;
    let entry = dir.join(&h);
    let lib = entry.join("lib.so");
    if usable(&entry) {
        return Ok(lib);
    }
    remove_stale_builds(&dir);
    let nonce = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let work = dir.join(format!("{h}.build.{}.{nonce}", std::process::id()));
    std::fs::create_dir(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let result = build_in(&work, sources, &shared_objects, &cc, &cxx);
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&work);
        return Err(e);
    }
    // Enter the cache. If another run entered a fresh entry meanwhile, use
    // that (moving it aside would pull it from under that run, which is
    // about to load it); a stale one (a header changed) is moved aside.
    if usable(&entry) {
        let _ = std::fs::remove_dir_all(&work);
        return Ok(lib);
    }
    if std::fs::symlink_metadata(&entry).is_ok() {
        let aside = dir.join(format!("{h}.stale.{}.{nonce}", std::process::id()));
        if std::fs::rename(&entry, &aside).is_ok() {
            let _ = std::fs::remove_dir_all(&aside);
        }
    }
    match std::fs::rename(&work, &entry) {
        Ok(()) => Ok(lib),
        Err(_) if usable(&entry) => {
            let _ = std::fs::remove_dir_all(&work);
            Ok(lib)
        }
        // Still not in: use this build where it is (it is ours alone).
        Err(_) => Ok(work.join("lib.so")),
    }
}

/// Whether a cache entry is complete and current: a real folder (not a
/// link) holding a regular `lib.so`, whose recorded headers are unchanged.
fn usable(entry: &Path) -> bool {
    let real = |p: &Path, dir: bool| {
        std::fs::symlink_metadata(p).is_ok_and(|m| if dir { m.file_type().is_dir() } else { m.file_type().is_file() })
    };
    real(entry, true) && real(&entry.join("lib.so"), false) && deps_unchanged(&entry.join("deps"))
}

/// Build folders of runs that were interrupted, an hour or more ago. Only
/// real folders are removed: a symbolic link is left alone, never followed.
fn remove_stale_builds(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !(name.contains(".build.") || name.contains(".stale.")) {
            continue;
        }
        // DirEntry's type and metadata describe the entry itself, not a link's target.
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let old = e.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
        if old.is_some_and(|d| d > Duration::from_secs(3600)) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

fn is_shared_object(p: &Path) -> bool {
    is_prebuilt(p) && !p.to_string_lossy().ends_with(".o") && !p.to_string_lossy().ends_with(".a")
}

/// The name a library is needed by: its `DT_SONAME`, if it has one.
fn soname(data: &[u8]) -> Option<String> {
    use object::read::elf::{Dyn, FileHeader};
    let header = object::elf::FileHeader64::<object::Endianness>::parse(data).ok()?;
    let endian = header.endian().ok()?;
    let sections = header.sections(endian, data).ok()?;
    let (dyns, link) = sections.dynamic(endian, data).ok()??;
    let strings = sections.strings(endian, data, link).ok()?;
    let d = dyns.iter().find(|d| d.tag32(endian) == Some(object::elf::DT_SONAME))?;
    d.string(endian, strings).ok().map(|s| String::from_utf8_lossy(s).into_owned())
}

fn build_in(
    work: &Path,
    sources: &[PathBuf],
    shared_objects: &HashMap<PathBuf, Vec<u8>>,
    cc: &str,
    cxx: &str,
) -> Result<(), String> {
    let header = work.join("hivm_twin.h");
    let rt = work.join("hivm_twin_rt.c");
    std::fs::write(&header, HEADER).map_err(|e| e.to_string())?;
    std::fs::write(work.join("hivm_twin_cube.h"), CUBE_HEADER).map_err(|e| e.to_string())?;
    std::fs::write(&rt, RUNTIME).map_err(|e| e.to_string())?;
    // The time limit is the whole build's.
    let limits = compiler::Limits::from_env()?;
    let deadline = limits.time.map(|t| std::time::Instant::now() + t);
    let mut objects = Vec::new();
    let mut linked = Vec::new();
    let mut all: Vec<PathBuf> = sources.to_vec();
    all.push(rt.clone());
    for (i, src) in all.iter().enumerate() {
        if let Some(bytes) = shared_objects.get(src) {
            // A shared library given with --impl is copied into the entry
            // (the bytes the key was made of) and found there through
            // $ORIGIN: a run path to the folder it came from would let
            // whoever can write there choose what the library loads.
            let name = soname(bytes)
                .or_else(|| src.file_name().map(|n| n.to_string_lossy().into_owned()))
                .filter(|n| !n.contains('/') && !n.is_empty())
                .ok_or_else(|| format!("{} has no usable library name", src.display()))?;
            let sub = format!("so{i}");
            std::fs::create_dir(work.join(&sub)).map_err(|e| e.to_string())?;
            std::fs::write(work.join(&sub).join(&name), bytes).map_err(|e| e.to_string())?;
            linked.push(format!("-L{}", work.join(&sub).display()));
            linked.push(format!("-l:{name}"));
            linked.push(format!("-Wl,-rpath,$ORIGIN/{sub}"));
            continue;
        }
        if is_prebuilt(src) {
            linked.push(std::fs::canonicalize(src).unwrap_or_else(|_| src.clone()).to_string_lossy().into_owned());
            continue;
        }
        let obj = work.join(format!("{i}.o"));
        // In C an undeclared function is only a warning by default; an
        // intrinsic the twin lacks must fail here, with its name.
        let (compiler, std, lang): (&str, &str, &[&str]) = if is_c(src) {
            (cc, "-std=gnu11", &["-Werror=implicit-function-declaration"])
        } else {
            (cxx, "-std=c++17", &[])
        };
        let mut cmd = Command::new(compiler);
        cmd.arg(std).args(CFLAGS).args(lang).arg("-include").arg(&header).arg("-c").arg(src).arg("-o").arg(&obj);
        match compiler::compile(cmd, &limits, deadline) {
            Ok(()) => {}
            Err(Failure::Spawn(e)) => return Err(format!("cannot run the C/C++ compiler '{compiler}': {e}")),
            Err(Failure::Failed(stderr)) => {
                let summary = crate::intrinsics::explain(&stderr).map(|s| format!("{s}\n")).unwrap_or_default();
                return Err(format!("compiling {} for the host failed:\n{summary}{stderr}", src.display()));
            }
            Err(Failure::Limit(why)) => return Err(format!("compiling {} for the host failed: {why}", src.display())),
            Err(Failure::Interrupted) => return Err(crate::interp::INTERRUPTED.into()),
        }
        objects.push(obj);
    }
    let mut link = Command::new(cxx);
    link.arg("-shared").args(&objects).args(&linked).arg("-o").arg(work.join("lib.so"));
    match compiler::compile(link, &limits, deadline) {
        Ok(()) => {}
        Err(Failure::Spawn(e)) => return Err(format!("cannot run '{cxx}' to link: {e}")),
        Err(Failure::Failed(stderr)) => return Err(format!("linking the implementation failed:\n{stderr}")),
        Err(Failure::Limit(why)) => return Err(format!("linking the implementation failed: {why}")),
        Err(Failure::Interrupted) => return Err(crate::interp::INTERRUPTED.into()),
    }
    // The headers the sources included (outside the system's) with their
    // hashes: a changed header rebuilds the library.
    let mut deps = String::new();
    for obj in &objects {
        let d = std::fs::read_to_string(obj.with_extension("d")).unwrap_or_default();
        for dep in d.split_whitespace().skip(1).filter(|t| *t != "\\") {
            let path = Path::new(dep);
            if path.starts_with("/usr") || path.starts_with(work) || sources.iter().any(|s| s == path) {
                continue;
            }
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            if let Ok(text) = cache::read_regular(&path, cache::SOURCE_LIMIT, true) {
                deps.push_str(&format!("{} {}\n", Key::new("header").field(&text).hex(), path.display()));
            }
        }
    }
    std::fs::write(work.join("deps"), deps).map_err(|e| format!("cannot write {}: {e}", work.display()))
}

/// Whether every header recorded for a cached library still has its hash.
fn deps_unchanged(deps_file: &Path) -> bool {
    let Ok(text) = cache::read_regular(deps_file, cache::SOURCE_LIMIT, false) else { return false };
    let Ok(text) = String::from_utf8(text) else { return false };
    text.lines().all(|l| {
        let Some((hash, path)) = l.split_once(' ') else { return false };
        cache::read_regular(Path::new(path), cache::SOURCE_LIMIT, true)
            .is_ok_and(|t| Key::new("header").field(&t).hex() == hash)
    })
}

/// Calls `symbol` of the library at `library` with `args` in the call
/// worker and waits at most `timeout`. Integer-class and float-class
/// arguments travel in separate registers, so one fixed signature serves
/// every mix (up to 8 floats and `GPRS + 16` words).
pub fn call(
    (library, library_id): (&Path, LibraryId),
    symbol: &str,
    args: &[Arg],
    shared: &Shared,
    timeout: Duration,
) -> Result<(), CallError> {
    use crate::worker::{FPRS, WORDS};
    let mut words = [0u64; WORDS];
    let mut floats = [0u64; FPRS];
    let (mut nw, mut nf) = (0, 0);
    for a in args {
        match a {
            Arg::Word(w) => {
                if nw < WORDS {
                    words[nw] = *w;
                }
                nw += 1;
            }
            Arg::Float(f) => {
                if nf < FPRS {
                    floats[nf] = *f;
                }
                nf += 1;
            }
        }
    }
    if nf > FPRS || nw > WORDS {
        return Err(CallError::Internal(format!(
            "{symbol} takes {nw} integer and {nf} float arguments; the twin passes at most {WORDS} and {FPRS}"
        )));
    }
    crate::worker::call(
        &crate::worker::Request { library, library_id, symbol, ctx: shared.ctx_mut(), words, floats },
        timeout,
    )
}

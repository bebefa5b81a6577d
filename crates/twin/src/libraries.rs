//! Implementation libraries this process has built or found in the build
//! cache, remembered with the files they came from. Finding one in the
//! cache means reading and hashing its sources, the twin headers and the
//! headers it includes (the cache key), and reading its exports and debug
//! information: a kernel launched many times (`hivm.triton`'s compiled
//! launches) would pay that on every run. A remembered library is reused
//! while every file it came from — sources, included headers, the library
//! itself, the compilers — has the same identity, size and change times (a
//! write to a file changes its ctime, which no user can set back).

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::native::Built;
use crate::signature::Signature;

/// What a file's metadata says of its contents.
type Stamp = (u64, u64, u64, i64, i64, i64, i64);

fn stamp(p: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(p).ok()?;
    Some((m.dev(), m.ino(), m.size(), m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec()))
}

pub struct Remembered {
    pub built: Built,
    files: Vec<(PathBuf, Stamp)>,
    signatures: Mutex<HashMap<String, Arc<Signature>>>,
}

/// The sources and the environment that chooses the compilers.
type Key = (Vec<PathBuf>, [Option<std::ffi::OsString>; 3]);

/// A `ForkLock`: a process forked while another thread looks a library up
/// must not wait for that thread (see `forget_in_child`).
static REMEMBERED: crate::fork_lock::ForkLock<Option<HashMap<Key, Arc<Remembered>>>> =
    crate::fork_lock::ForkLock::new(None);

/// In a forked child: forgets what the parent remembered. Its lock, or a
/// remembered library's signature lock, may be held by a thread the child
/// does not have; the map is left undropped (dropping could wait on those),
/// and the child looks its libraries up again (from the build cache).
///
/// # Safety
/// Only from an atfork child handler.
pub(crate) unsafe fn forget_in_child() {
    // SAFETY: as the caller promises: no other thread exists to hold it.
    unsafe { REMEMBERED.reset_in_child() };
    std::mem::forget(REMEMBERED.lock().take());
}

fn key(sources: &[PathBuf]) -> Key {
    (sources.to_vec(), ["CC", "CXX", "PATH"].map(std::env::var_os))
}

/// Stamps of `sources` now (None if one cannot be read).
pub fn stamps(sources: &[PathBuf]) -> Option<Vec<(PathBuf, Stamp)>> {
    sources.iter().map(|s| Some((s.clone(), stamp(s)?))).collect()
}

/// The library of `sources`, if remembered and none of its files changed.
pub fn find(sources: &[PathBuf]) -> Option<Arc<Remembered>> {
    let k = key(sources);
    let mut map = REMEMBERED.lock();
    let map = map.get_or_insert_with(HashMap::new);
    let r = map.get(&k)?.clone();
    if r.files.iter().all(|(p, s)| stamp(p).as_ref() == Some(s)) {
        return Some(r);
    }
    map.remove(&k);
    None
}

/// Remembers the library of `sources`, built from sources stamped
/// `before` the build, which began at `started`; nothing is remembered if a
/// source changed meanwhile, or if a header or compiler it depends on
/// changed shortly before or during the build (only its stamp after the
/// build is known: the build may have read it as it was before).
pub fn remember(
    sources: &[PathBuf],
    before: Option<Vec<(PathBuf, Stamp)>>,
    started: std::time::SystemTime,
    compilers: &[PathBuf],
    built: Built,
) -> Arc<Remembered> {
    let mut files = before.clone().unwrap_or_default();
    let after = stamps(sources);
    let mut read = Vec::new();
    // The headers the build read, as its cache entry lists them.
    if let Some(deps) = built.path.parent().map(|d| d.join("deps"))
        && let Ok(text) = std::fs::read_to_string(deps)
    {
        for line in text.lines() {
            if let Some((_, path)) = line.split_once(' ') {
                read.push((PathBuf::from(path), stamp(Path::new(path)).unwrap_or_default()));
            }
        }
    }
    for p in compilers {
        read.push((p.clone(), stamp(p).unwrap_or_default()));
    }
    let settled = settled_before(&read, started);
    files.extend(read);
    files.push((built.path.clone(), stamp(&built.path).unwrap_or_default()));
    let r = Arc::new(Remembered { built, files, signatures: Mutex::default() });
    if before.is_some() && before == after && settled {
        let mut map = REMEMBERED.lock();
        map.get_or_insert_with(HashMap::new).insert(key(sources), r.clone());
    }
    r
}

/// Whether every file last changed well before `started` (and exists). A
/// file's change time comes from a coarse clock that may lag the system
/// clock, hence the margin.
fn settled_before(files: &[(PathBuf, Stamp)], started: std::time::SystemTime) -> bool {
    const MARGIN: std::time::Duration = std::time::Duration::from_secs(2);
    let Some(limit) = started.checked_sub(MARGIN).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()) else {
        return false;
    };
    files.iter().all(|(_, s)| {
        *s != Stamp::default() && (s.5 as i128) * 1_000_000_000 + (s.6 as i128) < limit.as_nanos() as i128
    })
}

impl Remembered {
    /// The signature of `entry`, read from the library's debug information once.
    pub fn signature(&self, entry: &str) -> Result<Arc<Signature>, String> {
        if let Some(s) = self.signatures.lock().unwrap_or_else(|p| p.into_inner()).get(entry) {
            return Ok(s.clone());
        }
        let s = Arc::new(crate::signature::read(&self.built.path, entry)?);
        self.signatures.lock().unwrap_or_else(|p| p.into_inner()).insert(entry.to_string(), s.clone());
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    #[test]
    fn a_header_changed_just_before_the_build_is_not_trusted() {
        let dir = std::env::temp_dir().join(format!("hivm-libraries-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let h = dir.join("k.h");
        std::fs::write(&h, "int x;\n").unwrap();
        let files = vec![(h.clone(), stamp(&h).unwrap())];
        // Written a moment ago: a build starting now may have read the
        // file before the write that the stamp shows.
        assert!(!settled_before(&files, SystemTime::now()));
        assert!(settled_before(&files, SystemTime::now() + Duration::from_secs(3)));
        // A file that could not be stamped is never trusted.
        let gone = vec![(dir.join("gone.h"), Stamp::default())];
        assert!(!settled_before(&gone, SystemTime::now() + Duration::from_secs(3)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

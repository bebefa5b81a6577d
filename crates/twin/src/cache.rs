//! The build cache's folder, its keys and the bounded reading of the files
//! that go into them. The cache holds libraries the twin loads and runs, so
//! it must be the user's alone: anyone who can write into it, or swap it,
//! runs code as the user. Its folders are made 0700, and refused when they
//! are symbolic links, someone else's, or writable by group or others.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The most the twin reads of one implementation source (`source =`,
/// `--impl` C/C++ files and headers).
pub const SOURCE_LIMIT: u64 = 16 << 20;
/// The most it reads of one prebuilt object or library given with `--impl`.
pub const OBJECT_LIMIT: u64 = 1 << 30;

/// The cache folder, made private if new and checked if not: from
/// `HIVM_TWIN_CACHE`, else `$XDG_CACHE_HOME/hivm-rs/twin`, else
/// `$HOME/.cache/hivm-rs/twin`, else `hivm-rs-<uid>/twin` in the temp folder
/// (created and checked the same way, never shared between users).
pub fn dir() -> Result<PathBuf, String> {
    let uid = unsafe { libc::geteuid() };
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let (base, own): (PathBuf, Vec<String>) = if let Some(d) = std::env::var_os("HIVM_TWIN_CACHE") {
        let d = PathBuf::from(d);
        let d = if d.is_absolute() { d } else { std::env::current_dir().map_err(|e| e.to_string())?.join(d) };
        let name = d.file_name().ok_or_else(|| format!("HIVM_TWIN_CACHE={} names no folder", d.display()))?;
        let name = name.to_string_lossy().into_owned();
        (d.parent().unwrap_or(Path::new("/")).to_path_buf(), vec![name])
    } else if let Some(x) = std::env::var_os("XDG_CACHE_HOME").and_then(absolute) {
        (x, vec!["hivm-rs".into(), "twin".into()])
    } else if let Some(h) = std::env::var_os("HOME").and_then(absolute) {
        (h.join(".cache"), vec!["hivm-rs".into(), "twin".into()])
    } else {
        (std::env::temp_dir(), vec![format!("hivm-rs-{uid}"), "twin".into()])
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&base)
        .map_err(|e| format!("cannot create the twin's build cache in {}: {e}", base.display()))?;
    let base = std::fs::canonicalize(&base).map_err(|e| format!("cannot resolve {}: {e}", base.display()))?;
    check_ancestors(&base, uid)?;
    let mut dir = base;
    for name in own {
        dir.push(name);
        private(&dir, uid)?;
    }
    Ok(dir)
}

/// Makes `dir` (0700) unless it exists, then requires it to be a real
/// folder of `uid`'s that no one else may write.
fn private(dir: &Path, uid: u32) -> Result<(), String> {
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {
            // The umask may have taken more than group and other bits.
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("cannot make {} private: {e}", dir.display()))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create the twin's build cache {}: {e}", dir.display())),
    }
    let m = std::fs::symlink_metadata(dir).map_err(|e| format!("cannot inspect {}: {e}", dir.display()))?;
    let refuse = |why: String| {
        Err(format!(
            "refusing to use {} as the twin's build cache: {why} (libraries in it are loaded and run; \
             set HIVM_TWIN_CACHE to a folder of your own)",
            dir.display()
        ))
    };
    if m.file_type().is_symlink() {
        return refuse("it is a symbolic link".into());
    }
    if !m.is_dir() {
        return refuse("it is not a folder".into());
    }
    if m.uid() != uid {
        return refuse(format!("it belongs to uid {}, not to uid {uid}", m.uid()));
    }
    if m.mode() & 0o022 != 0 {
        return refuse(format!("it is writable by {} (mode {:04o})", writers(m.mode()), m.mode() & 0o7777));
    }
    Ok(())
}

fn writers(mode: u32) -> &'static str {
    match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => "group and others",
        (true, false) => "its group",
        _ => "others",
    }
}

/// The folders above the cache: someone who owns one, or may write one
/// that is not sticky, could swap the cache for a folder of theirs.
fn check_ancestors(base: &Path, uid: u32) -> Result<(), String> {
    for a in base.ancestors() {
        let m = std::fs::symlink_metadata(a).map_err(|e| format!("cannot inspect {}: {e}", a.display()))?;
        let shared = m.mode() & 0o002 != 0 && m.mode() & 0o1000 == 0;
        if (m.uid() != uid && m.uid() != 0) || shared {
            let why = if shared {
                format!("anyone may replace what is in it (mode {:04o})", m.mode() & 0o7777)
            } else {
                format!("it belongs to uid {}", m.uid())
            };
            return Err(format!(
                "refusing to keep the twin's build cache under {}: {why}; set HIVM_TWIN_CACHE to a folder of your own",
                a.display()
            ));
        }
    }
    Ok(())
}

/// Why a file could not be read into the cache key.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// Not a regular file: what it is instead.
    NotRegular(&'static str),
    TooLarge(u64),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotRegular(what) => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge(limit) => write!(f, "it is larger than {} MiB", limit >> 20),
        }
    }
}

fn kind(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        "a folder"
    } else if let Some(special) = special_kind(m) {
        special
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// What a special file is (a FIFO, a device, a socket), if it is one:
/// reading it may block or never end.
pub(crate) fn special_kind(m: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    Some(if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        return None;
    })
}

/// Reads a regular file of at most `limit` bytes. Opening never blocks (a
/// FIFO is refused, not waited on) and the type is checked on the opened
/// file, so nothing swapped in between is read; with `follow` false a
/// symbolic link is refused too.
pub fn read_regular(path: &Path, limit: u64, follow: bool) -> Result<Vec<u8>, ReadError> {
    let flags = libc::O_NONBLOCK | libc::O_CLOEXEC | if follow { 0 } else { libc::O_NOFOLLOW };
    let f = File::options().read(true).custom_flags(flags).open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) && !follow {
            ReadError::NotRegular("a symbolic link")
        } else {
            ReadError::Io(e)
        }
    })?;
    let m = f.metadata().map_err(ReadError::Io)?;
    if !m.is_file() {
        return Err(ReadError::NotRegular(kind(&m)));
    }
    if m.len() > limit {
        return Err(ReadError::TooLarge(limit));
    }
    let mut bytes = Vec::with_capacity(m.len() as usize);
    f.take(limit + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(bytes)
}

/// A file's type as the path names it, following links: for refusing a
/// `source` that is no regular file before anything is built.
pub fn check_source(path: &Path) -> Result<(), ReadError> {
    let m = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !m.is_file() {
        return Err(ReadError::NotRegular(kind(&m)));
    }
    if m.len() > SOURCE_LIMIT {
        return Err(ReadError::TooLarge(SOURCE_LIMIT));
    }
    Ok(())
}

/// A cache key: 128-bit FNV-1a over fields that each carry their length,
/// so no two different field lists hash the same bytes (`k.c` + text and
/// `k.cc` + text stay apart).
#[derive(Clone, Copy)]
pub struct Key(u128);

const FNV128_OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
const FNV128_PRIME: u128 = 0x0000000001000000000000000000013b;

impl Key {
    pub fn new(domain: &str) -> Key {
        Key(FNV128_OFFSET).field(domain.as_bytes())
    }

    fn bytes(mut self, bytes: &[u8]) -> Key {
        for b in bytes {
            self.0 ^= *b as u128;
            self.0 = self.0.wrapping_mul(FNV128_PRIME);
        }
        self
    }

    pub fn field(self, bytes: &[u8]) -> Key {
        self.bytes(&(bytes.len() as u64).to_le_bytes()).bytes(bytes)
    }

    pub fn hex(self) -> String {
        format!("{:032x}", self.0)
    }
}

/// Where `command` (a path, or a name looked up in `PATH`) lies, links resolved.
pub fn compiler_path(command: &str) -> Option<PathBuf> {
    let found = if command.contains('/') {
        Some(PathBuf::from(command))
    } else {
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p).map(|d| d.join(command)).find(|c| std::fs::metadata(c).is_ok_and(|m| m.is_file()))
        })
    }?;
    Some(std::fs::canonicalize(&found).unwrap_or(found))
}

/// What identifies a compiler: the file the command resolves to (through
/// `PATH` and links), with its size and modification time, so that an
/// upgrade or `CC` pointing elsewhere builds afresh.
pub fn compiler_identity(command: &str) -> String {
    let Some(real) = compiler_path(command) else { return format!("{command} (not found)") };
    match std::fs::metadata(&real) {
        Ok(m) => format!("{command} = {} {} {}.{}", real.display(), m.len(), m.mtime(), m.mtime_nsec()),
        Err(_) => format!("{command} = {}", real.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_do_not_run_together() {
        let a = Key::new("t").field(b"k.c").field(b"cx");
        let b = Key::new("t").field(b"k.cc").field(b"x");
        assert_ne!(a.hex(), b.hex());
        assert_eq!(a.hex(), Key::new("t").field(b"k.c").field(b"cx").hex());
    }

    #[test]
    fn devices_and_fifos_are_refused() {
        assert!(matches!(read_regular(Path::new("/dev/zero"), SOURCE_LIMIT, true), Err(ReadError::NotRegular(_))));
        let d = std::env::temp_dir().join(format!("hivm-cache-test-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let fifo = d.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Would block forever if opening waited for a writer.
        assert!(matches!(read_regular(&fifo, SOURCE_LIMIT, true), Err(ReadError::NotRegular("a FIFO"))));
        let big = d.join("big");
        std::fs::write(&big, vec![b' '; 100]).unwrap();
        assert!(matches!(read_regular(&big, 99, true), Err(ReadError::TooLarge(99))));
        assert_eq!(read_regular(&big, 100, true).unwrap().len(), 100);
        let link = d.join("link");
        std::os::unix::fs::symlink(&big, &link).unwrap();
        assert!(read_regular(&link, 100, true).is_ok());
        assert!(matches!(read_regular(&link, 100, false), Err(ReadError::NotRegular("a symbolic link"))));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn someone_elses_folder_is_refused() {
        let uid = unsafe { libc::geteuid() };
        let d = std::env::temp_dir().join(format!("hivm-cache-owner-{}", std::process::id()));
        private(&d, uid).unwrap();
        let theirs = if uid == 0 {
            // As root: a folder given to another user.
            assert_eq!(
                unsafe { libc::chown(std::ffi::CString::new(d.to_str().unwrap()).unwrap().as_ptr(), 12345, 0) },
                0
            );
            d.clone()
        } else {
            PathBuf::from("/")
        };
        let e = private(&theirs, uid).unwrap_err();
        assert!(e.contains("it belongs to uid"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}

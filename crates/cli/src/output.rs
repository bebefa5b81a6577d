//! Output destination. A file is written under a temporary name and renamed
//! only on success, so a failed run never leaves a partial output file.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

pub enum Output {
    Stdout(BufWriter<std::io::Stdout>),
    File { w: BufWriter<std::fs::File>, tmp: PathBuf, dest: PathBuf },
}

impl Output {
    pub fn create(path: Option<&str>) -> std::io::Result<Output> {
        match path {
            None | Some("-") => Ok(Output::Stdout(BufWriter::with_capacity(1 << 16, std::io::stdout()))),
            Some(p) => {
                let dest = PathBuf::from(p);
                let mut tmp = dest.clone().into_os_string();
                tmp.push(format!(".hivm-opt-{}.tmp", std::process::id()));
                let tmp = PathBuf::from(tmp);
                let f = std::fs::File::create(&tmp)?;
                Ok(Output::File { w: BufWriter::with_capacity(1 << 16, f), tmp, dest })
            }
        }
    }

    pub fn commit(self) -> std::io::Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush(),
            Output::File { mut w, tmp, dest } => {
                w.flush()?;
                drop(w);
                // Writing to a device such as /dev/null cannot be renamed over.
                if dest.exists() && !dest.is_file() {
                    let mut d = std::fs::OpenOptions::new().write(true).open(&dest)?;
                    std::io::copy(&mut std::fs::File::open(&tmp)?, &mut d)?;
                    return std::fs::remove_file(&tmp);
                }
                std::fs::rename(&tmp, &dest)
            }
        }
    }

    /// Failure path: stdout keeps what was printed for good chunks; files vanish.
    pub fn discard(self) {
        match self {
            Output::Stdout(mut w) => {
                let _ = w.flush();
            }
            Output::File { w, tmp, .. } => {
                drop(w);
                let _ = std::fs::remove_file(&tmp);
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File { w, .. } => w.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File { w, .. } => w.flush(),
        }
    }
}

//! Input reading. Files are memory-mapped and validated in slices; pages the
//! parser has moved past are handed back to the OS, so peak memory does not
//! include the whole input (a 1M-op module is over 200 MB of text).

use std::io::Read;

pub enum Input {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

const PAGE: usize = 4096;

impl Input {
    pub fn open(path: Option<&str>) -> std::io::Result<Input> {
        match path {
            None | Some("-") => {
                let mut buf = Vec::new();
                std::io::stdin().read_to_end(&mut buf)?;
                Ok(Input::Owned(buf))
            }
            Some(p) => {
                let mut f = std::fs::File::open(p)?;
                let meta = f.metadata()?;
                // Only regular files are mapped. A FIFO, a character device,
                // /dev/stdin or a process substitution reports no meaningful
                // length (often 0) and must be read to its end.
                if !meta.is_file() {
                    let mut buf = Vec::new();
                    f.read_to_end(&mut buf)?;
                    return Ok(Input::Owned(buf));
                }
                if meta.len() == 0 {
                    return Ok(Input::Owned(Vec::new()));
                }
                // SAFETY: the map is read-only and private; a concurrent writer to
                // the file could change what we read, exactly as with read(2).
                match unsafe { memmap2::Mmap::map(&f) } {
                    Ok(m) => Ok(Input::Mapped(m)),
                    Err(_) => {
                        let mut buf = Vec::new();
                        f.read_to_end(&mut buf)?;
                        Ok(Input::Owned(buf))
                    }
                }
            }
        }
    }

    pub fn bytes(&self) -> &[u8] {
        match self {
            Input::Mapped(m) => m,
            Input::Owned(v) => v,
        }
    }

    /// The input as UTF-8, or the offset of the first invalid byte.
    pub fn text(&self) -> Result<&str, usize> {
        let bytes = self.bytes();
        const SLICE: usize = 16 << 20;
        let mut start = 0;
        while start < bytes.len() {
            let mut end = (start + SLICE).min(bytes.len());
            // Do not cut a UTF-8 sequence in two.
            while end < bytes.len() && (bytes[end] & 0xC0) == 0x80 {
                end += 1;
            }
            if let Err(e) = std::str::from_utf8(&bytes[start..end]) {
                return Err(start + e.valid_up_to());
            }
            self.release(start, end);
            start = end;
        }
        // SAFETY: every slice was validated above and slices end on character boundaries.
        Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// Drops resident pages of `[start, end)`; they are re-read from the file if touched.
    pub fn release(&self, start: usize, end: usize) {
        let Input::Mapped(m) = self else { return };
        let s = start.div_ceil(PAGE) * PAGE;
        let e = (end / PAGE) * PAGE;
        if e > s {
            // SAFETY: DontNeed on a private read-only file mapping only discards
            // cached pages; later reads fault them back in from the file.
            let _ = unsafe { m.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, s, e - s) };
        }
    }
}

//! The `hivm-opt` driver as a library: parse, verify, run passes and print,
//! as the command line does (used by `hivm-opt` and the Python bindings).

pub mod expected;
pub mod opt;
pub mod passes;
pub mod reaper;
pub mod tester;

pub use hivm_transforms::pipelines::CompileOptions;

/// Runs a driver's `main` on a thread with a large stack (nesting is bounded
/// by the parser; the stack keeps the recursive parser, verifier and printer
/// well inside that bound), with one malloc arena: glibc would give the
/// thread an arena of its own, grown by many small `mprotect` calls (a third
/// of a small compile's time). A panic is `tool: internal error`, exit 2.
pub fn run_driver(tool: &str, main: fn() -> std::process::ExitCode) -> std::process::ExitCode {
    #[cfg(target_env = "gnu")]
    // SAFETY: mallopt only tunes the allocator; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
    match std::thread::Builder::new().stack_size(512 << 20).spawn(main).map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("{tool}: internal error");
            std::process::ExitCode::from(2)
        }
    }
}

/// How `opt_text` and `compile_text` print their result.
#[derive(Clone, Copy, Default)]
pub struct PrintStyle {
    /// The generic op form.
    pub generic: bool,
    /// Each op's location (`--mlir-print-debuginfo`), so a later stage's
    /// diagnostics still name the source line the op came from.
    pub debuginfo: bool,
}

/// Runs `pipeline` (`--pass-pipeline` syntax, or empty for none) on MLIR
/// `source` named `file`, and prints the result in `style`.
/// Errors come back as the command line would print them.
pub fn opt_text(source: &str, file: &str, pipeline: &str, style: PrintStyle) -> Result<String, String> {
    let mut o =
        opt::Options { verify_each: true, generic: style.generic, debuginfo: style.debuginfo, ..Default::default() };
    if !pipeline.is_empty() {
        o.passes.push(pipeline.to_string());
    }
    let mut out = Held(Vec::new());
    let r = opt::run(&o, source, file, None, &mut out);
    if r.failed {
        return Err(r.stderr);
    }
    String::from_utf8(out.0).map_err(|e| e.to_string())
}

/// Compiles a Triton kernel's linalg module to HIVM (the pipeline of
/// `hivm-compile`), returning the printed module or the errors as the
/// command line prints them.
pub fn compile_text(source: &str, file: &str, options: &CompileOptions, style: PrintStyle) -> Result<String, String> {
    let o = opt::Options {
        verify_each: true,
        generic: style.generic,
        debuginfo: style.debuginfo,
        passes: hivm_transforms::pipelines::triton_to_hivm(options),
        ..Default::default()
    };
    let mut out = Held(Vec::new());
    let r = opt::run(&o, source, file, None, &mut out);
    if r.failed {
        return Err(r.stderr);
    }
    String::from_utf8(out.0).map_err(|e| e.to_string())
}

/// The most text `opt_text` returns.
pub const MAX_TEXT: usize = 1 << 30;

/// Output kept in memory, within [`MAX_TEXT`] and what can be allocated:
/// past either, writing fails (and the run reports it) instead of the
/// process aborting on a failed allocation.
struct Held(Vec<u8>);

impl std::io::Write for Held {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len().saturating_add(buf.len()) > MAX_TEXT {
            let msg = format!("the printed module exceeds {} MiB", MAX_TEXT >> 20);
            return Err(std::io::Error::new(std::io::ErrorKind::OutOfMemory, msg));
        }
        self.0.try_reserve(buf.len()).map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))?;
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

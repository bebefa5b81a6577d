//! The `hivm-opt` driver as a library: parse, verify, run passes and print,
//! as the command line does (used by `hivm-opt` and the Python bindings).

pub mod expected;
pub mod opt;
pub mod passes;
pub mod tester;

/// Runs `pipeline` (`--pass-pipeline` syntax, or empty for none) on MLIR
/// `source` named `file`, and prints the result (generic form on request).
/// Errors come back as the command line would print them.
pub fn opt_text(source: &str, file: &str, pipeline: &str, generic: bool) -> Result<String, String> {
    let mut o = opt::Options { verify_each: true, generic, ..Default::default() };
    if !pipeline.is_empty() {
        o.passes.push(pipeline.to_string());
    }
    let mut out = Vec::new();
    let r = opt::run(&o, source, file, None, &mut out);
    if r.failed {
        return Err(r.stderr);
    }
    String::from_utf8(out).map_err(|e| e.to_string())
}

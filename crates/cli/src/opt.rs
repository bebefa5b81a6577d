//! The mlir-opt compatible driver: read, split, parse, verify, run passes,
//! print; or check diagnostics against `expected-*` annotations.

use std::io::Write;
use std::sync::Arc;

use hivm_ir::diagnostics::{Diagnostic, Severity, SourceBuffer, file_line_col, render};
use hivm_ir::parser::{ParseError, Parser};
use hivm_ir::printer::{PrintOptions, TooLarge, print_top_level_to};
use hivm_ir::{Ir, Registry};

use crate::expected;

#[derive(Default, Clone)]
pub struct Options {
    pub input: Option<String>,
    pub output: Option<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub generic: bool,
    pub debuginfo: bool,
    pub allow_unregistered: bool,
    pub verify_each: bool,
    pub passes: Vec<String>,
    pub timing: bool,
    pub print_ir_before_all: bool,
    pub print_ir_after_all: bool,
}

/// Wall time per phase, reported by `--mlir-timing` as mlir-opt does.
#[derive(Default)]
pub struct Timing {
    pub parse: f64,
    pub verify: f64,
    pub passes: f64,
    pub output: f64,
    /// The passes' share of `passes`, per pass, with the verifier runs
    /// between them last (see `PassManager::timings`).
    pub pass_detail: Vec<(String, f64)>,
}

impl Timing {
    pub fn report(&self) -> String {
        let total = self.parse + self.verify + self.passes + self.output;
        let pct = |x: f64| if total > 0.0 { 100.0 * x / total } else { 0.0 };
        let mut s = String::new();
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str("                         ... Execution time report ...\n");
        s.push_str("===-------------------------------------------------------------------------===\n");
        s.push_str(&format!("  Total Execution Time: {total:.4} seconds\n\n"));
        s.push_str("  ----Wall Time----  ----Name----\n");
        let mut rows = vec![("Parser".to_string(), self.parse), ("Verifier".to_string(), self.verify)];
        let mut accounted = 0.0;
        for (name, t) in &self.pass_detail {
            accounted += t;
            match rows.iter_mut().find(|(n, _)| n == name) {
                Some((_, sum)) => *sum += t,
                None => rows.push((name.clone(), *t)),
            }
        }
        rows.push(("Output".to_string(), self.output));
        // Pipeline set-up and nesting: what the per-pass clocks did not see.
        rows.push(("Rest".to_string(), (self.passes - accounted).max(0.0)));
        for (name, t) in rows {
            s.push_str(&format!("    {t:.4} ({:5.1}%)  {name}\n", pct(t)));
        }
        s.push_str(&format!("    {total:.4} (100.0%)  Total\n"));
        s
    }
}

pub struct Outcome {
    pub stderr: String,
    pub failed: bool,
}

/// Gives input pages back to the OS once parsed: `(start, end)` byte range of
/// the input text that will not be needed again (it stays readable).
pub type ReleaseFn<'a> = &'a dyn Fn(usize, usize);

fn parse_error_to_diag(p_ir: &mut Ir, e: &ParseError, buf: &SourceBuffer, file: &str) -> Diagnostic {
    let loc_of = |ir: &mut Ir, pos: u32| {
        let (line, col) = buf.line_col(pos as usize);
        let f = ir.sym(file);
        ir.attr(hivm_ir::AttrData::Location(hivm_ir::attrs::LocData::FileLineCol { file: f, line, col }))
    };
    let loc = loc_of(p_ir, e.pos);
    let mut d = Diagnostic::error(loc, e.msg.clone());
    for (pos, msg) in &e.notes {
        let l = loc_of(p_ir, *pos);
        d = d.with_note(l, msg.clone());
    }
    d
}

/// Processes one buffer: prints to `out` on success, else returns diagnostics.
/// What stays the same across the chunks of one input.
struct Session<'a> {
    registry: Arc<Registry>,
    opts: &'a Options,
    file: &'a str,
    release: Option<ReleaseFn<'a>>,
    timing: Timing,
}

fn process_chunk(cx: &mut Session, buf: &SourceBuffer, base: usize, out: &mut dyn Write) -> (Ir, Vec<Diagnostic>) {
    let (registry, opts, file, release) = (&cx.registry, cx.opts, cx.file, cx.release);
    let timing = &mut cx.timing;
    let clock = std::time::Instant::now();
    let mut ir = Ir::new(registry.clone());
    ir.allow_unregistered = opts.allow_unregistered;
    let parsed = {
        let mut p = Parser::new(&mut ir, buf.text, file, buf.first_line);
        if base > 0 {
            // Later chunks start right after a split marker.
            p.set_first_col(SPLIT_MARKER.len() as u32);
        }
        if let Some(rel) = release {
            // Keep a little slack behind the cursor for error lines.
            p.set_progress_hook(Box::new(move |pos| rel(base, (base + pos).saturating_sub(1 << 20))));
        }
        p.parse_module()
    };
    let module = match parsed {
        Ok(m) => m,
        Err(e) => {
            let d = parse_error_to_diag(&mut ir, &e, buf, file);
            return (ir, vec![d]);
        }
    };
    timing.parse += clock.elapsed().as_secs_f64();
    let clock = std::time::Instant::now();
    let errs = hivm_ir::verifier::verify_all(&ir, module);
    timing.verify += clock.elapsed().as_secs_f64();
    if !errs.is_empty() {
        return (ir, errs);
    }
    let clock = std::time::Instant::now();
    let ran = crate::passes::run_pipeline(&mut ir, module, opts, &mut timing.pass_detail);
    timing.passes += clock.elapsed().as_secs_f64();
    // Warnings from passes are reported whether or not the pipeline succeeded.
    let mut diags = std::mem::take(&mut ir.emitted);
    let module = match ran {
        Ok(m) => m,
        Err(d) => {
            diags.push(d);
            return (ir, diags);
        }
    };
    let clock = std::time::Instant::now();
    let options = PrintOptions { generic: opts.generic, debuginfo: opts.debuginfo };
    let written = print_top_level_to(&ir, module, options, out).and_then(|_| out.write_all(b"\n"));
    if let Err(e) = written {
        // Output too large to print is about an op; other errors about the output.
        let too_large = e.get_ref().and_then(|x| x.downcast_ref::<TooLarge>());
        let d = match too_large {
            Some(t) => Diagnostic::error(t.op.map_or_else(|| ir.unknown_loc(), |op| ir.loc(op)), t.to_string()),
            None => Diagnostic::error(ir.unknown_loc(), format!("error writing output: {e}")),
        };
        diags.push(d);
        return (ir, diags);
    }
    timing.output += clock.elapsed().as_secs_f64();
    (ir, diags)
}

/// Splits on the `// -----` marker as mlir-opt does: each chunk starts right
/// after a marker, on the marker's line, so diagnostics keep file line numbers.
const SPLIT_MARKER: &str = "// -----";

fn split_chunks(text: &str) -> Vec<(&str, u32)> {
    const MARKER: &str = SPLIT_MARKER;
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = 0u32;
    let mut search = 0usize;
    while let Some(i) = text[search..].find(MARKER) {
        let at = search + i;
        chunks.push((&text[start..at], start_line));
        start_line += text[start..at].matches('\n').count() as u32;
        start = at + MARKER.len();
        search = start;
    }
    chunks.push((&text[start..], start_line));
    chunks
}

pub fn run(opts: &Options, text: &str, file: &str, release: Option<ReleaseFn>, out: &mut dyn Write) -> Outcome {
    let mut cx = Session { registry: hivm_dialects::shared_registry(), opts, file, release, timing: Timing::default() };
    let chunks = if opts.split_input_file { split_chunks(text) } else { vec![(text, 0)] };
    let mut stderr = String::new();
    let mut failed = false;
    // "was not produced" reports come after all chunks, as mlir-opt emits them.
    let mut missing = String::new();
    for (i, (chunk, first_line)) in chunks.into_iter().enumerate() {
        if i > 0 && out.write_all(b"// -----\n").is_err() {
            stderr.push_str("hivm-opt: error writing output\n");
            return Outcome { stderr, failed: true };
        }
        let buf = SourceBuffer::new(file, chunk, first_line);
        let base = chunk.as_ptr() as usize - text.as_ptr() as usize;
        let (ir, diags) = process_chunk(&mut cx, &buf, base, out);
        if diags.is_empty() && !opts.verify_diagnostics && chunk.len() > 1 << 20 {
            // A large module's IR is only freed at exit anyway; skipping the
            // per-node teardown saves measurable time on big inputs.
            std::mem::forget(ir);
            continue;
        }
        if opts.verify_diagnostics {
            match expected::collect(&buf) {
                Err((line, col, msg)) => {
                    stderr.push_str(&format!("{file}:{line}:{col}: error: {msg}\n"));
                    failed = true;
                }
                Ok(mut exp) => {
                    let mut flat = Vec::new();
                    for d in &diags {
                        flat.push((d.severity, d.loc, d.message.clone()));
                        for n in &d.notes {
                            if !n.message.starts_with("see current operation") {
                                flat.push((n.severity, n.loc, n.message.clone()));
                            }
                        }
                    }
                    for (sev, loc, msg) in flat {
                        let line = file_line_col(&ir, loc).filter(|(f, _, _)| f == file).map(|(_, l, _)| l);
                        if !expected::consume(&mut exp, sev, line, &msg) {
                            let d = Diagnostic {
                                severity: Severity::Error,
                                loc,
                                message: format!("unexpected {}: {msg}", sev.as_str()),
                                notes: Vec::new(),
                            };
                            render(&ir, &d, Some(&buf), &mut stderr);
                            failed = true;
                        }
                    }
                    for e in exp.iter().filter(|e| !e.matched) {
                        missing.push_str(&format!(
                            "{file}:{}:{}: error: expected {} \"{}\" was not produced\n",
                            e.anno_line,
                            e.anno_col,
                            e.severity.as_str(),
                            e.text
                        ));
                        if let Some(l) = buf.line_text(e.anno_line) {
                            missing.push_str(l);
                            missing.push('\n');
                            let pad: String = l
                                .chars()
                                .take(e.anno_col as usize - 1)
                                .map(|c| if c == '\t' { '\t' } else { ' ' })
                                .collect();
                            missing.push_str(&format!("{pad}^{}\n", "~".repeat(e.anno_len.saturating_sub(1))));
                        }
                        failed = true;
                    }
                }
            }
        } else {
            for d in &diags {
                render(&ir, d, Some(&buf), &mut stderr);
            }
            if diags.iter().any(|d| d.severity == Severity::Error) {
                failed = true;
            }
        }
    }
    stderr.push_str(&missing);
    if opts.timing {
        stderr.push_str(&cx.timing.report());
    }
    Outcome { stderr, failed }
}

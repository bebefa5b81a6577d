//! Pass infrastructure: passes anchored on an op name, nested pipelines, and
//! the textual pipeline syntax `builtin.module(func.func(cse,canonicalize))`.

use std::collections::BTreeMap;

use crate::diagnostics::Diagnostic;
use crate::ir::{Ir, OpId};

pub trait Pass {
    /// The command-line argument (`cse`).
    fn name(&self) -> &str;
    /// The name shown in IR dumps (`CSE`), as MLIR's pass class names.
    fn display_name(&self) -> &str {
        self.name()
    }
    /// Runs on one op of the anchor kind (or any op for op-agnostic passes).
    fn run(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic>;
}

pub type PassCtor = fn(options: &str) -> Result<Box<dyn Pass>, String>;

#[derive(Default)]
pub struct PassRegistry {
    passes: BTreeMap<&'static str, (&'static str, PassCtor)>,
}

impl PassRegistry {
    pub fn register(&mut self, name: &'static str, description: &'static str, ctor: PassCtor) {
        self.passes.insert(name, (description, ctor));
    }

    pub fn contains(&self, name: &str) -> bool {
        self.passes.contains_key(name)
    }

    pub fn list(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.passes.iter().map(|(n, (d, _))| (*n, *d))
    }

    /// A fresh instance of the registered pass `name` with `options`.
    pub fn create(&self, name: &str, options: &str) -> Result<Box<dyn Pass>, String> {
        match self.passes.get(name) {
            Some((_, c)) => c(options),
            None => Err(format!("'{name}' does not refer to a registered pass or pass pipeline")),
        }
    }
}

/// A pipeline element: a pass, or a nested pipeline on ops named `anchor`.
enum Element {
    Pass(Box<dyn Pass>),
    Nest { anchor: String, elements: Vec<Element> },
}

pub struct PassManager {
    elements: Vec<Element>,
    pub print_before_all: bool,
    pub print_after_all: bool,
    /// IR dumps requested by the print flags, in order (the driver writes them to stderr).
    pub dumps: String,
    /// Wall time per pass (by display name, in first-run order) and, last,
    /// the verifier runs between passes; filled for `--mlir-timing`.
    pub timings: Vec<(String, f64)>,
}

impl PassManager {
    /// Builds the pipeline from command-line pieces: plain pass names (with
    /// optional `{opts}`) and `--pass-pipeline` strings, in order.
    pub fn from_cli(reg: &PassRegistry, pieces: &[String]) -> Result<PassManager, String> {
        let mut elements = Vec::new();
        for piece in pieces {
            let mut parser = PipelineParser { s: piece.as_bytes(), pos: 0 };
            let parsed = parser.parse_list(reg)?;
            if parser.pos != parser.s.len() {
                return Err(format!("unexpected '{}' in pass pipeline", &piece[parser.pos..]));
            }
            // A top-level `builtin.module(...)` anchors on the module we run on.
            for e in parsed {
                match e {
                    Element::Nest { anchor, elements: inner } if anchor == "builtin.module" => elements.extend(inner),
                    other => elements.push(other),
                }
            }
        }
        Ok(PassManager {
            elements,
            print_before_all: false,
            print_after_all: false,
            dumps: String::new(),
            timings: Vec::new(),
        })
    }

    pub fn run(&mut self, ir: &mut Ir, module: OpId, verify_each: bool) -> Result<(), Diagnostic> {
        self.run_inner(ir, module, verify_each, false).map(|_| ())
    }

    /// [`PassManager::run`], compacting the IR's arenas between top-level
    /// passes once most of them is erased ops (see [`Ir::compact`]); returns
    /// the module's id afterwards. For callers that hold no other ids.
    pub fn run_compacting(&mut self, ir: &mut Ir, module: OpId, verify_each: bool) -> Result<OpId, Diagnostic> {
        self.run_inner(ir, module, verify_each, true)
    }

    fn run_inner(
        &mut self,
        ir: &mut Ir,
        mut module: OpId,
        verify_each: bool,
        compact: bool,
    ) -> Result<OpId, Diagnostic> {
        let mut cx = RunCx {
            verify_each,
            before: self.print_before_all,
            after: self.print_after_all,
            dumps: String::new(),
            timings: Vec::new(),
            verify_time: 0.0,
        };
        let mut r = Ok(());
        for e in self.elements.iter_mut() {
            r = run_elements(std::slice::from_mut(e), ir, module, &mut cx);
            if r.is_err() {
                break;
            }
            if compact && ir.worth_compacting() {
                module = ir.compact(module);
            }
        }
        self.dumps = cx.dumps;
        self.timings = cx.timings;
        if verify_each {
            self.timings.push(("Verifier".to_string(), cx.verify_time));
        }
        r.map(|_| module)
    }
}

struct RunCx {
    verify_each: bool,
    before: bool,
    after: bool,
    dumps: String,
    timings: Vec<(String, f64)>,
    verify_time: f64,
}

impl RunCx {
    fn record(&mut self, pass: &dyn Pass, secs: f64) {
        match self.timings.iter_mut().find(|(n, _)| n == pass.display_name()) {
            Some((_, t)) => *t += secs,
            None => self.timings.push((pass.display_name().to_string(), secs)),
        }
    }

    fn dump(&mut self, ir: &Ir, op: OpId, when: &str, pass: &dyn Pass) {
        self.dumps.push_str(&format!(
            "// -----// IR Dump {when} {} ({}) //----- //\n",
            pass.display_name(),
            pass.name()
        ));
        let text = crate::printer::print_top_level(ir, op, crate::printer::PrintOptions::default());
        self.dumps.push_str(&text);
        // mlir-opt leaves one blank line after a nested op's dump, two after a module's.
        self.dumps.push('\n');
        if ir.parent_op(op).is_none() {
            self.dumps.push('\n');
        }
    }
}

fn run_elements(elements: &mut [Element], ir: &mut Ir, op: OpId, cx: &mut RunCx) -> Result<(), Diagnostic> {
    for e in elements.iter_mut() {
        match e {
            Element::Pass(p) => {
                if cx.before {
                    cx.dump(ir, op, "Before", p.as_ref());
                }
                let clock = std::time::Instant::now();
                let ran = p.run(ir, op);
                cx.record(p.as_ref(), clock.elapsed().as_secs_f64());
                ran?;
                if cx.after {
                    cx.dump(ir, op, "After", p.as_ref());
                }
                if cx.verify_each {
                    let clock = std::time::Instant::now();
                    let verified = crate::verifier::verify(ir, op);
                    cx.verify_time += clock.elapsed().as_secs_f64();
                    verified?;
                }
            }
            Element::Nest { anchor, elements } => {
                let mut targets = Vec::new();
                for &r in ir.regions(op) {
                    for &b in ir.region_blocks(r) {
                        for child in ir.block_ops(b) {
                            if ir.op_name(child) == anchor {
                                targets.push(child);
                            }
                        }
                    }
                }
                for t in targets {
                    run_elements(elements, ir, t, cx)?;
                }
            }
        }
    }
    Ok(())
}

struct PipelineParser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl PipelineParser<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn parse_list(&mut self, reg: &PassRegistry) -> Result<Vec<Element>, String> {
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            let start = self.pos;
            while self.pos < self.s.len()
                && !matches!(self.s[self.pos], b'(' | b')' | b',' | b'{')
                && !self.s[self.pos].is_ascii_whitespace()
            {
                self.pos += 1;
            }
            let name = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("").to_string();
            if name.is_empty() {
                return Err("expected pass or op name in pass pipeline".into());
            }
            self.skip_ws();
            let mut options = String::new();
            if self.pos < self.s.len() && self.s[self.pos] == b'{' {
                let ostart = self.pos + 1;
                let mut depth = 0;
                while self.pos < self.s.len() {
                    match self.s[self.pos] {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
                if self.pos >= self.s.len() {
                    return Err("missing '}' in pass options".into());
                }
                options = String::from_utf8_lossy(&self.s[ostart..self.pos]).into_owned();
                self.pos += 1;
                self.skip_ws();
            }
            if self.pos < self.s.len() && self.s[self.pos] == b'(' {
                self.pos += 1;
                let elements = self.parse_list(reg)?;
                self.skip_ws();
                if self.pos >= self.s.len() || self.s[self.pos] != b')' {
                    return Err("expected ')' to close nested pipeline".into());
                }
                self.pos += 1;
                out.push(Element::Nest { anchor: name, elements });
            } else {
                out.push(Element::Pass(reg.create(&name, &options)?));
            }
            self.skip_ws();
            if self.pos < self.s.len() && self.s[self.pos] == b',' {
                self.pos += 1;
                continue;
            }
            return Ok(out);
        }
    }
}

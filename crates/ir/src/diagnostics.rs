//! Diagnostics in MLIR's textual shape: `FILE:LINE:COL: error: MSG`, then the
//! source line and a caret, then attached notes.

use crate::attrs::{AttrData, Attribute, LocData};
use crate::ir::Ir;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Severity {
    Error,
    Warning,
    Remark,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub loc: Attribute,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    pub fn error(loc: Attribute, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, loc, message: message.into(), notes: Vec::new() }
    }

    pub fn warning(loc: Attribute, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, loc, message: message.into(), notes: Vec::new() }
    }

    pub fn with_note(mut self, loc: Attribute, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Diagnostic { severity: Severity::Note, loc, message: message.into(), notes: Vec::new() });
        self
    }
}

/// One input buffer: a whole file, or a chunk of it under `-split-input-file`
/// (chunks keep the line numbers of the original file). Lines are found on
/// demand: diagnostics are rare, and indexing a large input up front would
/// touch every page of it.
pub struct SourceBuffer<'a> {
    pub name: String,
    pub text: &'a str,
    /// Line number (0-based) of the first line of `text` in the original file.
    pub first_line: u32,
}

impl<'a> SourceBuffer<'a> {
    pub fn new(name: &str, text: &'a str, first_line: u32) -> SourceBuffer<'a> {
        SourceBuffer { name: name.to_string(), text, first_line }
    }

    /// 1-based line and column of a byte offset, in original-file numbering.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let before = &self.text.as_bytes()[..offset.min(self.text.len())];
        let line = before.iter().filter(|b| **b == b'\n').count() as u32;
        let start = before.iter().rposition(|b| *b == b'\n').map(|p| p + 1).unwrap_or(0);
        (line + 1 + self.first_line, (offset - start) as u32 + 1)
    }

    /// Text of a line given in original-file numbering.
    pub fn line_text(&self, line: u32) -> Option<&'a str> {
        let idx = line.checked_sub(1 + self.first_line)? as usize;
        let l = self.text.split('\n').nth(idx)?;
        Some(l.strip_suffix('\r').unwrap_or(l))
    }
}

/// The file/line/col a location points at, looking through wrappers.
pub fn file_line_col(ir: &Ir, loc: Attribute) -> Option<(String, u32, u32)> {
    match ir.attr_data(loc) {
        AttrData::Location(LocData::FileLineCol { file, line, col }) => {
            Some((ir.sym_str(*file).to_string(), *line, *col))
        }
        AttrData::Location(LocData::FileLineColRange { file, line, col, .. }) => {
            Some((ir.sym_str(*file).to_string(), *line, col.unwrap_or(0)))
        }
        AttrData::Location(LocData::Name { child: Some(c), .. }) => file_line_col(ir, *c),
        AttrData::Location(LocData::CallSite { callee, .. }) => file_line_col(ir, *callee),
        AttrData::Location(LocData::Fused { locs, .. }) => locs.iter().find_map(|l| file_line_col(ir, *l)),
        _ => None,
    }
}

/// Renders a diagnostic and its notes as mlir-opt does.
pub fn render(ir: &Ir, diag: &Diagnostic, buffer: Option<&SourceBuffer>, out: &mut String) {
    render_inner(ir, diag, buffer, out, true);
}

fn render_inner(ir: &Ir, diag: &Diagnostic, buffer: Option<&SourceBuffer>, out: &mut String, show_line: bool) {
    use std::fmt::Write;
    match file_line_col(ir, diag.loc) {
        Some((file, line, col)) => {
            let _ = writeln!(out, "{file}:{line}:{col}: {}: {}", diag.severity.as_str(), diag.message);
            if show_line
                && let Some(buf) = buffer.filter(|b| b.name == file)
                && let Some(text) = buf.line_text(line)
            {
                let _ = writeln!(out, "{text}");
                let caret_col = (col.max(1) - 1) as usize;
                let pad: String = text.chars().take(caret_col).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                let _ = writeln!(out, "{pad}^");
            }
        }
        None => {
            let _ = writeln!(out, "<unknown>:0: {}: {}", diag.severity.as_str(), diag.message);
        }
    }
    // A note at the same place as its error does not repeat the source line.
    for n in &diag.notes {
        render_inner(ir, n, buffer, out, n.loc != diag.loc);
    }
}

//! `-verify-diagnostics`: matches emitted diagnostics against
//! `// expected-error @+1 {{...}}` annotations, the way mlir-opt does.

use hivm_ir::diagnostics::{Severity, SourceBuffer};

pub struct Expected {
    pub severity: Severity,
    /// Line (original-file numbering) the diagnostic must be reported on; None for `@unknown`.
    pub line: Option<u32>,
    pub pattern: Pattern,
    pub text: String,
    /// Where the annotation sits, for "was not produced" reports.
    pub anno_line: u32,
    pub anno_col: u32,
    pub anno_len: usize,
    pub matched: bool,
}

pub enum Pattern {
    Substring(String),
    Regex(regex::Regex),
}

impl Pattern {
    fn matches(&self, msg: &str) -> bool {
        match self {
            Pattern::Substring(s) => msg.contains(s.as_str()),
            Pattern::Regex(r) => r.is_match(msg),
        }
    }
}

/// Turns `literal {{regex}} literal` into one regex, as `-re` annotations use.
fn build_regex(text: &str) -> Result<regex::Regex, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        out.push_str(&regex::escape(&rest[..i]));
        let after = &rest[i + 2..];
        let Some(j) = after.find("}}") else { return Err("found start of regex with no end '}}'".into()) };
        out.push('(');
        out.push_str(&after[..j]);
        out.push(')');
        rest = &after[j + 2..];
    }
    out.push_str(&regex::escape(rest));
    regex::Regex::new(&out).map_err(|e| e.to_string())
}

/// Scans a buffer for annotations. Errors in annotations are returned as
/// (line, col, message).
pub fn collect(buf: &SourceBuffer) -> Result<Vec<Expected>, (u32, u32, String)> {
    let mut out: Vec<Expected> = Vec::new();
    let mut pending_below: Vec<usize> = Vec::new();
    let lines: Vec<&str> = buf.text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let lineno = buf.first_line + i as u32 + 1;
        let Some(pos) = line.find("expected-") else {
            for idx in pending_below.drain(..) {
                out[idx].line = Some(lineno);
            }
            continue;
        };
        let rest = &line[pos + "expected-".len()..];
        let (severity, kind_len) = if rest.starts_with("error") {
            (Severity::Error, 5)
        } else if rest.starts_with("warning") {
            (Severity::Warning, 7)
        } else if rest.starts_with("remark") {
            (Severity::Remark, 6)
        } else if rest.starts_with("note") {
            (Severity::Note, 4)
        } else {
            continue;
        };
        let mut rest = &rest[kind_len..];
        let is_re = rest.starts_with("-re");
        if is_re {
            rest = &rest[3..];
        }
        rest = rest.trim_start();
        let mut target = Some(lineno);
        let mut below = false;
        if let Some(r) = rest.strip_prefix('@') {
            let end = r.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(r.len());
            let spec = &r[..end];
            rest = r[end..].trim_start();
            target = match spec {
                "above" => lineno.checked_sub(1),
                "below" => {
                    below = true;
                    None
                }
                "unknown" => None,
                s => {
                    let n: i64 =
                        s.parse().map_err(|_| (lineno, pos as u32 + 1, format!("expected offset after '@' in {s}")))?;
                    Some((lineno as i64 + n) as u32)
                }
            };
        }
        let Some(body) = rest.strip_prefix("{{") else {
            return Err((lineno, pos as u32 + 1, "expected '{{' in expected-* directive".into()));
        };
        let Some(end) = body.rfind("}}") else {
            return Err((lineno, pos as u32 + 1, "expected '}}' at end of expected-* directive".into()));
        };
        let text = body[..end].to_string();
        let text_len = text.len();
        let pattern = if is_re {
            Pattern::Regex(build_regex(&text).map_err(|e| (lineno, pos as u32 + 1, format!("invalid regex: {e}")))?)
        } else {
            Pattern::Substring(text.clone())
        };
        out.push(Expected {
            severity,
            line: target,
            pattern,
            text,
            anno_line: lineno,
            anno_col: pos as u32 + 1,
            anno_len: text_len,
            matched: false,
        });
        if below {
            pending_below.push(out.len() - 1);
        }
        let _ = lines.len();
    }
    Ok(out)
}

/// Tries to consume an expectation for an emitted diagnostic.
pub fn consume(exp: &mut [Expected], severity: Severity, line: Option<u32>, msg: &str) -> bool {
    for e in exp.iter_mut() {
        if !e.matched && e.severity == severity && e.line == line && e.pattern.matches(msg) {
            e.matched = true;
            return true;
        }
    }
    false
}

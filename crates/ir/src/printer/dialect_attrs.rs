//! Dialect attributes kept as text, printed as mlir-opt prints them: those
//! a dialect names an alias for (`#alias_scope = #llvm.alias_scope<...>`)
//! through that alias, nested ones included, and `distinct[N]` ids
//! renumbered in the order they are printed.

use crate::lexer::balanced_end;

/// One piece of a dialect attribute's body.
pub(crate) enum Piece<'a> {
    Text(&'a str),
    /// A nested dialect attribute, `#dialect.body`.
    Nested {
        dialect: &'a str,
        body: &'a str,
    },
    /// The number of a `distinct[N]` id.
    Distinct(&'a str),
}

/// Just past the string literal starting at `start` (a `"`).
fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < b.len() && b[i] != b'"' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(b.len())
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

/// Splits a body into text, nested dialect attributes and distinct ids.
pub(crate) fn pieces(body: &str) -> Vec<Piece<'_>> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut text_start) = (0, 0);
    while i < b.len() {
        let found = match b[i] {
            b'"' => {
                i = string_end(b, i);
                continue;
            }
            b'#' if b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') => {
                let mut j = i + 1;
                while j < b.len() && is_ident_char(b[j]) {
                    j += 1;
                }
                let ident = &body[i + 1..j];
                match ident.split_once('.') {
                    Some((dialect, _)) => {
                        let end = if b.get(j) == Some(&b'<') { balanced_end(b, j) } else { Some(j) };
                        end.map(|end| (end, Piece::Nested { dialect, body: &body[i + 2 + dialect.len()..end] }))
                    }
                    None => None,
                }
            }
            b'd' if body[i..].starts_with("distinct[") && (i == 0 || !is_ident_char(b[i - 1])) => {
                let digits = &body[i + 9..];
                let n = digits.bytes().take_while(u8::is_ascii_digit).count();
                (n > 0 && digits.as_bytes().get(n) == Some(&b']')).then(|| (i + 10 + n, Piece::Distinct(&digits[..n])))
            }
            _ => None,
        };
        match found {
            Some((end, piece)) => {
                if text_start < i {
                    out.push(Piece::Text(&body[text_start..i]));
                }
                out.push(piece);
                i = end;
                text_start = end;
            }
            None => i += 1,
        }
    }
    if text_start < b.len() {
        out.push(Piece::Text(&body[text_start..]));
    }
    out
}

/// The key a dialect attribute is known by.
pub(crate) fn key(dialect: &str, body: &str) -> String {
    format!("{dialect}.{body}")
}

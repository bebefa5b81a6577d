//! Tokens of a sparse-tensor attribute body, with their byte offsets so
//! diagnostics can point into the body (see `hivm_ir::dialect::error_at`).

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// A bare identifier (`d0`, `compressed`, `floordiv`, `i32`).
    Ident,
    /// A decimal or `0x` hexadecimal integer.
    Int,
    /// A decimal float literal (`1.0`, `2.5e-3`).
    Float,
    /// `#name` (`#sparse_tensor`, `#complex.number`).
    Hash,
    String,
    /// `->`
    Arrow,
    /// One punctuation character (`(`, `,`, `?`, ...).
    Punct(u8),
    Eof,
    /// A character no token starts with.
    Bad,
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

pub(super) struct Lexer<'a> {
    pub src: &'a str,
    pub tok: Tok,
    /// Where the previous token ended: MLIR reports a missing token just
    /// past what precedes it.
    pub prev_end: usize,
}

impl<'a> Lexer<'a> {
    /// Tokens of `src` from byte `start` on.
    pub fn new(src: &'a str, start: usize) -> Lexer<'a> {
        let mut l = Lexer { src, tok: Tok { kind: Kind::Eof, start, end: start }, prev_end: start };
        l.tok = l.scan(start);
        l
    }

    pub fn text(&self) -> &'a str {
        &self.src[self.tok.start..self.tok.end]
    }

    pub fn bump(&mut self) {
        self.prev_end = self.tok.end;
        self.tok = self.scan(self.tok.end);
    }

    pub fn is(&self, c: u8) -> bool {
        self.tok.kind == Kind::Punct(c)
    }

    pub fn consume(&mut self, c: u8) -> bool {
        let hit = self.is(c);
        if hit {
            self.bump();
        }
        hit
    }

    pub fn is_keyword(&self, kw: &str) -> bool {
        self.tok.kind == Kind::Ident && self.text() == kw
    }

    /// Where a diagnostic about a missing token goes: just past the
    /// previous token, or at the current one when nothing precedes it.
    pub fn wrong_token_pos(&self) -> usize {
        if self.prev_end == 0 { self.tok.start } else { self.prev_end }
    }

    fn scan(&self, mut i: usize) -> Tok {
        let b = self.src.as_bytes();
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if b[i..].starts_with(b"//") {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            break;
        }
        let start = i;
        let tok = |kind, end| Tok { kind, start, end };
        let Some(&c) = b.get(i) else { return tok(Kind::Eof, i) };
        let ident_char = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.');
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && ident_char(b[i]) {
                    i += 1;
                }
                tok(Kind::Ident, i)
            }
            b'#' => {
                i += 1;
                while i < b.len() && ident_char(b[i]) {
                    i += 1;
                }
                tok(if i > start + 1 { Kind::Hash } else { Kind::Bad }, i)
            }
            b'0'..=b'9' => {
                if b[i..].starts_with(b"0x") && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit) {
                    i += 2;
                    while i < b.len() && b[i].is_ascii_hexdigit() {
                        i += 1;
                    }
                    return tok(Kind::Int, i);
                }
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if b.get(i) != Some(&b'.') {
                    return tok(Kind::Int, i);
                }
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if matches!(b.get(i), Some(b'e' | b'E')) {
                    let mut j = i + 1;
                    if matches!(b.get(j), Some(b'+' | b'-')) {
                        j += 1;
                    }
                    if b.get(j).is_some_and(u8::is_ascii_digit) {
                        i = j;
                        while i < b.len() && b[i].is_ascii_digit() {
                            i += 1;
                        }
                    }
                }
                tok(Kind::Float, i)
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                tok(Kind::String, (i + 1).min(b.len()))
            }
            b'-' if b.get(i + 1) == Some(&b'>') => tok(Kind::Arrow, i + 2),
            b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'=' | b',' | b':' | b'*' | b'+' | b'-' | b'?' => {
                tok(Kind::Punct(c), i + 1)
            }
            _ => tok(Kind::Bad, i + self.src[i..].chars().next().map_or(1, char::len_utf8)),
        }
    }
}

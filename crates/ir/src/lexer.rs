//! MLIR tokenizer. Tokens are spans into the source; the parser reads their
//! text on demand and can rewind the lexer (needed for `4x8xf32` dimension lists).

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Tok {
    Eof,
    Error,
    BareIdent,
    /// `@foo` or `@"foo"`
    AtIdent,
    /// `#foo`
    HashIdent,
    /// `%foo`
    PercentIdent,
    /// `^foo`
    CaretIdent,
    /// `!foo`
    ExclaimIdent,
    Integer,
    Float,
    String,
    LParen,
    RParen,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Star,
    Plus,
    Minus,
    Ellipsis,
    Vertical,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
}

#[derive(Copy, Clone, Debug)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
}

pub struct Lexer<'a> {
    pub src: &'a [u8],
    pub pos: usize,
    /// Message for the last `Tok::Error`.
    pub error: Option<String>,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Lexer<'a> {
        Lexer { src, pos: 0, error: None }
    }

    fn peek(&self, off: usize) -> u8 {
        *self.src.get(self.pos + off).unwrap_or(&0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn tok(&self, kind: Tok, start: usize) -> Token {
        Token { kind, start: start as u32, end: self.pos as u32 }
    }

    fn err(&mut self, start: usize, msg: &str) -> Token {
        self.error = Some(msg.to_string());
        Token { kind: Tok::Error, start: start as u32, end: self.pos.max(start + 1).min(self.src.len()) as u32 }
    }

    fn skip_trivia(&mut self) {
        loop {
            match self.peek(0) {
                b' ' | b'\t' | b'\n' | b'\r' if !self.at_end() => self.pos += 1,
                b'/' if self.peek(1) == b'/' => {
                    while !self.at_end() && self.peek(0) != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let start = self.pos;
        if self.at_end() {
            return self.tok(Tok::Eof, start);
        }
        let c = self.peek(0);
        self.pos += 1;
        match c {
            b'(' => self.tok(Tok::LParen, start),
            b')' => self.tok(Tok::RParen, start),
            b'[' => self.tok(Tok::LSquare, start),
            b']' => self.tok(Tok::RSquare, start),
            b'{' => {
                if self.peek(0) == b'-' && self.peek(1) == b'#' {
                    self.pos += 2;
                    return self.tok(Tok::FileMetadataBegin, start);
                }
                self.tok(Tok::LBrace, start)
            }
            b'}' => self.tok(Tok::RBrace, start),
            b'<' => self.tok(Tok::Less, start),
            b'>' => self.tok(Tok::Greater, start),
            b',' => self.tok(Tok::Comma, start),
            b':' => self.tok(Tok::Colon, start),
            b'=' => self.tok(Tok::Equal, start),
            b'?' => self.tok(Tok::Question, start),
            b'*' => self.tok(Tok::Star, start),
            b'+' => self.tok(Tok::Plus, start),
            b'|' => self.tok(Tok::Vertical, start),
            b'-' => {
                if self.peek(0) == b'>' {
                    self.pos += 1;
                    return self.tok(Tok::Arrow, start);
                }
                self.tok(Tok::Minus, start)
            }
            b'.' => {
                if self.peek(0) == b'.' && self.peek(1) == b'.' {
                    self.pos += 2;
                    return self.tok(Tok::Ellipsis, start);
                }
                self.err(start, "unexpected character")
            }
            b'"' => self.lex_string(start),
            b'@' => {
                if self.peek(0) == b'"' {
                    self.pos += 1;
                    let t = self.lex_string(start);
                    if t.kind == Tok::Error {
                        return t;
                    }
                    return self.tok(Tok::AtIdent, start);
                }
                if !is_ident_start(self.peek(0)) {
                    // mlir-opt points at the character that is not one.
                    return self.err(start + 1, "@ identifier expected to start with letter or '_'");
                }
                while is_ident_char(self.peek(0)) || self.peek(0) == b'-' {
                    self.pos += 1;
                }
                self.tok(Tok::AtIdent, start)
            }
            b'#' => {
                if self.peek(0) == b'-' && self.peek(1) == b'}' {
                    self.pos += 2;
                    return self.tok(Tok::FileMetadataEnd, start);
                }
                self.lex_prefixed(start, Tok::HashIdent, "invalid attribute name")
            }
            b'%' => self.lex_prefixed(start, Tok::PercentIdent, "invalid SSA name"),
            b'^' => self.lex_prefixed(start, Tok::CaretIdent, "invalid block name"),
            b'!' => self.lex_prefixed(start, Tok::ExclaimIdent, "invalid type identifier"),
            b'0'..=b'9' => self.lex_number(start),
            c if is_ident_start(c) => {
                while is_ident_char(self.peek(0)) {
                    self.pos += 1;
                }
                self.tok(Tok::BareIdent, start)
            }
            _ => {
                // Consume a whole UTF-8 sequence so the caret lands on a character.
                while !self.at_end() && (self.peek(0) & 0xC0) == 0x80 {
                    self.pos += 1;
                }
                self.err(start, "unexpected character")
            }
        }
    }

    fn lex_prefixed(&mut self, start: usize, kind: Tok, msg: &str) -> Token {
        let c = self.peek(0);
        if c.is_ascii_digit() {
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        } else if is_ident_start(c) || matches!(c, b'$' | b'.' | b'-') {
            while is_suffix_char(self.peek(0)) {
                self.pos += 1;
            }
        } else if kind == Tok::HashIdent || kind == Tok::ExclaimIdent {
            if c == b'"' {
                // `#"quoted alias"` is not valid MLIR, but report it cleanly.
                return self.err(start, msg);
            }
            return self.err(start, msg);
        } else {
            return self.err(start, msg);
        }
        self.tok(kind, start)
    }

    fn lex_number(&mut self, start: usize) -> Token {
        let first = self.src[start];
        if first == b'0' && self.peek(0) == b'x' && self.peek(1).is_ascii_hexdigit() {
            self.pos += 1;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return self.tok(Tok::Integer, start);
        }
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek(0) != b'.' {
            return self.tok(Tok::Integer, start);
        }
        self.pos += 1;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.peek(0), b'e' | b'E')
            && (self.peek(1).is_ascii_digit() || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
        {
            self.pos += 2;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        self.tok(Tok::Float, start)
    }

    fn lex_string(&mut self, start: usize) -> Token {
        loop {
            if self.at_end() {
                return self.err(start, "expected '\"' in string literal");
            }
            let c = self.peek(0);
            self.pos += 1;
            match c {
                b'"' => return self.tok(Tok::String, start),
                b'\n' | b'\r' => {
                    self.pos -= 1;
                    return self.err(start, "expected '\"' in string literal");
                }
                b'\\' => {
                    let n = self.peek(0);
                    if matches!(n, b'"' | b'\\' | b'n' | b't') {
                        self.pos += 1;
                    } else if n.is_ascii_hexdigit() && self.peek(1).is_ascii_hexdigit() {
                        self.pos += 2;
                    } else {
                        return self.err(self.pos - 1, "unknown escape in string literal");
                    }
                }
                _ => {}
            }
        }
    }
}

/// Decodes the body of a string token (without quotes) into raw bytes.
pub fn unescape(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let n = body.get(i + 1).copied().unwrap_or(b'\\');
        match n {
            b'"' | b'\\' => {
                out.push(n);
                i += 2;
            }
            b'n' => {
                out.push(b'\n');
                i += 2;
            }
            b't' => {
                out.push(b'\t');
                i += 2;
            }
            _ => {
                let hex = std::str::from_utf8(&body[i + 1..(i + 3).min(body.len())]).unwrap_or("0");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
                i += 3;
            }
        }
    }
    out
}

/// End (exclusive) of the bracketed construct opening at byte `start` of
/// `bytes`, brackets of every kind balanced, or None if it is unbalanced.
/// Strings are skipped (a raw newline inside one ends the search, as the
/// lexer ends the string there); `->` is not a closer.
pub fn balanced_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth: Vec<u8> = Vec::new();
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            c @ (b'<' | b'(' | b'[' | b'{') => depth.push(c),
            b'>' if i > start && bytes[i - 1] == b'-' => {}
            c @ (b'>' | b')' | b']' | b'}') => {
                let open = match c {
                    b'>' => b'<',
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if depth.pop() != Some(open) {
                    return None;
                }
                if depth.is_empty() {
                    return Some(i + 1);
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        return None;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        let mut l = Lexer::new(s.as_bytes());
        let mut v = Vec::new();
        loop {
            let t = l.next_token();
            v.push(t.kind);
            if matches!(t.kind, Tok::Eof | Tok::Error) {
                return v;
            }
        }
    }

    #[test]
    fn lexes_mlir_punctuation_and_identifiers() {
        use Tok::*;
        assert_eq!(
            kinds("%0:2 = \"a.b\"(%x) -> @f ^bb0 !t #m 4x8 1.5e3 // c\n {-# #-}"),
            vec![
                PercentIdent,
                Colon,
                Integer,
                Equal,
                String,
                LParen,
                PercentIdent,
                RParen,
                Arrow,
                AtIdent,
                CaretIdent,
                ExclaimIdent,
                HashIdent,
                Integer,
                BareIdent,
                Float,
                FileMetadataBegin,
                FileMetadataEnd,
                Eof
            ]
        );
    }

    #[test]
    fn reports_unterminated_string() {
        assert_eq!(kinds("\"abc"), vec![Tok::Error]);
        assert_eq!(unescape(br#"a\0A\22\\"#), b"a\n\"\\".to_vec());
    }
}

//! Reading the bodies of Triton's layout attributes and types, which this
//! crate keeps as text: a small reader for the dictionary-like parameter
//! lists (`{sizePerThread = [1, 4], parent = #ttg.blocked<...>}`) and for
//! dimension lists (`32x16xf16`).

pub(crate) use hivm_ir::lexer::balanced_end;

/// One parameter value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Int(i64),
    Bool(bool),
    Str(String),
    List(Vec<Value>),
    /// A nested attribute, with its `#`: `#ttg.blocked<{...}>`.
    Attr(String),
}

struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl<'a> Reader<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) { Ok(()) } else { Err(format!("expected '{}'", c as char)) }
    }

    fn ident(&mut self) -> Option<&'a str> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'_' | b'$' | b'.' | b'-'))
        {
            self.i += 1;
        }
        (self.i > start).then(|| &self.text[start..self.i])
    }

    fn string(&mut self) -> Result<String, String> {
        // At the opening quote.
        let start = self.i + 1;
        let mut j = start;
        while j < self.s.len() && self.s[j] != b'"' {
            j += if self.s[j] == b'\\' { 2 } else { 1 };
        }
        if j >= self.s.len() {
            return Err("unterminated string".into());
        }
        self.i = j + 1;
        Ok(self.text[start..j].to_string())
    }

    fn value(&mut self, depth: u32) -> Result<Value, String> {
        if depth > 64 {
            return Err("attribute nested too deeply".into());
        }
        match self.peek() {
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            break;
                        }
                        self.expect(b',')?;
                    }
                }
                Ok(Value::List(items))
            }
            Some(b'"') => Ok(Value::Str(self.string()?)),
            Some(b'#') => {
                let start = self.i;
                self.i += 1;
                self.ident().ok_or("expected attribute name after '#'")?;
                if self.s.get(self.i) == Some(&b'<') {
                    self.i = balanced_end(self.s, self.i).ok_or("unbalanced '<' in attribute")?;
                }
                Ok(Value::Attr(self.text[start..self.i].to_string()))
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                    self.i += 1;
                }
                let v: i64 = self.text[start..self.i].parse().map_err(|_| "expected an integer".to_string())?;
                // A typed integer (`16 : i32`): the type does not matter here.
                let save = self.i;
                if self.eat(b':') {
                    match self.ident() {
                        Some(t) if t.starts_with(['i', 'u', 's']) || t == "index" => {}
                        _ => self.i = save,
                    }
                }
                Ok(Value::Int(v))
            }
            _ => match self.ident() {
                Some("true") => Ok(Value::Bool(true)),
                Some("false") => Ok(Value::Bool(false)),
                Some(w) => Err(format!("unexpected '{w}'")),
                None => Err("expected an attribute value".into()),
            },
        }
    }
}

/// `{key = value, ...}` (the whole text) as its entries, in order; keys
/// appear once.
pub(crate) fn parse_dict(text: &str) -> Result<Vec<(String, Value)>, String> {
    let mut r = Reader { s: text.as_bytes(), text, i: 0 };
    r.expect(b'{')?;
    let mut out: Vec<(String, Value)> = Vec::new();
    if !r.eat(b'}') {
        loop {
            let key = if r.peek() == Some(b'"') {
                r.string()?
            } else {
                r.ident().ok_or("expected attribute name")?.to_string()
            };
            let value = if r.eat(b'=') { r.value(0)? } else { Value::Bool(true) };
            if out.iter().any(|(k, _)| *k == key) {
                return Err(format!("duplicate key '{key}' in dictionary attribute"));
            }
            out.push((key, value));
            if r.eat(b'}') {
                break;
            }
            r.expect(b',')?;
        }
    }
    r.ws();
    if r.i != r.s.len() {
        return Err("unexpected text after the dictionary".into());
    }
    Ok(out)
}

/// `mnemonic<inner>` split into the mnemonic and `inner` (`None` when the
/// body has no parameters).
pub(crate) fn split_mnemonic(body: &str) -> Result<(&str, Option<&str>), String> {
    let body = body.trim();
    match body.find('<') {
        None => Ok((body, None)),
        Some(k) => {
            let inner =
                body[k + 1..].strip_suffix('>').ok_or_else(|| format!("expected '>' to close '{}'", &body[..k]))?;
            Ok((body[..k].trim(), Some(inner.trim())))
        }
    }
}

/// An array of integers, as unsigned values (Triton's `parseIntArrayAttr`).
pub(crate) fn uint_list(v: &Value, what: &str) -> Result<Vec<i64>, String> {
    let Value::List(items) = v else { return Err(format!("expected an array for {what}")) };
    items
        .iter()
        .map(|x| match x {
            Value::Int(n) if *n >= 0 => Ok(*n),
            Value::Int(_) => Err(format!("expected an unsigned integer value in {what}")),
            _ => Err(format!("expected an integer type in {what}")),
        })
        .collect()
}

pub(crate) fn uint(v: &Value, what: &str) -> Result<i64, String> {
    match v {
        Value::Int(n) if *n >= 0 => Ok(*n),
        Value::Int(_) => Err(format!("expected an unsigned integer value in {what}")),
        _ => Err(format!("expected an integer type in {what}")),
    }
}

/// `[1, 2]`.
pub(crate) fn list_text(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// Dimensions and what follows them: `32x16xf16` → `([32, 16], "f16")`.
pub(crate) fn split_dims(text: &str) -> Result<(Vec<i64>, &str), String> {
    let mut dims = Vec::new();
    let mut rest = text.trim_start();
    loop {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 || rest.as_bytes().get(n) != Some(&b'x') {
            break;
        }
        dims.push(rest[..n].parse::<i64>().map_err(|_| "dimension too large".to_string())?);
        rest = &rest[n + 1..];
    }
    Ok((dims, rest))
}

/// A type written inside another type's body, with MLIR's spacing.
pub(crate) fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_str = false;
    let mut pending_space = false;
    let mut prev = '\0';
    let mut chars = text.trim().chars().peekable();
    while let Some(c) = chars.next() {
        if in_str {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == '"' {
                in_str = false;
            }
            prev = c;
            continue;
        }
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        let closes = matches!(c, '>' | ')' | ']' | '}' | ',');
        let opened = matches!(prev, '<' | '(' | '[' | '{');
        if pending_space && !closes && !opened && prev != '\0' {
            out.push(' ');
        }
        pending_space = false;
        if c == '"' {
            in_str = true;
        }
        out.push(c);
        if c == ',' {
            out.push(' ');
            while chars.peek().is_some_and(|n| n.is_whitespace()) {
                chars.next();
            }
            prev = ' ';
            continue;
        }
        prev = c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dictionaries() {
        let d = parse_dict("{a = [1, 2], b = #ttg.blocked<{x = [1]}>, c = \"zN\", d = 16 : i32, e}").unwrap();
        assert_eq!(d[0].1, Value::List(vec![Value::Int(1), Value::Int(2)]));
        assert_eq!(d[1].1, Value::Attr("#ttg.blocked<{x = [1]}>".into()));
        assert_eq!(d[2].1, Value::Str("zN".into()));
        assert_eq!(d[3].1, Value::Int(16));
        assert_eq!(d[4].1, Value::Bool(true));
        assert!(parse_dict("{a = 1, a = 2}").is_err());
        assert!(parse_dict("{a = [1, }").is_err());
    }

    #[test]
    fn dims_and_spacing() {
        assert_eq!(split_dims("32x16xf16").unwrap(), (vec![32, 16], "f16"));
        assert_eq!(normalize(" tensor< 4x8xf32 ,#a >"), "tensor<4x8xf32, #a>");
        assert_eq!(normalize("(i32,i64) -> f32"), "(i32, i64) -> f32");
    }
}

//! The assembly-format language (MLIR's `assemblyFormat`) compiled into a
//! list of elements that both the parser and the printer walk.
//!
//! Supported: literals in backquotes (`` `ins` ``, `` `(` ``, `` ` ` ``),
//! `$operand`, `$attribute`, `$result`, `type($x)`, `qualified($attr)`,
//! `attr-dict`, `attr-dict-with-keyword`, `custom<Name>($a, ...)`,
//! optional groups `( ... $anchor^ ... )?` with an optional else group
//! `( ... ) : ( ... )?`, and `oilist(`kw` ... | `kw2` ...)`, clauses
//! led by a keyword, each at most once and in any order.

use super::OpSpec;

/// A variable of the op named in the format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Var {
    Operand(usize),
    Attr(usize),
    Result(usize),
    Region(usize),
}

#[derive(Clone, Debug)]
pub enum Elem {
    /// Keyword or punctuation, printed as written.
    Literal(&'static str),
    /// `` ` ` `` (true) forces a space; `` `` `` (false) suppresses one.
    Space(bool),
    Var(Var),
    Type(Var),
    Qualified(Var),
    AttrDict {
        keyword: bool,
    },
    /// `functional-type(operands, results)`: `(T1, T2) -> T3`.
    FunctionalType,
    /// `operands`: every operand, comma separated.
    AllOperands,
    /// `type(operands)` of an op with several operand groups.
    AllOperandTypes,
    Custom {
        index: usize,
        args: Vec<Var>,
    },
    /// Printed and parsed when `then[anchor]` is present; else `els`.
    Optional {
        then: Vec<Elem>,
        anchor: usize,
        els: Vec<Elem>,
    },
    /// `oilist(...)`: clauses each led by a keyword, written in any order,
    /// a clause printed when any variable in it is present.
    OIList {
        clauses: Vec<(&'static str, Vec<Elem>)>,
    },
}

#[derive(Debug, PartialEq)]
enum Tok {
    Literal(&'static str),
    Dollar(&'static str),
    Word(&'static str),
    Punct(char),
}

fn lex(src: &'static str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c == '`' {
            let end = src[i + 1..].find('`').ok_or("unterminated literal")? + i + 1;
            out.push(Tok::Literal(&src[i + 1..end]));
            i = end + 1;
        } else if c == '$' || c.is_ascii_alphabetic() || c == '_' {
            let start = if c == '$' { i + 1 } else { i };
            let mut j = start;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || (c != '$' && b[j] == b'-')) {
                j += 1;
            }
            let w = &src[start..j];
            out.push(if c == '$' { Tok::Dollar(w) } else { Tok::Word(w) });
            i = j;
        } else if "(),?^:<>|".contains(c) {
            out.push(Tok::Punct(c));
            i += 1;
        } else {
            return Err(format!("unexpected '{c}'"));
        }
    }
    Ok(out)
}

struct Compiler<'s> {
    toks: Vec<Tok>,
    pos: usize,
    spec: &'s OpSpec,
    /// The anchor of the group just read.
    anchor: Option<usize>,
}

pub fn compile(spec: &OpSpec) -> Result<Vec<Elem>, String> {
    let mut c = Compiler { toks: lex(spec.format)?, pos: 0, spec, anchor: None };
    let elems = c.elements(false)?;
    if c.pos != c.toks.len() {
        return Err("unbalanced ')'".into());
    }
    check_complete(spec, &elems)?;
    Ok(elems)
}

impl Compiler<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) { Ok(()) } else { Err(format!("expected '{c}' at token {}", self.pos)) }
    }

    fn var(&self, name: &str) -> Result<Var, String> {
        let s = self.spec;
        if let Some(i) = s.operands.iter().position(|o| o.name == name) {
            return Ok(Var::Operand(i));
        }
        if let Some(i) = s.attrs.iter().position(|a| a.name == name) {
            return Ok(Var::Attr(i));
        }
        if let Some(i) = s.results.iter().position(|r| r.name == name) {
            return Ok(Var::Result(i));
        }
        if let Some(i) = s.regions.iter().position(|r| *r == name) {
            return Ok(Var::Region(i));
        }
        Err(format!("unknown variable '${name}'"))
    }

    fn dollar(&mut self) -> Result<Var, String> {
        match self.peek() {
            Some(Tok::Dollar(n)) => {
                let n = *n;
                self.pos += 1;
                self.var(n)
            }
            _ => Err(format!("expected a variable at token {}", self.pos)),
        }
    }

    /// Elements up to a ')' (left unconsumed) or the end.
    fn elements(&mut self, nested: bool) -> Result<Vec<Elem>, String> {
        let mut out = Vec::new();
        let mut anchor = None;
        while let Some(t) = self.peek() {
            let e = match t {
                Tok::Punct(')') | Tok::Punct('|') if nested => break,
                Tok::Literal(l) => {
                    let l = *l;
                    self.pos += 1;
                    match l {
                        "" => Elem::Space(false),
                        " " => Elem::Space(true),
                        _ => Elem::Literal(l),
                    }
                }
                Tok::Dollar(_) => Elem::Var(self.dollar()?),
                Tok::Word("type") => {
                    self.pos += 1;
                    self.expect('(')?;
                    // `type(results)` / `type(operands)` name the op's one
                    // group, or all its operands.
                    let e = match self.peek() {
                        Some(Tok::Word("results")) if self.spec.results.len() == 1 => {
                            self.pos += 1;
                            Elem::Type(Var::Result(0))
                        }
                        Some(Tok::Word("operands")) if self.spec.operands.len() == 1 => {
                            self.pos += 1;
                            Elem::Type(Var::Operand(0))
                        }
                        Some(Tok::Word("operands")) => {
                            self.pos += 1;
                            Elem::AllOperandTypes
                        }
                        _ => match self.dollar()? {
                            Var::Attr(_) | Var::Region(_) => return Err("type() of an attribute or region".into()),
                            v => Elem::Type(v),
                        },
                    };
                    self.expect(')')?;
                    e
                }
                Tok::Word("qualified") => {
                    self.pos += 1;
                    self.expect('(')?;
                    let v = self.dollar()?;
                    self.expect(')')?;
                    Elem::Qualified(v)
                }
                Tok::Word("operands") => {
                    self.pos += 1;
                    if self.spec.operands.iter().any(|o| o.arity != super::Arity::One) {
                        return Err("`operands` needs single operand groups".into());
                    }
                    Elem::AllOperands
                }
                Tok::Word("functional-type") => {
                    self.pos += 1;
                    self.expect('(')?;
                    let ok = matches!(self.peek(), Some(Tok::Word("operands")));
                    self.pos += 1;
                    self.expect(',')?;
                    let ok2 = matches!(self.peek(), Some(Tok::Word("results")));
                    self.pos += 1;
                    self.expect(')')?;
                    if !(ok && ok2) {
                        return Err("only functional-type(operands, results) is supported".into());
                    }
                    Elem::FunctionalType
                }
                Tok::Word("oilist") => {
                    self.pos += 1;
                    self.expect('(')?;
                    let mut clauses = Vec::new();
                    loop {
                        let Some(Tok::Literal(kw)) = self.peek() else {
                            return Err("an oilist clause must start with a keyword".into());
                        };
                        let kw = *kw;
                        self.pos += 1;
                        let body = self.elements(true)?;
                        if self.anchor.take().is_some() {
                            return Err("anchor inside an oilist clause".into());
                        }
                        clauses.push((kw, body));
                        if !self.eat('|') {
                            break;
                        }
                    }
                    self.expect(')')?;
                    Elem::OIList { clauses }
                }
                Tok::Word("attr-dict") => {
                    self.pos += 1;
                    Elem::AttrDict { keyword: false }
                }
                Tok::Word("attr-dict-with-keyword") => {
                    self.pos += 1;
                    Elem::AttrDict { keyword: true }
                }
                Tok::Word("custom") => {
                    self.pos += 1;
                    self.expect('<')?;
                    let Some(Tok::Word(name)) = self.peek() else { return Err("expected custom<Name>".into()) };
                    let name = *name;
                    self.pos += 1;
                    self.expect('>')?;
                    let index = self
                        .spec
                        .customs
                        .iter()
                        .position(|c| c.name == name)
                        .ok_or(format!("no custom directive '{name}'"))?;
                    self.expect('(')?;
                    let mut args = vec![self.dollar()?];
                    while self.eat(',') {
                        args.push(self.dollar()?);
                    }
                    self.expect(')')?;
                    Elem::Custom { index, args }
                }
                Tok::Punct('(') => {
                    self.pos += 1;
                    let (then, a) = self.group()?;
                    self.expect(')')?;
                    let mut els = Vec::new();
                    if self.eat(':') {
                        self.expect('(')?;
                        els = self.elements(true)?;
                        self.expect(')')?;
                    }
                    self.expect('?')?;
                    Elem::Optional { then, anchor: a, els }
                }
                t => return Err(format!("unexpected {t:?}")),
            };
            out.push(e);
            if self.eat('^') {
                if !nested {
                    return Err("anchor outside an optional group".into());
                }
                anchor = Some(out.len() - 1);
            }
        }
        self.anchor = anchor;
        Ok(out)
    }

    fn group(&mut self) -> Result<(Vec<Elem>, usize), String> {
        let then = self.elements(true)?;
        let a = self.anchor.take().ok_or("optional group without an anchor")?;
        if then.is_empty() {
            return Err("empty optional group".into());
        }
        Ok((then, a))
    }
}

/// Every operand, result type and required attribute must be written
/// somewhere (or have a fixed type / be inferred) for parsing to rebuild it.
fn check_complete(spec: &OpSpec, elems: &[Elem]) -> Result<(), String> {
    let mut seen = Vec::new();
    let mut in_custom = Vec::new();
    let mut dict = false;
    walk(elems, &mut |e| match e {
        Elem::Var(v) | Elem::Qualified(v) => seen.push((*v, false)),
        Elem::Type(v) => seen.push((*v, true)),
        Elem::Custom { args, .. } => {
            // A custom directive parses whatever it names, types included.
            seen.extend(args.iter().flat_map(|v| [(*v, false), (*v, true)]));
            in_custom.extend(args.iter().copied());
        }
        Elem::AttrDict { .. } => dict = true,
        Elem::FunctionalType => {
            seen.extend((0..spec.operands.len()).map(|i| (Var::Operand(i), true)));
            seen.extend((0..spec.results.len()).map(|i| (Var::Result(i), true)));
        }
        Elem::AllOperands => seen.extend((0..spec.operands.len()).map(|i| (Var::Operand(i), false))),
        Elem::AllOperandTypes => seen.extend((0..spec.operands.len()).map(|i| (Var::Operand(i), true))),
        _ => {}
    });
    for (i, o) in spec.operands.iter().enumerate() {
        let v = Var::Operand(i);
        if !seen.contains(&(v, false)) {
            return Err(format!("operand '{}' is not in the format", o.name));
        }
        if o.fixed.is_none() && o.like.is_none() && !seen.contains(&(v, true)) {
            return Err(format!("type of operand '{}' is not in the format", o.name));
        }
    }
    if spec.infer.is_none() {
        for (i, r) in spec.results.iter().enumerate() {
            if r.like.is_none() && r.fixed.is_none() && !seen.contains(&(Var::Result(i), true)) {
                return Err(format!("type of result '{}' is not in the format", r.name));
            }
        }
    }
    for (i, r) in spec.regions.iter().enumerate() {
        if !seen.contains(&(Var::Region(i), false)) {
            return Err(format!("region '{r}' is not in the format"));
        }
    }
    for (i, a) in spec.attrs.iter().enumerate() {
        let v = Var::Attr(i);
        if !dict && !seen.iter().any(|(s, _)| *s == v) {
            return Err(format!("attribute '{}' is not in the format and there is no attr-dict", a.name));
        }
        if a.kind.is_unit_like() && seen.contains(&(v, false)) && !in_custom.contains(&v) && !is_anchor(elems, v) {
            return Err(format!("unit attribute '{}' outside an optional group anchor", a.name));
        }
    }
    Ok(())
}

fn is_anchor(elems: &[Elem], v: Var) -> bool {
    elems.iter().any(|e| match e {
        Elem::Optional { then, anchor, els } => {
            matches!(then[*anchor], Elem::Var(x) if x == v) || is_anchor(then, v) || is_anchor(els, v)
        }
        _ => false,
    })
}

pub fn walk(elems: &[Elem], f: &mut dyn FnMut(&Elem)) {
    for e in elems {
        f(e);
        if let Elem::Optional { then, els, .. } = e {
            walk(then, f);
            walk(els, f);
        }
        if let Elem::OIList { clauses } = e {
            for (_, body) in clauses {
                walk(body, f);
            }
        }
    }
}

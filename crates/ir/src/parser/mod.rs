//! Recursive-descent parser for MLIR's textual format: the generic op form,
//! registered custom forms (through [`crate::dialect::ParseFn`]), regions,
//! blocks, SSA scoping with forward references, aliases and locations.

mod attrs;
pub use attrs::SsaAffineOperands;
mod types;
pub use attrs::float_bits;

use rustc_hash::FxHashMap as HashMap;

use crate::attrs::{AttrData, Attribute, LocData, Sym};
use crate::dialect::Traits;
use crate::ir::{BlockId, Ir, OpId, OperationState, RegionId, Value, ValueDef};
use crate::lexer::{Lexer, Tok, Token, unescape};
use crate::types::Type;

#[derive(Clone, Debug)]
pub struct ParseError {
    pub pos: u32,
    pub msg: String,
    pub notes: Vec<(u32, String)>,
}

pub type PResult<T> = Result<T, Box<ParseError>>;

/// An SSA use not yet resolved to a value: `%name` or `%name#N`. `name` is a
/// parser-local id of the spelled name (see [`Parser::ssa_name`]).
#[derive(Clone, Debug)]
pub struct UnresolvedOperand {
    pub name: u32,
    pub number: u32,
    pub pos: u32,
}

impl UnresolvedOperand {
    /// A placeholder for an unnamed argument (e.g. in a function declaration).
    pub const NONE: UnresolvedOperand = UnresolvedOperand { name: u32::MAX, number: 0, pos: 0 };
}

/// What a custom op parser produces; the framework turns it into an op.
pub struct OpParseResult {
    pub name: Sym,
    pub loc: Attribute,
    /// Position of the op name, for diagnostics about the op as a whole.
    pub pos: u32,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub attrs: Vec<(Sym, Attribute)>,
    pub properties: Option<Attribute>,
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
}

/// An argument declared in a custom op header that becomes an entry block argument.
#[derive(Clone, Debug)]
pub struct RegionArg {
    pub name: UnresolvedOperand,
    pub ty: Type,
    pub loc: Option<Attribute>,
}

/// A defined name: `count` values starting at `first` (results and block
/// arguments are allocated contiguously).
struct Definition {
    first: Value,
    count: u32,
    /// The `#N` of `first`: 0 but for a region argument that takes an
    /// operand's name (`%r#1`), which only that number reaches.
    number: u32,
    pos: u32,
}

#[derive(Default)]
struct IsolatedScope {
    /// Name id → its definition (names are unique per isolated scope; those of a
    /// nested region are removed when it closes).
    values: HashMap<u32, Definition>,
    /// Names defined per open non-isolated region, to drop when it closes.
    region_defs: Vec<Vec<u32>>,
    /// Forward references: (name id, number) → (placeholder, first use position).
    forward: HashMap<(u32, u32), (Value, u32)>,
}

struct BlockScope {
    labels: HashMap<String, (BlockId, bool, u32)>,
}

pub struct Parser<'a> {
    pub ir: &'a mut Ir,
    lex: Lexer<'a>,
    pub tok: Token,
    src: &'a str,
    file: Sym,
    first_line: u32,
    /// Column where the text starts on its first line (after a `// -----`
    /// marker when splitting), so columns and the module's location match mlir-opt.
    first_col: u32,
    /// Incremental line tracking: (byte offset, 1-based line, offset of that line's start).
    line_cursor: std::cell::Cell<(u32, u32, u32)>,
    /// Called now and then with the parse position (lets the driver release input pages).
    progress: Option<Box<dyn FnMut(usize) + 'a>>,
    ops_parsed: u32,
    attr_aliases: HashMap<String, Attribute>,
    type_aliases: HashMap<String, Type>,
    scopes: Vec<IsolatedScope>,
    block_scopes: Vec<BlockScope>,
    /// Uses of placeholders: placeholder → (op, operand index).
    forward_uses: HashMap<Value, Vec<(OpId, usize)>>,
    /// `loc(#alias)` uses before the alias is defined: name and position,
    /// indexed by `LocData::Deferred`.
    deferred_locs: Vec<(&'a str, u32)>,
    default_dialect: Vec<&'static str>,
    /// Names of the custom ops being parsed (innermost last).
    custom_ops: Vec<Sym>,
    /// SSA names as spelled (with `%`), interned per parse without copying.
    /// Entries carry the full hash so probing never compares the spelled
    /// names themselves (which would fault released input pages back in).
    ssa_ids: hashbrown::HashTable<(u64, u32)>,
    ssa_names: Vec<&'a str>,
    /// The result names written before the op being parsed (`%a, %b:2 =`):
    /// name id and count, for custom parsers that read them.
    pending_results: Vec<(u32, u32)>,
    /// Attributes and types by exact spelling: kernels repeat the same few
    /// (`tensor<64xf32>`, `#hivm.pipe<PIPE_V>`, property dictionaries), and
    /// their meaning depends only on the text (aliases are fixed once defined).
    pub(crate) attr_spellings: HashMap<&'a str, Attribute>,
    pub(crate) type_spellings: HashMap<&'a str, Type>,
    /// Current nesting of recursive constructs, bounded by [`MAX_NESTING`].
    depth: u32,
}

/// Deeper input is rejected with a diagnostic instead of exhausting the stack.
pub const MAX_NESTING: u32 = 1000;

/// Dialects whose op definitions mirror MLIR's property lists exactly, so a
/// `<{...}>` on an op without inherent attributes is rejected as mlir-opt
/// does. (HIVM ops are not checked: bishengir's lists are the authority.)
const UPSTREAM_DIALECTS: &[&str] =
    &["builtin", "func", "arith", "scf", "cf", "memref", "tensor", "bufferization", "linalg", "affine"];

fn err<T>(pos: u32, msg: impl Into<String>) -> PResult<T> {
    Err(Box::new(ParseError { pos, msg: msg.into(), notes: Vec::new() }))
}

impl<'a> Parser<'a> {
    pub fn new(ir: &'a mut Ir, src: &'a str, file: &str, first_line: u32) -> Parser<'a> {
        let file = ir.sym(file);
        let mut lex = Lexer::new(src.as_bytes());
        let tok = lex.next_token();
        Parser {
            ir,
            lex,
            tok,
            src,
            file,
            first_line,
            first_col: 0,
            line_cursor: std::cell::Cell::new((0, 1, 0)),
            progress: None,
            ops_parsed: 0,
            attr_aliases: HashMap::default(),
            type_aliases: HashMap::default(),
            scopes: Vec::new(),
            block_scopes: Vec::new(),
            forward_uses: HashMap::default(),
            deferred_locs: Vec::new(),
            default_dialect: vec!["builtin"],
            custom_ops: Vec::new(),
            ssa_ids: hashbrown::HashTable::new(),
            ssa_names: Vec::new(),
            pending_results: Vec::new(),
            attr_spellings: HashMap::default(),
            type_spellings: HashMap::default(),
            depth: 0,
        }
    }

    /// Reads a whole type from `text` (a member of an aggregate type kept
    /// as text, say), in this parser's context.
    pub fn parse_type_text(&mut self, text: &str) -> PResult<crate::types::Type> {
        let allow = self.ir.allow_unregistered;
        let mut sub = Parser::new(self.ir, text, "<type>", 1);
        sub.ir.allow_unregistered = allow;
        let t = sub.parse_type()?;
        if sub.tok.kind != Tok::Eof {
            return err(sub.pos(), "expected end of type");
        }
        Ok(t)
    }

    fn ssa_id(&mut self, name: &'a str) -> u32 {
        use std::hash::BuildHasher;
        let hash = rustc_hash::FxBuildHasher.hash_one(name);
        let names = &self.ssa_names;
        let found = self.ssa_ids.find(hash, |&(h, id)| h == hash && names[id as usize] == name);
        if let Some(&(_, id)) = found {
            return id;
        }
        let id = self.ssa_names.len() as u32;
        self.ssa_names.push(name);
        self.ssa_ids.insert_unique(hash, (hash, id), |&(h, _)| h);
        id
    }

    /// The spelling (`%name`) of an operand's name.
    pub fn ssa_name(&self, u: &UnresolvedOperand) -> &'a str {
        self.ssa_names.get(u.name as usize).copied().unwrap_or("")
    }

    // ----- token helpers -----

    pub fn text(&self) -> &'a str {
        &self.src[self.tok.start as usize..self.tok.end as usize]
    }

    pub fn pos(&self) -> u32 {
        self.tok.start
    }

    pub fn bump(&mut self) {
        self.tok = self.lex.next_token();
    }

    /// Runs `f` one nesting level deeper, failing cleanly past [`MAX_NESTING`].
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return self.error(format!("nesting is deeper than {MAX_NESTING} levels"));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// End (exclusive) of the bracketed construct opening at byte `start`, or
    /// None if it is unbalanced. Strings are skipped; `->` is not a closer.
    pub(crate) fn balanced_end(&self, start: usize) -> Option<usize> {
        crate::lexer::balanced_end(self.src.as_bytes(), start)
    }

    /// Re-lexes starting at byte `offset`.
    pub(crate) fn reset_to(&mut self, offset: u32) {
        self.lex.pos = offset as usize;
        self.tok = self.lex.next_token();
    }

    pub fn is(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    pub fn is_keyword(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareIdent && self.text() == kw
    }

    /// An error from a custom op's own parser at `pos`, prefixed as MLIR's
    /// custom-op parser prefixes them: `custom op 'NAME' MESSAGE`.
    pub fn op_error_at<T>(&self, pos: u32, msg: impl Into<String>) -> PResult<T> {
        match self.custom_ops.last() {
            Some(name) => err(pos, format!("custom op '{}' {}", self.ir.sym_str(*name), msg.into())),
            None => err(pos, msg),
        }
    }

    pub fn error<T>(&self, msg: impl Into<String>) -> PResult<T> {
        if self.tok.kind == Tok::Error {
            return err(self.tok.start, self.lex.error.clone().unwrap_or_else(|| "unexpected character".into()));
        }
        err(self.tok.start, msg)
    }

    pub fn error_at<T>(&self, pos: u32, msg: impl Into<String>) -> PResult<T> {
        err(pos, msg)
    }

    /// An error about the current token being the wrong one, placed where
    /// mlir-opt places those: just past the previous token, backing up over
    /// blanks, blank lines and a `//` comment ending the previous line (at
    /// the end of the input, the search starts one character back).
    pub fn wrong_token_error<T>(&self, msg: impl Into<String>) -> PResult<T> {
        if self.tok.kind == Tok::Error {
            return self.error(msg);
        }
        err(self.wrong_token_pos(), msg)
    }

    fn wrong_token_pos(&self) -> u32 {
        let bytes = self.src.as_bytes();
        let mut start = self.tok.start as usize;
        if self.tok.kind == Tok::Eof {
            start = start.saturating_sub(1);
        }
        let mut end = start;
        loop {
            while end > 0 && matches!(bytes[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            if end == 0 {
                return start as u32;
            }
            if !matches!(bytes[end - 1], b'\n' | b'\r') {
                return end as u32;
            }
            end -= 1;
            // A `//` on the previous line starts a comment: report before it.
            let line = bytes[..end].iter().rposition(|b| matches!(b, b'\n' | b'\r')).unwrap_or(0);
            if let Some(c) = bytes[line..end].windows(2).position(|w| w == b"//") {
                end = line + c;
            }
        }
    }

    pub fn consume_if(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, k: Tok, what: &str) -> PResult<()> {
        if self.consume_if(k) { Ok(()) } else { self.wrong_token_error(format!("expected {what}")) }
    }

    pub fn parse_optional_keyword(&mut self, kw: &str) -> bool {
        if self.is_keyword(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn expect_keyword(&mut self, kw: &str) -> PResult<()> {
        if self.parse_optional_keyword(kw) { Ok(()) } else { self.error(format!("expected '{kw}'")) }
    }

    /// Any bare identifier or keyword.
    pub fn parse_keyword(&mut self, what: &str) -> PResult<&'a str> {
        if self.tok.kind == Tok::BareIdent {
            let t = self.text();
            self.bump();
            Ok(t)
        } else {
            self.error(format!("expected {what}"))
        }
    }

    /// Comma-separated list between delimiters (or undelimited when `open` is None).
    pub fn parse_comma_list(
        &mut self,
        open: Option<(Tok, Tok)>,
        what: &str,
        f: &mut dyn FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        match open {
            None => loop {
                f(self)?;
                if !self.consume_if(Tok::Comma) {
                    return Ok(());
                }
            },
            Some((l, r)) => {
                if !self.consume_if(l) {
                    if what.is_empty() {
                        let opener = match l {
                            Tok::LParen => "'('",
                            Tok::LSquare => "'['",
                            Tok::Less => "'<'",
                            _ => "'{'",
                        };
                        return self.error(format!("expected {opener}"));
                    }
                    return self.error(format!("expected {what}"));
                }
                if self.consume_if(r) {
                    return Ok(());
                }
                loop {
                    f(self)?;
                    if self.consume_if(r) {
                        return Ok(());
                    }
                    if !self.consume_if(Tok::Comma) {
                        let closer = match r {
                            Tok::RParen => "')'",
                            Tok::RSquare => "']'",
                            Tok::Greater => "'>'",
                            _ => "'}'",
                        };
                        // As MLIR: the closer and the list's context, if it
                        // has one ("expected '}' in attribute dictionary");
                        // an array attribute's own wording.
                        return self.wrong_token_error(match what {
                            "" => format!("expected {closer}"),
                            "array attribute" => format!("expected ',' or {closer}"),
                            _ => format!("expected {closer} in {what}"),
                        });
                    }
                }
            }
        }
    }

    pub fn parse_string(&mut self, what: &str) -> PResult<Vec<u8>> {
        if !self.is(Tok::String) {
            return self.error(format!("expected {what}"));
        }
        let t = self.text();
        let v = unescape(&t.as_bytes()[1..t.len() - 1]);
        self.bump();
        Ok(v)
    }

    pub fn parse_utf8_string(&mut self, what: &str) -> PResult<String> {
        let pos = self.pos();
        let v = self.parse_string(what)?;
        String::from_utf8(v).or_else(|_| err(pos, "expected valid UTF-8 string"))
    }

    // ----- locations -----

    /// Line and column of a byte offset. Positions mostly move forward, so the
    /// newline count is kept incrementally instead of indexing the whole input.
    pub fn line_col(&self, pos: u32) -> (u32, u32) {
        let (mut off, mut line, mut line_start) = self.line_cursor.get();
        if pos < off {
            (off, line, line_start) = (0, 1, 0);
        }
        let bytes = &self.src.as_bytes()[off as usize..pos as usize];
        // Counting with a filter vectorizes; the last newline fixes the column.
        let newlines = bytes.iter().filter(|b| **b == b'\n').count() as u32;
        if newlines > 0 {
            line += newlines;
            line_start = off + bytes.iter().rposition(|b| *b == b'\n').unwrap() as u32 + 1;
        }
        self.line_cursor.set((pos, line, line_start));
        let shift = if line == 1 { self.first_col } else { 0 };
        (line + self.first_line, pos - line_start + 1 + shift)
    }

    /// Declares that the text starts at column `col + 1` of its first line.
    pub fn set_first_col(&mut self, col: u32) {
        self.first_col = col;
    }

    /// Installs a callback invoked every few thousand ops with the current offset.
    pub fn set_progress_hook(&mut self, f: Box<dyn FnMut(usize) + 'a>) {
        self.progress = Some(f);
    }

    pub fn loc_at(&mut self, pos: u32) -> Attribute {
        let (line, col) = self.line_col(pos);
        self.ir.file_line_col(self.file, line, col)
    }

    // ----- SSA values -----

    pub fn parse_operand(&mut self) -> PResult<UnresolvedOperand> {
        if !self.is(Tok::PercentIdent) {
            return self.error("expected SSA operand");
        }
        let pos = self.pos();
        let name = self.ssa_id(self.text());
        self.bump();
        let mut number = 0;
        if self.is(Tok::HashIdent) {
            let t = &self.text()[1..];
            match t.parse::<u32>() {
                Ok(n) => number = n,
                Err(_) => return self.error("invalid SSA value result number"),
            }
            self.bump();
        }
        Ok(UnresolvedOperand { name, number, pos })
    }

    pub fn parse_optional_operand(&mut self) -> PResult<Option<UnresolvedOperand>> {
        if self.is(Tok::PercentIdent) { self.parse_operand().map(Some) } else { Ok(None) }
    }

    pub fn parse_operand_list(&mut self) -> PResult<Vec<UnresolvedOperand>> {
        let mut v = Vec::new();
        if !self.is(Tok::PercentIdent) {
            return Ok(v);
        }
        self.parse_comma_list(None, "operand list", &mut |p| {
            v.push(p.parse_operand()?);
            Ok(())
        })?;
        Ok(v)
    }

    /// Resolves a use against the current scope, creating a forward reference if needed.
    pub fn resolve_operand(&mut self, u: &UnresolvedOperand, ty: Type) -> PResult<Value> {
        let scope = self.scopes.last_mut().expect("no value scope");
        let found = scope.values.get(&u.name).map(|d| (d.first, d.count, d.number));
        let v = match found {
            Some((first, count, number)) => {
                if u.number < number || u.number - number >= count {
                    return err(u.pos, "reference to invalid result number");
                }
                self.ir.value_offset(first, u.number - number)
            }
            None => match scope.forward.get(&(u.name, u.number)) {
                Some(&(v, _)) => v,
                None => {
                    let v = self.ir.new_placeholder(ty);
                    self.scopes.last_mut().unwrap().forward.insert((u.name, u.number), (v, u.pos));
                    return Ok(v);
                }
            },
        };
        let vt = self.ir.value_type(v);
        if vt != ty {
            let (a, b) = (self.type_str(ty), self.type_str(vt));
            let name = self.ssa_name(u);
            return err(u.pos, format!("use of value '{name}' expects different type than prior uses: '{a}' vs '{b}'"));
        }
        Ok(v)
    }

    pub fn resolve_operands(&mut self, us: &[UnresolvedOperand], tys: &[Type], pos: u32) -> PResult<Vec<Value>> {
        if us.len() != tys.len() {
            return err(pos, format!("{} operands present, but expected {}", us.len(), tys.len()));
        }
        us.iter().zip(tys).map(|(u, t)| self.resolve_operand(u, *t)).collect()
    }

    pub fn type_str(&self, ty: Type) -> String {
        crate::printer::type_to_string(self.ir, ty)
    }

    pub fn attr_str(&self, a: Attribute) -> String {
        crate::printer::attr_to_string(self.ir, a)
    }

    /// Binds `name` to `count` consecutive values starting at `first`.
    fn define_values(&mut self, name: u32, number: u32, first: Value, count: u32, pos: u32) -> PResult<()> {
        let spelled = self.ssa_names.get(name as usize).copied().unwrap_or("");
        let scope = self.scopes.last_mut().expect("no value scope");
        if let Some(prev) = scope.values.get(&name) {
            let prev_pos = prev.pos;
            return Err(Box::new(ParseError {
                pos,
                msg: format!("redefinition of SSA value '{spelled}'"),
                notes: vec![(prev_pos, "previously defined here".into())],
            }));
        }
        if !scope.forward.is_empty() {
            for i in 0..count {
                let Some((ph, use_pos)) = self.scopes.last_mut().unwrap().forward.remove(&(name, number + i)) else {
                    continue;
                };
                let v = self.ir.value_offset(first, i);
                let (pt, vt) = (self.ir.value_type(ph), self.ir.value_type(v));
                if pt != vt {
                    let (a, b) = (self.type_str(vt), self.type_str(pt));
                    return Err(Box::new(ParseError {
                        pos,
                        msg: format!("definition of SSA value '{spelled}#{i}' has type '{a}'"),
                        notes: vec![(use_pos, format!("previously used here with type '{b}'"))],
                    }));
                }
                for (op, idx) in self.forward_uses.remove(&ph).unwrap_or_default() {
                    self.ir.set_operand(op, idx, v);
                }
            }
        }
        let scope = self.scopes.last_mut().unwrap();
        if let Some(r) = scope.region_defs.last_mut() {
            r.push(name);
        }
        scope.values.insert(name, Definition { first, count, number, pos });
        Ok(())
    }

    fn note_forward_uses(&mut self, op: OpId) {
        for (i, &v) in self.ir.operands(op).iter().enumerate() {
            if self.ir.value_def(v) == ValueDef::Placeholder {
                self.forward_uses.entry(v).or_default().push((op, i));
            }
        }
    }

    fn push_isolated_scope(&mut self) {
        self.scopes.push(IsolatedScope::default());
    }

    fn pop_isolated_scope(&mut self) -> PResult<()> {
        let scope = self.scopes.pop().expect("scope underflow");
        if let Some((_, (_, pos))) = scope.forward.iter().min_by_key(|(_, (_, p))| *p) {
            return err(*pos, "use of undeclared SSA value name");
        }
        Ok(())
    }

    // ----- top level -----

    /// Parses a whole buffer into a `builtin.module` (implicit if needed).
    pub fn parse_module(&mut self) -> PResult<OpId> {
        self.push_isolated_scope();
        self.block_scopes.push(BlockScope { labels: HashMap::default() });
        let block = self.ir.create_block();
        loop {
            match self.tok.kind {
                Tok::Eof => break,
                Tok::HashIdent if self.peek_is_alias_def() => self.parse_attr_alias_def()?,
                Tok::ExclaimIdent if self.peek_is_alias_def() => self.parse_type_alias_def()?,
                Tok::FileMetadataBegin => self.skip_file_metadata()?,
                Tok::Error => return self.error(""),
                _ => {
                    let op = self.parse_operation()?;
                    self.ir.append_op(block, op);
                }
            }
        }
        self.pop_isolated_scope()?;
        let labels = self.block_scopes.pop().map(|s| s.labels).unwrap_or_default();
        // The top level has no blocks to branch to.
        if let Some((_, _, pos)) = labels.values().min_by_key(|(_, _, p)| *p) {
            return err(*pos, "reference to an undefined block");
        }
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        if !self.deferred_locs.is_empty() {
            self.resolve_deferred_locs(&ops)?;
        }
        if let [only] = ops[..]
            && self.ir.op_name(only) == "builtin.module"
        {
            self.ir.detach_op(only);
            return Ok(only);
        }
        let region = self.ir.new_region();
        self.ir.push_block(region, block);
        let name = self.ir.sym("builtin.module");
        // mlir-opt locates an implicit module at the start of its buffer; a
        // whole file's buffer is reported as 0:0.
        let (line, col) = if self.first_col == 0 { (0, 0) } else { (self.first_line + 1, self.first_col + 1) };
        let loc = self.ir.attr(AttrData::Location(LocData::FileLineCol { file: self.file, line, col }));
        let mut st = OperationState::new(name, loc);
        st.regions.push(region);
        st.properties = Some(self.ir.empty_dict());
        Ok(self.ir.create_op(st))
    }

    /// Replaces the locations of ops and block arguments that named an alias
    /// before its definition. Like mlir-opt, it walks children before parents
    /// (an op's block arguments right after the op) and stops at the first
    /// alias that is undefined or not a location.
    fn resolve_deferred_locs(&mut self, top: &[OpId]) -> PResult<()> {
        let mut resolved: Vec<Option<Attribute>> = vec![None; self.deferred_locs.len()];
        for (i, (name, _)) in self.deferred_locs.iter().enumerate() {
            resolved[i] = self.attr_aliases.get(*name).copied();
        }
        let mut ops = Vec::new();
        for &t in top {
            self.ir.walk_post(t, &mut |o| ops.push(o));
        }
        let deferred = |ir: &Ir, loc: Attribute| match ir.attr_data(loc) {
            AttrData::Location(LocData::Deferred(i)) => Some(*i as usize),
            _ => None,
        };
        for op in ops {
            if let Some(i) = deferred(self.ir, self.ir.loc(op)) {
                let l = self.deferred_location(i, resolved[i])?;
                self.ir.op_mut(op).loc = l;
            }
            for ri in 0..self.ir.regions(op).len() {
                let r = self.ir.regions(op)[ri];
                for bi in 0..self.ir.region_blocks(r).len() {
                    let b = self.ir.region_blocks(r)[bi];
                    for ai in 0..self.ir.block_args(b).len() {
                        let v = self.ir.block_args(b)[ai];
                        if let Some(i) = self.ir.block_arg_loc(v).and_then(|l| deferred(self.ir, l)) {
                            let l = self.deferred_location(i, resolved[i])?;
                            self.ir.set_block_arg_loc(v, l);
                        }
                    }
                }
            }
        }
        self.deferred_locs.clear();
        Ok(())
    }

    fn deferred_location(&self, i: usize, alias: Option<Attribute>) -> PResult<Attribute> {
        let pos = self.deferred_locs[i].1;
        match alias {
            None => err(pos, "operation location alias was never defined"),
            Some(a) if matches!(self.ir.attr_data(a), AttrData::Location(_)) => Ok(a),
            Some(a) => err(pos, format!("expected location, but found '{}'", self.attr_str(a))),
        }
    }

    fn peek_is_alias_def(&self) -> bool {
        let mut l = Lexer::new(self.lex.src);
        l.pos = self.lex.pos;
        l.next_token().kind == Tok::Equal
    }

    fn parse_attr_alias_def(&mut self) -> PResult<()> {
        let pos = self.pos();
        let name = self.text()[1..].to_string();
        if name.contains('.') {
            return self.error("attribute names with a '.' are reserved for dialect-defined names");
        }
        self.bump();
        self.expect(Tok::Equal, "'='")?;
        let a = self.parse_attribute(None)?;
        if self.attr_aliases.insert(name.clone(), a).is_some() {
            return err(pos, format!("redefinition of attribute alias id '{name}'"));
        }
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let pos = self.pos();
        let name = self.text()[1..].to_string();
        if name.contains('.') {
            return self.error("type names with a '.' are reserved for dialect-defined names");
        }
        self.bump();
        self.expect(Tok::Equal, "'='")?;
        let t = self.parse_type()?;
        if self.type_aliases.insert(name.clone(), t).is_some() {
            return err(pos, format!("redefinition of type alias id '{name}'"));
        }
        Ok(())
    }

    fn skip_file_metadata(&mut self) -> PResult<()> {
        // `{-# dialect_resources: {...}, external_resources: {...} #-}`: not used by our
        // ops, so its contents are skipped with balanced-bracket matching.
        self.bump();
        while !self.is(Tok::FileMetadataEnd) {
            if self.is(Tok::Eof) {
                return self.error("expected '#-}' to end file metadata");
            }
            if self.is(Tok::Error) {
                return self.error("");
            }
            self.bump();
        }
        self.bump();
        Ok(())
    }

    // ----- operations -----

    pub fn parse_operation(&mut self) -> PResult<OpId> {
        let start = self.pos();
        self.ops_parsed = self.ops_parsed.wrapping_add(1);
        if self.ops_parsed.is_multiple_of(4096)
            && let Some(f) = &mut self.progress
        {
            f(start as usize);
        }
        let mut result_groups: Vec<(u32, u32, u32)> = Vec::new();
        if self.is(Tok::PercentIdent) {
            loop {
                if !self.is(Tok::PercentIdent) {
                    return self.error("expected valid ssa identifier");
                }
                let name = self.ssa_id(self.text());
                let pos = self.pos();
                self.bump();
                let mut count = 1;
                if self.consume_if(Tok::Colon) {
                    if !self.is(Tok::Integer) {
                        return self.wrong_token_error("expected integer number of results");
                    }
                    count = match self.text().parse::<u32>() {
                        Ok(n) if n >= 1 => n,
                        _ => return self.error("expected named operation to have at least 1 result"),
                    };
                    self.bump();
                }
                result_groups.push((name, count, pos));
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal, "'=' after SSA name")?;
        }
        let name_pos = self.pos();
        let op = match self.tok.kind {
            Tok::String => self.parse_generic_operation()?,
            Tok::BareIdent => {
                self.pending_results.clear();
                self.pending_results.extend(result_groups.iter().map(|(n, c, _)| (*n, *c)));
                self.parse_custom_operation()?
            }
            Tok::Error => return self.error(""),
            _ => {
                if result_groups.is_empty() {
                    return self.wrong_token_error("expected operation name in quotes");
                }
                return self.wrong_token_error("expected operation name in quotes");
            }
        };
        let _ = name_pos;
        // Record the op's uses of forward references before binding its
        // results: in a graph region an op may use its own result.
        self.note_forward_uses(op);
        let num_results = self.ir.results(op).len() as u32;
        if !result_groups.is_empty() {
            let bound: u32 = result_groups.iter().map(|g| g.1).sum();
            if bound != num_results {
                return err(start, format!("operation defines {num_results} results but was provided {bound} to bind"));
            }
            let mut idx = 0usize;
            for (name, count, pos) in result_groups {
                let first = self.ir.results(op)[idx];
                idx += count as usize;
                self.define_values(name, 0, first, count, pos)?;
            }
        }
        Ok(op)
    }

    fn parse_trailing_location(&mut self, op: OpId) -> PResult<()> {
        if self.is_keyword("loc") {
            let l = self.parse_location()?;
            self.ir.op_mut(op).loc = l;
        }
        Ok(())
    }

    fn check_dialect(&mut self, name: &str, pos: u32, generic: bool) -> PResult<Option<u32>> {
        let sym = self.ir.sym(name);
        if let Some(def) = self.ir.lookup_def(sym) {
            return Ok(Some(def));
        }
        let dialect = name.split('.').next().unwrap_or("");
        if self.ir.registry.has_dialect(dialect) && name.contains('.') {
            if generic {
                // Reported by the verifier, which can show the whole operation.
                return Ok(None);
            }
            return err(pos, format!("custom op '{name}' is unknown"));
        }
        if !self.ir.allow_unregistered {
            if !generic {
                return err(pos, format!("custom op '{name}' is unknown"));
            }
            // mlir-opt points at the token after the op name.
            return err(
                pos + name.len() as u32 + 2,
                "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
            );
        }
        if !generic {
            return err(pos, format!("custom op '{name}' is unknown"));
        }
        Ok(None)
    }

    fn parse_generic_operation(&mut self) -> PResult<OpId> {
        let name_pos = self.pos();
        let t = self.text();
        let name: std::borrow::Cow<'a, str> = if t.contains('\\') {
            let bytes = self.parse_string("operation name")?;
            String::from_utf8(bytes).or_else(|_| err(name_pos, "invalid operation name"))?.into()
        } else {
            self.bump();
            t[1..t.len() - 1].into()
        };
        if name.is_empty() {
            return err(name_pos, "empty operation name is invalid");
        }
        if name.contains('\0') {
            return err(name_pos, "null character not allowed in operation name");
        }
        let def = self.check_dialect(&name, name_pos, true)?;
        let isolated = def.is_some_and(|d| self.ir.registry.def(d).has(Traits::ISOLATED_FROM_ABOVE));
        let sym = self.ir.sym(&name);
        let loc = self.loc_at(name_pos);
        self.expect(Tok::LParen, "'(' to start operand list")?;
        let operands = self.parse_operand_list()?;
        self.expect(Tok::RParen, "')' to end operand list")?;
        let mut successors = Vec::new();
        if self.is(Tok::LSquare) {
            self.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "successor list", &mut |p| {
                successors.push(p.parse_successor()?);
                Ok(())
            })?;
        }
        let mut properties = None;
        if self.consume_if(Tok::Less) {
            let props = self.parse_attribute(None)?;
            self.expect(Tok::Greater, "'>' to close properties")?;
            if def.is_some_and(|d| !self.ir.registry.def(d).has_properties())
                && UPSTREAM_DIALECTS.contains(&name.split('.').next().unwrap_or(""))
            {
                let text = crate::printer::attr_to_string(self.ir, props);
                return err(
                    name_pos,
                    format!("invalid properties {text} for op {name}: this operation does not support properties"),
                );
            }
            properties = Some(props);
        }
        let mut regions = Vec::new();
        if self.consume_if(Tok::LParen) {
            loop {
                regions.push(self.parse_region(&[], isolated)?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "')' to end region list")?;
        }
        let mut attrs = Vec::new();
        if self.is(Tok::LBrace) {
            attrs = self.parse_attr_dict_entries()?;
        }
        self.expect(Tok::Colon, "':' followed by operation type")?;
        let type_pos = self.pos();
        // Read `(ins) -> outs` directly rather than uniquing a function type per op.
        let (inputs, results) = if self.is(Tok::LParen) {
            let mut inputs = Vec::new();
            self.parse_paren_list(&mut |p| {
                inputs.push(p.parse_type()?);
                Ok(())
            })?;
            self.expect(Tok::Arrow, "'->' in function type")?;
            (inputs, self.parse_function_result_types()?)
        } else {
            let fty = self.parse_type()?;
            match self.ir.type_data(fty) {
                crate::types::TypeData::Function { inputs, results } => (inputs.clone(), results.clone()),
                _ => return err(type_pos, "expected function type"),
            }
        };
        if inputs.len() != operands.len() {
            return err(
                type_pos,
                format!(
                    "expected {} operand type{} but had {}",
                    operands.len(),
                    if operands.len() == 1 { "" } else { "s" },
                    inputs.len()
                ),
            );
        }
        let values =
            operands.iter().zip(&inputs).map(|(u, t)| self.resolve_operand(u, *t)).collect::<PResult<Vec<_>>>()?;
        // Registered ops keep inherent attributes as properties, as MLIR does when
        // reading generic IR written before properties existed.
        if let Some(d) = def {
            let inherent = self.ir.registry.def(d).inherent_attrs;
            let (moved, rest): (Vec<_>, Vec<_>) =
                attrs.into_iter().partition(|(k, _)| inherent.contains(&self.ir.sym_str(*k)));
            attrs = rest;
            if !moved.is_empty() || properties.is_none() {
                let mut entries = match properties {
                    Some(p) => match self.ir.attr_data(p) {
                        AttrData::Dictionary(e) => e.clone(),
                        _ => return err(type_pos, "expected dictionary attribute for properties"),
                    },
                    None => Vec::new(),
                };
                for m in moved {
                    if !entries.iter().any(|(k, _)| *k == m.0) {
                        entries.push(m);
                    }
                }
                properties = Some(self.ir.dict_attr(entries));
            } else if let Some(p) = properties
                && !matches!(self.ir.attr_data(p), AttrData::Dictionary(_))
            {
                return err(type_pos, "expected dictionary attribute for properties");
            }
        }
        let st = OperationState {
            name: sym,
            operands: values,
            result_types: results,
            properties,
            attrs,
            regions,
            successors,
            loc,
        };
        let op = self.ir.create_op(st);
        self.parse_trailing_location(op)?;
        Ok(op)
    }

    fn parse_custom_operation(&mut self) -> PResult<OpId> {
        let name_pos = self.pos();
        let mut name = self.text().to_string();
        if !name.contains('.') {
            let dd = *self.default_dialect.last().unwrap();
            let qualified = format!("{dd}.{name}");
            if self.ir.registry.lookup(&qualified).is_some() {
                name = qualified;
            }
        }
        let def = match self.ir.registry.lookup(&name) {
            Some(d) => d,
            None => {
                let bare = self.text();
                let dialect = bare.split('.').next().unwrap_or("");
                if !bare.contains('.') || self.ir.registry.has_dialect(dialect) || self.ir.allow_unregistered {
                    return err(name_pos, format!("custom op '{bare}' is unknown"));
                }
                return err(name_pos, format!("custom op '{bare}' is unknown"));
            }
        };
        let def = self.ir.registry.def(def).clone();
        let Some(parse) = def.parse else {
            return err(name_pos, format!("custom op '{name}' has no custom assembly form"));
        };
        self.bump();
        let sym = self.ir.sym(&name);
        let loc = self.loc_at(name_pos);
        let mut res = OpParseResult {
            name: sym,
            loc,
            pos: name_pos,
            operands: Vec::new(),
            result_types: Vec::new(),
            attrs: Vec::new(),
            properties: None,
            regions: Vec::new(),
            successors: Vec::new(),
        };
        let dialect: &'static str = def.name.split('.').next().unwrap_or("");
        let _ = dialect;
        self.default_dialect.push(def.default_dialect.unwrap_or(""));
        self.custom_ops.push(sym);
        let r = parse(self, &mut res);
        self.custom_ops.pop();
        self.default_dialect.pop();
        r?;
        // A name given twice (say, in the attribute dictionary and by the
        // syntax) is an error, as in MLIR; keeping either value silently
        // would change the op's meaning.
        {
            let mut seen: Vec<crate::attrs::Sym> = match res.properties {
                Some(p) => self.ir.dict_entries(p).iter().map(|(k, _)| *k).collect(),
                None => Vec::new(),
            };
            for (k, _) in &res.attrs {
                if seen.contains(k) {
                    let key = self.ir.sym_str(*k).to_string();
                    let op_name = self.ir.sym_str(res.name).to_string();
                    return err(
                        name_pos,
                        format!("custom op '{op_name}' attribute '{key}' occurs more than once in the attribute list"),
                    );
                }
                seen.push(*k);
            }
        }
        // A parser may rename the op (legacy spellings): use the final definition.
        let sym = res.name;
        let def = match self.ir.registry.lookup(self.ir.sym_str(sym)) {
            Some(d) => self.ir.registry.def(d).clone(),
            None => def,
        };
        let inherent = def.inherent_attrs;
        let (moved, rest): (Vec<_>, Vec<_>) =
            res.attrs.into_iter().partition(|(k, _)| inherent.contains(&self.ir.sym_str(*k)));
        let mut entries = match res.properties {
            Some(p) => self.ir.dict_entries(p).to_vec(),
            None => Vec::new(),
        };
        entries.extend(moved);
        let properties = Some(self.ir.dict_attr(entries));
        let st = OperationState {
            name: sym,
            operands: res.operands,
            result_types: res.result_types,
            properties,
            attrs: rest,
            regions: res.regions,
            successors: res.successors,
            loc: res.loc,
        };
        let op = self.ir.create_op(st);
        self.parse_trailing_location(op)?;
        Ok(op)
    }

    // ----- regions and blocks -----

    pub fn parse_successor(&mut self) -> PResult<BlockId> {
        if !self.is(Tok::CaretIdent) {
            return self.wrong_token_error("expected block name");
        }
        let name = self.text().to_string();
        let pos = self.pos();
        self.bump();
        Ok(self.block_ref(&name, pos))
    }

    fn block_ref(&mut self, name: &str, pos: u32) -> BlockId {
        let scope = self.block_scopes.last_mut().expect("no block scope");
        if let Some((b, _, _)) = scope.labels.get(name) {
            return *b;
        }
        let b = self.ir.create_block();
        self.block_scopes.last_mut().unwrap().labels.insert(name.to_string(), (b, false, pos));
        b
    }

    /// Parses `{ ... }`. `entry_args` become the entry block's arguments.
    pub fn parse_region(&mut self, entry_args: &[RegionArg], isolated: bool) -> PResult<RegionId> {
        self.nested(|p| p.parse_region_inner(entry_args, isolated))
    }

    fn parse_region_inner(&mut self, entry_args: &[RegionArg], isolated: bool) -> PResult<RegionId> {
        self.expect(Tok::LBrace, "'{' to begin a region")?;
        let region = self.ir.new_region();
        // Names defined in a non-isolated region go out of scope when it
        // closes; an isolated scope is dropped whole, so it needs no tracking.
        if isolated {
            self.push_isolated_scope();
        } else {
            self.scopes.last_mut().unwrap().region_defs.push(Vec::new());
        }
        self.block_scopes.push(BlockScope { labels: HashMap::default() });
        let r = self.parse_region_body(region, entry_args);
        let labels = self.block_scopes.pop().unwrap().labels;
        if !isolated {
            let defs = self.scopes.last_mut().unwrap().region_defs.pop().unwrap_or_default();
            for d in defs {
                self.scopes.last_mut().unwrap().values.remove(&d);
            }
        }
        r?;
        if let Some((name, (_, _, pos))) =
            labels.iter().filter(|(_, (_, defined, _))| !defined).min_by_key(|(_, (_, _, p))| *p)
        {
            let _ = name;
            return err(*pos, "reference to an undefined block");
        }
        if isolated {
            self.pop_isolated_scope()?;
        }
        Ok(region)
    }

    fn parse_region_body(&mut self, region: RegionId, entry_args: &[RegionArg]) -> PResult<()> {
        if self.consume_if(Tok::RBrace) {
            if !entry_args.is_empty() {
                // Entry arguments need a block to live in.
                let b = self.ir.create_block();
                self.ir.push_block(region, b);
                self.define_entry_args(b, entry_args)?;
            }
            return Ok(());
        }
        if !entry_args.is_empty() && self.is(Tok::CaretIdent) {
            return self.error("invalid block name in region with named arguments");
        }
        // Unlabeled entry block.
        if !self.is(Tok::CaretIdent) {
            let b = self.ir.create_block();
            self.ir.push_block(region, b);
            self.define_entry_args(b, entry_args)?;
            self.parse_block_ops(b)?;
        }
        while !self.consume_if(Tok::RBrace) {
            if !self.is(Tok::CaretIdent) {
                return self.wrong_token_error("expected block name");
            }
            let b = self.parse_block_label()?;
            self.ir.push_block(region, b);
            self.parse_block_ops(b)?;
        }
        Ok(())
    }

    fn define_entry_args(&mut self, b: BlockId, args: &[RegionArg]) -> PResult<()> {
        for a in args {
            // Arguments without a written location get their name's position.
            let loc = match a.loc {
                Some(l) => Some(l),
                None if a.name.name != u32::MAX => Some(self.loc_at(a.name.pos)),
                None => None,
            };
            let v = self.ir.add_block_arg(b, a.ty, loc);
            if a.name.name == u32::MAX {
                continue;
            }
            self.define_values(a.name.name, a.name.number, v, 1, a.name.pos)?;
        }
        Ok(())
    }

    fn parse_block_label(&mut self) -> PResult<BlockId> {
        let name = self.text().to_string();
        let pos = self.pos();
        self.bump();
        let scope = self.block_scopes.last_mut().unwrap();
        let b = match scope.labels.get_mut(&name) {
            Some((b, defined, _)) => {
                if *defined {
                    return err(pos, format!("redefinition of block '{name}'"));
                }
                *defined = true;
                *b
            }
            None => {
                let b = self.ir.create_block();
                self.block_scopes.last_mut().unwrap().labels.insert(name, (b, true, pos));
                b
            }
        };
        if self.is(Tok::LParen) {
            self.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "", &mut |p| {
                // As in MLIR, `^bb0(%x#2: T)` defines `%x#2` (and only it).
                let u = p.parse_operand()?;
                p.expect(Tok::Colon, "':' and type for SSA value")?;
                let ty = p.parse_type()?;
                let loc = if p.is_keyword("loc") { p.parse_location()? } else { p.loc_at(u.pos) };
                let v = p.ir.add_block_arg(b, ty, Some(loc));
                p.define_values(u.name, u.number, v, 1, u.pos)
            })?;
        }
        self.expect(Tok::Colon, "':' after block name")?;
        Ok(b)
    }

    fn parse_block_ops(&mut self, b: BlockId) -> PResult<()> {
        while !matches!(self.tok.kind, Tok::CaretIdent | Tok::RBrace | Tok::Eof) {
            let op = self.parse_operation()?;
            self.ir.append_op(b, op);
        }
        if self.is(Tok::Eof) {
            return self.error("expected '}' to end region");
        }
        Ok(())
    }

    /// Custom-form region with implicit terminator support.
    pub fn parse_region_with_terminator(
        &mut self,
        entry_args: &[RegionArg],
        isolated: bool,
        terminator: Option<&str>,
        loc: Attribute,
    ) -> PResult<RegionId> {
        let r = self.parse_region(entry_args, isolated)?;
        if let Some(t) = terminator {
            self.ensure_terminator(r, t, loc);
        }
        Ok(r)
    }

    pub fn ensure_terminator(&mut self, r: RegionId, terminator: &str, loc: Attribute) {
        let blocks = self.ir.region_blocks(r).to_vec();
        let block = match blocks.first() {
            Some(b) => *b,
            None => {
                let b = self.ir.create_block();
                self.ir.push_block(r, b);
                b
            }
        };
        let needs = match self.ir.terminator(block) {
            Some(t) => !self.ir.op_def(t).is_some_and(|d| d.has(Traits::TERMINATOR)),
            None => true,
        };
        if needs {
            let name = self.ir.sym(terminator);
            let mut st = OperationState::new(name, loc);
            st.properties = Some(self.ir.empty_dict());
            let op = self.ir.create_op(st);
            self.ir.append_op(block, op);
        }
    }

    /// `%name : type` entries of a custom region header, e.g. `(%arg0: i32)`.
    /// The names the results of the op being parsed are given, one per
    /// result (a group `%q:3` names three), without `%` (MLIR's
    /// `getResultName`).
    pub fn result_names(&self) -> Vec<&'a str> {
        debug_assert!(self.result_count() <= u32::MAX as u64, "check result_count first");
        let mut out = Vec::new();
        for &(name, count) in &self.pending_results {
            let spelled = self.ssa_names.get(name as usize).copied().unwrap_or("");
            out.extend(std::iter::repeat_n(spelled.trim_start_matches('%'), count as usize));
        }
        out
    }

    /// How many results the names before the op being parsed give it.
    pub fn result_count(&self) -> u64 {
        self.pending_results.iter().map(|(_, c)| *c as u64).sum()
    }

    /// The name of an argument being defined: `%x`, never `%x#1`.
    pub fn parse_argument_name(&mut self) -> PResult<UnresolvedOperand> {
        let name = self.parse_operand()?;
        let spelled = &self.src.as_bytes()[name.pos as usize..self.tok.start as usize];
        if let Some(hash) = spelled.iter().position(|c| *c == b'#') {
            return err(name.pos + hash as u32, "result number not allowed in argument list");
        }
        Ok(name)
    }

    pub fn parse_region_arg(&mut self) -> PResult<RegionArg> {
        let name = self.parse_argument_name()?;
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        let loc = if self.is_keyword("loc") { Some(self.parse_location()?) } else { None };
        Ok(RegionArg { name, ty, loc })
    }

    // ----- attribute dictionaries -----

    pub fn parse_attr_dict_entries(&mut self) -> PResult<Vec<(Sym, Attribute)>> {
        let mut entries: Vec<(Sym, Attribute)> = Vec::new();
        self.parse_comma_list(Some((Tok::LBrace, Tok::RBrace)), "attribute dictionary", &mut |p| {
            let pos = p.pos();
            let name = match p.tok.kind {
                Tok::BareIdent => {
                    let n = p.text().to_string();
                    p.bump();
                    n
                }
                Tok::String => {
                    let s = p.parse_utf8_string("attribute name")?;
                    if s.is_empty() {
                        return err(pos, "expected valid attribute name");
                    }
                    s
                }
                _ => return p.error("expected attribute name"),
            };
            let key = p.ir.sym(&name);
            if entries.iter().any(|(k, _)| *k == key) {
                return err(pos, format!("duplicate key '{name}' in dictionary attribute"));
            }
            let value = if p.consume_if(Tok::Equal) { p.parse_attribute(None)? } else { p.ir.unit_attr() };
            entries.push((key, value));
            Ok(())
        })?;
        Ok(entries)
    }

    pub fn parse_optional_attr_dict(&mut self, out: &mut Vec<(Sym, Attribute)>) -> PResult<()> {
        if self.is(Tok::LBrace) {
            out.extend(self.parse_attr_dict_entries()?);
        }
        Ok(())
    }

    pub fn parse_optional_attr_dict_with_keyword(&mut self, out: &mut Vec<(Sym, Attribute)>) -> PResult<()> {
        if self.parse_optional_keyword("attributes") {
            out.extend(self.parse_attr_dict_entries()?);
        }
        Ok(())
    }

    /// `: type` then resolve `operands` all to that type.
    pub fn parse_colon_type(&mut self) -> PResult<Type> {
        self.expect(Tok::Colon, "':'")?;
        self.parse_type()
    }

    pub fn parse_colon_type_list(&mut self) -> PResult<Vec<Type>> {
        self.expect(Tok::Colon, "':'")?;
        self.parse_type_list_no_parens()
    }

    pub fn parse_type_list_no_parens(&mut self) -> PResult<Vec<Type>> {
        let mut v = Vec::new();
        self.parse_comma_list(None, "type list", &mut |p| {
            v.push(p.parse_type()?);
            Ok(())
        })?;
        Ok(v)
    }

    /// `-> type` or `-> (type, ...)` results.
    pub fn parse_arrow_result_types(&mut self) -> PResult<Vec<Type>> {
        self.expect(Tok::Arrow, "'->'")?;
        self.parse_function_result_types()
    }

    pub fn parse_function_result_types(&mut self) -> PResult<Vec<Type>> {
        if self.is(Tok::LParen) {
            let mut v = Vec::new();
            self.parse_paren_list(&mut |p| {
                v.push(p.parse_type()?);
                Ok(())
            })?;
            return Ok(v);
        }
        Ok(vec![self.parse_type()?])
    }

    /// `(a, b, ...)` whose `)` is asked for on its own, as MLIR's
    /// `parseTypeListParens` and function result lists do: a missing one is
    /// "expected ')'" just past the last element, not a list error.
    pub fn parse_paren_list(&mut self, f: &mut dyn FnMut(&mut Self) -> PResult<()>) -> PResult<()> {
        self.expect(Tok::LParen, "'('")?;
        if self.consume_if(Tok::RParen) {
            return Ok(());
        }
        self.parse_comma_list(None, "", f)?;
        self.expect(Tok::RParen, "')'")
    }

    pub fn int_text_value(&self) -> Option<i128> {
        let t = self.text();
        if let Some(h) = t.strip_prefix("0x") { i128::from_str_radix(h, 16).ok() } else { t.parse().ok() }
    }

    /// A (possibly negative) integer literal.
    pub fn parse_integer(&mut self, what: &str) -> PResult<i128> {
        let neg = self.consume_if(Tok::Minus);
        if !self.is(Tok::Integer) {
            return self.error(format!("expected {what}"));
        }
        let Some(v) = self.int_text_value() else { return self.error("integer literal too large") };
        self.bump();
        Ok(if neg { -v } else { v })
    }
}

//! Type grammar: builtin types, aliases and opaque dialect types.

use super::{PResult, Parser, err};
use crate::attrs::{AttrData, Attribute};
use crate::lexer::Tok;
use crate::types::{DYNAMIC, FloatKind, Signedness, Type, TypeData};

const MAX_INT_WIDTH: u32 = 16_777_215;

impl<'a> Parser<'a> {
    pub fn parse_type(&mut self) -> PResult<Type> {
        // Shaped types are looked up by spelling first (see `type_spellings`).
        if self.tok.kind == Tok::BareIdent
            && matches!(self.text(), "tensor" | "memref" | "vector")
            && self.src.as_bytes().get(self.tok.end as usize) == Some(&b'<')
            && let Some(end) = self.balanced_end(self.tok.end as usize)
        {
            let key = &self.src[self.tok.start as usize..end];
            if let Some(&t) = self.type_spellings.get(key) {
                self.reset_to(end as u32);
                return Ok(t);
            }
            let t = self.parse_type_uncached()?;
            if self.tok.start as usize >= end && self.src[end..self.tok.start as usize].trim().is_empty() {
                self.type_spellings.insert(key, t);
            }
            return Ok(t);
        }
        self.parse_type_uncached()
    }

    fn parse_type_uncached(&mut self) -> PResult<Type> {
        self.nested(|p| p.parse_type_inner())
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        match self.tok.kind {
            Tok::LParen => self.parse_function_type(),
            Tok::ExclaimIdent => self.parse_dialect_or_alias_type(),
            Tok::BareIdent => self.parse_builtin_type(),
            _ => self.wrong_token_error("expected non-function type"),
        }
    }

    pub fn parse_optional_type(&mut self) -> PResult<Option<Type>> {
        if self.starts_type() { self.parse_type().map(Some) } else { Ok(None) }
    }

    pub(crate) fn starts_type(&self) -> bool {
        match self.tok.kind {
            Tok::LParen | Tok::ExclaimIdent => true,
            Tok::BareIdent => {
                let t = self.text();
                matches!(t, "index" | "none" | "complex" | "tuple" | "vector" | "tensor" | "memref")
                    || FloatKind::from_keyword(t).is_some()
                    || int_type_spec(t).is_some()
            }
            _ => false,
        }
    }

    fn parse_function_type(&mut self) -> PResult<Type> {
        let mut inputs = Vec::new();
        self.parse_paren_list(&mut |p| {
            inputs.push(p.parse_type()?);
            Ok(())
        })?;
        self.expect(Tok::Arrow, "'->' in function type")?;
        let results = self.parse_function_result_types()?;
        Ok(self.ir.function_type(inputs, results))
    }

    fn parse_dialect_or_alias_type(&mut self) -> PResult<Type> {
        let pos = self.pos();
        let ident = &self.text()[1..];
        if let Some((dialect, _)) = ident.split_once('.') {
            if dialect.is_empty() {
                return err(pos + 2, "invalid dialect namespace '\"\"'");
            }
            let dialect = dialect.to_string();
            let mut body = ident[dialect.len() + 1..].to_string();
            self.bump();
            if self.tok.kind == Tok::Less && self.tok.start as usize == pos as usize + 1 + ident.len() {
                body.push_str(&self.parse_pretty_body()?);
            }
            let body = self.check_dialect_type(&dialect, body, pos)?;
            return Ok(self.ir.ty(TypeData::Opaque { dialect, body }));
        }
        let name = ident.to_string();
        self.bump();
        if self.is(Tok::Less) {
            let body = self.parse_pretty_body()?;
            let body = self.check_dialect_type(&name, body, pos)?;
            return Ok(self.ir.ty(TypeData::Opaque { dialect: name, body }));
        }
        match self.type_aliases.get(&name) {
            Some(t) => Ok(*t),
            // Reported just past the name, as mlir-opt does.
            None => self.wrong_token_error(format!("undefined symbol alias id '{name}'")),
        }
    }

    /// The body as the dialect canonicalizes it, or its error.
    fn check_dialect_type(&mut self, dialect: &str, mut body: String, pos: u32) -> PResult<String> {
        if let Some(d) = self.ir.registry.dialect(dialect) {
            // Attribute aliases named inside the body (`#shared` in
            // `!ttg.memdesc<...>`) stand for the attributes they name.
            if body.contains('#') {
                body = self.expand_alias_refs(&body, pos)?;
            }
            return match d.check_type.map(|check| check(&body)) {
                Some(Err(m)) => err(pos, m),
                Some(Ok(canonical)) => Ok(canonical),
                None => Ok(body),
            };
        }
        if !self.ir.allow_unregistered {
            return err(
                pos,
                format!(
                    "!{dialect} type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
                ),
            );
        }
        Ok(body)
    }

    /// Captures a balanced `<...>` body verbatim (including the brackets).
    /// Also used by dialects to read `<...>` attribute parameters.
    pub fn parse_pretty_body(&mut self) -> PResult<String> {
        let start = self.tok.start as usize;
        let bytes = self.src.as_bytes();
        let mut depth: Vec<u8> = Vec::new();
        let mut i = start;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b'<' | b'(' | b'[' | b'{' => depth.push(c),
                b'>' => {
                    // `->` inside a body is an arrow, not a closer.
                    if i > start && bytes[i - 1] == b'-' {
                        i += 1;
                        continue;
                    }
                    if depth.pop() != Some(b'<') {
                        return err(i as u32, "unbalanced '>' character in pretty dialect name");
                    }
                }
                b')' | b']' | b'}' => {
                    let open = match c {
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    if depth.pop() != Some(open) {
                        return err(i as u32, format!("unbalanced '{}' character in pretty dialect name", c as char));
                    }
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        if bytes[i] == b'\\' {
                            i += 1;
                        }
                        if bytes[i.min(bytes.len() - 1)] == b'\n' {
                            return err(start as u32, "unterminated string in pretty dialect body");
                        }
                        i += 1;
                    }
                }
                _ => {}
            }
            i += 1;
            if depth.is_empty() {
                break;
            }
        }
        if !depth.is_empty() {
            return err(start as u32, "unbalanced '<' character in pretty dialect name");
        }
        let body = self.src[start..i].to_string();
        self.reset_to(i as u32);
        Ok(body)
    }

    fn parse_builtin_type(&mut self) -> PResult<Type> {
        let t = self.text();
        if let Some((signedness, width)) = int_type_spec(t) {
            let Some(width) = width.filter(|w| *w <= MAX_INT_WIDTH) else {
                return self.error(format!("integer bitwidth is limited to {MAX_INT_WIDTH} bits"));
            };
            self.bump();
            return Ok(self.ir.ty(TypeData::Integer { width, signedness }));
        }
        if let Some(k) = FloatKind::from_keyword(t) {
            self.bump();
            return Ok(self.ir.float_type(k));
        }
        match t {
            "index" => {
                self.bump();
                Ok(self.ir.index_type())
            }
            "none" => {
                self.bump();
                Ok(self.ir.none_type())
            }
            "complex" => {
                self.bump();
                self.expect(Tok::Less, "'<' in complex type")?;
                let epos = self.pos();
                let elem = self.parse_type()?;
                if !matches!(self.ir.type_data(elem), TypeData::Integer { .. } | TypeData::Float(_)) {
                    return err(epos, "invalid element type for complex");
                }
                self.expect(Tok::Greater, "'>' in complex type")?;
                Ok(self.ir.ty(TypeData::Complex(elem)))
            }
            "tuple" => {
                self.bump();
                self.expect(Tok::Less, "'<' in tuple type")?;
                let mut elems = Vec::new();
                if !self.consume_if(Tok::Greater) {
                    self.parse_comma_list(None, "tuple", &mut |p| {
                        elems.push(p.parse_type()?);
                        Ok(())
                    })?;
                    self.expect(Tok::Greater, "'>' in tuple type")?;
                }
                Ok(self.ir.ty(TypeData::Tuple(elems)))
            }
            "vector" => self.parse_vector_type(),
            "tensor" => self.parse_tensor_type(),
            "memref" => self.parse_memref_type(),
            _ => self.wrong_token_error("expected non-function type"),
        }
    }

    /// If the current token is an identifier starting with `x`, splits it so the
    /// lexer continues right after the `x`.
    fn consume_x(&mut self) -> bool {
        if self.tok.kind == Tok::BareIdent && self.text().starts_with('x') {
            let after = self.tok.start + 1;
            self.reset_to(after);
            true
        } else {
            false
        }
    }

    /// Dimension list `4x?x8x` (stops before the element type).
    fn parse_dims(&mut self, allow_dynamic: bool, allow_scalable: bool) -> PResult<(Vec<i64>, Vec<bool>)> {
        let mut shape = Vec::new();
        let mut scalable = Vec::new();
        loop {
            let (dim, sc) = if self.is(Tok::Question) {
                if !allow_dynamic {
                    return self.error("expected static shape");
                }
                self.bump();
                (DYNAMIC, false)
            } else if self.is(Tok::Integer) {
                (self.parse_dim_int()?, false)
            } else if allow_scalable && self.is(Tok::LSquare) {
                self.bump();
                let d = self.parse_dim_int()?;
                self.expect(Tok::RSquare, "']'")?;
                (d, true)
            } else {
                return Ok((shape, scalable));
            };
            if !self.consume_x() {
                return self.wrong_token_error("expected 'x' in dimension list");
            }
            shape.push(dim);
            scalable.push(sc);
        }
    }

    /// MLIR's `parseDimensionList` without a trailing `x` (an op's
    /// `custom<DimensionList>`): `2x?x4`, or nothing.
    pub fn parse_dimension_list(&mut self, allow_dynamic: bool) -> PResult<Vec<i64>> {
        let mut shape = Vec::new();
        if !self.is(Tok::Question) && !self.is(Tok::Integer) {
            return Ok(shape);
        }
        loop {
            if self.is(Tok::Question) {
                if !allow_dynamic {
                    return self.error("expected static shape");
                }
                self.bump();
                shape.push(DYNAMIC);
            } else {
                shape.push(self.parse_dim_int()?);
            }
            if !self.consume_x() {
                return Ok(shape);
            }
        }
    }

    fn parse_dim_int(&mut self) -> PResult<i64> {
        let t = self.text();
        // `0x` would lex as hex: MLIR treats `0x4` in a dimension list as `0` then `x4`.
        if t.starts_with("0x") {
            let after = self.tok.start + 1;
            self.reset_to(after);
            // Re-lexing from `x...` produces a bare identifier; rewind so consume_x sees it.
            return Ok(0);
        }
        let v: i64 = match t.parse() {
            Ok(v) => v,
            Err(_) => return self.error("invalid dimension"),
        };
        self.bump();
        Ok(v)
    }

    fn parse_vector_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in vector type")?;
        let pos = self.pos();
        let (shape, scalable) = self.parse_dims(false, true)?;
        if shape.iter().any(|d| *d <= 0) && shape.iter().zip(&scalable).any(|(d, s)| *d <= 0 && !s || *d == 0) {
            return err(
                pos,
                "vector types must have positive constant sizes but got ".to_string()
                    + &shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "),
            );
        }
        let epos = self.pos();
        let elem = self.parse_type()?;
        if !matches!(self.ir.type_data(elem), TypeData::Integer { .. } | TypeData::Index | TypeData::Float(_)) {
            return err(
                epos,
                "vector elements must be int/index/float type but got ".to_string() + &self.type_str(elem),
            );
        }
        let encoding = if self.consume_if(Tok::Comma) { Some(self.parse_attribute(None)?) } else { None };
        self.expect(Tok::Greater, "'>' in vector type")?;
        Ok(self.ir.ty(TypeData::Vector { shape, scalable, elem, encoding }))
    }

    fn parse_tensor_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in tensor type")?;
        if self.consume_if(Tok::Star) {
            if !self.consume_x() {
                return self.error("expected 'x' in unranked tensor type");
            }
            let epos = self.pos();
            let elem = self.parse_type()?;
            self.check_tensor_elem(elem, epos)?;
            self.expect(Tok::Greater, "'>' in tensor type")?;
            return Ok(self.ir.ty(TypeData::UnrankedTensor { elem }));
        }
        let (shape, _) = self.parse_dims(true, false)?;
        let epos = self.pos();
        let elem = self.parse_type()?;
        self.check_tensor_elem(elem, epos)?;
        let mut encoding = None;
        if self.consume_if(Tok::Comma) {
            let e = self.parse_attribute(None)?;
            self.check_encoding(e, &shape, elem)?;
            encoding = Some(e);
        }
        self.expect(Tok::Greater, "'>' in tensor type")?;
        if shape.iter().any(|d| *d < 0 && *d != DYNAMIC) {
            return err(epos, "invalid tensor dimension size");
        }
        Ok(self.ir.ty(TypeData::RankedTensor { shape, elem, encoding }))
    }

    /// A dialect's checks of its attribute as this tensor's encoding,
    /// reported where the type closes (as mlir-opt does).
    fn check_encoding(&self, enc: Attribute, shape: &[i64], elem: Type) -> PResult<()> {
        let AttrData::Opaque { dialect, body } = self.ir.attr_data(enc) else { return Ok(()) };
        match self.ir.registry.dialect(self.ir.sym_str(*dialect)).and_then(|d| d.check_encoding) {
            Some(check) => check(body, shape, &self.type_str(elem)).or_else(|m| err(self.pos(), m)),
            None => Ok(()),
        }
    }

    fn check_tensor_elem(&self, elem: Type, pos: u32) -> PResult<()> {
        if matches!(self.ir.type_data(elem), TypeData::Function { .. } | TypeData::None | TypeData::Tuple(_)) {
            // MLIR rejects function and none element types; tuples are allowed, keep them.
            if !matches!(self.ir.type_data(elem), TypeData::Tuple(_)) {
                return err(pos, "invalid tensor element type");
            }
        }
        Ok(())
    }

    fn parse_memref_type(&mut self) -> PResult<Type> {
        // Type-construction errors point at `memref`, as MLIR's getChecked does.
        let type_pos = self.pos();
        self.bump();
        self.expect(Tok::Less, "'<' in memref type")?;
        let unranked = self.consume_if(Tok::Star);
        let mut shape = Vec::new();
        if unranked {
            if !self.consume_x() {
                return self.error("expected 'x' in unranked memref type");
            }
        } else {
            shape = self.parse_dims(true, false)?.0;
        }
        let epos = self.pos();
        let elem = self.parse_type()?;
        match self.ir.type_data(elem) {
            TypeData::Integer { .. }
            | TypeData::Index
            | TypeData::Float(_)
            | TypeData::Complex(_)
            | TypeData::Vector { .. }
            | TypeData::MemRef { .. }
            | TypeData::UnrankedMemRef { .. }
            | TypeData::Opaque { .. } => {}
            _ => return err(epos, "invalid memref element type"),
        }
        let mut layout = None;
        let mut memory_space = None;
        while self.consume_if(Tok::Comma) {
            let apos = self.pos();
            let a = self.parse_attribute(None)?;
            let is_layout = matches!(self.ir.attr_data(a), AttrData::AffineMap(_) | AttrData::Strided { .. });
            if is_layout && !unranked {
                if layout.is_some() || memory_space.is_some() {
                    return err(apos, "expected memory space attribute");
                }
                if let AttrData::AffineMap(m) = self.ir.attr_data(a) {
                    if m.num_dims as usize != shape.len() {
                        return err(
                            type_pos,
                            format!(
                                "memref layout mismatch between rank and affine map: {} != {}",
                                shape.len(),
                                m.num_dims
                            ),
                        );
                    }
                    // MLIR's identity test ignores symbols: `(d0)[s0] -> (d0)` is dropped too.
                    if m.results.len() == m.num_dims as usize
                        && m.results.iter().enumerate().all(|(i, e)| *e == crate::affine::AffineExpr::Dim(i as u32))
                    {
                        layout = None;
                        continue;
                    }
                }
                if let AttrData::Strided { strides, .. } = self.ir.attr_data(a)
                    && strides.len() != shape.len()
                {
                    return err(apos, "expected the number of strides to match the rank");
                }
                layout = Some(a);
            } else {
                if memory_space.is_some() {
                    return err(apos, "multiple memory spaces specified in memref type");
                }
                memory_space = Some(a);
            }
        }
        self.expect(Tok::Greater, "'>' in memref type")?;
        // An integer memory space of 0 is the default and is dropped, as MLIR does.
        if let Some(ms) = memory_space
            && let AttrData::Integer { value: 0, .. } = self.ir.attr_data(ms)
        {
            memory_space = None;
        }
        if shape.iter().any(|d| *d < 0 && *d != DYNAMIC) {
            return err(epos, "invalid memref size");
        }
        Ok(if unranked {
            self.ir.ty(TypeData::UnrankedMemRef { elem, memory_space })
        } else {
            self.ir.ty(TypeData::MemRef { shape, elem, layout, memory_space })
        })
    }
}

/// `i32` → (Signless, Some(32)); `si8`, `ui16` likewise; `i99999999999` → width None.
fn int_type_spec(t: &str) -> Option<(Signedness, Option<u32>)> {
    let (s, rest) = if let Some(r) = t.strip_prefix("si") {
        (Signedness::Signed, r)
    } else if let Some(r) = t.strip_prefix("ui") {
        (Signedness::Unsigned, r)
    } else if let Some(r) = t.strip_prefix('i') {
        (Signedness::Signless, r)
    } else {
        return None;
    };
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((s, rest.parse::<u32>().ok()))
}

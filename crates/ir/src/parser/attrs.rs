//! Attribute grammar: builtin attributes, affine maps and sets, dense
//! elements, opaque dialect attributes, aliases and locations.

use rustc_hash::FxHashMap as HashMap;

use super::{PResult, Parser, UnresolvedOperand, err};
use crate::affine::{AffineExpr, AffineMap, IntegerSet};
use crate::attrs::{AttrData, Attribute, DenseArrayData, DenseElem, LocData};
use crate::lexer::Tok;
use crate::types::{DYNAMIC, FloatKind, Signedness, Type, TypeData};

impl<'a> Parser<'a> {
    /// Parses any attribute. Numeric literals take `ty` if given, else an explicit
    /// `: type`, else i64 / f64.
    pub fn parse_attribute(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        // Dictionaries and dialect attributes are looked up by spelling first.
        let cacheable = match self.tok.kind {
            Tok::LBrace => true,
            Tok::HashIdent => self.src.as_bytes().get(self.tok.end as usize) == Some(&b'<'),
            _ => false,
        };
        if cacheable {
            let start = self.tok.start as usize;
            let open = if self.tok.kind == Tok::LBrace { start } else { self.tok.end as usize };
            if let Some(end) = self.balanced_end(open) {
                let key = &self.src[start..end];
                if let Some(&a) = self.attr_spellings.get(key) {
                    self.reset_to(end as u32);
                    return Ok(a);
                }
                let a = self.parse_attribute_uncached(ty)?;
                if self.tok.start as usize >= end && self.src[end..self.tok.start as usize].trim().is_empty() {
                    self.attr_spellings.insert(key, a);
                }
                return Ok(a);
            }
        }
        self.parse_attribute_uncached(ty)
    }

    fn parse_attribute_uncached(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        self.nested(|p| p.parse_attribute_inner(ty))
    }

    fn parse_attribute_inner(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        let pos = self.pos();
        match self.tok.kind {
            Tok::Integer | Tok::Float | Tok::Minus => self.parse_number_attr(ty),
            Tok::String => {
                let v = self.parse_string("string")?;
                let ty = if ty.is_none() && self.consume_if(Tok::Colon) { Some(self.parse_type()?) } else { ty };
                Ok(self.ir.attr(AttrData::String { value: v, ty }))
            }
            Tok::LSquare => {
                let mut items = Vec::new();
                self.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "array attribute", &mut |p| {
                    items.push(p.parse_attribute(None)?);
                    Ok(())
                })?;
                Ok(self.ir.array_attr(items))
            }
            Tok::LBrace => {
                let entries = self.parse_attr_dict_entries()?;
                Ok(self.ir.dict_attr(entries))
            }
            Tok::AtIdent => {
                let root = self.parse_symbol_name()?;
                let root = self.ir.sym(&root);
                let mut nested = Vec::new();
                while self.is(Tok::Colon) && self.src.as_bytes().get(self.tok.end as usize) == Some(&b':') {
                    self.bump();
                    self.bump();
                    if !self.is(Tok::AtIdent) {
                        return self.error("expected nested symbol reference identifier");
                    }
                    let n = self.parse_symbol_name()?;
                    nested.push(self.ir.sym(&n));
                }
                Ok(self.ir.attr(AttrData::SymbolRef { root, nested }))
            }
            Tok::HashIdent => self.parse_hash_attr(ty.is_none()),
            Tok::BareIdent => match self.text() {
                "true" | "false" => {
                    let v = self.text() == "true";
                    self.bump();
                    if self.is(Tok::Colon) {
                        self.bump();
                        let tpos = self.pos();
                        let t = self.parse_type()?;
                        if !self.ir.type_data(t).is_signless_int(1) {
                            return err(tpos, "expected i1 type for 'true' or 'false' values");
                        }
                    }
                    Ok(self.ir.bool_attr(v))
                }
                "unit" => {
                    self.bump();
                    Ok(self.ir.unit_attr())
                }
                "affine_map" => {
                    self.bump();
                    self.expect(Tok::Less, "'<'")?;
                    let m = self.parse_affine_map_body()?;
                    self.expect(Tok::Greater, "'>'")?;
                    Ok(self.ir.attr(AttrData::AffineMap(m)))
                }
                "affine_set" => {
                    self.bump();
                    self.expect(Tok::Less, "'<'")?;
                    let s = self.parse_integer_set_body()?;
                    self.expect(Tok::Greater, "'>'")?;
                    Ok(self.ir.attr(AttrData::IntegerSet(s)))
                }
                "array" => self.parse_dense_array(),
                "dense" => self.parse_dense_elements(ty),
                "sparse" => self.parse_sparse_elements(),
                "dense_resource" => {
                    self.bump();
                    self.expect(Tok::Less, "'<'")?;
                    let name = self.parse_keyword("resource handle name")?;
                    let name = self.ir.sym(name);
                    self.expect(Tok::Greater, "'>'")?;
                    let ty = self.parse_colon_type()?;
                    Ok(self.ir.attr(AttrData::DenseResource { name, ty }))
                }
                "strided" => self.parse_strided(),
                "loc" => self.parse_location_with("inline location", false),
                _ if self.starts_type() => {
                    let t = self.parse_type()?;
                    Ok(self.ir.type_attr(t))
                }
                _ => err(pos, "expected attribute value"),
            },
            Tok::LParen | Tok::ExclaimIdent => {
                let t = self.parse_type()?;
                Ok(self.ir.type_attr(t))
            }
            _ => self.wrong_token_error("expected attribute value"),
        }
    }

    pub fn parse_symbol_name(&mut self) -> PResult<String> {
        if !self.is(Tok::AtIdent) {
            return self.error("expected valid '@'-identifier for symbol name");
        }
        let t = &self.text()[1..];
        let s = if t.starts_with('"') {
            let pos = self.pos();
            String::from_utf8(crate::lexer::unescape(&t.as_bytes()[1..t.len() - 1]))
                .or_else(|_| err(pos, "expected valid UTF-8 symbol name"))?
        } else {
            t.to_string()
        };
        self.bump();
        Ok(s)
    }

    /// `typed`: an unregistered dialect attribute may carry `: type`, as
    /// MLIR's opaque attributes do, unless the caller already gave one.
    fn parse_hash_attr(&mut self, typed: bool) -> PResult<Attribute> {
        let pos = self.pos();
        let ident = &self.text()[1..];
        let end = self.tok.end;
        if let Some((dialect, rest)) = ident.split_once('.') {
            if dialect.is_empty() {
                return err(pos + 2, "invalid dialect namespace '\"\"'");
            }
            let dialect = dialect.to_string();
            let mut body = rest.to_string();
            if rest.is_empty() && self.ir.registry.dialect(&dialect).is_some() {
                // A registered dialect's pretty form starts with a mnemonic.
                return err(end, "expected valid keyword");
            }
            self.bump();
            if self.tok.kind == Tok::Less && self.tok.start == end {
                body.push_str(&self.parse_pretty_body()?);
            }
            // Dialect parsers report an unknown mnemonic where it starts.
            let mnemonic_pos = pos + 2 + dialect.len() as u32;
            let attr = self.make_opaque_attr(&dialect, body, pos, mnemonic_pos)?;
            return self.typed_opaque_suffix(attr, &dialect, typed);
        }
        let name = ident.to_string();
        self.bump();
        if self.tok.kind == Tok::Less && self.tok.start == end {
            let body = self.parse_pretty_body()?;
            let attr = self.make_opaque_attr(&name, body, pos, pos)?;
            return self.typed_opaque_suffix(attr, &name, typed);
        }
        match self.attr_aliases.get(&name) {
            Some(a) => Ok(*a),
            // Reported just past the name, as mlir-opt does.
            None => self.wrong_token_error(format!("undefined symbol alias id '{name}'")),
        }
    }

    /// A body with the attribute aliases it names (`#alias_scope_domain`)
    /// written out, as their attributes are what it holds.
    pub(super) fn expand_alias_refs(&self, body: &str, pos: u32) -> PResult<String> {
        let b = body.as_bytes();
        let mut out = String::with_capacity(body.len());
        let (mut i, mut copied) = (0, 0);
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'#' if b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') => {
                    let mut j = i + 1;
                    while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'$' | b'.' | b'-')) {
                        j += 1;
                    }
                    let name = &body[i + 1..j];
                    if !name.contains('.') && b.get(j) != Some(&b'<') {
                        let Some(&a) = self.attr_aliases.get(name) else {
                            return err(pos, format!("undefined symbol alias id '{name}'"));
                        };
                        out.push_str(&body[copied..i]);
                        let text = crate::printer::attr_to_string(self.ir, a);
                        // The alias's own text may name aliases (an
                        // unregistered attribute keeps its body as written):
                        // they must resolve too, or the result would not
                        // read back.
                        let text = if text.contains('#') { self.expand_alias_refs(&text, pos)? } else { text };
                        out.push_str(&text);
                        copied = j;
                    }
                    i = j;
                }
                _ => i += 1,
            }
        }
        out.push_str(&body[copied.min(body.len())..]);
        Ok(out)
    }

    /// An unregistered dialect's attribute may carry `: type`, in either
    /// spelling (`#foo.attr : i32`, `#foo<"x"> : i8`).
    fn typed_opaque_suffix(&mut self, attr: Attribute, dialect: &str, typed: bool) -> PResult<Attribute> {
        if typed && self.is(Tok::Colon) && self.ir.registry.dialect(dialect).is_none() {
            self.bump();
            let ty = self.parse_type()?;
            return Ok(self.ir.attr(AttrData::TypedOpaque { attr, ty }));
        }
        Ok(attr)
    }

    fn make_opaque_attr(&mut self, dialect: &str, mut body: String, pos: u32, mnemonic_pos: u32) -> PResult<Attribute> {
        match self.ir.registry.dialect(dialect) {
            Some(d) => {
                if !d.alias_mnemonics.is_empty() && body.contains('#') {
                    body = self.expand_alias_refs(&body, pos)?;
                }
                if let Some(check) = d.check_attr {
                    match check(&body) {
                        Ok(canonical) => body = canonical,
                        Err(m) if m.starts_with("unknown attribute `") => return err(mnemonic_pos, m),
                        Err(m) => {
                            return match crate::dialect::located_error(&m) {
                                Some((at, msg)) => err(mnemonic_pos + at, msg.to_string()),
                                None => err(pos, m),
                            };
                        }
                    }
                }
            }
            None if !self.ir.allow_unregistered => {
                return err(
                    pos,
                    format!(
                        "#{dialect} attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
                    ),
                );
            }
            None => {}
        }
        let dialect = self.ir.sym(dialect);
        Ok(self.ir.attr(AttrData::Opaque { dialect, body }))
    }

    fn parse_number_attr(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        let pos = self.pos();
        let neg = self.consume_if(Tok::Minus);
        let lit_pos = self.pos();
        let is_float = match self.tok.kind {
            Tok::Float => true,
            Tok::Integer => false,
            _ => return self.error("expected integer or floating point literal"),
        };
        let text = self.text();
        self.bump();
        let ty = match ty {
            Some(t) => t,
            None if self.consume_if(Tok::Colon) => self.parse_type()?,
            None if is_float => self.ir.float_type(FloatKind::F64),
            None => self.ir.int_type(64),
        };
        match self.ir.type_data(ty).clone() {
            TypeData::Float(k) => {
                let bits = if !is_float && text.starts_with("0x") {
                    if neg {
                        return err(lit_pos, "hexadecimal float literal should not have a leading minus");
                    }
                    let v = u128::from_str_radix(&text[2..], 16)
                        .or_else(|_| err(lit_pos, "hexadecimal float constant out of range for type"))?;
                    if k.bit_width() < 128 && v >> k.bit_width() != 0 {
                        return err(lit_pos, "hexadecimal float constant out of range for type");
                    }
                    v
                } else {
                    float_bits(k, text, neg).ok_or_else(|| {
                        Box::new(super::ParseError {
                            pos: lit_pos,
                            msg: format!("floating point type '{}' is not supported in literals", k.keyword()),
                            notes: Vec::new(),
                        })
                    })?
                };
                Ok(self.ir.attr(AttrData::Float { bits, ty }))
            }
            TypeData::Integer { .. } | TypeData::Index => {
                if is_float {
                    return err(pos, "floating point value not valid for specified type");
                }
                let value = self.int_value_for_type(text, neg, ty, lit_pos)?;
                Ok(self.ir.int_attr(value, ty))
            }
            _ => {
                err(pos, "expected integer or float type for number attribute").or_else(|e: Box<super::ParseError>| {
                    let _ = e;
                    err(pos, "integer literal not valid for specified type")
                })
            }
        }
    }

    /// Checks range and normalizes the stored value to the type's signedness.
    pub fn int_value_for_type(&self, text: &str, neg: bool, ty: Type, pos: u32) -> PResult<i128> {
        let raw = if let Some(h) = text.strip_prefix("0x") {
            u128::from_str_radix(h, 16).ok()
        } else {
            text.parse::<u128>().ok()
        };
        let Some(raw) = raw else { return err(pos, "integer constant out of range for attribute") };
        let (width, signedness) = match self.ir.type_data(ty) {
            TypeData::Integer { width, signedness } => (*width, *signedness),
            _ => (64, Signedness::Signed),
        };
        if neg && signedness == Signedness::Unsigned {
            return err(pos, "negative integer literal not valid for unsigned integer type");
        }
        if width > 128 {
            // Wider than the stored value: only what fits as it is.
            if raw > i128::MAX as u128 {
                return err(pos, "integer constant out of range for attribute");
            }
            return Ok(if neg { -(raw as i128) } else { raw as i128 });
        }
        let out_of_range = || err(pos, "integer constant out of range for attribute");
        if width == 0 {
            return if raw == 0 { Ok(0) } else { out_of_range() };
        }
        // Whether `raw` fits `width` bits unsigned (a shift by 128 is no shift).
        let fits = |raw: u128| raw.checked_shr(width).unwrap_or(0) == 0;
        if neg {
            // Magnitude must fit a signed `width`-bit value.
            if raw > 1u128 << (width - 1) {
                return out_of_range();
            }
            return Ok((raw as i128).wrapping_neg());
        }
        match signedness {
            Signedness::Signed if text.starts_with("0x") => {
                if !fits(raw) {
                    return out_of_range();
                }
                Ok(sign_extend(raw, width))
            }
            Signedness::Signed => {
                if raw >= 1u128 << (width - 1) {
                    return out_of_range();
                }
                Ok(raw as i128)
            }
            Signedness::Unsigned => {
                // Stored in an i128: the top bit of a u128 cannot be kept.
                if !fits(raw) || raw > i128::MAX as u128 {
                    return out_of_range();
                }
                Ok(raw as i128)
            }
            Signedness::Signless => {
                if !fits(raw) {
                    return out_of_range();
                }
                // Signless values are stored sign-extended (printed as signed).
                Ok(if width == 1 { raw as i128 } else { sign_extend(raw, width) })
            }
        }
    }

    fn parse_dense_array(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'array'")?;
        let tpos = self.pos();
        let elem = self.parse_type()?;
        let kind = match self.ir.type_data(elem) {
            TypeData::Integer { width: 1 | 8 | 16 | 32 | 64, signedness: Signedness::Signless } => None,
            TypeData::Float(k @ (FloatKind::F32 | FloatKind::F64)) => Some(*k),
            _ => return err(tpos, "expected integer or float type, got: ".to_string() + &self.type_str(elem)),
        };
        let data = if let Some(k) = kind {
            let mut v = Vec::new();
            if self.consume_if(Tok::Colon) {
                self.parse_comma_list(None, "dense array", &mut |p| {
                    let neg = p.consume_if(Tok::Minus);
                    let lpos = p.pos();
                    if !matches!(p.tok.kind, Tok::Integer | Tok::Float) {
                        return p.error("expected float literal");
                    }
                    let text = p.text();
                    p.bump();
                    let bits = if let Some(h) = text.strip_prefix("0x") {
                        u128::from_str_radix(h, 16).ok()
                    } else {
                        float_bits(k, text, neg)
                    };
                    let Some(b) = bits else { return err(lpos, "invalid float literal") };
                    v.push(b as u64);
                    Ok(())
                })?;
            }
            DenseArrayData::Float(v)
        } else {
            let mut v = Vec::new();
            if self.consume_if(Tok::Colon) {
                self.parse_comma_list(None, "dense array", &mut |p| {
                    if p.is_keyword("true") || p.is_keyword("false") {
                        v.push((p.text() == "true") as i64);
                        p.bump();
                        return Ok(());
                    }
                    let neg = p.consume_if(Tok::Minus);
                    let lpos = p.pos();
                    if !p.is(Tok::Integer) {
                        return p.error("expected integer literal");
                    }
                    let text = p.text();
                    p.bump();
                    let x = p.int_value_for_type(text, neg, elem, lpos)?;
                    v.push(x as i64);
                    Ok(())
                })?;
            }
            DenseArrayData::Int(v)
        };
        self.expect(Tok::Greater, "'>' to close an array attribute")?;
        Ok(self.ir.attr(AttrData::DenseArray { elem, data }))
    }

    fn parse_strided(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'strided'")?;
        let mut strides = Vec::new();
        self.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "", &mut |p| {
            if p.consume_if(Tok::Question) {
                strides.push(DYNAMIC);
                return Ok(());
            }
            let v = p.parse_integer("a non-negative integer or '?'")?;
            strides.push(v as i64);
            Ok(())
        })?;
        let mut offset = 0;
        if self.consume_if(Tok::Comma) {
            self.expect_keyword("offset")?;
            self.expect(Tok::Colon, "':' after 'offset'")?;
            offset = if self.consume_if(Tok::Question) { DYNAMIC } else { self.parse_integer("offset")? as i64 };
        }
        self.expect(Tok::Greater, "'>'")?;
        Ok(self.ir.attr(AttrData::Strided { strides, offset }))
    }

    // ----- dense elements -----

    /// `dense<...> : type`, or without the type where the context gives it
    /// (`memref.global`'s initial value).
    fn parse_dense_elements(&mut self, hint: Option<Type>) -> PResult<Attribute> {
        let pos = self.pos();
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense'")?;
        let lit_pos = self.pos();
        enum Lit {
            Empty,
            Hex(Vec<u8>),
            Tree(DenseTree),
        }
        let lit = if self.is(Tok::Greater) {
            Lit::Empty
        } else if self.is(Tok::String) {
            Lit::Hex(self.parse_string("hex string")?)
        } else {
            Lit::Tree(self.parse_dense_tree()?)
        };
        self.expect(Tok::Greater, "'>'")?;
        let tpos = self.pos();
        let ty = match hint {
            Some(h) if !self.is(Tok::Colon) => h,
            _ => {
                self.expect(Tok::Colon, "':'")?;
                self.parse_type()?
            }
        };
        let td = self.ir.type_data(ty).clone();
        let (shape, elem) = match &td {
            TypeData::RankedTensor { shape, elem, .. }
            | TypeData::Vector { shape, elem, .. }
            | TypeData::MemRef { shape, elem, .. } => (shape.clone(), *elem),
            _ => return err(tpos, "elements literal must be a shaped type"),
        };
        if shape.contains(&DYNAMIC) {
            return err(tpos, "elements literal type must have static shape");
        }
        let Some(count) = shape.iter().try_fold(1i64, |a, d| a.checked_mul(*d)) else {
            return err(tpos, "elements literal type has too many elements");
        };
        let elem_data = self.ir.type_data(elem).clone();
        let elems = match lit {
            Lit::Empty => {
                if count != 0 {
                    return err(
                        lit_pos,
                        format!("parsed zero elements, but type ('{}') expected at least 1", self.type_str(ty)),
                    );
                }
                Vec::new()
            }
            // A string for non-numeric elements is the one (splat) value.
            Lit::Hex(h) if holds_strings(&elem_data) => vec![DenseElem::Str(h)],
            Lit::Hex(h) => self.dense_hex(&String::from_utf8_lossy(&h), lit_pos, count, &elem_data)?,
            Lit::Tree(tree) => {
                let mut inferred = Vec::new();
                let mut leaves = Vec::new();
                tree.flatten(&mut inferred, 0, &mut leaves)
                    .map_err(|m| Box::new(super::ParseError { pos: lit_pos, msg: m, notes: Vec::new() }))?;
                let is_splat = inferred.is_empty();
                if !is_splat && inferred != shape {
                    let fmt =
                        |s: &[i64]| format!("[{}]", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "));
                    return err(
                        lit_pos,
                        format!(
                            "inferred shape of elements literal ({}) does not match type ({})",
                            fmt(&inferred),
                            fmt(&shape)
                        ),
                    );
                }
                let mut out = Vec::with_capacity(leaves.len());
                for leaf in leaves {
                    out.push(self.dense_leaf_at(leaf, elem, &elem_data, pos)?);
                }
                out
            }
        };
        let splat = !elems.is_empty() && elems.iter().all(|e| *e == elems[0]);
        let elems = if splat { vec![elems[0].clone()] } else { elems };
        Ok(self.ir.attr(AttrData::DenseElements { ty, splat, elems }))
    }

    /// The elements of a hex string literal (`"0x..."`, little-endian bytes),
    /// `count` of them or a single splat value.
    fn dense_hex(&mut self, h: &str, lit_pos: u32, count: i64, elem_data: &TypeData) -> PResult<Vec<DenseElem>> {
        let Some(hex) = h.strip_prefix("0x") else {
            return err(lit_pos, "expected string containing hex digits starting with `0x`");
        };
        let bytes: Option<Vec<u8>> =
            (0..hex.len() / 2).map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()).collect();
        let Some(bytes) = bytes.filter(|_| hex.len() % 2 == 0) else {
            return err(lit_pos, "expected string containing hex digits starting with `0x`");
        };
        let width = match elem_data {
            TypeData::Integer { width, .. } => *width,
            TypeData::Float(k) => k.bit_width(),
            TypeData::Index => 64,
            _ => return err(lit_pos, "hex elements of this type are not supported"),
        };
        let esize = (width as usize).div_ceil(8).max(1);
        if bytes.len() % esize != 0 || (bytes.len() / esize != count as usize && bytes.len() / esize != 1) {
            return err(
                lit_pos,
                format!(
                    "elements hex data size is invalid for provided type: Data size: {}, Type size: {}",
                    bytes.len(),
                    esize * count as usize
                ),
            );
        }
        Ok(bytes
            .chunks(esize)
            .map(|c| {
                let mut v: u128 = 0;
                for (i, b) in c.iter().enumerate() {
                    v |= (*b as u128) << (8 * i);
                }
                match elem_data {
                    TypeData::Float(_) => DenseElem::Float(v as u64),
                    TypeData::Integer { width, signedness } if *signedness != Signedness::Unsigned && *width > 1 => {
                        DenseElem::Int(sign_extend(v, *width))
                    }
                    _ => DenseElem::Int(v as i128),
                }
            })
            .collect())
    }

    /// `sparse<INDICES, VALUES> : type` or `sparse<> : type`: the indices a
    /// dense i64 tensor of shape [N, rank] (or a splat, one index with every
    /// coordinate equal), the values a dense tensor of shape [N] (or a splat).
    fn parse_sparse_elements(&mut self) -> PResult<Attribute> {
        let pos = self.pos();
        self.bump();
        self.expect(Tok::Less, "'<' after 'sparse'").map_err(|mut e| {
            e.msg = "Expected '<' after 'sparse'".into();
            e
        })?;
        let i64t = self.ir.int_type(64);
        let i64d = self.ir.type_data(i64t).clone();
        let mut parts = None;
        if !self.consume_if(Tok::Greater) {
            let ipos = self.pos();
            if self.is(Tok::String) {
                return err(ipos, "integer constant out of range for type");
            }
            let itree = self.parse_dense_tree()?;
            self.expect(Tok::Comma, "','")?;
            let vpos = self.pos();
            let vlit = if self.is(Tok::String) {
                Err(String::from_utf8_lossy(&self.parse_string("hex string")?).into_owned())
            } else {
                Ok(self.parse_dense_tree()?)
            };
            self.expect(Tok::Greater, "'>'")?;
            parts = Some((ipos, itree, vpos, vlit));
        }
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        let (shape, elem) = match self.ir.type_data(ty) {
            TypeData::RankedTensor { shape, elem, .. }
            | TypeData::Vector { shape, elem, .. }
            | TypeData::MemRef { shape, elem, .. } => (shape.clone(), *elem),
            TypeData::UnrankedTensor { .. } | TypeData::UnrankedMemRef { .. } => {
                return err(pos, "elements literal type must have static shape");
            }
            _ => return err(pos, "elements literal must be a shaped type"),
        };
        if shape.contains(&DYNAMIC) {
            return err(pos, "elements literal type must have static shape");
        }
        let rank = shape.len() as i64;
        let elem_data = self.ir.type_data(elem).clone();
        let leaves_of = |tree: DenseTree, at: u32| -> PResult<(Vec<i64>, Vec<DenseLeaf>)> {
            let mut inferred = Vec::new();
            let mut leaves = Vec::new();
            tree.flatten(&mut inferred, 0, &mut leaves)
                .map_err(|m| Box::new(super::ParseError { pos: at, msg: m, notes: Vec::new() }))?;
            Ok((inferred, leaves))
        };
        let (ishape, ielems, vshape, velems) = match parts {
            None => (vec![0, rank], Vec::new(), vec![0], Vec::new()),
            Some((ipos, itree, vpos, vlit)) => {
                let (ishape, ileaves) = leaves_of(itree, ipos)?;
                let ishape = if ishape.is_empty() { vec![1, rank] } else { ishape };
                let mut ielems = Vec::with_capacity(ileaves.len());
                for leaf in ileaves {
                    ielems.push(self.dense_leaf(leaf, i64t, &i64d)?);
                }
                let n = ishape[0];
                let (vshape, velems) = match vlit {
                    Err(hex) if holds_strings(&elem_data) => (vec![n], vec![DenseElem::Str(hex.into_bytes())]),
                    Err(hex) => (vec![n], self.dense_hex(&hex, vpos, n, &elem_data)?),
                    Ok(vtree) => {
                        let (vshape, vleaves) = leaves_of(vtree, vpos)?;
                        let vshape = if vshape.is_empty() { vec![n] } else { vshape };
                        let mut velems = Vec::with_capacity(vleaves.len());
                        for leaf in vleaves {
                            velems.push(self.dense_leaf_at(leaf, elem, &elem_data, pos)?);
                        }
                        (vshape, velems)
                    }
                };
                (ishape, ielems, vshape, velems)
            }
        };
        // Verification, as `SparseElementsAttr::verify`.
        if vshape.len() != 1 {
            return err(pos, "expected 1-d tensor for sparse element values");
        }
        let fmt = |s: &[i64]| s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
        let shape_ok = match ishape.len() {
            2 => ishape[1] == rank,
            1 => rank == 1,
            _ => false,
        } && ishape[0] == vshape[0];
        if !shape_ok {
            return err(
                pos,
                format!(
                    "expected shape ([{}]); inferred shape of indices literal ([{}]); inferred shape of values literal ([{}])",
                    fmt(&shape),
                    fmt(&ishape),
                    fmt(&vshape)
                ),
            );
        }
        let coord = |e: &DenseElem| match e {
            DenseElem::Int(v) => *v as i64 as u64,
            _ => 0,
        };
        let isplat = ielems.len() == 1 && ishape.iter().product::<i64>() != 1;
        let indices: Vec<Vec<u64>> = if isplat {
            vec![vec![coord(&ielems[0]); rank as usize]]
        } else if rank == 0 {
            vec![Vec::new(); ishape[0] as usize]
        } else {
            ielems.chunks(rank as usize).map(|c| c.iter().map(coord).collect()).collect()
        };
        for (n, index) in indices.iter().enumerate() {
            let valid = index.len() == shape.len() && index.iter().zip(&shape).all(|(i, d)| *i < *d as u64);
            if !valid {
                let list = index.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
                let ts = self.type_str(ty);
                return err(
                    pos,
                    format!(
                        "sparse index #{n} is not contained within the value shape, with index=[{list}], and type='{ts}'"
                    ),
                );
            }
        }
        let mut dense = |shape: Vec<i64>, elem: Type, elems: Vec<DenseElem>| {
            let ty = self.ir.ty(TypeData::RankedTensor { shape, elem, encoding: None });
            let splat = !elems.is_empty() && elems.iter().all(|e| *e == elems[0]);
            let elems = if splat { vec![elems[0].clone()] } else { elems };
            self.ir.attr(AttrData::DenseElements { ty, splat, elems })
        };
        let ielems = if ishape.contains(&0) { Vec::new() } else { ielems };
        let indices = dense(ishape, i64t, ielems);
        let values = dense(vshape, elem, velems);
        Ok(self.ir.attr(AttrData::SparseElements { ty, indices, values }))
    }

    /// A leaf of the literal starting at `at` (where MLIR reports a
    /// non-string leaf among string elements).
    fn dense_leaf_at(&mut self, leaf: DenseLeaf, elem: Type, data: &TypeData, at: u32) -> PResult<DenseElem> {
        if !holds_strings(data) {
            return self.dense_leaf(leaf, elem, data);
        }
        match leaf {
            DenseLeaf::Str(bytes, _) => Ok(DenseElem::Str(bytes)),
            other => err(at, format!("expected string token, got {}", other.spelling())),
        }
    }

    fn dense_leaf(&mut self, leaf: DenseLeaf, elem: Type, data: &TypeData) -> PResult<DenseElem> {
        match (leaf, data) {
            (DenseLeaf::Str(_, pos), TypeData::Float(_)) => err(pos, "expected floating point literal"),
            (DenseLeaf::Str(_, pos), _) => err(pos, "integer constant out of range for type"),
            (DenseLeaf::Complex(re, im), TypeData::Complex(inner)) => {
                let inner_data = self.ir.type_data(*inner).clone();
                let a = self.dense_leaf(*re, *inner, &inner_data)?;
                let b = self.dense_leaf(*im, *inner, &inner_data)?;
                Ok(DenseElem::Complex(Box::new((a, b))))
            }
            (DenseLeaf::Bool(b, _), TypeData::Integer { width: 1, .. }) => Ok(DenseElem::Int(b as i128)),
            (DenseLeaf::Bool(_, pos), TypeData::Integer { .. } | TypeData::Index) => {
                err(pos, "expected i1 type for 'true' or 'false' values")
            }
            (DenseLeaf::Bool(_, pos), TypeData::Float(_)) => err(pos, "expected floating point literal"),
            (DenseLeaf::Bool(_, pos), _) => err(pos, "expected integer elements, but parsed boolean"),
            (DenseLeaf::Num { text, neg, is_float, pos }, TypeData::Integer { .. } | TypeData::Index) => {
                if is_float {
                    return err(pos, "expected integer elements, but parsed floating-point");
                }
                Ok(DenseElem::Int(self.int_value_for_type(&text, neg, elem, pos)?))
            }
            (DenseLeaf::Num { text, neg, pos, .. }, TypeData::Float(k)) => {
                let bits = if let Some(h) = text.strip_prefix("0x") {
                    u128::from_str_radix(h, 16).ok()
                } else {
                    float_bits(*k, &text, neg)
                };
                match bits {
                    Some(b) => Ok(DenseElem::Float(b as u64)),
                    None => err(pos, "invalid floating point literal"),
                }
            }
            (DenseLeaf::Complex(_, _), _) => err(0, "complex value not valid for non-complex element type"),
            (DenseLeaf::Num { pos, .. }, _) => err(pos, "expected integer or floating point element type"),
        }
    }

    fn parse_dense_tree(&mut self) -> PResult<DenseTree> {
        self.nested(|p| p.parse_dense_tree_inner())
    }

    fn parse_dense_tree_inner(&mut self) -> PResult<DenseTree> {
        if self.is(Tok::LSquare) {
            let mut items = Vec::new();
            self.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "", &mut |p| {
                items.push(p.parse_dense_tree()?);
                Ok(())
            })?;
            return Ok(DenseTree::List(items));
        }
        Ok(DenseTree::Leaf(self.parse_dense_leaf()?))
    }

    fn parse_dense_leaf(&mut self) -> PResult<DenseLeaf> {
        self.nested(|p| p.parse_dense_leaf_inner())
    }

    fn parse_dense_leaf_inner(&mut self) -> PResult<DenseLeaf> {
        let pos = self.pos();
        if self.is_keyword("true") || self.is_keyword("false") {
            let v = self.text() == "true";
            self.bump();
            return Ok(DenseLeaf::Bool(v, pos));
        }
        if self.consume_if(Tok::LParen) {
            let re = self.parse_dense_leaf()?;
            self.expect(Tok::Comma, "','")?;
            let im = self.parse_dense_leaf()?;
            self.expect(Tok::RParen, "')'")?;
            return Ok(DenseLeaf::Complex(Box::new(re), Box::new(im)));
        }
        if self.is(Tok::String) {
            return Ok(DenseLeaf::Str(self.parse_string("string element")?, pos));
        }
        let neg = self.consume_if(Tok::Minus);
        let is_float = match self.tok.kind {
            Tok::Float => true,
            Tok::Integer => false,
            _ => return self.error("expected element literal of primitive type"),
        };
        let text = self.text().to_string();
        self.bump();
        Ok(DenseLeaf::Num { text, neg, is_float, pos })
    }

    // ----- affine -----

    pub fn parse_affine_map_body(&mut self) -> PResult<AffineMap> {
        let mut ids = self.parse_dim_sym_lists()?;
        self.expect(Tok::Arrow, "'->'")?;
        let mut results = Vec::new();
        self.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "affine map range", &mut |p| {
            results.push(p.parse_affine_expr(&mut ids)?);
            Ok(())
        })?;
        Ok(AffineMap { num_dims: ids.num_dims, num_symbols: ids.num_symbols, results })
    }

    /// `[e0, e1, ...]` whose identifiers are SSA values (`%i`, `symbol(%n)`),
    /// as subscripts of `affine.load` / `affine.store`: the map and its
    /// operands.
    pub fn parse_affine_map_of_ssa_ids(&mut self) -> PResult<(AffineMap, SsaAffineOperands)> {
        self.parse_affine_map_of_ssa_ids_in((Tok::LSquare, Tok::RSquare))
    }

    /// The same, between other delimiters (`(`, `)` for `affine.parallel`'s
    /// `max(...)` bounds and steps).
    pub fn parse_affine_map_of_ssa_ids_in(&mut self, delims: (Tok, Tok)) -> PResult<(AffineMap, SsaAffineOperands)> {
        let (open, close) = if delims.0 == Tok::LParen { ("'('", "')'") } else { ("'['", "']'") };
        let mut ids = SsaAffineOperands::default();
        let mut results = Vec::new();
        self.expect(delims.0, open)?;
        if !self.consume_if(delims.1) {
            loop {
                results.push(self.parse_affine_expr(&mut ids)?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect_wrong_token(delims.1, &format!("expected {close} in affine map"))?;
        }
        let map = AffineMap { num_dims: ids.dims.len() as u32, num_symbols: ids.symbols.len() as u32, results };
        Ok((map, ids))
    }

    /// One affine expression of SSA values (`%i + symbol(%n) * 2`), with
    /// its dims and symbols numbered in the order they first appear.
    pub fn parse_affine_expr_of_ssa_ids(&mut self) -> PResult<(AffineExpr, SsaAffineOperands)> {
        let mut ids = SsaAffineOperands::default();
        let e = self.parse_affine_expr(&mut ids)?;
        Ok((e, ids))
    }

    fn parse_integer_set_body(&mut self) -> PResult<IntegerSet> {
        let mut ids = self.parse_dim_sym_lists()?;
        self.expect(Tok::Colon, "':'")?;
        let mut constraints = Vec::new();
        self.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "integer set constraint list", &mut |p| {
            let lhs = p.parse_affine_expr(&mut ids)?;
            let (op, pos) = (p.tok.kind, p.pos());
            let t = p.text();
            let kind = if op == Tok::Greater && p.src.as_bytes().get(pos as usize + 1) == Some(&b'=') {
                0
            } else if op == Tok::Less && p.src.as_bytes().get(pos as usize + 1) == Some(&b'=') {
                1
            } else if op == Tok::Equal && p.src.as_bytes().get(pos as usize + 1) == Some(&b'=') {
                2
            } else {
                let _ = t;
                return p.error("expected '== affine-expr' or '>= affine-expr' at end of affine constraint");
            };
            p.reset_to(pos + 2);
            let rhs = p.parse_affine_expr(&mut ids)?;
            constraints.push(match kind {
                0 => (AffineExpr::minus(lhs, rhs), false),
                1 => (AffineExpr::minus(rhs, lhs), false),
                _ => (AffineExpr::minus(lhs, rhs), true),
            });
            Ok(())
        })?;
        if constraints.is_empty() {
            // No constraint is the set of every point: MLIR stores it as
            // the always-true `0 == 0`.
            constraints.push((AffineExpr::Constant(0), true));
        }
        Ok(IntegerSet { num_dims: ids.num_dims, num_symbols: ids.num_symbols, constraints })
    }

    fn parse_dim_sym_lists(&mut self) -> PResult<AffineIds<'a>> {
        let mut ids = AffineIds { num_dims: 0, num_symbols: 0, names: HashMap::default() };
        self.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "dimensional identifier list", &mut |p| {
            let e = AffineExpr::Dim(ids.num_dims);
            ids.num_dims += 1;
            p.parse_affine_id(&mut ids, e)
        })?;
        if self.is(Tok::LSquare) {
            self.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "symbol list", &mut |p| {
                let e = AffineExpr::Symbol(ids.num_symbols);
                ids.num_symbols += 1;
                p.parse_affine_id(&mut ids, e)
            })?;
        }
        Ok(ids)
    }

    fn parse_affine_id(&mut self, ids: &mut AffineIds<'a>, e: AffineExpr) -> PResult<()> {
        let pos = self.pos();
        let n = self.parse_keyword("bare identifier")?;
        if ids.names.insert(n, e).is_some() {
            return err(pos, format!("redefinition of identifier '{n}'"));
        }
        Ok(())
    }

    fn parse_affine_expr(&mut self, ids: &mut dyn AffineLeaves<'a>) -> PResult<AffineExpr> {
        let mut lhs = self.parse_affine_term(ids)?;
        loop {
            if self.consume_if(Tok::Plus) {
                let r = self.parse_affine_term(ids)?;
                lhs = AffineExpr::plus(lhs, r);
            } else if self.is(Tok::Minus) {
                self.bump();
                let r = self.parse_affine_term(ids)?;
                lhs = AffineExpr::minus(lhs, r);
            } else {
                return Ok(lhs);
            }
        }
    }

    fn parse_affine_term(&mut self, ids: &mut dyn AffineLeaves<'a>) -> PResult<AffineExpr> {
        let mut lhs = self.parse_affine_factor(ids)?;
        loop {
            let pos = self.pos();
            if self.consume_if(Tok::Star) {
                let r = self.parse_affine_factor(ids)?;
                if !lhs.is_symbolic_or_constant() && !r.is_symbolic_or_constant() {
                    return err(
                        pos,
                        "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
                    );
                }
                lhs = AffineExpr::times(lhs, r);
                continue;
            }
            let op = if self.is_keyword("floordiv") {
                "floordiv"
            } else if self.is_keyword("ceildiv") {
                "ceildiv"
            } else if self.is_keyword("mod") {
                "mod"
            } else {
                return Ok(lhs);
            };
            self.bump();
            let r = self.parse_affine_factor(ids)?;
            if !r.is_symbolic_or_constant() {
                return err(
                    pos,
                    format!("non-affine expression: right operand of {op} has to be either a constant or symbolic"),
                );
            }
            lhs = match op {
                "floordiv" => AffineExpr::floordiv(lhs, r),
                "ceildiv" => AffineExpr::ceildiv(lhs, r),
                _ => AffineExpr::modulo(lhs, r),
            };
        }
    }

    fn parse_affine_factor(&mut self, ids: &mut dyn AffineLeaves<'a>) -> PResult<AffineExpr> {
        self.nested(|p| p.parse_affine_factor_inner(ids))
    }

    fn parse_affine_factor_inner(&mut self, ids: &mut dyn AffineLeaves<'a>) -> PResult<AffineExpr> {
        match self.tok.kind {
            Tok::Minus => {
                self.bump();
                let e = self.parse_affine_factor(ids)?;
                Ok(AffineExpr::negated(e))
            }
            Tok::LParen => {
                self.bump();
                let e = self.parse_affine_expr(ids)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Integer => {
                let Ok(v) = self.text().parse::<i64>() else { return self.error("constant too large for index") };
                self.bump();
                Ok(AffineExpr::Constant(v))
            }
            Tok::Error => self.error(""),
            _ => match ids.leaf(self)? {
                Some(e) => Ok(e),
                None => self.error("expected affine expression"),
            },
        }
    }

    // ----- locations -----

    /// `loc(...)` after an op, a block or function argument. Only here may
    /// `loc(#alias)` name an alias defined later in the file.
    pub fn parse_location(&mut self) -> PResult<Attribute> {
        self.parse_location_with("location", true)
    }

    /// `loc(...)`; as an attribute value it is an "inline location" in
    /// mlir-opt's words.
    fn parse_location_with(&mut self, what: &str, trailing: bool) -> PResult<Attribute> {
        if !self.parse_optional_keyword("loc") {
            return self.wrong_token_error("expected 'loc'");
        }
        self.expect_wrong_token(Tok::LParen, &format!("expected '(' in {what}"))?;
        let l = if trailing && self.is(Tok::HashIdent) && !self.text().contains('.') {
            self.parse_location_alias()?
        } else {
            self.parse_location_instance()?
        };
        self.expect_wrong_token(Tok::RParen, &format!("expected ')' in {what}"))?;
        Ok(l)
    }

    /// `#alias` as a whole trailing location; resolved at the end of the file
    /// when not defined yet.
    fn parse_location_alias(&mut self) -> PResult<Attribute> {
        let pos = self.pos();
        let name = &self.src[pos as usize + 1..self.tok.end as usize];
        self.bump();
        match self.attr_aliases.get(name) {
            Some(&a) if matches!(self.ir.attr_data(a), AttrData::Location(_)) => Ok(a),
            Some(&a) => err(pos, format!("expected location, but found '{}'", self.attr_str(a))),
            None => {
                let i = self.deferred_locs.len() as u32;
                self.deferred_locs.push((name, pos));
                Ok(self.ir.attr(AttrData::Location(LocData::Deferred(i))))
            }
        }
    }

    /// Every token mismatch inside a location is reported past the previous token.
    fn expect_wrong_token(&mut self, k: Tok, msg: &str) -> PResult<()> {
        if self.consume_if(k) { Ok(()) } else { self.wrong_token_error(msg) }
    }

    /// The current integer token as a line or column number: 32 bits unsigned,
    /// decimal or `0x` hexadecimal.
    fn line_col_number(&self) -> Option<u32> {
        if !self.is(Tok::Integer) {
            return None;
        }
        let t = self.text();
        match t.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16).ok(),
            None => t.parse().ok(),
        }
    }

    /// A line number: anything but an in-range integer is a wrong token.
    fn parse_loc_line(&mut self) -> PResult<u32> {
        let Some(v) = self.line_col_number() else {
            return self.wrong_token_error("expected integer line number in FileLineColRange");
        };
        self.bump();
        Ok(v)
    }

    /// A column number: a non-integer is a wrong token, an out-of-range
    /// integer is reported at itself (as mlir-opt does).
    fn parse_loc_col(&mut self) -> PResult<u32> {
        const MSG: &str = "expected integer column number in FileLineColRange";
        if !self.is(Tok::Integer) {
            return self.wrong_token_error(MSG);
        }
        let Some(v) = self.line_col_number() else { return self.error(MSG) };
        self.bump();
        Ok(v)
    }

    /// What follows `to` in a range: `line:col` or `:col` (same line).
    fn parse_loc_range_end(&mut self) -> PResult<(Option<u32>, u32)> {
        const MSG: &str = "expected either integer or `:` post `to` in FileLineColRange";
        let mut end_line = None;
        if self.is(Tok::Integer) {
            end_line = Some(self.parse_loc_line()?);
            if !self.is(Tok::Colon) {
                return self.wrong_token_error(MSG);
            }
        } else if !self.is(Tok::Colon) {
            return self.wrong_token_error(MSG);
        }
        self.bump();
        Ok((end_line, self.parse_loc_col()?))
    }

    fn parse_location_instance(&mut self) -> PResult<Attribute> {
        self.nested(|p| p.parse_location_instance_inner())
    }

    fn parse_location_instance_inner(&mut self) -> PResult<Attribute> {
        match self.tok.kind {
            Tok::HashIdent => {
                let a = self.parse_hash_attr(false)?;
                if !matches!(self.ir.attr_data(a), AttrData::Location(_)) {
                    // Upstream's words, missing space included.
                    return self.error(format!("expected location attribute, but got{}", self.attr_str(a)));
                }
                Ok(a)
            }
            Tok::String => {
                let s = self.parse_utf8_string("location")?;
                let sym = self.ir.sym(&s);
                if self.consume_if(Tok::Colon) {
                    // `"file":line`, `"file":line:col`, or a range after `to`
                    // (`line:col` or `:col`).
                    let line = self.parse_loc_line()?;
                    let range = if !self.consume_if(Tok::Colon) {
                        LocData::FileLineColRange { file: sym, line, col: None, end_line: None, end_col: None }
                    } else {
                        let col = self.parse_loc_col()?;
                        if !self.parse_optional_keyword("to") {
                            return Ok(self.ir.attr(AttrData::Location(LocData::FileLineCol { file: sym, line, col })));
                        }
                        let (end_line, end_col) = self.parse_loc_range_end()?;
                        LocData::FileLineColRange { file: sym, line, col: Some(col), end_line, end_col: Some(end_col) }
                    };
                    return Ok(self.ir.attr(AttrData::Location(range)));
                }
                let child = if self.consume_if(Tok::LParen) {
                    let c = self.parse_location_instance()?;
                    self.expect_wrong_token(Tok::RParen, "expected ')' after child location of NameLoc")?;
                    Some(c)
                } else {
                    None
                };
                Ok(self.ir.attr(AttrData::Location(LocData::Name { name: sym, child })))
            }
            Tok::BareIdent => match self.text() {
                "unknown" => {
                    self.bump();
                    Ok(self.ir.unknown_loc())
                }
                "callsite" => {
                    self.bump();
                    self.expect_wrong_token(Tok::LParen, "expected '(' in callsite location")?;
                    let callee = self.parse_location_instance()?;
                    if !self.parse_optional_keyword("at") {
                        return self.wrong_token_error("expected 'at' in callsite location");
                    }
                    let caller = self.parse_location_instance()?;
                    self.expect_wrong_token(Tok::RParen, "expected ')' in callsite location")?;
                    Ok(self.ir.attr(AttrData::Location(LocData::CallSite { callee, caller })))
                }
                "fused" => {
                    self.bump();
                    let metadata = if self.consume_if(Tok::Less) {
                        let m = self.parse_attribute(None)?;
                        self.expect_wrong_token(Tok::Greater, "expected '>' after fused location metadata")?;
                        Some(m)
                    } else {
                        None
                    };
                    let mut locs = Vec::new();
                    self.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "fused location", &mut |p| {
                        locs.push(p.parse_location_instance()?);
                        Ok(())
                    })?;
                    Ok(self.ir.attr(AttrData::Location(LocData::Fused { locs, metadata })))
                }
                _ => self.wrong_token_error("expected location instance"),
            },
            _ => self.wrong_token_error("expected location instance"),
        }
    }
}

/// The dimension and symbol names of an affine map or integer set.
struct AffineIds<'s> {
    num_dims: u32,
    num_symbols: u32,
    names: HashMap<&'s str, AffineExpr>,
}

/// What the identifiers of an affine expression are: the names a map
/// declares, or SSA values (`%i`, `symbol(%n)`) as in `affine.load`.
trait AffineLeaves<'a> {
    /// The identifier at the parser's token, or None when there is none.
    fn leaf(&mut self, p: &mut Parser<'a>) -> PResult<Option<AffineExpr>>;
}

impl<'a> AffineLeaves<'a> for AffineIds<'a> {
    fn leaf(&mut self, p: &mut Parser<'a>) -> PResult<Option<AffineExpr>> {
        if !p.is(Tok::BareIdent) {
            return Ok(None);
        }
        let n = p.text();
        let Some(e) = self.names.get(n) else {
            return p.error(format!("use of undeclared identifier '{n}'"));
        };
        let e = e.clone();
        p.bump();
        Ok(Some(e))
    }
}

/// The operands of an affine map written with SSA values: dims, then
/// symbols, each once.
#[derive(Default)]
pub struct SsaAffineOperands {
    pub dims: Vec<UnresolvedOperand>,
    pub symbols: Vec<UnresolvedOperand>,
}

impl SsaAffineOperands {
    fn find(&self, o: &UnresolvedOperand) -> Option<AffineExpr> {
        let same = |x: &UnresolvedOperand| x.name == o.name && x.number == o.number;
        if let Some(i) = self.dims.iter().position(same) {
            return Some(AffineExpr::Dim(i as u32));
        }
        self.symbols.iter().position(same).map(|i| AffineExpr::Symbol(i as u32))
    }
}

impl<'a> AffineLeaves<'a> for SsaAffineOperands {
    fn leaf(&mut self, p: &mut Parser<'a>) -> PResult<Option<AffineExpr>> {
        // A value already named keeps its role, whichever way it is written again.
        if p.is(Tok::PercentIdent) {
            let o = p.parse_operand()?;
            return Ok(Some(self.find(&o).unwrap_or_else(|| {
                self.dims.push(o);
                AffineExpr::Dim(self.dims.len() as u32 - 1)
            })));
        }
        if p.is_keyword("symbol") {
            p.bump();
            p.expect(Tok::LParen, "'('")?;
            let o = p.parse_operand()?;
            p.expect(Tok::RParen, "')'")?;
            return Ok(Some(self.find(&o).unwrap_or_else(|| {
                self.symbols.push(o);
                AffineExpr::Symbol(self.symbols.len() as u32 - 1)
            })));
        }
        // Identifiers here are SSA values; a bare name is none of them.
        if p.is(Tok::BareIdent) {
            return p.wrong_token_error("use of undeclared identifier");
        }
        Ok(None)
    }
}

enum DenseTree {
    List(Vec<DenseTree>),
    Leaf(DenseLeaf),
}

enum DenseLeaf {
    Num { text: String, neg: bool, is_float: bool, pos: u32 },
    Bool(bool, u32),
    Complex(Box<DenseLeaf>, Box<DenseLeaf>),
    Str(Vec<u8>, u32),
}

impl DenseLeaf {
    /// The leaf's first token as written, for diagnostics.
    fn spelling(&self) -> String {
        match self {
            // MLIR names the token after a minus sign.
            DenseLeaf::Num { text, .. } => text.clone(),
            DenseLeaf::Bool(b, _) => b.to_string(),
            DenseLeaf::Complex(re, _) => re.spelling(),
            DenseLeaf::Str(bytes, _) => String::from_utf8_lossy(bytes).into_owned(),
        }
    }
}

/// Elements of a type that is not a number are strings (MLIR's
/// `DenseStringElementsAttr`).
fn holds_strings(elem: &TypeData) -> bool {
    !matches!(elem, TypeData::Integer { .. } | TypeData::Index | TypeData::Float(_) | TypeData::Complex(_))
}

impl DenseTree {
    /// Infers the shape (empty for a scalar splat) and collects leaves in order.
    fn flatten(self, shape: &mut Vec<i64>, depth: usize, leaves: &mut Vec<DenseLeaf>) -> Result<(), String> {
        match self {
            DenseTree::Leaf(l) => {
                if depth != shape.len() {
                    return Err("tensor literal is invalid; ranks are not consistent between elements".into());
                }
                leaves.push(l);
                Ok(())
            }
            DenseTree::List(items) => {
                if shape.len() == depth && leaves.is_empty() {
                    shape.push(items.len() as i64);
                } else if shape.get(depth) != Some(&(items.len() as i64)) {
                    return Err("tensor literal is invalid; ranks are not consistent between elements".into());
                }
                for it in items {
                    it.flatten(shape, depth + 1, leaves)?;
                }
                Ok(())
            }
        }
    }
}

fn sign_extend(v: u128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return v as i128;
    }
    let shift = 128 - width;
    ((v << shift) as i128) >> shift
}

/// Bit pattern of a decimal literal rounded to the float format `k`.
pub fn float_bits(k: FloatKind, text: &str, neg: bool) -> Option<u128> {
    let s = if neg { format!("-{text}") } else { text.to_string() };
    Some(match k {
        FloatKind::F64 => s.parse::<f64>().ok()?.to_bits() as u128,
        FloatKind::F32 => s.parse::<f32>().ok()?.to_bits() as u128,
        FloatKind::F16 => half::f16::from_f64(s.parse::<f64>().ok()?).to_bits() as u128,
        FloatKind::BF16 => half::bf16::from_f64(s.parse::<f64>().ok()?).to_bits() as u128,
        _ => crate::minifloat::encode(k, s.parse::<f64>().ok()?)?,
    })
}

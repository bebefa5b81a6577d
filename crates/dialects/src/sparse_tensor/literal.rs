//! The numeric attributes an encoding holds (`posWidth = 32`,
//! `explicitVal = 1.0 : f32`, `#complex.number<:f32 1.0, 0.0>`), read and
//! printed as MLIR's builtin integer, float and complex attributes are.

use hivm_ir::dialect::error_at;
use hivm_ir::printer::format_float;
use hivm_ir::types::FloatKind;

use super::lexer::{Kind, Lexer};

/// A numeric attribute as mlir-opt prints it, with what the encoding's
/// checks ask of it.
pub(super) struct Numeric {
    /// `1.000000e+00 : f32`, `true`, `-1 : i8`.
    pub text: String,
    /// Its type as diagnostics quote it (`i32`, `complex<f32>`).
    pub ty: String,
    pub zero: bool,
    /// The value of an integer attribute, as `IntegerAttr::getInt` gives it.
    pub int: Option<i64>,
}

enum IntType {
    Signless(u32),
    Signed(u32),
    Unsigned(u32),
    Index,
}

impl IntType {
    fn width(&self) -> u32 {
        match self {
            IntType::Signless(w) | IntType::Signed(w) | IntType::Unsigned(w) => *w,
            IntType::Index => 64,
        }
    }

    fn keyword(&self) -> String {
        match self {
            IntType::Signless(w) => format!("i{w}"),
            IntType::Signed(w) => format!("si{w}"),
            IntType::Unsigned(w) => format!("ui{w}"),
            IntType::Index => "index".into(),
        }
    }
}

enum NumType {
    Int(IntType),
    Float(FloatKind),
}

fn num_type(word: &str) -> Option<NumType> {
    if word == "index" {
        return Some(NumType::Int(IntType::Index));
    }
    if let Some(k) = FloatKind::from_keyword(word) {
        return Some(NumType::Float(k));
    }
    let width = |digits: &str| digits.parse::<u32>().ok().filter(|_| digits.bytes().all(|c| c.is_ascii_digit()));
    if let Some(w) = word.strip_prefix("si").and_then(width) {
        return Some(NumType::Int(IntType::Signed(w)));
    }
    if let Some(w) = word.strip_prefix("ui").and_then(width) {
        return Some(NumType::Int(IntType::Unsigned(w)));
    }
    word.strip_prefix('i').and_then(width).map(|w| NumType::Int(IntType::Signless(w)))
}

/// `: type` after a literal, if written.
fn parse_suffix(l: &mut Lexer<'_>) -> Result<Option<NumType>, String> {
    if !l.consume(b':') {
        return Ok(None);
    }
    let at = l.tok.start;
    let ty = (l.tok.kind == Kind::Ident).then(|| num_type(l.text())).flatten();
    match ty {
        Some(t) => {
            l.bump();
            Ok(Some(t))
        }
        None => Err(error_at(at, "expected integer or float type")),
    }
}

/// The magnitude of an integer token.
fn magnitude(text: &str) -> Option<u128> {
    match text.strip_prefix("0x") {
        Some(hex) => u128::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// MLIR's `buildAttributeAPInt`: the value's bits in `width`, or `None`
/// when it does not fit.
fn fit(ty: &IntType, neg: bool, m: u128) -> Option<u128> {
    let w = ty.width();
    if w < 128 && m >> w != 0 {
        return None;
    }
    let mask = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
    if w == 0 {
        return (!neg).then_some(0);
    }
    let sign = 1u128 << (w.min(128) - 1);
    if neg {
        let bits = m.wrapping_neg() & mask;
        return (bits & sign != 0).then_some(bits);
    }
    if matches!(ty, IntType::Signed(_) | IntType::Index) && m & sign != 0 {
        return None;
    }
    Some(m)
}

/// Bits of a `width`-bit integer as the signed value they stand for.
fn sign_extend(bits: u128, w: u32) -> i128 {
    if w == 0 || w >= 128 {
        return bits as i128;
    }
    let shift = 128 - w;
    ((bits << shift) as i128) >> shift
}

fn int_attr(ty: IntType, bits: u128) -> Numeric {
    let w = ty.width();
    let signed = sign_extend(bits, w);
    let int = Some(signed as i64);
    if matches!(ty, IntType::Signless(1)) {
        let text = if bits & 1 == 1 { "true" } else { "false" };
        return Numeric { text: text.into(), ty: "i1".into(), zero: bits == 0, int };
    }
    let value = if matches!(ty, IntType::Unsigned(_)) { bits.to_string() } else { signed.to_string() };
    Numeric { text: format!("{value} : {}", ty.keyword()), ty: ty.keyword(), zero: bits == 0, int }
}

fn float_attr(kind: FloatKind, bits: u128) -> Numeric {
    let sign = 1u128 << (kind.bit_width() - 1);
    let (value, _) = format_float(kind, bits);
    let ty = kind.keyword().to_string();
    Numeric { text: format!("{value} : {ty}"), ty, zero: bits & !sign == 0, int: None }
}

/// A float literal (or a hexadecimal bit pattern) of `kind`.
fn float_value(kind: FloatKind, tok: Kind, text: &str, neg: bool, at: usize) -> Result<u128, String> {
    match tok {
        Kind::Float => hivm_ir::parser::float_bits(kind, text, neg)
            .ok_or_else(|| error_at(at, "floating point value too large for attribute")),
        Kind::Int if text.starts_with("0x") => {
            if neg {
                return Err(error_at(at, "hexadecimal float literal should not have a leading minus"));
            }
            match magnitude(text) {
                Some(b) if kind.bit_width() >= 128 || b >> kind.bit_width() == 0 => Ok(b),
                _ => Err(error_at(at, "hexadecimal float constant out of range for type")),
            }
        }
        Kind::Int => Err(error_at(at, "unexpected decimal integer literal for a floating point value")),
        _ => Err(error_at(at, "expected floating point literal")),
    }
}

/// A numeric attribute at the current token, or `None` (nothing consumed)
/// when the token starts no such attribute.
pub(super) fn parse(l: &mut Lexer<'_>) -> Result<Option<Numeric>, String> {
    if l.is_keyword("true") || l.is_keyword("false") {
        let v = l.text() == "true";
        l.bump();
        return Ok(Some(int_attr(IntType::Signless(1), v as u128)));
    }
    if l.tok.kind == Kind::Hash && l.text() == "#complex.number" {
        return parse_complex(l).map(Some);
    }
    let neg = l.is(b'-');
    let save = (l.tok, l.prev_end);
    if neg {
        l.bump();
    }
    let at = l.tok.start;
    match l.tok.kind {
        Kind::Int => {
            let lit = l.tok;
            l.bump();
            let ty = parse_suffix(l)?.unwrap_or(NumType::Int(IntType::Signless(64)));
            match ty {
                NumType::Int(t) => {
                    let text = &l.src[lit.start..lit.end];
                    let bits = magnitude(text)
                        .and_then(|m| fit(&t, neg, m))
                        .ok_or_else(|| error_at(at, "integer constant out of range for attribute"))?;
                    Ok(Some(int_attr(t, bits)))
                }
                NumType::Float(k) => {
                    let bits = float_value(k, lit.kind, &l.src[lit.start..lit.end], neg, at)?;
                    Ok(Some(float_attr(k, bits)))
                }
            }
        }
        Kind::Float => {
            let lit = l.tok;
            l.bump();
            let ty = parse_suffix(l)?.unwrap_or(NumType::Float(FloatKind::F64));
            match ty {
                NumType::Float(k) => {
                    let bits = float_value(k, lit.kind, &l.src[lit.start..lit.end], neg, at)?;
                    Ok(Some(float_attr(k, bits)))
                }
                NumType::Int(_) => Err(error_at(l.tok.start, "floating point value not valid for specified type")),
            }
        }
        // Nothing any attribute starts with.
        Kind::Eof | Kind::Arrow | Kind::Punct(b'}' | b',' | b'>' | b')' | b']' | b'=' | b':' | b'*' | b'+' | b'?') => {
            Err(error_at(l.wrong_token_pos(), "expected attribute value"))
        }
        _ => {
            (l.tok, l.prev_end) = save;
            Ok(None)
        }
    }
}

/// `#complex.number<:f32 1.0, 0.0>`, printed with its type.
fn parse_complex(l: &mut Lexer<'_>) -> Result<Numeric, String> {
    l.bump();
    let expect = |l: &mut Lexer<'_>, c: u8| {
        if l.consume(c) { Ok(()) } else { Err(error_at(l.wrong_token_pos(), format!("expected '{}'", c as char))) }
    };
    expect(l, b'<')?;
    expect(l, b':')?;
    let at = l.tok.start;
    let kind = match (l.tok.kind == Kind::Ident).then(|| FloatKind::from_keyword(l.text())).flatten() {
        Some(k) => k,
        None => return Err(error_at(at, "expected floating point type")),
    };
    l.bump();
    let part = |l: &mut Lexer<'_>| -> Result<u128, String> {
        let neg = l.consume(b'-');
        let at = l.tok.start;
        let bits = float_value(kind, l.tok.kind, l.text(), neg, at)?;
        l.bump();
        Ok(bits)
    };
    let re = part(l)?;
    expect(l, b',')?;
    let im = part(l)?;
    expect(l, b'>')?;
    // The printed form's trailing type, which must be the one inside.
    if l.consume(b':') {
        let at = l.tok.start;
        let mut ok = l.is_keyword("complex");
        l.bump();
        ok &= l.consume(b'<') && l.is_keyword(kind.keyword());
        l.bump();
        if !(ok && l.consume(b'>')) {
            return Err(error_at(at, format!("expected complex<{}>", kind.keyword())));
        }
    }
    let sign = 1u128 << (kind.bit_width() - 1);
    let (r, _) = format_float(kind, re);
    let (i, _) = format_float(kind, im);
    let k = kind.keyword();
    Ok(Numeric {
        text: format!("#complex.number<:{k} {r}, {i}> : complex<{k}>"),
        ty: format!("complex<{k}>"),
        zero: re & !sign == 0 && im & !sign == 0,
        int: None,
    })
}

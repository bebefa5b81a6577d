//! Parsing an op by walking its compiled format.

use super::format::{Elem, Var};
use super::{Arity, AttrKind, Compiled, EnumKind, FormatState};
use crate::attrs::{AttrData, Attribute, DenseArrayData};
use crate::lexer::Tok;
use crate::parser::{OpParseResult, PResult, Parser};
use crate::types::Type;

pub(super) fn parse_op(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.ir.sym_str(r.name);
    let c = p.ir.registry.lookup(name).and_then(|d| p.ir.registry.def(d).spec).expect("op parsed by its spec");
    let s = &c.spec;
    let mut st = FormatState {
        op: s.name,
        operands: vec![Vec::new(); s.operands.len()],
        operand_types: vec![Vec::new(); s.operands.len()],
        result_types: vec![Vec::new(); s.results.len()],
        attrs: Vec::new(),
        attr_defs: s.attrs,
    };
    let mut positions = vec![p.pos(); s.operands.len()];
    elems(p, c, &c.program, &mut st, &mut positions, r)?;
    // Types given as "like another value's" (one type, repeated).
    let like_type = |st: &FormatState, name: &str| -> Option<Type> {
        let i = s.operands.iter().position(|o| o.name == name);
        let r = s.results.iter().position(|o| o.name == name);
        i.and_then(|i| st.operand_types[i].first()).or_else(|| r.and_then(|r| st.result_types[r].first())).copied()
    };
    for i in 0..s.operands.len() {
        if let Some(other) = s.operands[i].like
            && st.operand_types[i].is_empty()
            && let Some(t) = like_type(&st, other)
        {
            st.operand_types[i] = vec![t; st.operands[i].len()];
        }
    }
    for i in 0..s.results.len() {
        if let Some(f) = s.results[i].fixed
            && st.result_types[i].is_empty()
        {
            st.result_types[i] = vec![f.build(p.ir)];
        }
        if let Some(other) = s.results[i].like
            && st.result_types[i].is_empty()
            && let Some(t) = like_type(&st, other)
        {
            st.result_types[i] = vec![t];
        }
    }
    for (i, o) in s.operands.iter().enumerate() {
        // Types the format writes win; a fixed type fills in the rest.
        let types = match o.fixed {
            Some(f) if st.operand_types[i].is_empty() => {
                let t = f.build(p.ir);
                vec![t; st.operands[i].len()]
            }
            _ => st.operand_types[i].clone(),
        };
        let values = p.resolve_operands(&st.operands[i], &types, positions[i])?;
        r.operands.extend(values);
    }
    if s.segments {
        let sizes: Vec<i64> = st.operands.iter().map(|g| g.len() as i64).collect();
        let elem = p.ir.int_type(32);
        let a = p.ir.attr(AttrData::DenseArray { elem, data: DenseArrayData::Int(sizes) });
        let k = p.ir.sym("operandSegmentSizes");
        r.attrs.push((k, a));
    }
    match s.infer {
        Some(f) if st.result_types.iter().all(|t| t.is_empty()) => match f(p.ir, &st) {
            Ok(t) => r.result_types.extend(t),
            Err(m) => return p.error_at(r.pos, m),
        },
        _ => r.result_types.extend(st.result_types.iter().flatten()),
    }
    for (k, a) in st.attrs {
        let k = p.ir.sym(k);
        // A value also given in the attribute dictionary wins, as in MLIR.
        if !r.attrs.iter().any(|(x, _)| *x == k) {
            r.attrs.push((k, a));
        }
    }
    Ok(())
}

fn elems(
    p: &mut Parser<'_>,
    c: &Compiled,
    list: &[Elem],
    st: &mut FormatState,
    positions: &mut [u32],
    r: &mut OpParseResult,
) -> PResult<()> {
    for e in list {
        elem(p, c, e, st, positions, r)?;
    }
    Ok(())
}

fn elem(
    p: &mut Parser<'_>,
    c: &Compiled,
    e: &Elem,
    st: &mut FormatState,
    positions: &mut [u32],
    r: &mut OpParseResult,
) -> PResult<()> {
    let s = &c.spec;
    match e {
        Elem::Literal(l) => literal(p, l),
        Elem::Space(_) => Ok(()),
        Elem::Var(Var::Operand(i)) => {
            positions[*i] = p.pos();
            st.operands[*i] = match s.operands[*i].arity {
                Arity::One => vec![p.parse_operand()?],
                Arity::Opt => p.parse_optional_operand()?.into_iter().collect(),
                Arity::Var => p.parse_operand_list()?,
            };
            Ok(())
        }
        Elem::Var(Var::Attr(i)) => {
            let a = &s.attrs[*i];
            let v = match a.kind {
                AttrKind::IntEnum(e) => parse_int_enum(p, e, a.name)?,
                kind => parse_attr(p, kind)?,
            };
            st.attrs.push((a.name, v));
            Ok(())
        }
        Elem::Qualified(Var::Attr(i)) => {
            let a = &s.attrs[*i];
            let v = p.parse_attribute(None)?;
            st.attrs.push((a.name, v));
            Ok(())
        }
        Elem::Var(Var::Region(_)) => {
            let region = p.parse_region(&[], false)?;
            // As MLIR's generated parsers do, a single-block op gets its
            // block even when the text leaves the region empty.
            if s.traits.has(crate::dialect::Traits::SINGLE_BLOCK) && p.ir.region_blocks(region).is_empty() {
                let b = p.ir.create_block();
                p.ir.push_block(region, b);
            }
            r.regions.push(region);
            Ok(())
        }
        Elem::Var(Var::Result(_)) | Elem::Qualified(_) => p.error("this variable cannot be parsed here"),
        Elem::Type(v) => {
            let (arity, slot) = match *v {
                Var::Operand(i) => (s.operands[i].arity, &mut st.operand_types[i]),
                Var::Result(i) => (s.results[i].arity, &mut st.result_types[i]),
                Var::Attr(_) | Var::Region(_) => unreachable!("rejected when compiling"),
            };
            *slot = match arity {
                Arity::One => vec![p.parse_type()?],
                Arity::Opt => p.parse_optional_type()?.into_iter().collect(),
                Arity::Var => {
                    let mut v = Vec::new();
                    if let Some(t) = p.parse_optional_type()? {
                        v.push(t);
                        while p.consume_if(Tok::Comma) {
                            v.push(p.parse_type()?);
                        }
                    }
                    v
                }
            };
            Ok(())
        }
        Elem::AllOperands => {
            // One value per group, in order (ops using `operands` have single groups).
            let pos = p.pos();
            let all = p.parse_operand_list()?;
            if all.len() != st.operands.len() {
                return p.error_at(pos, format!("expected {} operands", st.operands.len()));
            }
            for (i, u) in all.into_iter().enumerate() {
                positions[i] = u.pos;
                st.operands[i] = vec![u];
            }
            Ok(())
        }
        Elem::AllOperandTypes => {
            let pos = p.pos();
            let mut tys = vec![p.parse_type()?];
            while p.consume_if(Tok::Comma) {
                tys.push(p.parse_type()?);
            }
            if tys.len() != st.operand_types.len() {
                return p.error_at(pos, format!("expected {} types", st.operand_types.len()));
            }
            for (i, t) in tys.into_iter().enumerate() {
                st.operand_types[i] = vec![t];
            }
            Ok(())
        }
        Elem::FunctionalType => {
            let pos = p.pos();
            let t = p.parse_type()?;
            let crate::types::TypeData::Function { inputs, results } = p.ir.type_data(t).clone() else {
                return p.error_at(pos, "expected function type");
            };
            // Types go to the groups in order, each taking as many as it has operands.
            let mut it = inputs.into_iter();
            for (i, g) in st.operands.iter().enumerate() {
                st.operand_types[i] = it.by_ref().take(g.len()).collect();
            }
            if it.next().is_some() || st.operand_types.iter().zip(&st.operands).any(|(t, o)| t.len() != o.len()) {
                let n: usize = st.operands.iter().map(Vec::len).sum();
                return p.error_at(pos, format!("{n} operands present, but expected a different number of types"));
            }
            if s.results.len() == 1 {
                st.result_types[0] = results;
            } else {
                // Fixed groups take one type each; one variable group takes
                // the rest (with several, each takes one).
                let fixed = s.results.iter().filter(|d| d.arity == Arity::One).count();
                let variable = s.results.len() - fixed;
                let spare = if variable == 1 { results.len().saturating_sub(fixed) } else { 1 };
                let mut it = results.into_iter();
                for (i, d) in s.results.iter().enumerate() {
                    let n = if d.arity == Arity::One { 1 } else { spare };
                    st.result_types[i] = it.by_ref().take(n).collect();
                }
            }
            Ok(())
        }
        Elem::AttrDict { keyword: false } => p.parse_optional_attr_dict(&mut r.attrs),
        Elem::AttrDict { keyword: true } => p.parse_optional_attr_dict_with_keyword(&mut r.attrs),
        Elem::Custom { index, args } => (s.customs[*index].parse)(p, st, args),
        Elem::OIList { clauses } => {
            let mut seen = vec![false; clauses.len()];
            'clauses: loop {
                for (k, (kw, body)) in clauses.iter().enumerate() {
                    let pos = p.pos();
                    if p.parse_optional_keyword(kw) {
                        if seen[k] {
                            return p.error_at(
                                pos,
                                format!(
                                    "`{kw}` clause can appear at most once in the expansion of the oilist directive"
                                ),
                            );
                        }
                        seen[k] = true;
                        elems(p, c, body, st, positions, r)?;
                        continue 'clauses;
                    }
                }
                return Ok(());
            }
        }
        Elem::Optional { then, anchor, els } => {
            let (present, consumed) = group_present(p, c, &then[0])?;
            if !present {
                return elems(p, c, els, st, positions, r);
            }
            if let Elem::Var(Var::Attr(i)) = then[*anchor]
                && s.attrs[i].kind.is_unit_like()
            {
                let u = p.ir.unit_attr();
                st.attrs.push((s.attrs[i].name, u));
            }
            for (k, x) in then.iter().enumerate() {
                let unit_anchor = matches!(x, Elem::Var(Var::Attr(i)) if s.attrs[*i].kind.is_unit_like());
                if (k == 0 && consumed) || unit_anchor {
                    continue;
                }
                elem(p, c, x, st, positions, r)?;
            }
            Ok(())
        }
    }
}

/// Whether an optional group starts here, judged by its first element; the
/// second value says whether that element was consumed by the check.
fn group_present(p: &mut Parser<'_>, c: &Compiled, first: &Elem) -> PResult<(bool, bool)> {
    Ok(match first {
        Elem::Literal(l) => {
            let hit = match punct(l) {
                Some(t) => p.consume_if(t),
                None => p.parse_optional_keyword(l),
            };
            (hit, true)
        }
        Elem::Var(Var::Operand(_)) => (p.is(Tok::PercentIdent), false),
        Elem::Var(Var::Attr(i)) => {
            let a = &c.spec.attrs[*i];
            if a.kind.is_unit_like() {
                (p.parse_optional_keyword(a.name), true)
            } else {
                (starts_attr(p, a.kind), false)
            }
        }
        Elem::Qualified(_) => (p.is(Tok::HashIdent), false),
        Elem::Type(_) => (p.starts_type(), false),
        Elem::AttrDict { .. } => (p.is(Tok::LBrace), false),
        Elem::FunctionalType => (p.is(Tok::LParen), false),
        Elem::AllOperands => (p.is(Tok::PercentIdent), false),
        Elem::AllOperandTypes => (p.starts_type(), false),
        Elem::Var(Var::Region(_)) => (p.is(Tok::LBrace), false),
        Elem::Space(_)
        | Elem::Var(Var::Result(_))
        | Elem::Custom { .. }
        | Elem::Optional { .. }
        | Elem::OIList { .. } => {
            return p.error("unsupported first element of an optional group");
        }
    })
}

fn starts_attr(p: &Parser<'_>, kind: AttrKind) -> bool {
    match kind {
        AttrKind::Enum(_) => p.is(Tok::Less) || p.is(Tok::HashIdent),
        AttrKind::IntEnum(e) => (p.is(Tok::BareIdent) && e.value_of(p.text()).is_some()) || p.is(Tok::String),
        AttrKind::I64Array | AttrKind::I32Array | AttrKind::Array => p.is(Tok::LSquare),
        AttrKind::Bool => p.is_keyword("true") || p.is_keyword("false"),
        AttrKind::Int(_) | AttrKind::IndexInt => p.is(Tok::Integer) || p.is(Tok::Minus),
        AttrKind::Str => p.is(Tok::String),
        AttrKind::TypeAttr => p.starts_type(),
        AttrKind::SymbolRef => p.is(Tok::AtIdent),
        AttrKind::Unit | AttrKind::UnitProp => false,
        AttrKind::Any => p.is(Tok::HashIdent) || p.is(Tok::LSquare) || p.is(Tok::String) || p.is(Tok::Integer),
    }
}

fn punct(l: &str) -> Option<Tok> {
    Some(match l {
        "(" => Tok::LParen,
        ")" => Tok::RParen,
        "[" => Tok::LSquare,
        "]" => Tok::RSquare,
        "{" => Tok::LBrace,
        "}" => Tok::RBrace,
        "<" => Tok::Less,
        ">" => Tok::Greater,
        "," => Tok::Comma,
        ":" => Tok::Colon,
        "=" => Tok::Equal,
        "->" => Tok::Arrow,
        "?" => Tok::Question,
        "*" => Tok::Star,
        "+" => Tok::Plus,
        "-" => Tok::Minus,
        "..." => Tok::Ellipsis,
        "|" => Tok::Vertical,
        _ => return None,
    })
}

fn literal(p: &mut Parser<'_>, l: &str) -> PResult<()> {
    match punct(l) {
        Some(t) => p.expect(t, &format!("'{l}'")),
        None => p.expect_keyword(l),
    }
}

/// An attribute in its format syntax (MLIR's `parseCustomAttributeWithFallback`:
/// the stripped form, or the full form when it starts with `#`).
pub fn parse_attr(p: &mut Parser<'_>, kind: AttrKind) -> PResult<Attribute> {
    match kind {
        AttrKind::Enum(e) => parse_enum(p, e),
        AttrKind::IntEnum(e) => parse_int_enum(p, e, "value"),
        AttrKind::I64Array | AttrKind::I32Array => {
            let mut v = Vec::new();
            p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
                v.push(parse_i64(p)?);
                Ok(())
            })?;
            let elem = p.ir.int_type(if matches!(kind, AttrKind::I32Array) { 32 } else { 64 });
            Ok(p.ir.attr(AttrData::DenseArray { elem, data: DenseArrayData::Int(v) }))
        }
        // `true`/`false` take no `: type` suffix, so a `:` after them is the format's.
        AttrKind::Bool if p.is_keyword("true") || p.is_keyword("false") => {
            let v = p.is_keyword("true");
            p.bump();
            Ok(p.ir.bool_attr(v))
        }
        // A string takes no `: type` suffix inside a format (MLIR parses it
        // with its type given), so a `:` after it is the format's.
        AttrKind::Str if p.is(Tok::String) => {
            let value = p.parse_string("string")?;
            Ok(p.ir.attr(AttrData::String { value, ty: None }))
        }
        AttrKind::Bool
        | AttrKind::Int(_)
        | AttrKind::IndexInt
        | AttrKind::Str
        | AttrKind::Array
        | AttrKind::SymbolRef => {
            // MLIR parses any attribute (typed for integers) and then checks its kind.
            let pos = p.pos();
            let ty = match kind {
                AttrKind::Int(w) => Some(p.ir.int_type(w)),
                AttrKind::IndexInt => Some(p.ir.index_type()),
                _ => None,
            };
            let a = p.parse_attribute(ty)?;
            if !super::verify::kind_matches(p.ir, kind, a) {
                return p.error_at(pos, "invalid kind of attribute specified");
            }
            Ok(a)
        }
        AttrKind::TypeAttr => {
            let t = p.parse_type()?;
            Ok(p.ir.type_attr(t))
        }
        AttrKind::Unit | AttrKind::UnitProp => Ok(p.ir.unit_attr()),
        AttrKind::Any => p.parse_attribute(None),
    }
}

/// A case name, bare or quoted (MLIR's `parseOptionalKeywordOrString`),
/// stored as its integer value.
fn parse_int_enum(p: &mut Parser<'_>, e: super::IntEnumKind, name: &str) -> PResult<Attribute> {
    let pos = p.pos();
    let word = if p.is(Tok::String) {
        Some(p.parse_utf8_string("enum value")?)
    } else if p.is(Tok::BareIdent) {
        let w = p.text().to_string();
        p.bump();
        Some(w)
    } else {
        None
    };
    match word.as_deref().and_then(|w| e.value_of(w)) {
        Some(v) => {
            let t = p.ir.int_type(e.width);
            Ok(p.ir.int_attr(v as i128, t))
        }
        None => {
            let names: Vec<&str> = e.cases.iter().map(|(n, _)| *n).collect();
            p.op_error_at(
                pos,
                format!(
                    "expected string or keyword containing one of the following enum values for attribute '{name}' [{}]",
                    names.join(", ")
                ),
            )
        }
    }
}

/// An integer that must fit in 64 bits.
pub(super) fn parse_i64(p: &mut Parser<'_>) -> PResult<i64> {
    let pos = p.pos();
    let v = p.parse_integer("integer value")?;
    i64::try_from(v).or_else(|_| p.error_at(pos, "integer value too large"))
}

fn parse_enum(p: &mut Parser<'_>, e: EnumKind) -> PResult<Attribute> {
    let pos = p.pos();
    let body = if p.is(Tok::HashIdent) {
        let a = p.parse_attribute(None)?;
        match p.ir.attr_data(a) {
            AttrData::Opaque { dialect, body }
                if p.ir.sym_str(*dialect) == e.dialect && body.starts_with(e.mnemonic) =>
            {
                return Ok(a);
            }
            _ => return p.error_at(pos, format!("expected #{}.{} attribute", e.dialect, e.mnemonic)),
        }
    } else if p.is(Tok::Less) {
        format!("{}{}", e.mnemonic, p.parse_pretty_body()?)
    } else {
        return p.error(format!("expected '<' to begin #{}.{}", e.dialect, e.mnemonic));
    };
    let canonical = match p.ir.registry.dialect(e.dialect).and_then(|d| d.check_attr) {
        Some(check) => match check(&body) {
            Ok(c) => c,
            Err(m) => return p.error_at(pos, crate::dialect::located_error(&m).map_or(m.as_str(), |(_, m)| m)),
        },
        None => body,
    };
    let d = p.ir.sym(e.dialect);
    Ok(p.ir.attr(AttrData::Opaque { dialect: d, body: canonical }))
}

//! Printing of types and attributes, with MLIR's elision rules.

use std::fmt::Write;

use super::Printer;
use super::float::format_float;
use crate::attrs::{AttrData, Attribute, DenseArrayData, DenseElem, LocData};
use crate::types::{DYNAMIC, Signedness, Type, TypeData};

/// Whether an attribute's type may be left out (inside arrays, `: i64`/`: f64` go).
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Elide {
    Never,
    May,
    Must,
}

/// A dialect symbol after its `#dialect` / `!dialect` prefix, as MLIR
/// writes it: `.name` (with any `<...>` tail) when it reads as an identifier,
/// `<body>` otherwise, whichever way it was written (`!bar<baz>` is
/// `!bar.baz`).
pub(crate) fn push_dialect_symbol(out: &mut String, body: &str) {
    let sym = body.strip_prefix('<').and_then(|b| b.strip_suffix('>')).unwrap_or(body);
    let rest = sym.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    let pretty = sym.starts_with(|c: char| c.is_ascii_alphabetic())
        && (rest.is_empty() || rest.starts_with('<') && rest.ends_with('>'));
    if pretty {
        out.push('.');
        out.push_str(sym);
    } else {
        out.push('<');
        out.push_str(sym);
        out.push('>');
    }
}

pub(crate) fn escape_into(out: &mut String, bytes: &[u8]) {
    for &c in bytes {
        if (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\' {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\{c:02X}");
        }
    }
}

pub(crate) fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
}

/// `strided<[s0, s1], offset: o>` as MLIR prints it (offset 0 left out).
pub(crate) fn print_strided(out: &mut String, strides: &[i64], offset: i64) {
    out.push_str("strided<[");
    for (i, s) in strides.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        print_dim(out, *s);
    }
    out.push(']');
    if offset != 0 {
        out.push_str(", offset: ");
        print_dim(out, offset);
    }
    out.push('>');
}

/// The `4x?x` shape prefix of a shaped type.
pub(crate) fn print_shape(out: &mut String, shape: &[i64]) {
    for d in shape {
        print_dim(out, *d);
        out.push('x');
    }
}

fn print_dim(out: &mut String, d: i64) {
    if d == DYNAMIC {
        out.push('?');
    } else {
        let _ = write!(out, "{d}");
    }
}

impl Printer<'_> {
    pub fn print_type(&mut self, ty: Type) {
        if self.enter_value(Err(ty)) {
            self.print_type_body(ty);
            self.leave_value();
        }
    }

    fn print_type_body(&mut self, ty: Type) {
        let ir = self.ir;
        match ir.type_data(ty) {
            TypeData::Integer { width, signedness } => {
                let p = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                let _ = write!(self.out, "{p}{width}");
            }
            TypeData::Index => self.out.push_str("index"),
            TypeData::Float(k) => self.out.push_str(k.keyword()),
            TypeData::None => self.out.push_str("none"),
            TypeData::Complex(e) => {
                self.out.push_str("complex<");
                self.print_type(*e);
                self.out.push('>');
            }
            TypeData::Tuple(ts) => {
                self.out.push_str("tuple<");
                self.print_type_list(ts);
                self.out.push('>');
            }
            TypeData::Vector { shape, scalable, elem, encoding } => {
                self.out.push_str("vector<");
                for (d, s) in shape.iter().zip(scalable) {
                    if *s {
                        self.out.push('[');
                        print_dim(&mut self.out, *d);
                        self.out.push(']');
                    } else {
                        print_dim(&mut self.out, *d);
                    }
                    self.out.push('x');
                }
                self.print_type(*elem);
                if let Some(e) = encoding {
                    self.out.push_str(", ");
                    self.print_attr(*e, Elide::Never);
                }
                self.out.push('>');
            }
            TypeData::RankedTensor { shape, elem, encoding } => {
                self.out.push_str("tensor<");
                for d in shape {
                    print_dim(&mut self.out, *d);
                    self.out.push('x');
                }
                self.print_type(*elem);
                if let Some(e) = encoding {
                    self.out.push_str(", ");
                    self.print_attr(*e, Elide::Never);
                }
                self.out.push('>');
            }
            TypeData::UnrankedTensor { elem } => {
                self.out.push_str("tensor<*x");
                self.print_type(*elem);
                self.out.push('>');
            }
            TypeData::MemRef { shape, elem, layout, memory_space } => {
                self.out.push_str("memref<");
                print_shape(&mut self.out, shape);
                self.print_type(*elem);
                if let Some(l) = layout {
                    self.out.push_str(", ");
                    self.print_attr(*l, Elide::May);
                }
                if let Some(m) = memory_space {
                    self.out.push_str(", ");
                    self.print_attr(*m, Elide::May);
                }
                self.out.push('>');
            }
            TypeData::UnrankedMemRef { elem, memory_space } => {
                self.out.push_str("memref<*x");
                self.print_type(*elem);
                if let Some(m) = memory_space {
                    self.out.push_str(", ");
                    self.print_attr(*m, Elide::May);
                }
                self.out.push('>');
            }
            TypeData::Function { inputs, results } => {
                self.out.push('(');
                self.print_type_list(inputs);
                self.out.push_str(") -> ");
                self.print_result_types(results);
            }
            TypeData::Opaque { dialect, body } => {
                let _ = write!(self.out, "!{dialect}");
                if body.contains('#') && self.ir.registry.dialect(dialect).is_some() {
                    // Attributes inside (`!ttg.memdesc<4xi32, #shared, ...>`)
                    // print through their aliases; an unregistered dialect's
                    // body is text kept verbatim, as MLIR keeps it.
                    let rendered = self.render_type_body(body);
                    push_dialect_symbol(&mut self.out, &rendered);
                } else {
                    push_dialect_symbol(&mut self.out, body);
                }
            }
        }
    }

    pub fn print_type_list(&mut self, ts: &[Type]) {
        for (i, t) in ts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_type(*t);
        }
    }

    /// A result list: `i32`, `(i32, f32)`, `()`, or `((i32) -> i32)`.
    pub fn print_result_types(&mut self, ts: &[Type]) {
        let single_plain = ts.len() == 1 && !matches!(self.ir.type_data(ts[0]), TypeData::Function { .. });
        if single_plain {
            self.print_type(ts[0]);
        } else {
            self.out.push('(');
            self.print_type_list(ts);
            self.out.push(')');
        }
    }

    pub fn print_attr(&mut self, a: Attribute, elide: Elide) {
        if self.enter_value(Ok(a)) {
            self.print_attr_body(a, elide);
            self.leave_value();
        }
    }

    fn print_attr_body(&mut self, a: Attribute, elide: Elide) {
        if let Some(alias) = self.alias_for(a) {
            self.out.push('#');
            self.out.push_str(&alias);
            return;
        }
        let ir = self.ir;
        match ir.attr_data(a) {
            AttrData::Unit => self.out.push_str("unit"),
            AttrData::Integer { value, ty } => {
                if ir.type_data(*ty).is_signless_int(1) {
                    self.out.push_str(if *value != 0 { "true" } else { "false" });
                    return;
                }
                let _ = write!(self.out, "{value}");
                let is_i64 = ir.type_data(*ty).is_signless_int(64);
                if elide == Elide::Never || (elide == Elide::May && !is_i64) {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrData::Float { bits, ty } => {
                let TypeData::Float(k) = ir.type_data(*ty) else { unreachable!("float attr of non-float type") };
                let (s, hex) = format_float(*k, *bits);
                self.out.push_str(&s);
                let is_f64 = matches!(k, crate::types::FloatKind::F64);
                if elide == Elide::Never || (elide == Elide::May && (hex || !is_f64)) {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrData::String { value, ty } => {
                self.out.push('"');
                escape_into(&mut self.out, value);
                self.out.push('"');
                if let Some(t) = ty
                    && elide != Elide::Must
                    && !matches!(ir.type_data(*t), TypeData::None)
                {
                    self.out.push_str(" : ");
                    self.print_type(*t);
                }
            }
            AttrData::Array(items) => {
                self.out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.print_attr(*x, Elide::May);
                }
                self.out.push(']');
            }
            AttrData::DenseArray { elem, data } => {
                self.out.push_str("array<");
                self.print_type(*elem);
                let is_bool = ir.type_data(*elem).is_signless_int(1);
                match data {
                    DenseArrayData::Int(v) if !v.is_empty() => {
                        self.out.push_str(": ");
                        for (i, x) in v.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            if is_bool {
                                self.out.push_str(if *x != 0 { "true" } else { "false" });
                            } else {
                                let _ = write!(self.out, "{x}");
                            }
                        }
                    }
                    DenseArrayData::Float(v) if !v.is_empty() => {
                        let TypeData::Float(k) = ir.type_data(*elem) else { unreachable!() };
                        self.out.push_str(": ");
                        for (i, x) in v.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            self.out.push_str(&format_float(*k, *x as u128).0);
                        }
                    }
                    _ => {}
                }
                self.out.push('>');
            }
            AttrData::Dictionary(entries) => {
                self.out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.print_named_attr(*k, *v);
                }
                self.out.push('}');
            }
            AttrData::Type(t) => self.print_type(*t),
            AttrData::SymbolRef { root, nested } => {
                self.print_symbol_name(ir.sym_str(*root));
                for n in nested {
                    self.out.push_str("::");
                    self.print_symbol_name(ir.sym_str(*n));
                }
            }
            AttrData::AffineMap(m) => {
                self.out.push_str("affine_map<");
                m.print(&mut self.out);
                self.out.push('>');
            }
            AttrData::IntegerSet(s) => {
                self.out.push_str("affine_set<");
                s.print(&mut self.out);
                self.out.push('>');
            }
            AttrData::DenseElements { ty, .. } => {
                self.out.push_str("dense<");
                self.print_dense_body(a);
                self.out.push('>');
                if elide != Elide::Must {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrData::SparseElements { ty, indices, values } => {
                self.out.push_str("sparse<");
                let has_indices =
                    matches!(ir.attr_data(*indices), AttrData::DenseElements { elems, .. } if !elems.is_empty());
                if has_indices {
                    self.print_dense_body(*indices);
                    self.out.push_str(", ");
                    self.print_dense_body(*values);
                }
                self.out.push_str("> : ");
                self.print_type(*ty);
            }
            AttrData::DenseResource { name, ty } => {
                let _ = write!(self.out, "dense_resource<{}> : ", ir.sym_str(*name));
                self.print_type(*ty);
            }
            AttrData::Strided { strides, offset } => print_strided(&mut self.out, strides, *offset),
            AttrData::Opaque { dialect, body } => self.print_dialect_attr(ir.sym_str(*dialect), body),
            AttrData::TypedOpaque { attr, ty } => {
                self.print_attr(*attr, Elide::Never);
                self.out.push_str(" : ");
                self.print_type(*ty);
            }
            AttrData::Location(_) => {
                self.out.push_str("loc(");
                self.print_loc_body(a);
                self.out.push(')');
            }
        }
    }

    /// The literal of a dense elements attribute, between `dense<` and `>`.
    fn print_dense_body(&mut self, a: Attribute) {
        let ir = self.ir;
        let AttrData::DenseElements { ty, splat, elems } = ir.attr_data(a) else { return };
        let elem_ty = ir.type_data(*ty).element_type().unwrap();
        if *splat {
            self.print_dense_elem(&elems[0], elem_ty);
        } else if !elems.is_empty() {
            let shape = ir.type_data(*ty).shape().unwrap_or(&[]).to_vec();
            let mut idx = 0;
            self.print_dense_nested(&shape, elems, &mut idx, elem_ty);
        }
    }

    fn print_dense_nested(&mut self, shape: &[i64], elems: &[DenseElem], idx: &mut usize, elem_ty: Type) {
        if shape.is_empty() {
            self.print_dense_elem(&elems[*idx], elem_ty);
            *idx += 1;
            return;
        }
        self.out.push('[');
        for i in 0..shape[0] {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_dense_nested(&shape[1..], elems, idx, elem_ty);
        }
        self.out.push(']');
    }

    fn print_dense_elem(&mut self, e: &DenseElem, elem_ty: Type) {
        let ir = self.ir;
        match (e, ir.type_data(elem_ty)) {
            (DenseElem::Int(v), TypeData::Integer { width: 1, .. }) => {
                self.out.push_str(if *v != 0 { "true" } else { "false" })
            }
            (DenseElem::Int(v), _) => {
                let _ = write!(self.out, "{v}");
            }
            (DenseElem::Float(b), TypeData::Float(k)) => self.out.push_str(&format_float(*k, *b as u128).0),
            (DenseElem::Complex(pair), TypeData::Complex(inner)) => {
                self.out.push('(');
                self.print_dense_elem(&pair.0, *inner);
                self.out.push(',');
                self.print_dense_elem(&pair.1, *inner);
                self.out.push(')');
            }
            (DenseElem::Str(bytes), _) => {
                self.out.push('"');
                escape_into(&mut self.out, bytes);
                self.out.push('"');
            }
            _ => self.out.push('?'),
        }
    }

    pub fn print_named_attr(&mut self, k: crate::attrs::Sym, v: Attribute) {
        let name = self.ir.sym_str(k);
        self.print_keyword_or_string(name);
        if !matches!(self.ir.attr_data(v), AttrData::Unit) {
            self.out.push_str(" = ");
            self.print_attr(v, Elide::Never);
        }
    }

    pub fn print_keyword_or_string(&mut self, s: &str) {
        if is_bare_identifier(s) {
            self.out.push_str(s);
        } else {
            self.out.push('"');
            escape_into(&mut self.out, s.as_bytes());
            self.out.push('"');
        }
    }

    pub fn print_symbol_name(&mut self, s: &str) {
        self.out.push('@');
        let ok = !s.is_empty()
            && (s.as_bytes()[0].is_ascii_alphabetic() || s.as_bytes()[0] == b'_')
            && s.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-'));
        if ok {
            self.out.push_str(s);
        } else {
            self.out.push('"');
            escape_into(&mut self.out, s.as_bytes());
            self.out.push('"');
        }
    }

    pub(crate) fn print_loc_body(&mut self, a: Attribute) {
        let ir = self.ir;
        let AttrData::Location(l) = ir.attr_data(a) else { return };
        match l {
            LocData::Unknown | LocData::Deferred(_) => self.out.push_str("unknown"),
            LocData::FileLineCol { file, line, col } => {
                self.out.push('"');
                escape_into(&mut self.out, ir.sym_str(*file).as_bytes());
                let _ = write!(self.out, "\":{line}:{col}");
            }
            LocData::FileLineColRange { file, line, col, end_line, end_col } => {
                self.out.push('"');
                escape_into(&mut self.out, ir.sym_str(*file).as_bytes());
                let col = col.unwrap_or(0);
                let _ = write!(self.out, "\":{line}:{col}");
                if let Some(end_col) = *end_col {
                    match end_line.unwrap_or(*line) {
                        l if (l, end_col) == (*line, col) => {}
                        l if l == *line => {
                            let _ = write!(self.out, " to :{end_col}");
                        }
                        l => {
                            let _ = write!(self.out, " to {l}:{end_col}");
                        }
                    }
                }
            }
            LocData::Name { name, child } => {
                self.out.push('"');
                escape_into(&mut self.out, ir.sym_str(*name).as_bytes());
                self.out.push('"');
                if let Some(c) = child
                    && !matches!(ir.attr_data(*c), AttrData::Location(LocData::Unknown))
                {
                    self.out.push('(');
                    self.print_loc_body(*c);
                    self.out.push(')');
                }
            }
            LocData::CallSite { callee, caller } => {
                self.out.push_str("callsite(");
                self.print_loc_body(*callee);
                self.out.push_str(" at ");
                self.print_loc_body(*caller);
                self.out.push(')');
            }
            LocData::Fused { locs, metadata } => {
                self.out.push_str("fused");
                if let Some(m) = metadata {
                    self.out.push('<');
                    self.print_attr(*m, Elide::Never);
                    self.out.push('>');
                }
                self.out.push('[');
                for (i, l) in locs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.print_loc_body(*l);
                }
                self.out.push(']');
            }
        }
    }
}

//! Printing an op by walking its compiled format, with the spacing rules of
//! MLIR's generated printers (so that output matches byte for byte).

use super::format::{Elem, Var, walk};
use super::{AttrKind, Compiled};
use crate::attrs::{AttrData, Attribute};
use crate::ir::{Ir, OpId};
use crate::printer::{Elide, Printer};

/// MLIR decides spaces statically while generating the printer; this walks
/// the format in the same order with the same two flags.
struct Spacing {
    should_emit_space: bool,
    last_was_punctuation: bool,
}

pub(super) fn print_op(p: &mut Printer<'_>, op: OpId) {
    let c = p.ir.op_def(op).and_then(|d| d.spec).expect("op printed by its spec");
    let mut sp = Spacing { should_emit_space: true, last_was_punctuation: false };
    for e in &c.program {
        elem(p, c, op, e, &mut sp, true);
    }
}

fn space_before_literal(value: &str, last_was_punctuation: bool) -> bool {
    if value.len() != 1 && value != "->" {
        return true;
    }
    let first = value.as_bytes()[0];
    if last_was_punctuation { !b">)}],".contains(&first) } else { !b"<>(){}[],".contains(&first) }
}

/// Prints `e` (or, with `emit` false, only advances the spacing flags).
fn elem(p: &mut Printer<'_>, c: &Compiled, op: OpId, e: &Elem, sp: &mut Spacing, emit: bool) {
    let ir = p.ir;
    match e {
        Elem::Literal(l) => {
            if emit && sp.should_emit_space && space_before_literal(l, sp.last_was_punctuation) {
                p.push(" ");
            }
            if emit {
                p.push(l);
            }
            let first = l.as_bytes()[0];
            sp.should_emit_space = l.len() != 1 || !b"<({[".contains(&first);
            sp.last_was_punctuation = first != b'_' && !first.is_ascii_alphabetic();
        }
        Elem::Space(force) => {
            if *force && emit {
                p.push(" ");
            }
            sp.last_was_punctuation = !*force;
            sp.should_emit_space = false;
        }
        Elem::AttrDict { keyword } => {
            let elided = elided_attrs(ir, c, op);
            if !emit {
            } else if *keyword {
                p.print_optional_attr_dict_with_keyword(op, &elided);
            } else {
                p.print_optional_attr_dict(op, &elided);
            }
            sp.last_was_punctuation = false;
        }
        Elem::Optional { then, anchor, els } => {
            // The generated code's flags follow the text, not the run: a
            // group not printed still advances them, and so does its else.
            let shown = emit && present(ir, c, op, &then[*anchor]);
            for (k, x) in then.iter().enumerate() {
                // A unit anchor is implied by the group (printed only when it leads).
                let unit = matches!(x, Elem::Var(Var::Attr(i)) if c.spec.attrs[*i].kind.is_unit_like());
                if unit && k != 0 {
                    continue;
                }
                elem(p, c, op, x, sp, shown);
            }
            for x in els {
                elem(p, c, op, x, sp, emit && !shown);
            }
        }
        Elem::OIList { clauses } => {
            // As for optional groups, the flags advance through every clause.
            for (kw, body) in clauses {
                let mut shown = false;
                walk(body, &mut |x| {
                    if matches!(x, Elem::Var(_) | Elem::Type(_) | Elem::Qualified(_) | Elem::Custom { .. })
                        && present(ir, c, op, x)
                    {
                        shown = true;
                    }
                });
                let shown = emit && shown;
                elem(p, c, op, &Elem::Literal(kw), sp, shown);
                for x in body {
                    elem(p, c, op, x, sp, shown);
                }
            }
        }
        _ => {
            if emit {
                if sp.should_emit_space || !sp.last_was_punctuation {
                    p.push(" ");
                }
                value(p, c, op, e);
            }
            sp.last_was_punctuation = false;
            sp.should_emit_space = true;
        }
    }
}

fn value(p: &mut Printer<'_>, c: &Compiled, op: OpId, e: &Elem) {
    let ir = p.ir;
    match e {
        Elem::Var(Var::Operand(i)) => p.print_values(c.operand_group(ir, op, *i)),
        Elem::Var(Var::Result(i)) => p.print_values(c.result_group(ir, op, *i)),
        Elem::Var(Var::Region(i)) => {
            if let Some(&r) = ir.regions(op).get(*i) {
                p.print_region(r, true, true);
            }
        }
        Elem::Var(Var::Attr(i)) => {
            let a = &c.spec.attrs[*i];
            match ir.get_attr(op, a.name) {
                Some(_) if a.kind.is_unit_like() => p.push(a.name),
                Some(v) => print_attr(p, a.kind, v),
                // An absent default-valued attribute prints its default
                // (others cannot be absent here: the verifier requires them).
                None => match (a.presence.default_text(), a.kind) {
                    (Some(t), AttrKind::Enum(_)) => p.push(&format!("<{t}>")),
                    (Some(t), _) => p.push(t),
                    (None, _) => {}
                },
            }
        }
        Elem::Qualified(Var::Attr(i)) => {
            if let Some(v) = ir.get_attr(op, c.spec.attrs[*i].name) {
                p.print_attr(v, Elide::Never);
            }
        }
        Elem::Type(v) => {
            let vals = match *v {
                Var::Operand(i) => c.operand_group(ir, op, i),
                Var::Result(i) => c.result_group(ir, op, i),
                Var::Attr(_) | Var::Region(_) => &[],
            };
            for (k, x) in vals.iter().enumerate() {
                if k > 0 {
                    p.push(", ");
                }
                p.print_type(ir.value_type(*x));
            }
        }
        Elem::Custom { index, args } => (c.spec.customs[*index].print)(p, c, op, args),
        Elem::AllOperands => p.print_values(ir.operands(op)),
        Elem::AllOperandTypes => p.print_value_types(ir.operands(op)),
        Elem::FunctionalType => {
            p.push("(");
            p.print_value_types(ir.operands(op));
            p.push(") -> ");
            let results = ir.results(op);
            // One result prints bare unless it is itself a function type.
            match results {
                [r] if !matches!(ir.type_data(ir.value_type(*r)), crate::types::TypeData::Function { .. }) => {
                    p.print_type(ir.value_type(*r))
                }
                _ => {
                    p.push("(");
                    p.print_value_types(results);
                    p.push(")");
                }
            }
        }
        _ => {}
    }
}

/// An attribute in its format syntax (MLIR's `printStrippedAttrOrType`, or
/// `printAttributeWithoutType` for typed scalars).
pub fn print_attr(p: &mut Printer<'_>, kind: AttrKind, a: Attribute) {
    let ir = p.ir;
    match (kind, ir.attr_data(a)) {
        (AttrKind::Enum(e), AttrData::Opaque { .. }) => p.print_stripped_dialect_attr(a, e.mnemonic),
        (AttrKind::IntEnum(e), AttrData::Integer { value, .. }) => match e.name_of(*value as i64) {
            Some(n) => p.push(n),
            None => p.print_attr(a, Elide::Never),
        },
        (AttrKind::I64Array | AttrKind::I32Array, AttrData::DenseArray { data, .. }) => {
            if let crate::attrs::DenseArrayData::Int(v) = data {
                let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                p.push(&format!("[{}]", items.join(", ")));
            } else {
                p.print_attr(a, Elide::Never);
            }
        }
        (AttrKind::Int(_) | AttrKind::IndexInt | AttrKind::Bool, _) => p.print_attr(a, Elide::Must),
        (AttrKind::TypeAttr, AttrData::Type(t)) => p.print_type(*t),
        _ => p.print_attr(a, Elide::Never),
    }
}

/// Whether an optional group's anchor is there; default-valued attributes
/// count only when they differ from the default.
fn present(ir: &Ir, c: &Compiled, op: OpId, anchor: &Elem) -> bool {
    match anchor {
        Elem::Var(Var::Operand(i)) | Elem::Type(Var::Operand(i)) => !c.operand_group(ir, op, *i).is_empty(),
        Elem::Var(Var::Result(i)) | Elem::Type(Var::Result(i)) => !c.result_group(ir, op, *i).is_empty(),
        Elem::Var(Var::Region(i)) => ir.regions(op).get(*i).is_some_and(|r| !ir.region_blocks(*r).is_empty()),
        Elem::Var(Var::Attr(i)) | Elem::Qualified(Var::Attr(i)) => {
            let a = &c.spec.attrs[*i];
            match ir.get_attr(op, a.name) {
                None => false,
                Some(v) => !is_default(ir, c, *i, v),
            }
        }
        // A custom directive is there when any of its variables is.
        Elem::Custom { args, .. } => args.iter().any(|v| present(ir, c, op, &Elem::Var(*v))),
        _ => true,
    }
}

/// Whether `v` equals attribute `i`'s default (materialised in `ir` when the op was made).
fn is_default(ir: &Ir, c: &Compiled, i: usize, v: Attribute) -> bool {
    let a = &c.spec.attrs[i];
    let Some(text) = a.presence.default_text() else { return false };
    match (a.kind, ir.attr_data(v)) {
        (AttrKind::Bool | AttrKind::UnitProp, AttrData::Integer { value, .. }) => (*value != 0) == (text == "true"),
        (AttrKind::I64Array | AttrKind::I32Array, AttrData::DenseArray { data, .. }) => {
            let crate::attrs::DenseArrayData::Int(vals) = data else { return false };
            let want: Vec<i64> = text
                .trim_matches(|ch| ch == '[' || ch == ']')
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .filter_map(|s| s.trim().parse().ok())
                .collect();
            *vals == want
        }
        (AttrKind::Int(_) | AttrKind::IndexInt, AttrData::Integer { value, .. }) => text.parse() == Ok(*value),
        (AttrKind::IntEnum(e), AttrData::Integer { value, .. }) => e.value_of(text) == Some(*value as i64),
        (AttrKind::Enum(e), AttrData::Opaque { body, .. }) => {
            body.strip_prefix(e.mnemonic).and_then(|r| r.strip_prefix('<')).and_then(|r| r.strip_suffix('>'))
                == Some(text)
        }
        (AttrKind::Str, AttrData::String { value, .. }) => value == text.as_bytes(),
        (AttrKind::Array, AttrData::Array(items)) => text == "[]" && items.is_empty(),
        (AttrKind::Any, AttrData::Dictionary(entries)) => text == "{}" && entries.is_empty(),
        (AttrKind::Any, AttrData::Opaque { dialect, body }) => {
            text.strip_prefix('#').and_then(|t| t.split_once('.')) == Some((ir.sym_str(*dialect), body.as_str()))
        }
        _ => false,
    }
}

/// `attr-dict` leaves out what the format prints, the segment sizes and
/// default-valued attributes equal to their default.
fn elided_attrs(ir: &Ir, c: &Compiled, op: OpId) -> Vec<&'static str> {
    let mut out = Vec::new();
    if c.spec.segments {
        out.push("operandSegmentSizes");
    }
    walk(&c.program, &mut |e| match e {
        Elem::Var(Var::Attr(i)) | Elem::Qualified(Var::Attr(i)) => out.push(c.spec.attrs[*i].name),
        Elem::Custom { args, .. } => {
            for v in args {
                if let Var::Attr(i) = v {
                    out.push(c.spec.attrs[*i].name);
                }
            }
        }
        _ => {}
    });
    for (i, a) in c.spec.attrs.iter().enumerate() {
        if let Some(v) = ir.get_attr(op, a.name)
            && is_default(ir, c, i, v)
        {
            out.push(a.name);
        }
    }
    out
}

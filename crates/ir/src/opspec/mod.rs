//! Declarative op definitions, in the manner of MLIR's ODS: an [`OpSpec`]
//! lists an op's operands, attributes and results with their kinds, and an
//! `assemblyFormat`-style string from which the parser, the printer and the
//! structural checks are all derived. Op-specific checks stay code (the
//! `verify` of the [`OpDef`] the spec becomes).
//!
//! ```ignore
//! OpSpec {
//!     name: "hivm.hir.pipe_barrier",
//!     attrs: &[attr("pipe", AttrKind::Enum(HIVM_PIPE))],
//!     format: "`[` $pipe `]` attr-dict",
//!     ..OpSpec::EMPTY
//! }
//! .def()
//! ```

mod customs;
mod format;
mod parse;
mod print;
mod verify;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::attrs::{AttrData, Attribute, DenseArrayData};
use crate::dialect::OpDef;
use crate::ir::{Ir, OpId, Value};
use crate::types::Type;

pub use customs::{DYNAMIC_INDEX_LIST, DYNAMIC_INDEX_LIST_PAREN};
pub use format::{Elem, Var};
pub use parse::parse_attr;
pub use print::print_attr;

/// How many values an operand or result group holds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Arity {
    One,
    /// `Optional<...>`: zero or one.
    Opt,
    /// `Variadic<...>`: any number.
    Var,
}

/// A type the format may leave out because the constraint fixes it
/// (MLIR's buildable types: `Index`, `I64`, ...).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Fixed {
    Index,
    Int(u32),
    /// A dialect type written as `!dialect.body` (`!llvm.ptr`), with its
    /// constraint's summary.
    Dialect {
        dialect: &'static str,
        body: &'static str,
        summary: &'static str,
    },
}

impl Fixed {
    pub fn matches(self, ir: &Ir, t: Type) -> bool {
        match self {
            Fixed::Index => matches!(ir.type_data(t), crate::types::TypeData::Index),
            Fixed::Int(w) => ir.type_data(t).is_signless_int(w),
            Fixed::Dialect { dialect, body, .. } => {
                matches!(ir.type_data(t), crate::types::TypeData::Opaque { dialect: d, body: b } if d == dialect && b == body)
            }
        }
    }

    /// The constraint's summary, for "must be ..." messages.
    pub fn summary(self) -> String {
        match self {
            Fixed::Index => "index".into(),
            Fixed::Int(w) => format!("{w}-bit signless integer"),
            Fixed::Dialect { summary, .. } => summary.into(),
        }
    }

    pub fn build(self, ir: &mut Ir) -> Type {
        match self {
            Fixed::Index => ir.index_type(),
            Fixed::Int(w) => ir.int_type(w),
            Fixed::Dialect { dialect, body, .. } => {
                ir.ty(crate::types::TypeData::Opaque { dialect: dialect.into(), body: body.into() })
            }
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub struct ValueDef {
    pub name: &'static str,
    pub arity: Arity,
    pub fixed: Option<Fixed>,
    /// The type is that of another operand or result (ODS `AllTypesMatch`).
    pub like: Option<&'static str>,
}

pub const fn one(name: &'static str) -> ValueDef {
    ValueDef { name, arity: Arity::One, fixed: None, like: None }
}
pub const fn opt(name: &'static str) -> ValueDef {
    ValueDef { name, arity: Arity::Opt, fixed: None, like: None }
}
pub const fn var(name: &'static str) -> ValueDef {
    ValueDef { name, arity: Arity::Var, fixed: None, like: None }
}

impl ValueDef {
    /// The operand's type is fixed by its constraint (`Index`, `I64`).
    pub const fn of(mut self, t: Fixed) -> ValueDef {
        self.fixed = Some(t);
        self
    }

    /// The type is the one written for `other` (an operand or result).
    pub const fn like(mut self, other: &'static str) -> ValueDef {
        self.like = Some(other);
        self
    }
}

/// A dialect enum attribute `#dialect.mnemonic<VALUE>`, printed stripped
/// (`<VALUE>`) inside op syntax; the full form is accepted when parsing.
#[derive(Copy, Clone, Debug)]
pub struct EnumKind {
    pub dialect: &'static str,
    pub mnemonic: &'static str,
    /// The constraint's summary, for "failed to satisfy constraint".
    pub summary: &'static str,
}

/// An enum stored as a signless integer (MLIR's `I64EnumAttr` and kin,
/// e.g. LLVM's atomic orderings): written in a format as its case name,
/// bare or quoted.
#[derive(Copy, Clone, Debug)]
pub struct IntEnumKind {
    /// Case names with their values.
    pub cases: &'static [(&'static str, i64)],
    /// The integer width the value is stored with.
    pub width: u32,
    /// The constraint's summary, for "failed to satisfy constraint".
    pub summary: &'static str,
}

impl IntEnumKind {
    pub fn name_of(&self, value: i64) -> Option<&'static str> {
        self.cases.iter().find(|(_, v)| *v == value).map(|(n, _)| *n)
    }

    pub fn value_of(&self, name: &str) -> Option<i64> {
        self.cases.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

impl AttrKind {
    /// Written as a keyword that is there or not.
    pub fn is_unit_like(self) -> bool {
        matches!(self, AttrKind::Unit | AttrKind::UnitProp)
    }
}

/// An attribute's storage kind, which decides its syntax inside a format.
#[derive(Copy, Clone, Debug)]
pub enum AttrKind {
    Enum(EnumKind),
    IntEnum(IntEnumKind),
    /// `DenseI64ArrayAttr`: `[1, 2]`.
    I64Array,
    /// `DenseI32ArrayAttr`: `[1, 2]`.
    I32Array,
    /// `BoolAttr`: `true`.
    Bool,
    /// A signless integer attribute of this width, printed without its type.
    Int(u32),
    /// `IndexAttr`, printed without its type.
    IndexInt,
    /// `StrAttr`: `"text"`.
    Str,
    /// `UnitAttr`: present or not.
    Unit,
    /// `UnitProp`: a flag property, present as a unit attribute or, when
    /// unset, `false` (which the generic form shows). Declare it with a
    /// `"false"` default.
    UnitProp,
    /// `TypeAttr`: the type itself.
    TypeAttr,
    /// `ArrayAttr`, printed in full.
    Array,
    /// `FlatSymbolRefAttr`: `@name`.
    SymbolRef,
    /// Any attribute, printed in full.
    Any,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Presence {
    Required,
    Optional,
    /// `DefaultValuedAttr`: materialised when absent, elided when equal.
    /// The value is written as the attribute prints inside the format.
    Default(&'static str),
    /// `DefaultValuedOptionalAttr`: may stay absent (and then prints nowhere,
    /// generic form included); elided when equal to the default.
    DefaultOptional(&'static str),
}

impl Presence {
    /// The default's text, for either kind of default-valued attribute.
    pub fn default_text(self) -> Option<&'static str> {
        match self {
            Presence::Default(t) | Presence::DefaultOptional(t) => Some(t),
            _ => None,
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub struct AttrDef {
    pub name: &'static str,
    pub kind: AttrKind,
    pub presence: Presence,
}

pub const fn attr(name: &'static str, kind: AttrKind) -> AttrDef {
    AttrDef { name, kind, presence: Presence::Required }
}
pub const fn opt_attr(name: &'static str, kind: AttrKind) -> AttrDef {
    AttrDef { name, kind, presence: Presence::Optional }
}
pub const fn default_attr(name: &'static str, kind: AttrKind, value: &'static str) -> AttrDef {
    AttrDef { name, kind, presence: Presence::Default(value) }
}
/// A `DefaultValuedOptionalAttr` (not materialised).
pub const fn optional_default_attr(name: &'static str, kind: AttrKind, value: &'static str) -> AttrDef {
    AttrDef { name, kind, presence: Presence::DefaultOptional(value) }
}

/// The odd piece of syntax a format cannot express (`custom<Name>(...)`):
/// its parser and printer get the variables named in the directive.
#[derive(Copy, Clone)]
pub struct CustomDirective {
    pub name: &'static str,
    pub parse: fn(&mut crate::parser::Parser<'_>, &mut FormatState, &[Var]) -> crate::parser::PResult<()>,
    pub print: fn(&mut crate::printer::Printer<'_>, &Compiled, OpId, &[Var]),
}

/// Result types from what was parsed; `Err` is the diagnostic.
pub type InferFn = fn(&mut Ir, &FormatState) -> Result<Vec<Type>, String>;

/// One op, declared once.
#[derive(Clone, Copy)]
pub struct OpSpec {
    pub name: &'static str,
    pub operands: &'static [ValueDef],
    pub attrs: &'static [AttrDef],
    pub results: &'static [ValueDef],
    /// Region names (`$region` in the format); each holds explicit blocks.
    pub regions: &'static [&'static str],
    /// `AttrSizedOperandSegments`: operand groups sized by `operandSegmentSizes`.
    pub segments: bool,
    pub format: &'static str,
    pub customs: &'static [CustomDirective],
    /// Result types the format does not give, from the parsed operands
    /// (MLIR's `InferTypeOpInterface`).
    pub infer: Option<InferFn>,
    /// Traits beyond `ZERO_REGIONS` (which every spec'd op has).
    pub traits: crate::dialect::Traits,
    /// The op-specific checks, run after the structural ones.
    pub verify: Option<crate::dialect::VerifyFn>,
}

impl OpSpec {
    pub const EMPTY: OpSpec = OpSpec {
        name: "",
        operands: &[],
        attrs: &[],
        results: &[],
        regions: &[],
        segments: false,
        format: "",
        customs: &[],
        infer: None,
        traits: crate::dialect::Traits::NONE,
        verify: None,
    };

    /// Compiles the format once per process and makes the registry entry.
    /// A malformed spec is a programming error and panics at registration
    /// (every dialect is registered by the test suite).
    pub fn def(self) -> OpDef {
        let c = compiled(self);
        let regions =
            if self.regions.is_empty() { crate::dialect::Traits::ZERO_REGIONS } else { crate::dialect::Traits::NONE };
        let mut d = OpDef::new(self.name)
            .traits(regions.with(self.traits))
            .inherent(c.inherent)
            .assembly(parse::parse_op, print::print_op);
        d.default_keys = c.default_keys;
        d.verify = self.verify;
        d.spec = Some(c);
        d
    }
}

/// A spec with its format parsed and the names the registry needs.
pub struct Compiled {
    pub spec: OpSpec,
    pub program: Vec<Elem>,
    /// Attributes the format prints unconditionally (outside optional
    /// groups and custom directives): present or defaulted on every op.
    pub always_printed: Vec<usize>,
    inherent: &'static [&'static str],
    default_keys: &'static [&'static str],
}

fn compiled(spec: OpSpec) -> &'static Compiled {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, &'static Compiled>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = cache.get(spec.name) {
        return c;
    }
    let program = match format::compile(&spec) {
        Ok(p) => p,
        Err(e) => panic!("bad assembly format of '{}': {e}", spec.name),
    };
    let mut inherent: Vec<&'static str> = spec.attrs.iter().map(|a| a.name).collect();
    if spec.segments {
        inherent.push("operandSegmentSizes");
    }
    let default_keys: Vec<&'static str> =
        spec.attrs.iter().filter(|a| matches!(a.presence, Presence::Default(_))).map(|a| a.name).collect();
    // Leaked once per op name: specs live as long as the process.
    let always_printed = program
        .iter()
        .filter_map(|e| match e {
            Elem::Var(Var::Attr(i)) | Elem::Qualified(Var::Attr(i)) => Some(*i),
            _ => None,
        })
        .collect();
    let c: &'static Compiled = Box::leak(Box::new(Compiled {
        spec,
        program,
        always_printed,
        inherent: Box::leak(inherent.into_boxed_slice()),
        default_keys: Box::leak(default_keys.into_boxed_slice()),
    }));
    cache.insert(spec.name, c);
    c
}

/// The default-valued attributes of the spec, built in `ir`.
pub fn defaults(ir: &mut Ir, c: &Compiled) -> Vec<(&'static str, Attribute)> {
    c.spec
        .attrs
        .iter()
        .filter_map(|a| match a.presence {
            Presence::Default(v) => Some((a.name, default_value(ir, a.kind, v))),
            _ => None,
        })
        .collect()
}

/// Builds a default written in the attribute's format syntax.
pub fn default_value(ir: &mut Ir, kind: AttrKind, text: &str) -> Attribute {
    match kind {
        AttrKind::Bool => ir.bool_attr(text == "true"),
        AttrKind::I64Array | AttrKind::I32Array => {
            let v: Vec<i64> = text
                .trim_matches(|c| c == '[' || c == ']')
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim().parse().expect("integer default"))
                .collect();
            let w = if matches!(kind, AttrKind::I32Array) { 32 } else { 64 };
            let elem = ir.int_type(w);
            ir.attr(AttrData::DenseArray { elem, data: DenseArrayData::Int(v) })
        }
        AttrKind::Int(w) => {
            let t = ir.int_type(w);
            ir.int_attr(text.parse().expect("integer default"), t)
        }
        AttrKind::IndexInt => {
            let t = ir.index_type();
            ir.int_attr(text.parse().expect("integer default"), t)
        }
        AttrKind::IntEnum(e) => {
            let t = ir.int_type(e.width);
            ir.int_attr(e.value_of(text).expect("default is a case") as i128, t)
        }
        AttrKind::Enum(e) => {
            let d = ir.sym(e.dialect);
            ir.attr(AttrData::Opaque { dialect: d, body: format!("{}<{text}>", e.mnemonic) })
        }
        AttrKind::Str => ir.str_attr(text),
        AttrKind::Array if text == "[]" => ir.array_attr(Vec::new()),
        // `DictionaryAttr` defaulting to `{}`.
        AttrKind::Any if text == "{}" => ir.empty_dict(),
        AttrKind::Unit => ir.unit_attr(),
        AttrKind::UnitProp => ir.bool_attr(text == "true"),
        // A parameterless dialect attribute, `#ub.poison`.
        AttrKind::Any if text.starts_with('#') && text.contains('.') => {
            let (dialect, body) = text[1..].split_once('.').expect("checked above");
            let d = ir.sym(dialect);
            ir.attr(AttrData::Opaque { dialect: d, body: body.to_string() })
        }
        _ => panic!("no default syntax for {kind:?}"),
    }
}

/// What parsing an op with a format has gathered so far; custom directives
/// and result inference read and fill it.
#[derive(Default)]
pub struct FormatState {
    /// The op's name, for messages.
    pub op: &'static str,
    pub operands: Vec<Vec<crate::parser::UnresolvedOperand>>,
    pub operand_types: Vec<Vec<Type>>,
    pub result_types: Vec<Vec<Type>>,
    pub attrs: Vec<(&'static str, Attribute)>,
    /// The op's attribute definitions, to name `Var::Attr`s.
    pub attr_defs: &'static [AttrDef],
}

impl FormatState {
    /// Records attribute `v` (a `Var::Attr` of this op).
    pub fn set_attr(&mut self, v: Var, a: Attribute) {
        if let Var::Attr(i) = v
            && let Some(d) = self.attr_defs.get(i)
        {
            self.attrs.push((d.name, a));
        }
    }
}

impl Compiled {
    pub fn operand_index(&self, name: &str) -> Option<usize> {
        self.spec.operands.iter().position(|o| o.name == name)
    }

    /// The values of operand group `i`: from `operandSegmentSizes`, or, with at
    /// most one variable group, from the operand count.
    pub fn operand_group<'a>(&self, ir: &'a Ir, op: OpId, i: usize) -> &'a [Value] {
        group(ir.operands(op), self.spec.operands, i, self.spec.segments.then(|| segment_sizes(ir, op)))
    }

    pub fn result_group<'a>(&self, ir: &'a Ir, op: OpId, i: usize) -> &'a [Value] {
        group(ir.results(op), self.spec.results, i, None)
    }
}

/// Names each result after its definition (`%sum, %overflow = ...`), for
/// ops whose upstream `getAsmResultNames` does so; pass to `OpDef::names`.
pub fn name_results_after_defs(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return };
    for (i, r) in c.spec.results.iter().enumerate() {
        if let [v] = c.result_group(ir, op, i) {
            set(*v, r.name.to_string());
        }
    }
}

/// `operandSegmentSizes` as a list (empty when missing or malformed).
pub fn segment_sizes(ir: &Ir, op: OpId) -> Vec<usize> {
    match ir.get_attr(op, "operandSegmentSizes").map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: DenseArrayData::Int(v), .. }) => {
            v.iter().map(|n| (*n).max(0) as usize).collect()
        }
        _ => Vec::new(),
    }
}

fn group<'a>(values: &'a [Value], defs: &[ValueDef], i: usize, sizes: Option<Vec<usize>>) -> &'a [Value] {
    let sizes = sizes.unwrap_or_else(|| {
        // Fixed groups take one value each; variable groups share the rest
        // equally (one variable group, or MLIR's `SameVariadicOperandSize`).
        let fixed = defs.iter().filter(|d| d.arity == Arity::One).count();
        let variable = (defs.len() - fixed).max(1);
        let spare = values.len().saturating_sub(fixed) / variable;
        defs.iter().map(|d| if d.arity == Arity::One { 1 } else { spare }).collect()
    });
    let start: usize = sizes.iter().take(i).sum();
    let len = sizes.get(i).copied().unwrap_or(0);
    values.get(start..start + len).unwrap_or(&[])
}

pub(crate) fn verify_spec(ir: &Ir, op: OpId, c: &Compiled) -> Result<(), crate::dialect::VerifyError> {
    verify::verify(ir, op, c)
}

pub(crate) fn verify_spec_late(ir: &Ir, op: OpId, c: &Compiled) -> Result<(), crate::dialect::VerifyError> {
    verify::verify_late(ir, op, c)
}

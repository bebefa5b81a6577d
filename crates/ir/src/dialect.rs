//! The op registry: every registered op is described once by an [`OpDef`]
//! (name, traits, inherent attributes, custom assembly, verifier, result names).

use std::collections::HashMap;

use crate::ir::{Ir, OpId, Value};
use crate::parser::{OpParseResult, Parser};
use crate::printer::Printer;

pub type ParseFn = fn(&mut Parser<'_>, &mut OpParseResult) -> crate::parser::PResult<()>;
pub type PrintFn = fn(&mut Printer<'_>, OpId);
pub type VerifyFn = fn(&Ir, OpId) -> Result<(), VerifyError>;

/// A verifier failure. Most messages get MLIR's `'op.name' op ` prefix
/// (`emitOpError`); `plain` ones are reported verbatim (`emitError`).
#[derive(Debug, Clone)]
pub struct VerifyError {
    pub msg: String,
    pub plain: bool,
    /// How many times the error is reported (upstream verifiers sometimes emit
    /// the same error twice, and `-verify-diagnostics` tests count them).
    pub times: u8,
    /// The op the error is reported at, when not the verified op itself
    /// (an op in its body, say).
    pub at: Option<OpId>,
}

impl VerifyError {
    pub fn plain(msg: impl Into<String>) -> VerifyError {
        VerifyError { msg: msg.into(), plain: true, times: 1, at: None }
    }

    /// A verbatim message reported at another op (MLIR's `nested->emitError`).
    pub fn plain_at(op: OpId, msg: impl Into<String>) -> VerifyError {
        VerifyError { msg: msg.into(), plain: true, times: 1, at: Some(op) }
    }

    pub fn twice(mut self) -> VerifyError {
        self.times = 2;
        self
    }
}

impl From<String> for VerifyError {
    fn from(msg: String) -> VerifyError {
        VerifyError { msg, plain: false, times: 1, at: None }
    }
}

impl From<&str> for VerifyError {
    fn from(msg: &str) -> VerifyError {
        VerifyError { msg: msg.to_string(), plain: false, times: 1, at: None }
    }
}
pub type AsmNamesFn = fn(&Ir, OpId, &mut dyn FnMut(Value, String));
/// Default values of inherent attributes.
pub type DefaultsFn = fn(&mut Ir) -> Vec<(&'static str, crate::attrs::Attribute)>;
/// Validates the body of a dialect attribute or type (`mnemonic<...>`) and
/// returns its canonical spelling; `Err` carries the diagnostic message.
pub type CheckFn = fn(&str) -> Result<String, String>;
/// Checks a dialect attribute used as a ranked tensor's encoding against the
/// tensor's shape and element type (spelled as diagnostics quote it), as
/// MLIR's `VerifiableTensorEncoding` does; `Err` is the diagnostic.
pub type EncodingCheckFn = fn(body: &str, shape: &[i64], elem: &str) -> Result<(), String>;

/// A [`CheckFn`] error that points `offset` bytes into the body it was
/// given rather than at the attribute (see [`located_error`]).
pub fn error_at(offset: usize, msg: impl std::fmt::Display) -> String {
    format!("\u{1}{offset}\u{1}{msg}")
}

/// The offset and message of an error made by [`error_at`].
pub fn located_error(m: &str) -> Option<(u32, &str)> {
    let (offset, msg) = m.strip_prefix('\u{1}')?.split_once('\u{1}')?;
    Some((offset.parse().ok()?, msg))
}
/// Custom names for the entry-block arguments of each region (e.g. `%iv`).
pub type BlockArgNamesFn = fn(&Ir, OpId) -> Vec<(Value, String)>;

/// Op traits, as a bit set.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Traits(pub u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    pub const TERMINATOR: Traits = Traits(1);
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1 << 1);
    /// Regions need no terminator (e.g. `builtin.module`).
    pub const NO_TERMINATOR: Traits = Traits(1 << 2);
    pub const SYMBOL_TABLE: Traits = Traits(1 << 3);
    pub const SYMBOL: Traits = Traits(1 << 4);
    pub const SAME_OPERANDS_AND_RESULT_TYPE: Traits = Traits(1 << 5);
    pub const SINGLE_BLOCK: Traits = Traits(1 << 6);
    pub const PURE: Traits = Traits(1 << 7);
    pub const CONSTANT_LIKE: Traits = Traits(1 << 8);
    pub const RETURN_LIKE: Traits = Traits(1 << 9);
    pub const COMMUTATIVE: Traits = Traits(1 << 10);
    /// Single-block regions whose terminator may be omitted in custom form.
    pub const IMPLICIT_TERMINATOR: Traits = Traits(1 << 11);
    pub const AFFINE_SCOPE: Traits = Traits(1 << 12);
    pub const ZERO_REGIONS: Traits = Traits(1 << 13);
    pub const GRAPH_REGION: Traits = Traits(1 << 14);
    pub const ELEMENTWISE: Traits = Traits(1 << 15);

    pub const fn with(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }

    pub fn has(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, rhs: Traits) -> Traits {
        self.with(rhs)
    }
}

#[derive(Clone)]
pub struct OpDef {
    /// The op's name; one ending in `*` (`torch.aten.*`) defines every
    /// name with that prefix that has no definition of its own.
    pub name: &'static str,
    pub traits: Traits,
    /// Attributes stored as properties (printed in `<{...}>` in generic form).
    pub inherent_attrs: &'static [&'static str],
    pub parse: Option<ParseFn>,
    pub print: Option<PrintFn>,
    pub verify: Option<VerifyFn>,
    /// The checks MLIR's ODS generates (operand and result type constraints:
    /// `OpInvariants`), which run before the op's other traits are verified.
    pub invariants: Option<VerifyFn>,
    /// Runs after nested ops verified (MLIR's `hasRegionVerifier`).
    pub verify_regions: Option<VerifyFn>,
    pub asm_names: Option<AsmNamesFn>,
    pub block_arg_names: Option<BlockArgNamesFn>,
    /// The first region's entry arguments print with the names of the op's
    /// operands (MLIR's `shadowRegionArgs`), in custom form.
    pub shadow_region_args: bool,
    /// Name of the terminator inserted when a custom form omits it.
    pub implicit_terminator: Option<&'static str>,
    /// Dialect whose prefix may be omitted inside this op's regions (e.g. `func`).
    pub default_dialect: Option<&'static str>,
    /// Inherent attributes with default values, materialized on creation.
    pub defaults: Option<DefaultsFn>,
    /// Names `defaults` provides, checked first so the common case costs nothing.
    pub default_keys: &'static [&'static str],
    /// Per-instance purity for ops whose effects depend on attributes
    /// (MLIR's `MemoryEffectsOpInterface`); the `PURE` trait covers the rest.
    pub side_effect_free: Option<fn(&Ir, OpId) -> bool>,
    /// Canonicalization pattern: rewrites the op in place, returning whether
    /// anything changed (run to a fixed point by `-canonicalize`).
    pub canonicalize: Option<fn(&mut Ir, OpId) -> bool>,
    /// The declarative definition this op was made from, if any: its
    /// format drives parsing and printing, its lists the structural checks.
    pub spec: Option<&'static crate::opspec::Compiled>,
    /// For hand-written ops: how many operands, results and regions the op
    /// takes, checked before its own verifier (and so before any code that
    /// indexes them runs), as MLIR's ODS traits check them.
    pub arity: Option<Arity>,
}

/// Counts a hand-written op must have: `(min, max)` with `max` `None` for
/// no limit; regions exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arity {
    pub operands: (u16, Option<u16>),
    pub results: (u16, Option<u16>),
    pub regions: u8,
}

impl OpDef {
    pub const fn new(name: &'static str) -> OpDef {
        OpDef {
            name,
            traits: Traits::NONE,
            inherent_attrs: &[],
            parse: None,
            print: None,
            verify: None,
            invariants: None,
            verify_regions: None,
            asm_names: None,
            block_arg_names: None,
            shadow_region_args: false,
            implicit_terminator: None,
            default_dialect: None,
            defaults: None,
            default_keys: &[],
            side_effect_free: None,
            canonicalize: None,
            spec: None,
            arity: None,
        }
    }

    /// Declares the op's operand, result and region counts (see [`Arity`]).
    pub const fn arity(mut self, operands: (u16, Option<u16>), results: (u16, Option<u16>), regions: u8) -> OpDef {
        self.arity = Some(Arity { operands, results, regions });
        self
    }

    pub const fn default_dialect(mut self, d: &'static str) -> OpDef {
        self.default_dialect = Some(d);
        self
    }

    pub const fn defaults(mut self, keys: &'static [&'static str], f: DefaultsFn) -> OpDef {
        self.defaults = Some(f);
        self.default_keys = keys;
        self
    }

    pub const fn traits(mut self, t: Traits) -> OpDef {
        self.traits = t;
        self
    }

    /// Adds traits to those the op already has.
    pub const fn add_traits(mut self, t: Traits) -> OpDef {
        self.traits = self.traits.with(t);
        self
    }

    pub const fn inherent(mut self, names: &'static [&'static str]) -> OpDef {
        self.inherent_attrs = names;
        self
    }

    pub const fn assembly(mut self, parse: ParseFn, print: PrintFn) -> OpDef {
        self.parse = Some(parse);
        self.print = Some(print);
        self
    }

    pub const fn verifier(mut self, f: VerifyFn) -> OpDef {
        self.verify = Some(f);
        self
    }

    pub const fn effects(mut self, f: fn(&Ir, OpId) -> bool) -> OpDef {
        self.side_effect_free = Some(f);
        self
    }

    pub const fn canonicalizer(mut self, f: fn(&mut Ir, OpId) -> bool) -> OpDef {
        self.canonicalize = Some(f);
        self
    }

    pub const fn invariants(mut self, f: VerifyFn) -> OpDef {
        self.invariants = Some(f);
        self
    }

    pub const fn region_verifier(mut self, f: VerifyFn) -> OpDef {
        self.verify_regions = Some(f);
        self
    }

    pub const fn names(mut self, f: AsmNamesFn) -> OpDef {
        self.asm_names = Some(f);
        self
    }

    pub const fn arg_names(mut self, f: BlockArgNamesFn) -> OpDef {
        self.block_arg_names = Some(f);
        self
    }

    pub const fn shadowing_region_args(mut self) -> OpDef {
        self.shadow_region_args = true;
        self
    }

    pub const fn implicit_terminator(mut self, name: &'static str) -> OpDef {
        self.implicit_terminator = Some(name);
        self.traits = self.traits.with(Traits::IMPLICIT_TERMINATOR);
        self
    }

    /// Whether the op keeps properties (MLIR: it has inherent attributes).
    pub fn has_properties(&self) -> bool {
        !self.inherent_attrs.is_empty() || !self.default_keys.is_empty()
    }

    pub fn has(&self, t: Traits) -> bool {
        self.traits.has(t)
    }
}

/// A dialect: a namespace of ops plus optional attribute/type validation.
#[derive(Clone)]
pub struct Dialect {
    pub name: &'static str,
    pub ops: Vec<OpDef>,
    /// Validates the body of `#name.body`; returns an error message to reject it.
    pub check_attr: Option<CheckFn>,
    /// Validates the body of `!name.body`.
    pub check_type: Option<CheckFn>,
    /// Ops of this dialect need no definition (MLIR's
    /// `allowUnknownOperations`), as in test dialects.
    pub allow_unknown_ops: bool,
    /// Attribute mnemonics printed through an alias named after them
    /// (`#alias_scope = #llvm.alias_scope<...>`, MLIR's
    /// `OpAsmDialectInterface::getAlias`), or after another name when
    /// written `mnemonic=alias` (`swizzled_shared=shared`); references to
    /// aliases inside this dialect's attributes are read as the attributes
    /// they name.
    pub alias_mnemonics: &'static [&'static str],
    /// Checks this dialect's attributes where a tensor type holds them.
    pub check_encoding: Option<EncodingCheckFn>,
}

impl Dialect {
    pub fn new(name: &'static str, ops: Vec<OpDef>) -> Dialect {
        Dialect {
            name,
            ops,
            check_attr: None,
            check_type: None,
            allow_unknown_ops: false,
            alias_mnemonics: &[],
            check_encoding: None,
        }
    }

    /// The alias name for a body (`alias_scope<...>`) by the mnemonic it
    /// starts with, if any.
    pub fn alias_mnemonic(&self, body: &str) -> Option<&'static str> {
        let mnemonic = body.split('<').next().unwrap_or(body);
        self.alias_mnemonics.iter().find_map(|m| {
            let (key, alias) = m.split_once('=').unwrap_or((m, m));
            (key == mnemonic).then_some(alias)
        })
    }
}

#[derive(Default, Clone)]
pub struct Registry {
    defs: Vec<OpDef>,
    by_name: HashMap<&'static str, u32>,
    dialects: HashMap<&'static str, Dialect>,
    /// Ops standing for every name with a prefix (an `OpDef` named
    /// `torch.aten.*`): the prefix and the definition. Exact names win.
    families: Vec<(&'static str, u32)>,
}

impl Registry {
    /// Every registered op name.
    pub fn op_names(&self) -> Vec<&'static str> {
        self.defs.iter().map(|d| d.name).collect()
    }

    pub fn register(&mut self, dialect: Dialect) {
        for def in &dialect.ops {
            debug_assert!(def.name.starts_with(dialect.name), "{} not in {}", def.name, dialect.name);
            let id = self.defs.len() as u32;
            if let Some(prefix) = def.name.strip_suffix('*') {
                self.families.push((prefix, id));
            }
            self.by_name.insert(def.name, id);
            self.defs.push(def.clone());
        }
        self.dialects.insert(dialect.name, dialect);
    }

    /// The definition of an op name: registered under it, or else the
    /// family (`torch.aten.*`) whose prefix it extends.
    pub fn lookup(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).copied().or_else(|| {
            self.families.iter().find(|(p, _)| name.len() > p.len() && name.starts_with(p)).map(|&(_, id)| id)
        })
    }

    pub fn def(&self, id: u32) -> &OpDef {
        &self.defs[id as usize]
    }

    pub fn dialect(&self, name: &str) -> Option<&Dialect> {
        self.dialects.get(name)
    }

    pub fn has_dialect(&self, name: &str) -> bool {
        self.dialects.contains_key(name)
    }
}

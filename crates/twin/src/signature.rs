//! The parameter list of an implementation's `_mlir_ciface_` entry, read
//! from the DWARF the twin has the compiler emit, and its comparison with
//! what the op passes: a C signature that does not match the operands reads
//! garbage on the device and on the host alike, silently.

use std::borrow::Cow;
use std::path::Path;

use gimli::{AttributeValue, DwAt, EndianSlice, RunTimeEndian, UnitOffset};
use object::{Object, ObjectSection};

type R<'a> = EndianSlice<'a, RunTimeEndian>;

/// What kind of number a base type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Signed,
    Unsigned,
    Float,
    Bool,
}

/// A C type reduced to what the check compares.
#[derive(Clone, Debug)]
pub enum CType {
    Base {
        kind: Kind,
        bytes: u64,
        name: String,
    },
    /// A pointer to an MLIR memref descriptor (`allocated`, `aligned`,
    /// `offset`, `sizes[rank]`, `strides[rank]`).
    Descriptor {
        elem: Box<CType>,
        rank: u64,
    },
    /// A pointer to anything else (`void *` included).
    Pointer(Box<CType>),
    Void,
    /// Structs by value, arrays, incomplete types: not compared.
    Other,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Option<String>,
    pub ty: CType,
    /// The type as the source spells it (typedef names kept).
    pub text: String,
}

pub enum Signature {
    Params(Vec<Param>),
    /// Declared without a prototype (`f()` in C) or variadic: nothing to compare.
    Open,
    /// No debug information describes the entry.
    Unknown,
}

/// The symbols the library at `path` defines for the dynamic linker, read
/// from its file: whether an entry exists is known without loading the
/// library, whose constructors run only in the call worker.
pub fn exports(path: &Path) -> Result<std::collections::HashSet<String>, String> {
    use object::ObjectSymbol;
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(file
        .dynamic_symbols()
        .filter(|s| s.is_definition() && s.is_global())
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect())
}

/// Reads the signature of `entry` from the DWARF of the library at `path`.
pub fn read(path: &Path, entry: &str) -> Result<Signature, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    let endian = if file.is_little_endian() { RunTimeEndian::Little } else { RunTimeEndian::Big };
    let load = |id: gimli::SectionId| -> Result<Cow<'_, [u8]>, gimli::Error> {
        Ok(file.section_by_name(id.name()).and_then(|s| s.uncompressed_data().ok()).unwrap_or(Cow::Borrowed(&[])))
    };
    let sections = gimli::DwarfSections::load(load).map_err(|e| format!("{}: {e}", path.display()))?;
    let dwarf = sections.borrow(|s| EndianSlice::new(s, endian));
    find(&dwarf, entry).map_err(|e| format!("{}: reading debug information: {e}", path.display()))
}

fn find(dwarf: &gimli::Dwarf<R<'_>>, entry: &str) -> gimli::Result<Signature> {
    let mut units = dwarf.units();
    let mut best: Option<Signature> = None;
    while let Some(header) = units.next()? {
        let unit = dwarf.unit(header)?;
        let u = Unit { dwarf, unit: &unit };
        let mut candidates = Vec::new();
        let mut cursor = unit.entries();
        while let Some(die) = cursor.next_dfs()? {
            if die.tag() == gimli::DW_TAG_subprogram && u.name_of(die.offset(), 0)?.as_deref() == Some(entry) {
                candidates.push(die.offset());
            }
        }
        for off in candidates {
            let sig = u.signature(off)?;
            // Prefer a description with parameter names (a definition or
            // the abstract instance) over a bare declaration.
            let named = |s: &Signature| matches!(s, Signature::Params(p) if p.iter().all(|p| p.name.is_some()));
            match (&best, &sig) {
                (None, _) | (Some(Signature::Unknown), _) => best = Some(sig),
                (Some(b), Signature::Params(_)) if !named(b) && named(&sig) => best = Some(sig),
                _ => {}
            }
        }
    }
    Ok(best.unwrap_or(Signature::Unknown))
}

struct Unit<'a, 'd> {
    dwarf: &'a gimli::Dwarf<R<'d>>,
    unit: &'a gimli::Unit<R<'d>>,
}

const MAX_DEPTH: u32 = 32;

impl Unit<'_, '_> {
    fn string(&self, v: AttributeValue<R<'_>>) -> gimli::Result<String> {
        let s = self.dwarf.attr_string(self.unit, v)?;
        Ok(s.to_string_lossy().into_owned())
    }

    fn attr(&self, off: UnitOffset, at: DwAt) -> gimli::Result<Option<AttributeValue<R<'_>>>> {
        Ok(self.unit.entry(off)?.attr_value(at))
    }

    fn reference(&self, off: UnitOffset, at: DwAt) -> gimli::Result<Option<UnitOffset>> {
        Ok(match self.attr(off, at)? {
            Some(AttributeValue::UnitRef(r)) => Some(r),
            _ => None,
        })
    }

    /// A DIE's name, its own or that of the DIE it completes or instantiates.
    fn name_of(&self, off: UnitOffset, depth: u32) -> gimli::Result<Option<String>> {
        if depth > MAX_DEPTH {
            return Ok(None);
        }
        for at in [gimli::DW_AT_linkage_name, gimli::DW_AT_name] {
            if let Some(v) = self.attr(off, at)? {
                return self.string(v).map(Some);
            }
        }
        for at in [gimli::DW_AT_abstract_origin, gimli::DW_AT_specification] {
            if let Some(r) = self.reference(off, at)? {
                return self.name_of(r, depth + 1);
            }
        }
        Ok(None)
    }

    fn signature(&self, off: UnitOffset) -> gimli::Result<Signature> {
        // C functions without a prototype say nothing about their parameters.
        let c = matches!(
            self.unit.entry(self.unit.header.root_offset())?.attr_value(gimli::DW_AT_language),
            // C89, C, C99, C11, C17.
            Some(AttributeValue::Language(l)) if matches!(l.0, 0x1 | 0x2 | 0xc | 0x1d | 0x2c)
        );
        if c {
            let origin = self.reference(off, gimli::DW_AT_abstract_origin)?.unwrap_or(off);
            if !matches!(self.attr(origin, gimli::DW_AT_prototyped)?, Some(AttributeValue::Flag(true))) {
                return Ok(Signature::Open);
            }
        }
        let mut params = Vec::new();
        let mut tree = self.unit.entries_tree(Some(off))?;
        let root = tree.root()?;
        let mut children = root.children();
        while let Some(child) = children.next()? {
            let e = child.entry();
            match e.tag() {
                gimli::DW_TAG_unspecified_parameters => return Ok(Signature::Open),
                gimli::DW_TAG_formal_parameter => {
                    let mut p = e.offset();
                    // A concrete instance's parameters point at the abstract ones.
                    if let Some(AttributeValue::UnitRef(o)) = e.attr_value(gimli::DW_AT_abstract_origin) {
                        p = o;
                    }
                    let name = match self.attr(p, gimli::DW_AT_name)? {
                        Some(v) => Some(self.string(v)?),
                        None => None,
                    };
                    let ty = self.reference(p, gimli::DW_AT_type)?;
                    params.push(Param {
                        name,
                        ty: match ty {
                            Some(t) => self.ctype(t, 0)?,
                            None => CType::Other,
                        },
                        text: match ty {
                            Some(t) => self.text(t, 0)?,
                            None => "?".into(),
                        },
                    });
                }
                _ => {}
            }
        }
        Ok(Signature::Params(params))
    }

    /// Follows typedefs and qualifiers.
    fn strip(&self, mut off: UnitOffset) -> gimli::Result<Option<UnitOffset>> {
        for _ in 0..MAX_DEPTH {
            let die = self.unit.entry(off)?;
            match die.tag() {
                gimli::DW_TAG_typedef
                | gimli::DW_TAG_const_type
                | gimli::DW_TAG_volatile_type
                | gimli::DW_TAG_restrict_type
                | gimli::DW_TAG_atomic_type => match self.reference(off, gimli::DW_AT_type)? {
                    Some(t) => off = t,
                    None => return Ok(None), // `const void`
                },
                _ => return Ok(Some(off)),
            }
        }
        Ok(None)
    }

    fn ctype(&self, off: UnitOffset, depth: u32) -> gimli::Result<CType> {
        if depth > MAX_DEPTH {
            return Ok(CType::Other);
        }
        let Some(off) = self.strip(off)? else { return Ok(CType::Void) };
        let die = self.unit.entry(off)?;
        Ok(match die.tag() {
            gimli::DW_TAG_base_type => {
                let bytes = die.attr_value(gimli::DW_AT_byte_size).and_then(|v| v.udata_value()).unwrap_or(0);
                let name = match die.attr_value(gimli::DW_AT_name) {
                    Some(v) => self.string(v)?,
                    None => String::new(),
                };
                let kind = match die.attr_value(gimli::DW_AT_encoding) {
                    Some(AttributeValue::Encoding(e)) => match e {
                        gimli::DW_ATE_signed | gimli::DW_ATE_signed_char => Kind::Signed,
                        gimli::DW_ATE_unsigned | gimli::DW_ATE_unsigned_char => Kind::Unsigned,
                        gimli::DW_ATE_float => Kind::Float,
                        gimli::DW_ATE_boolean => Kind::Bool,
                        _ => return Ok(CType::Other),
                    },
                    _ => return Ok(CType::Other),
                };
                CType::Base { kind, bytes, name }
            }
            gimli::DW_TAG_pointer_type => match self.reference(off, gimli::DW_AT_type)? {
                None => CType::Pointer(Box::new(CType::Void)),
                Some(t) => match self.descriptor(t, depth)? {
                    Some(d) => d,
                    None => CType::Pointer(Box::new(self.ctype(t, depth + 1)?)),
                },
            },
            _ => CType::Other,
        })
    }

    /// A struct laid out as an MLIR memref descriptor: a data pointer
    /// twice, an offset, then (for rank > 0) `sizes` and `strides` arrays.
    fn descriptor(&self, off: UnitOffset, depth: u32) -> gimli::Result<Option<CType>> {
        let Some(off) = self.strip(off)? else { return Ok(None) };
        let die = self.unit.entry(off)?;
        if !matches!(die.tag(), gimli::DW_TAG_structure_type | gimli::DW_TAG_class_type) {
            return Ok(None);
        }
        // A template never instantiated in this unit (its members are never
        // touched) is only declared: its name still says what it is.
        if matches!(die.attr_value(gimli::DW_AT_declaration), Some(AttributeValue::Flag(true))) {
            return Ok(self.name_of(off, 0)?.as_deref().and_then(declared_descriptor));
        }
        let mut members = Vec::new();
        let mut tree = self.unit.entries_tree(Some(off))?;
        let root = tree.root()?;
        let mut children = root.children();
        while let Some(child) = children.next()? {
            let e = child.entry();
            if e.tag() == gimli::DW_TAG_member
                && let Some(AttributeValue::UnitRef(t)) = e.attr_value(gimli::DW_AT_type)
            {
                members.push(t);
            }
        }
        if members.len() != 3 && members.len() != 5 {
            return Ok(None);
        }
        let CType::Pointer(elem) = self.ctype(members[0], depth + 1)? else { return Ok(None) };
        let rank = if members.len() == 3 { 0 } else { self.array_len(members[3])?.unwrap_or(0) };
        Ok(Some(CType::Descriptor { elem, rank }))
    }

    fn array_len(&self, off: UnitOffset) -> gimli::Result<Option<u64>> {
        let Some(off) = self.strip(off)? else { return Ok(None) };
        if self.unit.entry(off)?.tag() != gimli::DW_TAG_array_type {
            return Ok(None);
        }
        let mut tree = self.unit.entries_tree(Some(off))?;
        let root = tree.root()?;
        let mut children = root.children();
        while let Some(child) = children.next()? {
            let e = child.entry();
            if e.tag() == gimli::DW_TAG_subrange_type {
                if let Some(n) = e.attr_value(gimli::DW_AT_count).and_then(|v| v.udata_value()) {
                    return Ok(Some(n));
                }
                if let Some(n) = e.attr_value(gimli::DW_AT_upper_bound).and_then(|v| v.udata_value()) {
                    return Ok(Some(n + 1));
                }
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// The type as the source spells it.
    fn text(&self, off: UnitOffset, depth: u32) -> gimli::Result<String> {
        if depth > MAX_DEPTH {
            return Ok("...".into());
        }
        let die = self.unit.entry(off)?;
        let inner = |u: &Self| -> gimli::Result<String> {
            match u.reference(off, gimli::DW_AT_type)? {
                Some(t) => u.text(t, depth + 1),
                None => Ok("void".into()),
            }
        };
        Ok(match die.tag() {
            gimli::DW_TAG_pointer_type => format!("{} *", inner(self)?),
            gimli::DW_TAG_const_type => format!("const {}", inner(self)?),
            gimli::DW_TAG_volatile_type => format!("volatile {}", inner(self)?),
            gimli::DW_TAG_restrict_type | gimli::DW_TAG_atomic_type => inner(self)?,
            _ => match self.name_of(off, 0)? {
                Some(n) => n,
                None => "<anonymous>".into(),
            },
        })
    }
}

/// `memref_t<float, 1>` and the like, from a declaration's name.
fn declared_descriptor(name: &str) -> Option<CType> {
    let args = name.strip_suffix('>')?.split_once('<')?.1;
    let (elem, rank) = args.rsplit_once(',')?;
    let rank = rank.trim().trim_end_matches(['u', 'U', 'l', 'L']).parse::<u64>().ok()?;
    let (kind, bytes) = match elem.trim() {
        "float" => (Kind::Float, 4),
        "double" => (Kind::Float, 8),
        "_Float16" | "half" | "__fp16" => (Kind::Float, 2),
        "__bf16" | "bfloat16_t" => (Kind::Float, 2),
        "bool" | "_Bool" => (Kind::Bool, 1),
        "char" | "signed char" | "int8_t" => (Kind::Signed, 1),
        "unsigned char" | "uint8_t" => (Kind::Unsigned, 1),
        "short" | "short int" | "int16_t" => (Kind::Signed, 2),
        "unsigned short" | "short unsigned int" | "uint16_t" => (Kind::Unsigned, 2),
        "int" | "int32_t" => (Kind::Signed, 4),
        "unsigned int" | "unsigned" | "uint32_t" => (Kind::Unsigned, 4),
        "long" | "long int" | "long long" | "long long int" | "int64_t" => (Kind::Signed, 8),
        "unsigned long" | "long unsigned int" | "long long unsigned int" | "unsigned long long" | "uint64_t" => {
            (Kind::Unsigned, 8)
        }
        _ => return None,
    };
    let name = elem.trim().to_string();
    Some(CType::Descriptor { elem: Box::new(CType::Base { kind, bytes, name }), rank })
}

/// An element or scalar type on the MLIR side.
#[derive(Clone, Debug, PartialEq)]
pub enum Mlir {
    Int {
        bits: u32,
        signedness: hivm_ir::types::Signedness,
    },
    Index,
    F16,
    BF16,
    F32,
    F64,
    /// Types the check does not know how to compare.
    Other,
}

impl Mlir {
    pub fn of(ir: &hivm_ir::Ir, t: hivm_ir::Type) -> Mlir {
        use hivm_ir::types::FloatKind;
        match ir.type_data(t) {
            hivm_ir::TypeData::Integer { width, signedness } => Mlir::Int { bits: *width, signedness: *signedness },
            hivm_ir::TypeData::Index => Mlir::Index,
            hivm_ir::TypeData::Float(FloatKind::F16) => Mlir::F16,
            hivm_ir::TypeData::Float(FloatKind::BF16) => Mlir::BF16,
            hivm_ir::TypeData::Float(FloatKind::F32) => Mlir::F32,
            hivm_ir::TypeData::Float(FloatKind::F64) => Mlir::F64,
            _ => Mlir::Other,
        }
    }

    /// Whether a C base type holds this MLIR type; if not, why.
    fn accepts(&self, c: &CType) -> Result<(), String> {
        use hivm_ir::types::Signedness::*;
        let CType::Base { kind, bytes, name } = c else {
            return match c {
                CType::Void | CType::Other => Ok(()),
                _ => Err("a pointer".into()),
            };
        };
        let bits = bytes * 8;
        let bf16_name = name.contains("bf16") || name.contains("bfloat");
        let ok = match (self, kind) {
            (Mlir::Other, _) => true,
            (Mlir::F16, Kind::Float) => bits == 16 && !bf16_name,
            (Mlir::BF16, Kind::Float) => bits == 16 && bf16_name,
            (Mlir::F32, Kind::Float) => bits == 32,
            (Mlir::F64, Kind::Float) => bits == 64,
            (Mlir::Index, Kind::Signed | Kind::Unsigned) => bits == 64,
            (Mlir::Int { bits: 1, .. }, Kind::Bool) => true,
            (Mlir::Int { bits: b, signedness }, Kind::Signed | Kind::Unsigned | Kind::Bool) => {
                let width = bits as u32 == (*b).max(8) && (*b == 1 || b.is_power_of_two());
                let sign = match signedness {
                    Signless => true,
                    Signed => *kind == Kind::Signed,
                    Unsigned => *kind == Kind::Unsigned,
                };
                width && sign && (*kind != Kind::Bool || *b == 1)
            }
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let what = match kind {
            Kind::Float => "floating-point",
            Kind::Signed => "signed integer",
            Kind::Unsigned => "unsigned integer",
            Kind::Bool => "boolean",
        };
        Err(format!("a {bits}-bit {what}"))
    }
}

/// One argument as the op passes it.
#[derive(Clone, Debug)]
pub struct Passed {
    /// `ins[0]`, `outs[1]`, `sync arg 0`, ...
    pub name: String,
    /// The operand's MLIR type as printed.
    pub mlir: String,
    /// For memrefs, the element type and rank; for scalars, the type.
    pub memref: Option<u64>,
    pub elem: Mlir,
    /// A trailing argument an implementation may leave undeclared (a
    /// macro's event ids: the CustomOp document's own macro hard-codes its
    /// event instead; extra arguments are harmless in the C convention).
    pub optional: bool,
}

fn param_name(i: usize, p: &Param) -> String {
    match &p.name {
        Some(n) => format!("parameter {} '{n}' ({})", i + 1, p.text),
        None => format!("parameter {} ({})", i + 1, p.text),
    }
}

/// Compares an entry's parameters with what the op passes, in order;
/// `counts` says what it passes (`ins: 2, outs: 1, ...`).
pub fn compare(params: &[Param], passed: &[Passed], counts: &str) -> Result<(), String> {
    for (i, (p, a)) in params.iter().zip(passed).enumerate() {
        let mismatch =
            |why: String| Err(format!("{} does not match {}, which is {}: {why}", param_name(i, p), a.name, a.mlir));
        match (&p.ty, a.memref) {
            (CType::Descriptor { elem, rank }, Some(r)) => {
                if *rank != r {
                    return mismatch(format!("the descriptor has rank {rank}, the memref rank {r}"));
                }
                if let Err(e) = a.elem.accepts(elem) {
                    return mismatch(format!("the descriptor's elements are {e}"));
                }
            }
            (CType::Descriptor { .. }, None) => {
                return mismatch("the implementation takes a memref descriptor, the op passes a scalar".into());
            }
            // `void *` and the like: opaque, nothing to compare.
            (CType::Pointer(inner), Some(_)) if matches!(**inner, CType::Void | CType::Other) => {}
            (CType::Pointer(_), Some(_)) => {
                return mismatch(
                    "memrefs are passed as pointers to MLIR memref descriptors (memref_t<T, Rank> *), not to their \
                     elements"
                        .into(),
                );
            }
            (CType::Base { .. }, Some(_)) => {
                return mismatch("the op passes a pointer to a memref descriptor".into());
            }
            (_, Some(_)) => {}
            (ty, None) => {
                if let Err(e) = a.elem.accepts(ty) {
                    return mismatch(format!("the parameter is {e}"));
                }
            }
        }
    }
    if params.len() < passed.len() && passed[params.len()..].iter().all(|p| p.optional) {
        return Ok(());
    }
    if params.len() != passed.len() {
        return Err(if params.len() > passed.len() {
            let i = passed.len();
            format!(
                "takes {} parameters but the op passes {} ({counts}): {} has no operand",
                params.len(),
                passed.len(),
                param_name(i, &params[i])
            )
        } else {
            let a = &passed[params.len()];
            format!(
                "takes {} parameters but the op passes {} ({counts}): {} ({}) has no parameter",
                params.len(),
                passed.len(),
                a.name,
                a.mlir
            )
        });
    }
    Ok(())
}

//! Builtin attributes (and locations, which MLIR also models as attributes).
//! Uniqued in the [`crate::Ir`] context and referred to by [`Attribute`] handles.

use crate::affine::{AffineMap, IntegerSet};
use crate::types::Type;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Attribute(pub(crate) u32);

/// An interned identifier (attribute name, symbol, dialect name, ...).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Sym(pub(crate) u32);

/// Element storage of a dense elements attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseElem {
    Int(i128),
    /// Bit pattern of the value as a float of the element type.
    Float(u64),
    Complex(Box<(DenseElem, DenseElem)>),
    /// Raw bytes of a string element (element types that are not numbers,
    /// such as an unregistered dialect's type).
    Str(Vec<u8>),
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseArrayData {
    Int(Vec<i64>),
    /// f32/f64 bit patterns.
    Float(Vec<u64>),
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum LocData {
    Unknown,
    FileLineCol {
        file: Sym,
        line: u32,
        col: u32,
    },
    /// `"file":line` (no column), or a range `"file":line:col to
    /// end_line:end_col` or `to :end_col` (same line). As in MLIR, each
    /// written form is its own location even where they print alike (a range
    /// ending at its start prints as the start); diagnostics use the start.
    FileLineColRange {
        file: Sym,
        line: u32,
        col: Option<u32>,
        end_line: Option<u32>,
        end_col: Option<u32>,
    },
    /// `loc(#alias)` on an op or argument before `#alias` is defined (as in
    /// mlir-opt's debuginfo output, which defines them at the end). Exists
    /// only while parsing: the parser replaces it once the file is read.
    Deferred(u32),
    Name {
        name: Sym,
        child: Option<Attribute>,
    },
    CallSite {
        callee: Attribute,
        caller: Attribute,
    },
    Fused {
        locs: Vec<Attribute>,
        metadata: Option<Attribute>,
    },
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrData {
    Unit,
    /// Integer of any integer type or `index`; `i1` values print as `true`/`false`.
    Integer {
        value: i128,
        ty: Type,
    },
    /// Bit pattern of the value in the float type `ty`.
    Float {
        bits: u128,
        ty: Type,
    },
    /// Raw bytes: MLIR strings may hold any byte through `\XX` escapes.
    String {
        value: Vec<u8>,
        ty: Option<Type>,
    },
    Array(Vec<Attribute>),
    DenseArray {
        elem: Type,
        data: DenseArrayData,
    },
    /// Sorted by name bytes; names are unique.
    Dictionary(Vec<(Sym, Attribute)>),
    Type(Type),
    SymbolRef {
        root: Sym,
        nested: Vec<Sym>,
    },
    AffineMap(AffineMap),
    IntegerSet(IntegerSet),
    DenseElements {
        ty: Type,
        splat: bool,
        elems: Vec<DenseElem>,
    },
    /// `sparse<indices, values> : type`: `indices` a `DenseElements` of
    /// i64 and shape [N, rank] (or [N] for rank 1), `values` a
    /// `DenseElements` of the element type and shape [N].
    SparseElements {
        ty: Type,
        indices: Attribute,
        values: Attribute,
    },
    /// `dense_resource<name> : type`
    DenseResource {
        name: Sym,
        ty: Type,
    },
    Strided {
        strides: Vec<i64>,
        offset: i64,
    },
    /// Dialect attribute kept verbatim: `#dialect.body` or `#dialect<body>`.
    Opaque {
        dialect: Sym,
        body: String,
    },
    /// An unregistered dialect's attribute written with a type,
    /// `#foo.attr : i32` (MLIR's `OpaqueAttr` keeps the type).
    TypedOpaque {
        attr: Attribute,
        ty: Type,
    },
    Location(LocData),
}

/// Declares names interned first in every context, in this order, so that
/// their `Sym` is a constant and hot lookups compare integers, not strings.
macro_rules! known_names {
    ($($id:ident = $text:literal,)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u32)]
        enum KnownIndex { $($id,)* }
        /// Constant symbols of frequently looked-up attribute and op names.
        pub mod known {
            use super::{KnownIndex, Sym};
            $(pub const $id: Sym = Sym(KnownIndex::$id as u32);)*
        }
        pub(crate) const KNOWN_NAMES: &[&str] = &[$($text,)*];

        /// The constant symbol of a known name. Written as a `match` so that
        /// with a literal argument (the usual case) it folds away.
        #[inline(always)]
        pub fn known_sym(name: &str) -> Option<Sym> {
            match name {
                $($text => Some(known::$id),)*
                _ => None,
            }
        }
    };
}

known_names! {
    SYM_NAME = "sym_name",
    SYM_VISIBILITY = "sym_visibility",
    VALUE = "value",
    OPERAND_SEGMENT_SIZES = "operandSegmentSizes",
    FUNCTION_TYPE = "function_type",
    ARG_ATTRS = "arg_attrs",
    RES_ATTRS = "res_attrs",
    CALLEE = "callee",
    NAME = "name",
    SYMBOL = "symbol",
    HIVM_PIPE = "hivm.pipe",
    HIVM_PIPE_IN = "hivm.pipe_in",
    HIVM_PIPE_OUT = "hivm.pipe_out",
    HIVM_TCORE_TYPE = "hivm.tcore_type",
    HIVM_VF_MODE = "hivm.vf_mode",
    EXTRA_BUFFERS_SIZES = "extra_buffers_sizes",
    EXTRA_BUFFERS_TYPES = "extra_buffers_types",
    SYNC_EVENT_SLOTS = "sync_event_slots",
    NO_SIDE_EFFECT = "no_side_effect",
    MAX_RANK = "max_rank",
    INPLACE_OUTS = "inplace_outs",
    HACC_TARGET = "hacc.target",
    HACC_FUNCTION_KIND = "hacc.function_kind",
    GM_ADDR_ARGS_INDICES = "gm_addr_args_indices",
    WRITABLE = "writable",
    RESTRICT = "restrict",
    // Op names that passes test for often.
    OP_MODULE = "builtin.module",
    OP_FUNC = "func.func",
    OP_CALL = "func.call",
    OP_RETURN = "func.return",
    OP_FOR = "scf.for",
    OP_WHILE = "scf.while",
    OP_IF = "scf.if",
    OP_YIELD = "scf.yield",
    OP_CONSTANT = "arith.constant",
    OP_INSERT_SLICE = "tensor.insert_slice",
    OP_INSERT = "tensor.insert",
    OP_EXTRACT_SLICE = "tensor.extract_slice",
    OP_EMPTY = "tensor.empty",
    OP_TO_TENSOR = "bufferization.to_tensor",
    OP_FILL = "linalg.fill",
    OP_MARK = "annotation.mark",
    OP_CUSTOM = "hivm.hir.custom",
    OP_CUSTOM_MACRO = "hivm.hir.custom_macro",
}

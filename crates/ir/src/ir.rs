//! The IR container: uniqued types/attributes/identifiers plus arenas of
//! operations, blocks, regions and values addressed by typed indices.
//! Operations in a block form an intrusive doubly-linked list, so insertion and
//! erasure are O(1) and handles stay valid across rewrites.

use std::sync::Arc;

use crate::attrs::{AttrData, Attribute, LocData, Sym};
use crate::dialect::{OpDef, Registry};
use crate::intern::{Interner, StrInterner};
use crate::types::{FloatKind, Signedness, Type, TypeData};

mod compact;

macro_rules! id {
    ($name:ident) => {
        /// Index into its arena, stored off by one so `Option<Self>` is 4 bytes.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $name(std::num::NonZeroU32);
        impl $name {
            pub fn index(self) -> usize {
                self.0.get() as usize - 1
            }
            pub(crate) fn from_index(i: usize) -> $name {
                $name(std::num::NonZeroU32::new(i as u32 + 1).expect("arena index overflow"))
            }
        }
    };
}
id!(OpId);
id!(BlockId);
id!(RegionId);
id!(Value);

/// A value-to-value map (replacements, clones), hashed cheaply.
pub type ValueMap = rustc_hash::FxHashMap<Value, Value>;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ValueDef {
    Result {
        op: OpId,
        index: u32,
    },
    BlockArg {
        block: BlockId,
        index: u32,
    },
    /// A forward reference the parser has not resolved yet.
    Placeholder,
}

#[derive(Clone, Debug)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
}

/// A range in one of the [`Ir`] pools.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// One operation. Variable-length parts live in pools on [`Ir`] (MLIR keeps
/// them as trailing objects), which keeps this struct small and allocation-free.
#[derive(Clone, Debug)]
pub struct OpData {
    pub name: Sym,
    /// Index of the registered definition, or `NO_DEF`; the `ERASED` bit
    /// marks an erased op (folded in here to keep the struct small).
    def: u32,
    operands: Span,
    /// Results are consecutive values; the span indexes the identity table.
    results: Span,
    /// Regions and successors, which most ops lack: an index into
    /// `Ir::nested_pool`, or `NO_NESTED`.
    nested: u32,
    /// Inherent attributes (MLIR "properties"): a dictionary for registered ops;
    /// whatever was written in `<...>` for unregistered ones.
    pub properties: Option<Attribute>,
    /// Discardable attributes: always a dictionary.
    pub attrs: Attribute,
    pub loc: Attribute,
    pub parent: Option<BlockId>,
    pub prev: Option<OpId>,
    pub next: Option<OpId>,
}

const ERASED: u32 = 1 << 31;
const NO_DEF: u32 = ERASED - 1;
const NO_NESTED: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub args: Vec<Value>,
    /// Locations of the arguments, when any was given (else empty).
    pub arg_locs: Vec<Option<Attribute>>,
    pub first: Option<OpId>,
    pub last: Option<OpId>,
    pub parent: Option<RegionId>,
}

#[derive(Clone, Debug, Default)]
pub struct RegionData {
    pub blocks: Vec<BlockId>,
    pub parent: Option<OpId>,
}

/// Everything needed to create an operation.
#[derive(Clone, Debug)]
pub struct OperationState {
    pub name: Sym,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub properties: Option<Attribute>,
    pub attrs: Vec<(Sym, Attribute)>,
    /// Detached regions (see [`Ir::new_region`]) moved into the op.
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
    pub loc: Attribute,
}

impl OperationState {
    pub fn new(name: Sym, loc: Attribute) -> OperationState {
        OperationState {
            name,
            operands: Vec::new(),
            result_types: Vec::new(),
            properties: None,
            attrs: Vec::new(),
            regions: Vec::new(),
            successors: Vec::new(),
            loc,
        }
    }
}

pub struct Ir {
    types: Interner<TypeData>,
    attrs: Interner<AttrData>,
    syms: StrInterner,
    pub(crate) ops: Vec<OpData>,
    pub(crate) blocks: Vec<BlockData>,
    pub(crate) regions: Vec<RegionData>,
    pub(crate) values: Vec<ValueData>,
    /// `value_ids[i] == Value(i)`: lets result ranges be returned as slices.
    value_ids: Vec<Value>,
    operand_pool: Vec<Value>,
    region_pool: Vec<RegionId>,
    successor_pool: Vec<BlockId>,
    /// (regions, successors) spans of the ops that have either.
    nested_pool: Vec<(Span, Span)>,
    /// Ops erased since the arenas were last compacted.
    erased_ops: usize,
    pub registry: Arc<Registry>,
    pub allow_unregistered: bool,
    /// Non-fatal diagnostics (warnings, remarks) emitted by passes; the driver
    /// reports them after the pipeline.
    pub emitted: Vec<crate::diagnostics::Diagnostic>,
    empty_dict: Attribute,
    unknown_loc: Attribute,
    /// Registry lookups by interned name (`u32::MAX` = not looked up yet,
    /// `u32::MAX - 1` = unregistered), so op creation does not hash names.
    def_cache: Vec<u32>,
    /// Symbol tables indexed during verification (see `builder::SymbolCache`).
    pub(crate) symbol_cache: crate::builder::SymbolCache,
}

impl Ir {
    pub fn new(registry: Arc<Registry>) -> Ir {
        let mut syms = StrInterner::default();
        for (i, name) in crate::attrs::KNOWN_NAMES.iter().enumerate() {
            let id = syms.intern(name);
            debug_assert_eq!(id as usize, i);
        }
        let mut attrs = Interner::default();
        let empty_dict = Attribute(attrs.intern(AttrData::Dictionary(Vec::new())));
        let unknown_loc = Attribute(attrs.intern(AttrData::Location(LocData::Unknown)));
        Ir {
            types: Interner::default(),
            attrs,
            syms,
            ops: Vec::new(),
            blocks: Vec::new(),
            regions: Vec::new(),
            values: Vec::new(),
            value_ids: Vec::new(),
            operand_pool: Vec::new(),
            region_pool: Vec::new(),
            successor_pool: Vec::new(),
            nested_pool: Vec::new(),
            erased_ops: 0,
            registry,
            allow_unregistered: false,
            emitted: Vec::new(),
            empty_dict,
            unknown_loc,
            def_cache: Vec::new(),
            symbol_cache: Default::default(),
        }
    }

    // ----- uniquing -----

    pub fn ty(&mut self, data: TypeData) -> Type {
        Type(self.types.intern(data))
    }

    pub fn type_data(&self, ty: Type) -> &TypeData {
        self.types.get(ty.0)
    }

    pub fn attr(&mut self, data: AttrData) -> Attribute {
        Attribute(self.attrs.intern(data))
    }

    /// A `file:line:col` location. Not uniqued: every op has its own, and they
    /// are never compared, so hashing them would only cost time.
    pub fn file_line_col(&mut self, file: Sym, line: u32, col: u32) -> Attribute {
        Attribute(self.attrs.push_unique(AttrData::Location(LocData::FileLineCol { file, line, col })))
    }

    pub fn type_count(&self) -> usize {
        self.types.len()
    }

    pub fn attr_count(&self) -> usize {
        self.attrs.len()
    }

    pub fn attr_data(&self, a: Attribute) -> &AttrData {
        self.attrs.get(a.0)
    }

    pub fn sym(&mut self, s: &str) -> Sym {
        Sym(self.syms.intern(s))
    }

    pub fn lookup_sym(&self, s: &str) -> Option<Sym> {
        self.syms.lookup(s).map(Sym)
    }

    pub fn sym_str(&self, s: Sym) -> &str {
        self.syms.get(s.0)
    }

    pub fn int_type(&mut self, width: u32) -> Type {
        self.ty(TypeData::Integer { width, signedness: Signedness::Signless })
    }

    pub fn index_type(&mut self) -> Type {
        self.ty(TypeData::Index)
    }

    pub fn float_type(&mut self, kind: FloatKind) -> Type {
        self.ty(TypeData::Float(kind))
    }

    pub fn none_type(&mut self) -> Type {
        self.ty(TypeData::None)
    }

    pub fn function_type(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.ty(TypeData::Function { inputs, results })
    }

    pub fn unit_attr(&mut self) -> Attribute {
        self.attr(AttrData::Unit)
    }

    pub fn int_attr(&mut self, value: i128, ty: Type) -> Attribute {
        self.attr(AttrData::Integer { value, ty })
    }

    pub fn i64_attr(&mut self, value: i64) -> Attribute {
        let t = self.int_type(64);
        self.int_attr(value as i128, t)
    }

    pub fn bool_attr(&mut self, value: bool) -> Attribute {
        let t = self.int_type(1);
        self.int_attr(value as i128, t)
    }

    pub fn str_attr(&mut self, s: &str) -> Attribute {
        self.attr(AttrData::String { value: s.as_bytes().to_vec(), ty: None })
    }

    pub fn type_attr(&mut self, t: Type) -> Attribute {
        self.attr(AttrData::Type(t))
    }

    pub fn array_attr(&mut self, items: Vec<Attribute>) -> Attribute {
        self.attr(AttrData::Array(items))
    }

    pub fn empty_dict(&self) -> Attribute {
        self.empty_dict
    }

    pub fn unknown_loc(&self) -> Attribute {
        self.unknown_loc
    }

    /// Builds a dictionary attribute; later duplicates replace earlier entries.
    pub fn dict_attr(&mut self, mut entries: Vec<(Sym, Attribute)>) -> Attribute {
        sort_entries(self, &mut entries);
        entries.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                earlier.1 = later.1;
                true
            } else {
                false
            }
        });
        self.attr(AttrData::Dictionary(entries))
    }

    pub fn dict_entries(&self, a: Attribute) -> &[(Sym, Attribute)] {
        match self.attr_data(a) {
            AttrData::Dictionary(e) => e,
            _ => &[],
        }
    }

    pub fn dict_get(&self, dict: Attribute, name: &str) -> Option<Attribute> {
        let sym = match crate::attrs::known_sym(name) {
            Some(k) => k,
            None => self.lookup_sym(name)?,
        };
        self.dict_entries(dict).iter().find(|(k, _)| *k == sym).map(|(_, v)| *v)
    }

    pub fn as_str(&self, a: Attribute) -> Option<&str> {
        match self.attr_data(a) {
            AttrData::String { value, .. } => std::str::from_utf8(value).ok(),
            _ => None,
        }
    }

    pub fn as_int(&self, a: Attribute) -> Option<i128> {
        match self.attr_data(a) {
            AttrData::Integer { value, .. } => Some(*value),
            _ => None,
        }
    }

    pub fn as_array(&self, a: Attribute) -> Option<&[Attribute]> {
        match self.attr_data(a) {
            AttrData::Array(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_type(&self, a: Attribute) -> Option<Type> {
        match self.attr_data(a) {
            AttrData::Type(t) => Some(*t),
            _ => None,
        }
    }

    // ----- values -----

    pub fn value_type(&self, v: Value) -> Type {
        self.values[v.index()].ty
    }

    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        self.values[v.index()].ty = ty;
    }

    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v.index()].def
    }

    pub fn value_data(&self, v: Value) -> &ValueData {
        &self.values[v.index()]
    }

    pub(crate) fn new_value(&mut self, ty: Type, def: ValueDef) -> Value {
        let v = Value::from_index(self.values.len());
        self.values.push(ValueData { ty, def });
        self.value_ids.push(v);
        v
    }

    /// Number of values ever created (an upper bound for value indices).
    pub fn value_count(&self) -> usize {
        self.values.len()
    }

    /// The value `i` places after `first` (results are allocated consecutively).
    pub fn value_offset(&self, first: Value, i: u32) -> Value {
        self.value_ids[first.index() + i as usize]
    }

    pub fn new_placeholder(&mut self, ty: Type) -> Value {
        self.new_value(ty, ValueDef::Placeholder)
    }

    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        match self.value_def(v) {
            ValueDef::Result { op, .. } => Some(op),
            _ => None,
        }
    }

    // ----- operations -----

    /// The registered definition for an op name, cached per interned name.
    pub fn lookup_def(&mut self, name: Sym) -> Option<u32> {
        let i = name.0 as usize;
        if i >= self.def_cache.len() {
            self.def_cache.resize(i + 1, u32::MAX);
        }
        if self.def_cache[i] == u32::MAX {
            self.def_cache[i] = self.registry.lookup(self.syms.get(name.0)).unwrap_or(u32::MAX - 1);
        }
        match self.def_cache[i] {
            d if d == u32::MAX - 1 => None,
            d => Some(d),
        }
    }

    pub fn op(&self, op: OpId) -> &OpData {
        &self.ops[op.index()]
    }

    pub fn op_mut(&mut self, op: OpId) -> &mut OpData {
        &mut self.ops[op.index()]
    }

    pub fn op_name(&self, op: OpId) -> &str {
        self.sym_str(self.ops[op.index()].name)
    }

    pub fn op_def(&self, op: OpId) -> Option<&OpDef> {
        self.def_index(op).map(|d| self.registry.def(d))
    }

    pub fn def_index(&self, op: OpId) -> Option<u32> {
        match self.ops[op.index()].def & !ERASED {
            NO_DEF => None,
            d => Some(d),
        }
    }

    /// Whether the op has no memory effects (so it may be erased when unused,
    /// or merged with an identical op). Unregistered ops never are.
    pub fn is_side_effect_free(&self, op: OpId) -> bool {
        match self.op_def(op) {
            Some(d) => d.has(crate::dialect::Traits::PURE) || d.side_effect_free.is_some_and(|f| f(self, op)),
            None => false,
        }
    }

    #[inline]
    pub fn is_op(&self, op: OpId, name: &str) -> bool {
        match crate::attrs::known_sym(name) {
            Some(k) => self.ops[op.index()].name == k,
            None => self.op_name(op) == name,
        }
    }

    pub fn operands(&self, op: OpId) -> &[Value] {
        &self.operand_pool[self.ops[op.index()].operands.range()]
    }

    pub fn operand(&self, op: OpId, i: usize) -> Value {
        self.operands(op)[i]
    }

    pub fn results(&self, op: OpId) -> &[Value] {
        &self.value_ids[self.ops[op.index()].results.range()]
    }

    pub fn result(&self, op: OpId, i: usize) -> Value {
        self.results(op)[i]
    }

    fn nested_spans(&self, op: OpId) -> (Span, Span) {
        match self.ops[op.index()].nested {
            NO_NESTED => (Span::default(), Span::default()),
            i => self.nested_pool[i as usize],
        }
    }

    /// The op's entry in `nested_pool`, made on first need.
    fn nested_mut(&mut self, op: OpId) -> &mut (Span, Span) {
        if self.ops[op.index()].nested == NO_NESTED {
            self.ops[op.index()].nested = self.nested_pool.len() as u32;
            self.nested_pool.push((Span::default(), Span::default()));
        }
        &mut self.nested_pool[self.ops[op.index()].nested as usize]
    }

    pub fn regions(&self, op: OpId) -> &[RegionId] {
        &self.region_pool[self.nested_spans(op).0.range()]
    }

    pub fn successors(&self, op: OpId) -> &[BlockId] {
        &self.successor_pool[self.nested_spans(op).1.range()]
    }

    /// Replaces the operand list (appending a new range when the length changes).
    pub fn set_operands(&mut self, op: OpId, vals: &[Value]) {
        let span = self.ops[op.index()].operands;
        if span.len as usize == vals.len() {
            self.operand_pool[span.range()].copy_from_slice(vals);
        } else {
            self.ops[op.index()].operands = push_span(&mut self.operand_pool, vals);
        }
    }

    pub fn set_successors(&mut self, op: OpId, blocks: &[BlockId]) {
        let span = push_span(&mut self.successor_pool, blocks);
        self.nested_mut(op).1 = span;
    }

    pub fn loc(&self, op: OpId) -> Attribute {
        self.ops[op.index()].loc
    }

    pub fn create_op(&mut self, st: OperationState) -> OpId {
        let id = OpId::from_index(self.ops.len());
        let def = self.lookup_def(st.name);
        let first_result = self.values.len() as u32;
        for (i, t) in st.result_types.iter().enumerate() {
            self.new_value(*t, ValueDef::Result { op: id, index: i as u32 });
        }
        let results = Span { start: first_result, len: st.result_types.len() as u32 };
        let attrs = if st.attrs.is_empty() { self.empty_dict } else { self.dict_attr(st.attrs) };
        let mut properties = st.properties;
        let missing_default = def.is_some_and(|d| {
            let keys = self.registry.def(d).default_keys;
            !keys.is_empty() && !keys.iter().all(|k| properties.is_some_and(|p| self.dict_get(p, k).is_some()))
        });
        if let Some(d) = def.filter(|_| missing_default) {
            let d = self.registry.def(d);
            let defaults = match (d.spec, d.defaults) {
                (Some(spec), _) => crate::opspec::defaults(self, spec),
                (None, Some(f)) => f(self),
                (None, None) => Vec::new(),
            };
            let mut entries = properties.map(|p| self.dict_entries(p).to_vec()).unwrap_or_default();
            for (name, value) in defaults {
                let key = self.sym(name);
                if !entries.iter().any(|(k, _)| *k == key) {
                    entries.push((key, value));
                }
            }
            properties = Some(self.dict_attr(entries));
        }
        for r in &st.regions {
            self.regions[r.index()].parent = Some(id);
        }
        let operands = push_span(&mut self.operand_pool, &st.operands);
        let nested = if st.regions.is_empty() && st.successors.is_empty() {
            NO_NESTED
        } else {
            let regions = push_span(&mut self.region_pool, &st.regions);
            let successors = push_span(&mut self.successor_pool, &st.successors);
            self.nested_pool.push((regions, successors));
            self.nested_pool.len() as u32 - 1
        };
        self.ops.push(OpData {
            name: st.name,
            def: def.unwrap_or(NO_DEF),
            operands,
            results,
            properties,
            attrs,
            nested,
            loc: st.loc,
            parent: None,
            prev: None,
            next: None,
        });
        id
    }

    /// Looks an attribute up among inherent properties first, then discardable ones.
    #[inline]
    pub fn get_attr(&self, op: OpId, name: &str) -> Option<Attribute> {
        match crate::attrs::known_sym(name) {
            Some(key) => self.attr_of(op, key),
            None => self.get_attr_by_text(op, name),
        }
    }

    fn get_attr_by_text(&self, op: OpId, name: &str) -> Option<Attribute> {
        let o = &self.ops[op.index()];
        let props = o.properties.map(|p| self.dict_entries(p)).unwrap_or(&[]);
        let attrs = self.dict_entries(o.attrs);
        if props.len() + attrs.len() <= 3 {
            // Comparing a few names is cheaper than hashing the query.
            return props.iter().chain(attrs).find(|(k, _)| self.sym_str(*k) == name).map(|(_, v)| *v);
        }
        // A name never interned is on no op.
        let key = self.lookup_sym(name)?;
        props.iter().chain(attrs).find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// [`Ir::get_attr`] by interned name: for hot paths, with the constants
    /// of [`crate::attrs::known`].
    #[inline]
    pub fn attr_of(&self, op: OpId, key: Sym) -> Option<Attribute> {
        let o = &self.ops[op.index()];
        let props = o.properties.map(|p| self.dict_entries(p)).unwrap_or(&[]);
        props.iter().chain(self.dict_entries(o.attrs)).find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The names of the op's attributes, inherent then discardable.
    pub fn attr_names(&self, op: OpId) -> Vec<&str> {
        let o = &self.ops[op.index()];
        let props = o.properties.filter(|p| matches!(self.attr_data(*p), AttrData::Dictionary(_)));
        props
            .into_iter()
            .chain([o.attrs])
            .flat_map(|d| self.dict_entries(d).iter().map(|(k, _)| self.sym_str(*k)))
            .collect()
    }

    pub fn has_attr(&self, op: OpId, name: &str) -> bool {
        self.get_attr(op, name).is_some()
    }

    /// Sets an attribute: into properties when the op declares it inherent.
    pub fn set_attr(&mut self, op: OpId, name: &str, value: Attribute) {
        let key = self.sym(name);
        let inherent = self.op_def(op).is_some_and(|d| d.inherent_attrs.contains(&name));
        if inherent {
            let mut entries =
                self.ops[op.index()].properties.map(|p| self.dict_entries(p).to_vec()).unwrap_or_default();
            entries.retain(|(k, _)| *k != key);
            entries.push((key, value));
            let d = self.dict_attr(entries);
            self.ops[op.index()].properties = Some(d);
        } else {
            let mut entries = self.dict_entries(self.ops[op.index()].attrs).to_vec();
            entries.retain(|(k, _)| *k != key);
            entries.push((key, value));
            let d = self.dict_attr(entries);
            self.ops[op.index()].attrs = d;
        }
    }

    pub fn remove_attr(&mut self, op: OpId, name: &str) -> Option<Attribute> {
        let key = self.lookup_sym(name)?;
        let old = self.get_attr(op, name)?;
        let o = &self.ops[op.index()];
        let (props, attrs) = (o.properties, o.attrs);
        if let Some(p) = props {
            let entries: Vec<_> = self.dict_entries(p).iter().copied().filter(|(k, _)| *k != key).collect();
            let d = self.dict_attr(entries);
            self.ops[op.index()].properties = Some(d);
        }
        let entries: Vec<_> = self.dict_entries(attrs).iter().copied().filter(|(k, _)| *k != key).collect();
        let d = self.dict_attr(entries);
        self.ops[op.index()].attrs = d;
        Some(old)
    }

    /// All attributes, inherent and discardable, sorted by name.
    pub fn all_attrs(&mut self, op: OpId) -> Vec<(Sym, Attribute)> {
        let o = &self.ops[op.index()];
        let mut v = self.dict_entries(o.attrs).to_vec();
        if let Some(p) = o.properties
            && matches!(self.attr_data(p), AttrData::Dictionary(_))
        {
            v.extend_from_slice(self.dict_entries(p));
        }
        sort_entries(self, &mut v);
        v
    }

    pub fn parent_block(&self, op: OpId) -> Option<BlockId> {
        self.ops[op.index()].parent
    }

    /// The region whose block holds `op`.
    pub fn parent_region(&self, op: OpId) -> Option<RegionId> {
        self.blocks[self.parent_block(op)?.index()].parent
    }

    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let b = self.parent_block(op)?;
        let r = self.blocks[b.index()].parent?;
        self.regions[r.index()].parent
    }

    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.index()].next
    }

    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.index()].prev
    }

    // ----- blocks and regions -----

    pub fn block(&self, b: BlockId) -> &BlockData {
        &self.blocks[b.index()]
    }

    pub fn create_block(&mut self) -> BlockId {
        let b = BlockId::from_index(self.blocks.len());
        self.blocks.push(BlockData::default());
        b
    }

    pub fn add_block_arg(&mut self, block: BlockId, ty: Type, loc: Option<Attribute>) -> Value {
        let index = self.blocks[block.index()].args.len() as u32;
        let v = self.new_value(ty, ValueDef::BlockArg { block, index });
        let bd = &mut self.blocks[block.index()];
        bd.args.push(v);
        if loc.is_some() || !bd.arg_locs.is_empty() {
            bd.arg_locs.resize(bd.args.len() - 1, None);
            bd.arg_locs.push(loc);
        }
        v
    }

    /// Inserts a block argument at `pos` (MLIR's `Block::insertArgument`);
    /// the arguments after it move up one place.
    pub fn insert_block_arg(&mut self, block: BlockId, pos: usize, ty: Type, loc: Option<Attribute>) -> Value {
        let v = self.add_block_arg(block, ty, loc);
        let bd = &mut self.blocks[block.index()];
        let last = bd.args.len() - 1;
        let pos = pos.min(last);
        bd.args[pos..].rotate_right(1);
        if !bd.arg_locs.is_empty() {
            bd.arg_locs[pos..].rotate_right(1);
        }
        let args = bd.args[pos..].to_vec();
        for (i, a) in args.into_iter().enumerate() {
            self.values[a.index()].def = ValueDef::BlockArg { block, index: (pos + i) as u32 };
        }
        v
    }

    /// The location written for a block argument, if any.
    pub fn block_arg_loc(&self, v: Value) -> Option<Attribute> {
        match self.value_def(v) {
            ValueDef::BlockArg { block, index } => {
                self.blocks[block.index()].arg_locs.get(index as usize).copied().flatten()
            }
            _ => None,
        }
    }

    pub fn set_block_arg_loc(&mut self, v: Value, loc: Attribute) {
        if let ValueDef::BlockArg { block, index } = self.value_def(v) {
            let bd = &mut self.blocks[block.index()];
            bd.arg_locs.resize(bd.args.len(), None);
            bd.arg_locs[index as usize] = Some(loc);
        }
    }

    /// Where a value comes from: its op's location or its own as a block argument.
    pub fn value_loc(&self, v: Value) -> Option<Attribute> {
        match self.value_def(v) {
            ValueDef::Result { op, .. } => Some(self.loc(op)),
            ValueDef::BlockArg { .. } => self.block_arg_loc(v),
            ValueDef::Placeholder => None,
        }
    }

    /// Drops the arguments of `block` from index `n` on (their values must
    /// be unused by then: nothing refers to them afterwards).
    pub fn truncate_block_args(&mut self, block: BlockId, n: usize) {
        let bd = &mut self.blocks[block.index()];
        bd.args.truncate(n);
        bd.arg_locs.truncate(n);
    }

    pub fn block_args(&self, b: BlockId) -> &[Value] {
        &self.blocks[b.index()].args
    }

    pub fn region_blocks(&self, r: RegionId) -> &[BlockId] {
        &self.regions[r.index()].blocks
    }

    pub fn region_parent(&self, r: RegionId) -> Option<OpId> {
        self.regions[r.index()].parent
    }

    pub fn block_parent(&self, b: BlockId) -> Option<RegionId> {
        self.blocks[b.index()].parent
    }

    pub fn block_parent_op(&self, b: BlockId) -> Option<OpId> {
        self.block_parent(b).and_then(|r| self.region_parent(r))
    }

    /// A detached, empty region for an [`OperationState`].
    pub fn new_region(&mut self) -> RegionId {
        let r = RegionId::from_index(self.regions.len());
        self.regions.push(RegionData::default());
        r
    }

    pub fn push_block(&mut self, region: RegionId, block: BlockId) {
        self.blocks[block.index()].parent = Some(region);
        self.regions[region.index()].blocks.push(block);
    }

    pub fn is_entry_block(&self, b: BlockId) -> bool {
        self.block_parent(b).is_some_and(|r| self.regions[r.index()].blocks.first() == Some(&b))
    }

    pub fn block_ops(&self, b: BlockId) -> BlockOps<'_> {
        BlockOps { ir: self, cur: self.blocks[b.index()].first }
    }

    pub fn terminator(&self, b: BlockId) -> Option<OpId> {
        self.blocks[b.index()].last
    }

    /// The single block of a region, if it has exactly one.
    pub fn single_block(&self, r: RegionId) -> Option<BlockId> {
        match self.region_blocks(r) {
            [b] => Some(*b),
            _ => None,
        }
    }

    // ----- structural edits -----

    pub fn append_op(&mut self, block: BlockId, op: OpId) {
        debug_assert!(self.ops[op.index()].parent.is_none());
        let last = self.blocks[block.index()].last;
        {
            let o = &mut self.ops[op.index()];
            o.parent = Some(block);
            o.prev = last;
            o.next = None;
        }
        match last {
            Some(l) => self.ops[l.index()].next = Some(op),
            None => self.blocks[block.index()].first = Some(op),
        }
        self.blocks[block.index()].last = Some(op);
    }

    pub fn insert_op_before(&mut self, anchor: OpId, op: OpId) {
        let block = self.ops[anchor.index()].parent.expect("anchor op is not in a block");
        let prev = self.ops[anchor.index()].prev;
        {
            let o = &mut self.ops[op.index()];
            o.parent = Some(block);
            o.prev = prev;
            o.next = Some(anchor);
        }
        self.ops[anchor.index()].prev = Some(op);
        match prev {
            Some(p) => self.ops[p.index()].next = Some(op),
            None => self.blocks[block.index()].first = Some(op),
        }
    }

    pub fn insert_op_after(&mut self, anchor: OpId, op: OpId) {
        match self.ops[anchor.index()].next {
            Some(n) => self.insert_op_before(n, op),
            None => {
                let block = self.ops[anchor.index()].parent.expect("anchor op is not in a block");
                self.append_op(block, op);
            }
        }
    }

    /// Unlinks an op from its block, keeping it alive for re-insertion.
    pub fn detach_op(&mut self, op: OpId) {
        let Some(block) = self.ops[op.index()].parent else { return };
        let (prev, next) = (self.ops[op.index()].prev, self.ops[op.index()].next);
        match prev {
            Some(p) => self.ops[p.index()].next = next,
            None => self.blocks[block.index()].first = next,
        }
        match next {
            Some(n) => self.ops[n.index()].prev = prev,
            None => self.blocks[block.index()].last = prev,
        }
        let o = &mut self.ops[op.index()];
        o.parent = None;
        o.prev = None;
        o.next = None;
    }

    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.detach_op(op);
        self.insert_op_before(anchor, op);
    }

    pub fn move_op_after(&mut self, op: OpId, anchor: OpId) {
        self.detach_op(op);
        self.insert_op_after(anchor, op);
    }

    /// Unlinks an op and marks it and everything nested in it erased.
    pub fn erase_op(&mut self, op: OpId) {
        self.detach_op(op);
        let mut nested = Vec::new();
        self.walk(op, &mut |o| nested.push(o));
        for o in nested {
            if self.ops[o.index()].def & ERASED == 0 {
                self.ops[o.index()].def |= ERASED;
                self.erased_ops += 1;
            }
        }
    }

    pub fn is_erased(&self, op: OpId) -> bool {
        self.ops[op.index()].def & ERASED != 0
    }

    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        let span = self.ops[op.index()].operands;
        self.operand_pool[span.start as usize + i] = v;
    }

    /// Replaces every use of `from` inside `root` (including `root` itself).
    pub fn replace_all_uses_in(&mut self, root: OpId, from: Value, to: Value) {
        let mut ops = Vec::new();
        self.walk(root, &mut |o| ops.push(o));
        for o in ops {
            let span = self.ops[o.index()].operands;
            for v in self.operand_pool[span.range()].iter_mut() {
                if *v == from {
                    *v = to;
                }
            }
        }
    }

    /// Replaces the operands of `op` found in `map` (one step, no chains):
    /// for passes that visit uses after their definitions.
    pub fn remap_operands(&mut self, op: OpId, map: &ValueMap) {
        self.remap_operands_with(op, |v| map.get(&v).copied());
    }

    /// Replaces each operand `v` of `op` for which `f(v)` is `Some`.
    #[inline]
    pub fn remap_operands_with(&mut self, op: OpId, f: impl Fn(Value) -> Option<Value>) {
        let span = self.ops[op.index()].operands;
        for v in self.operand_pool[span.range()].iter_mut() {
            if let Some(n) = f(*v) {
                *v = n;
            }
        }
    }

    /// Applies a whole replacement map in one walk of `root`; passes that
    /// replace many values batch them here instead of walking per value.
    /// Chains (`a -> b -> c`) resolve to their end.
    pub fn replace_uses_with_map(&mut self, root: OpId, map: &ValueMap) {
        if map.is_empty() {
            return;
        }
        self.replace_uses_with(root, |v| map.get(&v).copied());
    }

    /// [`Ir::replace_uses_with_map`] with the map as a function (`None`: kept).
    pub fn replace_uses_with(&mut self, root: OpId, map: impl Fn(Value) -> Option<Value>) {
        let resolve = |mut v: Value| {
            while let Some(n) = map(v) {
                v = n;
            }
            v
        };
        let mut ops = Vec::new();
        self.walk(root, &mut |o| ops.push(o));
        for o in ops {
            let span = self.ops[o.index()].operands;
            for v in self.operand_pool[span.range()].iter_mut() {
                *v = resolve(*v);
            }
        }
    }

    /// Replaces the results of `op` with `new_values` everywhere under the
    /// closest isolated ancestor, then erases `op`.
    pub fn replace_op(&mut self, op: OpId, new_values: &[Value]) {
        let root = self.top_ancestor(op);
        let results = self.results(op).to_vec();
        for (r, n) in results.iter().zip(new_values) {
            self.replace_all_uses_in(root, *r, *n);
        }
        self.erase_op(op);
    }

    /// Creates, right before `op`, the same op with new operands and result
    /// types, taking over `op`'s regions (type-changing rewrites such as
    /// bufferization need this); `op` is erased.
    pub fn rebuild_op(&mut self, op: OpId, operands: &[Value], result_types: &[Type]) -> OpId {
        let src = self.ops[op.index()].clone();
        let st = OperationState {
            name: src.name,
            operands: operands.to_vec(),
            result_types: result_types.to_vec(),
            properties: src.properties,
            attrs: Vec::new(),
            regions: self.regions(op).to_vec(),
            successors: self.successors(op).to_vec(),
            loc: src.loc,
        };
        let new = self.create_op(st);
        self.ops[new.index()].attrs = src.attrs;
        if self.ops[op.index()].nested != NO_NESTED {
            self.nested_mut(op).0 = Span::default();
        }
        self.insert_op_before(op, new);
        self.erase_op(op);
        new
    }

    pub fn top_ancestor(&self, mut op: OpId) -> OpId {
        while let Some(p) = self.parent_op(op) {
            op = p;
        }
        op
    }

    /// Pre-order walk of `op` and everything nested in it.
    pub fn walk(&self, op: OpId, f: &mut dyn FnMut(OpId)) {
        f(op);
        for &r in self.regions(op) {
            for &b in &self.regions[r.index()].blocks {
                let mut cur = self.blocks[b.index()].first;
                while let Some(o) = cur {
                    cur = self.ops[o.index()].next;
                    self.walk(o, f);
                }
            }
        }
    }

    /// Post-order walk (children before parents), as MLIR's default walk order.
    pub fn walk_post(&self, op: OpId, f: &mut dyn FnMut(OpId)) {
        for &r in self.regions(op) {
            for &b in &self.regions[r.index()].blocks {
                let mut cur = self.blocks[b.index()].first;
                while let Some(o) = cur {
                    cur = self.ops[o.index()].next;
                    self.walk_post(o, f);
                }
            }
        }
        f(op);
    }

    /// Deep-copies `op`; `map` translates values defined outside the clone and
    /// receives mappings for every value the clone defines.
    pub fn clone_op(&mut self, op: OpId, map: &mut ValueMap) -> OpId {
        let src = self.ops[op.index()].clone();
        let src_results = self.results(op).to_vec();
        let src_regions = self.regions(op).to_vec();
        let operands = self.operands(op).iter().map(|v| *map.get(v).unwrap_or(v)).collect();
        let result_types = src_results.iter().map(|v| self.value_type(*v)).collect();
        let regions = src_regions.iter().map(|_| self.new_region()).collect();
        let st = OperationState {
            name: src.name,
            operands,
            result_types,
            properties: src.properties,
            attrs: Vec::new(),
            regions,
            successors: self.successors(op).to_vec(),
            loc: src.loc,
        };
        let new = self.create_op(st);
        self.ops[new.index()].attrs = src.attrs;
        for (a, b) in src_results.iter().zip(self.results(new).to_vec()) {
            map.insert(*a, b);
        }
        let new_regions = self.regions(new).to_vec();
        let mut block_map = std::collections::HashMap::new();
        for (sr, dr) in src_regions.iter().zip(new_regions) {
            for sb in self.regions[sr.index()].blocks.clone() {
                let nb = self.create_block();
                block_map.insert(sb, nb);
                for a in self.blocks[sb.index()].args.clone() {
                    let (t, l) = (self.value_type(a), self.block_arg_loc(a));
                    let na = self.add_block_arg(nb, t, l);
                    map.insert(a, na);
                }
                self.push_block(dr, nb);
            }
            for sb in self.regions[sr.index()].blocks.clone() {
                let nb = block_map[&sb];
                let mut cur = self.blocks[sb.index()].first;
                while let Some(o) = cur {
                    cur = self.ops[o.index()].next;
                    let c = self.clone_op(o, map);
                    self.append_op(nb, c);
                }
            }
        }
        // Successors inside cloned regions point at cloned blocks.
        let mut nested = Vec::new();
        self.walk(new, &mut |o| nested.push(o));
        for o in nested {
            let span = self.nested_spans(o).1;
            for s in self.successor_pool[span.range()].iter_mut() {
                if let Some(n) = block_map.get(s) {
                    *s = *n;
                }
            }
        }
        new
    }
}

fn push_span<T: Copy>(pool: &mut Vec<T>, items: &[T]) -> Span {
    if items.is_empty() {
        return Span::default();
    }
    let start = pool.len() as u32;
    pool.extend_from_slice(items);
    Span { start, len: items.len() as u32 }
}

fn sort_entries(ir: &Ir, entries: &mut [(Sym, Attribute)]) {
    entries.sort_by(|a, b| ir.sym_str(a.0).as_bytes().cmp(ir.sym_str(b.0).as_bytes()));
}

pub struct BlockOps<'a> {
    ir: &'a Ir,
    cur: Option<OpId>,
}

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let c = self.cur?;
        self.cur = self.ir.ops[c.index()].next;
        Some(c)
    }
}

#[cfg(test)]
mod size_tests {
    /// Ops and values are the bulk of a large module's memory (issue 12's
    /// target is half of mlir-opt's peak): keep them from growing unnoticed.
    #[test]
    fn core_structs_stay_small() {
        eprintln!(
            "OpData {} ValueData {} AttrData {} TypeData {}",
            size_of::<super::OpData>(),
            size_of::<super::ValueData>(),
            size_of::<crate::AttrData>(),
            size_of::<crate::TypeData>()
        );
        assert!(size_of::<super::OpData>() <= 56);
        assert!(size_of::<super::ValueData>() <= 16);
    }
}

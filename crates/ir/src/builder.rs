//! A builder with an insertion point, and symbol-table lookups: the small
//! conveniences passes lean on, over the raw [`Ir`] edit methods.

use crate::attrs::Attribute;
use crate::dialect::Traits;
use crate::ir::{BlockId, Ir, OpId, OperationState};

/// Where new operations go.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// Before the given op.
    Before(OpId),
    /// After the given op.
    After(OpId),
    /// At the end of a block.
    End(BlockId),
    /// Detached: the caller places the op.
    Nowhere,
}

impl InsertPoint {
    /// The start of `block`, whether or not it holds ops yet.
    pub fn start(ir: &Ir, block: BlockId) -> InsertPoint {
        match ir.block(block).first {
            Some(first) => InsertPoint::Before(first),
            None => InsertPoint::End(block),
        }
    }
}

pub struct Builder<'a> {
    pub ir: &'a mut Ir,
    pub ip: InsertPoint,
}

impl<'a> Builder<'a> {
    pub fn new(ir: &'a mut Ir, ip: InsertPoint) -> Builder<'a> {
        Builder { ir, ip }
    }

    /// Creates an op and inserts it; after-insertion keeps the order of
    /// successive creations (each new op goes after the previous one).
    pub fn create(&mut self, st: OperationState) -> OpId {
        let op = self.ir.create_op(st);
        match self.ip {
            InsertPoint::Before(anchor) => self.ir.insert_op_before(anchor, op),
            InsertPoint::After(anchor) => {
                self.ir.insert_op_after(anchor, op);
                self.ip = InsertPoint::After(op);
            }
            InsertPoint::End(b) => self.ir.append_op(b, op),
            InsertPoint::Nowhere => {}
        }
        op
    }

    /// Convenience: `name` with operands, result types and attributes, at `loc`.
    pub fn op(
        &mut self,
        name: &str,
        operands: &[crate::ir::Value],
        results: &[crate::types::Type],
        attrs: Vec<(&str, Attribute)>,
        loc: Attribute,
    ) -> OpId {
        let sym = self.ir.sym(name);
        let mut st = OperationState::new(sym, loc);
        st.operands = operands.to_vec();
        st.result_types = results.to_vec();
        let def = self.ir.lookup_def(sym).map(|d| self.ir.registry.def(d).inherent_attrs);
        let mut props = Vec::new();
        for (k, v) in attrs {
            let key = self.ir.sym(k);
            if def.is_some_and(|inh| inh.contains(&k)) {
                props.push((key, v));
            } else {
                st.attrs.push((key, v));
            }
        }
        if def.is_some() {
            st.properties = Some(self.ir.dict_attr(props));
        }
        self.create(st)
    }
}

/// The closest enclosing op (or `op` itself) that is a symbol table.
pub fn nearest_symbol_table(ir: &Ir, mut op: OpId) -> Option<OpId> {
    loop {
        if ir.op_def(op).is_some_and(|d| d.has(Traits::SYMBOL_TABLE)) {
            return Some(op);
        }
        op = ir.parent_op(op)?;
    }
}

/// The op named `name` (by `sym_name`) directly inside symbol table `table`.
pub fn lookup_symbol_in(ir: &Ir, table: OpId, name: &str) -> Option<OpId> {
    if let Some(found) = ir.symbol_cache.lookup(ir, table, name) {
        return found;
    }
    let r = *ir.regions(table).first()?;
    ir.region_blocks(r)
        .iter()
        .flat_map(|b| ir.block_ops(*b))
        .find(|o| ir.attr_of(*o, crate::attrs::known::SYM_NAME).and_then(|a| ir.as_str(a)) == Some(name))
}

/// Symbol tables indexed once per verification instead of scanned per
/// lookup (MLIR's `SymbolTableCollection`). Only enabled while the IR is
/// borrowed immutably (see [`SymbolCacheScope`]), so it can never go stale.
#[derive(Default)]
pub struct SymbolCache {
    tables: std::cell::RefCell<Option<rustc_hash::FxHashMap<OpId, SymbolIndex>>>,
}

/// The symbols defined directly in one symbol table, by name.
type SymbolIndex = rustc_hash::FxHashMap<Box<str>, OpId>;

impl SymbolCache {
    /// `None` when the cache is off; else the answer for `name` in `table`.
    fn lookup(&self, ir: &Ir, table: OpId, name: &str) -> Option<Option<OpId>> {
        let mut tables = self.tables.borrow_mut();
        let tables = tables.as_mut()?;
        let index = tables.entry(table).or_insert_with(|| {
            let mut index = rustc_hash::FxHashMap::default();
            if let Some(&r) = ir.regions(table).first() {
                for &b in ir.region_blocks(r) {
                    for o in ir.block_ops(b) {
                        let sym = ir.attr_of(o, crate::attrs::known::SYM_NAME).and_then(|a| ir.as_str(a));
                        // The first definition wins, as the scan finds it.
                        if let Some(sym) = sym {
                            index.entry(sym.into()).or_insert(o);
                        }
                    }
                }
            }
            index
        });
        Some(index.get(name).copied())
    }
}

/// Turns the symbol cache on for as long as it lives (nested scopes share
/// the outermost one's cache).
pub struct SymbolCacheScope<'a> {
    ir: &'a Ir,
    owner: bool,
}

impl<'a> SymbolCacheScope<'a> {
    pub fn new(ir: &'a Ir) -> SymbolCacheScope<'a> {
        let mut tables = ir.symbol_cache.tables.borrow_mut();
        let owner = tables.is_none();
        if owner {
            *tables = Some(Default::default());
        }
        SymbolCacheScope { ir, owner }
    }
}

impl Drop for SymbolCacheScope<'_> {
    fn drop(&mut self) {
        if self.owner {
            *self.ir.symbol_cache.tables.borrow_mut() = None;
        }
    }
}

/// Resolves a flat symbol reference from `from`, walking outwards through
/// enclosing symbol tables as MLIR's `SymbolTable::lookupNearestSymbolFrom`.
pub fn lookup_symbol_from(ir: &Ir, from: OpId, name: &str) -> Option<OpId> {
    let mut table = nearest_symbol_table(ir, ir.parent_op(from)?)?;
    loop {
        if let Some(found) = lookup_symbol_in(ir, table, name) {
            return Some(found);
        }
        table = nearest_symbol_table(ir, ir.parent_op(table)?)?;
    }
}

//! How large an attribute or type prints, in nested elements, before it is
//! printed. Uniquing makes attributes and types a DAG: an alias written
//! twice inside the next one costs a few bytes of input and doubles what
//! prints, so forty lines ask for 2^40 elements. Counting the expanded tree
//! with one memo per node is linear in the distinct nodes, so the printer
//! can refuse such a value at once instead of growing its text until
//! memory runs out.

use rustc_hash::FxHashMap as HashMap;

use crate::attrs::{AttrData, Attribute};
use crate::ir::Ir;
use crate::types::{Type, TypeData};

/// The most nested elements one top-level attribute or type may expand to
/// (each prints at least a byte or two; dense element lists count as one,
/// so a flat array of millions is fine; a million nested elements prints
/// in seconds, the fuzzer's budget per case).
pub const MAX_ELEMENTS: u64 = 1 << 20;

#[derive(Default)]
pub struct Expansion {
    attrs: HashMap<Attribute, u64>,
    types: HashMap<Type, u64>,
}

impl Expansion {
    pub fn attr(&mut self, ir: &Ir, a: Attribute) -> u64 {
        if let Some(n) = self.attrs.get(&a) {
            return *n;
        }
        let n = match ir.attr_data(a) {
            AttrData::Array(items) => items.iter().fold(1u64, |n, x| n.saturating_add(self.attr(ir, *x))),
            AttrData::Dictionary(entries) => {
                entries.iter().fold(1u64, |n, (_, x)| n.saturating_add(1).saturating_add(self.attr(ir, *x)))
            }
            AttrData::Type(t) => self.ty(ir, *t),
            _ => 1,
        };
        self.attrs.insert(a, n);
        n
    }

    pub fn ty(&mut self, ir: &Ir, t: Type) -> u64 {
        if let Some(n) = self.types.get(&t) {
            return *n;
        }
        let n = match ir.type_data(t) {
            TypeData::Tuple(items) => items.iter().fold(1u64, |n, x| n.saturating_add(self.ty(ir, *x))),
            TypeData::Function { inputs, results } => {
                inputs.iter().chain(results).fold(1u64, |n, x| n.saturating_add(self.ty(ir, *x)))
            }
            TypeData::Complex(elem) | TypeData::UnrankedTensor { elem } => 1u64.saturating_add(self.ty(ir, *elem)),
            TypeData::Vector { elem, encoding: extra, .. }
            | TypeData::RankedTensor { elem, encoding: extra, .. }
            | TypeData::UnrankedMemRef { elem, memory_space: extra } => {
                let e = self.ty(ir, *elem);
                let x = extra.map_or(0, |a| self.attr(ir, a));
                1u64.saturating_add(e).saturating_add(x)
            }
            TypeData::MemRef { elem, layout, memory_space, .. } => {
                let e = self.ty(ir, *elem);
                let l = layout.map_or(0, |a| self.attr(ir, a));
                let m = memory_space.map_or(0, |a| self.attr(ir, a));
                1u64.saturating_add(e).saturating_add(l).saturating_add(m)
            }
            _ => 1,
        };
        self.types.insert(t, n);
        n
    }
}

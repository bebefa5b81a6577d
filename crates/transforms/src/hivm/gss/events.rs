//! Loop-level events per scope node, in first-use order (which decides the
//! printed order of prologue sets and epilogue waits), found by node in
//! constant time: hoisting asks for every scope and key, and a linear
//! search made it quadratic in the number of scopes.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::pipes::Pipe;
use super::solver::PairEvents;
use super::tree::NodeId;

#[derive(Default)]
pub struct ScopeEvents {
    list: Vec<(NodeId, PairEvents)>,
    pos: FxHashMap<NodeId, usize>,
}

impl ScopeEvents {
    pub fn clear(&mut self) {
        self.list.clear();
        self.pos.clear();
    }

    pub fn get(&self, scope: NodeId) -> Option<&PairEvents> {
        self.pos.get(&scope).map(|i| &self.list[*i].1)
    }

    pub fn get_mut(&mut self, scope: NodeId) -> Option<&mut PairEvents> {
        self.pos.get(&scope).map(|i| &mut self.list[*i].1)
    }

    /// The events of `scope`, added (empty, last) if it has none yet.
    pub fn entry(&mut self, scope: NodeId) -> &mut PairEvents {
        let i = *self.pos.entry(scope).or_insert_with(|| {
            self.list.push((scope, Vec::new()));
            self.list.len() - 1
        });
        &mut self.list[i].1
    }

    pub fn iter(&self) -> impl Iterator<Item = &(NodeId, PairEvents)> {
        self.list.iter()
    }

    /// Whether `scope` has event `id` on `key`.
    pub fn has(&self, scope: NodeId, key: (Pipe, Pipe), id: u32) -> bool {
        self.get(scope).and_then(|m| m.iter().find(|(k, _)| *k == key)).is_some_and(|(_, ids)| ids.contains_key(&id))
    }
}

/// The ids of `k` in `v`, added (empty, last) if missing.
pub fn pair_entry(v: &mut PairEvents, k: (Pipe, Pipe)) -> &mut BTreeMap<u32, u32> {
    let i = match v.iter().position(|(x, _)| *x == k) {
        Some(i) => i,
        None => {
            v.push((k, BTreeMap::new()));
            v.len() - 1
        }
    };
    &mut v[i].1
}

//! Uniquing storage: equal values get equal handles, so comparing handles
//! compares values (MLIR's "attributes and types are uniqued" contract).

use rustc_hash::FxHashMap as HashMap;
use std::hash::Hash;

pub struct Interner<T: Eq + Hash + Clone> {
    items: Vec<T>,
    map: HashMap<T, u32>,
}

impl<T: Eq + Hash + Clone> Default for Interner<T> {
    fn default() -> Self {
        Self { items: Vec::new(), map: HashMap::default() }
    }
}

impl<T: Eq + Hash + Clone> Interner<T> {
    pub fn intern(&mut self, value: T) -> u32 {
        if let Some(&id) = self.map.get(&value) {
            return id;
        }
        let id = self.items.len() as u32;
        self.items.push(value.clone());
        self.map.insert(value, id);
        id
    }

    pub fn get(&self, id: u32) -> &T {
        &self.items[id as usize]
    }

    /// Stores a value without uniquing it (for values never compared, such as
    /// per-op source locations, where hashing would be pure overhead).
    pub fn push_unique(&mut self, value: T) -> u32 {
        self.items.push(value);
        self.items.len() as u32 - 1
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }
}

/// String interner keyed by `Box<str>`; symbols are `u32` handles.
#[derive(Default)]
pub struct StrInterner {
    items: Vec<Box<str>>,
    map: HashMap<Box<str>, u32>,
}

impl StrInterner {
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.map.get(s) {
            return id;
        }
        let id = self.items.len() as u32;
        let b: Box<str> = s.into();
        self.items.push(b.clone());
        self.map.insert(b, id);
        id
    }

    pub fn lookup(&self, s: &str) -> Option<u32> {
        self.map.get(s).copied()
    }

    pub fn get(&self, id: u32) -> &str {
        &self.items[id as usize]
    }
}

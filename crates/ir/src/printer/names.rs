//! SSA value and block naming, following MLIR's `SSANameState`: regions are
//! numbered outside-in with a stack; custom form restores counters per region
//! (so sibling regions reuse numbers) while generic form keeps them unique.

use std::hash::BuildHasher;

use rustc_hash::FxHashMap as HashMap;

use crate::ir::{BlockId, Ir, OpId, RegionId, Value, ValueDef};

const UNSET: u32 = u32::MAX;
const NAMED: u32 = 1 << 31;

pub struct Names {
    value_ids: Vec<u32>,
    strings: Vec<String>,
    result_groups: HashMap<OpId, Vec<u32>>,
    block_ids: HashMap<BlockId, u32>,
}

struct Scope {
    parent: Option<usize>,
    /// Names taken in this scope, as indices into `Names::strings` (hashed
    /// by their text), so each name is stored once.
    used: hashbrown::HashTable<u32>,
}

fn hash_name(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

struct State<'a> {
    ir: &'a Ir,
    names: Names,
    next_value: u32,
    next_arg: u32,
    next_conflict: u32,
    scopes: Vec<Scope>,
    cur_scope: usize,
    custom: bool,
    /// Reused buffer for the names an op's `asm_names` hook suggests.
    named: Vec<(Value, String)>,
}

pub(crate) fn sanitize(name: &str) -> std::borrow::Cow<'_, str> {
    let valid = |c: char| c.is_ascii_alphanumeric() || "$._-".contains(c);
    let copy = |s: &mut String| {
        for c in name.chars() {
            if valid(c) {
                s.push(c);
            } else if c == ' ' {
                s.push('_');
            } else {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    s.push_str(&format!("{b:X}"));
                }
            }
        }
    };
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        let mut s = String::from("_");
        copy(&mut s);
        return s.into();
    }
    if name.chars().all(valid) {
        return name.into();
    }
    let mut s = String::new();
    copy(&mut s);
    s.into()
}

impl State<'_> {
    fn is_used(&self, name: &str, hash: u64) -> bool {
        let strings = &self.names.strings;
        let mut s = Some(self.cur_scope);
        while let Some(i) = s {
            if self.scopes[i].used.find(hash, |&k| strings[k as usize] == name).is_some() {
                return true;
            }
            s = self.scopes[i].parent;
        }
        false
    }

    /// Stores a name not yet used in the current scope chain (MLIR's
    /// `uniqueValueName`: the name itself, else `name_N` with a counter).
    fn unique_name(&mut self, name: &str) -> u32 {
        use std::fmt::Write;
        let name = sanitize(name);
        let mut hash = hash_name(&name);
        let result = if !self.is_used(&name, hash) {
            name.into_owned()
        } else {
            let mut probe = String::with_capacity(name.len() + 4);
            loop {
                probe.clear();
                probe.push_str(&name);
                let _ = write!(probe, "_{}", self.next_conflict);
                self.next_conflict += 1;
                hash = hash_name(&probe);
                if !self.is_used(&probe, hash) {
                    break probe;
                }
            }
        };
        let id = self.names.strings.len() as u32;
        self.names.strings.push(result);
        let strings = &self.names.strings;
        self.scopes[self.cur_scope].used.insert_unique(hash, id, |&k| hash_name(&strings[k as usize]));
        id
    }

    fn set_name(&mut self, v: Value, name: &str) {
        if name.is_empty() {
            self.names.value_ids[v.index()] = self.next_value;
            self.next_value += 1;
            return;
        }
        let id = self.unique_name(name);
        self.names.value_ids[v.index()] = NAMED | id;
    }

    fn number_op(&mut self, op: OpId) {
        let ir = self.ir;
        // Result groups start at 0 and at every further named result.
        let mut groups = Vec::new();
        if self.custom
            && let Some(f) = ir.op_def(op).and_then(|d| d.asm_names)
        {
            let mut named = std::mem::take(&mut self.named);
            f(ir, op, &mut |v, n| named.push((v, n)));
            for (v, n) in named.drain(..) {
                if self.names.value_ids[v.index()] != UNSET {
                    continue;
                }
                self.set_name(v, &n);
                if let ValueDef::Result { index, .. } = ir.value_def(v)
                    && index != 0
                {
                    if groups.is_empty() {
                        groups.push(0);
                    }
                    groups.push(index);
                }
            }
            self.named = named;
        }
        let results = ir.results(op);
        if let Some(&first) = results.first() {
            if self.names.value_ids[first.index()] == UNSET {
                self.names.value_ids[first.index()] = self.next_value;
                self.next_value += 1;
            }
            if !groups.is_empty() {
                groups.sort_unstable();
                self.names.result_groups.insert(op, groups);
            }
        }
    }

    fn number_region(&mut self, r: RegionId) {
        let ir = self.ir;
        if self.custom
            && let Some(parent) = ir.region_parent(r)
            && ir.regions(parent).first() == Some(&r)
            && ir.op_def(parent).is_some_and(|d| d.shadow_region_args)
            && let Some(&entry) = ir.region_blocks(r).first()
        {
            // The arguments take the operands' printed names, `#N` included,
            // unchecked for uniqueness: the region is isolated, so the
            // operands themselves cannot be named inside it.
            for (&arg, &operand) in ir.block_args(entry).iter().zip(ir.operands(parent)) {
                let mut text = String::new();
                self.names.write_value(ir, operand, &mut text);
                let id = self.names.strings.len() as u32;
                self.names.strings.push(text.trim_start_matches('%').to_string());
                self.names.value_ids[arg.index()] = NAMED | id;
            }
        }
        if self.custom
            && let Some(parent) = ir.region_parent(r)
            && let Some(f) = ir.op_def(parent).and_then(|d| d.block_arg_names)
        {
            for (v, n) in f(ir, parent) {
                if let ValueDef::BlockArg { block, .. } = ir.value_def(v)
                    && ir.block_parent(block) == Some(r)
                    && self.names.value_ids[v.index()] == UNSET
                {
                    self.set_name(v, &n);
                }
            }
        }
        for (i, &b) in ir.region_blocks(r).iter().enumerate() {
            self.names.block_ids.insert(b, i as u32);
            let entry = i == 0;
            for &a in ir.block_args(b) {
                if self.names.value_ids[a.index()] != UNSET {
                    continue;
                }
                if entry {
                    let n = format!("arg{}", self.next_arg);
                    self.next_arg += 1;
                    self.set_name(a, &n);
                } else {
                    self.set_name(a, "");
                }
            }
            for op in ir.block_ops(b) {
                self.number_op(op);
            }
        }
    }
}

impl Names {
    pub(crate) fn empty() -> Names {
        Names {
            value_ids: Vec::new(),
            strings: Vec::new(),
            result_groups: HashMap::default(),
            block_ids: HashMap::default(),
        }
    }

    pub fn compute(ir: &Ir, root: OpId, custom: bool) -> Names {
        let mut st = State {
            ir,
            names: Names {
                value_ids: vec![UNSET; ir.value_count()],
                strings: Vec::new(),
                result_groups: HashMap::default(),
                block_ids: HashMap::default(),
            },
            next_value: 0,
            next_arg: 0,
            next_conflict: 0,
            scopes: vec![Scope { parent: None, used: hashbrown::HashTable::new() }],
            cur_scope: 0,
            custom,
            named: Vec::new(),
        };
        st.number_op(root);
        let mut stack: Vec<(RegionId, u32, u32, u32, usize)> =
            ir.regions(root).iter().map(|r| (*r, st.next_value, st.next_arg, st.next_conflict, 0)).collect();
        while let Some((r, nv, na, nc, parent_scope)) = stack.pop() {
            if custom {
                st.next_value = nv;
                st.next_arg = na;
                st.next_conflict = nc;
            }
            st.scopes.push(Scope { parent: Some(parent_scope), used: hashbrown::HashTable::new() });
            st.cur_scope = st.scopes.len() - 1;
            st.number_region(r);
            let scope = st.cur_scope;
            for &b in ir.region_blocks(r) {
                for op in ir.block_ops(b) {
                    for &nr in ir.regions(op) {
                        stack.push((nr, st.next_value, st.next_arg, st.next_conflict, scope));
                    }
                }
            }
        }
        st.names
    }

    pub fn write_value(&self, ir: &Ir, v: Value, out: &mut String) {
        use std::fmt::Write;
        let mut lookup = v;
        let mut suffix = None;
        if let ValueDef::Result { op, index } = ir.value_def(v)
            && ir.results(op).len() > 1
        {
            let n = ir.results(op).len() as u32;
            let (start, size) = match self.result_groups.get(&op) {
                None => (0, n),
                Some(g) => match g.iter().position(|s| *s > index) {
                    None => (*g.last().unwrap(), n - g.last().unwrap()),
                    Some(i) => (g[i - 1], g[i] - g[i - 1]),
                },
            };
            if size != 1 {
                suffix = Some(index - start);
            }
            lookup = ir.result(op, start as usize);
        }
        self.write_group_head(lookup, out);
        if let Some(s) = suffix {
            let _ = write!(out, "#{s}");
        }
    }

    /// Writes the name of a result group's first value without `#N`.
    pub fn write_group_head(&self, v: Value, out: &mut String) {
        use std::fmt::Write;
        match self.value_ids.get(v.index()).copied().unwrap_or(UNSET) {
            UNSET => out.push_str("<<UNKNOWN SSA VALUE>>"),
            id if id & NAMED != 0 => {
                out.push('%');
                out.push_str(&self.strings[(id & !NAMED) as usize]);
            }
            id => {
                let _ = write!(out, "%{id}");
            }
        }
    }

    pub fn groups(&self, op: OpId) -> Option<&[u32]> {
        self.result_groups.get(&op).map(|v| v.as_slice())
    }

    pub fn block_id(&self, b: BlockId) -> Option<u32> {
        self.block_ids.get(&b).copied()
    }
}

//! The solver's view of a function (spec sync-solver.md §3.1, §3.7): a tree
//! of scopes, loops, conditions, memory-touching ops and placeholders, and
//! the flattened list of its occurrences, in which every loop body appears
//! twice so that iteration i and iteration i+1 can be paired.

use hivm_ir::{BlockId, Ir, OpId, RegionId, TypeData, Value};

use super::memory::{self, MemInfo};
use super::pipes::{self, Pipe};

pub type NodeId = usize;
pub type OccId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Function,
    /// A region body (also a branch of a condition or a loop region).
    Scope,
    /// One block of the function region.
    FunctionBlock,
    Loop,
    Condition,
    Rw,
    PlaceHolder,
}

/// What a placeholder anchors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ph {
    /// The block whose start (`begin`) or end it marks.
    pub block: Option<BlockId>,
    pub begin: bool,
    /// Just before / just after this loop.
    pub before: Option<NodeId>,
    pub after: Option<NodeId>,
}

/// A memory-touching op: its pipes and what it reads and writes.
#[derive(Clone, Debug)]
pub struct Rw {
    pub pipe_read: Pipe,
    pub pipe_write: Pipe,
    pub reads: Vec<MemInfo>,
    pub writes: Vec<MemInfo>,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub kind: Kind,
    pub op: Option<OpId>,
    pub parent: Option<NodeId>,
    pub body: Vec<NodeId>,
    pub ph: Ph,
    pub rw: Option<Rw>,
    /// Position in the first depth-first visit (shared by both loop copies).
    pub pre_order: usize,
    pub parallel: bool,
    pub unlikely: bool,
    /// For conditions: whether there is an else branch.
    pub has_else: bool,
    /// For the pieces a local matmul is broken into (spec §3.6).
    pub mmad: Option<MmadPart>,
}

/// What a node stands for inside a decomposed `mmadL1` / `mmadmxL1`: the
/// scope that holds the pieces (upstream's MmadL1LoopOp, a scope, not a
/// loop, so it is not unrolled), the loads into L0 on MTE1, and the
/// multiplication on M. Syncs landing on a load become the op's
/// `sync_related_args` (the library waits and sets them itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmadPart {
    Body,
    LoadA,
    LoadAScale,
    LoadB,
    LoadBScale,
    LoadBias,
    Mmad,
}

impl MmadPart {
    /// The L0 loads a sync may be moved onto (not the bias load).
    pub fn is_l0_load(self) -> bool {
        matches!(self, MmadPart::LoadA | MmadPart::LoadAScale | MmadPart::LoadB | MmadPart::LoadBScale)
    }
}

#[derive(Clone, Debug)]
pub struct Occ {
    pub node: NodeId,
    pub parent: Option<OccId>,
    pub depth: usize,
    /// Position in the occurrence list, and one past its subtree.
    pub index: usize,
    pub end_index: usize,
    /// Time stamps: one tick on entry, one on exit.
    pub start: i64,
    pub end: i64,
    pub children: Vec<OccId>,
    /// For loops: where the second copy of the body starts.
    pub split: Option<usize>,
}

pub struct Tree {
    pub nodes: Vec<Node>,
    pub occs: Vec<Occ>,
    pub node_occs: Vec<Vec<OccId>>,
    pub root: NodeId,
}

/// An op the solver cannot model yet.
pub struct Unsupported {
    pub op: OpId,
    pub msg: String,
}

impl Tree {
    pub fn build(ir: &Ir, func: OpId) -> Result<Tree, Unsupported> {
        let mut t = Tree { nodes: Vec::new(), occs: Vec::new(), node_occs: Vec::new(), root: 0 };
        let root = t.add(Kind::Function, Some(func), None);
        t.root = root;
        let region = ir.regions(func)[0];
        // One tracer for the function: building it reads the whole body.
        let tracer = memory::Tracer::for_function(ir, func);
        let scope = t.region(ir, &tracer, region, root, true)?;
        t.nodes[root].body.push(scope);
        let mut pre = 0;
        let mut tick = 0;
        t.node_occs = vec![Vec::new(); t.nodes.len()];
        let mut pre_done = vec![false; t.nodes.len()];
        t.flatten(root, None, 0, &mut pre, &mut pre_done, &mut tick);
        Ok(t)
    }

    fn add(&mut self, kind: Kind, op: Option<OpId>, parent: Option<NodeId>) -> NodeId {
        self.nodes.push(Node {
            kind,
            op,
            parent,
            body: Vec::new(),
            ph: Ph::default(),
            rw: None,
            pre_order: 0,
            parallel: false,
            unlikely: false,
            has_else: false,
            mmad: None,
        });
        self.nodes.len() - 1
    }

    fn placeholder(&mut self, parent: NodeId, ph: Ph) -> NodeId {
        let n = self.add(Kind::PlaceHolder, None, Some(parent));
        self.nodes[n].ph = ph;
        n
    }

    fn region(
        &mut self,
        ir: &Ir,
        tr: &memory::Tracer,
        region: RegionId,
        parent: NodeId,
        in_function: bool,
    ) -> Result<NodeId, Unsupported> {
        let scope = self.add(Kind::Scope, None, Some(parent));
        let blocks = ir.region_blocks(region);
        if !in_function && blocks.len() > 1 {
            let op = ir.region_parent(region).expect("a region has a parent op");
            return Err(Unsupported { op, msg: "regions of several blocks are supported in functions only".into() });
        }
        for &block in blocks {
            let par = if in_function {
                let fb = self.add(Kind::FunctionBlock, None, Some(scope));
                self.nodes[scope].body.push(fb);
                fb
            } else {
                scope
            };
            let begin = self.placeholder(par, Ph { block: Some(block), begin: true, ..Ph::default() });
            self.nodes[par].body.push(begin);
            for op in ir.block_ops(block) {
                self.op(ir, tr, op, par)?;
            }
            let end = self.placeholder(par, Ph { block: Some(block), begin: false, ..Ph::default() });
            self.nodes[par].body.push(end);
        }
        Ok(scope)
    }

    fn op(&mut self, ir: &Ir, tr: &memory::Tracer, op: OpId, par: NodeId) -> Result<(), Unsupported> {
        match ir.op_name(op) {
            "scf.if" => {
                let cond = self.add(Kind::Condition, Some(op), Some(par));
                self.nodes[cond].unlikely = ir.has_attr(op, "hivm.unlikely_condition");
                let regions = ir.regions(op).to_vec();
                let then = self.region(ir, tr, regions[0], cond, false)?;
                self.nodes[cond].body.push(then);
                if let Some(r) = regions.get(1).filter(|r| !ir.region_blocks(**r).is_empty()) {
                    let els = self.region(ir, tr, *r, cond, false)?;
                    self.nodes[cond].body.push(els);
                    self.nodes[cond].has_else = true;
                }
                self.nodes[par].body.push(cond);
            }
            "scf.for" | "scf.while" | "scf.parallel" | "scf.forall" => {
                let l = self.add(Kind::Loop, Some(op), Some(par));
                self.nodes[l].parallel = ir.has_attr(op, "hivm.parallel_loop");
                for r in ir.regions(op).to_vec() {
                    let s = self.region(ir, tr, r, l, false)?;
                    self.nodes[l].body.push(s);
                }
                let before = self.placeholder(par, Ph { before: Some(l), ..Ph::default() });
                let after = self.placeholder(par, Ph { after: Some(l), ..Ph::default() });
                self.nodes[par].body.extend([before, l, after]);
            }
            "hivm.hir.mmadL1" | "hivm.hir.batchMmadL1" | "hivm.hir.mmadmxL1" => self.mmad(ir, tr, op, par),
            "func.call" => {
                if let Some(rw) = vector_call(ir, tr, op) {
                    let n = self.add(Kind::Rw, Some(op), Some(par));
                    self.nodes[n].rw = Some(rw);
                    self.nodes[par].body.push(n);
                }
            }
            _ => {
                if let Some(rw) = rw_of(ir, tr, op)? {
                    let n = self.add(Kind::Rw, Some(op), Some(par));
                    self.nodes[n].rw = Some(rw);
                    self.nodes[par].body.push(n);
                } else if !ir.regions(op).is_empty() && ir.regions(op).iter().any(|r| has_memory_op(ir, *r)) {
                    return Err(Unsupported {
                        op,
                        msg: format!("'{}' with memory ops inside is not supported by the sync solver", ir.op_name(op)),
                    });
                }
            }
        }
        Ok(())
    }

    /// A local matmul as upstream's intra-core solver sees it:
    /// `Scope(op) { PH, Body(op) { Scope { loads on MTE1 reading A [, scale
    /// A], B [, scale B] [, bias], the multiplication on M writing C } }, PH }`.
    fn mmad(&mut self, ir: &Ir, tr: &memory::Tracer, op: OpId, par: NodeId) {
        let mx = ir.is_op(op, "hivm.hir.mmadmxL1");
        let seg = |i: usize| hivm_dialects::util::segment(ir, op, i).to_vec();
        let loads: Vec<(MmadPart, Vec<Value>)> = if mx {
            vec![
                (MmadPart::LoadA, seg(0)),
                (MmadPart::LoadAScale, seg(2)),
                (MmadPart::LoadB, seg(1)),
                (MmadPart::LoadBScale, seg(3)),
            ]
        } else {
            let mut l = vec![(MmadPart::LoadA, seg(0)), (MmadPart::LoadB, seg(1))];
            let bias = seg(9);
            if !bias.is_empty() {
                l.push((MmadPart::LoadBias, bias));
            }
            l
        };
        let c = seg(if mx { 8 } else { 6 });
        let outer = self.add(Kind::Scope, Some(op), Some(par));
        self.nodes[par].body.push(outer);
        let body = self.add(Kind::Scope, Some(op), Some(outer));
        self.nodes[body].mmad = Some(MmadPart::Body);
        let before = self.placeholder(outer, Ph { before: Some(body), ..Ph::default() });
        let after = self.placeholder(outer, Ph { after: Some(body), ..Ph::default() });
        self.nodes[outer].body.extend([before, body, after]);
        let inner = self.add(Kind::Scope, None, Some(body));
        self.nodes[body].body.push(inner);
        for (part, vals) in loads {
            let n = self.add(Kind::Rw, None, Some(inner));
            let rw =
                Rw { pipe_read: pipes::MTE1, pipe_write: pipes::MTE1, reads: roots(ir, tr, &vals), writes: Vec::new() };
            self.nodes[n].rw = Some(rw);
            self.nodes[n].mmad = Some(part);
            self.nodes[inner].body.push(n);
        }
        let n = self.add(Kind::Rw, Some(op), Some(inner));
        self.nodes[n].rw =
            Some(Rw { pipe_read: pipes::M, pipe_write: pipes::M, reads: Vec::new(), writes: roots(ir, tr, &c) });
        self.nodes[n].mmad = Some(MmadPart::Mmad);
        self.nodes[inner].body.push(n);
    }

    fn flatten(
        &mut self,
        node: NodeId,
        parent: Option<OccId>,
        depth: usize,
        pre: &mut usize,
        pre_done: &mut [bool],
        tick: &mut i64,
    ) {
        if !pre_done[node] {
            pre_done[node] = true;
            self.nodes[node].pre_order = *pre;
            *pre += 1;
        }
        let occ = self.occs.len();
        self.occs.push(Occ {
            node,
            parent,
            depth,
            index: occ,
            end_index: 0,
            start: *tick,
            end: 0,
            children: Vec::new(),
            split: None,
        });
        *tick += 1;
        self.node_occs[node].push(occ);
        if let Some(p) = parent {
            self.occs[p].children.push(occ);
        }
        let body = self.nodes[node].body.clone();
        if self.nodes[node].kind == Kind::Loop {
            for &c in &body {
                self.flatten(c, Some(occ), depth + 1, pre, pre_done, tick);
            }
            self.occs[occ].split = Some(self.occs.len());
            for &c in &body {
                self.flatten(c, Some(occ), depth + 1, pre, pre_done, tick);
            }
        } else {
            for &c in &body {
                self.flatten(c, Some(occ), depth + 1, pre, pre_done, tick);
            }
        }
        self.occs[occ].end = *tick;
        *tick += 1;
        self.occs[occ].end_index = self.occs.len();
    }

    pub fn is_scope(&self, n: NodeId) -> bool {
        matches!(self.nodes[n].kind, Kind::Function | Kind::Scope | Kind::FunctionBlock | Kind::Loop | Kind::Condition)
    }

    pub fn kind_of_occ(&self, o: OccId) -> Kind {
        self.nodes[self.occs[o].node].kind
    }

    // ----- nodes -----

    /// Depth counting the node itself (the root has depth 1).
    pub fn node_depth(&self, mut n: NodeId) -> usize {
        let mut d = 1;
        while let Some(p) = self.nodes[n].parent {
            n = p;
            d += 1;
        }
        d
    }

    pub fn node_nth_parent(&self, mut n: NodeId, dist: usize) -> NodeId {
        for _ in 0..dist {
            n = self.nodes[n].parent.expect("an ancestor at that distance");
        }
        n
    }

    /// The two nodes directly below the lowest common ancestor.
    pub fn node_lca_pair(&self, mut a: NodeId, mut b: NodeId) -> (NodeId, NodeId) {
        let (da, db) = (self.node_depth(a), self.node_depth(b));
        if da < db {
            b = self.node_nth_parent(b, db - da);
        } else if da > db {
            a = self.node_nth_parent(a, da - db);
        }
        while self.nodes[a].parent != self.nodes[b].parent {
            a = self.nodes[a].parent.expect("a common ancestor");
            b = self.nodes[b].parent.expect("a common ancestor");
        }
        (a, b)
    }

    pub fn node_parent_of_kind(&self, n: NodeId, kind: Kind) -> Option<NodeId> {
        let mut cur = self.nodes[n].parent;
        while let Some(c) = cur {
            if self.nodes[c].kind == kind {
                return Some(c);
            }
            cur = self.nodes[c].parent;
        }
        None
    }

    pub fn node_parent_loop(&self, n: NodeId) -> Option<NodeId> {
        self.node_parent_of_kind(n, Kind::Loop)
    }

    pub fn node_is_proper_ancestor(&self, a: NodeId, b: NodeId) -> bool {
        let (da, db) = (self.node_depth(a), self.node_depth(b));
        da < db && self.node_nth_parent(b, db - da) == a
    }

    /// The node (or ancestor) standing for MLIR op `op`, from `n` upward.
    pub fn node_with_op(&self, mut n: NodeId, op: OpId) -> Option<NodeId> {
        loop {
            if self.nodes[n].op == Some(op) {
                return Some(n);
            }
            n = self.nodes[n].parent?;
        }
    }

    // ----- occurrences -----

    pub fn nth_parent(&self, mut o: OccId, dist: usize) -> OccId {
        for _ in 0..dist {
            o = self.occs[o].parent.expect("an ancestor at that distance");
        }
        o
    }

    /// The two occurrences directly below the lowest common ancestor.
    pub fn lca_pair(&self, mut a: OccId, mut b: OccId) -> (OccId, OccId) {
        let (da, db) = (self.occs[a].depth, self.occs[b].depth);
        if da < db {
            b = self.nth_parent(b, db - da);
        } else if da > db {
            a = self.nth_parent(a, da - db);
        }
        while self.occs[a].parent != self.occs[b].parent {
            a = self.occs[a].parent.expect("a common ancestor");
            b = self.occs[b].parent.expect("a common ancestor");
        }
        (a, b)
    }

    /// The nearest proper ancestor occurrence of a loop.
    pub fn parent_loop(&self, o: OccId) -> Option<OccId> {
        self.parent_of_kind(o, Kind::Loop)
    }

    pub fn parent_of_kind(&self, o: OccId, kind: Kind) -> Option<OccId> {
        let mut cur = self.occs[o].parent;
        while let Some(c) = cur {
            if self.kind_of_occ(c) == kind {
                return Some(c);
            }
            cur = self.occs[c].parent;
        }
        None
    }

    /// The occurrence (or ancestor) of node `n`, from `o` upward.
    pub fn parent_with_node(&self, mut o: OccId, n: NodeId) -> Option<OccId> {
        loop {
            if self.occs[o].node == n {
                return Some(o);
            }
            o = self.occs[o].parent?;
        }
    }

    /// The deepest occurrence above or at both `a` and `b`.
    pub fn lca(&self, mut a: OccId, mut b: OccId) -> OccId {
        while self.occs[a].depth > self.occs[b].depth {
            a = self.occs[a].parent.expect("deeper than the root");
        }
        while self.occs[b].depth > self.occs[a].depth {
            b = self.occs[b].parent.expect("deeper than the root");
        }
        while a != b {
            a = self.occs[a].parent.expect("a common ancestor");
            b = self.occs[b].parent.expect("a common ancestor");
        }
        a
    }

    pub fn is_proper_ancestor(&self, a: OccId, b: OccId) -> bool {
        let (da, db) = (self.occs[a].depth, self.occs[b].depth);
        da < db && self.nth_parent(b, db - da) == a
    }

    pub fn is_ancestor(&self, a: OccId, b: OccId) -> bool {
        a == b || self.is_proper_ancestor(a, b)
    }

    pub fn all_parents(&self, o: OccId) -> Vec<OccId> {
        let mut v = Vec::new();
        let mut cur = self.occs[o].parent;
        while let Some(c) = cur {
            v.push(c);
            cur = self.occs[c].parent;
        }
        v
    }

    pub fn pre_order_of_occ(&self, o: OccId) -> usize {
        self.nodes[self.occs[o].node].pre_order
    }
}

fn has_memory_op(ir: &Ir, r: RegionId) -> bool {
    let mut found = false;
    for b in ir.region_blocks(r) {
        for op in ir.block_ops(*b) {
            ir.walk(op, &mut |o| found |= !pipes::op_pipes(ir, o).is_empty());
        }
    }
    found
}

/// A call of a vector function (or an outlined SIMT one) runs on PIPE_V:
/// it reads the arguments marked `hivm.memory_effect<read>` (or
/// `read_write`) and those its body loads from, and writes those marked
/// `write` and those its body stores to (upstream's `getCallOp`). Other
/// calls are not pipe work.
fn vector_call(ir: &Ir, tr: &memory::Tracer, call: OpId) -> Option<Rw> {
    let name = crate::bufferize::analysis::callee(ir, call)?;
    let f = hivm_ir::builder::lookup_symbol_from(ir, call, &name).filter(|f| ir.is_op(*f, "func.func"))?;
    let simt = ir.get_attr(f, "hivm.vf_mode").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "vf_mode"));
    if !ir.has_attr(f, "hivm.vector_function") && simt != Some("SIMT") {
        return None;
    }
    let args = ir.operands(call);
    let (mut reads, mut writes): (Vec<Value>, Vec<Value>) = (Vec::new(), Vec::new());
    let add = |list: &mut Vec<Value>, v: Value| {
        if !list.contains(&v) {
            list.push(v);
        }
    };
    let arg_attrs = ir.get_attr(f, "arg_attrs").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    for (i, d) in arg_attrs.iter().enumerate().take(args.len()) {
        let effect = ir
            .dict_get(*d, "hivm.memory_effect")
            .and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "memory_effect"))
            .unwrap_or("");
        if matches!(effect, "read" | "read_write") {
            add(&mut reads, args[i]);
        }
        if matches!(effect, "write" | "read_write") {
            add(&mut writes, args[i]);
        }
    }
    if let Some(entry) = ir.regions(f).first().and_then(|r| ir.region_blocks(*r).first().copied()) {
        let inner = memory::Tracer::for_function(ir, f);
        let mut touched: Vec<(Value, bool)> = Vec::new();
        ir.walk(f, &mut |o| {
            let operand = |i: usize| ir.operands(o).get(i).copied();
            let found: Vec<(Option<Value>, bool)> = match ir.op_name(o) {
                "memref.load" | "affine.load" | "tensor.extract" | "vector.transfer_read" | "vector.gather" => {
                    vec![(operand(0), false)]
                }
                "memref.store" | "affine.store" => vec![(operand(1), true)],
                "vector.transfer_write" => vec![(operand(0), false), (operand(1), true)],
                _ => Vec::new(),
            };
            touched.extend(found.into_iter().filter_map(|(v, w)| v.map(|v| (v, w))));
        });
        for (v, write) in touched {
            for root in inner.root_values(ir, v) {
                if let hivm_ir::ValueDef::BlockArg { block, index } = ir.value_def(root)
                    && block == entry
                    && let Some(&a) = args.get(index as usize)
                {
                    add(if write { &mut writes } else { &mut reads }, a);
                }
            }
        }
    }
    Some(Rw { pipe_read: pipes::V, pipe_write: pipes::V, reads: roots(ir, tr, &reads), writes: roots(ir, tr, &writes) })
}

/// A memref value's memory roots; scalars have none.
fn roots(ir: &Ir, tr: &memory::Tracer, vals: &[Value]) -> Vec<MemInfo> {
    let mut out: Vec<MemInfo> = Vec::new();
    for v in vals {
        if matches!(ir.type_data(ir.value_type(*v)), TypeData::MemRef { .. }) {
            for r in tr.roots(ir, *v) {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
    }
    out
}

/// The memref a scalar memory op reads and the one it writes: loads and
/// stores as upstream, and the copies and fills that reach the solver only
/// in kernels written by hand (upstream's pipeline makes them pipe ops
/// first), which the scalar unit runs too.
fn scalar_operands(ir: &Ir, op: OpId) -> Option<(Option<Value>, Option<Value>)> {
    let memref = |i: usize| ir.operands(op).get(i).copied().filter(|v| ir.type_data(ir.value_type(*v)).is_memref());
    match ir.op_name(op) {
        "memref.load" => Some((memref(0), None)),
        "memref.store" => Some((None, memref(1))),
        "memref.copy" => Some((memref(0), memref(1))),
        "linalg.fill" => Some((None, memref(1))).filter(|(_, w)| w.is_some()),
        _ => None,
    }
}

/// The read and write sets of a memory-touching op (§3.2), or None for ops
/// the solver ignores.
fn rw_of(ir: &Ir, tr: &memory::Tracer, op: OpId) -> Result<Option<Rw>, Unsupported> {
    let name = ir.op_name(op);
    if let Some((read, written)) = scalar_operands(ir, op) {
        let has_space = |v: &Option<Value>| {
            v.is_some_and(|v| matches!(ir.type_data(ir.value_type(v)), TypeData::MemRef { memory_space: Some(_), .. }))
        };
        let spaced = has_space(&read) || has_space(&written);
        let reads = roots(ir, tr, &read.into_iter().collect::<Vec<_>>());
        let writes = roots(ir, tr, &written.into_iter().collect::<Vec<_>>());
        // Upstream skips memrefs without a memory space (by then only the
        // scalar stack has none); here a kernel's arguments and local
        // buffers may have none, so those count when they reach a root.
        if !spaced && reads.is_empty() && writes.is_empty() {
            return Ok(None);
        }
        return Ok(Some(Rw { pipe_read: pipes::S, pipe_write: pipes::S, reads, writes }));
    }
    let p = pipes::op_pipes(ir, op);
    if p.is_empty() {
        return Ok(None);
    }
    if p.contains(&pipes::UNASSIGNED) {
        return Err(Unsupported { op, msg: format!("the sync solver cannot tell which pipe '{name}' runs on") });
    }
    let (ins, outs, extra) = pipes::dps_operands(ir, op);
    let mut writes = roots(ir, tr, &outs);
    for r in roots(ir, tr, &extra) {
        if !writes.contains(&r) {
            writes.push(r);
        }
    }
    Ok(Some(Rw { pipe_read: p[0], pipe_write: *p.last().unwrap(), reads: roots(ir, tr, &ins), writes }))
}

//! Unit flags (`enable-unit-flag`): a local matmul (`mmadL1`, on M) and the
//! `fixpipe` that drains its L0C buffer can hand the buffer over through
//! the hardware's per-unit flags instead of a set/wait pair. The solver
//! records such a handover as a chosen pair that emits nothing, takes no
//! event id and orders only its own waiter; codegen writes the modes (per
//! first, middle and last loop iteration) as `unit_flag_mode`, the
//! iteration tests as `unit_flag_cond`, and groups linked ops by
//! `unit_flag_group_id`. The rules are upstream's (UnitFlagInfoBase and the
//! solver's pattern check).

use hivm_dialects::util::{opaque_attr, segment};
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::{AttrData, Ir, OpId, Value};

use super::codegen::set_segment;

/// A unit-flag mode, ordered as upstream merges them (the larger wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    #[default]
    Disabled,
    WithoutUpdate,
    WithUpdate,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Disabled => "DISABLED",
            Mode::WithoutUpdate => "ENABLED_WITHOUT_UPDATE",
            Mode::WithUpdate => "ENABLED_WITH_UPDATE",
        }
    }
}

const FIRST: usize = 0;
const MID: usize = 1;
const LAST: usize = 2;

/// What an op (or one occurrence of it) does with unit flags: its modes as
/// the setter and as the waiter per iteration (first, middle, last), the
/// loop whose first/last iteration it is gated on (`parent_*`), and the
/// loop on the other side of the handover it depends on (`linked_*`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub set: [Mode; 3],
    pub wait: [Mode; 3],
    pub parent_set: Option<OpId>,
    pub parent_wait: Option<OpId>,
    pub linked_set: Option<OpId>,
    pub linked_wait: Option<OpId>,
}

impl Info {
    pub fn disabled_as_set(&self) -> bool {
        self.set.iter().all(|m| *m == Mode::Disabled)
    }

    pub fn disabled_as_wait(&self) -> bool {
        self.wait.iter().all(|m| *m == Mode::Disabled)
    }

    /// Takes the setter (or waiter) side of `other`: modes by maximum; the
    /// linked loop as it stands there (upstream overwrites it, even with
    /// none); the parent loop when there is one.
    pub fn merge(&mut self, other: &Info, as_set: bool) {
        if as_set {
            for i in 0..3 {
                self.set[i] = self.set[i].max(other.set[i]);
            }
            self.linked_set = other.linked_set;
            if other.parent_set.is_some() {
                self.parent_set = other.parent_set;
            }
        } else {
            for i in 0..3 {
                self.wait[i] = self.wait[i].max(other.wait[i]);
            }
            self.linked_wait = other.linked_wait;
            if other.parent_wait.is_some() {
                self.parent_wait = other.parent_wait;
            }
        }
    }
}

/// The unit-flag-capable ops: a local matmul's multiplication and fixpipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Mmad,
    Fixpipe,
}

pub fn side(ir: &Ir, op: OpId) -> Option<Side> {
    match ir.op_name(op) {
        "hivm.hir.mmadL1" => Some(Side::Mmad),
        "hivm.hir.fixpipe" => Some(Side::Fixpipe),
        _ => None,
    }
}

fn parent_for(ir: &Ir, op: OpId) -> Option<OpId> {
    ir.parent_op(op).filter(|p| ir.is_op(*p, "scf.for"))
}

/// The nearest enclosing `scf.for`, at any depth.
pub fn enclosing_for(ir: &Ir, op: OpId) -> Option<OpId> {
    super::memory::ancestor(ir, op, |n| n == "scf.for")
}

/// The handover patterns between `op1` (the earlier side) and `op2`, given
/// what each op already does (`merged1`, `merged2`) and, for a pair across
/// iterations, the loop it crosses. None when unit flags cannot serve.
pub fn pattern(ir: &Ir, op1: OpId, op2: OpId, merged1: &Info, backward_loop: Option<OpId>) -> Option<Info> {
    let (mmad, fixpipe, mmad_first) = match (side(ir, op1)?, side(ir, op2)?) {
        (Side::Mmad, Side::Fixpipe) => (op1, op2, true),
        (Side::Fixpipe, Side::Mmad) => (op2, op1, false),
        _ => return None,
    };
    // Releasing the buffer back to the matmul only extends a handover the
    // fixpipe already waits on, outside a linked loop.
    if !mmad_first && (merged1.disabled_as_wait() || merged1.linked_wait.is_some()) {
        return None;
    }
    // The same buffer value (not merely the same address).
    if ir.operand(fixpipe, 0) != segment(ir, mmad, 6)[0] {
        return None;
    }
    let set_mode = Mode::WithUpdate;
    let wait_mode = if mmad_first { Mode::WithUpdate } else { Mode::WithoutUpdate };
    if ir.parent_block(fixpipe) == ir.parent_block(mmad) {
        let mut info = Info { set: [set_mode; 3], wait: [wait_mode; 3], ..Info::default() };
        if let Some(l) = backward_loop {
            info.set[LAST] = Mode::Disabled;
            info.wait[FIRST] = Mode::Disabled;
            info.parent_set = Some(l);
            info.parent_wait = Some(l);
        }
        return Some(info);
    }
    match (parent_for(ir, op1), parent_for(ir, op2)) {
        (Some(f1), None) => {
            if enclosing_for(ir, op2).is_some() || ir.parent_region(f1) != ir.parent_region(op2) {
                return None;
            }
            let mut set = [Mode::Disabled; 3];
            set[LAST] = set_mode;
            Some(Info { set, wait: [wait_mode; 3], linked_wait: Some(f1), parent_set: Some(f1), ..Info::default() })
        }
        (None, Some(f2)) => {
            if enclosing_for(ir, op1).is_some() || ir.parent_region(f2) != ir.parent_region(op1) {
                return None;
            }
            // The setter's condition (the loop runs at all) is computed
            // right before it: the loop's bounds must exist there.
            if !ir.operands(f2)[..2].iter().all(|v| visible_at(ir, *v, op1)) {
                return None;
            }
            let mut wait = [Mode::Disabled; 3];
            wait[FIRST] = wait_mode;
            Some(Info { set: [set_mode; 3], wait, linked_set: Some(f2), parent_wait: Some(f2), ..Info::default() })
        }
        _ => None,
    }
}

/// Whether value `v` may be used at `op`: a block argument of a block
/// around it, or the result of an op before it in a block around it.
fn visible_at(ir: &Ir, v: Value, op: OpId) -> bool {
    let (block, def) = match ir.value_def(v) {
        hivm_ir::ValueDef::BlockArg { block, .. } => (block, None),
        hivm_ir::ValueDef::Result { op: d, .. } => match ir.parent_block(d) {
            Some(b) => (b, Some(d)),
            None => return false,
        },
        hivm_ir::ValueDef::Placeholder => return false,
    };
    let mut cur = op;
    loop {
        if ir.parent_block(cur) == Some(block) {
            let Some(d) = def else { return true };
            let mut x = Some(d);
            while let Some(o) = x {
                if o == cur {
                    return d != cur;
                }
                x = ir.next_op(o);
            }
            return false;
        }
        match ir.parent_op(cur) {
            Some(p) => cur = p,
            None => return false,
        }
    }
}

/// Modes listed (first, last, middle), shortened as upstream does: none
/// when all are disabled, one when all agree, two when the middle is off.
fn compress(first: Mode, last: Mode, mid: Mode) -> Vec<Mode> {
    if first == last && last == mid {
        return if first == Mode::Disabled { vec![] } else { vec![first] };
    }
    if mid == Mode::Disabled { vec![first, last] } else { vec![first, last, mid] }
}

fn combined(info: &Info) -> Vec<Mode> {
    let m = |i: usize| info.set[i].max(info.wait[i]);
    compress(m(FIRST), m(LAST), m(MID))
}

/// Writes `info` onto `op` as `unit_flag_mode`, `unit_flag_cond` (built
/// next to the op or at the top of its loop's body) and
/// `unit_flag_group_id`. Nothing for an op without a handover.
pub fn emit(ir: &mut Ir, op: OpId, info: &Info, group: u32) {
    if info.disabled_as_set() && info.disabled_as_wait() {
        return;
    }
    let parent = info.parent_set.or(info.parent_wait);
    let linked = info.linked_set.is_some() || info.linked_wait.is_some();
    let loc = ir.loc(op);
    let (modes, conds) = match (parent, linked) {
        (None, false) => (combined(info), vec![]),
        (Some(lp), false) => {
            let modes = combined(info);
            let mut conds = vec![];
            let mut modes = modes;
            if modes.len() >= 2 {
                let (first, last) = first_and_last(ir, lp, loc);
                conds = vec![first, last];
                if modes.len() == 3 {
                    conds.push(true_constant(ir, op, loc));
                }
                // An iteration that is both first and last (a loop that runs
                // once) hands over what a last iteration sets and what a first
                // waits for. Upstream's conditions give it the first
                // iteration's mode; where that differs, a matmul that sets only
                // in the last iteration never marks L0C ready and the fixpipe
                // after the loop waits forever. The modes stay upstream's.
                let once = info.set[LAST].max(info.wait[FIRST]);
                if once != modes[0] {
                    let t = true_constant(ir, op, loc);
                    let not_last = binary(ir, "arith.xori", last, t, InsertPoint::Before(op), loc);
                    let only_first = binary(ir, "arith.andi", first, not_last, InsertPoint::Before(op), loc);
                    conds[0] = only_first;
                    if once != modes[1] {
                        let both = binary(ir, "arith.andi", first, last, InsertPoint::Before(op), loc);
                        modes.insert(0, once);
                        conds.insert(0, both);
                    }
                }
            }
            (modes, conds)
        }
        (None, true) => {
            let one = |v: Vec<Mode>| v.first().copied().unwrap_or(Mode::Disabled);
            let set = one(compress(info.set[FIRST], info.set[LAST], info.set[MID]));
            let wait = one(compress(info.wait[FIRST], info.wait[LAST], info.wait[MID]));
            let mut modes = vec![one(combined(info))];
            let mut ran = vec![];
            for (l, mode) in [(info.linked_set, wait), (info.linked_wait, set)] {
                if let Some(l) = l {
                    modes.push(mode);
                    ran.push(ran_at_least_once(ir, l, op, loc));
                }
            }
            let mut conds = if ran.len() == 2 {
                let both = binary(ir, "arith.andi", ran[0], ran[1], InsertPoint::Before(op), loc);
                vec![both, ran[0], ran[1]]
            } else {
                let mut c = ran.clone();
                c.push(true_constant(ir, op, loc));
                c
            };
            // Trailing disabled modes go, with their conditions (whose ops
            // stay, unused, as upstream leaves them).
            while modes.last() == Some(&Mode::Disabled) {
                modes.pop();
                conds.pop();
            }
            conds.truncate(modes.len());
            (modes, conds)
        }
        // Upstream stops with "unexpected unit-flag-info state"; the
        // patterns never produce it.
        (Some(_), true) => return,
    };
    if modes.is_empty() {
        return;
    }
    let attrs: Vec<_> = modes.iter().map(|m| opaque_attr(ir, "hivm", &format!("unit_flag<{}>", m.name()))).collect();
    let array = ir.attr(AttrData::Array(attrs));
    ir.set_attr(op, "unit_flag_mode", array);
    if !conds.is_empty() {
        let group_index = if side(ir, op) == Some(Side::Mmad) { 8 } else { 2 };
        set_segment(ir, op, group_index, &conds);
    }
    let g = ir.i64_attr(group as i64);
    ir.set_attr(op, "unit_flag_group_id", g);
}

fn binary(ir: &mut Ir, name: &str, a: Value, b: Value, at: InsertPoint, loc: hivm_ir::Attribute) -> Value {
    let t = ir.value_type(a);
    let mut bld = Builder::new(ir, at);
    let o = bld.op(name, &[a, b], &[t], vec![], loc);
    ir.result(o, 0)
}

fn cmpi(ir: &mut Ir, pred: &str, a: Value, b: Value, at: InsertPoint, loc: hivm_ir::Attribute) -> Value {
    let idx = hivm_dialects::arith::CMPI.iter().position(|p| *p == pred).expect("a cmpi predicate");
    let i1 = ir.int_type(1);
    let p = ir.i64_attr(idx as i64);
    let mut bld = Builder::new(ir, at);
    let o = bld.op("arith.cmpi", &[a, b], &[i1], vec![("predicate", p)], loc);
    ir.result(o, 0)
}

/// `iv == lb` and `iv + step >= ub` at the top of `lp`'s body, in the
/// order upstream's two insertions at the block start leave them.
fn first_and_last(ir: &mut Ir, lp: OpId, loc: hivm_ir::Attribute) -> (Value, Value) {
    let (lb, ub, step) = (ir.operand(lp, 0), ir.operand(lp, 1), ir.operand(lp, 2));
    let body = ir.region_blocks(ir.regions(lp)[0])[0];
    let iv = ir.block_args(body)[0];
    let first = cmpi(ir, "eq", lb, iv, InsertPoint::start(ir, body), loc);
    let at = ir.defining_op(first).expect("an op result");
    let next = binary(ir, "arith.addi", iv, step, InsertPoint::Before(at), loc);
    let last = cmpi(ir, "sge", next, ub, InsertPoint::Before(at), loc);
    (first, last)
}

/// `lb < ub` of loop `l`, right before `op`.
fn ran_at_least_once(ir: &mut Ir, l: OpId, op: OpId, loc: hivm_ir::Attribute) -> Value {
    let (lb, ub) = (ir.operand(l, 0), ir.operand(l, 1));
    cmpi(ir, "slt", lb, ub, InsertPoint::Before(op), loc)
}

fn true_constant(ir: &mut Ir, op: OpId, loc: hivm_ir::Attribute) -> Value {
    let i1 = ir.int_type(1);
    let v = ir.bool_attr(true);
    let mut bld = Builder::new(ir, InsertPoint::Before(op));
    let o = bld.op("arith.constant", &[], &[i1], vec![("value", v)], loc);
    ir.result(o, 0)
}

/// Group ids: ops linked by handovers (useless copies included) form one
/// group, numbered in program order of each group's root, the root being
/// the waiter's side of the last join.
pub fn groups(ops: &[OpId], links: &[(OpId, OpId)], order: impl Fn(OpId) -> usize) -> Vec<(OpId, u32)> {
    let mut members: Vec<OpId> = Vec::new();
    let mut parent: rustc_hash::FxHashMap<OpId, OpId> = Default::default();
    fn find(parent: &rustc_hash::FxHashMap<OpId, OpId>, mut x: OpId) -> OpId {
        while let Some(p) = parent.get(&x).filter(|p| **p != x) {
            x = *p;
        }
        x
    }
    for &(a, b) in links {
        for x in [a, b] {
            if !members.contains(&x) {
                members.push(x);
                parent.insert(x, x);
            }
        }
        let (ra, rb) = (find(&parent, a), find(&parent, b));
        parent.insert(ra, rb);
    }
    members.sort_by_key(|o| order(*o));
    let mut ids: rustc_hash::FxHashMap<OpId, u32> = Default::default();
    let mut next = 0;
    for &m in &members {
        if find(&parent, m) == m {
            ids.insert(m, next);
            next += 1;
        }
    }
    ops.iter().filter(|o| members.contains(o)).map(|o| (*o, ids[&find(&parent, *o)])).collect()
}

// ----- the solver's side -----

use rustc_hash::FxHashSet;

use super::pipes::{self, Pipe};
use super::solver::{Pair, Solver, blank_pair};
use super::tree::{Kind, MmadPart, NodeId, OccId};

/// What one occurrence does with unit flags, and the occurrence its
/// handover as the setter goes to (for chains).
#[derive(Clone, Debug, Default)]
pub struct OccState {
    pub info: Info,
    pub linked_set: Option<OccId>,
}

impl Solver<'_> {
    /// The op of a unit-flag-capable node: a local matmul's multiplication
    /// (not `mmadmxL1`'s) or a fixpipe.
    fn uf_op(&self, n: NodeId) -> Option<OpId> {
        let node = &self.tree.nodes[n];
        let op = node.op.filter(|_| node.kind == Kind::Rw)?;
        match side(self.ir, op)? {
            Side::Mmad => (node.mmad == Some(MmadPart::Mmad)).then_some(op),
            Side::Fixpipe => Some(op),
        }
    }

    /// Whether a chain of handovers already leads from `o1` to `o2`.
    pub(super) fn uf_chain_orders(&self, o1: OccId, o2: OccId) -> bool {
        let t = &self.tree;
        if !self.unit_flag || self.uf_op(t.occs[o1].node).is_none() || self.uf_op(t.occs[o2].node).is_none() {
            return false;
        }
        let mut seen = FxHashSet::default();
        let mut cur = self.uf_occ[o1].linked_set;
        while let Some(c) = cur {
            if c == o2 {
                return true;
            }
            if !seen.insert(c) {
                break;
            }
            cur = self.uf_occ[c].linked_set;
        }
        false
    }

    /// Whether the conflict from `o1` to `o2` can be a handover, and how.
    pub(super) fn uf_pattern(&mut self, o1: OccId, o2: OccId) -> Option<Info> {
        if !self.unit_flag {
            return None;
        }
        let (n1, n2) = (self.tree.occs[o1].node, self.tree.occs[o2].node);
        let (op1, op2) = (self.uf_op(n1)?, self.uf_op(n2)?);
        // One handover per occurrence and role.
        if !self.uf_occ[o1].info.disabled_as_set() || !self.uf_occ[o2].info.disabled_as_wait() {
            return None;
        }
        // No matmul or fixpipe in between may touch either side's memory.
        for o in self.tree.occs[o1].end_index..self.tree.occs[o2].index {
            let n = self.tree.occs[o].node;
            let between = &self.tree.nodes[n];
            if between.kind != Kind::Rw || between.op.is_none_or(|op| side(self.ir, op).is_none()) {
                continue;
            }
            if self.uf_conflict(n1, n) || self.uf_conflict(n2, n) {
                return None;
            }
        }
        let ir = self.ir;
        let backward_loop = if self.is_backward(o1, o2) {
            // Across iterations: only of an scf.for whose body holds both.
            let t = &self.tree;
            let (p1, _) = t.lca_pair(o1, o2);
            let lp = t.nodes[t.occs[t.parent_loop(p1)?].node].op?;
            if !ir.is_op(lp, "scf.for") || ir.parent_op(op1) != Some(lp) || ir.parent_op(op2) != Some(lp) {
                return None;
            }
            Some(lp)
        } else {
            // Within one loop's iteration, both directly in its body (a
            // handover under an `if` could not pair with the set/wait the
            // other direction needs).
            let l1 = enclosing_for(ir, op1);
            if l1.is_some() && l1 == enclosing_for(ir, op2) && (ir.parent_op(op1) != l1 || ir.parent_op(op2) != l1) {
                return None;
            }
            None
        };
        let merged1 = self.uf_ops.get(&n1).cloned().unwrap_or_default();
        pattern(ir, op1, op2, &merged1, backward_loop)
    }

    /// Whether `a` and `b` conflict, for the in-between check. Upstream
    /// memoises this check in the map of conflict pipes, storing an empty
    /// list when it computes the answer itself, so that the same question
    /// is answered "no conflict" from then on (in later rounds too, where a
    /// handover refused in the first round can then be taken). The answer
    /// here is the same; the pipes of the pair are kept true, where
    /// upstream would lose them.
    fn uf_conflict(&mut self, a: NodeId, b: NodeId) -> bool {
        if self.uf_checked.contains(&(a, b)) {
            return false;
        }
        if let Some(c) = self.conflicts_known(a, b) {
            return c;
        }
        self.uf_checked.insert((a, b));
        !self.memory_conflicts(a, b).is_empty()
    }

    /// Records the handover: a chosen pair that orders `o2` after `o1` for
    /// coverage but emits nothing and takes no event id.
    pub(super) fn handle_unit_flag(&mut self, o1: OccId, o2: OccId, src: Pipe, dst: Pipe, info: Info, useless: bool) {
        let t = &self.tree;
        let (n1, n2) = (t.occs[o1].node, t.occs[o2].node);
        // A matmul's side registers where the matmul itself sits.
        let scope = |o: OccId| {
            if t.nodes[t.occs[o].node].mmad == Some(MmadPart::Mmad) && t.occs[o].depth >= 5 {
                Some(t.nth_parent(o, 5))
            } else {
                t.occs[o].parent
            }
        };
        let pair = Pair {
            op1: Some(n1),
            op2: Some(n2),
            set_occ: Some(o1),
            wait_occ: Some(o2),
            src,
            dst,
            start: t.occs[o1].end,
            end: t.occs[o2].start,
            inner_backward: self.is_backward(o1, o2),
            useless: true,
            dont_check: true,
            unit_flag: true,
            par1: scope(o1),
            par2: scope(o2),
            ..blank_pair()
        };
        let id = self.new_pair(pair);
        self.commit(id, None);
        self.uf_occ[o1].info.merge(&info, true);
        self.uf_occ[o1].linked_set = Some(o2);
        self.uf_occ[o2].info.merge(&info, false);
        if !useless {
            self.uf_ops.entry(n1).or_default().merge(&info, true);
            self.uf_ops.entry(n2).or_default().merge(&info, false);
        }
    }

    /// Each handover-capable op's final unit-flag state and group, in
    /// program order.
    pub fn unit_flags(&self) -> Vec<(OpId, Info, u32)> {
        let links: Vec<(OpId, OpId)> = self
            .chosen
            .iter()
            .chain(&self.persistent)
            .map(|p| &self.pairs[*p])
            .filter(|p| p.unit_flag)
            .filter_map(|p| Some((self.tree.nodes[p.op1?].op?, self.tree.nodes[p.op2?].op?)))
            .collect();
        let mut ops: Vec<(NodeId, OpId)> =
            (0..self.tree.nodes.len()).filter_map(|n| self.uf_op(n).map(|op| (n, op))).collect();
        ops.sort_by_key(|(n, _)| self.tree.nodes[*n].pre_order);
        let order = |op: OpId| ops.iter().position(|(_, o)| *o == op).unwrap_or(usize::MAX);
        let only: Vec<OpId> = ops.iter().map(|(_, o)| *o).collect();
        let groups = groups(&only, &links, order);
        ops.iter()
            .filter_map(|(n, op)| {
                let info = self.uf_ops.get(n)?;
                let g = groups.iter().find(|(o, _)| o == op)?.1;
                Some((*op, info.clone(), g))
            })
            .collect()
    }
}

/// The coverage search with handovers among the edges (upstream's
/// GraphSolverUnitFlag): a handover orders only its own waiter, so a path
/// whose last edge is a handover to another occurrence does not count, and
/// a path may start with a handover only if it leaves from `o1` itself.
/// Edges: (src, dst, start, end, handover, waiter is o2).
pub(super) fn reach_with_handovers(
    edges: &[(Pipe, Pipe, i64, i64, bool, bool)],
    src: Pipe,
    dst: Pipe,
    start: i64,
    end: i64,
) -> Option<i64> {
    let key = |uf: bool, to_o2: bool, p: Pipe| (usize::from(uf) * 2 + usize::from(to_o2)) * 256 + usize::from(p);
    let mut dist = vec![i64::MAX; 4 * 256];
    let mut queue = std::collections::BinaryHeap::new();
    queue.push(std::cmp::Reverse((start, false, false, src)));
    while let Some(std::cmp::Reverse((t, uf, to_o2, p))) = queue.pop() {
        let known = dist[key(uf, to_o2, p)];
        if known != i64::MAX {
            if known < t {
                continue;
            }
            // A handover reaching the destination counts only as o2's own.
            if (p == dst && (!uf || to_o2)) || p == pipes::S {
                return Some(t);
            }
        }
        if p == pipes::ALL {
            return Some(t);
        }
        for &(s, d, es, ee, e_uf, e_o2) in edges {
            if s != p || es < t || ee > end || (e_uf && t == start && es != start) {
                continue;
            }
            let k = key(e_uf, e_o2, d);
            if dist[k] > ee {
                dist[k] = ee;
                queue.push(std::cmp::Reverse((ee, e_uf, e_o2, d)));
            }
        }
    }
    None
}

//! Skipping pairs that cannot change the result, so that the solver does
//! not visit every pair of operations (quadratic, and more with loops
//! unrolled twice).
//!
//! For a fixed later occurrence `o2`, the pair order visits earlier
//! occurrences `o1` from the closest to the farthest, and chosen syncs are
//! only ever added while a round runs (when no sync can be widened, which
//! would move one). A conflict on pipes (src, dst) that the syncs already
//! order from time `t` to `o2` is therefore ordered for every `o1` ending
//! before `t` too, provided the proof only uses syncs visible from every
//! such `o1`: those in the scopes around `o2` and around every occurrence
//! that may still be paired with it (after `o1`, up to the first operation
//! of `o2`'s region: a loop's second copy is paired only within the loop).
//! Once every pipe any op uses is
//! settled towards both of `o2`'s pipes, no later pair with `o2` can add a
//! sync, and `o2` is done; a scope is done when all its operations are, and
//! the pair loops stop there.
//!
//! Switched off with `HIVM_GSS_NO_PRUNE=1`, which tests use to check that
//! pruning changes nothing.

use rustc_hash::FxHashMap;

use super::far::{self, Times};
use super::memory::MemInfo;
use super::pipes::{self, Pipe};
use super::tree::{Kind, OccId, Tree};

/// What two conflicting memories share: the argument position (arguments
/// of different functions with the same position conflict), the
/// allocation, the value, or, for pointer-like buffers, the address space
/// and the bytes the buffer may cover (all of the space when an address is
/// not constant).
#[derive(Hash, PartialEq, Eq, Clone)]
enum Root {
    Arg(u32),
    Alloc(hivm_ir::OpId),
    Value(hivm_ir::Value),
    Pointer(String, Option<(i128, i128)>),
}

fn root(m: &MemInfo) -> Option<Root> {
    Some(match m {
        MemInfo::FuncArg { arg_number, .. } => Root::Arg(*arg_number),
        // Without an address space, or without any slot, a buffer
        // conflicts with no other.
        MemInfo::PointerLike { space, addrs_bits, size_bits, .. } => {
            let space = space.clone()?;
            if addrs_bits.is_empty() {
                return None;
            }
            let known: Option<Vec<i64>> = addrs_bits.iter().copied().collect();
            let range = known.map(|a| {
                let lo = i128::from(*a.iter().min().unwrap());
                let hi = size_bits.map_or(i128::MAX, |s| i128::from(*a.iter().max().unwrap()) + i128::from(s));
                (lo, hi)
            });
            Root::Pointer(space, range)
        }
        MemInfo::AllocLike { op } => Root::Alloc(*op),
        MemInfo::Value(v) => Root::Value(*v),
    })
}

/// Which pipes have read and written each root so far (operations are
/// added in time order, so a query sees only earlier ones), and which may
/// touch memory that conflicts with a given root.
#[derive(Default)]
struct Touches {
    /// Root -> (pipes reading it, pipes writing it).
    by_root: FxHashMap<Root, (u32, u32)>,
    /// Per address space: its pointer roots, in `by_root`, and the union of
    /// their masks (used instead when a space has very many roots).
    spaces: FxHashMap<String, (Vec<Root>, (u32, u32))>,
}

/// Distinct pointer roots of one space compared one by one, at most.
const MAX_SCAN: usize = 256;

impl Touches {
    fn add(&mut self, r: &Root, read: u32, write: u32) {
        if let Root::Pointer(space, _) = r {
            let s = self.spaces.entry(space.clone()).or_default();
            if !self.by_root.contains_key(r) {
                s.0.push(r.clone());
            }
            s.1.0 |= read;
            s.1.1 |= write;
        }
        let e = self.by_root.entry(r.clone()).or_default();
        e.0 |= read;
        e.1 |= write;
    }

    /// (pipes reading, pipes writing) memory that may overlap `r`.
    fn around(&self, r: &Root) -> (u32, u32) {
        let Root::Pointer(space, range) = r else { return self.by_root.get(r).copied().unwrap_or_default() };
        let Some((roots, all)) = self.spaces.get(space) else { return (0, 0) };
        if roots.len() > MAX_SCAN {
            return *all;
        }
        let mut m = (0, 0);
        for other in roots {
            let Root::Pointer(_, o) = other else { continue };
            let overlap = match (range, o) {
                (Some((a, b)), Some((c, d))) => a < d && c < b,
                _ => true,
            };
            if overlap {
                let (rd, wr) = self.by_root[other];
                m.0 |= rd;
                m.1 |= wr;
            }
        }
        m
    }
}

pub struct Prune {
    /// Per occurrence: the source pipes that could conflict with it at all
    /// (towards its read pipe and its write pipe), from which roots each op
    /// touches on which pipe, coarsely (all of one address space together).
    required: Vec<[u32; 2]>,
    /// Per occurrence: pairs visited with it as the later one.
    visits: Vec<u32>,
    /// Per occurrence: the first operation of the region it can be paired
    /// within (the loop whose second copy holds it, else the function).
    region_first: Vec<Option<OccId>>,
    /// Per occurrence: source pipes settled towards its read pipe and its
    /// write pipe.
    settled: Vec<[u32; 2]>,
    /// Per occurrence: its operations (itself, or those below a scope) not
    /// yet done.
    pending: Vec<u32>,
    regbase: bool,
    /// Per loop: the ops of its second copy, which are paired only within
    /// it and so are done once the loop's own pairs are.
    closed_by: FxHashMap<OccId, Vec<OccId>>,
    /// Per pipe: the exits (`far.rs`) of the ops on it, in time order.
    exits: Vec<ExitTree>,
    /// Per occurrence: its slot in the trees of its read and write pipe.
    exit_slot: Vec<[usize; 2]>,
}

/// Ops of one pipe by start time, with a segment tree of the
/// component-wise maximum of their exits.
#[derive(Default)]
struct ExitTree {
    starts: Vec<i64>,
    seg: Vec<Times>,
}

impl ExitTree {
    fn build(&mut self, leaves: Vec<Times>) {
        let n = leaves.len();
        self.seg = vec![[i64::MIN; far::START + 1]; n];
        self.seg.extend(leaves);
        for i in (1..n).rev() {
            self.seg[i] = max_of(&self.seg[2 * i], &self.seg[2 * i + 1]);
        }
    }

    fn lower(&mut self, slot: usize, x: &Times) {
        let n = self.starts.len();
        let mut i = slot + n;
        for (a, b) in self.seg[i].iter_mut().zip(x) {
            *a = (*a).min(*b);
        }
        while i > 1 {
            i /= 2;
            self.seg[i] = max_of(&self.seg[2 * i], &self.seg[2 * i + 1]);
        }
    }

    /// The maximum over ops starting in `lo..=hi`, or None when there are none.
    fn latest(&self, lo: i64, hi: i64) -> Option<Times> {
        let n = self.starts.len();
        let (mut l, mut r) =
            (self.starts.partition_point(|s| *s < lo) + n, self.starts.partition_point(|s| *s <= hi) + n);
        if l >= r {
            return None;
        }
        let mut m = [i64::MIN; far::START + 1];
        while l < r {
            if l % 2 == 1 {
                m = max_of(&m, &self.seg[l]);
                l += 1;
            }
            if r % 2 == 1 {
                r -= 1;
                m = max_of(&m, &self.seg[r]);
            }
            l /= 2;
            r /= 2;
        }
        Some(m)
    }
}

fn max_of(a: &Times, b: &Times) -> Times {
    std::array::from_fn(|i| a[i].max(b[i]))
}

impl Prune {
    /// None when some op's pipe is outside the bit set, or when disabled.
    pub fn new(tree: &Tree, regbase: bool) -> Option<Prune> {
        if std::env::var_os("HIVM_GSS_NO_PRUNE").is_some_and(|v| v != "0") {
            return None;
        }
        if tree.nodes.iter().filter_map(|n| n.rw.as_ref()).any(|rw| rw.pipe_read >= 32 || rw.pipe_write >= 32) {
            return None;
        }
        let mut ops: Vec<OccId> = (0..tree.occs.len())
            .filter(|o| tree.kind_of_occ(*o) == Kind::Rw && tree.nodes[tree.occs[*o].node].rw.is_some())
            .collect();
        ops.sort_by_key(|o| tree.occs[*o].start);
        // What may conflict with each operation among those before it (an
        // occurrence is only ever paired with earlier ones).
        let mut touches = Touches::default();
        let mut required = vec![[0u32; 2]; tree.occs.len()];
        let mut pending = vec![0u32; tree.occs.len()];
        for &o in &ops {
            let rw = tree.nodes[tree.occs[o].node].rw.as_ref().expect("an operation");
            let reads: Vec<Root> = rw.reads.iter().filter_map(root).collect();
            let writes: Vec<Root> = rw.writes.iter().filter_map(root).collect();
            for r in &reads {
                required[o][0] |= touches.around(r).1;
            }
            for r in &writes {
                let (rd, wr) = touches.around(r);
                required[o][1] |= rd | wr;
            }
            for r in &reads {
                touches.add(r, 1 << rw.pipe_read, 0);
            }
            for r in &writes {
                touches.add(r, 0, 1 << rw.pipe_write);
            }
            let mut cur = Some(o);
            while let Some(c) = cur {
                pending[c] += 1;
                cur = tree.occs[c].parent;
            }
        }
        // The first operation below each occurrence.
        let mut first = vec![None; tree.occs.len()];
        for &o in &ops {
            let mut cur = Some(o);
            while let Some(c) = cur {
                if first[c].is_some() {
                    break;
                }
                first[c] = Some(o);
                cur = tree.occs[c].parent;
            }
        }
        // Occurrences in a loop's second copy are paired only within the
        // loop (`skip_later_iterations`); others with the whole function.
        let mut region_first = vec![None; tree.occs.len()];
        let mut closed_by: FxHashMap<OccId, Vec<OccId>> = FxHashMap::default();
        for &o in &ops {
            let mut region = 0;
            let mut a = o;
            while let Some(p) = tree.occs[a].parent {
                if tree.occs[p].split.is_some_and(|s| tree.occs[a].index >= s) {
                    region = p;
                    break;
                }
                a = p;
            }
            region_first[o] = first[region];
            if region != 0 {
                closed_by.entry(region).or_default().push(o);
            }
        }
        // Exits start as the op's own end only, until its scope is solved.
        let mut exits: Vec<ExitTree> = (0..far::PIPES).map(|_| ExitTree::default()).collect();
        let mut leaves: Vec<Vec<Times>> = vec![Vec::new(); far::PIPES];
        let mut exit_slot = vec![[usize::MAX; 2]; tree.occs.len()];
        for &o in &ops {
            let rw = tree.nodes[tree.occs[o].node].rw.as_ref().expect("an operation");
            for (i, p) in [rw.pipe_read, rw.pipe_write].into_iter().enumerate() {
                let p = usize::from(p);
                if p >= far::PIPES {
                    continue;
                }
                if i == 1 && rw.pipe_read == rw.pipe_write {
                    exit_slot[o][1] = exit_slot[o][0];
                    continue;
                }
                exit_slot[o][i] = exits[p].starts.len();
                exits[p].starts.push(tree.occs[o].start);
                let mut leaf = [i64::MAX; far::START + 1];
                leaf[far::START] = tree.occs[o].end;
                leaves[p].push(leaf);
            }
        }
        for (e, l) in exits.iter_mut().zip(leaves) {
            e.build(l);
        }
        let mut p = Prune {
            closed_by,
            exits,
            exit_slot,
            region_first,
            required,
            visits: vec![0; tree.occs.len()],
            settled: vec![[0, 0]; tree.occs.len()],
            pending,
            regbase,
        };
        // Operations nothing can conflict with are done from the start.
        for o in 0..tree.occs.len() {
            if tree.kind_of_occ(o) == Kind::Rw && tree.nodes[tree.occs[o].node].rw.is_some() {
                p.check_done(tree, o);
            }
        }
        Some(p)
    }

    /// Counts a visited pair with `o2`; true when it is time to try to
    /// settle the pipes no conflict has settled yet (after 1, 2, 4, ...
    /// visits, so that an occurrence that never settles costs little).
    pub fn visit(&mut self, o2: OccId) -> bool {
        self.visits[o2] += 1;
        self.visits[o2].is_power_of_two()
    }

    /// The (src, dst) pairs still open for `o2`.
    pub fn open(&self, tree: &Tree, o2: OccId) -> Vec<(Pipe, Pipe)> {
        let rw = tree.nodes[tree.occs[o2].node].rw.as_ref().expect("an operation");
        let mut out = Vec::new();
        for (i, d) in [rw.pipe_read, rw.pipe_write].into_iter().enumerate() {
            let missing = self.required[o2][i] & !self.settled[o2][i] & !self.trivial(d);
            for s in 0..32 {
                if missing & (1 << s) != 0 && !out.contains(&(s as Pipe, d)) {
                    out.push((s as Pipe, d));
                }
            }
        }
        out
    }

    pub fn is_done(&self, o: OccId) -> bool {
        self.pending[o] == 0
    }

    /// The deepest occurrence above (or at) every occurrence that may still
    /// be paired with `o2` after `o1`: all of them lie between the first
    /// operation of `o2`'s region and `o1`.
    pub fn remaining_lca(&self, tree: &Tree, o1: OccId, o2: OccId) -> OccId {
        self.region_first[o2].map_or(0, |first| tree.lca(first, o1))
    }

    /// Records what `far::exits` found for op `o` on its pipe `p`.
    pub fn lower_exits(&mut self, tree: &Tree, o: OccId, p: Pipe, x: &Times) {
        let rw = tree.nodes[tree.occs[o].node].rw.as_ref().expect("an operation");
        let i = if p == rw.pipe_read { 0 } else { 1 };
        let slot = self.exit_slot[o][i];
        if slot != usize::MAX {
            self.exits[usize::from(p)].lower(slot, x);
        }
    }

    /// The start of `o2`'s region (where the remaining ops begin).
    pub fn region_start(&self, tree: &Tree, o2: OccId) -> i64 {
        self.region_first[o2].map_or(i64::MIN, |f| tree.occs[f].start)
    }

    /// Whether every `src`-pipe op starting in `lo..=hi` meets `thr` with
    /// one common component (`far.rs`).
    pub fn all_meet(&self, src: Pipe, lo: i64, hi: i64, thr: &Times) -> bool {
        let Some(tree) = self.exits.get(usize::from(src)) else { return false };
        match tree.latest(lo, hi) {
            None => true,
            Some(m) => m.iter().zip(thr).any(|(a, b)| a <= b && *a != i64::MAX),
        }
    }

    /// Whether (src, dst) is known settled for `o2`.
    pub fn is_settled(&self, tree: &Tree, o2: OccId, src: Pipe, dst: Pipe) -> bool {
        let rw = tree.nodes[tree.occs[o2].node].rw.as_ref().expect("an operation");
        let bit = 1u32.checked_shl(src as u32).unwrap_or(0);
        (dst == rw.pipe_read && self.settled[o2][0] & bit != 0)
            || (dst == rw.pipe_write && self.settled[o2][1] & bit != 0)
    }

    /// Records that (src, dst) is settled for `o2`; marks `o2` done when
    /// every pipe is settled towards both of its pipes.
    pub fn settle(&mut self, tree: &Tree, o2: OccId, src: Pipe, dst: Pipe) {
        if self.pending[o2] == 0 {
            return;
        }
        let rw = tree.nodes[tree.occs[o2].node].rw.as_ref().expect("an operation");
        let bit = 1u32.checked_shl(src as u32).unwrap_or(0);
        let pipes_of = [rw.pipe_read, rw.pipe_write];
        for (i, p) in pipes_of.iter().enumerate() {
            if *p == dst {
                self.settled[o2][i] |= bit;
            }
        }
        self.check_done(tree, o2);
    }

    fn check_done(&mut self, tree: &Tree, o2: OccId) {
        let rw = tree.nodes[tree.occs[o2].node].rw.as_ref().expect("an operation");
        let pipes_of = [rw.pipe_read, rw.pipe_write];
        let done = pipes_of
            .iter()
            .enumerate()
            .all(|(i, d)| self.required[o2][i] & !self.settled[o2][i] & !self.trivial(*d) == 0);
        if done {
            self.mark_done(tree, o2);
        }
    }

    fn mark_done(&mut self, tree: &Tree, o: OccId) {
        if self.pending[o] > 0 {
            let mut cur = Some(o);
            while let Some(c) = cur {
                self.pending[c] -= 1;
                cur = tree.occs[c].parent;
            }
        }
    }

    /// Called once every pair within `occ` has been visited: the ops that
    /// can only be paired within it are done (no outer pair loop needs to
    /// reach them).
    pub fn close(&mut self, tree: &Tree, occ: OccId) {
        for o in self.closed_by.remove(&occ).unwrap_or_default() {
            self.mark_done(tree, o);
        }
    }

    /// Pairs on one pipe that never get a barrier (the scalar pipe, and the
    /// vector pipe on register-based targets).
    fn trivial(&self, p: Pipe) -> u32 {
        if p == pipes::S || (self.regbase && p == pipes::V) { 1 << p } else { 0 }
    }
}

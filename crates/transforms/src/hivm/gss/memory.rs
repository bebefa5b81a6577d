//! GSS's memory model (spec sync-solver.md §3.2–§3.5, §4.4): which memory an
//! operand touches and when two accesses may overlap.
//!
//! * [`Tracer`] walks an operand back to its *memory roots* (upstream
//!   `IRTranslator::tracebackMemVals`): loop-carried values, `scf.if` /
//!   `scf.for` / `scf.while` results, block arguments reached through
//!   `cf.br` / `cf.cond_br`, view-like ops and DPS results are followed until
//!   a function argument, `hivm.hir.pointer_cast`,
//!   `memref_ext.alloc_workspace`, `tensor.empty` or `memref.alloc` is reached.
//! * [`mem_info`] describes one root ([`MemInfo`], upstream `MemInfo::getMemInfo`):
//!   a function argument, a pointer-like buffer (addresses in bits, size in
//!   bits, address space, parent loop, optional subview), an allocation, or a
//!   bare value.
//! * [`conflicts`] / [`conflicts_multi_buffer`] / [`check_conflict`] are
//!   upstream's `MemInfo::checkConflict`, with and without the multi-buffer
//!   filter of §3.4.
//! * [`parent_loop`] is HIVM's `getParentLoop`, and [`multi_buffer_loop`] /
//!   [`multi_buffer_event_id_num`] are the memory half of upstream's
//!   multi-buffer decision (`getMultiBufferScope`, `getMultiBufferEventIdNum`,
//!   §4.4).
//!
//! Only intra-core mode is modelled. Upstream's cross-core and
//! CV-preloading extras (`offsetPair`, tester counters, work-space and
//! tightly-coupled flags) have no use there and are left out.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use hivm_dialects::hivm::attrs::enum_value;
use hivm_dialects::util::{i64_array, segment};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{AttrData, Ir, OpId, Traits, TypeData, Value, ValueDef};

use crate::bufferize::interface::{Kind, dps_outs, kind};

/// Bits per byte: `pointer_cast` addresses are bytes, GSS compares bits.
const BITS_PER_BYTE: i64 = 8;

/// The static description of a `memref.subview` taken directly from a
/// `pointer_cast` (upstream `SubviewInfo`). Each entry is the constant value
/// of that offset / size / stride (a static entry, or a dynamic operand
/// defined by a constant), or `None` when it is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubviewInfo {
    /// The subview's result.
    pub subview: Value,
    /// The subview's source: the `pointer_cast` result.
    pub source: Value,
    pub offsets: Vec<Option<i64>>,
    pub sizes: Vec<Option<i64>>,
    pub strides: Vec<Option<i64>>,
}

/// One memory root of an access (upstream `MemInfo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemInfo {
    /// A block argument of a `func.func` region. Two of them conflict iff they
    /// are the same argument; arguments of two different functions conflict
    /// iff they have the same position (upstream keeps this for delayed
    /// cross-core GSS).
    FuncArg { arg: Value, func: OpId, arg_number: u32 },
    /// A `hivm.hir.pointer_cast` (or `memref_ext.alloc_workspace`) root.
    PointerLike {
        /// The `pointer_cast` / `alloc_workspace` op.
        root: OpId,
        /// One address per buffer slot, in bits (constant byte address × 8);
        /// `None` = not a constant (dynamic).
        addrs_bits: Vec<Option<i64>>,
        /// Element bits × static shape; `None` when some dimension (or the
        /// element width) is not static.
        size_bits: Option<i64>,
        /// The `#hivm.address_space<...>` value (`ub`, `cbuf`, `gm`, ...);
        /// `None` when the type carries no HIVM address space, in which case
        /// the buffer conflicts with no other pointer-like buffer (upstream).
        space: Option<String>,
        /// [`parent_loop`] of the root.
        parent_loop: Option<OpId>,
        /// Set when the traced operand was a subview taken directly from the
        /// `pointer_cast` (the subview refinement of §3.3).
        subview: Option<SubviewInfo>,
    },
    /// A `memref.alloc`: conflicts only with the same op.
    AllocLike { op: OpId },
    /// Any other root (`tensor.empty`, block arguments of non-function
    /// regions without predecessors): conflicts only with the same value.
    Value(Value),
}

impl MemInfo {
    /// The number of buffer slots (upstream `getSz`): the address count of a
    /// pointer-like root, 1 otherwise.
    pub fn slots(&self) -> usize {
        match self {
            MemInfo::PointerLike { addrs_bits, .. } => addrs_bits.len(),
            _ => 1,
        }
    }

    /// Whether this is a pointer-like root.
    pub fn is_pointer_like(&self) -> bool {
        matches!(self, MemInfo::PointerLike { .. })
    }

    /// The parent loop of a pointer-like root.
    pub fn parent_loop(&self) -> Option<OpId> {
        match self {
            MemInfo::PointerLike { parent_loop, .. } => *parent_loop,
            _ => None,
        }
    }
}

// ----- tracing -----

/// Traces operands back to their memory roots (upstream
/// `IRTranslator::tracebackMemVals` / `getMemoryOps`).
///
/// Upstream learns which values flow into a block argument through
/// `cf.br` / `cf.cond_br` *while* it walks the function, so a branch seen
/// later in block order (a back edge) is unknown when earlier ops are traced.
/// A translator that wants that exact behaviour calls [`Tracer::record_branch`]
/// as it meets each branch; [`Tracer::for_function`] records all of them up
/// front.
#[derive(Clone, Debug)]
pub struct Tracer {
    /// Upstream option `enable-subview-conflict-refinement` (default on): an
    /// operand that is a `memref.subview` of a `pointer_cast` is kept as its
    /// own root so disjoint static subviews can be told apart.
    pub refine_subviews: bool,
    block_arg_aliases: FxHashMap<Value, Vec<Value>>,
}

impl Default for Tracer {
    fn default() -> Self {
        Tracer::new()
    }
}

impl Tracer {
    /// A tracer with subview refinement on and no branch aliases recorded.
    pub fn new() -> Tracer {
        Tracer { refine_subviews: true, block_arg_aliases: FxHashMap::default() }
    }

    /// A tracer that knows every `cf.br` / `cf.cond_br` in the top-level
    /// blocks of `func` (in block order).
    pub fn for_function(ir: &Ir, func: OpId) -> Tracer {
        let mut t = Tracer::new();
        for &r in ir.regions(func) {
            for &b in ir.region_blocks(r) {
                for op in ir.block_ops(b) {
                    t.record_branch(ir, op);
                }
            }
        }
        t
    }

    /// Records the block-argument aliases of a `cf.br` / `cf.cond_br`
    /// (upstream `updateBlockArgAliases`); other ops are ignored.
    pub fn record_branch(&mut self, ir: &Ir, op: OpId) {
        let dests: Vec<(usize, usize)> = match ir.op_name(op) {
            "cf.br" => vec![(0, usize::MAX)],
            "cf.cond_br" => vec![(0, 1), (1, 2)],
            _ => return,
        };
        for (succ, seg) in dests {
            let Some(&block) = ir.successors(op).get(succ) else { continue };
            let operands = if seg == usize::MAX { ir.operands(op) } else { segment(ir, op, seg) };
            for (&arg, &v) in ir.block_args(block).iter().zip(operands) {
                self.block_arg_aliases.entry(arg).or_default().push(v);
            }
        }
    }

    /// The root values of `v`, breadth-first, each once, in discovery order.
    /// Values that are neither memrefs nor tensors (scalars) have no roots.
    pub fn root_values(&self, ir: &Ir, v: Value) -> Vec<Value> {
        let mut out = Vec::new();
        if !is_buffer_like(ir, v) {
            return out;
        }
        let mut seen_out = FxHashSet::default();
        let mut visited = FxHashSet::from_iter([v]);
        let mut queue = VecDeque::from([v]);
        while let Some(cur) = queue.pop_front() {
            // Only the original operand may stop at a subview of a pointer_cast.
            if self.refine_subviews && cur == v && subview_of_pointer_cast(ir, cur).is_some() {
                if seen_out.insert(cur) {
                    out.push(cur);
                }
                continue;
            }
            let next = self.step(ir, cur);
            if !next.is_empty() {
                for n in next {
                    if visited.insert(n) {
                        queue.push_back(n);
                    }
                }
                continue;
            }
            let is_root = match ir.value_def(cur) {
                ValueDef::BlockArg { .. } => true,
                ValueDef::Result { op, .. } => matches!(
                    ir.op_name(op),
                    "hivm.hir.pointer_cast" | "memref_ext.alloc_workspace" | "tensor.empty" | "memref.alloc"
                ),
                ValueDef::Placeholder => false,
            };
            if is_root && seen_out.insert(cur) {
                out.push(cur);
            }
        }
        out
    }

    /// The root values of several operands, concatenated without duplicates
    /// (upstream `getMemoryOps`).
    pub fn root_values_of(&self, ir: &Ir, vs: &[Value]) -> Vec<Value> {
        let mut seen = FxHashSet::default();
        let mut out = Vec::new();
        for &v in vs {
            for r in self.root_values(ir, v) {
                if seen.insert(r) {
                    out.push(r);
                }
            }
        }
        out
    }

    /// [`mem_info`] of each of [`Tracer::root_values`].
    pub fn roots(&self, ir: &Ir, v: Value) -> Vec<MemInfo> {
        self.root_values(ir, v).into_iter().map(|r| mem_info(ir, r)).collect()
    }

    /// [`mem_info`] of each of [`Tracer::root_values_of`]: the read or write
    /// set of an op whose read (or written) operands are `vs` (§3.2: reads =
    /// the DPS inputs; writes = the DPS inits followed by the extra
    /// `temp_buffers`, which gives the same list as upstream's merge).
    pub fn roots_of(&self, ir: &Ir, vs: &[Value]) -> Vec<MemInfo> {
        self.root_values_of(ir, vs).into_iter().map(|r| mem_info(ir, r)).collect()
    }

    /// One step back (upstream `tracebackMemValsStep`): the values `v` may
    /// come from, or nothing when `v` is a root or an unknown value.
    fn step(&self, ir: &Ir, v: Value) -> Vec<Value> {
        let mut out = Vec::new();
        match ir.value_def(v) {
            ValueDef::BlockArg { block, index } => {
                let index = index as usize;
                if let Some(p) = ir.block_parent_op(block) {
                    match ir.op_name(p) {
                        "scf.for" if index >= 1 => {
                            // Block args: induction variable, then iter_args;
                            // operands: lb, ub, step, then inits.
                            out.extend(ir.operands(p).get(3 + index - 1).copied());
                            out.extend(terminator_operand(ir, block, index - 1));
                        }
                        "scf.while" => {
                            let regions = ir.regions(p);
                            if ir.block_parent(block) == regions.first().copied() {
                                out.extend(ir.operands(p).get(index).copied());
                                if let Some(after) = regions.get(1).and_then(|r| ir.region_blocks(*r).first()) {
                                    out.extend(terminator_operand(ir, *after, index));
                                }
                            } else if let Some(before) = regions.first().and_then(|r| ir.region_blocks(*r).first()) {
                                // scf.condition(%cond) %args...
                                out.extend(terminator_operand(ir, *before, index + 1));
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(a) = self.block_arg_aliases.get(&v) {
                    out.extend(a.iter().copied());
                }
            }
            ValueDef::Result { op, index } => {
                let index = index as usize;
                let entry = |i: usize| ir.regions(op).get(i).and_then(|r| ir.region_blocks(*r).first().copied());
                match ir.op_name(op) {
                    "scf.if" => {
                        for b in [entry(0), entry(1)].into_iter().flatten() {
                            out.extend(terminator_operand(ir, b, index));
                        }
                    }
                    "scf.for" => out.extend(entry(0).and_then(|b| terminator_operand(ir, b, index))),
                    "scf.while" => {
                        out.extend(entry(0).and_then(|b| terminator_operand(ir, b, index + 1)));
                        out.extend(entry(1).and_then(|b| terminator_operand(ir, b, index)));
                    }
                    "scope.scope" => out.extend(entry(0).and_then(|b| terminator_operand(ir, b, index))),
                    _ => {}
                }
                match alias_sources(ir, op) {
                    Some(pairs) => {
                        out.extend(pairs.into_iter().filter(|(res, _)| *res == index).map(|(_, src)| src));
                    }
                    None => out.extend(dps_inits(ir, op).iter().copied()),
                }
            }
            ValueDef::Placeholder => {}
        }
        out
    }
}

/// Whether `v` is a memref or a tensor (the values that can name memory).
fn is_buffer_like(ir: &Ir, v: Value) -> bool {
    matches!(
        ir.type_data(ir.value_type(v)),
        TypeData::MemRef { .. }
            | TypeData::UnrankedMemRef { .. }
            | TypeData::RankedTensor { .. }
            | TypeData::UnrankedTensor { .. }
    )
}

/// Operand `i` of the terminator of `block`.
fn terminator_operand(ir: &Ir, block: hivm_ir::BlockId, i: usize) -> Option<Value> {
    ir.terminator(block).and_then(|t| ir.operands(t).get(i).copied())
}

/// Upstream `getOperationAliasInfo`: (result index, aliased value) pairs for
/// ops whose results alias an operand; `None` for every other op.
fn alias_sources(ir: &Ir, op: OpId) -> Option<Vec<(usize, Value)>> {
    let first = |i: usize| ir.operands(op).get(i).copied();
    Some(match ir.op_name(op) {
        "arith.select" => [first(1), first(2)].into_iter().flatten().map(|v| (0, v)).collect(),
        "bufferization.to_memref"
        | "bufferization.to_buffer"
        | "bufferization.to_tensor"
        | "hivm.hir.bitcast"
        | "memref.cast"
        | "memref.collapse_shape"
        | "memref.expand_shape"
        | "memref.extract_strided_metadata"
        | "memref.memory_space_cast"
        | "memref.reinterpret_cast"
        | "memref.reshape"
        | "memref.subview"
        | "memref.transpose"
        | "memref.view"
        | "tensor.collapse_shape"
        | "tensor.expand_shape"
        | "tensor.extract_slice" => first(0).into_iter().map(|v| (0, v)).collect(),
        "scope.scope" => {
            let b = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first().copied());
            let ret = b.and_then(|b| ir.terminator(b));
            ret.map(|t| ir.operands(t).iter().copied().enumerate().collect()).unwrap_or_default()
        }
        _ => return None,
    })
}

/// The init (`outs`) operands of a destination-style op, empty for other ops.
/// DPS here is what the bufferizer treats as DPS (HIVM structured ops,
/// custom ops, `linalg.fill`, `tensor.insert(_slice)`) plus
/// `bufferization.materialize_in_destination`.
fn dps_inits(ir: &Ir, op: OpId) -> &[Value] {
    if ir.is_op(op, "bufferization.materialize_in_destination") {
        return ir.operands(op).get(1..2).unwrap_or(&[]);
    }
    if kind(ir, op) == Some(Kind::Dps) {
        return ir.operands(op).get(dps_outs(ir, op)).unwrap_or(&[]);
    }
    &[]
}

/// The `pointer_cast` a `memref.subview` result is directly taken from.
fn subview_of_pointer_cast(ir: &Ir, v: Value) -> Option<(OpId, OpId)> {
    let sv = ir.defining_op(v).filter(|&o| ir.is_op(o, "memref.subview"))?;
    let src = *ir.operands(sv).first()?;
    let pc = ir.defining_op(src).filter(|&o| ir.is_op(o, "hivm.hir.pointer_cast"))?;
    Some((sv, pc))
}

/// Every root of `v` (see [`Tracer`]), with branch aliases taken from the
/// whole enclosing function. Convenient for one-off queries; a translator
/// walking a function should keep one [`Tracer`] instead.
pub fn trace_roots(ir: &Ir, v: Value) -> Vec<MemInfo> {
    let tracer = match enclosing_func(ir, v) {
        Some(f) => Tracer::for_function(ir, f),
        None => Tracer::new(),
    };
    tracer.roots(ir, v)
}

fn enclosing_func(ir: &Ir, v: Value) -> Option<OpId> {
    let mut op = match ir.value_def(v) {
        ValueDef::Result { op, .. } => Some(op),
        ValueDef::BlockArg { block, .. } => ir.block_parent_op(block),
        ValueDef::Placeholder => None,
    };
    while let Some(o) = op {
        if ir.is_op(o, "func.func") {
            return Some(o);
        }
        op = ir.parent_op(o);
    }
    None
}

// ----- root descriptions -----

/// Describes one root value (upstream `MemInfo::getMemInfo`), trying in
/// order: function argument, pointer-like, `memref.alloc`, subview of a
/// `pointer_cast` (described as that pointer_cast plus the subview), else
/// the bare value.
pub fn mem_info(ir: &Ir, v: Value) -> MemInfo {
    if let ValueDef::BlockArg { block, index } = ir.value_def(v)
        && let Some(f) = ir.block_parent_op(block).filter(|&f| ir.is_op(f, "func.func"))
    {
        return MemInfo::FuncArg { arg: v, func: f, arg_number: index };
    }
    if let Some(op) = ir.defining_op(v) {
        match ir.op_name(op) {
            "hivm.hir.pointer_cast" | "memref_ext.alloc_workspace" => return pointer_like(ir, op, None),
            "memref.alloc" => return MemInfo::AllocLike { op },
            _ => {}
        }
    }
    if let Some((sv, pc)) = subview_of_pointer_cast(ir, v) {
        return pointer_like(ir, pc, Some(subview_info(ir, sv)));
    }
    MemInfo::Value(v)
}

/// Upstream `PointerLikeInfo::tryGet` for a `pointer_cast` (addresses =
/// the first operand segment) or an `alloc_workspace` (addresses = its
/// `offset` operands, always in GM).
fn pointer_like(ir: &Ir, root: OpId, subview: Option<SubviewInfo>) -> MemInfo {
    let result = ir.result(root, 0);
    let ty = ir.value_type(result);
    let (addrs, space) = if ir.is_op(root, "memref_ext.alloc_workspace") {
        (segment(ir, root, 2), Some("gm".to_string()))
    } else {
        (segment(ir, root, 0), memory_space(ir, ty))
    };
    MemInfo::PointerLike {
        root,
        addrs_bits: addrs.iter().map(|&a| address_bits(ir, a)).collect(),
        size_bits: bit_size(ir, ty),
        space,
        parent_loop: parent_loop(ir, root),
        subview,
    }
}

/// A constant `arith.constant` byte address, in bits (upstream `getAddresses`).
fn address_bits(ir: &Ir, a: Value) -> Option<i64> {
    let op = ir.defining_op(a).filter(|&o| ir.is_op(o, "arith.constant"))?;
    match ir.attr_data(ir.get_attr(op, "value")?) {
        AttrData::Integer { value, .. } => Some((*value as i64).wrapping_mul(BITS_PER_BYTE)),
        _ => None,
    }
}

/// `#hivm.address_space<X>` of a memref type.
fn memory_space(ir: &Ir, t: hivm_ir::Type) -> Option<String> {
    match ir.type_data(t) {
        TypeData::MemRef { memory_space: Some(a), .. } | TypeData::UnrankedMemRef { memory_space: Some(a), .. } => {
            enum_value(ir, *a, "address_space").map(str::to_string)
        }
        _ => None,
    }
}

/// Element bits × static shape (upstream `GetBufferBitSize`); `None` if any
/// dimension is dynamic or the element has no fixed width.
fn bit_size(ir: &Ir, t: hivm_ir::Type) -> Option<i64> {
    let TypeData::MemRef { shape, elem, .. } = ir.type_data(t) else { return None };
    let mut bits = match ir.type_data(*elem) {
        TypeData::Integer { width, .. } => i64::from(*width),
        TypeData::Index => 64,
        TypeData::Float(k) => i64::from(k.bit_width()),
        _ => return None,
    };
    for &d in shape {
        if d == DYNAMIC {
            return None;
        }
        bits = bits.wrapping_mul(d);
    }
    Some(bits)
}

/// Offsets, sizes and strides of a subview, resolved to constants where
/// possible (upstream keeps `OpFoldResult`s and calls `getConstantIntValue`).
fn subview_info(ir: &Ir, sv: OpId) -> SubviewInfo {
    let mut lists = Vec::new();
    for (i, name) in ["static_offsets", "static_sizes", "static_strides"].into_iter().enumerate() {
        let mut dynamic = segment(ir, sv, i + 1).iter();
        let list: Vec<Option<i64>> = i64_array(ir, sv, name)
            .into_iter()
            .map(|s| {
                if s == DYNAMIC {
                    dynamic.next().and_then(|&d| hivm_dialects::util::constant_int(ir, d))
                } else {
                    Some(s)
                }
            })
            .collect();
        lists.push(list);
    }
    let strides = lists.pop().unwrap_or_default();
    let sizes = lists.pop().unwrap_or_default();
    let offsets = lists.pop().unwrap_or_default();
    SubviewInfo { subview: ir.result(sv, 0), source: ir.operand(sv, 0), offsets, sizes, strides }
}

// ----- conflicts -----

/// Whether two roots may overlap (upstream `MemInfo::checkConflict` with
/// subview refinement on and no multi-buffer filter).
pub fn conflicts(a: &MemInfo, b: &MemInfo) -> bool {
    check_conflict(a, b, None, true)
}

/// The multi-buffer filter of §3.4 (`checkConflict(lcmLen, eventIdNum)`):
/// whether some slots `i`, `j` in `0..lcm_len` with `i ≢ j (mod
/// event_id_num)` — slots that do not share an event id — overlap. Roots
/// that are not both pointer-like ignore the filter.
pub fn conflicts_multi_buffer(a: &MemInfo, b: &MemInfo, lcm_len: usize, event_id_num: usize) -> bool {
    check_conflict(a, b, Some((lcm_len, event_id_num)), true)
}

/// The general predicate: the underlying memory must conflict (optionally
/// under the multi-buffer filter `(lcm_len, event_id_num)`), and, when
/// `refine_subviews`, the subviews must not be provably disjoint.
pub fn check_conflict(a: &MemInfo, b: &MemInfo, multi: Option<(usize, usize)>, refine_subviews: bool) -> bool {
    underlying_conflict(a, b, multi) && (!refine_subviews || subview_conflict(a, b))
}

fn underlying_conflict(a: &MemInfo, b: &MemInfo, multi: Option<(usize, usize)>) -> bool {
    match (a, b) {
        (
            MemInfo::FuncArg { arg: a1, func: f1, arg_number: n1 },
            MemInfo::FuncArg { arg: a2, func: f2, arg_number: n2 },
        ) => {
            if f1 == f2 {
                a1 == a2
            } else {
                n1 == n2
            }
        }
        (
            MemInfo::PointerLike { addrs_bits: x1, size_bits: s1, space: sp1, .. },
            MemInfo::PointerLike { addrs_bits: x2, size_bits: s2, space: sp2, .. },
        ) => {
            let (Some(sp1), Some(sp2)) = (sp1, sp2) else { return false };
            sp1 == sp2 && pointer_overlap(x1, *s1, x2, *s2, multi)
        }
        (MemInfo::AllocLike { op: o1 }, MemInfo::AllocLike { op: o2 }) => o1 == o2,
        (MemInfo::Value(v1), MemInfo::Value(v2)) => v1 == v2,
        // Upstream compares the roots' values here; different kinds of root
        // never share a value.
        _ => false,
    }
}

/// Upstream `PointerLikeInfo::checkConflict` for buffers in one space.
fn pointer_overlap(
    x1: &[Option<i64>],
    s1: Option<i64>,
    x2: &[Option<i64>],
    s2: Option<i64>,
    multi: Option<(usize, usize)>,
) -> bool {
    let (n1, n2) = (x1.len(), x2.len());
    if n1 == 0 || n2 == 0 {
        return false;
    }
    let (len1, len2) = match multi {
        Some((lcm, _)) => (lcm, lcm),
        None => (n1, n2),
    };
    let ids = multi.map(|(_, n)| n).filter(|&n| n > 0);
    for i in 0..len1 {
        for j in 0..len2 {
            if ids.is_some_and(|n| i % n == j % n) {
                continue;
            }
            let (Some(o1), Some(o2)) = (x1[i % n1], x2[j % n2]) else { return true };
            let (o1, o2) = (i128::from(o1), i128::from(o2));
            // [o1, o1 + s1) and [o2, o2 + s2) are disjoint when either ends
            // before the other starts; an unknown size never ends.
            if s1.is_some_and(|s| o1 + i128::from(s) <= o2) || s2.is_some_and(|s| o2 + i128::from(s) <= o1) {
                continue;
            }
            return true;
        }
    }
    false
}

/// Upstream `checkSubviewConflict`: only two subviews of the same
/// `pointer_cast` with provably disjoint static slices do not conflict.
fn subview_conflict(a: &MemInfo, b: &MemInfo) -> bool {
    let (MemInfo::PointerLike { subview: Some(s1), .. }, MemInfo::PointerLike { subview: Some(s2), .. }) = (a, b)
    else {
        return true;
    };
    if s1.source != s2.source {
        return true;
    }
    // Unknown or dynamic bounds remain conflicting.
    overlapping_static_slices(s1, s2).unwrap_or(true)
}

/// Upstream `areOverlappingStaticSlices`: `Some(false)` when some dimension
/// separates the slices (or one is empty), `Some(true)` when every dimension
/// is static and overlaps, `None` when it cannot be decided. A slice covers
/// `[offset, offset + size * stride)` in each dimension.
fn overlapping_static_slices(s1: &SubviewInfo, s2: &SubviewInfo) -> Option<bool> {
    let rank = s1.offsets.len();
    if [s1.sizes.len(), s1.strides.len(), s2.offsets.len(), s2.sizes.len(), s2.strides.len()].iter().any(|&l| l != rank)
    {
        return None;
    }
    let mut unknown = false;
    for d in 0..rank {
        let dims = (s1.offsets[d], s1.sizes[d], s1.strides[d], s2.offsets[d], s2.sizes[d], s2.strides[d]);
        let (Some(o1), Some(z1), Some(t1), Some(o2), Some(z2), Some(t2)) = dims else {
            unknown = true;
            continue;
        };
        if z1 < 0 || z2 < 0 || t1 <= 0 || t2 <= 0 {
            unknown = true;
            continue;
        }
        if z1 == 0 || z2 == 0 {
            return Some(false);
        }
        let end1 = z1.checked_mul(t1).and_then(|x| x.checked_add(o1));
        let end2 = z2.checked_mul(t2).and_then(|x| x.checked_add(o2));
        let (Some(end1), Some(end2)) = (end1, end2) else {
            unknown = true;
            continue;
        };
        if end1 <= o2 || end2 <= o1 {
            return Some(false);
        }
    }
    if unknown { None } else { Some(true) }
}

// ----- multi-buffer -----

/// The read and write roots of one RW op.
#[derive(Clone, Copy, Debug)]
pub struct Accesses<'a> {
    pub reads: &'a [MemInfo],
    pub writes: &'a [MemInfo],
}

/// The (earlier op's, later op's) root lists whose conflicts order two ops,
/// in upstream's order: read×write (WAR), write×read (RAW), write×write (WAW).
fn conflict_lists<'a>(a: Accesses<'a>, b: Accesses<'a>) -> [(&'a [MemInfo], &'a [MemInfo]); 3] {
    [(a.reads, b.writes), (a.writes, b.reads), (a.writes, b.writes)]
}

fn any_conflict(l1: &[MemInfo], l2: &[MemInfo], multi: Option<(usize, usize)>) -> bool {
    l1.iter().any(|m1| l2.iter().any(|m2| check_conflict(m1, m2, multi, true)))
}

/// The loop whose iterations rotate the buffers shared by `op1` (earlier)
/// and `op2` (later), upstream `getMultiBufferScope`: every conflicting pair
/// of roots must be pointer-like with the same [`parent_loop`], and that loop
/// must contain both ops. `None` when there is no such loop.
///
/// Upstream quirk kept: the three conflict kinds (WAR, RAW, WAW) are checked
/// in turn, and a kind that fails only makes the whole query fail when an
/// earlier kind had produced a loop; a later kind may produce one again.
pub fn multi_buffer_loop(ir: &Ir, op1: OpId, a1: Accesses<'_>, op2: OpId, a2: Accesses<'_>) -> Option<OpId> {
    let mut found: Option<OpId> = None;
    for (l1, l2) in conflict_lists(a1, a2) {
        if !any_conflict(l1, l2, None) {
            continue;
        }
        let cur = multi_buffer_loop_of(ir, op1, l1, op2, l2);
        if found.is_some() && found != cur {
            return None;
        }
        found = cur;
    }
    found
}

fn multi_buffer_loop_of(ir: &Ir, op1: OpId, l1: &[MemInfo], op2: OpId, l2: &[MemInfo]) -> Option<OpId> {
    let mut found: Option<OpId> = None;
    for m1 in l1 {
        for m2 in l2 {
            if !check_conflict(m1, m2, None, true) {
                continue;
            }
            if !m1.is_pointer_like() || !m2.is_pointer_like() {
                return None;
            }
            let (lp1, lp2) = (m1.parent_loop()?, m2.parent_loop()?);
            if lp1 != lp2 || !is_nested_in(ir, op1, lp1) || !is_nested_in(ir, op2, lp2) {
                return None;
            }
            if found.is_some_and(|f| f != lp1) {
                return None;
            }
            found = Some(lp1);
        }
    }
    found
}

/// Whether `op` lies (strictly) inside `ancestor`.
fn is_nested_in(ir: &Ir, op: OpId, ancestor: OpId) -> bool {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if p == ancestor {
            return true;
        }
        cur = ir.parent_op(p);
    }
    false
}

/// The number of rotating event ids for a multi-buffered pair (upstream
/// `getMultiBufferEventIdNum`, spec §4.4): the largest `n` ≤ the smallest
/// slot count of a conflicting write such that no WAR / RAW / WAW pair of
/// roots conflicts under `conflicts_multi_buffer(lcm(L, n), n)`, where `L` is
/// the lcm of the slot counts of all conflicting pairs. `None` when there is
/// no conflict or `n` would be 1 or less.
pub fn multi_buffer_event_id_num(a1: Accesses<'_>, a2: Accesses<'_>) -> Option<usize> {
    let mut lcm_all = 1usize;
    let mut min_write = usize::MAX;
    let kinds = conflict_lists(a1, a2);
    for (k, (l1, l2)) in kinds.iter().enumerate() {
        for m1 in l1.iter() {
            for m2 in l2.iter() {
                if !check_conflict(m1, m2, None, true) {
                    continue;
                }
                lcm_all = lcm(lcm_all, lcm(m1.slots(), m2.slots()));
                // Which side is written: WAR → the later op's, RAW → the
                // earlier op's, WAW → both.
                match k {
                    0 => min_write = min_write.min(m2.slots()),
                    1 => min_write = min_write.min(m1.slots()),
                    _ => min_write = min_write.min(m1.slots()).min(m2.slots()),
                }
            }
        }
    }
    if min_write == usize::MAX {
        return None;
    }
    let mut n = min_write;
    while n >= 1 {
        let multi = Some((lcm(lcm_all, n), n));
        if kinds.iter().all(|(l1, l2)| !any_conflict(l1, l2, multi)) {
            break;
        }
        n -= 1;
    }
    (n > 1).then_some(n)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `std::lcm`: 0 when either is 0.
fn lcm(a: usize, b: usize) -> usize {
    if a == 0 || b == 0 { 0 } else { a / gcd(a, b) * b }
}

// ----- parent loop -----

/// HIVM's `getParentLoop` for the result of `pointer_cast` (or any op): the
/// innermost loop that contains the definition and consumes the buffer,
/// following `scf.yield`s of loops and `scf.if`s outward (spec §3.5). Uses in
/// terminators and in `annotation.mark` do not count, nor do uses nested in
/// an inner `scf.for` / `scf.while`. When no enclosing loop consumes it, the
/// innermost loop met last is returned; `None` outside every loop.
pub fn parent_loop(ir: &Ir, pointer_cast: OpId) -> Option<OpId> {
    parent_loop_of_value(ir, *ir.results(pointer_cast).first()?)
}

/// [`parent_loop`] for any value defined by an op (`None` for block args).
pub fn parent_loop_of_value(ir: &Ir, v: Value) -> Option<OpId> {
    let mut val = v;
    let mut consumer: Option<OpId> = None;
    loop {
        let def = ir.defining_op(val)?;
        let Some(lp) = ancestor(ir, def, is_loop_like) else { return consumer };
        if is_consumed_in_loop(ir, val, lp) {
            consumer = Some(lp);
        }
        let fallback = consumer.or(Some(lp));
        let yielded = loop_yielded_values(ir, lp);
        if yielded.is_empty() {
            return fallback;
        }
        if let Some(i) = yielded.iter().position(|&y| y == val) {
            // scf.while exposes no loop results through LoopLikeOpInterface.
            match loop_results(ir, lp).and_then(|r| r.get(i).copied()) {
                Some(r) => {
                    val = r;
                    continue;
                }
                None => return fallback,
            }
        }
        let Some(pif) = ancestor(ir, def, |n| n == "scf.if") else { return fallback };
        if ir.results(pif).is_empty() {
            return fallback;
        }
        let branch_yield = |i: usize| {
            ir.regions(pif)
                .get(i)
                .and_then(|r| ir.region_blocks(*r).first())
                .and_then(|b| ir.terminator(*b))
                .and_then(|t| ir.operands(t).iter().position(|&y| y == val))
        };
        match branch_yield(0).or_else(|| branch_yield(1)) {
            Some(i) if i < ir.results(pif).len() => val = ir.result(pif, i),
            _ => return fallback,
        }
    }
}

/// Ops implementing `LoopLikeOpInterface`.
pub(crate) fn is_loop_like(name: &str) -> bool {
    matches!(name, "scf.for" | "scf.while" | "scf.forall" | "scf.parallel" | "affine.for" | "affine.parallel")
}

/// The nearest proper ancestor of `op` whose name satisfies `pred`.
pub(crate) fn ancestor(ir: &Ir, op: OpId, pred: impl Fn(&str) -> bool) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if pred(ir.op_name(p)) {
            return Some(p);
        }
        cur = ir.parent_op(p);
    }
    None
}

/// `LoopLikeOpInterface::getYieldedValues`: the body yield of `scf.for` /
/// `affine.for`, the "after" yield of `scf.while`, nothing for other loops.
fn loop_yielded_values(ir: &Ir, lp: OpId) -> Vec<Value> {
    let region = match ir.op_name(lp) {
        "scf.for" | "affine.for" => 0,
        "scf.while" => 1,
        _ => return Vec::new(),
    };
    ir.regions(lp)
        .get(region)
        .and_then(|r| ir.region_blocks(*r).first())
        .and_then(|b| ir.terminator(*b))
        .map(|t| ir.operands(t).to_vec())
        .unwrap_or_default()
}

/// `LoopLikeOpInterface::getLoopResults` (absent for `scf.while`).
fn loop_results(ir: &Ir, lp: OpId) -> Option<&[Value]> {
    matches!(ir.op_name(lp), "scf.for" | "affine.for").then(|| ir.results(lp))
}

/// HIVM's `isConsumedInLoop`: some use of `val`, other than a terminator or
/// an `annotation.mark`, lies in `lp` without an `scf.for` / `scf.while`
/// (the user itself included) in between.
fn is_consumed_in_loop(ir: &Ir, val: Value, lp: OpId) -> bool {
    users(ir, val).into_iter().any(|user| {
        if ir.op_def(user).is_some_and(|d| d.has(Traits::TERMINATOR)) || ir.is_op(user, "annotation.mark") {
            return false;
        }
        let mut cur = Some(user);
        while let Some(a) = cur {
            if a == lp {
                return true;
            }
            if matches!(ir.op_name(a), "scf.for" | "scf.while") {
                return false;
            }
            cur = ir.parent_op(a);
        }
        false
    })
}

/// The ops using `v` (all lie in the region that defines it).
fn users(ir: &Ir, v: Value) -> Vec<OpId> {
    let region = match ir.value_def(v) {
        ValueDef::Result { op, .. } => ir.parent_block(op).and_then(|b| ir.block_parent(b)),
        ValueDef::BlockArg { block, .. } => ir.block_parent(block),
        ValueDef::Placeholder => None,
    };
    let mut out = Vec::new();
    let Some(region) = region else { return out };
    for &b in ir.region_blocks(region) {
        for op in ir.block_ops(b) {
            ir.walk(op, &mut |o| {
                if ir.operands(o).contains(&v) {
                    out.push(o);
                }
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(text: &str) -> (Ir, OpId) {
        let mut ir = Ir::new(hivm_dialects::shared_registry());
        let m = {
            let mut p = hivm_ir::parser::Parser::new(&mut ir, text, "memory.mlir", 0);
            p.parse_module().map_err(|e| e.msg).unwrap()
        };
        let errs = hivm_ir::verifier::verify_all(&ir, m);
        assert!(errs.is_empty(), "{:?}", errs.iter().map(|e| &e.message).collect::<Vec<_>>());
        (ir, m)
    }

    /// Every op named `name`, in pre-order.
    fn ops(ir: &Ir, m: OpId, name: &str) -> Vec<OpId> {
        let mut v = Vec::new();
        ir.walk(m, &mut |o| {
            if ir.is_op(o, name) {
                v.push(o);
            }
        });
        v
    }

    fn res(ir: &Ir, m: OpId, name: &str, i: usize) -> Value {
        ir.result(ops(ir, m, name)[i], 0)
    }

    fn func_args(ir: &Ir, m: OpId) -> Vec<Value> {
        let f = ops(ir, m, "func.func")[0];
        ir.block_args(ir.region_blocks(ir.regions(f)[0])[0]).to_vec()
    }

    /// The single root of `v`.
    fn root(ir: &Ir, v: Value) -> MemInfo {
        let r = trace_roots(ir, v);
        assert_eq!(r.len(), 1, "{r:?}");
        r.into_iter().next().unwrap()
    }

    const UB16: &str = "memref<16xf16, #hivm.address_space<ub>>";

    #[test]
    fn disjoint_pointer_casts_do_not_conflict() {
        let src = format!(
            "func.func @f() {{
  %c0 = arith.constant 0 : i64
  %c32 = arith.constant 32 : i64
  %a = hivm.hir.pointer_cast(%c0) : {UB16}
  %b = hivm.hir.pointer_cast(%c32) : {UB16}
  return
}}"
        );
        let (ir, m) = module(&src);
        let pcs = ops(&ir, m, "hivm.hir.pointer_cast");
        let (a, b) = (root(&ir, ir.result(pcs[0], 0)), root(&ir, ir.result(pcs[1], 0)));
        let MemInfo::PointerLike { root: r, addrs_bits, size_bits, space, parent_loop, subview } = &a else {
            panic!("{a:?}")
        };
        assert_eq!((*r, addrs_bits.clone(), *size_bits), (pcs[0], vec![Some(0)], Some(256)));
        assert_eq!((space.as_deref(), *parent_loop, subview), (Some("ub"), None, &None));
        assert!(matches!(&b, MemInfo::PointerLike { addrs_bits, .. } if addrs_bits == &vec![Some(256)]));
        assert!(!conflicts(&a, &b) && !conflicts(&b, &a));
        assert!(conflicts(&a, &a));
    }

    #[test]
    fn overlapping_pointer_casts_conflict() {
        let src = format!(
            "func.func @f() {{
  %c0 = arith.constant 0 : i64
  %c16 = arith.constant 16 : i64
  %c32 = arith.constant 32 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<32xf16, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%c32) : {UB16}
  %c = hivm.hir.pointer_cast(%c16) : {UB16}
  return
}}"
        );
        let (ir, m) = module(&src);
        let r: Vec<MemInfo> = (0..3).map(|i| root(&ir, res(&ir, m, "hivm.hir.pointer_cast", i))).collect();
        // [0,512) vs [256,512), and [0,512) vs [128,384).
        assert!(conflicts(&r[0], &r[1]) && conflicts(&r[1], &r[0]));
        assert!(conflicts(&r[0], &r[2]) && conflicts(&r[2], &r[1]));
    }

    #[test]
    fn dynamic_addresses_and_sizes_conflict() {
        let src = format!(
            "func.func @f(%addr: i64, %n: index) {{
  %c1024 = arith.constant 1024 : i64
  %c0 = arith.constant 0 : i64
  %a = hivm.hir.pointer_cast(%addr) : {UB16}
  %b = hivm.hir.pointer_cast(%c1024) : {UB16}
  %d = hivm.hir.pointer_cast(%c0) [%n] : memref<?xf16, #hivm.address_space<ub>>
  return
}}"
        );
        let (ir, m) = module(&src);
        let r: Vec<MemInfo> = (0..3).map(|i| root(&ir, res(&ir, m, "hivm.hir.pointer_cast", i))).collect();
        assert!(matches!(&r[0], MemInfo::PointerLike { addrs_bits, .. } if addrs_bits == &vec![None]));
        assert!(conflicts(&r[0], &r[1]));
        // A dynamic size reaches every later address.
        assert!(matches!(&r[2], MemInfo::PointerLike { size_bits: None, .. }));
        assert!(conflicts(&r[2], &r[1]) && conflicts(&r[1], &r[2]));
    }

    #[test]
    fn different_spaces_do_not_conflict() {
        let src = format!(
            "func.func @f() {{
  %c0 = arith.constant 0 : i64
  %a = hivm.hir.pointer_cast(%c0) : {UB16}
  %b = hivm.hir.pointer_cast(%c0) : memref<16xf16, #hivm.address_space<cbuf>>
  %c = hivm.hir.pointer_cast(%c0) : memref<16xf16>
  return
}}"
        );
        let (ir, m) = module(&src);
        let r: Vec<MemInfo> = (0..3).map(|i| root(&ir, res(&ir, m, "hivm.hir.pointer_cast", i))).collect();
        assert!(!conflicts(&r[0], &r[1]));
        // Without an address space a pointer-like buffer conflicts with nothing.
        assert!(matches!(&r[2], MemInfo::PointerLike { space: None, .. }));
        assert!(!conflicts(&r[2], &r[2]));
    }

    #[test]
    fn function_arguments() {
        let src =
            "func.func @f(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<gm>>) {
  return
}";
        let (ir, m) = module(src);
        let args = func_args(&ir, m);
        let (a, b) = (root(&ir, args[0]), root(&ir, args[1]));
        let f = ops(&ir, m, "func.func")[0];
        assert_eq!(a, MemInfo::FuncArg { arg: args[0], func: f, arg_number: 0 });
        assert!(conflicts(&a, &a) && !conflicts(&a, &b));
    }

    #[test]
    fn allocs_conflict_only_with_themselves() {
        let src = format!(
            "func.func @f() {{
  %a = memref.alloc() : {UB16}
  %b = memref.alloc() : {UB16}
  %s = memref.alloca() : {UB16}
  %t = tensor.empty() : tensor<16xf16>
  return
}}"
        );
        let (ir, m) = module(&src);
        let allocs = ops(&ir, m, "memref.alloc");
        let (a, b) = (root(&ir, ir.result(allocs[0], 0)), root(&ir, ir.result(allocs[1], 0)));
        assert_eq!(a, MemInfo::AllocLike { op: allocs[0] });
        assert!(conflicts(&a, &a) && !conflicts(&a, &b));
        // memref.alloca is not a root upstream: it traces to nothing.
        assert!(trace_roots(&ir, res(&ir, m, "memref.alloca", 0)).is_empty());
        let t = res(&ir, m, "tensor.empty", 0);
        assert_eq!(root(&ir, t), MemInfo::Value(t));
        assert!(!conflicts(&MemInfo::Value(t), &a));
    }

    #[test]
    fn scalars_trace_to_nothing() {
        let src = "func.func @f(%x: i64) {
  %c = arith.constant 1.0 : f16
  return
}";
        let (ir, m) = module(src);
        assert!(trace_roots(&ir, func_args(&ir, m)[0]).is_empty());
        assert!(trace_roots(&ir, res(&ir, m, "arith.constant", 0)).is_empty());
    }

    #[test]
    fn views_trace_to_their_source() {
        let src = "func.func @f(%g: memref<4x4xf16, #hivm.address_space<gm>>) {
  %c = memref.collapse_shape %g [[0, 1]] : memref<4x4xf16, #hivm.address_space<gm>> into memref<16xf16, #hivm.address_space<gm>>
  %r = memref.reinterpret_cast %c to offset: [0], sizes: [2, 8], strides: [8, 1] : memref<16xf16, #hivm.address_space<gm>> to memref<2x8xf16, strided<[8, 1]>, #hivm.address_space<gm>>
  %s = memref.subview %r[0, 0] [1, 8] [1, 1] : memref<2x8xf16, strided<[8, 1]>, #hivm.address_space<gm>> to memref<8xf16, strided<[1]>, #hivm.address_space<gm>>
  %k = memref.cast %s : memref<8xf16, strided<[1]>, #hivm.address_space<gm>> to memref<?xf16, strided<[1]>, #hivm.address_space<gm>>
  return
}";
        let (ir, m) = module(src);
        let g = func_args(&ir, m)[0];
        let k = res(&ir, m, "memref.cast", 0);
        assert!(matches!(root(&ir, k), MemInfo::FuncArg { arg, .. } if arg == g));
        // A subview of something other than a pointer_cast is just a view.
        assert!(matches!(root(&ir, res(&ir, m, "memref.subview", 0)), MemInfo::FuncArg { arg, .. } if arg == g));
    }

    #[test]
    fn select_traces_both_arms_in_order() {
        let src = format!(
            "func.func @f(%p: i1) {{
  %c0 = arith.constant 0 : i64
  %c32 = arith.constant 32 : i64
  %a = hivm.hir.pointer_cast(%c0) : {UB16}
  %b = hivm.hir.pointer_cast(%c32) : {UB16}
  %s = arith.select %p, %b, %a : {UB16}
  return
}}"
        );
        let (ir, m) = module(&src);
        let pcs = ops(&ir, m, "hivm.hir.pointer_cast");
        let got: Vec<OpId> = trace_roots(&ir, res(&ir, m, "arith.select", 0))
            .into_iter()
            .map(|r| match r {
                MemInfo::PointerLike { root, .. } => root,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(got, vec![pcs[1], pcs[0]]);
    }

    #[test]
    fn for_iter_args_and_results() {
        let src = format!(
            "func.func @f() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 64 : i64
  %p0 = hivm.hir.pointer_cast(%a0) : {UB16}
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %p0, %y = %p0) -> ({UB16}, {UB16}) {{
    %p1 = hivm.hir.pointer_cast(%a1) : {UB16}
    scf.yield %p1, %y : {UB16}, {UB16}
  }}
  return
}}"
        );
        let (ir, m) = module(&src);
        let pcs = ops(&ir, m, "hivm.hir.pointer_cast");
        let lp = ops(&ir, m, "scf.for")[0];
        let body = ir.region_blocks(ir.regions(lp)[0])[0];
        let args = ir.block_args(body);
        let t = Tracer::new();
        let (p0, p1) = (ir.result(pcs[0], 0), ir.result(pcs[1], 0));
        // iter_arg: the init, then the yielded value.
        assert_eq!(t.root_values(&ir, args[1]), vec![p0, p1]);
        // %y yields itself: only the init.
        assert_eq!(t.root_values(&ir, args[2]), vec![p0]);
        // The induction variable is a scalar.
        assert!(t.root_values(&ir, args[0]).is_empty());
        // Results: the yielded value, followed back.
        assert_eq!(t.root_values(&ir, ir.result(lp, 0)), vec![p1]);
        assert_eq!(t.root_values(&ir, ir.result(lp, 1)), vec![p0]);
        // Several operands: deduplicated in order.
        assert_eq!(t.root_values_of(&ir, &[ir.result(lp, 0), args[1], p0]), vec![p1, p0]);
    }

    #[test]
    fn if_results_trace_both_branches() {
        let src = format!(
            "func.func @f(%c: i1) {{
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 64 : i64
  %r = scf.if %c -> ({UB16}) {{
    %p = hivm.hir.pointer_cast(%a0) : {UB16}
    scf.yield %p : {UB16}
  }} else {{
    %q = hivm.hir.pointer_cast(%a1) : {UB16}
    scf.yield %q : {UB16}
  }}
  return
}}"
        );
        let (ir, m) = module(&src);
        let pcs = ops(&ir, m, "hivm.hir.pointer_cast");
        let r = res(&ir, m, "scf.if", 0);
        assert_eq!(Tracer::new().root_values(&ir, r), vec![ir.result(pcs[0], 0), ir.result(pcs[1], 0)]);
    }

    #[test]
    fn while_arguments_and_results() {
        let src = format!(
            "func.func @f(%c: i1) {{
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 64 : i64
  %a2 = arith.constant 128 : i64
  %p0 = hivm.hir.pointer_cast(%a0) : {UB16}
  %r = scf.while (%x = %p0) : ({UB16}) -> {UB16} {{
    %p1 = hivm.hir.pointer_cast(%a1) : {UB16}
    scf.condition(%c) %p1 : {UB16}
  }} do {{
  ^bb0(%y: {UB16}):
    %p2 = hivm.hir.pointer_cast(%a2) : {UB16}
    scf.yield %p2 : {UB16}
  }}
  return
}}"
        );
        let (ir, m) = module(&src);
        let p: Vec<Value> = (0..3).map(|i| res(&ir, m, "hivm.hir.pointer_cast", i)).collect();
        let w = ops(&ir, m, "scf.while")[0];
        let before = ir.block_args(ir.region_blocks(ir.regions(w)[0])[0])[0];
        let after = ir.block_args(ir.region_blocks(ir.regions(w)[1])[0])[0];
        let t = Tracer::new();
        assert_eq!(t.root_values(&ir, before), vec![p[0], p[2]]);
        assert_eq!(t.root_values(&ir, after), vec![p[1]]);
        assert_eq!(t.root_values(&ir, ir.result(w, 0)), vec![p[1], p[2]]);
        // A while loop has no loop results through LoopLikeOpInterface.
        assert_eq!(parent_loop(&ir, ops(&ir, m, "hivm.hir.pointer_cast")[2]), Some(w));
    }

    #[test]
    fn branch_arguments_follow_recorded_branches() {
        let src = format!(
            "func.func @f(%c: i1) {{
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 64 : i64
  %p0 = hivm.hir.pointer_cast(%a0) : {UB16}
  %p1 = hivm.hir.pointer_cast(%a1) : {UB16}
  cf.cond_br %c, ^bb1(%p0 : {UB16}), ^bb1(%p1 : {UB16})
^bb1(%x: {UB16}):
  return
}}"
        );
        let (ir, m) = module(&src);
        let p: Vec<Value> = (0..2).map(|i| res(&ir, m, "hivm.hir.pointer_cast", i)).collect();
        let f = ops(&ir, m, "func.func")[0];
        let bb1 = ir.region_blocks(ir.regions(f)[0])[1];
        let x = ir.block_args(bb1)[0];
        // Before the branch is recorded, the argument is a root of its own
        // (a block argument of the function region).
        assert_eq!(Tracer::new().roots(&ir, x), vec![MemInfo::FuncArg { arg: x, func: f, arg_number: 0 }]);
        assert_eq!(Tracer::for_function(&ir, f).root_values(&ir, x), p);
        assert_eq!(trace_roots(&ir, x).len(), 2);
    }

    #[test]
    fn subviews_of_a_pointer_cast_are_refined() {
        let src = format!(
            "func.func @f(%d: index) {{
  %c0 = arith.constant 0 : i64
  %c8 = arith.constant 8 : index
  %p = hivm.hir.pointer_cast(%c0) : {UB16}
  %s0 = memref.subview %p[0] [8] [1] : {UB16} to memref<8xf16, strided<[1]>, #hivm.address_space<ub>>
  %s1 = memref.subview %p[8] [8] [1] : {UB16} to memref<8xf16, strided<[1], offset: 8>, #hivm.address_space<ub>>
  %s2 = memref.subview %p[4] [8] [1] : {UB16} to memref<8xf16, strided<[1], offset: 4>, #hivm.address_space<ub>>
  %s3 = memref.subview %p[%d] [8] [1] : {UB16} to memref<8xf16, strided<[1], offset: ?>, #hivm.address_space<ub>>
  %s4 = memref.subview %p[%c8] [8] [1] : {UB16} to memref<8xf16, strided<[1], offset: ?>, #hivm.address_space<ub>>
  %n = memref.subview %s0[0] [4] [1] : memref<8xf16, strided<[1]>, #hivm.address_space<ub>> to memref<4xf16, strided<[1]>, #hivm.address_space<ub>>
  return
}}"
        );
        let (ir, m) = module(&src);
        let pc = ops(&ir, m, "hivm.hir.pointer_cast")[0];
        let s: Vec<MemInfo> = (0..6).map(|i| root(&ir, res(&ir, m, "memref.subview", i))).collect();
        let MemInfo::PointerLike { root: r, subview: Some(sv), .. } = &s[0] else { panic!("{:?}", s[0]) };
        assert_eq!(*r, pc);
        assert_eq!((sv.source, sv.offsets.clone(), sv.sizes.clone()), (ir.result(pc, 0), vec![Some(0)], vec![Some(8)]));
        assert!(!conflicts(&s[0], &s[1]), "[0,8) vs [8,16)");
        assert!(conflicts(&s[0], &s[2]) && conflicts(&s[1], &s[2]), "[4,12) overlaps both");
        assert!(conflicts(&s[0], &s[3]), "unknown offset");
        assert!(!conflicts(&s[0], &s[4]), "a constant dynamic offset is known");
        // The subview refinement is optional.
        assert!(check_conflict(&s[0], &s[1], None, false));
        // A nested subview is not refined: it is the pointer_cast itself.
        assert!(matches!(&s[5], MemInfo::PointerLike { subview: None, .. }));
        assert!(conflicts(&s[5], &s[1]));
        // Only the traced operand itself is refined, and only when enabled.
        let plain = Tracer { refine_subviews: false, ..Tracer::new() };
        assert_eq!(plain.root_values(&ir, res(&ir, m, "memref.subview", 0)), vec![ir.result(pc, 0)]);
    }

    #[test]
    fn two_address_pointer_cast_in_a_loop_is_multi_buffered() {
        let src =
            "func.func @f(%a: memref<16xf16, #hivm.address_space<gm>>, %b: memref<16xf16, #hivm.address_space<gm>>) {
  %c32_i64 = arith.constant 32 : i64
  %c16_i64 = arith.constant 16 : i64
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c4 {
    %p = hivm.hir.pointer_cast(%c0_i64, %c32_i64) : memref<16xf16, #hivm.address_space<ub>>
    annotation.mark %p {hivm.multi_buffer = 2 : i32} : memref<16xf16, #hivm.address_space<ub>>
    hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%p : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.store ins(%p : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<gm>>)
    %q = hivm.hir.pointer_cast(%c0_i64, %c16_i64) : memref<16xf16, #hivm.address_space<ub>>
    hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%q : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.store ins(%q : memref<16xf16, #hivm.address_space<ub>>) outs(%b : memref<16xf16, #hivm.address_space<gm>>)
  }
  return
}";
        let (ir, m) = module(src);
        let lp = ops(&ir, m, "scf.for")[0];
        let pcs = ops(&ir, m, "hivm.hir.pointer_cast");
        assert_eq!(parent_loop(&ir, pcs[0]), Some(lp));
        let p = root(&ir, ir.result(pcs[0], 0));
        assert!(matches!(&p, MemInfo::PointerLike { addrs_bits, parent_loop: Some(l), .. }
            if addrs_bits == &vec![Some(0), Some(256)] && *l == lp));
        assert_eq!(p.slots(), 2);
        assert!(conflicts(&p, &p));
        // With 2 rotating ids, slots 0 and 1 ([0,256) and [256,512)) never meet.
        assert!(!conflicts_multi_buffer(&p, &p, 2, 2));
        // With one id every pair of slots shares it: nothing is left to check.
        assert!(!conflicts_multi_buffer(&p, &p, 2, 1));

        // (store #1, load #2): the store reads %p, the next load writes it.
        let t = Tracer::new();
        let loads = ops(&ir, m, "hivm.hir.load");
        let stores = ops(&ir, m, "hivm.hir.store");
        let acc = |op: OpId| (t.roots_of(&ir, &ir.operands(op)[..1]), t.roots_of(&ir, &ir.operands(op)[1..2]));
        let (st_r, st_w) = acc(stores[0]);
        let (ld_r, ld_w) = acc(loads[0]);
        let a1 = Accesses { reads: &st_r, writes: &st_w };
        let a2 = Accesses { reads: &ld_r, writes: &ld_w };
        assert_eq!(multi_buffer_loop(&ir, stores[0], a1, loads[0], a2), Some(lp));
        assert_eq!(multi_buffer_event_id_num(a1, a2), Some(2));

        // Overlapping slots ([0,256) and [128,384)) cannot rotate.
        let (st_r, st_w) = acc(stores[1]);
        let (ld_r, ld_w) = acc(loads[1]);
        let a1 = Accesses { reads: &st_r, writes: &st_w };
        let a2 = Accesses { reads: &ld_r, writes: &ld_w };
        assert_eq!(multi_buffer_event_id_num(a1, a2), None);

        // (store, store) meet on the GM argument: not pointer-like, no loop.
        let (st_r, st_w) = acc(stores[0]);
        let sa = Accesses { reads: &st_r, writes: &st_w };
        assert_eq!(multi_buffer_loop(&ir, stores[0], sa, stores[0], sa), None);
        assert_eq!(multi_buffer_event_id_num(sa, sa), None);
    }

    #[test]
    fn single_address_mark_has_no_effect() {
        let src = format!(
            "func.func @f() {{
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = hivm.hir.pointer_cast(%c0_i64) : {UB16}
  annotation.mark %p {{hivm.multi_buffer = 2 : i32}} : {UB16}
  scf.for %i = %c0 to %c1 step %c1 {{
    hivm.hir.vadd ins(%p, %p : {UB16}, {UB16}) outs(%p : {UB16})
  }}
  return
}}"
        );
        let (ir, m) = module(&src);
        let pc = ops(&ir, m, "hivm.hir.pointer_cast")[0];
        // Defined outside every loop: no parent loop, one slot.
        assert_eq!(parent_loop(&ir, pc), None);
        let p = root(&ir, ir.result(pc, 0));
        assert_eq!(p.slots(), 1);
        let v = ops(&ir, m, "hivm.hir.vadd")[0];
        let t = Tracer::new();
        let (r, w) = (t.roots_of(&ir, &ir.operands(v)[..2]), t.roots_of(&ir, &ir.operands(v)[2..]));
        assert_eq!(r.len(), 1);
        let a = Accesses { reads: &r, writes: &w };
        assert_eq!(multi_buffer_loop(&ir, v, a, v, a), None);
        assert_eq!(multi_buffer_event_id_num(a, a), None);
    }

    /// A buffer made in an inner loop and yielded out: the outer loop is its
    /// parent loop only if something other than a terminator or an
    /// `annotation.mark` uses the outer result there.
    fn yielded_buffer(outer_use: &str) -> String {
        format!(
            "func.func @f() {{
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = hivm.hir.pointer_cast(%c0_i64) : {UB16}
  %o = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %init) -> ({UB16}) {{
    %r = scf.for %j = %c0 to %c1 step %c1 iter_args(%b = %a) -> ({UB16}) {{
      %p = hivm.hir.pointer_cast(%c0_i64) : {UB16}
      hivm.hir.vadd ins(%p, %p : {UB16}, {UB16}) outs(%p : {UB16})
      scf.yield %p : {UB16}
    }}
    {outer_use}
    scf.yield %r : {UB16}
  }}
  return
}}"
        )
    }

    #[test]
    fn annotation_mark_is_not_a_consumer() {
        let (ir, m) = module(&yielded_buffer(&format!("annotation.mark %r {{hivm.multi_buffer = 2 : i32}} : {UB16}")));
        let inner = ops(&ir, m, "scf.for")[1];
        assert_eq!(parent_loop(&ir, ops(&ir, m, "hivm.hir.pointer_cast")[1]), Some(inner));
        let (ir, m) = module(&yielded_buffer(&format!("hivm.hir.vadd ins(%r, %r : {UB16}, {UB16}) outs(%r : {UB16})")));
        let outer = ops(&ir, m, "scf.for")[0];
        assert_eq!(parent_loop(&ir, ops(&ir, m, "hivm.hir.pointer_cast")[1]), Some(outer));
    }

    #[test]
    fn parent_loop_skips_uses_in_inner_loops() {
        let src = format!(
            "func.func @f() {{
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {{
    %p = hivm.hir.pointer_cast(%c0_i64) : {UB16}
    scf.for %j = %c0 to %c1 step %c1 {{
      hivm.hir.vadd ins(%p, %p : {UB16}, {UB16}) outs(%p : {UB16})
    }}
  }}
  return
}}"
        );
        let (ir, m) = module(&src);
        // Not consumed directly in the outer loop, but it is the innermost
        // loop holding the definition.
        assert_eq!(parent_loop(&ir, ops(&ir, m, "hivm.hir.pointer_cast")[0]), Some(ops(&ir, m, "scf.for")[0]));
    }

    #[test]
    fn dps_results_trace_to_their_inits() {
        let src = "func.func @f(%x: f32) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = tensor.extract_slice %f[0] [8] [1] : tensor<16xf32> to tensor<8xf32>
  return %f : tensor<16xf32>
}";
        let (ir, m) = module(src);
        let e = res(&ir, m, "tensor.empty", 0);
        assert_eq!(root(&ir, res(&ir, m, "tensor.extract_slice", 0)), MemInfo::Value(e));
    }
}

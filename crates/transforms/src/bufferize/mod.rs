//! `one-shot-bufferize`: tensors to memrefs, as MLIR's One-Shot Bufferize
//! does it with default options, for the ops our kernels use (see
//! [`interface`]). Two phases, as upstream: an analysis that decides for each
//! written tensor operand whether it may reuse its buffer (in place) or needs
//! a fresh allocation (plus a copy when the op also reads it), then a rewrite.
//!
//! `scf.if` and `scf.for` bodies may hold any supported op; their tensor
//! results and iter_args become memrefs (a loop must yield each iter_arg's
//! own buffer, as upstream requires). Slices may be rank-reducing; reshapes of
//! strided buffers get MLIR's inferred layouts (or a copy when a collapsed
//! group is not contiguous). `scf.while` carries tensors like `scf.for`.
//! With `bufferize-function-boundaries`, functions are bufferized callees
//! first and calls pass buffers. linalg's structured ops (those
//! `hivm_dialects::linalg::loops` describes) are destination-passing: an
//! operand is read when the body uses its argument, and reading and writing
//! one buffer through identity maps of an all-parallel op is no conflict.
//! Tensor constants become `memref.global`s (`constants.rs`), `tensor.splat`
//! an allocation filled by `linalg.map`, `tensor.reshape` a `memref.reshape`.
//! Not supported yet, each reported at the op: recursive calls, other
//! options, and ops outside that list (`bufferization.to_buffer` of a
//! tensor, `tensor.from_elements`, `linalg.pack`, ...).
//! Upstream analyses ops bottom-up, we in program order: where a conflict can
//! be resolved at either end, upstream may copy a different operand than we
//! do (both preserve the values read). Upstream's matching
//! extract_slice/insert_slice rule is modelled for the insert's read of its
//! destination and of its source, not for later reads of the inserted value.

pub mod analysis;
mod constants;
pub mod interface;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{AttrData, Ir, OpId, Type, TypeData, Value, ValueDef};

use analysis::Analysis;
use interface::Kind;

pub struct OneShotBufferize {
    /// `bufferize-function-boundaries`: tensor arguments and results of
    /// functions become memrefs (fully dynamic layouts for arguments).
    pub function_boundaries: bool,
}

impl OneShotBufferize {
    pub fn from_options(options: &str) -> Result<OneShotBufferize, String> {
        let mut function_boundaries = false;
        for opt in options.split_whitespace() {
            match opt.split_once('=').map_or((opt, "true"), |(k, v)| (k, v)) {
                ("bufferize-function-boundaries", v @ ("true" | "1" | "false" | "0")) => {
                    function_boundaries = matches!(v, "true" | "1");
                }
                _ => {
                    return Err(format!(
                        "one-shot-bufferize: option '{opt}' is not supported yet (upstream's defaults and \
                         bufferize-function-boundaries are implemented)"
                    ));
                }
            }
        }
        Ok(OneShotBufferize { function_boundaries })
    }
}

pub(crate) fn is_tensor(ir: &Ir, v: Value) -> bool {
    ir.type_data(ir.value_type(v)).is_tensor()
}

fn unsupported(ir: &Ir, op: OpId, why: &str) -> Diagnostic {
    Diagnostic::error(
        ir.loc(op),
        format!("'{}' op {why} (not supported by hivm-opt's one-shot-bufferize yet)", ir.op_name(op)),
    )
}

/// The memref a fresh buffer for tensor type `t` gets: identity layout, no memory space.
fn alloc_type(ir: &mut Ir, t: Type) -> Option<Type> {
    match ir.type_data(t).clone() {
        TypeData::RankedTensor { shape, elem, encoding: None } => {
            Some(ir.ty(TypeData::MemRef { shape, elem, layout: None, memory_space: None }))
        }
        _ => None,
    }
}

/// `tensor<4x?xf32>` → `memref<4x?xf32, strided<[?, ?], offset: ?>>`: the type
/// MLIR gives buffers of values it knows nothing about.
fn unknown_layout_type(ir: &mut Ir, t: Type) -> Option<Type> {
    match ir.type_data(t).clone() {
        TypeData::RankedTensor { shape, elem, encoding: None } => {
            let layout = ir.attr(AttrData::Strided { strides: vec![DYNAMIC; shape.len()], offset: DYNAMIC });
            Some(ir.ty(TypeData::MemRef { shape, elem, layout: Some(layout), memory_space: None }))
        }
        _ => None,
    }
}

/// The type of `memref.subview` of a `source` buffer with the slice lists of
/// `slice_op` (MLIR's inferred result type: always a strided layout).
/// `slice` is the shape of the tensor slice; unit dimensions it drops are
/// dropped from the subview too (a rank-reducing subview).
fn subview_type(ir: &mut Ir, source: Type, slice_op: OpId, slice: &[i64]) -> Option<Type> {
    use hivm_dialects::util::{i64_array, rank_reduction_keep, strides_and_offset, subview_layout};
    let TypeData::MemRef { shape, elem, memory_space, .. } = ir.type_data(source).clone() else { return None };
    let src = strides_and_offset(ir, source)?;
    let sizes = i64_array(ir, slice_op, "static_sizes");
    if sizes.len() != shape.len() {
        return None;
    }
    let (strides, offset) =
        subview_layout(&src, &i64_array(ir, slice_op, "static_offsets"), &i64_array(ir, slice_op, "static_strides"));
    let keep = rank_reduction_keep(&sizes, slice)?;
    let pick = |v: &[i64]| -> Vec<i64> { v.iter().zip(&keep).filter(|(_, k)| **k).map(|(x, _)| *x).collect() };
    let layout = ir.attr(AttrData::Strided { strides: pick(&strides), offset });
    Some(ir.ty(TypeData::MemRef { shape: pick(&sizes), elem, layout: Some(layout), memory_space }))
}

/// The memref type of reshaping a buffer of type `source` to `shape` by
/// `groups`, as MLIR infers it: identity stays identity; a strided layout
/// keeps its offset, an expanded dim's strides follow from its sizes, and a
/// collapsed group takes its innermost stride, provided the group is
/// contiguous (else `None`: the buffer must be copied first).
fn reshaped_type(ir: &mut Ir, source: Type, shape: &[i64], groups: &[Vec<i64>], expand: bool) -> Option<Type> {
    let TypeData::MemRef { shape: src_shape, elem, layout, memory_space } = ir.type_data(source).clone() else {
        return None;
    };
    if layout.is_none() {
        return Some(ir.ty(TypeData::MemRef { shape: shape.to_vec(), elem, layout: None, memory_space }));
    }
    let (strides, offset) = hivm_dialects::util::strides_and_offset(ir, source)?;
    let mut out = vec![DYNAMIC; shape.len()];
    for (k, g) in groups.iter().enumerate() {
        let g: Vec<usize> = g.iter().map(|d| *d as usize).collect();
        if expand {
            // Source dim k becomes dims g; innermost keeps its stride.
            let mut s = strides[k];
            for &d in g.iter().rev() {
                out[d] = s;
                s = if s == DYNAMIC || shape[d] == DYNAMIC { DYNAMIC } else { s * shape[d] };
            }
        } else {
            let last = *g.last()?;
            for w in g.windows(2) {
                let (outer, inner) = (w[0], w[1]);
                if src_shape[outer] == 1 {
                    continue;
                }
                let (so, si, ni) = (strides[outer], strides[inner], src_shape[inner]);
                if so == DYNAMIC || si == DYNAMIC || ni == DYNAMIC || so != si * ni {
                    return None;
                }
            }
            out[k] = strides[last];
        }
    }
    let layout = ir.attr(AttrData::Strided { strides: out, offset });
    Some(ir.ty(TypeData::MemRef { shape: shape.to_vec(), elem, layout: Some(layout), memory_space }))
}

struct Rewriter<'s> {
    func: OpId,
    entry: hivm_ir::BlockId,
    /// `to_buffer`s made for tensor function arguments.
    arg_buffers: HashMap<Value, Value>,
    /// Loop iter_args turned into memrefs, with their original locations.
    iter_arg_locs: HashMap<Value, hivm_ir::Attribute>,
    /// Function-boundary bufferization: returns take buffers.
    boundaries: bool,
    /// Functions bufferized so far, for their calls.
    summaries: &'s HashMap<String, analysis::Summary>,
    /// Values replaced so far: applied to each op before it is rewritten and
    /// to the whole function at the end (one walk instead of one per value).
    replaced: hivm_ir::ValueMap,
    /// The module symbol table's renaming counter (globals of constants).
    symbol_counter: u32,
}

impl Rewriter<'_> {
    fn buffer_of(&mut self, ir: &mut Ir, v: Value, at: OpId) -> Result<Value, Diagnostic> {
        match ir.value_def(v) {
            ValueDef::Result { op, .. } if ir.is_op(op, "bufferization.to_tensor") => Ok(ir.operand(op, 0)),
            ValueDef::BlockArg { .. } => {
                if let Some(b) = self.arg_buffers.get(&v) {
                    return Ok(*b);
                }
                let t = ir.value_type(v);
                let Some(mt) = unknown_layout_type(ir, t) else {
                    return Err(unsupported(ir, at, "uses a tensor argument of unsupported type"));
                };
                // MLIR locates the conversion at the argument.
                let loc = ir.block_arg_loc(v).unwrap_or_else(|| ir.loc(self.func));
                let ip = InsertPoint::start(ir, self.entry);
                let op = Builder::new(ir, ip).op("bufferization.to_buffer", &[v], &[mt], vec![], loc);
                let b = ir.result(op, 0);
                self.arg_buffers.insert(v, b);
                Ok(b)
            }
            _ => Err(unsupported(ir, at, "uses a tensor that was not bufferized")),
        }
    }

    fn alloc(&self, ir: &mut Ir, at: OpId, t: Type, sizes: &[Value]) -> Result<Value, Diagnostic> {
        let Some(mt) = alloc_type(ir, t) else {
            return Err(unsupported(ir, at, "needs a buffer for a tensor with an encoding or unranked type"));
        };
        // MLIR's default buffer alignment.
        Ok(hivm_dialects::memref::build_alloc(ir, at, mt, sizes, Some(64)))
    }

    /// `memref.subview` of `buffer` with the slice lists of `slice_op`, whose
    /// dynamic offsets, sizes and strides start at operand `first_dynamic`.
    fn subview(
        &self,
        ir: &mut Ir,
        slice_op: OpId,
        buffer: Value,
        first_dynamic: usize,
        slice: Type,
    ) -> Result<Value, Diagnostic> {
        let bt = ir.value_type(buffer);
        let shape = ir.type_data(slice).shape().map(|s| s.to_vec()).unwrap_or_default();
        let Some(t) = subview_type(ir, bt, slice_op, &shape) else {
            return Err(unsupported(ir, slice_op, "slices a buffer without a strided layout"));
        };
        let seg = hivm_dialects::util::segments(ir, slice_op);
        let n = seg.len();
        let dynamic = ir.operands(slice_op)[first_dynamic..].to_vec();
        let mut operands = vec![buffer];
        operands.extend(dynamic);
        let sizes = [1, seg[n - 3], seg[n - 2], seg[n - 1]];
        let seg_attr = hivm_dialects::util::segment_attr(ir, &sizes);
        let mut attrs = vec![("operandSegmentSizes", seg_attr)];
        for name in ["static_offsets", "static_sizes", "static_strides"] {
            if let Some(a) = ir.get_attr(slice_op, name) {
                attrs.push((name, a));
            }
        }
        let loc = ir.loc(slice_op);
        let op = Builder::new(ir, InsertPoint::Before(slice_op)).op("memref.subview", &operands, &[t], attrs, loc);
        Ok(ir.result(op, 0))
    }

    /// `scf.if` with tensor results, after its yields forward buffers: the
    /// results become memrefs; branches yielding different buffer types are
    /// cast to the fully dynamic layout, as upstream does.
    fn rewrite_if(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        let results = ir.results(op).to_vec();
        if !results.iter().any(|r| is_tensor(ir, *r)) {
            return Ok(());
        }
        let yields = analysis::branch_yields(ir, op);
        let mut types = Vec::new();
        for (k, r) in results.iter().enumerate() {
            let t = ir.value_type(*r);
            if !is_tensor(ir, *r) {
                types.push(t);
                continue;
            }
            let branch_types: Vec<Type> = yields.iter().map(|y| ir.value_type(ir.operand(*y, k))).collect();
            let ty = if branch_types.windows(2).all(|w| w[0] == w[1]) && !branch_types.is_empty() {
                branch_types[0]
            } else {
                let Some(dynamic) = unknown_layout_type(ir, t) else {
                    return Err(unsupported(ir, op, "yields buffers of different types"));
                };
                for y in &yields {
                    let v = ir.operand(*y, k);
                    if ir.value_type(v) != dynamic {
                        let loc = ir.loc(*y);
                        let cast =
                            Builder::new(ir, InsertPoint::Before(*y)).op("memref.cast", &[v], &[dynamic], vec![], loc);
                        let c = ir.result(cast, 0);
                        ir.set_operand(*y, k, c);
                    }
                }
                dynamic
            };
            types.push(ty);
        }
        self.retype_results(ir, op, &types);
        Ok(())
    }

    /// A call passing tensors: buffers in, the callee's (already converted)
    /// types out; an operand the callee writes gets a copy when the analysis
    /// said so (filled with the old contents when the callee reads it).
    fn rewrite_call(&mut self, ir: &mut Ir, op: OpId, an: &Analysis) -> Result<(), Diagnostic> {
        let name = analysis::callee(ir, op).unwrap_or_default();
        let Some(summary) = self.summaries.get(&name).cloned() else {
            return Err(unsupported(ir, op, "passes tensors across a call (bufferize-function-boundaries needed)"));
        };
        let module = ir.top_ancestor(op);
        let callee_type = find_function(ir, module, &name)
            .and_then(|f| ir.get_attr(f, "function_type"))
            .and_then(|a| ir.as_type(a))
            .map(|t| ir.type_data(t).clone());
        let Some(TypeData::Function { inputs, results }) = callee_type else {
            return Err(unsupported(ir, op, "calls a function that is not in the module"));
        };
        let loc = ir.loc(op);
        let operands = ir.operands(op).to_vec();
        let mut new_operands = Vec::with_capacity(operands.len());
        for (i, v) in operands.iter().enumerate() {
            if !is_tensor(ir, *v) {
                new_operands.push(*v);
                continue;
            }
            let buf = if an.in_place(op, i) {
                self.buffer_of(ir, *v, op)?
            } else {
                self.copy_for_call(ir, op, i, summary.reads.get(i).copied().unwrap_or(true))?
            };
            let want = inputs.get(i).copied().unwrap_or_else(|| ir.value_type(buf));
            let buf = if ir.value_type(buf) == want {
                buf
            } else {
                // Located at the buffer, as upstream materializes it.
                let at = ir.value_loc(buf).unwrap_or(loc);
                let c = Builder::new(ir, InsertPoint::Before(op)).op("memref.cast", &[buf], &[want], vec![], at);
                ir.result(c, 0)
            };
            new_operands.push(buf);
        }
        let old_results = ir.results(op).to_vec();
        let new = ir.rebuild_op(op, &new_operands, &results);
        for (k, old) in old_results.iter().enumerate() {
            let nv = ir.result(new, k);
            if is_tensor(ir, *old) {
                self.replace_tensor(ir, *old, nv, new);
            } else {
                self.replaced.insert(*old, nv);
            }
        }
        Ok(())
    }

    /// A fresh buffer for a call operand the callee writes.
    fn copy_for_call(&mut self, ir: &mut Ir, op: OpId, i: usize, reads: bool) -> Result<Value, Diagnostic> {
        let v = ir.operand(op, i);
        let t = ir.value_type(v);
        let loc = ir.loc(op);
        let old = self.buffer_of(ir, v, op)?;
        let fresh = self.alloc(ir, op, t, &[])?;
        if reads {
            Builder::new(ir, InsertPoint::Before(op)).op("memref.copy", &[old, fresh], &[], vec![], loc);
        }
        Ok(fresh)
    }

    /// With function boundaries a return takes buffers. Upstream also
    /// materializes each returned buffer in the fully dynamic argument
    /// layout, a cast nothing uses; it is kept for identical output.
    fn rewrite_return(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        for (i, v) in ir.operands(op).to_vec().into_iter().enumerate() {
            if !is_tensor(ir, v) {
                continue;
            }
            let t = ir.value_type(v);
            let buf = self.buffer_of(ir, v, op)?;
            let Some(dynamic) = unknown_layout_type(ir, t) else {
                return Err(unsupported(ir, op, "returns a tensor of unsupported type"));
            };
            if ir.value_type(buf) != dynamic {
                let loc = ir.value_loc(buf).unwrap_or_else(|| ir.loc(op));
                Builder::new(ir, InsertPoint::Before(op)).op("memref.cast", &[buf], &[dynamic], vec![], loc);
            }
            ir.set_operand(op, i, buf);
        }
        Ok(())
    }

    /// Rebuilds a region op (`scf.if`, `scf.for`) with memref result types
    /// where it had tensors, and sends later uses to the new results.
    fn retype_results(&mut self, ir: &mut Ir, op: OpId, types: &[Type]) {
        let results = ir.results(op).to_vec();
        let operands = ir.operands(op).to_vec();
        let new = ir.rebuild_op(op, &operands, types);
        for (k, old) in results.iter().enumerate() {
            let nv = ir.result(new, k);
            if is_tensor(ir, *old) {
                self.replace_tensor(ir, *old, nv, new);
            } else {
                self.replaced.insert(*old, nv);
            }
        }
    }

    /// Before a loop's body is rewritten: its tensor iter_args become the
    /// init buffers (or fresh copies), and the body sees them through
    /// `to_tensor`s that vanish once every use is rewritten.
    fn enter_for(&mut self, ir: &mut Ir, op: OpId, an: &Analysis) -> Result<(), Diagnostic> {
        if ir.is_op(op, "scf.while") {
            return self.enter_while(ir, op, an);
        }
        ir.remap_operands(op, &self.replaced);
        let Some(&block) = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()) else { return Ok(()) };
        let args = ir.block_args(block).to_vec();
        if !args.iter().any(|a| is_tensor(ir, *a)) {
            return Ok(());
        }
        // Upstream rebuilds the loop: its induction variable is located at
        // the loop, each iter_arg at its (bufferized) init.
        let for_loc = ir.loc(op);
        ir.set_block_arg_loc(args[0], for_loc);
        for (k, &arg) in args.iter().enumerate().skip(1) {
            let i = 2 + k;
            let init = ir.operand(op, i);
            if !is_tensor(ir, init) {
                if let Some(l) = ir.value_loc(init) {
                    ir.set_block_arg_loc(arg, l);
                }
                continue;
            }
            let buf =
                if an.in_place(op, i) { self.buffer_of(ir, init, op)? } else { self.out_of_place_buffer(ir, op, i)? };
            ir.set_operand(op, i, buf);
            // Upstream bufferizes inner loops first, when an enclosing loop's
            // iter_arg is still a tensor: its buffer is located where that
            // iter_arg was written.
            let init_loc = self.iter_arg_locs.get(&buf).copied().or_else(|| ir.value_loc(buf));
            if let Some(old) = ir.block_arg_loc(arg) {
                self.iter_arg_locs.insert(arg, old);
            }
            if let Some(l) = init_loc {
                ir.set_block_arg_loc(arg, l);
            }
            let t = ir.value_type(arg);
            let bt = ir.value_type(buf);
            ir.set_value_type(arg, bt);
            tensor_view_of_arg(ir, op, block, arg, t);
        }
        Ok(())
    }

    /// `scf.while`: its operands become buffers (or copies), and both
    /// regions' arguments take their types (upstream rebuilds the op, so all
    /// its block arguments are located at it).
    fn enter_while(&mut self, ir: &mut Ir, op: OpId, an: &Analysis) -> Result<(), Diagnostic> {
        ir.remap_operands(op, &self.replaced);
        let regions = ir.regions(op).to_vec();
        let blocks: Vec<hivm_ir::BlockId> =
            regions.iter().filter_map(|r| ir.region_blocks(*r).first().copied()).collect();
        if !ir.operands(op).iter().any(|v| is_tensor(ir, *v)) {
            return Ok(());
        }
        let loc = ir.loc(op);
        for &b in &blocks {
            for a in ir.block_args(b).to_vec() {
                ir.set_block_arg_loc(a, loc);
            }
        }
        for i in 0..ir.operands(op).len() {
            let init = ir.operand(op, i);
            if !is_tensor(ir, init) {
                continue;
            }
            let buf =
                if an.in_place(op, i) { self.buffer_of(ir, init, op)? } else { self.out_of_place_buffer(ir, op, i)? };
            ir.set_operand(op, i, buf);
            let bt = ir.value_type(buf);
            for &b in &blocks {
                let Some(&arg) = ir.block_args(b).get(i) else { continue };
                let t = ir.value_type(arg);
                if !ir.type_data(t).is_tensor() {
                    continue;
                }
                ir.set_value_type(arg, bt);
                tensor_view_of_arg(ir, op, b, arg, t);
            }
        }
        Ok(())
    }

    /// After its body: the loop's tensor results become its iter_args' buffers.
    fn exit_for(&mut self, ir: &mut Ir, op: OpId, an: &Analysis) -> Result<(), Diagnostic> {
        if ir.is_op(op, "scf.while") {
            let results = ir.results(op).to_vec();
            if !results.iter().any(|r| is_tensor(ir, *r)) {
                return Ok(());
            }
            let before = ir.region_blocks(ir.regions(op)[0])[0];
            let types: Vec<Type> = results
                .iter()
                .enumerate()
                .map(
                    |(k, r)| {
                        if is_tensor(ir, *r) { ir.value_type(ir.block_args(before)[k]) } else { ir.value_type(*r) }
                    },
                )
                .collect();
            self.retype_results(ir, op, &types);
            return Ok(());
        }
        let results = ir.results(op).to_vec();
        if !results.iter().any(|r| is_tensor(ir, *r)) {
            return Ok(());
        }
        let block = ir.region_blocks(ir.regions(op)[0])[0];
        let yield_op = ir.terminator(block).expect("scf.for body ends in a yield");
        for k in 0..results.len() {
            if an.yield_copies.contains(&(op, k)) {
                // The body's own buffer goes back into the iter_arg's.
                let (own, arg) = (ir.operand(yield_op, k), ir.block_args(block)[k + 1]);
                let loc = ir.loc(yield_op);
                Builder::new(ir, InsertPoint::Before(yield_op)).op("memref.copy", &[own, arg], &[], vec![], loc);
                ir.set_operand(yield_op, k, arg);
            }
        }
        let mut types = Vec::new();
        for (k, r) in results.iter().enumerate() {
            let arg_t = ir.value_type(ir.block_args(block)[k + 1]);
            if is_tensor(ir, *r) && ir.value_type(ir.operand(yield_op, k)) != arg_t {
                return Err(unsupported(ir, op, "yields a buffer of another type than its iter_arg's"));
            }
            types.push(if is_tensor(ir, *r) { arg_t } else { ir.value_type(*r) });
        }
        self.retype_results(ir, op, &types);
        Ok(())
    }

    /// A fresh buffer for operand `i` of `op`, holding a copy of the old
    /// contents when `op` reads them; dynamic sizes come from the old buffer.
    fn out_of_place_buffer(&mut self, ir: &mut Ir, op: OpId, i: usize) -> Result<Value, Diagnostic> {
        let v = ir.operand(op, i);
        let t = ir.value_type(v);
        let loc = ir.loc(op);
        // A loop's init is copied whatever the loop does with it, as upstream.
        let reads = interface::reads(ir, op, i) || ir.is_op(op, "scf.for") || ir.is_op(op, "scf.while");
        let shape = ir.type_data(t).shape().map(|s| s.to_vec()).unwrap_or_default();
        let dynamic = shape.contains(&DYNAMIC);
        let old = if reads || dynamic { Some(self.buffer_of(ir, v, op)?) } else { None };
        let mut sizes = Vec::new();
        if let Some(old) = old.filter(|_| dynamic) {
            let index = ir.index_type();
            for (d, _) in shape.iter().enumerate().filter(|(_, n)| **n == DYNAMIC) {
                let value = ir.int_attr(d as i128, index);
                let mut b = Builder::new(ir, InsertPoint::Before(op));
                let c = b.op("arith.constant", &[], &[index], vec![("value", value)], loc);
                let c = ir.result(c, 0);
                let dim = Builder::new(ir, InsertPoint::Before(op)).op("memref.dim", &[old, c], &[index], vec![], loc);
                sizes.push(ir.result(dim, 0));
            }
        }
        let fresh = self.alloc(ir, op, t, &sizes)?;
        if let Some(old) = old.filter(|_| reads) {
            Builder::new(ir, InsertPoint::Before(op)).op("memref.copy", &[old, fresh], &[], vec![], loc);
        }
        Ok(fresh)
    }

    /// Replaces the tensor `old` by a `to_tensor` of `buffer` placed after
    /// `after`; later ops find the buffer through it, and it is erased when
    /// nothing else needs a tensor.
    fn replace_tensor(&mut self, ir: &mut Ir, old: Value, buffer: Value, after: OpId) {
        let t = ir.value_type(old);
        let loc = ir.loc(after);
        let op =
            Builder::new(ir, InsertPoint::After(after)).op("bufferization.to_tensor", &[buffer], &[t], vec![], loc);
        let new = ir.result(op, 0);
        self.replaced.insert(old, new);
    }

    fn rewrite(&mut self, ir: &mut Ir, op: OpId, kind: Kind, an: &Analysis) -> Result<(), Diagnostic> {
        let loc = ir.loc(op);
        match kind {
            Kind::Boundary if self.boundaries => self.rewrite_return(ir, op)?,
            Kind::Call => self.rewrite_call(ir, op, an)?,
            Kind::ToTensor | Kind::Boundary => {}
            Kind::Yield | Kind::Condition | Kind::Mark => {
                for (i, v) in ir.operands(op).to_vec().into_iter().enumerate() {
                    if is_tensor(ir, v) {
                        let b = self.buffer_of(ir, v, op)?;
                        ir.set_operand(op, i, b);
                    }
                }
            }
            Kind::If => self.rewrite_if(ir, op)?,
            Kind::For => self.exit_for(ir, op, an)?,
            Kind::Dps if ir.is_op(op, "tensor.insert") => {
                let operands = ir.operands(op).to_vec();
                let dest_buf = if an.in_place(op, 1) {
                    self.buffer_of(ir, operands[1], op)?
                } else {
                    self.out_of_place_buffer(ir, op, 1)?
                };
                let mut store_operands = vec![operands[0], dest_buf];
                store_operands.extend_from_slice(&operands[2..]);
                let nontemporal = ir.bool_attr(false);
                let mut b = Builder::new(ir, InsertPoint::Before(op));
                let store = b.op("memref.store", &store_operands, &[], vec![("nontemporal", nontemporal)], loc);
                let res = ir.result(op, 0);
                self.replace_tensor(ir, res, dest_buf, store);
                ir.erase_op(op);
            }
            Kind::Splat => {
                // A fresh buffer and a `linalg.map` yielding the scalar, all
                // at the op, as upstream builds them.
                let res = ir.result(op, 0);
                let t = ir.value_type(res);
                let (scalar, sizes) = (ir.operand(op, 0), ir.operands(op)[1..].to_vec());
                let buf = self.alloc(ir, op, t, &sizes)?;
                let region = ir.new_region();
                let block = ir.create_block();
                ir.push_block(region, block);
                let et = ir.value_type(scalar);
                ir.add_block_arg(block, et, Some(loc));
                Builder::new(ir, InsertPoint::End(block)).op("linalg.yield", &[scalar], &[], vec![], loc);
                let mut st = hivm_ir::OperationState::new(ir.sym("linalg.map"), loc);
                st.operands = vec![buf];
                st.regions = vec![region];
                st.properties = Some(ir.dict_attr(Vec::new()));
                let map = Builder::new(ir, InsertPoint::Before(op)).create(st);
                self.replace_tensor(ir, res, buf, map);
                ir.erase_op(op);
            }
            Kind::Constant => {
                let (name, mt) = constants::global_for(ir, op, &mut self.symbol_counter)?;
                let sym = ir.sym(&name);
                let name_attr = ir.attr(AttrData::SymbolRef { root: sym, nested: Vec::new() });
                let mut b = Builder::new(ir, InsertPoint::Before(op));
                let get = b.op("memref.get_global", &[], &[mt], vec![("name", name_attr)], loc);
                let buf = ir.result(get, 0);
                let res = ir.result(op, 0);
                self.replace_tensor(ir, res, buf, get);
                ir.erase_op(op);
            }
            Kind::Alloc => {
                if ir.is_op(op, "bufferization.alloc_tensor") && hivm_dialects::util::segments(ir, op)[1] != 0 {
                    return Err(unsupported(ir, op, "has a copy operand"));
                }
                let res = ir.result(op, 0);
                let sizes = if ir.is_op(op, "tensor.empty") {
                    ir.operands(op).to_vec()
                } else {
                    hivm_dialects::util::segment(ir, op, 0).to_vec()
                };
                let t = ir.value_type(res);
                let buf = self.alloc(ir, op, t, &sizes)?;
                let alloc_op = ir.defining_op(buf).expect("alloc result");
                self.replace_tensor(ir, res, buf, alloc_op);
                ir.erase_op(op);
            }
            Kind::Dps if ir.is_op(op, "tensor.insert_slice") => {
                let (src, dest) = (ir.operand(op, 0), ir.operand(op, 1));
                let src_buf = self.buffer_of(ir, src, op)?;
                let dest_buf = if an.in_place(op, 1) {
                    self.buffer_of(ir, dest, op)?
                } else {
                    self.out_of_place_buffer(ir, op, 1)?
                };
                let slice = ir.value_type(src);
                let view = self.subview(ir, op, dest_buf, 2, slice)?;
                Builder::new(ir, InsertPoint::Before(op)).op("memref.copy", &[src_buf, view], &[], vec![], loc);
                let res = ir.result(op, 0);
                let copy = ir.prev_op(op).expect("the copy just made");
                self.replace_tensor(ir, res, dest_buf, copy);
                ir.erase_op(op);
            }
            Kind::Dps => {
                let operands = ir.operands(op).to_vec();
                let mut new_operands = Vec::with_capacity(operands.len());
                let mut out_buffers = HashMap::default();
                for (i, v) in operands.iter().enumerate() {
                    if !is_tensor(ir, *v) {
                        new_operands.push(*v);
                        continue;
                    }
                    let written = interface::written_result(ir, op, i);
                    let buf = match written {
                        Some(_) if !an.in_place(op, i) => self.out_of_place_buffer(ir, op, i)?,
                        _ => self.buffer_of(ir, *v, op)?,
                    };
                    if let Some(r) = written {
                        out_buffers.insert(r, buf);
                    }
                    new_operands.push(buf);
                }
                let results = ir.results(op).to_vec();
                let kept: Vec<Type> =
                    results.iter().filter(|r| !is_tensor(ir, **r)).map(|r| ir.value_type(*r)).collect();
                if kept.len() != results.len() && !kept.is_empty() {
                    return Err(unsupported(ir, op, "mixes tensor and non-tensor results"));
                }
                let new = ir.rebuild_op(op, &new_operands, &kept);
                if kept.is_empty() {
                    for (r, old) in results.iter().enumerate() {
                        let Some(buf) = out_buffers.get(&r) else {
                            return Err(unsupported(ir, new, "has a tensor result without a tensor out"));
                        };
                        self.replace_tensor(ir, *old, *buf, new);
                    }
                } else {
                    for (old, nv) in results.iter().zip(ir.results(new).to_vec()) {
                        self.replaced.insert(*old, nv);
                    }
                }
            }
            Kind::ExtractSlice => {
                let src = ir.operand(op, 0);
                let buf = self.buffer_of(ir, src, op)?;
                let res = ir.result(op, 0);
                let slice = ir.value_type(res);
                let view = self.subview(ir, op, buf, 1, slice)?;
                let view_op = ir.defining_op(view).expect("subview result");
                self.replace_tensor(ir, res, view, view_op);
                ir.erase_op(op);
            }
            Kind::Reshape if ir.is_op(op, "tensor.reshape") => {
                // `memref.reshape` needs an identity layout: a strided source
                // is copied first, as upstream does.
                let (src, shape) = (ir.operand(op, 0), ir.operand(op, 1));
                let mut buf = self.buffer_of(ir, src, op)?;
                if !matches!(ir.type_data(ir.value_type(buf)), TypeData::MemRef { layout: None, .. }) {
                    let st = ir.value_type(src);
                    let fresh = self.alloc(ir, op, st, &[])?;
                    Builder::new(ir, InsertPoint::Before(op)).op("memref.copy", &[buf, fresh], &[], vec![], loc);
                    buf = fresh;
                }
                let shape_buf = self.buffer_of(ir, shape, op)?;
                let res = ir.result(op, 0);
                let rt = ir.value_type(res);
                let Some(mt) = alloc_type(ir, rt) else {
                    return Err(unsupported(ir, op, "has a result with an encoding"));
                };
                let mut b = Builder::new(ir, InsertPoint::Before(op));
                let view = b.op("memref.reshape", &[buf, shape_buf], &[mt], vec![], loc);
                let v = ir.result(view, 0);
                self.replace_tensor(ir, res, v, view);
                ir.erase_op(op);
            }
            Kind::Reshape => {
                let src = ir.operand(op, 0);
                let mut buf = self.buffer_of(ir, src, op)?;
                let res = ir.result(op, 0);
                let rt = ir.value_type(res);
                let Some(TypeData::MemRef { shape, .. }) = alloc_type(ir, rt).map(|t| ir.type_data(t).clone()) else {
                    return Err(unsupported(ir, op, "has a result with an encoding"));
                };
                let expand = ir.is_op(op, "tensor.expand_shape");
                let groups = hivm_dialects::util::reassociation(ir, op);
                let mt = match reshaped_type(ir, ir.value_type(buf), &shape, &groups, expand) {
                    Some(t) => t,
                    None => {
                        // Not collapsible in place (the grouped dims are not
                        // contiguous): collapse a copy, as upstream does.
                        let st = ir.value_type(src);
                        let fresh = self.alloc(ir, op, st, &[])?;
                        Builder::new(ir, InsertPoint::Before(op)).op("memref.copy", &[buf, fresh], &[], vec![], loc);
                        buf = fresh;
                        reshaped_type(ir, ir.value_type(buf), &shape, &groups, expand)
                            .ok_or_else(|| unsupported(ir, op, "reshapes a buffer it cannot lay out"))?
                    }
                };
                let name = if expand { "memref.expand_shape" } else { "memref.collapse_shape" };
                let mut operands = vec![buf];
                operands.extend_from_slice(&ir.operands(op)[1..]);
                let mut attrs = Vec::new();
                for key in ["reassociation", "static_output_shape"] {
                    if let Some(a) = ir.get_attr(op, key) {
                        attrs.push((key, a));
                    }
                }
                let view = Builder::new(ir, InsertPoint::Before(op)).op(name, &operands, &[mt], attrs, loc);
                let v = ir.result(view, 0);
                self.replace_tensor(ir, res, v, view);
                ir.erase_op(op);
            }
            Kind::Cast if ir.is_op(op, "hivm.hir.copy") => {
                let buf = self.buffer_of(ir, ir.operand(op, 0), op)?;
                let res = ir.result(op, 0);
                self.replace_tensor(ir, res, buf, op);
                ir.erase_op(op);
            }
            Kind::Cast => {
                let buf = self.buffer_of(ir, ir.operand(op, 0), op)?;
                let res = ir.result(op, 0);
                let rt = ir.value_type(res);
                let (TypeData::MemRef { elem, layout, memory_space, .. }, Some(shape)) =
                    (ir.type_data(ir.value_type(buf)).clone(), ir.type_data(rt).shape().map(|s| s.to_vec()))
                else {
                    return Err(unsupported(ir, op, "casts to an unranked tensor"));
                };
                let mt = ir.ty(TypeData::MemRef { shape, elem, layout, memory_space });
                if mt == ir.value_type(buf) {
                    // Nothing to cast (a `to_be_replaced` copy): the source's buffer is the value.
                    self.replace_tensor(ir, res, buf, op);
                    ir.erase_op(op);
                    return Ok(());
                }
                let cast = Builder::new(ir, InsertPoint::Before(op)).op("memref.cast", &[buf], &[mt], vec![], loc);
                let v = ir.result(cast, 0);
                self.replace_tensor(ir, res, v, cast);
                ir.erase_op(op);
            }
            Kind::Dim => {
                let buf = self.buffer_of(ir, ir.operand(op, 0), op)?;
                let index = ir.operand(op, 1);
                let it = ir.index_type();
                let dim = Builder::new(ir, InsertPoint::Before(op)).op("memref.dim", &[buf, index], &[it], vec![], loc);
                let nv = ir.result(dim, 0);
                let res = ir.result(op, 0);
                self.replaced.insert(res, nv);
                ir.erase_op(op);
            }
            Kind::Materialize => {
                let (src, dest) = (ir.operand(op, 0), ir.operand(op, 1));
                if is_tensor(ir, dest) {
                    return Err(unsupported(ir, op, "has a tensor destination"));
                }
                let buf = self.buffer_of(ir, src, op)?;
                Builder::new(ir, InsertPoint::Before(op)).op("memref.copy", &[buf, dest], &[], vec![], loc);
                ir.erase_op(op);
            }
            Kind::Extract => {
                let operands = ir.operands(op).to_vec();
                let buf = self.buffer_of(ir, operands[0], op)?;
                let mut load_operands = vec![buf];
                load_operands.extend_from_slice(&operands[1..]);
                let res = ir.result(op, 0);
                let t = ir.value_type(res);
                // Built loads carry the property the parser leaves unset.
                let nontemporal = ir.bool_attr(false);
                let mut b = Builder::new(ir, InsertPoint::Before(op));
                let load = b.op("memref.load", &load_operands, &[t], vec![("nontemporal", nontemporal)], loc);
                let nv = ir.result(load, 0);
                self.replaced.insert(res, nv);
                ir.erase_op(op);
            }
        }
        Ok(())
    }
}

/// Erases `to_tensor`s nothing reads any more (the ones the rewrite made and
/// the input's own, whose buffers the users now take directly).
fn erase_dead_to_tensors(ir: &mut Ir, func: OpId) {
    let mut used = HashSet::default();
    let mut to_tensors = Vec::new();
    ir.walk(func, &mut |o| {
        used.extend(ir.operands(o).iter().copied());
        if ir.is_op(o, "bufferization.to_tensor") {
            to_tensors.push(o);
        }
    });
    for o in to_tensors {
        if !used.contains(&ir.result(o, 0)) {
            ir.erase_op(o);
        }
    }
}

/// Whether argument `k` of `func` may be written in place under function
/// boundary bufferization (unless marked `bufferization.writable = false`).
pub(crate) fn arg_writable(ir: &Ir, func: OpId, k: usize) -> bool {
    let Some(attrs) = ir.get_attr(func, "arg_attrs").and_then(|a| ir.as_array(a)) else { return true };
    let Some(&dict) = attrs.get(k) else { return true };
    !ir.dict_entries(dict).iter().any(|(key, v)| {
        ir.sym_str(*key) == "bufferization.writable" && matches!(ir.attr_data(*v), AttrData::Integer { value: 0, .. })
    })
}

fn find_function(ir: &Ir, module: OpId, name: &str) -> Option<OpId> {
    let mut found = None;
    ir.walk(module, &mut |o| {
        if found.is_none()
            && ir.is_op(o, "func.func")
            && ir.get_attr(o, "sym_name").and_then(|a| ir.as_str(a)) == Some(name)
        {
            found = Some(o);
        }
    });
    found
}

/// Functions in an order where callees come before their callers.
pub(crate) fn callee_first(ir: &Ir, funcs: &[OpId]) -> Result<Vec<OpId>, Diagnostic> {
    let name_of = |f: OpId| ir.get_attr(f, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("").to_string();
    let by_name: HashMap<String, OpId> = funcs.iter().map(|f| (name_of(*f), *f)).collect();
    let mut order = Vec::new();
    // 0: unvisited, 1: on the stack, 2: done.
    let mut state: HashMap<OpId, u8> = HashMap::default();
    fn visit(
        ir: &Ir,
        f: OpId,
        by_name: &HashMap<String, OpId>,
        state: &mut HashMap<OpId, u8>,
        order: &mut Vec<OpId>,
    ) -> Result<(), Diagnostic> {
        match state.get(&f) {
            Some(2) => return Ok(()),
            Some(1) => return Err(unsupported(ir, f, "is part of a recursive call chain")),
            _ => {}
        }
        state.insert(f, 1);
        let mut calls = Vec::new();
        ir.walk(f, &mut |o| {
            if ir.is_op(o, "func.call") {
                calls.push(o);
            }
        });
        for c in calls {
            if let Some(g) = analysis::callee(ir, c).and_then(|n| by_name.get(&n).copied())
                && g != f
            {
                visit(ir, g, by_name, state, order)?;
            } else if analysis::callee(ir, c).and_then(|n| by_name.get(&n).copied()) == Some(f) {
                return Err(unsupported(ir, f, "is part of a recursive call chain"));
            }
        }
        state.insert(f, 2);
        order.push(f);
        Ok(())
    }
    for &f in funcs {
        visit(ir, f, &by_name, &mut state, &mut order)?;
    }
    Ok(order)
}

fn bufferize_function(
    ir: &mut Ir,
    func: OpId,
    boundaries: bool,
    summaries: &HashMap<String, analysis::Summary>,
    scratch: &mut analysis::Scratch,
    symbol_counter: &mut u32,
) -> Result<analysis::Summary, Diagnostic> {
    let Some(entry) = ir.regions(func).first().and_then(|r| ir.region_blocks(*r).first().copied()) else {
        if boundaries {
            convert_declaration(ir, func);
        }
        // A declaration: its arguments are read and written, nothing returned is known.
        let n = match ir.get_attr(func, "function_type").and_then(|a| ir.as_type(a)).map(|t| ir.type_data(t).clone()) {
            Some(TypeData::Function { inputs, .. }) => inputs.len(),
            _ => 0,
        };
        return Ok(analysis::Summary { reads: vec![true; n], writes: vec![true; n], returns_arg: Vec::new() });
    };
    let ops: Vec<OpId> = ir.block_ops(entry).collect();
    let steps = analysis::schedule(ir, &ops);
    let n_args = ir.block_args(entry).len();
    let writable: Vec<bool> = (0..n_args).map(|k| boundaries && arg_writable(ir, func, k)).collect();
    let an = Analysis::run(ir, entry, &steps, &writable, summaries, scratch)?;
    let mut rw = Rewriter {
        func,
        entry,
        arg_buffers: HashMap::default(),
        iter_arg_locs: HashMap::default(),
        boundaries,
        summaries,
        replaced: hivm_ir::ValueMap::default(),
        symbol_counter: *symbol_counter,
    };
    if boundaries {
        // Tensor arguments become memrefs of the fully dynamic layout; the
        // body reaches them through `to_tensor`s that vanish once rewritten.
        for arg in ir.block_args(entry).to_vec() {
            if !is_tensor(ir, arg) {
                continue;
            }
            let t = ir.value_type(arg);
            let Some(dynamic) = unknown_layout_type(ir, t) else {
                return Err(unsupported(ir, func, "has a tensor argument of unsupported type"));
            };
            ir.set_value_type(arg, dynamic);
            tensor_view_of_arg(ir, func, entry, arg, t);
        }
    }
    for step in steps {
        match step {
            analysis::Step::Enter(op) => rw.enter_for(ir, op, &an)?,
            analysis::Step::Op(op) => {
                if let Some(kind) = interface::kind(ir, op) {
                    ir.remap_operands(op, &rw.replaced);
                    rw.rewrite(ir, op, kind, &an)?;
                }
            }
        }
    }
    *symbol_counter = rw.symbol_counter;
    ir.replace_uses_with_map(func, &rw.replaced);
    erase_dead_to_tensors(ir, func);
    if boundaries {
        update_signature(ir, func, entry)?;
    }
    Ok(an.summary)
}

/// The function type after its body is bufferized: arguments as retyped,
/// results as returned (every return must agree).
fn update_signature(ir: &mut Ir, func: OpId, entry: hivm_ir::BlockId) -> Result<(), Diagnostic> {
    let inputs: Vec<Type> = ir.block_args(entry).iter().map(|a| ir.value_type(*a)).collect();
    let mut results: Option<Vec<Type>> = None;
    let mut returns = Vec::new();
    ir.walk(func, &mut |o| {
        if ir.is_op(o, "func.return") {
            returns.push(o);
        }
    });
    for r in returns {
        let types: Vec<Type> = ir.operands(r).iter().map(|v| ir.value_type(*v)).collect();
        match &results {
            Some(prev) if *prev != types => {
                return Err(unsupported(ir, r, "returns buffers of other types than another return of the function"));
            }
            _ => results = Some(types),
        }
    }
    let old = ir.get_attr(func, "function_type").and_then(|a| ir.as_type(a));
    let results = match (results, old.map(|t| ir.type_data(t).clone())) {
        (Some(r), _) => r,
        (None, Some(TypeData::Function { results, .. })) => results,
        _ => Vec::new(),
    };
    let ft = ir.function_type(inputs, results);
    let a = ir.type_attr(ft);
    ir.set_attr(func, "function_type", a);
    drop_writable_marks(ir, func);
    Ok(())
}

/// `bufferization.writable` argument marks are consumed by bufferization.
fn drop_writable_marks(ir: &mut Ir, func: OpId) {
    let Some(attrs) = ir.get_attr(func, "arg_attrs").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()) else {
        return;
    };
    let mut any = false;
    let mut out = Vec::with_capacity(attrs.len());
    for d in attrs {
        let kept: Vec<(hivm_ir::Sym, hivm_ir::Attribute)> =
            ir.dict_entries(d).iter().filter(|(k, _)| ir.sym_str(*k) != "bufferization.writable").copied().collect();
        any |= !kept.is_empty();
        out.push(ir.dict_attr(kept));
    }
    if any {
        let a = ir.array_attr(out);
        ir.set_attr(func, "arg_attrs", a);
    } else {
        ir.remove_attr(func, "arg_attrs");
    }
}

/// A declaration's tensor arguments and results become memrefs of the fully
/// dynamic layout.
fn convert_declaration(ir: &mut Ir, func: OpId) {
    let Some(TypeData::Function { inputs, results }) =
        ir.get_attr(func, "function_type").and_then(|a| ir.as_type(a)).map(|t| ir.type_data(t).clone())
    else {
        return;
    };
    let conv = |ir: &mut Ir, ts: Vec<Type>| -> Vec<Type> {
        ts.into_iter()
            .map(|t| if ir.type_data(t).is_tensor() { unknown_layout_type(ir, t).unwrap_or(t) } else { t })
            .collect()
    };
    let (i, r) = (conv(ir, inputs), conv(ir, results));
    let ft = ir.function_type(i, r);
    let a = ir.type_attr(ft);
    ir.set_attr(func, "function_type", a);
}

impl Pass for OneShotBufferize {
    fn name(&self) -> &str {
        "one-shot-bufferize"
    }

    fn display_name(&self) -> &str {
        "OneShotBufferize"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let mut funcs = Vec::new();
        ir.walk(root, &mut |o| {
            if ir.is_op(o, "func.func") {
                funcs.push(o);
            }
        });
        let funcs = if self.function_boundaries { callee_first(ir, &funcs)? } else { funcs };
        let mut summaries = HashMap::default();
        let mut scratch = analysis::Scratch::default();
        let mut symbol_counter = 0;
        for f in funcs {
            let summary =
                bufferize_function(ir, f, self.function_boundaries, &summaries, &mut scratch, &mut symbol_counter)?;
            if let Some(name) = ir.get_attr(f, "sym_name").and_then(|a| ir.as_str(a)) {
                summaries.insert(name.to_string(), summary);
            }
        }
        Ok(())
    }
}

/// Replaces `arg` (already retyped to a buffer) inside `scope` by a
/// `to_tensor` of it, typed `t`, at the start of `block`: the ops still to
/// rewrite keep seeing a tensor, and the view folds away once they are.
fn tensor_view_of_arg(ir: &mut Ir, scope: OpId, block: hivm_ir::BlockId, arg: Value, t: Type) {
    let loc = ir.loc(scope);
    let ip = InsertPoint::start(ir, block);
    let tt = Builder::new(ir, ip).op("bufferization.to_tensor", &[arg], &[t], vec![], loc);
    let tv = ir.result(tt, 0);
    ir.replace_all_uses_in(scope, arg, tv);
    ir.set_operand(tt, 0, arg);
}

//! The checks MLIR's structured-op interfaces make on a linalg op, given its
//! indexing maps and iterator kinds: `IndexingMapOpInterface` and
//! `LinalgStructuredInterface` (ranks, loop sizes inferred from the static
//! shapes, the body's arguments), and the convolution and contraction
//! interfaces, which classify the loops from the maps. Shared by the
//! OpDSL named ops (`named.rs`) and the matmul family (`structured.rs`).

use hivm_ir::affine::{AffineBinOp, AffineExpr, AffineMap};
use hivm_ir::dialect::VerifyError;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{AttrData, Ir, OpId, TypeData, Value};

use crate::util::{body_element, segment, type_str};

/// Whether a loop is `parallel` (`false`: `reduction`).
pub(crate) type Parallel = bool;

/// The maps of an attribute holding an array of affine maps, if it does.
pub(crate) fn maps_of(ir: &Ir, a: hivm_ir::Attribute) -> Option<Vec<AffineMap>> {
    let AttrData::Array(items) = ir.attr_data(a) else { return None };
    items
        .iter()
        .map(|m| match ir.attr_data(*m) {
            AttrData::AffineMap(am) => Some(am.clone()),
            _ => None,
        })
        .collect()
}

/// The op's static shape of `v` as an indexing map sees it: none for a scalar.
fn static_shape(ir: &Ir, v: Value) -> Vec<i64> {
    ir.type_data(ir.value_type(v)).shape().map(<[i64]>::to_vec).unwrap_or_default()
}

fn map_str(m: &AffineMap) -> String {
    let mut s = String::new();
    m.print(&mut s);
    s
}

/// Whether every result is a distinct dim (MLIR's `isProjectedPermutation`).
pub(crate) fn is_projected_permutation(m: &AffineMap) -> bool {
    if m.num_symbols != 0 {
        return false;
    }
    let mut seen = vec![false; m.num_dims as usize];
    m.results.iter().all(|e| match e {
        AffineExpr::Dim(d) => seen.get_mut(*d as usize).is_some_and(|s| !std::mem::replace(s, true)),
        _ => false,
    })
}

/// The dims the map reads directly, in result order.
fn dims_of(m: &AffineMap) -> Vec<u32> {
    m.results.iter().filter_map(|e| if let AffineExpr::Dim(d) = e { Some(*d) } else { None }).collect()
}

/// For each loop, the position in the concatenated results of the first
/// result that is exactly that loop (MLIR's `inversePermutation` of the
/// loops-to-shapes map); `None` when a loop is never read directly.
fn shapes_to_loops(maps: &[AffineMap]) -> Option<Vec<usize>> {
    let loops = maps.iter().map(|m| m.num_dims).max().unwrap_or(0) as usize;
    let mut first: Vec<Option<usize>> = vec![None; loops];
    let results = maps.iter().flat_map(|m| m.results.iter());
    for (pos, e) in results.enumerate() {
        if let AffineExpr::Dim(d) = e
            && let Some(slot) = first.get_mut(*d as usize)
            && slot.is_none()
        {
            *slot = Some(pos);
        }
    }
    first.into_iter().collect()
}

/// MLIR's `verifyDestinationStyleOpInterface` and
/// `verifyStructuredOpInterface` (with `IndexingMapOpInterface::verifyImpl`):
/// `maps` are the op's indexing maps, `loops` its iterator count; the
/// inputs and inits are the op's `operandSegmentSizes` split.
pub(crate) fn verify_structured(ir: &Ir, op: OpId, maps: &[AffineMap], loops: usize) -> Result<(), VerifyError> {
    verify_structured_split(ir, op, segment(ir, op, 0).len(), maps, loops)
}

/// [`verify_structured`] for an op whose first `ins` operands are its
/// inputs and the rest its inits (ops without `operandSegmentSizes`).
pub(crate) fn verify_structured_split(
    ir: &Ir,
    op: OpId,
    ins: usize,
    maps: &[AffineMap],
    loops: usize,
) -> Result<(), VerifyError> {
    let operands = ir.operands(op);
    crate::hivm::ops::verify_dps(ir, op, ins..operands.len())?;
    let td = |v: &Value| ir.type_data(ir.value_type(*v));
    let scalar = |v: &Value| !td(v).is_shaped();
    let pure_tensor = operands.iter().all(|v| scalar(v) || td(v).is_tensor());
    let pure_buffer = operands.iter().all(|v| scalar(v) || td(v).is_memref());
    if !pure_tensor && !pure_buffer && !operands.is_empty() {
        return Err("expected to have pure tensor or buffer semantics".into());
    }
    verify_indexing_maps(ir, operands, maps)?;
    for (i, m) in maps.iter().enumerate() {
        if m.num_dims as usize != loops {
            return Err(
                format!("expected indexing_map #{i} to have {loops} dim(s) to match the number of loops").into()
            );
        }
    }
    let block = match ir.regions(op) {
        [r] if ir.region_blocks(*r).len() == 1 => ir.region_blocks(*r)[0],
        _ => return Err("expects to have 1 region with 1 block".into()),
    };
    let args = ir.block_args(block);
    if args.len() != operands.len() {
        return Err(
            "expected as many non-induction variable region arguments as the number of input/output operands".into()
        );
    }
    for (i, (a, v)) in args.iter().zip(operands).enumerate() {
        let want = body_element(ir, ir.value_type(*v));
        let got = ir.value_type(*a);
        if got != want {
            return Err(format!(
                "expected type of bb argument #{i} ('{}') to match element or self type of the corresponding operand ('{}')",
                type_str(ir, got),
                type_str(ir, want)
            )
            .into());
        }
    }
    Ok(())
}

/// `IndexingMapOpInterface::verifyImpl`: one map per operand, of the
/// operand's rank, invertible, and (with every loop size known) reading
/// inside each static shape.
fn verify_indexing_maps(ir: &Ir, operands: &[Value], maps: &[AffineMap]) -> Result<(), VerifyError> {
    if maps.len() != operands.len() {
        return Err(format!(
            "expected the number of indexing_map ({}) to be equal to the number of input/output operands ({})",
            maps.len(),
            operands.len()
        )
        .into());
    }
    let shapes: Vec<Vec<i64>> = operands.iter().map(|v| static_shape(ir, *v)).collect();
    for (i, (m, shape)) in maps.iter().zip(&shapes).enumerate() {
        if m.num_symbols != 0 {
            return Err(format!("unexpected symbols in indexing_map #{i}").into());
        }
        if m.results.len() != shape.len() {
            return Err(format!(
                "expected operand #{i} rank ({}) to match the result rank of indexing_map ({})",
                shape.len(),
                m.results.len()
            )
            .into());
        }
    }
    let Some(positions) = shapes_to_loops(maps) else {
        let all = AffineMap {
            num_dims: maps.iter().map(|m| m.num_dims).max().unwrap_or(0),
            num_symbols: 0,
            results: maps.iter().flat_map(|m| m.results.iter().cloned()).collect(),
        };
        return Err(format!("invalid indexing maps are non-invertible: ({})", map_str(&all)).into());
    };
    let sizes: Vec<i64> = shapes.iter().flatten().copied().collect();
    let ends: Vec<i64> = positions.iter().map(|p| sizes[*p]).collect();
    if ends.contains(&DYNAMIC) {
        return Ok(());
    }
    let ends: Vec<i64> = ends.iter().map(|e| e.wrapping_sub(1)).collect();
    let starts = vec![0; ends.len()];
    for (i, (m, shape)) in maps.iter().zip(&shapes).enumerate() {
        for (d, (e, &size)) in m.results.iter().zip(shape).enumerate() {
            if size == DYNAMIC || size == 0 {
                continue;
            }
            let (Some(lo), Some(hi)) = (e.eval(&starts, &[]), e.eval(&ends, &[])) else { continue };
            let inferred = lo.max(hi).wrapping_add(1);
            if lo.min(hi) < 0 {
                return Err(format!("unexpected result less than 0 at expression #{d} in {}", map_str(m)).into());
            }
            if matches!(e, AffineExpr::Dim(_)) {
                if inferred != size {
                    return Err(format!(
                        "inferred input/output operand #{i} has shape's dimension #{d} to be {inferred}, but found {size}"
                    )
                    .into());
                }
            } else if inferred > size {
                return Err(format!(
                    "inferred input/output operand #{i} has shape's dimension #{d} to be greater than or equal to {inferred}, but found {size}"
                )
                .into());
            }
        }
    }
    Ok(())
}

// ----- ConvolutionOpInterface -----

/// MLIR's `ConvAccessExprWalker`: sorts the dims of the input map into
/// convolved ones (in `a * s + b * t` sums) and plain ones.
#[derive(Default)]
struct ConvWalker {
    convolved: Vec<u32>,
    unconvolved: Vec<u32>,
}

impl ConvWalker {
    fn seen(&self, d: u32) -> bool {
        self.convolved.contains(&d) || self.unconvolved.contains(&d)
    }

    fn visit(&mut self, e: &AffineExpr) -> bool {
        match e {
            AffineExpr::Dim(d) => {
                if self.seen(*d) {
                    return false;
                }
                self.unconvolved.push(*d);
                true
            }
            AffineExpr::Bin(b) if b.op == AffineBinOp::Add => self.term(&b.lhs) && self.term(&b.rhs),
            _ => false,
        }
    }

    /// A `dim` or `dim * constant` term of a convolved sum.
    fn term(&mut self, e: &AffineExpr) -> bool {
        let d = match e {
            AffineExpr::Dim(d) => *d,
            AffineExpr::Bin(b) if b.op == AffineBinOp::Mul => match (&b.lhs, &b.rhs) {
                (AffineExpr::Dim(d), AffineExpr::Constant(_) | AffineExpr::Symbol(_))
                | (AffineExpr::Constant(_) | AffineExpr::Symbol(_), AffineExpr::Dim(d)) => *d,
                _ => return false,
            },
            _ => return false,
        };
        if self.seen(d) {
            return false;
        }
        self.convolved.push(d);
        true
    }
}

/// `verifyConvolutionInterface`: the input map reads convolved sums and
/// plain dims, and every loop is a batch, output image, output channel,
/// filter, input channel or depth loop of the right kind.
pub(crate) fn verify_convolution(
    maps: &[AffineMap],
    iters: &[Parallel],
    ins: usize,
    inits: usize,
) -> Result<(), VerifyError> {
    let err = |m: &str| Err(VerifyError::plain(m));
    if ins < 2 || inits != 1 {
        return err("expected op with 2 inputs and 1 output");
    }
    let (Some(input), Some(filter), Some(output)) = (maps.first(), maps.get(1), maps.last()) else {
        return Ok(());
    };
    let mut w = ConvWalker::default();
    if !input.results.iter().all(|e| w.visit(e)) {
        return err("unexpected input index map for convolutions");
    }
    if !is_projected_permutation(filter) || !is_projected_permutation(output) {
        return err("expected output/filter indexing maps to be projected permutations");
    }
    let (out_dims, filter_dims) = (dims_of(output), dims_of(filter));
    let parallel = |d: u32| iters.get(d as usize).copied().unwrap_or(false);
    let mut all: Vec<u32> = Vec::new();
    for &d in &out_dims {
        let (conv, plain, in_filter) = (w.convolved.contains(&d), w.unconvolved.contains(&d), filter_dims.contains(&d));
        // Batch or depth (plain), output image (convolved, not filtered),
        // output channel (filtered only).
        let known = match (conv, plain) {
            (_, true) => true,
            (true, false) => !in_filter,
            (false, false) => in_filter,
        };
        if !known {
            return err("unexpected loop dimension for convolution op");
        }
        if !parallel(d) {
            return err("expected all iterators used to access outputs to be parallel");
        }
        all.push(d);
    }
    for &d in &filter_dims {
        let (conv, plain, in_out) = (w.convolved.contains(&d), w.unconvolved.contains(&d), out_dims.contains(&d));
        // Output channels and depth multipliers were seen with the outputs.
        if in_out && !conv {
            continue;
        }
        if (conv || plain) && !in_out {
            if parallel(d) {
                return err("expected all iterators not used to access outputs to be reduction");
            }
            if all.contains(&d) {
                return err("unexpected loop dimension for convolution op");
            }
            all.push(d);
            continue;
        }
        return err("unexpected loop dimension for convolution op");
    }
    all.sort_unstable();
    all.dedup();
    if all.len() != iters.len() {
        return err("unexpected loop dimension for convolution op");
    }
    if w.convolved.is_empty() {
        return err("expected convolved dim to be non-empty");
    }
    Ok(())
}

// ----- ContractionOpInterface -----

/// `value` with pure one-operand ops (casts) looked through.
fn skip_unary(ir: &Ir, mut value: Value) -> Value {
    while let Some(op) = ir.defining_op(value) {
        if ir.operands(op).len() != 1 || !ir.is_side_effect_free(op) {
            break;
        }
        value = ir.operands(op)[0];
    }
    value
}

/// MLIR's `isContractionBody` for the add/mul pairs: the body yields
/// `acc + a * b` up to casts.
fn is_add_mul_body(ir: &Ir, op: OpId) -> bool {
    let Some(block) = ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()).copied() else {
        return false;
    };
    let args = ir.block_args(block);
    let Some(term) = ir.terminator(block) else { return false };
    if args.len() != 3 || ir.operands(term).len() != 1 {
        return false;
    }
    let Some(reduction) = ir.defining_op(skip_unary(ir, ir.operands(term)[0])) else { return false };
    if ir.results(reduction).len() != 1 || ir.operands(reduction).len() != 2 {
        return false;
    }
    let (l, r) = (skip_unary(ir, ir.operands(reduction)[0]), skip_unary(ir, ir.operands(reduction)[1]));
    if l != args[2] && r != args[2] {
        return false;
    }
    let is_arg = |v: Value| ir.defining_op(v).is_none();
    let contributed = skip_unary(ir, if is_arg(l) { r } else { l });
    let Some(elementwise) = ir.defining_op(contributed) else { return false };
    if ir.results(elementwise).len() != 1 || ir.operands(elementwise).len() != 2 {
        return false;
    }
    let pairs = [("arith.mulf", "arith.addf"), ("arith.muli", "arith.addi"), ("arith.andi", "arith.ori")];
    if !pairs.contains(&(ir.op_name(elementwise), ir.op_name(reduction))) {
        return false;
    }
    let (a, b) = (skip_unary(ir, ir.operands(elementwise)[0]), skip_unary(ir, ir.operands(elementwise)[1]));
    (a, b) == (args[0], args[1]) || (a, b) == (args[1], args[0])
}

/// `verifyContractionInterface`.
pub(crate) fn verify_contraction(
    ir: &Ir,
    op: OpId,
    maps: &[AffineMap],
    iters: &[Parallel],
    ins: usize,
    inits: usize,
) -> Result<(), VerifyError> {
    let err = |m: &str| Err(VerifyError::plain(m));
    if ins != 2 || inits != 1 {
        return err("expected op with 2 inputs and 1 output");
    }
    if iters.iter().all(|p| *p) {
        return err("expected at least 1 reduction");
    }
    if !maps.iter().all(is_projected_permutation) {
        return err("expected indexing maps to be projected permutations");
    }
    if !is_add_mul_body(ir, op) {
        return err("expected add/mul op in the body");
    }
    Ok(())
}

/// `linalg.contract`'s own checks: projected permutations of the operands'
/// ranks over one iteration space, each dim read by an operand and either
/// contracted (both inputs, not the output) or parallel.
pub(crate) fn verify_contract(ir: &Ir, op: OpId, maps: &[AffineMap]) -> Result<(), VerifyError> {
    let err = |m: String| Err(VerifyError::plain(m));
    let mut dims: Option<u32> = None;
    let (mut ins, mut outs) = (Vec::new(), Vec::new());
    for (i, (m, v)) in maps.iter().zip(ir.operands(op)).take(3).enumerate() {
        if !is_projected_permutation(m) {
            return err("provided affine_map is not a projected permutation".into());
        }
        let t = ir.type_data(ir.value_type(*v));
        if t.is_shaped() && m.results.len() != t.rank() {
            return err("ranks of shaped operand and results of corresponding affine_map differ".into());
        }
        if !t.is_shaped() && !m.results.is_empty() {
            return err("affine_map specifies shaped access while operand has non-shaped type".into());
        }
        match dims {
            None => {
                dims = Some(m.num_dims);
                ins = vec![0usize; m.num_dims as usize];
                outs = vec![0usize; m.num_dims as usize];
            }
            Some(n) if n != m.num_dims => return err("iteration spaces of provided affine_maps differ".into()),
            Some(_) => {}
        }
        let counts = if i < 2 { &mut ins } else { &mut outs };
        for d in dims_of(m) {
            counts[d as usize] += 1;
        }
    }
    let mut contracting = false;
    for (d, (i, o)) in ins.iter().zip(&outs).enumerate() {
        contracting |= *i == 2 && *o == 0;
        if *i == 0 && *o == 0 {
            return err(format!("iteration space dim at index {d} not used to access any operand"));
        }
        if *i == 1 && *o != 1 {
            return err(format!(
                "iteration space dim at index {d} is neither a contracting dim nor of parallel iteration type"
            ));
        }
    }
    if !contracting {
        return err("'indexing_maps' do not specify a contracting dimension".into());
    }
    Ok(())
}

/// Iterator kinds read off an output map: its dims parallel, the rest
/// reductions (how `linalg.contract` defines them).
pub(crate) fn iterators_from_output(out: &AffineMap) -> Vec<Parallel> {
    let mut it = vec![false; out.num_dims as usize];
    for d in dims_of(out) {
        if let Some(p) = it.get_mut(d as usize) {
            *p = true;
        }
    }
    it
}

/// Whether `t` is a ranked tensor (the only results structured ops have).
pub(crate) fn is_ranked_tensor(ir: &Ir, t: hivm_ir::Type) -> bool {
    matches!(ir.type_data(t), TypeData::RankedTensor { .. })
}

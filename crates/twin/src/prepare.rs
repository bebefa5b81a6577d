//! Bringing a tensor-level kernel to the memrefs the interpreter runs, in
//! the order the device pipeline does it: arith/math on tensors become
//! `linalg.generic` (`convert-elementwise-to-linalg`), loops that yield
//! tensors computed outside their iter_args' buffers get a copy into them
//! (what bishengir's `allow-return-allocs-from-loops` permits), then
//! `one-shot-bufferize` (tensor constants become `memref.global`s, which
//! the interpreter fills from their initial values).

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::{Ir, OpId};

/// Whether any op of `module` takes or makes a tensor.
pub fn has_tensors(ir: &Ir, module: OpId) -> bool {
    let mut any = false;
    ir.walk(module, &mut |o| {
        any |= ir.operands(o).iter().chain(ir.results(o)).any(|v| ir.type_data(ir.value_type(*v)).is_tensor());
    });
    any
}

/// The passes a tensor-level kernel needs, in order, with
/// [`copy_loop_yields_into_iter_args`] between them.
pub const ELEMENTWISE: &str = "convert-elementwise-to-linalg";
pub const BUFFERIZE: &str = "one-shot-bufferize";

/// bishengir bufferizes with `allow-return-allocs-from-loops`: an `scf.for`
/// may yield a tensor computed in a fresh buffer rather than in its
/// iter_arg's. Our bufferization (MLIR's default) rejects that, so before
/// it each such yield is given a copy into the iter_arg (a `linalg.generic`
/// yielding its input), which bufferizes in place: the loop computes the
/// same values. A yielded value that reaches the iter_arg through the outs
/// of destination-passing ops is left alone.
pub fn copy_loop_yields_into_iter_args(ir: &mut Ir, module: OpId) {
    use hivm_transforms::bufferize::interface::{Kind, dps_outs, kind};
    let mut loops = Vec::new();
    ir.walk(module, &mut |o| {
        if ir.is_op(o, "scf.for") {
            loops.push(o);
        }
    });
    for l in loops {
        let Some(body) = ir.regions(l).first().and_then(|r| ir.region_blocks(*r).first().copied()) else { continue };
        let Some(y) = ir.terminator(body).filter(|t| ir.is_op(*t, "scf.yield")) else { continue };
        let args = ir.block_args(body).to_vec();
        for (k, &v) in ir.operands(y).to_vec().iter().enumerate() {
            let Some(&arg) = args.get(k + 1) else { continue };
            if !ir.type_data(ir.value_type(v)).is_tensor() || ir.value_type(v) != ir.value_type(arg) {
                continue;
            }
            // Follow outs back towards the iter_arg.
            let mut cur = v;
            let reaches = loop {
                if cur == arg {
                    break true;
                }
                let Some(def) = ir.defining_op(cur) else { break false };
                let r = ir.results(def).iter().position(|x| *x == cur).unwrap_or(0);
                cur = match kind(ir, def) {
                    Some(Kind::Dps) => ir.operand(def, dps_outs(ir, def).start + r),
                    Some(Kind::For) if ir.is_op(def, "scf.for") => ir.operand(def, 3 + r),
                    _ => break false,
                };
            };
            if !reaches {
                let c = copy_into(ir, y, v, arg);
                ir.set_operand(y, k, c);
            }
        }
    }
}

/// `linalg.generic ins(src) outs(dst) { yield in }` before `at`.
fn copy_into(ir: &mut Ir, at: OpId, src: hivm_ir::Value, dst: hivm_ir::Value) -> hivm_ir::Value {
    use hivm_ir::affine::{AffineExpr, AffineMap};
    use hivm_ir::{AttrData, OperationState};
    let loc = ir.loc(at);
    let t = ir.value_type(dst);
    let rank = ir.type_data(t).rank() as u32;
    let id = AffineMap { num_dims: rank, num_symbols: 0, results: (0..rank).map(AffineExpr::Dim).collect() };
    let m = ir.attr(AttrData::AffineMap(id));
    let maps = ir.attr(AttrData::Array(vec![m, m]));
    let parallel = hivm_dialects::util::opaque_attr(ir, "linalg", "iterator_type<parallel>");
    let iterators = ir.attr(AttrData::Array(vec![parallel; rank as usize]));
    let segments = hivm_dialects::util::segment_attr(ir, &[1, 1]);
    let region = ir.new_region();
    let block = ir.create_block();
    ir.push_block(region, block);
    let et = hivm_dialects::util::body_element(ir, t);
    let a = ir.add_block_arg(block, et, Some(loc));
    ir.add_block_arg(block, et, Some(loc));
    Builder::new(ir, InsertPoint::End(block)).op("linalg.yield", &[a], &[], vec![], loc);
    let mut st = OperationState::new(ir.sym("linalg.generic"), loc);
    st.operands = vec![src, dst];
    st.result_types = vec![t];
    st.regions = vec![region];
    let keys = [ir.sym("indexing_maps"), ir.sym("iterator_types"), ir.sym("operandSegmentSizes")];
    st.properties = Some(ir.dict_attr(keys.into_iter().zip([maps, iterators, segments]).collect()));
    let g = Builder::new(ir, InsertPoint::Before(at)).create(st);
    ir.result(g, 0)
}

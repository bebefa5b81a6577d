//! `hivm-aggregated-decompose-op{decompose-phase=...}`: ops that stand for
//! several hardware steps become those steps. Here, as upstream's
//! `LoadOp::decomposeOperation` (phase `before-hivm-align`): a load that
//! initialises its destination (`init_out_buffer`, from a masked Triton load
//! with `other`) becomes a `vbrc` of the pad value over the whole buffer the
//! destination lies in (under `scf.if %init_condition {...}
//! {hivm.unlikely_condition}` when the load has one), then the plain load.
//! The broadcast runs on the vector pipe, so the sync solver now orders it
//! before the load like any other write. Only vector-side loads (an AIV
//! function, or a destination in UB) are split, as upstream.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, OperationState, Value};

use super::{address_space, enclosing, trace};

pub struct AggregatedDecompose {
    phase: String,
}

const PHASES: &[&str] = &[
    "no-constraint",
    "before-hivm-align",
    "after-hivm-align",
    "after-infer-hivm-data-layout",
    "after-hivm-recognize-deinterleave",
    "after-hivm-recognize-broadcast",
];

impl AggregatedDecompose {
    pub fn from_options(options: &str) -> Result<Self, String> {
        let mut phase = "no-constraint".to_string();
        for part in options.split_whitespace() {
            match part.split_once('=') {
                Some(("decompose-phase", v)) if PHASES.contains(&v) => phase = v.to_string(),
                Some(("decompose-phase", v)) => {
                    return Err(format!("invalid decompose-phase '{v}' (expected one of {})", PHASES.join(", ")));
                }
                _ => return Err(format!("'hivm-aggregated-decompose-op' pass has no option '{part}'")),
            }
        }
        Ok(AggregatedDecompose { phase })
    }
}

impl Pass for AggregatedDecompose {
    fn name(&self) -> &str {
        "hivm-aggregated-decompose-op"
    }

    fn display_name(&self) -> &str {
        "HIVMAggregatedDecomposeOp"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        if !matches!(self.phase.as_str(), "no-constraint" | "before-hivm-align") {
            return Ok(());
        }
        let mut loads = Vec::new();
        ir.walk(root, &mut |o| {
            if ir.is_op(o, "hivm.hir.load") && ir.get_attr(o, "init_out_buffer").and_then(|a| ir.as_int(a)) == Some(1) {
                loads.push(o);
            }
        });
        for load in loads {
            decompose_load(ir, load)?;
        }
        Ok(())
    }
}

fn in_aiv_function(ir: &Ir, op: OpId) -> bool {
    enclosing(ir, op, "func.func").is_some_and(|f| hivm_dialects::hivm::func_core_type(ir, f) == Some("AIV"))
}

fn decompose_load(ir: &mut Ir, load: OpId) -> Result<(), Diagnostic> {
    let c = ir.op_def(load).and_then(|d| d.spec).expect("hivm.hir.load is declared by its OpSpec");
    let group =
        |ir: &Ir, name: &str| c.operand_group(ir, load, c.operand_index(name).expect("a load operand")).to_vec();
    let (src, dst) = (group(ir, "src"), group(ir, "dst"));
    let (pad, left, right, cond) = (
        group(ir, "pad_value"),
        group(ir, "left_padding_num"),
        group(ir, "right_padding_num"),
        group(ir, "init_condition"),
    );
    let (Some(&dst_v), Some(&pad_v)) = (dst.first(), pad.first()) else { return Ok(()) };
    if !ir.type_data(ir.value_type(dst_v)).is_memref() {
        return Ok(());
    }
    if !in_aiv_function(ir, load) && address_space(ir, dst_v) != Some("ub") {
        return Ok(());
    }
    let buffer = trace::back_to_alloc(ir, dst_v);
    let elem = |ir: &Ir, v: Value| ir.type_data(ir.value_type(v)).element_type();
    if !trace::is_alloc_like(ir, buffer) || elem(ir, buffer) != elem(ir, dst_v) {
        // Upstream views a byte buffer in the element type here; such loads
        // stay whole (and the twin refuses them rather than guess).
        return Ok(());
    }
    let loc = ir.loc(load);
    let at = match cond.first() {
        Some(&cv) => {
            let then_r = ir.new_region();
            let else_r = ir.new_region();
            let mut st = OperationState::new(ir.sym("scf.if"), loc);
            st.operands = vec![cv];
            st.regions = vec![then_r, else_r];
            let unit = ir.unit_attr();
            st.attrs = vec![(ir.sym("hivm.unlikely_condition"), unit)];
            Builder::new(ir, InsertPoint::Before(load)).create(st);
            let block = ir.create_block();
            ir.push_block(then_r, block);
            let y = Builder::new(ir, InsertPoint::End(block)).op("scf.yield", &[], &[], vec![], loc);
            InsertPoint::Before(y)
        }
        None => InsertPoint::Before(load),
    };
    Builder::new(ir, at).op("hivm.hir.vbrc", &[pad_v, buffer], &[], vec![], loc);
    // The load itself, without the initialisation.
    let operands: Vec<Value> = src.iter().chain(&dst).chain(&pad).chain(&left).chain(&right).copied().collect();
    let seg = hivm_dialects::util::segment_attr(ir, &[src.len(), dst.len(), pad.len(), left.len(), right.len(), 0]);
    let results: Vec<_> = ir.results(load).iter().map(|r| ir.value_type(*r)).collect();
    let mut attrs: Vec<(String, hivm_ir::Attribute)> = Vec::new();
    for (k, v) in ir.all_attrs(load) {
        let name = ir.sym_str(k).to_string();
        if !matches!(name.as_str(), "init_out_buffer" | "operandSegmentSizes") {
            attrs.push((name, v));
        }
    }
    let mut attr_refs: Vec<(&str, hivm_ir::Attribute)> = attrs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    attr_refs.push(("operandSegmentSizes", seg));
    let new = Builder::new(ir, InsertPoint::Before(load)).op("hivm.hir.load", &operands, &results, attr_refs, loc);
    let new_results = ir.results(new).to_vec();
    ir.replace_op(load, &new_results);
    Ok(())
}

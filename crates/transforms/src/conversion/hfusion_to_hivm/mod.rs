//! `convert-hfusion-to-hivm` (AscendNPU-IR's lib/Conversion/HFusionToHIVM):
//! every linalg and hfusion op becomes its HIVM counterpart, on tensors
//! (results kept) and on memrefs alike. The named elementwise ops, compares,
//! selects and casts become `hivm.hir.v*` (scalar operands an op only takes
//! as vectors are swapped with a vector operand when the op commutes, else
//! broadcast with `vbrc` into a fresh buffer); fills and broadcasts become
//! `vbrc` (a broadcast's input reshaped to the output's rank first);
//! reductions `vreduce` between an `expand_shape` of each init and a
//! `collapse_shape` back; copies, transposes, aranges, loads, stores and the
//! data-movement ops their HIVM twins; matmuls (in the default `core_op`
//! mode) the global `hivm.hir.matmul`. As upstream, this is a partial
//! conversion in which linalg and hfusion are illegal: an op no pattern
//! takes (a local matmul, a `linalg.generic`) fails the pass at the op. Afterwards
//! hfusion's annotations are renamed to HIVM's and `hfusion.bind_sub_block`
//! loops get the sub-block mapping.
//!
//! `elementwise.rs` has the vector arithmetic, `operands.rs` the scalar
//! operand fix-up, `broadcast.rs` fills and broadcasts, `reduce.rs`
//! reductions, `matmul.rs` matmuls, `reshape.rs` the expand/collapse views
//! broadcasts and reductions need,
//! `data.rs` the other ops, `marks.rs` the annotation rewrites.

mod broadcast;
mod data;
mod elementwise;
mod marks;
mod matmul;
mod operands;
mod reduce;
mod reshape;

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Attribute, Ir, OpId, Type, Value};

pub(crate) use super::to_hfusion::Cx;
use super::to_hfusion::convert;

/// Upstream's options. `mm-map-mode=macro_instr` (local matmuls) is
/// accepted, but its matmuls are not converted yet.
#[derive(Default)]
pub struct HFusionToHIVM {
    pub macro_instr: bool,
    pub enable_ubuf_saving: bool,
    pub disable_size_align_for_cast: bool,
}

impl HFusionToHIVM {
    pub fn from_options(options: &str) -> Result<HFusionToHIVM, String> {
        let mut p = HFusionToHIVM::default();
        for item in options.split_whitespace() {
            let (key, value) = item.split_once('=').unwrap_or((item, "true"));
            let flag = || match value {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(format!("invalid value '{value}' for option '{key}' of convert-hfusion-to-hivm")),
            };
            match key {
                "mm-map-mode" if matches!(value, "core_op" | "macro_instr") => p.macro_instr = value == "macro_instr",
                "is-enable-ubuf-saving" => p.enable_ubuf_saving = flag()?,
                "is-disable-size-align-for-cast" => p.disable_size_align_for_cast = flag()?,
                _ => return Err(format!("unknown option '{item}' for convert-hfusion-to-hivm")),
            }
        }
        Ok(p)
    }
}

/// The conversion target: linalg and hfusion are illegal dialects, except
/// `hfusion.matmul_mx` on memory-based targets (which have no op for it).
fn illegal_op(ir: &Ir, op: OpId, regbase: bool) -> bool {
    let name = ir.op_name(op);
    if name == "hfusion.matmul_mx" {
        return regbase;
    }
    name.starts_with("linalg.") || name.starts_with("hfusion.")
}

/// Tries each family for `op`; `Ok(false)` when none takes it.
fn rewrite(cx: &mut Cx<'_>, op: OpId, macro_instr: bool) -> Result<bool, Diagnostic> {
    let name = cx.ir.op_name(op).to_string();
    if let Some(done) = matmul::rewrite(cx, op, &name, macro_instr)? {
        return Ok(done);
    }
    if let Some(done) = elementwise::rewrite(cx, op, &name)? {
        return Ok(done);
    }
    if let Some(done) = broadcast::rewrite(cx, op, &name)? {
        return Ok(done);
    }
    if let Some(done) = reduce::rewrite(cx, op, &name)? {
        return Ok(done);
    }
    if let Some(done) = data::rewrite(cx, op, &name)? {
        return Ok(done);
    }
    Ok(false)
}

impl Pass for HFusionToHIVM {
    fn name(&self) -> &str {
        "convert-hfusion-to-hivm"
    }

    fn display_name(&self) -> &str {
        "ConvertHFusionToHIVM"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let macro_instr = self.macro_instr;
        let regbase = super::to_hfusion::regbase(ir, root);
        convert(ir, root, |ir, op| illegal_op(ir, op, regbase), |cx, op| rewrite(cx, op, macro_instr))?;
        marks::lower(ir, root, self.enable_ubuf_saving, self.disable_size_align_for_cast);
        Ok(())
    }
}

/// Builds `name` before `at` from its operand groups in declaration order
/// (groups left out are empty), with `operandSegmentSizes` when the op's
/// declaration uses it; inherent attributes left out take their defaults.
pub(super) fn build(
    ir: &mut Ir,
    at: OpId,
    name: &str,
    groups: &[&[Value]],
    results: &[Type],
    mut attrs: Vec<(&str, Attribute)>,
) -> OpId {
    let loc = ir.loc(at);
    let sym = ir.sym(name);
    let spec = ir.lookup_def(sym).and_then(|d| ir.registry.def(d).spec);
    if let Some(c) = spec.filter(|c| c.spec.segments) {
        let mut sizes: Vec<usize> = groups.iter().map(|g| g.len()).collect();
        sizes.resize(c.spec.operands.len(), 0);
        attrs.push(("operandSegmentSizes", hivm_dialects::util::segment_attr(ir, &sizes)));
    }
    let operands: Vec<Value> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    Builder::new(ir, InsertPoint::Before(at)).op(name, &operands, results, attrs, loc)
}

/// The `ins` and `outs` of a destination-style op (`operandSegmentSizes`,
/// else the last operand is the one init).
pub(super) fn ins_outs(ir: &Ir, op: OpId) -> (Vec<Value>, Vec<Value>) {
    let sizes = hivm_dialects::util::segments(ir, op);
    if sizes.len() >= 2 {
        return (hivm_dialects::util::segment(ir, op, 0).to_vec(), hivm_dialects::util::segment(ir, op, 1).to_vec());
    }
    let ops = ir.operands(op);
    match ops.split_last() {
        Some((init, ins)) => (ins.to_vec(), vec![*init]),
        None => (Vec::new(), Vec::new()),
    }
}

/// The types of `op`'s results (tensor semantics give results; memrefs none).
pub(super) fn result_types(ir: &Ir, op: OpId) -> Vec<Type> {
    ir.results(op).iter().map(|r| ir.value_type(*r)).collect()
}

/// `#hivm.mnemonic<value>`.
pub(super) fn hivm_enum(ir: &mut Ir, mnemonic: &str, value: &str) -> Attribute {
    hivm_dialects::util::opaque_attr(ir, "hivm", &format!("{mnemonic}<{value}>"))
}

/// The `<...>` of an enum attribute `key` of `op` (`#hfusion.binary_fn<vor>`).
pub(super) fn enum_value(ir: &Ir, op: OpId, key: &str, mnemonic: &str) -> Option<String> {
    let a = ir.get_attr(op, key)?;
    hivm_dialects::util::opaque_arg(ir, a, mnemonic).map(str::to_string)
}

/// Replaces `op`'s results by `new`'s (through the pass's map) and erases it.
pub(super) fn replace_with(cx: &mut Cx<'_>, op: OpId, new: OpId) {
    let results = cx.ir.results(new).to_vec();
    super::to_hfusion::replace(cx.ir, op, &results, cx.map);
}

/// Upstream's `return op.emitOpError(...)` in a pattern: the error is
/// reported and the pattern fails, so the conversion then reports the op
/// as not legalized too.
pub(super) fn refuse(ir: &mut Ir, op: OpId, what: &str) -> Result<Option<bool>, Diagnostic> {
    let d = unsupported(ir, op, what);
    ir.emitted.push(d);
    Ok(Some(false))
}

/// A located error at `op`, for the kinds upstream stops at.
pub(super) fn unsupported(ir: &Ir, op: OpId, what: &str) -> Diagnostic {
    Diagnostic::error(ir.loc(op), format!("'{}' op {what}", ir.op_name(op)))
}

//! `hivm-mark-stride-align`, for custom ops: each `ins` operand with an
//! `align_dim` entry in `arg_attrs` gets an `annotation.mark` with the stride
//! alignment its address space needs, right after the value is defined
//! (spec customop.md §6.4). Other HIVM ops' alignment rules are not here yet.

use hivm_dialects::hivm::attrs::enum_value;
use hivm_dialects::hivm::custom;
use hivm_ir::attrs::{AttrData, DenseArrayData};
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, TypeData, Value, ValueDef};

pub struct MarkStrideAlign;

fn address_space(ir: &Ir, v: Value) -> Option<String> {
    match ir.type_data(ir.value_type(v)) {
        TypeData::MemRef { memory_space: Some(a), .. } | TypeData::UnrankedMemRef { memory_space: Some(a), .. } => {
            enum_value(ir, *a, "address_space").map(str::to_string)
        }
        _ => None,
    }
}

fn i32_array(ir: &mut Ir, v: i64) -> hivm_ir::Attribute {
    let elem = ir.int_type(32);
    ir.attr(AttrData::DenseArray { elem, data: DenseArrayData::Int(vec![v]) })
}

impl MarkStrideAlign {
    fn handle(&self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        let operands = ir.operands(op).to_vec();
        let local = operands
            .iter()
            .any(|v| ir.type_data(ir.value_type(*v)).is_memref() && address_space(ir, *v).is_some_and(|s| s != "gm"));
        if !local {
            return Ok(());
        }
        let n = ir.get_attr(op, "arg_attrs").and_then(|a| ir.as_array(a)).map(|a| a.len()).unwrap_or(0);
        for (idx, &v) in operands.iter().enumerate().take(n) {
            let Some(d) = custom::arg_attr(ir, op, idx, "align_dim").and_then(|a| ir.as_int(a)) else { continue };
            let loc = ir.loc(op);
            let t = ir.value_type(v);
            let (rank, layout) = match ir.type_data(t) {
                TypeData::RankedTensor { .. } | TypeData::UnrankedTensor { .. } => {
                    return Err(Diagnostic::error(loc, "Not bufferized."));
                }
                TypeData::UnrankedMemRef { .. } => return Err(Diagnostic::error(loc, "UnrankedMemRef not supported.")),
                TypeData::MemRef { shape, layout, .. } => (shape.len() as i128, *layout),
                _ => continue,
            };
            if layout.is_some_and(|l| !matches!(ir.attr_data(l), AttrData::Strided { .. })) {
                return Err(Diagnostic::error(loc, "Non-strided-memref not supported."));
            }
            if d > rank - 1 {
                return Err(Diagnostic::error(loc, "align dim is too large."));
            }
            let bytes = match address_space(ir, v).as_deref() {
                Some("ub") | Some("cbuf") => 32,
                other => {
                    return Err(Diagnostic::error(
                        loc,
                        format!("Unsupported address space: {}", other.unwrap_or("none")),
                    ));
                }
            };
            let ip = match ir.value_def(v) {
                ValueDef::Result { op: def, .. } => InsertPoint::After(def),
                ValueDef::BlockArg { block, .. } => InsertPoint::start(ir, block),
                ValueDef::Placeholder => continue,
            };
            let dims = i32_array(ir, d as i64);
            let value = i32_array(ir, bytes);
            let mark_loc = ir.loc(op);
            let mut b = Builder::new(ir, ip);
            b.op(
                "annotation.mark",
                &[v],
                &[],
                vec![("hivm.stride_align_dims", dims), ("hivm.stride_align_value_in_byte", value)],
                mark_loc,
            );
        }
        Ok(())
    }
}

impl Pass for MarkStrideAlign {
    fn name(&self) -> &str {
        "hivm-mark-stride-align"
    }

    fn display_name(&self) -> &str {
        "MarkStrideAlign"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for op in super::device_custom_ops(ir, root) {
            self.handle(ir, op)?;
        }
        Ok(())
    }
}

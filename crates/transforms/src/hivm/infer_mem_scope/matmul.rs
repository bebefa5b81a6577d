//! Local matmuls and convolutions: their operands' allocations go to L1,
//! their accumulators to L0C.

use hivm_dialects::util::segment;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Attribute, Ir, OpId, TypeData};

use super::Cx;
use crate::hivm::trace;

pub(super) struct MatmulGroups {
    l1: Vec<(usize, &'static str)>,
    acc: usize,
    acc_name: &'static str,
    bias: Option<usize>,
}

/// Operand groups of the local matmuls and convolutions: those in L1, then
/// the accumulator.
pub(super) fn matmul_groups(ir: &Ir, op: OpId) -> Option<MatmulGroups> {
    match ir.op_name(op) {
        "hivm.hir.mmadL1" => {
            Some(MatmulGroups { l1: vec![(0, "mA"), (1, "mB")], acc: 6, acc_name: "mC", bias: Some(9) })
        }
        "hivm.hir.mmadmxL1" => Some(MatmulGroups {
            l1: vec![(0, "mA"), (1, "mB"), (2, "scaleA"), (3, "scaleB")],
            acc: 8,
            acc_name: "mC",
            bias: Some(10),
        }),
        "hivm.hir.Conv1dL1" | "hivm.hir.Conv2dL1" | "hivm.hir.Conv3dL1" => {
            Some(MatmulGroups { l1: vec![(0, "input"), (1, "weight")], acc: 3, acc_name: "output", bias: None })
        }
        _ => None,
    }
}

impl Cx {
    pub(super) fn matmul(
        &mut self,
        ir: &mut Ir,
        op: OpId,
        groups: &MatmulGroups,
        l1: Attribute,
        cc: Attribute,
    ) -> Result<(), Diagnostic> {
        let name = ir.op_name(op).to_string();
        if ir.operands(op).iter().any(|v| matches!(ir.type_data(ir.value_type(*v)), TypeData::RankedTensor { .. })) {
            return Err(Diagnostic::error(
                ir.loc(op),
                format!("'{name}' op Run infer memory scope after bufferization."),
            ));
        }
        let conv = name.starts_with("hivm.hir.Conv");
        for (g, space, what) in groups.l1.iter().map(|(g, w)| (*g, l1, *w)).chain([(groups.acc, cc, groups.acc_name)]) {
            let Some(&v) = segment(ir, op, g).first() else { continue };
            let allocs = if conv {
                // A convolution's operands must each come from one allocation.
                let root = trace::back_to_alloc(ir, v);
                if !trace::defined_by(ir, root, "memref.alloc") {
                    return Err(Diagnostic::error(
                        ir.loc(op),
                        format!("Cannot find root memref.alloc for {what} of this op."),
                    ));
                }
                vec![root]
            } else {
                trace::back_to_allocs(ir, v)
            };
            if allocs.is_empty() {
                return Err(Diagnostic::error(
                    ir.loc(op),
                    format!("'{name}' op Cannot find root memref.alloc for this op."),
                ));
            }
            for a in allocs {
                self.run(ir, a, space)?;
            }
        }
        if let Some(&bias) = groups.bias.and_then(|g| segment(ir, op, g).first()) {
            let root = trace::back_to_alloc(ir, bias);
            if !trace::defined_by(ir, root, "memref.alloc") {
                return Err(Diagnostic::error(ir.loc(op), "Cannot find root memref.alloc for bias of this op."));
            }
            self.run(ir, root, l1)?;
        }
        Ok(())
    }
}

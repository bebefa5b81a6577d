//! Conversions between dialects, one folder per source-to-target pair (as
//! MLIR's lib/Conversion).

pub mod arith_to_hfusion;
pub mod hfusion_to_hivm;
pub mod linalg_to_hfusion;
pub mod math_to_hfusion;
pub mod tensor_to_hfusion;
pub mod tensor_to_hivm;
pub(crate) mod to_hfusion;
pub mod to_hivm_pipeline;
pub mod triton_to_annotation;
pub mod triton_to_linalg;

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, Type, TypeData, Value};

/// Upstream's `createTensorEmptyOpWithTargetElemType`: a `tensor.empty`
/// shaped like `source` with element type `elem`, its dynamic sizes read
/// with `tensor.dim`, built before `at`.
pub(crate) fn empty_like(ir: &mut Ir, at: OpId, source: Value, elem: Type) -> Value {
    let loc = ir.loc(at);
    let shape = ir.type_data(ir.value_type(source)).shape().map(<[i64]>::to_vec).unwrap_or_default();
    let index = ir.index_type();
    let mut sizes = Vec::new();
    for (d, n) in shape.iter().enumerate() {
        if *n != DYNAMIC {
            continue;
        }
        let value = ir.int_attr(d as i128, index);
        let c =
            Builder::new(ir, InsertPoint::Before(at)).op("arith.constant", &[], &[index], vec![("value", value)], loc);
        let c = ir.result(c, 0);
        let dim = Builder::new(ir, InsertPoint::Before(at)).op("tensor.dim", &[source, c], &[index], vec![], loc);
        sizes.push(ir.result(dim, 0));
    }
    let t = ir.ty(TypeData::RankedTensor { shape, elem, encoding: None });
    let e = Builder::new(ir, InsertPoint::Before(at)).op("tensor.empty", &sizes, &[t], vec![], loc);
    ir.result(e, 0)
}

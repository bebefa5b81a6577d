//! Conversions between dialects, one folder per source-to-target pair (as
//! MLIR's lib/Conversion).

pub mod arith_to_hfusion;
pub mod linalg_to_hfusion;
pub mod math_to_hfusion;
pub(crate) mod to_hfusion;
pub mod triton_to_annotation;
pub mod triton_to_linalg;

//! hivm-ir: an MLIR-compatible IR core in Rust.
//!
//! Layering follows MLIR: uniqued types and attributes ([`types`], [`attrs`],
//! [`affine`]), the op/block/region arena ([`ir`]), the op registry
//! ([`dialect`]), text in and out ([`lexer`], [`parser`], [`printer`]),
//! diagnostics, the verifier and the pass manager.

pub mod affine;
pub mod attrs;
pub mod builder;
pub mod diagnostics;
pub mod dialect;
mod intern;
pub mod ir;
pub mod lexer;
pub mod minifloat;
pub mod opspec;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod verifier;

pub use attrs::{AttrData, Attribute, Sym};
pub use dialect::{Dialect, OpDef, Registry, Traits};
pub use ir::{BlockId, Ir, OpId, OperationState, RegionId, Value, ValueDef, ValueMap};
pub use types::{Type, TypeData};

pub mod types;

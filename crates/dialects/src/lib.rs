//! Dialect definitions for hivm-rs, each op declared once as an [`hivm_ir::OpDef`].

pub mod affine;
pub mod annotation;
pub mod arith;
pub mod ascend_dpx;
pub mod ave;
pub mod bishengir_test;
pub mod bufferization;
pub mod builtin;
pub mod cf;
pub mod dlti;
pub mod func;
pub mod gpu;
pub mod hacc;
pub mod hfusion;
pub mod hivm;
pub mod hivm_regbaseintrins;
pub mod index;
pub mod linalg;
pub mod llvm;
pub mod math;
pub mod memref;
pub mod memref_ext;
pub mod scf;
pub mod scope;
pub mod shard;
pub mod sparse_tensor;
pub mod symbol;
pub mod tensor;
pub mod testing;
pub mod torch;
pub mod transform;
pub mod triton;
pub mod triton_gpu;
pub mod util;
pub mod vector;

use std::sync::Arc;

use hivm_ir::Registry;

/// A registry with every dialect this crate defines.
pub fn registry() -> Registry {
    let mut r = Registry::default();
    r.register(builtin::dialect());
    r.register(func::dialect());
    r.register(arith::dialect());
    r.register(index::dialect());
    r.register(cf::dialect());
    r.register(scf::dialect());
    r.register(scope::dialect());
    r.register(memref::dialect());
    r.register(memref_ext::dialect());
    r.register(tensor::dialect());
    r.register(bufferization::dialect());
    r.register(linalg::dialect());
    r.register(affine::dialect());
    r.register(dlti::dialect());
    r.register(hacc::dialect());
    r.register(hivm::dialect());
    r.register(annotation::dialect());
    r.register(vector::dialect());
    r.register(math::dialect());
    r.register(math::ext_dialect());
    r.register(hfusion::dialect());
    r.register(llvm::dialect());
    r.register(llvm::nvvm_dialect());
    r.register(symbol::dialect());
    r.register(shard::dialect());
    r.register(shard::mesh_dialect());
    r.register(gpu::gpu_dialect());
    r.register(gpu::ub_dialect());
    r.register(gpu::shape_dialect());
    r.register(testing::dialect());
    r.register(bishengir_test::dialect());
    r.register(ave::dialect());
    r.register(ascend_dpx::dialect());
    r.register(transform::dialect());
    [sparse_tensor::dialect(), hivm_regbaseintrins::dialect()].into_iter().for_each(|d| r.register(d));
    [triton::dialect(), triton_gpu::dialect(), triton_gpu::ext_dialect()].into_iter().for_each(|d| r.register(d));
    [torch::dialect(), torch::conversion_dialect()].into_iter().for_each(|d| r.register(d));
    r
}

pub fn shared_registry() -> Arc<Registry> {
    // Built once per process: the registry never changes, and building it
    // (hundreds of op definitions) costs more than parsing a small kernel.
    static REGISTRY: std::sync::OnceLock<Arc<Registry>> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| Arc::new(registry())).clone()
}

//! Transformation passes, registered by name for `hivm-opt`.

pub mod bufferize;
pub mod canonicalize;
pub mod conversion;
pub mod cse;
pub mod elementwise_to_linalg;
pub mod func_args;
pub mod greedy;
pub mod hfusion;
pub mod hivm;
pub mod pipelines;

use hivm_ir::pass::{Pass, PassRegistry};

fn no_options(name: &str, options: &str, p: Box<dyn Pass>) -> Result<Box<dyn Pass>, String> {
    if options.trim().is_empty() { Ok(p) } else { Err(format!("'{name}' pass does not take options: '{options}'")) }
}

pub fn pass_registry() -> PassRegistry {
    let mut r = PassRegistry::default();
    r.register("canonicalize", "Fold constants, apply identities, remove dead pure ops", |o| {
        no_options("canonicalize", o, Box::new(canonicalize::Canonicalize::default()))
    });
    r.register("one-shot-bufferize", "Bufferize tensors to memrefs (custom ops honour inplace_outs)", |o| {
        Ok(Box::new(bufferize::OneShotBufferize::from_options(o)?))
    });
    r.register("convert-elementwise-to-linalg", "Turn arith/math ops on ranked tensors into linalg.generic", |o| {
        no_options("convert-elementwise-to-linalg", o, Box::new(elementwise_to_linalg::ElementwiseToLinalg))
    });
    r.register("cse", "Eliminate common sub-expressions", |o| no_options("cse", o, Box::new(cse::Cse::default())));
    r.register("hivm-alloc-extra-buffer", "Allocate the scratch buffers custom ops declare", |o| {
        no_options("hivm-alloc-extra-buffer", o, Box::new(hivm::alloc_extra_buffer::AllocExtraBuffer))
    });
    r.register("hivm-mark-stride-align", "Mark the stride alignment custom-op operands need", |o| {
        no_options("hivm-mark-stride-align", o, Box::new(hivm::mark_stride_align::MarkStrideAlign))
    });
    r.register(
        "hivm-aggregated-decompose-op",
        "Split loads that initialise their destination into vbrc + load (decompose-phase=...)",
        |o| Ok(Box::new(hivm::aggregated_decompose::AggregatedDecompose::from_options(o)?)),
    );
    r.register(
        "hivm-decompose-op",
        "Lower hivm.hir.sync_block to pipe_barrier + sync_block_set/wait (the other decompositions are not done)",
        |o| no_options("hivm-decompose-op", o, Box::new(hivm::decompose_sync_block::DecomposeOp)),
    );
    r.register(
        "hivm-custom-gm-inputs",
        "Custom ops with input pipe MTE2 read their loaded inputs from GM (hivm-rs)",
        |o| no_options("hivm-custom-gm-inputs", o, Box::new(hivm::gm_inputs::CustomGmInputs)),
    );
    r.register("hivm-infer-func-core-type", "Mark functions AIC, AIV or MIX from their ops and callees", |o| {
        no_options("hivm-infer-func-core-type", o, Box::new(hivm::infer_func_core_type::InferFuncCoreType))
    });
    r.register("hivm-bind-sub-block", "Run stores and custom ops of AIV functions on sub-block 0", |o| {
        no_options("hivm-bind-sub-block", o, Box::new(hivm::bind_sub_block::BindSubBlock))
    });
    r.register("hivm-check-implementations", "Check each custom op's C entry point is defined once (files=...)", |o| {
        Ok(Box::new(hivm::implementations::CheckImplementations::from_options(o)?))
    });
    r.register("convert-hivm-to-std", "Lower custom ops to calls of their implementations", |o| {
        Ok(Box::new(hivm::to_std::ToStd::from_options(o)?))
    });
    r.register(
        "hivm-graph-sync-solver",
        "Inject set_flag/wait_flag/pipe_barrier between pipes (solver-version=v1|v2)",
        |o| Ok(Box::new(hivm::gss::GraphSyncSolver::from_options(o)?)),
    );
    r.register("hivm-lower-multi-buffer-counter", "Lower the sync solver's multi-buffer counters", |o| {
        no_options(
            "hivm-lower-multi-buffer-counter",
            o,
            Box::new(hivm::lower_multi_buffer_counter::LowerMultiBufferCounter),
        )
    });
    r.register(
        "hivm-mark-multi-buffer",
        "Mark local buffers of DMA ops in loops for double buffering (enable-auto)",
        |o| Ok(Box::new(hivm::multi_buffer::mark::MarkMultiBuffer::from_options(o)?)),
    );
    r.register("hivm-plan-memory", "Place local memref.allocs at fixed addresses (hivm.hir.pointer_cast)", |o| {
        Ok(Box::new(hivm::multi_buffer::plan_memory::PlanMemory::from_options(o)?))
    });
    r.register("hivm-enable-multi-buffer", "Split multi-address pointer_casts in loops by the iteration count", |o| {
        no_options("hivm-enable-multi-buffer", o, Box::new(hivm::multi_buffer::enable::EnableMultiBuffer))
    });
    r.register(
        "triton-to-linalg",
        "Convert a Triton kernel to linalg, memref and bufferization ops (named-ops, global-kernel)",
        |o| Ok(Box::new(conversion::triton_to_linalg::TritonToLinalg::from_options(o)?)),
    );
    r.register("convert-arith-to-hfusion", "Convert arith ops on tensors to linalg/hfusion named ops", |o| {
        no_options("convert-arith-to-hfusion", o, Box::new(conversion::arith_to_hfusion::ArithToHFusion))
    });
    r.register(
        "convert-math-to-hfusion",
        "Convert math ops on tensors to linalg/hfusion named ops (enable-fma)",
        |o| Ok(Box::new(conversion::math_to_hfusion::MathToHFusion::from_options(o)?)),
    );
    r.register(
        "convert-linalg-to-hfusion",
        "Convert linalg library calls, aranges, atomics and arg-reductions to hfusion ops",
        |o| no_options("convert-linalg-to-hfusion", o, Box::new(conversion::linalg_to_hfusion::LinalgToHFusion)),
    );
    r.register("convert-tensor-to-hfusion", "Turn tensor.splat into linalg.fill of tensor.empty", |o| {
        no_options("convert-tensor-to-hfusion", o, Box::new(conversion::tensor_to_hfusion::TensorToHFusion))
    });
    r.register(
        "adapt-triton-kernel",
        "Make Triton kernels HACC device entries; library calls become hfusion ops",
        |o| no_options("adapt-triton-kernel", o, Box::new(hfusion::adapt_triton_kernel::AdaptTritonKernel)),
    );
    r.register(
        "hfusion-add-ffts-addr",
        "Give device entries the FFTS base address argument (force-add-ffts-addr=N)",
        |o| Ok(Box::new(hfusion::add_ffts_addr::AddFftsAddr::from_options(o)?)),
    );
    r.register(
        "convert-hfusion-to-hivm",
        "Convert hfusion and linalg ops to HIVM ops (mm-map-mode, is-enable-ubuf-saving, is-disable-size-align-for-cast)",
        |o| Ok(Box::new(conversion::hfusion_to_hivm::HFusionToHIVM::from_options(o)?)),
    );
    r.register("convert-tensor-to-hivm", "Convert tensor.concat and tensor.pad to HIVM ops", |o| {
        no_options("convert-tensor-to-hivm", o, Box::new(conversion::tensor_to_hivm::TensorToHIVM))
    });
    r.register(
        "convert-to-hivm-pipeline",
        "convert-hfusion-to-hivm, convert-tensor-to-hivm, convert-to-hivm-op (enable-triton-kernel-compile)",
        |o| Ok(Box::new(conversion::to_hivm_pipeline::ConvertToHIVMPipeline::from_options(o)?)),
    );
    r.register("triton-to-annotation", "Turn triton-ascend's tt.annotation ops into annotation.mark", |o| {
        no_options("triton-to-annotation", o, Box::new(conversion::triton_to_annotation::TritonToAnnotation))
    });
    r.register(
        "triton-global-kernel-args-to-hivm-op",
        "Decode Triton program ids from hivm.hir.get_block_idx and drop their parameters",
        |o| no_options("triton-global-kernel-args-to-hivm-op", o, Box::new(hivm::kernel_args::TritonGlobalKernelArgs)),
    );
    r.register("convert-to-hivm-op", "Turn copies to and from global memory into hivm.hir.load/store/copy", |o| {
        no_options("convert-to-hivm-op", o, Box::new(hivm::to_hivm_op::ConvertToHivmOp))
    });
    r.register(
        "hivm-expose-memref-write-to-tensor",
        "Read writable to_tensors of written buffers through hivm.hir.copy {to_be_replaced}",
        |o| {
            no_options(
                "hivm-expose-memref-write-to-tensor",
                o,
                Box::new(hivm::expose_writes::ExposeMemrefWriteToTensor),
            )
        },
    );
    r.register("hivm-infer-mem-scope", "Give memrefs their address space (GM, UB, L1, L0C) and propagate it", |o| {
        no_options("hivm-infer-mem-scope", o, Box::new(hivm::infer_mem_scope::InferMemScope))
    });
    r.register(
        "hivm-tensor-copy-insertion",
        "Copy tensor operands One-Shot analysis cannot write in place (alloc_tensor + hivm.hir.copy)",
        |o| Ok(Box::new(hivm::tensor_copy_insertion::TensorCopyInsertion::from_options(o)?)),
    );
    r.register("hacc-append-device-spec", "Mark the module with its target (target=NAME)", |o| {
        Ok(Box::new(hivm::device_spec::AppendDeviceSpec::from_options(o)?))
    });
    r
}

//! Pass pipelines named once and run by every client (`hivm-compile`, the
//! Python package's `stage="hivm"` and its compiled twin mode).
//!
//! `triton_to_hivm` is bishengir-compile's front half for Triton kernels
//! (its `PassPipeline.cpp` with `enable-triton-kernel-compile`), restricted
//! to the passes hivm-rs has, in upstream's order: HFusion pre-processing,
//! conversion to HIVM, bufferization, then memory scopes, scratch buffers,
//! memory planning and the sync solver. Upstream passes that only tune
//! performance (auto-schedule, flattening, layout, CV pipelining) are left
//! out: the kernel they produce computes the same.

/// What a compile may change.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// `hacc-append-device-spec`'s target; `None` keeps the module's own.
    pub target: Option<String>,
    /// Continue through `convert-hivm-to-std` (custom ops become calls).
    pub to_std: bool,
    /// Implementation files the custom ops' entry points must be defined in
    /// once (`--link-aicore-bitcode`), checked before anything lowers them.
    pub link_aicore_bitcode: Option<String>,
}

/// The textual pass list, one pass (with its options) per entry, for
/// [`hivm_ir::pass::PassManager::from_cli`].
pub fn triton_to_hivm(o: &CompileOptions) -> Vec<String> {
    let mut p: Vec<String> = Vec::new();
    if let Some(files) = &o.link_aicore_bitcode {
        p.push(format!("hivm-check-implementations{{files={files}}}"));
    }
    p.push("canonicalize".into());
    p.push(match &o.target {
        Some(t) => format!("hacc-append-device-spec{{target={t}}}"),
        None => "hacc-append-device-spec".into(),
    });
    // HFusion: the named-op forms HIVM conversion expects.
    p.extend(
        [
            "convert-arith-to-hfusion",
            "convert-math-to-hfusion",
            "convert-linalg-to-hfusion",
            "adapt-triton-kernel",
            "convert-tensor-to-hfusion",
            "cse",
            "canonicalize",
            "convert-arith-to-hfusion",
            "hfusion-add-ffts-addr{force-add-ffts-addr=0}",
        ]
        .map(String::from),
    );
    // ConvertToHIVM.
    p.extend(
        [
            "convert-hfusion-to-hivm",
            "triton-global-kernel-args-to-hivm-op",
            "convert-tensor-to-hivm",
            "convert-to-hivm-op",
        ]
        .map(String::from),
    );
    // OptimizeHIVM: bufferization and what follows it.
    p.extend(
        [
            "hivm-infer-func-core-type",
            "hivm-bind-sub-block",
            "hivm-expose-memref-write-to-tensor",
            "hivm-tensor-copy-insertion",
            "one-shot-bufferize",
            "convert-to-hivm-op",
            "canonicalize",
            "cse",
            "hivm-infer-mem-scope",
            "hivm-custom-gm-inputs",
            "hivm-aggregated-decompose-op{decompose-phase=before-hivm-align}",
            "hivm-mark-stride-align",
            "hivm-alloc-extra-buffer",
            // Again, for the scratch buffers just allocated (as upstream).
            "hivm-infer-mem-scope",
            "hivm-plan-memory",
            "hivm-graph-sync-solver",
            "hivm-enable-multi-buffer",
            "hivm-lower-multi-buffer-counter",
        ]
        .map(String::from),
    );
    if o.to_std {
        p.push("convert-hivm-to-std".into());
    }
    p
}

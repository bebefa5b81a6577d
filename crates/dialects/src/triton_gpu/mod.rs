//! TritonGPU (`ttg`): layout attributes and the `!ttg.memdesc` type
//! (`attrs.rs`, kept as text and re-printed canonically), the ops that
//! move tensors between layouts and shared memory (`ops.rs`), and
//! AscendNPU-IR's `ttgext` dialect, which only adds the fractal shared
//! layout. Layouts print through aliases named as Triton names them
//! (`#blocked`, `#shared`, `#linear`, `#mma`, `#smem`).

pub(crate) mod attrs;
mod ops;
pub(crate) mod text;

use hivm_ir::Dialect;

/// Triton's `OpAsmDialectInterface::getAlias`: blocked and linear layouts
/// after themselves, every shared layout `#shared`, MMA layouts `#mma`,
/// the shared memory space `#smem`.
const ALIASES: &[&str] = &[
    "blocked",
    "linear",
    "swizzled_shared=shared",
    "nvmma_shared=shared",
    "amd_rotating_shared=shared",
    "shared_linear=shared",
    "padded_shared=shared",
    "nvidia_mma=mma",
    "amd_mfma=mma",
    "amd_wmma=mma",
    "shared_memory=smem",
];

pub fn dialect() -> Dialect {
    let mut d = Dialect::new("ttg", ops::SPECS.iter().map(|s| s.def()).collect());
    d.check_attr = Some(attrs::check_attr);
    d.check_type = Some(attrs::check_type);
    d.alias_mnemonics = ALIASES;
    d
}

/// The fractal layout is a shared layout: Triton's alias interface names
/// it `#shared` too.
pub fn ext_dialect() -> Dialect {
    let mut d = Dialect::new("ttgext", Vec::new());
    d.check_attr = Some(attrs::check_ext_attr);
    d.alias_mnemonics = &["fractal_shared=shared"];
    d
}

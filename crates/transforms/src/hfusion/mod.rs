//! HFusion-level transforms of bishengir-compile's HFusion pipeline.

pub mod adapt_triton_kernel;
pub mod add_ffts_addr;

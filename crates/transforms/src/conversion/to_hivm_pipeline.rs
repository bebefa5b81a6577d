//! `convert-to-hivm-pipeline` (upstream's `buildConvertToHIVMPipeline`):
//! `convert-hfusion-to-hivm`, with `enable-triton-kernel-compile` also
//! `triton-global-kernel-args-to-hivm-op`, then `convert-tensor-to-hivm`
//! and `convert-to-hivm-op`. The passes are taken from the registry by
//! name, so the pipeline is exactly what is registered under those names.

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub struct ConvertToHIVMPipeline {
    passes: Vec<Box<dyn Pass>>,
}

/// The pipeline's passes, in upstream's order.
fn names(triton: bool) -> Vec<&'static str> {
    let mut v = vec!["convert-hfusion-to-hivm"];
    if triton {
        v.push("triton-global-kernel-args-to-hivm-op");
    }
    v.extend(["convert-tensor-to-hivm", "convert-to-hivm-op"]);
    v
}

impl ConvertToHIVMPipeline {
    pub fn from_options(options: &str) -> Result<ConvertToHIVMPipeline, String> {
        let mut triton = false;
        let mut hfusion_options = Vec::new();
        for item in options.split_whitespace() {
            let (key, value) = item.split_once('=').unwrap_or((item, "true"));
            let on = match value {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => return Err(format!("invalid value '{value}' for option '{key}' of convert-to-hivm-pipeline")),
            };
            match key {
                "enable-triton-kernel-compile" => triton = on,
                "enable-ubuf-saving" => hfusion_options.push(format!("is-enable-ubuf-saving={on}")),
                "disable-size-align-for-cast" => hfusion_options.push(format!("is-disable-size-align-for-cast={on}")),
                _ => return Err(format!("unknown option '{item}' for convert-to-hivm-pipeline")),
            }
        }
        if triton {
            hfusion_options.push("mm-map-mode=macro_instr".into());
        }
        let registry = crate::pass_registry();
        let mut passes = Vec::new();
        for name in names(triton) {
            // A pass not (yet) in this build is left out of the pipeline.
            if !registry.contains(name) {
                continue;
            }
            let opts = if name == "convert-hfusion-to-hivm" { hfusion_options.join(" ") } else { String::new() };
            passes.push(registry.create(name, &opts)?);
        }
        Ok(ConvertToHIVMPipeline { passes })
    }
}

impl Pass for ConvertToHIVMPipeline {
    fn name(&self) -> &str {
        "convert-to-hivm-pipeline"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for p in &mut self.passes {
            p.run(ir, root)?;
        }
        Ok(())
    }
}

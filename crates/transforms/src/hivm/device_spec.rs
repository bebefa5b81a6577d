//! `hacc-append-device-spec=target=NAME`: marks the module with its target.
//! (Upstream also attaches a DLTI target spec; nothing here reads it yet.)

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub struct AppendDeviceSpec {
    pub target: String,
}

impl AppendDeviceSpec {
    pub fn from_options(options: &str) -> Result<AppendDeviceSpec, String> {
        let mut target = None;
        for kv in options.split_whitespace() {
            match kv.split_once('=') {
                Some(("target", v)) => target = Some(v.trim_matches('"').to_string()),
                _ => return Err(format!("unknown option '{kv}' for hacc-append-device-spec (expected target=NAME)")),
            }
        }
        match target {
            Some(t) if !t.is_empty() => Ok(AppendDeviceSpec { target: t }),
            _ => Err("hacc-append-device-spec requires target=NAME".into()),
        }
    }
}

impl Pass for AppendDeviceSpec {
    fn name(&self) -> &str {
        "hacc-append-device-spec"
    }

    fn display_name(&self) -> &str {
        "AppendDeviceSpec"
    }

    fn run(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        let a = hivm_dialects::util::opaque_attr(ir, "hacc", &format!("target<\"{}\">", self.target));
        ir.set_attr(op, "hacc.target", a);
        Ok(())
    }
}

//! `hacc-append-device-spec`: marks the module with its target (from the
//! `target` option, else the module's own `hacc.target`) and attaches the
//! target's DLTI spec; membase targets also get the HIVMC version attributes
//! upstream's device toolchain reads.

use hivm_dialects::hacc::targets::{self, Target};
use hivm_dialects::util::opaque_attr;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub struct AppendDeviceSpec {
    target: Option<&'static Target>,
    /// `custom-aic-number` / `custom-aiv-number`, used when both are given.
    cores: Option<(u32, u32)>,
    hivmc_version: String,
}

const SPEC_KEY: &str = "dlti.target_system_spec";

fn parse_count(key: &str, v: &str) -> Result<i64, String> {
    v.parse::<i64>().map_err(|_| format!("invalid value '{v}' for option '{key}' of hacc-append-device-spec"))
}

impl AppendDeviceSpec {
    pub fn from_options(options: &str) -> Result<AppendDeviceSpec, String> {
        let (mut target, mut aic, mut aiv, mut version) = (None, -1, -1, String::new());
        for kv in options.split_whitespace() {
            match kv.split_once('=') {
                Some(("target", v)) => {
                    let v = v.trim_matches('"');
                    target = Some(targets::target(v).ok_or_else(|| {
                        format!("unknown target '{v}' for hacc-append-device-spec (e.g. Ascend910B1, Ascend950PR_9589)")
                    })?);
                }
                Some(("custom-aic-number", v)) => aic = parse_count("custom-aic-number", v)?,
                Some(("custom-aiv-number", v)) => aiv = parse_count("custom-aiv-number", v)?,
                Some(("hivmc-version", v)) => version = v.trim_matches('"').to_string(),
                _ => {
                    return Err(format!(
                        "unknown option '{kv}' for hacc-append-device-spec (expected target=NAME, \
                         custom-aic-number=N, custom-aiv-number=N, hivmc-version=V)"
                    ));
                }
            }
        }
        let cores = (aic >= 0 && aiv >= 0).then_some((aic as u32, aiv as u32));
        Ok(AppendDeviceSpec { target, cores, hivmc_version: version })
    }
}

impl Pass for AppendDeviceSpec {
    fn name(&self) -> &str {
        "hacc-append-device-spec"
    }

    fn display_name(&self) -> &str {
        "AppendDeviceSpec"
    }

    fn run(&mut self, ir: &mut Ir, module: OpId) -> Result<(), Diagnostic> {
        let loc = ir.loc(module);
        let in_ir = match ir.get_attr(module, "hacc.target") {
            Some(a) => {
                let name = hivm_dialects::util::opaque_arg(ir, a, "target").unwrap_or("").trim_matches('"');
                match targets::target(name) {
                    Some(t) => Some(t),
                    None => return Err(Diagnostic::error(loc, format!("unknown target '{name}' in hacc.target"))),
                }
            }
            None => None,
        };
        let Some(target) = self.target.or(in_ir) else { return Ok(()) };
        if let (Some(opt), Some(old)) = (self.target, in_ir)
            && opt.name != old.name
        {
            ir.emitted.push(Diagnostic::warning(loc, "Overwriting the target by the pass option..."));
        }
        if ir.get_attr(module, SPEC_KEY).is_some() {
            ir.emitted.push(Diagnostic::warning(loc, "Overwriting the device spec..."));
        }
        let t = opaque_attr(ir, "hacc", &format!("target<\"{}\">", target.name));
        ir.set_attr(module, "hacc.target", t);
        let entries: Vec<String> =
            target.dlti_entries(self.cores).into_iter().map(|(k, v)| format!("#dlti.dl_entry<\"{k}\", {v}>")).collect();
        let spec = format!("target_system_spec<\"NPU\" : #hacc.target_device_spec<{}>>", entries.join(", "));
        let spec = opaque_attr(ir, "dlti", &spec);
        ir.set_attr(module, SPEC_KEY, spec);
        if !target.generation.regbase {
            // An unparsable version is 0.0.0, as upstream.
            let v = if hivm_dialects::hacc::is_version(&self.hivmc_version) { &self.hivmc_version } else { "0.0.0" };
            let version = opaque_attr(ir, "hacc", &format!("hivmc_version<\"{v}\">"));
            ir.set_attr(module, "hacc.hivmc_version", version);
            let f = ir.bool_attr(false);
            ir.set_attr(module, "hacc.hivmc_compatible_print", f);
        }
        Ok(())
    }
}

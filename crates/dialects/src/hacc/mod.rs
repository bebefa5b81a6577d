//! The HACC dialect's attributes (`#hacc.function_kind`, `#hacc.target`,
//! `#hacc.arg_type`, `#hacc.target_device_spec`, `#hacc.hivmc_version`,
//! `#hacc.host_func_type`, the host-function references such as
//! `#hacc.tiling_function<@f>`, `#hacc.input_idx<N>`, and the markers
//! without parameters) and the targets they may name.

use hivm_ir::{Dialect, Ir, OpId};

const FUNCTION_KINDS: &[&str] = &["HOST", "DEVICE"];
const ARG_TYPES: &[&str] = &[
    "ffts_base_address",
    "input",
    "output",
    "input_and_output",
    "workspace",
    "sync_block_lock",
    "tiling_key",
    "tiling_data",
    "tiling_struct",
    "mesh_arg",
    "sanitizer_addr",
    "gm_addr",
    "sub_workspace",
];

/// Host function kinds; `host_entry` first.
const HOST_FUNC_TYPES: &[&str] = &[
    "host_entry",
    "tiling_function",
    "infer_output_shape_function",
    "infer_workspace_shape_function",
    "infer_sync_block_lock_num_function",
    "infer_sync_block_lock_init_function",
    "get_tiling_struct_size_function",
    "infer_task_type_function",
    "infer_vf_mode_function",
];

/// Markers without parameters (`#hacc.dummy_func`).
const MARKERS: &[&str] = &[
    "hivmc_compatible_print",
    "export_as_dag",
    "dummy_func",
    "external_function_path",
    "cached_io",
    "no_io_alias",
    "block_dim",
    "simt_module",
];

pub mod targets;

/// The Ascend910_95 / 950 generation: VF mode is required there (spec §3).
pub fn is_910_95_family(target: &str) -> bool {
    targets::target(target).is_some_and(|t| t.generation.arch == "dav-c310")
}

/// Register-based targets: the 910_95/950 generation plus Ascend310B1–B4.
pub fn is_regbase(target: &str) -> bool {
    targets::target(target).is_some_and(|t| t.generation.regbase)
}

fn check_attr(body: &str) -> Result<String, String> {
    let (mnemonic, args) = match body.find('<') {
        Some(i) => (&body[..i], body[i + 1..].strip_suffix('>').unwrap_or("").trim()),
        None if MARKERS.contains(&body) => return Ok(body.to_string()),
        None => return Err(format!("unknown attribute `{body}` in dialect `hacc`")),
    };
    // Each host function kind but the entry has an attribute naming the
    // function (`#hacc.tiling_function<@f>`); so does a rename.
    if HOST_FUNC_TYPES[1..].contains(&mnemonic) || mnemonic == "rename_func" {
        let name = args.strip_prefix('@').unwrap_or("");
        let bare = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-'))
            && !name.as_bytes()[0].is_ascii_digit();
        let quoted = name.len() >= 2 && name.starts_with('"') && name.ends_with('"');
        return if bare || quoted {
            Ok(format!("{mnemonic}<{args}>"))
        } else {
            Err(format!("expected a symbol reference (like @f) in #hacc.{mnemonic}"))
        };
    }
    if matches!(mnemonic, "input_idx" | "output_idx") {
        return match args.parse::<u32>() {
            Ok(n) => Ok(format!("{mnemonic}<{n}>")),
            Err(_) => Err(format!("expected an unsigned integer in #hacc.{mnemonic}")),
        };
    }
    let allowed: &[&str] = match mnemonic {
        "function_kind" => FUNCTION_KINDS,
        "arg_type" => ARG_TYPES,
        "host_func_type" => HOST_FUNC_TYPES,
        "target" => {
            let ok = args.len() >= 2
                && args.starts_with('"')
                && args.ends_with('"')
                && !args[1..args.len() - 1].contains('"');
            return if ok {
                Ok(format!("target<{args}>"))
            } else {
                Err("expected a quoted target name in #hacc.target".into())
            };
        }
        // Entries are DLTI attributes, kept as written.
        "target_device_spec" => return Ok(format!("target_device_spec<{args}>")),
        "hivmc_version" => {
            let v = args.strip_prefix('"').and_then(|a| a.strip_suffix('"'));
            return match v {
                Some(v) if is_version(v) => Ok(format!("hivmc_version<{args}>")),
                _ => Err("expected a quoted version (like \"0.2.0\") in #hacc.hivmc_version".into()),
            };
        }
        _ => return Err(format!("unknown attribute `{mnemonic}` in dialect `hacc`")),
    };
    if allowed.contains(&args) {
        Ok(format!("{mnemonic}<{args}>"))
    } else {
        Err(format!("expected one of [{}] for {mnemonic}, got '{args}'", allowed.join(", ")))
    }
}

/// `MAJOR[.MINOR[.SUBMINOR[.BUILD]]]`, as LLVM's version tuples.
pub fn is_version(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    parts.len() <= 4 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The `hacc.target` of the nearest enclosing module only, as upstream's
/// verifiers read it (`getParentOfType<ModuleOp>`): `None` when that module
/// names no target, even if an outer one does (unlike [`module_target`]).
pub fn nearest_module_target(ir: &Ir, op: OpId) -> Option<&str> {
    let mut cur = ir.parent_op(op);
    while let Some(m) = cur {
        if ir.is_op(m, "builtin.module") {
            let a = ir.get_attr(m, "hacc.target")?;
            return Some(crate::util::opaque_arg(ir, a, "target").unwrap_or("").trim_matches('"'));
        }
        cur = ir.parent_op(m);
    }
    None
}

/// The `hacc.target` name of the closest enclosing module that names one.
pub fn module_target(ir: &Ir, op: OpId) -> Option<String> {
    let mut cur = ir.parent_op(op);
    while let Some(c) = cur {
        if ir.is_op(c, "builtin.module")
            && let Some(a) = ir.get_attr(c, "hacc.target")
        {
            let arg = crate::util::opaque_arg(ir, a, "target")?;
            return Some(arg.trim_matches('"').to_string());
        }
        cur = ir.parent_op(c);
    }
    None
}

pub fn dialect() -> Dialect {
    let mut d = Dialect::new("hacc", Vec::new());
    d.check_attr = Some(check_attr);
    d
}

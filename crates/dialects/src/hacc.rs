//! The HACC dialect's attributes (`#hacc.function_kind`, `#hacc.target`,
//! `#hacc.arg_type`) and target-family predicates.

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

/// The Ascend910_95 / 950 family: VF mode is required there (spec §3).
const FAMILY_910_95: &[&str] = &[
    "Ascend910_950z",
    "Ascend910_9579",
    "Ascend910_957b",
    "Ascend910_957d",
    "Ascend910_9581",
    "Ascend910_9589",
    "Ascend910_958a",
    "Ascend910_958b",
    "Ascend910_9599",
    "Ascend950PR_950z",
    "Ascend950PR_9579",
    "Ascend950PR_957a",
    "Ascend950PR_957b",
    "Ascend950PR_957c",
    "Ascend950PR_957d",
    "Ascend950PR_9589",
    "Ascend950PR_958a",
    "Ascend950PR_958b",
    "Ascend950PR_958c",
    "Ascend950PR_958d",
    "Ascend950PR_9599",
    "Ascend950PR_959a",
    "Ascend950PR_959b",
    "Ascend950DT_950x",
    "Ascend950DT_950y",
    "Ascend950DT_9571",
    "Ascend950DT_9572",
    "Ascend950DT_9573",
    "Ascend950DT_9574",
    "Ascend950DT_9575",
    "Ascend950DT_9576",
    "Ascend950DT_9577",
    "Ascend950DT_9578",
    "Ascend950DT_9581",
    "Ascend950DT_9582",
    "Ascend950DT_9583",
    "Ascend950DT_9584",
    "Ascend950DT_9585",
    "Ascend950DT_9586",
    "Ascend950DT_9587",
    "Ascend950DT_9588",
    "Ascend950DT_9591",
    "Ascend950DT_9592",
    "Ascend950DT_9595",
    "Ascend950DT_9596",
    "Ascend950DT_95A1",
    "Ascend950DT_95A2",
];

pub fn is_910_95_family(target: &str) -> bool {
    FAMILY_910_95.contains(&target)
}

/// Register-based targets: the 910_95/950 family plus Ascend310B1–B4.
pub fn is_regbase(target: &str) -> bool {
    is_910_95_family(target) || matches!(target, "Ascend310B1" | "Ascend310B2" | "Ascend310B3" | "Ascend310B4")
}

fn check_attr(body: &str) -> Result<String, String> {
    let (mnemonic, args) = match body.find('<') {
        Some(i) => (&body[..i], body[i + 1..].strip_suffix('>').unwrap_or("").trim()),
        None => return Err(format!("unknown attribute `{body}` in dialect `hacc`")),
    };
    let allowed: &[&str] = match mnemonic {
        "function_kind" => FUNCTION_KINDS,
        "arg_type" => ARG_TYPES,
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
        _ => return Err(format!("unknown attribute `{mnemonic}` in dialect `hacc`")),
    };
    if allowed.contains(&args) {
        Ok(format!("{mnemonic}<{args}>"))
    } else {
        Err(format!("expected one of [{}] for {mnemonic}, got '{args}'", allowed.join(", ")))
    }
}

/// The `hacc.target` name of the module enclosing `op`, if any.
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

//! The pieces of MLIR's `gpu`, `ub` and `shape` dialects HIVM kernels and
//! their tests carry: `gpu.barrier`, the mapping attributes
//! (`#gpu.block<x>`, `#gpu.thread<y>`, ...), `ub.poison` and
//! `shape.shape_of`, printed as mlir-opt 22 does.

use hivm_ir::Dialect;
use hivm_ir::Traits;
use hivm_ir::opspec::{AttrKind, OpSpec, default_attr, one};

const MAPPING_DIMS: &[&str] = &["x", "y", "z", "linear_dim_0", "linear_dim_1", "linear_dim_2", "linear_dim_3"];

fn check_gpu_attr(body: &str) -> Result<String, String> {
    let Some((mnemonic, rest)) = body.split_once('<') else {
        return Err(format!("unknown attribute `{body}` in dialect `gpu`"));
    };
    let value = rest.strip_suffix('>').unwrap_or(rest).trim();
    let allowed: &[&str] = match mnemonic {
        "block" | "thread" | "warp" | "warpgroup" | "lane" => MAPPING_DIMS,
        "address_space" => &["global", "workgroup", "private"],
        _ => return Err(format!("unknown attribute `{mnemonic}` in dialect `gpu`")),
    };
    if !allowed.contains(&value) {
        return Err(format!("expected one of [{}] for {mnemonic}, got '{value}'", allowed.join(", ")));
    }
    Ok(format!("{mnemonic}<{value}>"))
}

const BARRIER: OpSpec = OpSpec { name: "gpu.barrier", format: "attr-dict", ..OpSpec::EMPTY };

pub fn gpu_dialect() -> Dialect {
    let mut d = Dialect::new("gpu", vec![BARRIER.def()]);
    d.check_attr = Some(check_gpu_attr);
    d
}

/// `%p = ub.poison : T`; the value attribute (`#ub.poison`) is the default
/// and printed only in generic form.
const POISON: OpSpec = OpSpec {
    name: "ub.poison",
    attrs: &[default_attr("value", AttrKind::Any, "#ub.poison")],
    results: &[one("result")],
    format: "attr-dict (`<` $value^ `>`)? `:` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

fn check_ub_attr(body: &str) -> Result<String, String> {
    if body == "poison" {
        return Ok(body.into());
    }
    Err(format!("unknown attribute `{body}` in dialect `ub`"))
}

pub fn ub_dialect() -> Dialect {
    let mut d = Dialect::new("ub", vec![POISON.def()]);
    d.check_attr = Some(check_ub_attr);
    d
}

const SHAPE_OF: OpSpec = OpSpec {
    name: "shape.shape_of",
    operands: &[one("arg")],
    results: &[one("result")],
    format: "$arg attr-dict `:` type($arg) `->` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

pub fn shape_dialect() -> Dialect {
    Dialect::new("shape", vec![SHAPE_OF.def()])
}

//! `linalg.reduce` and `hfusion.reduce_with_index` become `hivm.hir.vreduce`,
//! which keeps the reduced dimensions as units: each init is expanded to
//! the input's rank and each result collapsed back to the init's type
//! (on memrefs the collapsed views are left unused, as upstream leaves them).

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId, TypeData, Value};

use super::{Cx, build, enum_value, hivm_enum, unsupported};

/// The reduction the combiner of a `linalg.reduce` computes: the op that
/// defines what its body yields.
fn combiner_kind(ir: &Ir, op: OpId, elem_i1: bool, regbase: bool) -> Option<&'static str> {
    let def = ir.defining_op(yielded(ir, op)?)?;
    Some(match ir.op_name(def).strip_prefix("arith.")? {
        "addf" | "addi" => "sum",
        "xori" => "xori",
        "ori" if elem_i1 => "any",
        "andi" if elem_i1 => "all",
        "ori" => "ori",
        "andi" => "andi",
        "mulf" | "muli" => "prod",
        "maximumf" | "maxsi" | "maxnumf" => "max",
        "maxui" if regbase => "max",
        "minimumf" | "minsi" | "minnumf" => "min",
        "minui" if regbase => "min",
        _ => return None,
    })
}

/// Upstream's `unsigned_src` of a `linalg.reduce`: an integer max/min
/// taken unsigned.
fn unsigned_source(ir: &Ir, op: OpId, input: Value) -> bool {
    let def = yielded(ir, op).and_then(|v| ir.defining_op(v));
    let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(input));
    matches!(ir.type_data(elem), TypeData::Integer { .. })
        && def.is_some_and(|d| ir.is_op(d, "arith.maxui") || ir.is_op(d, "arith.minui"))
}

fn bool_attr(ir: &Ir, op: OpId, key: &str) -> Option<bool> {
    ir.get_attr(op, key).and_then(|a| ir.as_int(a)).map(|v| v != 0)
}

/// What the combiner's `linalg.yield` yields first.
fn yielded(ir: &Ir, op: OpId) -> Option<Value> {
    let region = *ir.regions(op).first()?;
    let block = *ir.region_blocks(region).first()?;
    let yield_op = ir.block_ops(block).last()?;
    ir.operands(yield_op).first().copied()
}

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, name: &str) -> Result<Option<bool>, Diagnostic> {
    let (inputs, inits) = match name {
        "linalg.reduce" => {
            let operands = cx.ir.operands(op).to_vec();
            let (i, o) = operands.split_at(operands.len() / 2);
            (i.to_vec(), o.to_vec())
        }
        "hfusion.reduce_with_index" => {
            let (i, o) = super::ins_outs(cx.ir, op);
            (i, o)
        }
        _ => return Ok(None),
    };
    let (Some(&input), Some(&first_init)) = (inputs.first(), inits.first()) else { return Ok(Some(false)) };
    let ir = &mut *cx.ir;
    let with_index = name == "hfusion.reduce_with_index";
    let tie_break_left = bool_attr(ir, op, "tie_break_left");
    let kind = if with_index {
        let k = enum_value(ir, op, "reduce_kind", "reduce_with_index_kind").unwrap_or_default();
        let side = if tie_break_left.unwrap_or(true) { "left" } else { "right" };
        match k.as_str() {
            "max" | "min" => format!("{k}_with_index_{side}"),
            _ => return Err(unsupported(ir, op, &format!("has unsupported reduce with index operation '{k}'"))),
        }
    } else {
        let elem = hivm_dialects::util::element_or_self(ir, ir.value_type(input));
        let i1 = ir.type_data(elem).is_signless_int(1);
        match combiner_kind(ir, op, i1, cx.regbase) {
            Some(k) => k.to_string(),
            None => return Err(unsupported(ir, op, "has an unsupported reduce operation")),
        }
    };
    let dims = hivm_dialects::util::i64_array(ir, op, "dimensions");
    let rank = ir.type_data(ir.value_type(input)).rank() as i64;
    let mut expanded = Vec::new();
    for init in &inits {
        let Some(e) = super::reshape::expand(ir, op, *init, &dims, rank) else { return Ok(Some(false)) };
        expanded.push(e);
    }
    let tensor = ir.type_data(ir.value_type(first_init)).is_tensor();
    let results: Vec<_> = if tensor { expanded.iter().map(|v| ir.value_type(*v)).collect() } else { Vec::new() };
    let mut attrs = vec![
        ("arith", hivm_enum(ir, "reduce_op", &kind)),
        ("reduce_dims", hivm_dialects::util::i64_array_attr(ir, &dims)),
    ];
    // The input of indices is dropped on register-based targets (HIVM
    // makes its own), which instead say whether the source is unsigned.
    let indices: Vec<Value> = if cx.regbase { Vec::new() } else { inputs.get(1).copied().into_iter().collect() };
    if cx.regbase {
        let unsigned = with_index && bool_attr(ir, op, "unsigned_src").unwrap_or(false)
            || !with_index && unsigned_source(ir, op, input);
        attrs.push(("unsigned_src", ir.bool_attr(unsigned)));
        if let Some(t) = tie_break_left.filter(|_| with_index) {
            attrs.push(("tie_break_left", ir.bool_attr(t)));
        }
    }
    let new = build(ir, op, "hivm.hir.vreduce", &[&[input], &expanded, &[], &indices], &results, attrs);
    if cx.regbase && ir.get_attr(op, "already_initialize_init").is_some() {
        let unit = ir.unit_attr();
        ir.set_attr(new, "already_initialize_init", unit);
    }
    let init_rank = ir.type_data(ir.value_type(first_init)).rank() as i64;
    let out_rank = if init_rank == 0 { 0 } else { rank };
    let groups = super::reshape::reassociation(&dims, out_rank);
    let mut collapsed = Vec::new();
    for (i, init) in inits.iter().enumerate() {
        let src = if tensor { ir.results(new)[i] } else { expanded[i] };
        let to = ir.value_type(*init);
        collapsed.push(super::reshape::collapse(ir, op, src, to, &groups));
    }
    if !tensor {
        collapsed.clear();
    }
    super::super::to_hfusion::replace(ir, op, &collapsed, cx.map);
    Ok(Some(true))
}

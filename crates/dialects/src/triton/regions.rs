//! The ops with a combining region: `tt.reduce`, `tt.scan` and
//! `tt.map_elementwise` (no custom form: printed generically, as Triton
//! prints them), and their terminators.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{OpSpec, var};
use hivm_ir::{AttrData, Ir, OpDef, OpId, Traits, Type};

use super::types::{C, scalar_of, tensor, text_of};
use super::verify::int_attr;

type R = Result<(), VerifyError>;

fn check_all(ir: &Ir, vals: &[hivm_ir::Value], c: C, what: &str, start: usize) -> R {
    for (k, v) in vals.iter().enumerate() {
        let t = ir.value_type(*v);
        if !c.holds(ir, t) {
            return Err(format!(
                "{what} #{} must be variadic of {}, but got '{}'",
                start + k,
                c.summary(),
                text_of(ir, t)
            )
            .into());
        }
    }
    Ok(())
}

fn require_i32(ir: &Ir, op: OpId, name: &str) -> R {
    match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        None => Err(format!("requires attribute '{name}'").into()),
        Some(AttrData::Integer { ty, .. }) if ir.type_data(*ty).is_signless_int(32) => Ok(()),
        Some(_) => {
            Err(format!("attribute '{name}' failed to satisfy constraint: 32-bit signless integer attribute").into())
        }
    }
}

fn require_bool(ir: &Ir, op: OpId, name: &str) -> R {
    match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        None => Err(format!("requires attribute '{name}'").into()),
        Some(AttrData::Integer { ty, .. }) if ir.type_data(*ty).is_signless_int(1) => Ok(()),
        Some(_) => Err(format!("attribute '{name}' failed to satisfy constraint: bool attribute").into()),
    }
}

fn shapes_and_encodings_match(ir: &Ir, types: &[Type], what: &str) -> R {
    let ts: Vec<_> = types.iter().filter_map(|t| tensor(ir, *t)).collect();
    if ts.windows(2).any(|w| w[0].0 != w[1].0) {
        return Err(format!("requires the same shape for all {what}").into());
    }
    if ts.windows(2).any(|w| w[0].2 != w[1].2) {
        return Err(format!("requires the same encoding for all {what}").into());
    }
    Ok(())
}

/// The result type `tt.reduce` infers for one operand, as text.
fn reduced_text(ir: &Ir, t: Type, axis: usize) -> Option<String> {
    let (shape, elem, enc) = tensor(ir, t)?;
    if shape.len() == 1 {
        return Some(text_of(ir, elem));
    }
    let mut s: Vec<i64> = shape.to_vec();
    s.remove(axis);
    let enc_text = enc.map(|e| {
        let parent = hivm_ir::printer::attr_to_string(ir, e);
        if parent.starts_with("#ttg.") { format!("#ttg.slice<{{dim = {axis}, parent = {parent}}}>") } else { parent }
    });
    let mut out = String::from("tensor<");
    for d in &s {
        out.push_str(&format!("{d}x"));
    }
    out.push_str(&text_of(ir, elem));
    if let Some(e) = enc_text {
        out.push_str(", ");
        out.push_str(&e);
    }
    out.push('>');
    Some(out)
}

fn verify_reduce(ir: &Ir, op: OpId) -> R {
    let (ins, outs) = (ir.operands(op), ir.results(op));
    check_all(ir, ins, C::Tensor, "operand", 0)?;
    check_all(ir, outs, C::Any, "result", 0)?;
    require_i32(ir, op, "axis")?;
    let in_types: Vec<Type> = ins.iter().map(|v| ir.value_type(*v)).collect();
    shapes_and_encodings_match(ir, &in_types, "operands")?;
    if ins.is_empty() {
        return Err("must have at least 1 operand".into());
    }
    if ins.len() != outs.len() {
        return Err("must have the same number of inputs as outputs".into());
    }
    let rank = tensor(ir, in_types[0]).map_or(0, |(s, _, _)| s.len());
    let axis = int_attr(ir, op, "axis").unwrap_or(0);
    if axis < 0 || axis as usize >= rank {
        return Err(format!("axis {axis} out of range for operands of rank {rank}").into());
    }
    for (i, v) in outs.iter().enumerate() {
        let got = ir.value_type(*v);
        if scalar_of(ir, in_types[i]) != scalar_of(ir, got) {
            return Err("operand types and result types must have the same element type".into());
        }
        if let Some(want) = reduced_text(ir, in_types[i], axis as usize)
            && want != text_of(ir, got)
        {
            return Err(format!(
                "inferred type(s) '{want}' are incompatible with return type(s) of operation '{}'",
                text_of(ir, got)
            )
            .into());
        }
    }
    Ok(())
}

/// The combining block takes two of each operand's element type and
/// returns one of each through `terminator`.
fn verify_combiner(ir: &Ir, op: OpId, terminator: &str, pairs: bool) -> R {
    let elems: Vec<Type> = ir.operands(op).iter().map(|v| scalar_of(ir, ir.value_type(*v))).collect();
    let Some(&region) = ir.regions(op).first() else { return Ok(()) };
    let Some(&block) = ir.region_blocks(region).first() else {
        return Err("expects a non-empty combining region".into());
    };
    let args = ir.block_args(block);
    let n = if pairs { 2 * elems.len() } else { elems.len() };
    if args.len() != n {
        return Err(
            format!("nested block must take {n} arguments, but given block with {} arguments", args.len()).into()
        );
    }
    for (i, a) in args.iter().enumerate() {
        let want = elems[i % elems.len().max(1)];
        let got = ir.value_type(*a);
        if got != want {
            return Err(format!(
                "type mismatch on combine operation. Expected argument {i} to have type {} but got {}",
                text_of(ir, want),
                text_of(ir, got)
            )
            .into());
        }
    }
    let Some(term) = ir.terminator(block).filter(|t| ir.is_op(*t, terminator)) else {
        return Err(format!("combine operation must be terminated with a {terminator} op").into());
    };
    let rets = ir.operands(term);
    if rets.len() != elems.len() {
        return Err(
            format!("expected combine operation to return {} values but got {}", elems.len(), rets.len()).into()
        );
    }
    for (i, (r, want)) in rets.iter().zip(&elems).enumerate() {
        let got = ir.value_type(*r);
        if got != *want {
            return Err(format!(
                "type mismatch on combine operation. Expected argument {i} to have type {} but got {}",
                text_of(ir, *want),
                text_of(ir, got)
            )
            .into());
        }
    }
    Ok(())
}

fn verify_reduce_regions(ir: &Ir, op: OpId) -> R {
    verify_combiner(ir, op, "tt.reduce.return", true)
}

fn verify_scan(ir: &Ir, op: OpId) -> R {
    let (ins, outs) = (ir.operands(op), ir.results(op));
    check_all(ir, ins, C::Tensor, "operand", 0)?;
    check_all(ir, outs, C::Tensor, "result", 0)?;
    require_i32(ir, op, "axis")?;
    require_bool(ir, op, "reverse")?;
    let all: Vec<Type> = ins.iter().chain(outs).map(|v| ir.value_type(*v)).collect();
    shapes_and_encodings_match(ir, &all, "operands and results")?;
    if ins.is_empty() {
        return Err("must have at least 1 operand".into());
    }
    if ins.len() != outs.len() {
        return Err("must have the same number of inputs as outputs".into());
    }
    let rank = tensor(ir, all[0]).map_or(0, |(s, _, _)| s.len());
    let axis = int_attr(ir, op, "axis").unwrap_or(0);
    if axis < 0 || axis as usize >= rank {
        return Err(format!("axis {axis} out of range for operands of rank {rank}").into());
    }
    for (i, o) in ins.iter().zip(outs) {
        if scalar_of(ir, ir.value_type(*i)) != scalar_of(ir, ir.value_type(*o)) {
            return Err("operand types and result types must have the same element type".into());
        }
    }
    Ok(())
}

fn verify_scan_regions(ir: &Ir, op: OpId) -> R {
    verify_combiner(ir, op, "tt.scan.return", true)
}

fn verify_map(ir: &Ir, op: OpId) -> R {
    let (ins, outs) = (ir.operands(op), ir.results(op));
    check_all(ir, ins, C::Tensor, "operand", 0)?;
    check_all(ir, outs, C::Tensor, "result", 0)?;
    require_i32(ir, op, "pack")?;
    let all: Vec<Type> = ins.iter().chain(outs).map(|v| ir.value_type(*v)).collect();
    shapes_and_encodings_match(ir, &all, "operands and results")?;
    if int_attr(ir, op, "pack").is_some_and(|p| p <= 0) {
        return Err("pack must be positive".into());
    }
    Ok(())
}

fn verify_map_regions(ir: &Ir, op: OpId) -> R {
    let pack = int_attr(ir, op, "pack").unwrap_or(1).max(1) as usize;
    let n_in = ir.operands(op).len();
    let n_out = ir.results(op).len();
    let Some(&region) = ir.regions(op).first() else { return Ok(()) };
    let Some(&block) = ir.region_blocks(region).first() else {
        return Err("expects a non-empty scalar region".into());
    };
    let args = ir.block_args(block).len();
    if args != n_in * pack {
        return Err(
            format!("region must take {} arguments ({n_in} operands x pack {pack}), got {args}", n_in * pack).into()
        );
    }
    for b in ir.region_blocks(region) {
        if let Some(t) = ir.terminator(*b).filter(|t| ir.is_op(*t, "tt.map_elementwise.return")) {
            let k = ir.operands(t).len();
            if k != n_out * pack {
                return Err(format!("region must return {} values, got {k}", n_out * pack).into());
            }
        }
    }
    Ok(())
}

fn verify_parent(ir: &Ir, op: OpId, parent: &str) -> R {
    match ir.parent_op(op) {
        Some(p) if ir.is_op(p, parent) => Ok(()),
        _ => Err(format!("expects parent op '{parent}'").into()),
    }
}

const RETURNS: &[OpSpec] = &[
    OpSpec {
        name: "tt.reduce.return",
        operands: &[var("result")],
        format: "$result attr-dict `:` type($result)",
        traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
        verify: Some(|ir, op| verify_parent(ir, op, "tt.reduce")),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.scan.return",
        operands: &[var("result")],
        format: "$result attr-dict `:` type($result)",
        traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
        verify: Some(|ir, op| verify_parent(ir, op, "tt.scan")),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.map_elementwise.return",
        operands: &[var("result")],
        format: "attr-dict ($result^ `:` type($result))?",
        traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
        verify: Some(|ir, op| verify_parent(ir, op, "tt.map_elementwise")),
        ..OpSpec::EMPTY
    },
];

pub(super) fn defs() -> Vec<OpDef> {
    let mut out: Vec<OpDef> = RETURNS.iter().map(|s| s.def()).collect();
    out.push(
        OpDef::new("tt.reduce")
            .arity((0, None), (0, None), 1)
            .traits(Traits::PURE.with(Traits::SINGLE_BLOCK))
            .inherent(&["axis"])
            .verifier(verify_reduce)
            .region_verifier(verify_reduce_regions),
    );
    out.push(
        OpDef::new("tt.scan")
            .arity((0, None), (0, None), 1)
            .traits(Traits::PURE.with(Traits::SINGLE_BLOCK))
            .inherent(&["axis", "reverse"])
            .verifier(verify_scan)
            .region_verifier(verify_scan_regions),
    );
    out.push(
        OpDef::new("tt.map_elementwise")
            .arity((0, None), (0, None), 1)
            .inherent(&["pack"])
            .verifier(verify_map)
            .region_verifier(verify_map_regions),
    );
    out
}

//! torch-mlir's `torch_c` (TorchConversion) dialect: the casts between
//! torch values and builtin ones that lowering out of `torch` leaves
//! behind. The tensor casts write both types; the scalar casts write
//! only their operand, both types being fixed by the op.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{Fixed, OpSpec, one};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Dialect, Ir, OpDef, OpId, Traits};

use super::types::{self, summary};

const TO_BUILTIN_TENSOR: OpSpec = OpSpec {
    name: "torch_c.to_builtin_tensor",
    operands: &[one("operand")],
    results: &[one("result")],
    format: "$operand attr-dict `:` type($operand) `->` type($result)",
    traits: Traits::PURE,
    verify: Some(verify_tensor_cast),
    ..OpSpec::EMPTY
};

const FROM_BUILTIN_TENSOR: OpSpec = OpSpec { name: "torch_c.from_builtin_tensor", ..TO_BUILTIN_TENSOR };

const GET_NEXT_SEED: OpSpec = OpSpec {
    name: "torch_c.get_next_seed",
    results: &[one("result").of(Fixed::Int(64))],
    format: "attr-dict `:` `(` `)` `->` type($result)",
    ..OpSpec::EMPTY
};

const TENSOR_SUMMARY: &str = "tensor of any type values";

/// The operand and result constraints, then equal sizes and element types.
fn verify_tensor_cast(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let (operand, result) = (ir.value_type(ir.operands(op)[0]), ir.value_type(ir.result(op, 0)));
    let to_builtin = ir.op_name(op) == "torch_c.to_builtin_tensor";
    let (torch, builtin) = if to_builtin { (operand, result) } else { (result, operand) };
    let (torch_what, builtin_what) = if to_builtin { ("operand", "result") } else { ("result", "operand") };
    let text = |t| hivm_ir::printer::type_to_string(ir, t);
    let builtin_tensor = types::builtin_tensor(ir, builtin);
    let torch_error = format!("{torch_what} #0 must be {}, but got '{}'", summary::TENSOR, text(torch));
    let builtin_error = format!("{builtin_what} #0 must be {TENSOR_SUMMARY}, but got '{}'", text(builtin));
    let vtensor = types::of(ir, torch);
    let (torch_ok, builtin_ok) = (vtensor.is_vtensor(), builtin_tensor.is_some());
    // ODS checks the operand before the result.
    let checks = if to_builtin {
        [(torch_ok, torch_error), (builtin_ok, builtin_error)]
    } else {
        [(builtin_ok, builtin_error), (torch_ok, torch_error)]
    };
    for (ok, msg) in checks {
        if !ok {
            return Err(msg.into());
        }
    }
    let builtin_tensor = builtin_tensor.expect("checked above");
    if !types::same_size_and_dtype(&vtensor, &builtin_tensor) {
        return Err(VerifyError::plain("operand and result must have the same size and dtype"));
    }
    Ok(())
}

/// The scalar casts: name, operand type and its summary, result type and
/// its summary.
const CASTS: &[(&str, &str, &str, &str, &str)] = &[
    ("torch_c.to_i1", "!torch.bool", "Torch BoolType", "i1", "1-bit signless integer"),
    ("torch_c.from_i1", "i1", "1-bit signless integer", "!torch.bool", "Torch BoolType"),
    ("torch_c.to_i64", "!torch.int", "Torch IntType", "i64", "64-bit signless integer"),
    ("torch_c.from_i64", "i64", "64-bit signless integer", "!torch.int", "Torch IntType"),
    ("torch_c.to_f64", "!torch.float", "Torch FloatType", "f64", "64-bit float"),
    ("torch_c.from_f64", "f64", "64-bit float", "!torch.float", "Torch FloatType"),
    (
        "torch_c.i64_to_generator",
        "i64",
        "64-bit signless integer",
        "!torch.Generator",
        "Torch Generator for producing valsem-random numbers",
    ),
    (
        "torch_c.generator_to_i64",
        "!torch.Generator",
        "Torch Generator for producing valsem-random numbers",
        "i64",
        "64-bit signless integer",
    ),
];

fn cast_of(name: &str) -> Option<&'static (&'static str, &'static str, &'static str, &'static str, &'static str)> {
    CASTS.iter().find(|c| c.0 == name)
}

/// `%x attrs`: both types come from the op.
fn parse_cast(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.ir.sym_str(r.name).to_string();
    let Some(&(_, from, _, to, _)) = cast_of(&name) else {
        return p.error(format!("custom op '{name}' is unknown"));
    };
    let operand = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let from = p.parse_type_text(from)?;
    let to = p.parse_type_text(to)?;
    let v = p.resolve_operand(&operand, from)?;
    r.operands.push(v);
    r.result_types.push(to);
    Ok(())
}

fn print_cast(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operands(op)[0]);
    p.print_optional_attr_dict(op, &[]);
}

fn verify_cast(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(&(_, from, from_summary, to, to_summary)) = cast_of(ir.op_name(op)) else { return Ok(()) };
    let text = |v| hivm_ir::printer::type_to_string(ir, ir.value_type(v));
    let operand = text(ir.operands(op)[0]);
    if operand != from {
        return Err(format!("operand #0 must be {from_summary}, but got '{operand}'").into());
    }
    let result = text(ir.result(op, 0));
    if result != to {
        return Err(format!("result #0 must be {to_summary}, but got '{result}'").into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    let mut defs = vec![TO_BUILTIN_TENSOR.def(), FROM_BUILTIN_TENSOR.def(), GET_NEXT_SEED.def()];
    for (name, ..) in CASTS {
        defs.push(
            OpDef::new(name)
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
                .assembly(parse_cast, print_cast)
                .invariants(verify_cast),
        );
    }
    Dialect::new("torch_c", defs)
}

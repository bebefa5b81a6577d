//! `tt.func` (printed and checked as `func.func` is: both are MLIR
//! function-like ops), `tt.return`, `tt.call`, and AscendNPU-IR's
//! `tt.call_scalar` (a call carrying a shared-memory descriptor).

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, OpSpec, attr, one, opt_attr, var};
use hivm_ir::{AttrData, Ir, OpDef, OpId, Traits};

use super::customs::CALL_TYPE;
use super::types::{C, text_of};
use super::verify::constrain;
use crate::func::func_signature;

type R = Result<(), VerifyError>;

fn verify_return(ir: &Ir, op: OpId) -> R {
    let Some(func) = ir.parent_op(op).filter(|f| ir.is_op(*f, "tt.func")) else {
        return Err("expects parent op 'tt.func'".into());
    };
    let (_, results) = func_signature(ir, func);
    let name = ir.get_attr(func, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("");
    let ops = ir.operands(op);
    if ops.len() != results.len() {
        return Err(
            format!("has {} operands, but enclosing function (@{name}) returns {}", ops.len(), results.len()).into()
        );
    }
    for (i, (v, t)) in ops.iter().zip(&results).enumerate() {
        let vt = ir.value_type(*v);
        if vt != *t {
            return Err(VerifyError::plain(format!(
                "type of return operand {i} ({}) doesn't match function result type ({}) in function @{name}",
                text_of(ir, vt),
                text_of(ir, *t)
            )));
        }
    }
    Ok(())
}

/// The callee's signature matches the call (MLIR's `CallOpInterface` check
/// as Triton's `tt.call` words it).
fn check_callee(ir: &Ir, op: OpId, args: &[hivm_ir::Value]) -> R {
    let Some(callee) = ir.get_attr(op, "callee") else { return Err("requires attribute 'callee'".into()) };
    let AttrData::SymbolRef { root, nested } = ir.attr_data(callee) else {
        return Err("attribute 'callee' failed to satisfy constraint: flat symbol reference attribute".into());
    };
    if !nested.is_empty() {
        return Err("attribute 'callee' failed to satisfy constraint: flat symbol reference attribute".into());
    }
    let name = ir.sym_str(*root);
    let Some(f) = hivm_ir::builder::lookup_symbol_from(ir, op, name)
        .filter(|f| ir.is_op(*f, "tt.func") || ir.is_op(*f, "func.func") || ir.is_op(*f, "llvm.func"))
    else {
        return Err(format!("'{name}' does not reference a valid function").into());
    };
    if ir.is_op(f, "llvm.func") {
        return Ok(());
    }
    let (inputs, results) = func_signature(ir, f);
    if args.len() != inputs.len() {
        return Err("incorrect number of operands for callee".into());
    }
    for (i, (v, t)) in args.iter().zip(&inputs).enumerate() {
        if ir.value_type(*v) != *t {
            return Err(format!(
                "operand type mismatch: expected operand type {}, but provided {} for operand number {i}",
                text_of(ir, *t),
                text_of(ir, ir.value_type(*v))
            )
            .into());
        }
    }
    let res = ir.results(op);
    if res.len() != results.len() {
        return Err("incorrect number of results for callee".into());
    }
    for (i, (v, t)) in res.iter().zip(&results).enumerate() {
        if ir.value_type(*v) != *t {
            return Err(format!(
                "result type mismatch: expected result type {}, but provided {} for result number {i}",
                text_of(ir, *t),
                text_of(ir, ir.value_type(*v))
            )
            .into());
        }
    }
    Ok(())
}

fn verify_call(ir: &Ir, op: OpId) -> R {
    check_callee(ir, op, ir.operands(op))
}

fn verify_call_scalar(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("shm_desc", C::MemDesc)])?;
    let args = super::verify::values(ir, op, "call_args");
    check_callee(ir, op, args)
}

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "tt.return",
        operands: &[var("srcs")],
        format: "attr-dict ($srcs^ `:` type($srcs))?",
        traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
        verify: Some(verify_return),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.call",
        operands: &[var("operands")],
        attrs: &[
            attr("callee", AttrKind::SymbolRef),
            opt_attr("arg_attrs", AttrKind::Array),
            opt_attr("res_attrs", AttrKind::Array),
        ],
        results: &[var("results")],
        format: "$callee `(` $operands `)` attr-dict `:` functional-type(operands, results)",
        verify: Some(verify_call),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.call_scalar",
        operands: &[one("shm_desc"), var("call_args")],
        attrs: &[
            attr("callee", AttrKind::SymbolRef),
            opt_attr("arg_attrs", AttrKind::Array),
            opt_attr("res_attrs", AttrKind::Array),
        ],
        results: &[var("results")],
        format: concat!(
            "$shm_desc `,` $callee `(` $call_args `)` attr-dict `:` type($shm_desc) `,` ",
            "custom<CallType>($call_args, $results)"
        ),
        customs: &[CALL_TYPE],
        verify: Some(verify_call_scalar),
        ..OpSpec::EMPTY
    },
];

pub(super) fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("tt.func")
            .arity((0, Some(0)), (0, Some(0)), 1)
            .traits(Traits::ISOLATED_FROM_ABOVE | Traits::SYMBOL | Traits::AFFINE_SCOPE)
            .inherent(&["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"])
            .assembly(crate::func::parse_func, crate::func::print_func)
            .verifier(crate::func::verify_func),
    ]
}

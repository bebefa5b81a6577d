//! Atomic read-modify-writes of one memref element: `memref.atomic_rmw`
//! with a fixed operation (`addf`, `maxs`, ...: arith's `AtomicRMWKind`,
//! kept as an integer and written by name), and `memref.generic_atomic_rmw`,
//! whose body computes the new value from the current one and gives it to
//! `memref.atomic_yield`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, Fixed, IntEnumKind, OpSpec, attr, one, var};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId, Traits, TypeData};

use crate::util::{parse_index_list, print_index_list, resolve_all, type_str};

/// arith's `AtomicRMWKind`, in the order of its values.
pub(crate) const ATOMIC_RMW_KIND: IntEnumKind = IntEnumKind {
    cases: &[
        ("addf", 0),
        ("addi", 1),
        ("andi", 2),
        ("assign", 3),
        ("maximumf", 4),
        ("maxnumf", 5),
        ("maxs", 6),
        ("maxu", 7),
        ("minimumf", 8),
        ("minnumf", 9),
        ("mins", 10),
        ("minu", 11),
        ("mulf", 12),
        ("muli", 13),
        ("ori", 14),
        ("xori", 15),
    ],
    width: 64,
    summary: "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
};

const ATOMIC_RMW: OpSpec = OpSpec {
    name: "memref.atomic_rmw",
    operands: &[one("value").like("result"), one("memref"), var("indices").of(Fixed::Index)],
    attrs: &[attr("kind", AttrKind::IntEnum(ATOMIC_RMW_KIND))],
    results: &[one("result")],
    format: "$kind $value `,` $memref `[` $indices `]` attr-dict `:` `(` type($value) `,` type($memref) `)` `->` \
             type($result)",
    verify: Some(verify_atomic_rmw),
    ..OpSpec::EMPTY
};

fn verify_atomic_rmw(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let value = ir.value_type(ir.operand(op, 0));
    let memref = ir.value_type(ir.operand(op, 1));
    let TypeData::MemRef { shape, elem, .. } = ir.type_data(memref) else {
        let t = type_str(ir, memref);
        return Err(
            format!("operand #1 must be memref of signless integer or floating-point values, but got '{t}'").into()
        );
    };
    if *elem != value {
        return Err("failed to verify that value type matches element type of memref".into());
    }
    if shape.len() != ir.operands(op).len() - 2 {
        return Err("expects the number of subscripts to be equal to memref rank".into());
    }
    let kind = ir.get_attr(op, "kind").and_then(|a| ir.as_int(a)).unwrap_or(0) as i64;
    let name = ATOMIC_RMW_KIND.name_of(kind).unwrap_or("");
    let d = ir.type_data(value);
    match name {
        "addf" | "maximumf" | "minimumf" | "mulf" if !matches!(d, TypeData::Float(_)) => {
            Err(format!("with kind '{name}' expects a floating-point type").into())
        }
        "addi" | "maxs" | "maxu" | "mins" | "minu" | "muli" | "ori" | "xori" | "andi"
            if !matches!(d, TypeData::Integer { .. }) =>
        {
            Err(format!("with kind '{name}' expects an integer type").into())
        }
        _ => Ok(()),
    }
}

// ----- generic_atomic_rmw: `%r = memref.generic_atomic_rmw %m[%i] : memref<4xf32> { ^bb0(%cur: f32): ... }` -----

fn parse_generic(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let memref = p.parse_operand()?;
    let indices = parse_index_list(p)?;
    let tpos = p.pos();
    let t = p.parse_colon_type()?;
    let v = p.resolve_operand(&memref, t)?;
    r.operands.push(v);
    let index = p.ir.index_type();
    resolve_all(p, &indices, index, r)?;
    let body = p.parse_region(&[], false)?;
    r.regions.push(body);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let TypeData::MemRef { elem, .. } = p.ir.type_data(t).clone() else {
        return p.op_error_at(tpos, format!("expected a memref type, but got '{}'", type_str(p.ir, t)));
    };
    r.result_types.push(elem);
    Ok(())
}

fn print_generic(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let (Some((&memref, indices)), Some(&body)) = (ir.operands(op).split_first(), ir.regions(op).first()) else {
        return p.print_generic_op(op);
    };
    p.push(" ");
    p.print_value(memref);
    print_index_list(p, indices);
    p.push(" : ");
    p.print_type(ir.value_type(memref));
    p.push(" ");
    p.print_region(body, true, true);
    p.print_optional_attr_dict(op, &[]);
}

fn verify_generic(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let memref = ir.value_type(ir.operand(op, 0));
    if !ir.type_data(memref).is_memref() {
        let t = type_str(ir, memref);
        return Err(format!("operand #0 must be memref of any type values, but got '{t}'").into());
    }
    let index_ok = ir.operands(op)[1..].iter().all(|v| matches!(ir.type_data(ir.value_type(*v)), TypeData::Index));
    if !index_ok {
        return Err("operand #1 must be variadic of index, but got a non-index value".into());
    }
    let Some(&entry) = ir.region_blocks(ir.regions(op)[0]).first() else {
        return Err("expected single number of entry block arguments".into());
    };
    let args = ir.block_args(entry);
    if args.len() != 1 {
        return Err("expected single number of entry block arguments".into());
    }
    if ir.value_type(ir.result(op, 0)) != ir.value_type(args[0]) {
        return Err("expected block argument of the same type result type".into());
    }
    let mut impure = None;
    ir.walk(op, &mut |nested| {
        if nested != op && impure.is_none() && !ir.is_side_effect_free(nested) {
            impure = Some(nested);
        }
    });
    if let Some(nested) = impure {
        return Err(VerifyError::plain_at(
            nested,
            "body of 'memref.generic_atomic_rmw' should contain only operations with no side effects",
        ));
    }
    Ok(())
}

const ATOMIC_YIELD: OpSpec = OpSpec {
    name: "memref.atomic_yield",
    operands: &[one("result")],
    format: "$result attr-dict `:` type($result)",
    traits: Traits::PURE.with(Traits::TERMINATOR),
    verify: Some(verify_yield),
    ..OpSpec::EMPTY
};

fn verify_yield(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let parent = ir.parent_op(op).filter(|p| ir.op_name(*p) == "memref.generic_atomic_rmw");
    let Some(parent) = parent else {
        return Err("expects parent op 'memref.generic_atomic_rmw'".into());
    };
    let (want, have) = (ir.value_type(ir.result(parent, 0)), ir.value_type(ir.operand(op, 0)));
    if want != have {
        let (have, want) = (type_str(ir, have), type_str(ir, want));
        return Err(format!("types mismatch between yield op: '{have}' and its parent: '{want}'").into());
    }
    Ok(())
}

pub(super) fn defs() -> Vec<OpDef> {
    vec![
        ATOMIC_RMW.def(),
        OpDef::new("memref.generic_atomic_rmw")
            .arity((1, None), (1, Some(1)), 1)
            .traits(Traits::SINGLE_BLOCK)
            .assembly(parse_generic, print_generic)
            .verifier(verify_generic),
        ATOMIC_YIELD.def(),
    ]
}

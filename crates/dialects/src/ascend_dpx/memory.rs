//! Loads and stores through `!llvm.ptr` with an optional lane mask and
//! cache hints, and the atomic read-modify-write ops.

use hivm_ir::Traits;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrDef, Compiled, CustomDirective, Fixed, FormatState, OpSpec, ValueDef, Var, default_attr, one, opt,
};
use hivm_ir::parser::{PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{OpId, TypeData};

use super::{CACHE_OPTION, LOAD_CACHE, STORE_CACHE, VOLATILE_OPTION, verify_ptr};

const NORMAL_FV: &str = "L2_CACHE_HINT_NORMAL_FV";

/// `type($ptr)` of an `LLVM_AnyPointer`: MLIR writes it stripped (`<1>`,
/// nothing for address space 0) and reads the full `!llvm.ptr<1>` too.
const PTR_TYPE: CustomDirective = CustomDirective { name: "PtrType", parse: parse_ptr_type, print: print_ptr_type };

fn parse_ptr_type(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    let Some(&Var::Operand(o)) = args.first() else { return p.error("bad PtrType directive") };
    let t = if p.is(Tok::ExclaimIdent) {
        p.parse_type()?
    } else {
        let mut body = "ptr".to_string();
        if p.consume_if(Tok::Less) {
            let pos = p.pos();
            let space = p.parse_integer("address space")?;
            if u32::try_from(space).is_err() {
                return p.error_at(pos, "invalid address space");
            }
            p.expect(Tok::Greater, "'>'")?;
            if space != 0 {
                body = format!("ptr<{space}>");
            }
        }
        p.ir.ty(TypeData::Opaque { dialect: "llvm".into(), body })
    };
    st.operand_types[o] = vec![t];
    Ok(())
}

fn print_ptr_type(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let Some(&Var::Operand(o)) = args.first() else { return };
    let Some(&v) = c.operand_group(ir, op, o).first() else { return };
    let t = ir.value_type(v);
    match ir.type_data(t) {
        TypeData::Opaque { dialect, body } if dialect == "llvm" && body.starts_with("ptr") => {
            let rest = body[3..].to_string();
            p.push(&rest);
        }
        _ => p.print_type(t),
    }
}

const ATOMIC_OPERANDS: &[ValueDef] = &[one("src"), one("data")];
const ATOMIC_ATTRS: &[AttrDef] = &[default_attr("cache", STORE_CACHE, NORMAL_FV)];
const RES: &[ValueDef] = &[one("res")];

const fn atomic(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: ATOMIC_OPERANDS,
        attrs: ATOMIC_ATTRS,
        results: RES,
        format: concat!(
            "$src `,` $data oilist(`cacheModifier` `=` $cache) attr-dict `:` ",
            "functional-type(operands, results)"
        ),
        verify: Some(verify_ptr),
        ..OpSpec::EMPTY
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "ascend_dpx.load",
        operands: &[one("ptr"), opt("mask").of(Fixed::Int(1)), opt("falseVal")],
        attrs: &[
            default_attr("cacheHint", LOAD_CACHE, NORMAL_FV),
            default_attr("cacheOption", CACHE_OPTION, "LOADCACHEOPTION_CA"),
            default_attr("volatileOption", VOLATILE_OPTION, "NONVOLATILE"),
        ],
        results: &[one("result")],
        segments: true,
        format: concat!(
            "$ptr (`,` $mask^)? (`,` $falseVal^)? ",
            "oilist(`cacheModifier` `=` $cacheHint | `cacheOption` `=` $cacheOption ",
            "| `volatileOption` `=` $volatileOption) ",
            "attr-dict `:` functional-type(operands, results)"
        ),
        verify: Some(verify_ptr),
        traits: Traits::NONE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ascend_dpx.store",
        operands: &[one("ptr"), one("value"), opt("mask").of(Fixed::Int(1))],
        attrs: &[
            default_attr("cacheHint", STORE_CACHE, NORMAL_FV),
            default_attr("cacheOption", CACHE_OPTION, "LOADCACHEOPTION_CA"),
        ],
        format: concat!(
            "$ptr `,` $value (`,` $mask^)? ",
            "oilist(`cacheModifier` `=` $cacheHint | `cacheOption` `=` $cacheOption) ",
            "attr-dict `:` custom<PtrType>($ptr) `,` type($value)"
        ),
        customs: &[PTR_TYPE],
        verify: Some(verify_ptr),
        ..OpSpec::EMPTY
    },
    atomic("ascend_dpx.atomic_and"),
    atomic("ascend_dpx.atomic_or"),
    atomic("ascend_dpx.atomic_xor"),
    atomic("ascend_dpx.atomic_inc"),
    atomic("ascend_dpx.atomic_dec"),
    atomic("ascend_dpx.atomic_max"),
    atomic("ascend_dpx.atomic_min"),
    atomic("ascend_dpx.atomic_add"),
    atomic("ascend_dpx.atomic_sub"),
    atomic("ascend_dpx.atomic_umax"),
    atomic("ascend_dpx.atomic_umin"),
    atomic("ascend_dpx.atomic_exchange"),
    OpSpec {
        name: "ascend_dpx.atomic_cas",
        operands: &[one("src"), one("data"), one("other")],
        attrs: &[default_attr("cache", STORE_CACHE, NORMAL_FV)],
        results: &[one("res")],
        format: "$src `,` $data `,` $other attr-dict `:` functional-type(operands, results)",
        verify: Some(verify_ptr),
        ..OpSpec::EMPTY
    },
];

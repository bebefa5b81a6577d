//! `memref.transpose %m (d0, d1) -> (d1, d0) : A to B`: a view with its
//! dimensions permuted, the permutation written as a bare affine map.

use hivm_ir::dialect::VerifyError;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Ir, OpDef, OpId, Traits};

fn parse_transpose(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let src = p.parse_operand()?;
    let map = p.parse_affine_map_body()?;
    let a = p.ir.attr(AttrData::AffineMap(map));
    crate::util::push_attr(p, r, "permutation", a);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src_t = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let res_t = p.parse_type()?;
    let v = p.resolve_operand(&src, src_t)?;
    r.operands.push(v);
    r.result_types.push(res_t);
    Ok(())
}

fn print_transpose(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" ");
    if let Some(AttrData::AffineMap(m)) = ir.get_attr(op, "permutation").map(|a| ir.attr_data(a)) {
        let mut s = String::new();
        m.print(&mut s);
        p.push(&s);
    }
    p.print_optional_attr_dict(op, &["permutation"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" to ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_transpose(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(AttrData::AffineMap(m)) = ir.get_attr(op, "permutation").map(|a| ir.attr_data(a)) else {
        return Err("requires attribute 'permutation'".into());
    };
    let rank = ir.type_data(ir.value_type(ir.operand(op, 0))).rank();
    let is_perm = m.num_symbols == 0 && m.results.len() == m.num_dims as usize && {
        let mut seen = vec![false; m.results.len()];
        m.results.iter().all(|e| match e {
            hivm_ir::affine::AffineExpr::Dim(d) => {
                seen.get_mut(*d as usize).is_some_and(|s| !std::mem::replace(s, true))
            }
            _ => false,
        })
    };
    if !is_perm {
        return Err("expected a permutation map".into());
    }
    if m.num_dims as usize != rank {
        return Err("expected a permutation map of same rank as the input".into());
    }
    Ok(())
}

crate::util::namer!(transpose_name, "transpose");

pub fn defs() -> Vec<OpDef> {
    vec![
        OpDef::new("memref.transpose")
            .traits(Traits::PURE)
            .inherent(&["permutation"])
            .assembly(parse_transpose, print_transpose)
            .verifier(verify_transpose)
            .names(transpose_name),
    ]
}

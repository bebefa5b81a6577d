//! MLIR's sharding dialect, the part AscendNPU-IR's tests use: a device
//! grid declared as a symbol and `all_reduce` over some of its axes. MLIR 22
//! calls it `shard` (`shard.grid`, `grid_axes`); upstream's LLVM 19 calls it
//! `mesh` (`mesh.mesh`, `mesh_axes`), which is how its tests write it. Both
//! spellings are registered from one definition, each printing as its MLIR
//! does:
//!
//! ```text
//! shard.grid @g(shape = 2x?x4)
//! %r = shard.all_reduce %t on @g grid_axes = [0] reduction = max : T -> U
//! ```

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{AttrData, Dialect, Ir, OpDef, OpId, Traits, TypeData, Value};

use crate::util::{opaque_attr, push_attr, type_str};

/// The words one spelling uses.
struct Names {
    dialect: &'static str,
    grid_op: &'static str,
    all_reduce: &'static str,
    /// The all_reduce's symbol attribute, and the word in its messages.
    grid: &'static str,
    axes: &'static str,
    /// `Grid` / `Mesh`, starting a sentence.
    title: &'static str,
}

const SHARD: Names = Names {
    dialect: "shard",
    grid_op: "shard.grid",
    all_reduce: "shard.all_reduce",
    grid: "grid",
    axes: "grid_axes",
    title: "Grid",
};

const MESH: Names = Names {
    dialect: "mesh",
    grid_op: "mesh.mesh",
    all_reduce: "mesh.all_reduce",
    grid: "mesh",
    axes: "mesh_axes",
    title: "Mesh",
};

fn names_of(ir: &Ir, op: OpId) -> &'static Names {
    if ir.op_name(op).starts_with("mesh.") { &MESH } else { &SHARD }
}

fn names_parsing(p: &Parser<'_>, r: &OpParseResult) -> &'static Names {
    if p.ir.sym_str(r.name).starts_with("mesh.") { &MESH } else { &SHARD }
}

const REDUCTIONS: &[&str] =
    &["sum", "max", "min", "product", "average", "bitwise_and", "bitwise_or", "bitwise_xor", "generic"];

fn dense_i64(ir: &Ir, op: OpId, name: &str) -> Option<Vec<i64>> {
    match ir.get_attr(op, name).map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => Some(v.clone()),
        _ => None,
    }
}

// ----- grid: `shard.grid @g(shape = 2x?x4) {attrs}` -----

fn parse_grid(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.parse_symbol_name()?;
    let a = p.ir.str_attr(&name);
    push_attr(p, r, "sym_name", a);
    p.expect(Tok::LParen, "'('")?;
    p.expect_keyword("shape")?;
    p.expect(Tok::Equal, "'='")?;
    let shape = p.parse_dimension_list(true)?;
    p.expect(Tok::RParen, "')'")?;
    let a = crate::util::i64_array_attr(p.ir, &shape);
    push_attr(p, r, "shape", a);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    Ok(())
}

fn print_grid(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_symbol_name(ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or(""));
    let dims: Vec<String> = dense_i64(ir, op, "shape")
        .unwrap_or_default()
        .iter()
        .map(|d| if *d == DYNAMIC { "?".to_string() } else { d.to_string() })
        .collect();
    p.push(&format!("(shape = {})", dims.join("x")));
    p.print_optional_attr_dict(op, &["sym_name", "shape"]);
}

fn verify_grid(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let n = names_of(ir, op);
    if ir.get_attr(op, "sym_name").and_then(|a| ir.as_str(a)).is_none() {
        return Err("requires attribute 'sym_name'".into());
    }
    let Some(shape) = dense_i64(ir, op, "shape") else { return Err("requires attribute 'shape'".into()) };
    if shape.is_empty() {
        return Err(format!("rank of {} is expected to be a positive integer", n.grid).into());
    }
    if shape.iter().any(|d| *d < 0 && *d != DYNAMIC) {
        return Err(format!("dimension size of a {} is expected to be non-negative or dynamic", n.grid).into());
    }
    Ok(())
}

// ----- all_reduce: `%r = shard.all_reduce %t on @g grid_axes = [0] reduction = max : T -> U` -----

fn parse_all_reduce(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let n = names_parsing(p, r);
    let input = p.parse_operand()?;
    p.expect_keyword("on")?;
    let grid = p.parse_attribute(None)?;
    if !matches!(p.ir.attr_data(grid), AttrData::SymbolRef { nested, .. } if nested.is_empty()) {
        return p.error("expected a flat symbol reference");
    }
    push_attr(p, r, n.grid, grid);
    let mut axes = Vec::new();
    if p.parse_optional_keyword(n.axes) {
        p.expect(Tok::Equal, "'='")?;
        p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
            let pos = p.pos();
            let v = p.parse_integer("integer")?;
            if i16::try_from(v).is_err() {
                return p.error_at(pos, "integer value too large");
            }
            axes.push(v as i64);
            Ok(())
        })?;
    }
    let i16t = p.ir.int_type(16);
    let a = p.ir.attr(AttrData::DenseArray { elem: i16t, data: hivm_ir::attrs::DenseArrayData::Int(axes) });
    push_attr(p, r, n.axes, a);
    let reduction = if p.parse_optional_keyword("reduction") {
        p.expect(Tok::Equal, "'='")?;
        if p.is(Tok::HashIdent) {
            p.parse_attribute(None)?
        } else {
            let pos = p.pos();
            if !p.is(Tok::BareIdent) && !p.is(Tok::String) {
                return p.op_error_at(pos, "expected valid keyword or string");
            }
            let kind = if p.is(Tok::String) {
                p.parse_utf8_string("string")?
            } else {
                p.parse_keyword("keyword")?.to_string()
            };
            if !REDUCTIONS.contains(&kind.as_str()) {
                return p.op_error_at(
                    pos,
                    format!("expected ::mlir::{}::ReductionKind to be one of: {}", n.dialect, REDUCTIONS.join(", ")),
                );
            }
            opaque_attr(p.ir, n.dialect, &format!("partial {kind}"))
        }
    } else {
        opaque_attr(p.ir, n.dialect, "partial sum")
    };
    push_attr(p, r, "reduction", reduction);
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::Colon, "':'")?;
    let pos = p.pos();
    let t = p.parse_type()?;
    p.expect(Tok::Arrow, "'->'")?;
    let res = p.parse_type()?;
    let v = p.resolve_operands(&[input], &[t], pos)?;
    r.operands.extend(v);
    r.result_types.push(res);
    Ok(())
}

/// The reduction kind of `#shard<partial max>` (`max`).
fn reduction_kind(ir: &Ir, op: OpId) -> Option<&str> {
    match ir.get_attr(op, "reduction").map(|a| ir.attr_data(a)) {
        Some(AttrData::Opaque { body, .. }) => {
            let body = body.strip_prefix('<').and_then(|b| b.strip_suffix('>')).unwrap_or(body);
            body.strip_prefix("partial ").or_else(|| body.strip_prefix("partial<")?.strip_suffix('>'))
        }
        _ => None,
    }
}

fn print_all_reduce(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let n = names_of(ir, op);
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.push(" on ");
    if let Some(g) = ir.get_attr(op, n.grid) {
        p.print_attr(g, Elide::Never);
    }
    let axes = dense_i64(ir, op, n.axes).unwrap_or_default();
    if !axes.is_empty() {
        let axes: Vec<String> = axes.iter().map(|a| a.to_string()).collect();
        p.push(&format!(" {} = [{}]", n.axes, axes.join(", ")));
    }
    match reduction_kind(ir, op) {
        Some("sum") => {}
        // The enum's printer leads with its own space.
        Some(kind) => p.push(&format!(" reduction =  {kind}")),
        None => {
            if let Some(a) = ir.get_attr(op, "reduction") {
                p.push(" reduction = ");
                p.print_attr(a, Elide::Never);
            }
        }
    }
    p.print_optional_attr_dict(op, &[n.grid, n.axes, "reduction"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    p.push(" -> ");
    p.print_type(ir.value_type(ir.results(op)[0]));
}

/// The operand and result constraints (a ranked tensor; MLIR 22 also
/// takes a memref), then `SameOperandsAndResultShape`.
fn verify_all_reduce_invariants(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let n = names_of(ir, op);
    let Some(grid) = ir.get_attr(op, n.grid) else { return Err(format!("requires attribute '{}'", n.grid).into()) };
    if !matches!(ir.attr_data(grid), AttrData::SymbolRef { nested, .. } if nested.is_empty()) {
        return Err(
            format!("attribute '{}' failed to satisfy constraint: flat symbol reference attribute", n.grid).into()
        );
    }
    let (what, memref_too) = if n.dialect == "shard" {
        ("memref of any type values or ranked tensor of any type values", true)
    } else {
        ("ranked tensor of any type values", false)
    };
    let ok = |t| match ir.type_data(t) {
        TypeData::RankedTensor { .. } => true,
        TypeData::MemRef { .. } => memref_too,
        _ => false,
    };
    let (input, result) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.results(op)[0]));
    if !ok(input) {
        return Err(format!("operand #0 must be {what}, but got '{}'", type_str(ir, input)).into());
    }
    if !ok(result) {
        return Err(format!("result #0 must be {what}, but got '{}'", type_str(ir, result)).into());
    }
    if ir.type_data(input).shape() != ir.type_data(result).shape() {
        return Err("requires the same shape for all operands and results".into());
    }
    Ok(())
}

/// The grid exists and the axes name distinct dimensions of it.
fn verify_all_reduce(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let n = names_of(ir, op);
    let Some(AttrData::SymbolRef { root, .. }) = ir.get_attr(op, n.grid).map(|a| ir.attr_data(a)) else {
        return Ok(());
    };
    let name = ir.sym_str(*root);
    let Some(grid) = hivm_ir::builder::lookup_symbol_from(ir, op, name).filter(|g| ir.is_op(*g, n.grid_op)) else {
        return Err(VerifyError::plain(format!("Undefined required {} symbol \"{name}\".", n.grid)));
    };
    let mut axes = dense_i64(ir, op, n.axes).unwrap_or_default();
    let given = axes.clone();
    axes.sort_unstable();
    if axes.windows(2).any(|w| w[0] == w[1]) {
        return Err(VerifyError::plain(format!("{} axes contains duplicate elements.", n.title)));
    }
    let rank = dense_i64(ir, grid, "shape").map_or(0, |s| s.len()) as i64;
    if let Some(a) = given.iter().find(|a| **a < 0 || **a >= rank) {
        return Err(VerifyError::plain(format!(
            "0-based {} axis index {a} is out of bounds. The referenced {} \"{name}\" is of rank {rank}.",
            n.grid, n.grid
        )));
    }
    Ok(())
}

fn all_reduce_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    crate::util::name_result0(ir, op, set, "all_reduce");
}

/// The reduction kind attribute (`#shard<partial sum>`): checked, and kept
/// in one spelling.
fn check_attr(body: &str) -> Result<String, String> {
    let inner = body.strip_prefix('<').and_then(|b| b.strip_suffix('>')).unwrap_or(body);
    match inner.strip_prefix("partial") {
        Some(kind) if REDUCTIONS.contains(&kind.trim()) => Ok(format!("partial {}", kind.trim())),
        Some(_) => Err(format!("expected one of [{}] for a reduction kind", REDUCTIONS.join(", "))),
        None => Ok(body.to_string()),
    }
}

fn dialect_of(n: &'static Names) -> Dialect {
    let mut d = Dialect::new(
        n.dialect,
        vec![
            OpDef::new(n.grid_op)
                .arity((0, Some(0)), (0, Some(0)), 0)
                .traits(Traits::SYMBOL.with(Traits::ZERO_REGIONS))
                .inherent(&["sym_name", "shape"])
                .assembly(parse_grid, print_grid)
                .verifier(verify_grid),
            OpDef::new(n.all_reduce)
                .arity((1, Some(1)), (1, Some(1)), 0)
                .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
                .inherent(if n.dialect == "shard" {
                    &["grid", "grid_axes", "reduction"]
                } else {
                    &["mesh", "mesh_axes", "reduction"]
                })
                .assembly(parse_all_reduce, print_all_reduce)
                .invariants(verify_all_reduce_invariants)
                .verifier(verify_all_reduce)
                .names(all_reduce_name),
        ],
    );
    d.check_attr = Some(check_attr);
    d
}

/// MLIR 22's `shard` dialect.
pub fn dialect() -> Dialect {
    dialect_of(&SHARD)
}

/// LLVM 19's `mesh` dialect (`shard` before its renaming).
pub fn mesh_dialect() -> Dialect {
    dialect_of(&MESH)
}

//! The relayout ops: `linalg.pack` / `linalg.unpack` as MLIR 22 has them,
//! and `tensor.pack` / `tensor.unpack`, the same ops under the names and
//! with the checks of upstream's LLVM 19 (whose tests still write them; MLIR
//! moved them to linalg and made the packed shape exact, where LLVM 19 let it
//! be larger). Both spellings share the format:
//! `%src (padding_value(%p : T))? (outer_dims_perm = [..])?
//! inner_dims_pos = [..] inner_tiles = [8, %t] into %dest : S -> D`.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{
    AttrDef, AttrKind, DYNAMIC_INDEX_LIST, Fixed, FormatState, OpSpec, ValueDef, attr, one, opt, optional_default_attr,
    var,
};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpDef, OpId, Traits, Type, TypeData, Value};

use crate::util::{i64_array, type_str};

const PACK_OPERANDS: &[ValueDef] =
    &[one("source"), one("dest"), opt("padding_value"), var("inner_tiles").of(Fixed::Index)];
const UNPACK_OPERANDS: &[ValueDef] = &[one("source"), one("dest"), var("inner_tiles").of(Fixed::Index)];
const RESULT: &[ValueDef] = &[one("result")];
const ATTRS: &[AttrDef] = &[
    optional_default_attr("outer_dims_perm", AttrKind::I64Array, "[]"),
    attr("inner_dims_pos", AttrKind::I64Array),
    attr("static_inner_tiles", AttrKind::I64Array),
];

macro_rules! tail {
    () => {
        "(`outer_dims_perm` `=` $outer_dims_perm^)? `inner_dims_pos` `=` $inner_dims_pos `inner_tiles` `=` \
         custom<DynamicIndexList>($inner_tiles, $static_inner_tiles) `into` $dest attr-dict `:` type($source) `->` \
         type($dest)"
    };
}

const fn pack(name: &'static str, verify: hivm_ir::dialect::VerifyFn) -> OpSpec {
    OpSpec {
        name,
        operands: PACK_OPERANDS,
        attrs: ATTRS,
        results: RESULT,
        segments: true,
        format: concat!("$source (`padding_value` `(` $padding_value^ `:` type($padding_value) `)`)? ", tail!()),
        customs: &[DYNAMIC_INDEX_LIST],
        infer: Some(dest_type),
        traits: Traits::PURE,
        verify: Some(verify),
        ..OpSpec::EMPTY
    }
}

const fn unpack(name: &'static str, verify: hivm_ir::dialect::VerifyFn) -> OpSpec {
    OpSpec {
        name,
        operands: UNPACK_OPERANDS,
        attrs: ATTRS,
        results: RESULT,
        format: concat!("$source ", tail!()),
        customs: &[DYNAMIC_INDEX_LIST],
        infer: Some(dest_type),
        traits: Traits::PURE,
        verify: Some(verify),
        ..OpSpec::EMPTY
    }
}

/// `TypesMatchWith<"result type matches type of dest">`: the result is
/// typed as the destination.
fn dest_type(_: &mut Ir, st: &FormatState) -> Result<Vec<Type>, String> {
    st.operand_types.get(1).and_then(|t| t.first()).map(|t| vec![*t]).ok_or_else(|| "expected a destination".into())
}

/// Which op, and whose rules.
#[derive(Copy, Clone, PartialEq)]
struct Kind {
    pack: bool,
    /// LLVM 19's `tensor.pack`/`tensor.unpack`: a packed shape at least the
    /// inferred one, checked before the tile sizes.
    llvm19: bool,
}

fn verify_linalg_pack(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify(ir, op, Kind { pack: true, llvm19: false })
}
fn verify_linalg_unpack(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify(ir, op, Kind { pack: false, llvm19: false })
}
fn verify_tensor_pack(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify(ir, op, Kind { pack: true, llvm19: true })
}
fn verify_tensor_unpack(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify(ir, op, Kind { pack: false, llvm19: true })
}

/// Shape and element type of a ranked tensor.
fn ranked(ir: &Ir, t: Type) -> Option<(&[i64], Type)> {
    match ir.type_data(t) {
        TypeData::RankedTensor { shape, elem, .. } => Some((shape, *elem)),
        _ => None,
    }
}

/// `tensor<4x?x8xf32>` for a shape and element type.
fn tensor_text(ir: &Ir, shape: &[i64], elem: Type) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        if *d == DYNAMIC {
            s.push('?');
        } else {
            s.push_str(&d.to_string());
        }
        s.push('x');
    }
    s.push_str(&type_str(ir, elem));
    s.push('>');
    s
}

/// A tile: static, or the SSA value standing for it.
#[derive(Copy, Clone)]
enum Tile {
    Static(i64),
    Dynamic(Value),
}

/// `isInvalidPackingPosSpecification`: too many, repeated or out of range.
fn invalid_positions(pos: &[i64], rank: usize) -> bool {
    let mut seen = std::collections::HashSet::new();
    pos.len() > rank || !pos.iter().all(|p| seen.insert(*p)) || pos.iter().any(|p| *p < 0 || *p >= rank as i64)
}

/// `PackOp::inferPackedType`: tiled dimensions divided (rounding up),
/// outer dimensions permuted, the tiles appended.
fn infer_packed_shape(unpacked: &[i64], tiles: &[i64], inner: &[i64], outer: &[i64]) -> Vec<i64> {
    let mut shape = unpacked.to_vec();
    for (i, &pos) in inner.iter().enumerate() {
        let d = pos as usize;
        if shape[d] == DYNAMIC {
            continue;
        }
        shape[d] = if tiles[i] == DYNAMIC {
            DYNAMIC
        } else {
            shape[d].div_euclid(tiles[i]) + (shape[d].rem_euclid(tiles[i]) != 0) as i64
        };
    }
    if !outer.is_empty() {
        shape = outer.iter().map(|p| shape[*p as usize]).collect();
    }
    shape.extend_from_slice(tiles);
    shape
}

fn verify(ir: &Ir, op: OpId, kind: Kind) -> Result<(), VerifyError> {
    let ops = ir.operands(op);
    for (i, v) in ops.iter().take(2).enumerate() {
        let t = ir.value_type(*v);
        if ranked(ir, t).is_none() {
            return Err(format!(
                "operand #{i} must be ranked tensor of any type values, but got '{}'",
                type_str(ir, t)
            )
            .into());
        }
    }
    let result = ir.value_type(ir.results(op)[0]);
    if ranked(ir, result).is_none() {
        return Err(
            format!("result #0 must be ranked tensor of any type values, but got '{}'", type_str(ir, result)).into()
        );
    }
    let (src_t, dest_t) = (ir.value_type(ops[0]), ir.value_type(ops[1]));
    if result != dest_t {
        return Err("failed to verify that result type matches type of dest".into());
    }
    let (src, src_elem) = ranked(ir, src_t).unwrap_or((&[], src_t));
    let (dest, dest_elem) = ranked(ir, dest_t).unwrap_or((&[], dest_t));
    let (unpacked, packed, unpacked_elem) = if kind.pack { (src, dest, src_elem) } else { (dest, src, dest_elem) };
    let statics = i64_array(ir, op, "static_inner_tiles");
    let dynamic: Vec<Value> =
        ops[if kind.pack { 2 + crate::util::segments(ir, op).get(2).copied().unwrap_or(0) } else { 2 }..].to_vec();
    if dynamic.len() != statics.iter().filter(|s| **s == DYNAMIC).count() {
        return Err(VerifyError::plain("expected as many dynamic tile sizes as '?' in 'static_inner_tiles'"));
    }
    let mut next = dynamic.iter();
    let tiles: Vec<Tile> = statics
        .iter()
        .map(|s| if *s == DYNAMIC { Tile::Dynamic(*next.next().unwrap()) } else { Tile::Static(*s) })
        .collect();
    let plain = |m: &str| Err(VerifyError::plain(m));
    let constant = |t: &Tile| match t {
        Tile::Static(s) => Some(*s),
        Tile::Dynamic(v) => crate::util::constant_int(ir, *v),
    };
    if tiles.iter().any(|t| constant(t) == Some(0)) {
        return plain("invalid zero tile factor");
    }
    let inner = i64_array(ir, op, "inner_dims_pos");
    let outer = i64_array(ir, op, "outer_dims_perm");
    let rank = unpacked.len();
    if invalid_positions(&inner, rank) {
        return plain("invalid inner_dims_pos vector");
    }
    if invalid_positions(&outer, rank) {
        return plain("invalid outer_dims_perm vector");
    }
    if !outer.is_empty() && outer.len() != rank {
        return plain("outer_dims_perm must be a permutation or empty");
    }
    if tiles.len() > rank {
        return plain("tiling factors must be less than or equal to the input rank for pack or output rank for unpack");
    }
    if tiles.len() != inner.len() {
        return plain("tiling factors must equal the number of dimensions to tile");
    }
    if packed.len() != rank + tiles.len() {
        return Err(VerifyError::plain(format!(
            "packed rank != (unpacked rank + num tiling factors), got {} != {}",
            packed.len(),
            rank + tiles.len()
        )));
    }
    let expected = infer_packed_shape(unpacked, &statics, &inner, &outer);
    let expected_text = || tensor_text(ir, &expected, unpacked_elem);
    let packed_text = type_str(ir, if kind.pack { dest_t } else { src_t });
    let dims = || expected.iter().zip(packed);
    if kind.llvm19 && !dims().all(|(e, p)| *e == DYNAMIC || *p == DYNAMIC || e <= p) {
        return Err(VerifyError::plain(format!(
            "the shape of output is not large enough to hold the packed data. Expected at least '{}', got '{packed_text}'",
            expected_text()
        )));
    }
    let tiles_match = packed[packed.len() - tiles.len()..].iter().zip(&tiles).all(|(d, t)| match t {
        Tile::Static(s) => d == s,
        Tile::Dynamic(_) => *d == DYNAMIC,
    });
    if !tiles_match {
        return plain("mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type");
    }
    if !kind.llvm19 && !dims().all(|(e, p)| *e == DYNAMIC || *p == DYNAMIC || e == p) {
        return Err(VerifyError::plain(format!(
            "expected '{}' for the packed domain value, got '{packed_text}'",
            expected_text()
        )));
    }
    if !kind.pack {
        return Ok(());
    }
    if crate::util::segments(ir, op).get(2).copied().unwrap_or(0) == 1 {
        let pad = ir.value_type(ops[2]);
        if pad != src_elem {
            return Err(format!(
                "expected padding_value has '{}' but got: '{}'",
                type_str(ir, src_elem),
                type_str(ir, pad)
            )
            .into());
        }
        return Ok(());
    }
    if requires_padding(src, &inner, dest, &outer, &tiles, constant) {
        return Err(
            "invalid tile factor or output size provided. Only full tiles are supported when padding_value is \
                    not set"
                .into(),
        );
    }
    Ok(())
}

/// `PackOp::requirePaddingValue`: some statically known dimension is not a
/// whole number of tiles.
fn requires_padding(
    input: &[i64],
    inner: &[i64],
    output: &[i64],
    outer: &[i64],
    tiles: &[Tile],
    constant: impl Fn(&Tile) -> Option<i64>,
) -> bool {
    let mut outer_sizes: Vec<i64> = output[..input.len()].to_vec();
    if !outer.is_empty() {
        // Undo the permutation: position `outer[i]` holds entry `i`.
        let mut undone = outer_sizes.clone();
        for (i, p) in outer.iter().enumerate() {
            undone[*p as usize] = outer_sizes[i];
        }
        outer_sizes = undone;
    }
    inner.iter().zip(tiles).any(|(&pos, tile)| {
        let d = input[pos as usize];
        if d == DYNAMIC {
            return false;
        }
        match constant(tile) {
            Some(t) => d % t != 0,
            None => outer_sizes[pos as usize] != DYNAMIC && d % outer_sizes[pos as usize] != 0,
        }
    })
}

fn pack_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    crate::util::name_result0(ir, op, set, "pack");
}

fn unpack_name(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    crate::util::name_result0(ir, op, set, "unpack");
}

/// MLIR 22's `linalg.pack` / `linalg.unpack`.
pub(crate) fn linalg_defs() -> Vec<OpDef> {
    vec![
        pack("linalg.pack", verify_linalg_pack).def().names(pack_name),
        unpack("linalg.unpack", verify_linalg_unpack).def().names(unpack_name),
    ]
}

/// LLVM 19's `tensor.pack` / `tensor.unpack`.
pub(crate) fn tensor_defs() -> Vec<OpDef> {
    vec![
        pack("tensor.pack", verify_tensor_pack).def().names(pack_name),
        unpack("tensor.unpack", verify_tensor_unpack).def().names(unpack_name),
    ]
}

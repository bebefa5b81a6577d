//! MLIR's `vector` dialect: masks, shape casts, broadcasts, loads and
//! stores, element and slice access (declarative definitions), the transfer
//! ops, `vector.mask` and `vector.print` (hand-written syntax, as upstream's
//! is); contractions and outer products (`contract.rs`), the reductions and
//! scans (`reduction.rs`) and the scalable-vector ops (`scalable.rs`).

use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrKind, DYNAMIC_INDEX_LIST, EnumKind, Fixed, OpSpec, attr, one, opt, opt_attr, optional_default_attr, var,
};
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Dialect, Ir, OpDef, OpId, Traits, Type, TypeData};

use crate::util::{push_attr, segment, segment_attr, type_str};

mod contract;
mod reduction;
mod scalable;

pub(super) const KIND: AttrKind = AttrKind::Enum(EnumKind {
    dialect: "vector",
    mnemonic: "kind",
    summary: "Kind of combining function for contractions and reductions",
});
pub(super) const FASTMATH: AttrKind =
    AttrKind::Enum(EnumKind { dialect: "arith", mnemonic: "fastmath", summary: "Floating point fast math flags" });

const KINDS: &[&str] = &[
    "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor", "maximumf", "minimumf",
];

const PUNCTUATIONS: &[&str] = &["no_punctuation", "newline", "comma", "open", "close"];

/// The vector dialect's enum attributes: mnemonic, the enum's C++ name
/// (for messages, as MLIR words them) and its cases.
const ENUM_ATTRS: &[(&str, &str, &[&str])] = &[
    ("kind", "CombiningKind", KINDS),
    ("punctuation", "PrintPunctuation", PUNCTUATIONS),
    ("iterator_type", "IteratorType", contract::ITERATOR_TYPES),
];

fn check_attr(body: &str) -> Result<String, String> {
    for (mnemonic, cpp, cases) in ENUM_ATTRS {
        let Some(v) = body.strip_prefix(mnemonic).and_then(|b| b.trim_start().strip_prefix('<')) else { continue };
        let Some(v) = v.strip_suffix('>') else { continue };
        let v = v.trim();
        if !cases.contains(&v) {
            return Err(format!("expected ::mlir::vector::{cpp} to be one of: {}", cases.join(", ")));
        }
        return Ok(format!("{mnemonic}<{v}>"));
    }
    Err(format!("unknown attribute `{body}` in dialect `vector`"))
}

const CONSTANT_MASK: OpSpec = OpSpec {
    name: "vector.constant_mask",
    attrs: &[attr("mask_dim_sizes", AttrKind::I64Array)],
    results: &[one("result")],
    format: "$mask_dim_sizes attr-dict `:` type(results)",
    traits: Traits::PURE,
    verify: Some(verify_mask_result),
    ..OpSpec::EMPTY
};

const CREATE_MASK: OpSpec = OpSpec {
    name: "vector.create_mask",
    operands: &[var("operands").of(Fixed::Index)],
    results: &[one("result")],
    format: "$operands attr-dict `:` type(results)",
    traits: Traits::PURE,
    verify: Some(verify_mask_result),
    ..OpSpec::EMPTY
};

fn verify_mask_result(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let t = ir.value_type(ir.result(op, 0));
    match ir.type_data(t) {
        TypeData::Vector { shape, elem, .. } if ir.type_data(*elem).is_signless_int(1) => {
            let n = match ir.op_name(op) {
                "vector.create_mask" => ir.operands(op).len(),
                _ => crate::util::i64_array(ir, op, "mask_dim_sizes").len(),
            };
            // A 0-d mask has one size (0 or 1).
            if n != shape.len().max(1) && !(shape.is_empty() && n == 0) {
                let what = if ir.op_name(op) == "vector.create_mask" { "operands" } else { "mask dim sizes" };
                return Err(format!("must specify {what} for all dimensions").into());
            }
            Ok(())
        }
        _ => {
            Err(format!("result #0 must be vector of 1-bit signless integer values, but got '{}'", type_str(ir, t))
                .into())
        }
    }
}

const SHAPE_CAST: OpSpec = OpSpec {
    name: "vector.shape_cast",
    operands: &[one("source")],
    results: &[one("result")],
    format: "$source attr-dict `:` type($source) `to` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const BROADCAST: OpSpec = OpSpec {
    name: "vector.broadcast",
    operands: &[one("source")],
    results: &[one("vector")],
    format: "$source attr-dict `:` type($source) `to` type($vector)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const ALIGNMENT: hivm_ir::opspec::AttrDef = opt_attr("alignment", AttrKind::Int(64));

const LOAD: OpSpec = OpSpec {
    name: "vector.load",
    operands: &[one("base"), var("indices").of(Fixed::Index)],
    attrs: &[optional_default_attr("nontemporal", AttrKind::Bool, "false"), ALIGNMENT],
    results: &[one("result")],
    format: "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)",
    ..OpSpec::EMPTY
};

const STORE: OpSpec = OpSpec {
    name: "vector.store",
    operands: &[one("valueToStore"), one("base"), var("indices").of(Fixed::Index)],
    attrs: &[optional_default_attr("nontemporal", AttrKind::Bool, "false"), ALIGNMENT],
    format: "$valueToStore `,` $base `[` $indices `]` attr-dict `:` type($base) `,` type($valueToStore)",
    ..OpSpec::EMPTY
};

const TRANSPOSE: OpSpec = OpSpec {
    name: "vector.transpose",
    operands: &[one("vector")],
    attrs: &[attr("permutation", AttrKind::I64Array)],
    results: &[one("result")],
    format: "$vector `,` $permutation attr-dict `:` type($vector) `to` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const GATHER: OpSpec = OpSpec {
    name: "vector.gather",
    operands: &[one("base"), var("offsets").of(Fixed::Index), one("indices"), one("mask"), one("pass_thru")],
    attrs: &[ALIGNMENT],
    results: &[one("result")],
    format: "$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` \
             type($indices) `,` type($mask) `,` type($pass_thru) `into` type($result)",
    ..OpSpec::EMPTY
};

const BITCAST: OpSpec = OpSpec {
    name: "vector.bitcast",
    operands: &[one("source")],
    results: &[one("result")],
    format: "$source attr-dict `:` type($source) `to` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const FMA: OpSpec = OpSpec {
    name: "vector.fma",
    operands: &[one("lhs"), one("rhs").like("lhs"), one("acc").like("lhs")],
    results: &[one("result").like("lhs")],
    format: "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const EXTRACT: OpSpec = OpSpec {
    name: "vector.extract",
    operands: &[one("source"), var("dynamic_position").of(Fixed::Index)],
    attrs: &[attr("static_position", AttrKind::I64Array)],
    results: &[one("result")],
    format: "$source `` custom<DynamicIndexList>($dynamic_position, $static_position) attr-dict `:` type($result) \
             `from` type($source)",
    customs: &[DYNAMIC_INDEX_LIST],
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const INTERLEAVE: OpSpec = OpSpec {
    name: "vector.interleave",
    operands: &[one("lhs"), one("rhs").like("lhs")],
    results: &[one("result")],
    format: "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const DEINTERLEAVE: OpSpec = OpSpec {
    name: "vector.deinterleave",
    operands: &[one("source")],
    results: &[one("res1"), one("res2").like("res1")],
    format: "$source attr-dict `:` type($source) `->` type($res1)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const STEP: OpSpec = OpSpec {
    name: "vector.step",
    results: &[one("result")],
    format: "attr-dict `:` type($result)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

/// `vector.from_elements %a, %b : vector<2xf32>`: the elements take the
/// vector's element type.
fn parse_from_elements(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let ops = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let pos = p.pos();
    let t = p.parse_colon_type()?;
    let TypeData::Vector { elem, .. } = p.ir.type_data(t).clone() else {
        return p.error_at(pos, "invalid kind of type specified: expected builtin.vector");
    };
    for u in &ops {
        let v = p.resolve_operand(u, elem)?;
        r.operands.push(v);
    }
    r.result_types.push(t);
    Ok(())
}

fn verify_from_elements(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let t = ir.value_type(ir.result(op, 0));
    let n: i64 = ir.type_data(t).shape().map_or(1, |s| s.iter().product());
    if ir.operands(op).len() as i64 != n {
        return Err(format!(
            "'vector.from_elements' op operand count ({}) must match the number of vector elements ({n})",
            ir.operands(op).len()
        )
        .into());
    }
    Ok(())
}

/// `vector.extractelement` (upstream's LLVM 19; MLIR 22 spells it
/// `vector.extract`): one element of a 0-D or 1-D vector.
const EXTRACT_ELEMENT: OpSpec = OpSpec {
    name: "vector.extractelement",
    operands: &[one("vector"), opt("position")],
    results: &[one("result")],
    format: "$vector `[` ($position^ `:` type($position))? `]` attr-dict `:` type($vector)",
    infer: Some(element_of_vector),
    traits: Traits::PURE,
    verify: Some(verify_extract_element),
    ..OpSpec::EMPTY
};

fn element_of_vector(ir: &mut Ir, st: &hivm_ir::opspec::FormatState) -> Result<Vec<Type>, String> {
    match st.operand_types.first().and_then(|t| t.first()).map(|t| ir.type_data(*t)) {
        Some(TypeData::Vector { elem, .. }) => Ok(vec![*elem]),
        _ => Err("expected a vector operand".into()),
    }
}

fn verify_extract_element(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let rank = ir.type_data(ir.value_type(ir.operands(op)[0])).rank();
    let has_position = ir.operands(op).len() > 1;
    match rank {
        0 if has_position => Err("expected position to be empty with 0-D vector".into()),
        1 if !has_position => Err("expected position for 1-D vector".into()),
        r if r > 1 => Err("unexpected >1 vector rank".into()),
        _ => Ok(()),
    }
}

const INSERT: OpSpec = OpSpec {
    name: "vector.insert",
    operands: &[one("valueToStore"), one("dest"), var("dynamic_position").of(Fixed::Index)],
    attrs: &[attr("static_position", AttrKind::I64Array)],
    results: &[one("result").like("dest")],
    format: "$valueToStore `,` $dest custom<DynamicIndexList>($dynamic_position, $static_position) attr-dict `:` \
             type($valueToStore) `into` type($dest)",
    customs: &[DYNAMIC_INDEX_LIST],
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const INSERT_STRIDED_SLICE: OpSpec = OpSpec {
    name: "vector.insert_strided_slice",
    operands: &[one("valueToStore"), one("dest")],
    attrs: &[attr("offsets", AttrKind::Array), attr("strides", AttrKind::Array)],
    results: &[one("result").like("dest")],
    format: "$valueToStore `,` $dest attr-dict `:` type($valueToStore) `into` type($dest)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

const EXTRACT_STRIDED_SLICE: OpSpec = OpSpec {
    name: "vector.extract_strided_slice",
    operands: &[one("source")],
    attrs: &[attr("offsets", AttrKind::Array), attr("sizes", AttrKind::Array), attr("strides", AttrKind::Array)],
    results: &[one("result")],
    format: "$source attr-dict `:` type($source) `to` type(results)",
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

/// `maskedload` / `expandload`: `%base[%i], %mask, %pass : M, V1, V into V`.
const fn masked_load(name: &'static str) -> OpSpec {
    const OPERANDS: &[hivm_ir::opspec::ValueDef] =
        &[one("base"), var("indices").of(Fixed::Index), one("mask"), one("pass_thru")];
    const ATTRS: &[hivm_ir::opspec::AttrDef] = &[ALIGNMENT];
    const RESULTS: &[hivm_ir::opspec::ValueDef] = &[one("result")];
    OpSpec {
        name,
        operands: OPERANDS,
        attrs: ATTRS,
        results: RESULTS,
        format: "$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` type($mask) `,` \
                 type($pass_thru) `into` type($result)",
        ..OpSpec::EMPTY
    }
}

/// `maskedstore` / `compressstore`: `%base[%i], %mask, %v : M, V1, V`.
const fn masked_store(name: &'static str) -> OpSpec {
    const OPERANDS: &[hivm_ir::opspec::ValueDef] =
        &[one("base"), var("indices").of(Fixed::Index), one("mask"), one("valueToStore")];
    const ATTRS: &[hivm_ir::opspec::AttrDef] = &[ALIGNMENT];
    OpSpec {
        name,
        operands: OPERANDS,
        attrs: ATTRS,
        format: "$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` type($base) `,` type($mask) `,` \
                 type($valueToStore)",
        ..OpSpec::EMPTY
    }
}

const SCATTER: OpSpec = OpSpec {
    name: "vector.scatter",
    operands: &[one("base"), var("offsets").of(Fixed::Index), one("indices"), one("mask"), one("valueToStore")],
    attrs: &[ALIGNMENT],
    results: &[opt("result")],
    format: "$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` type($base) `,` \
             type($indices) `,` type($mask) `,` type($valueToStore) (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

/// `vector.shuffle %a, %b [0, 3, 1] : vector<2xf32>, vector<2xf32>`: the
/// result has one leading element per mask entry.
const SHUFFLE: OpSpec = OpSpec {
    name: "vector.shuffle",
    operands: &[one("v1"), one("v2")],
    attrs: &[attr("mask", AttrKind::I64Array)],
    results: &[one("vector")],
    format: "operands $mask attr-dict `:` type(operands)",
    infer: Some(shuffle_type),
    traits: Traits::PURE,
    ..OpSpec::EMPTY
};

fn shuffle_type(ir: &mut Ir, st: &hivm_ir::opspec::FormatState) -> Result<Vec<Type>, String> {
    let mask = st.attrs.iter().find(|(k, _)| *k == "mask").map(|(_, a)| *a);
    let n = match mask.map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => v.len() as i64,
        _ => return Err("expected a mask".into()),
    };
    let Some(&v1) = st.operand_types.first().and_then(|t| t.first()) else {
        return Err("expected operand types".into());
    };
    let (elem, rest) = match ir.type_data(v1) {
        TypeData::Vector { shape, elem, .. } => (*elem, shape.get(1..).unwrap_or(&[]).to_vec()),
        _ => return Err("expected vector operands".into()),
    };
    let mut shape = vec![n];
    shape.extend(rest);
    let scalable = vec![false; shape.len()];
    Ok(vec![ir.ty(TypeData::Vector { shape, scalable, elem, encoding: None })])
}

// ----- mask / yield -----
// `%r = vector.mask %m (, %passthru)? { <maskable op> } : vector<8xi1> (-> T)?`:
// the region holds the op and an implied `vector.yield` of its results.

fn parse_mask(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let mask = p.parse_operand()?;
    let passthru = if p.consume_if(Tok::Comma) { Some(p.parse_operand()?) } else { None };
    let region = p.parse_region(&[], false)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let mask_ty = p.parse_colon_type()?;
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    if p.ir.region_blocks(region).is_empty() {
        let b = p.ir.create_block();
        p.ir.push_block(region, b);
    }
    // The yield of the masked op's results is implied.
    let block = p.ir.region_blocks(region)[0];
    if p.ir.terminator(block).is_none_or(|t| p.ir.op_name(t) != "vector.yield") {
        let results = p.ir.block_ops(block).last().map(|o| p.ir.results(o).to_vec()).unwrap_or_default();
        let sym = p.ir.sym("vector.yield");
        let mut st = hivm_ir::OperationState::new(sym, r.loc);
        st.operands = results;
        let y = p.ir.create_op(st);
        p.ir.append_op(block, y);
    }
    r.regions.push(region);
    let m = p.resolve_operand(&mask, mask_ty)?;
    r.operands.push(m);
    if let Some(pt) = passthru {
        let Some(&t) = r.result_types.first() else { return p.error("expected a result type for the passthru value") };
        let v = p.resolve_operand(&pt, t)?;
        r.operands.push(v);
    }
    Ok(())
}

fn print_mask(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.push(" ");
    p.push("{ ");
    // The masked op, or the terminator when it is alone (as MLIR prints
    // it: a yield of values must survive the round trip).
    if let Some(first) =
        ir.regions(op).first().and_then(|r| ir.region_blocks(*r).first()).and_then(|b| ir.block_ops(*b).next())
    {
        p.print_op_without_results(first);
        p.push(" ");
    }
    p.push("}");
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
    if !ir.results(op).is_empty() {
        p.push(" -> ");
        let tys: Vec<Type> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
        if tys.len() == 1 {
            p.print_type(tys[0]);
        } else {
            p.push("(");
            p.print_value_types(ir.results(op));
            p.push(")");
        }
    }
}

fn verify_mask(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(&r) = ir.regions(op).first() else { return Err("requires one region".into()) };
    let Some(&b) = ir.region_blocks(r).first() else { return Err("expects a block in the region".into()) };
    if ir.block_ops(b).count() > 2 {
        return Err("expects only one operation to mask".into());
    }
    if ir.operands(op).is_empty() || ir.operands(op).len() > 2 {
        return Err("expects a mask and an optional passthru".into());
    }
    if let Some(t) = ir.block_ops(b).last().filter(|t| ir.op_name(*t) == "vector.yield")
        && ir.operands(t).len() != ir.results(op).len()
    {
        return Err("expects number of results to match mask region yielded values".into());
    }
    // The mask a contraction expects: one i1 per iterator.
    if let Some(masked) = ir.block_ops(b).next().filter(|m| ir.op_name(*m) == "vector.contract")
        && let Some((shape, scalable)) = contract::expected_mask(ir, masked)
    {
        let mask = ir.value_type(ir.operand(op, 0));
        let ok = matches!(ir.type_data(mask), TypeData::Vector { shape: s, scalable: sc, elem, .. }
            if *s == shape && *sc == scalable && ir.type_data(*elem).is_signless_int(1));
        if !ok {
            let dims: String = shape
                .iter()
                .zip(&scalable)
                .map(|(d, s)| if *s { format!("[{d}]x") } else { format!("{d}x") })
                .collect();
            return Err(format!("expects a 'vector<{dims}i1>' mask for the maskable operation").into());
        }
    }
    Ok(())
}

const VECTOR_YIELD: OpSpec = OpSpec {
    name: "vector.yield",
    operands: &[var("operands")],
    format: "attr-dict ($operands^ `:` type($operands))?",
    traits: Traits::TERMINATOR.with(Traits::PURE).with(Traits::RETURN_LIKE),
    ..OpSpec::EMPTY
};

// ----- transfer_read / transfer_write -----
// `vector.transfer_read %base[%i, ...], %pad (, %mask)? attrs : shaped, vector`
// `vector.transfer_write %v, %base[%i, ...] (, %mask)? attrs : vector, shaped`
// Operand groups: read (base, indices, padding, mask), write (valueToStore,
// base, indices, mask). A minor-identity permutation map and all-false
// in_bounds are implied when absent and elided when printing.

fn minor_identity(shaped_rank: usize, vector_rank: usize) -> AffineMap {
    let n = shaped_rank as u32;
    let k = vector_rank.min(shaped_rank) as u32;
    AffineMap { num_dims: n, num_symbols: 0, results: (n - k..n).map(AffineExpr::Dim).collect() }
}

fn is_minor_identity(m: &AffineMap) -> bool {
    let n = m.num_dims as usize;
    let k = m.results.len();
    m.num_symbols == 0 && k <= n && m.results.iter().enumerate().all(|(i, e)| *e == AffineExpr::Dim((n - k + i) as u32))
}

/// The mask's shape (MLIR's `inferTransferOpMaskType`): the vector dims
/// the map sends to source dims, in source-dim order; broadcast (constant)
/// results have no mask dim.
fn mask_type(ir: &mut Ir, vector: Type, map: &AffineMap) -> Option<Type> {
    let TypeData::Vector { shape, scalable, .. } = ir.type_data(vector).clone() else { return None };
    let mut used: Vec<u32> = map
        .results
        .iter()
        .filter_map(|e| match e {
            AffineExpr::Dim(d) => Some(*d),
            _ => None,
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    let mut mask_shape = vec![None; used.len()];
    let mut mask_scalable = vec![false; used.len()];
    for (i, e) in map.results.iter().enumerate() {
        if let AffineExpr::Dim(d) = e {
            let k = used.binary_search(d).ok()?;
            if mask_shape[k].is_none() {
                mask_shape[k] = Some(*shape.get(i)?);
                mask_scalable[k] = scalable.get(i).copied().unwrap_or(false);
            }
        } else if !matches!(e, AffineExpr::Constant(0)) {
            return None;
        }
    }
    let mut mask_shape: Vec<i64> = mask_shape.into_iter().collect::<Option<_>>()?;
    // Masks have at least one dimension.
    if mask_shape.is_empty() {
        mask_shape.push(1);
        mask_scalable.push(false);
    }
    let i1 = ir.int_type(1);
    Some(ir.ty(TypeData::Vector { shape: mask_shape, scalable: mask_scalable, elem: i1, encoding: None }))
}

fn parse_transfer(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let read = p.ir.sym_str(r.name) == "vector.transfer_read";
    let stored = if read {
        None
    } else {
        let v = p.parse_operand()?;
        p.expect(Tok::Comma, "','")?;
        Some(v)
    };
    let base = p.parse_operand()?;
    let mut indices = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
        indices.push(p.parse_operand()?);
        Ok(())
    })?;
    let padding = if read {
        p.expect(Tok::Comma, "','")?;
        Some(p.parse_operand()?)
    } else {
        None
    };
    let mask = if p.consume_if(Tok::Comma) { Some(p.parse_operand()?) } else { None };
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let types_pos = p.pos();
    let types = p.parse_colon_type_list()?;
    if types.len() != 2 {
        return p.error_at(types_pos, "requires two types");
    }
    let (shaped, vector) = if read { (types[0], types[1]) } else { (types[1], types[0]) };
    if !matches!(p.ir.type_data(shaped), TypeData::MemRef { .. } | TypeData::RankedTensor { .. }) {
        return p.error_at(types_pos, "requires memref or ranked tensor type");
    }
    if !matches!(p.ir.type_data(vector), TypeData::Vector { .. }) {
        return p.error_at(types_pos, "requires vector type");
    }
    let shaped_rank = p.ir.type_data(shaped).rank();
    let vector_rank = p.ir.type_data(vector).rank();
    let map_key = p.ir.sym("permutation_map");
    let map = match r.attrs.iter().find(|(k, _)| *k == map_key).map(|(_, a)| p.ir.attr_data(*a).clone()) {
        Some(AttrData::AffineMap(m)) => m,
        Some(_) => return p.error_at(types_pos, "expected an affine map for permutation_map"),
        None => {
            if shaped_rank < vector_rank {
                return p
                    .error_at(types_pos, "expected a custom permutation_map when rank(source) != rank(destination)");
            }
            let m = minor_identity(shaped_rank, vector_rank);
            let a = p.ir.attr(AttrData::AffineMap(m.clone()));
            push_attr(p, r, "permutation_map", a);
            m
        }
    };
    let in_bounds_key = p.ir.sym("in_bounds");
    if !r.attrs.iter().any(|(k, _)| *k == in_bounds_key) {
        let f = p.ir.bool_attr(false);
        let a = p.ir.attr(AttrData::Array(vec![f; map.results.len()]));
        push_attr(p, r, "in_bounds", a);
    }
    if let Some(v) = &stored {
        let v = p.resolve_operand(v, vector)?;
        r.operands.push(v);
    }
    let b = p.resolve_operand(&base, shaped)?;
    r.operands.push(b);
    let idx = p.ir.index_type();
    for u in &indices {
        let v = p.resolve_operand(u, idx)?;
        r.operands.push(v);
    }
    if let Some(pad) = &padding {
        let elem = p.ir.type_data(shaped).element_type().unwrap_or(shaped);
        let v = p.resolve_operand(pad, elem)?;
        r.operands.push(v);
    }
    if let Some(m) = &mask {
        if vector_rank != map.results.len() {
            return p
                .error_at(types_pos, "expected the same rank for the vector and the results of the permutation map");
        }
        let Some(mt) = mask_type(p.ir, vector, &map) else {
            return p.error_at(m.pos, "cannot infer the mask type of this permutation map");
        };
        let v = p.resolve_operand(m, mt)?;
        r.operands.push(v);
    }
    let has_mask = mask.is_some() as usize;
    let sizes = if read { [1, indices.len(), 1, has_mask] } else { [1, 1, indices.len(), has_mask] };
    let seg = segment_attr(p.ir, &sizes);
    push_attr(p, r, "operandSegmentSizes", seg);
    if read {
        r.result_types.push(vector);
    } else if p.ir.type_data(shaped).is_tensor() {
        r.result_types.push(shaped);
    }
    Ok(())
}

fn print_transfer(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let read = ir.op_name(op) == "vector.transfer_read";
    let (base_seg, idx_seg) = if read { (0, 1) } else { (1, 2) };
    p.push(" ");
    if !read {
        p.print_values(segment(ir, op, 0));
        p.push(", ");
    }
    p.print_values(segment(ir, op, base_seg));
    p.push("[");
    p.print_values(segment(ir, op, idx_seg));
    p.push("]");
    if read {
        p.push(", ");
        p.print_values(segment(ir, op, 2));
    }
    if let Some(m) = segment(ir, op, 3).first() {
        p.push(", ");
        p.print_value(*m);
    }
    let mut elided = vec!["operandSegmentSizes"];
    if let Some(AttrData::AffineMap(m)) = ir.get_attr(op, "permutation_map").map(|a| ir.attr_data(a))
        && is_minor_identity(m)
    {
        elided.push("permutation_map");
    }
    if let Some(AttrData::Array(v)) = ir.get_attr(op, "in_bounds").map(|a| ir.attr_data(a))
        && v.iter().all(|b| ir.as_int(*b) != Some(1))
    {
        elided.push("in_bounds");
    }
    p.print_optional_attr_dict(op, &elided);
    p.push(" : ");
    let shaped = segment(ir, op, base_seg).first().map(|v| ir.value_type(*v));
    let vector = if read { ir.results(op).first() } else { segment(ir, op, 0).first() }.map(|v| ir.value_type(*v));
    let order = if read { [shaped, vector] } else { [vector, shaped] };
    for (i, t) in order.into_iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        if let Some(t) = t {
            p.print_type(t);
        }
    }
}

fn verify_transfer(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    crate::util::check_segments(ir, op, 4)?;
    // Read: base, indices, padding, mask?; write: value, base, indices, mask?.
    let read = ir.op_name(op) == "vector.transfer_read";
    let singles: &[usize] = if read { &[0, 2] } else { &[0, 1] };
    for &g in singles {
        if segment(ir, op, g).len() != 1 {
            return Err(format!("operand group #{g} requires 1 element").into());
        }
    }
    if segment(ir, op, 3).len() > 1 {
        return Err("operand group #3 requires 0 or 1 element".into());
    }
    let map = match ir.get_attr(op, "permutation_map").map(|a| ir.attr_data(a)) {
        Some(AttrData::AffineMap(m)) => m.clone(),
        _ => return Err("requires attribute 'permutation_map'".into()),
    };
    let read = ir.op_name(op) == "vector.transfer_read";
    let base_seg = if read { 0 } else { 1 };
    let shaped = ir.value_type(segment(ir, op, base_seg)[0]);
    let indices = segment(ir, op, base_seg + 1).len();
    if indices != ir.type_data(shaped).rank() {
        return Err(format!("requires {} indices", ir.type_data(shaped).rank()).into());
    }
    if map.num_dims as usize != ir.type_data(shaped).rank() {
        return Err("requires a permutation_map with input dims of the same rank as the source type".into());
    }
    if let Some(a) = ir.get_attr(op, "in_bounds")
        && !matches!(ir.attr_data(a), AttrData::Array(v) if v.len() == map.results.len())
    {
        return Err("expects the in_bounds attr of same rank as permutation_map results".into());
    }
    Ok(())
}

fn transfer(name: &'static str) -> OpDef {
    OpDef::new(name)
        .traits(Traits::ZERO_REGIONS)
        .inherent(&["in_bounds", "operandSegmentSizes", "permutation_map"])
        .assembly(parse_transfer, print_transfer)
        .verifier(verify_transfer)
}

// ----- print -----
// `vector.print (%v : T)? (str "..." | punctuation <p>)*`: the punctuation
// defaults to a newline, which is not printed.

fn parse_print(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    if p.is(Tok::PercentIdent) {
        let u = p.parse_operand()?;
        let t = p.parse_colon_type()?;
        let v = p.resolve_operand(&u, t)?;
        r.operands.push(v);
    }
    let mut punctuation = None;
    loop {
        if p.parse_optional_keyword("str") {
            let bytes = p.parse_string("string literal")?;
            let a = p.ir.attr(AttrData::String { value: bytes, ty: None });
            let k = p.ir.sym("stringLiteral");
            r.attrs.push((k, a));
        } else if p.parse_optional_keyword("punctuation") {
            p.expect(Tok::Less, "'<'")?;
            let pos = p.pos();
            let v = p.parse_keyword("punctuation")?.to_string();
            if !PUNCTUATIONS.contains(&v.as_str()) {
                return p.error_at(
                    pos,
                    format!("expected one of [{}] for punctuation, got '{v}'", PUNCTUATIONS.join(", ")),
                );
            }
            p.expect(Tok::Greater, "'>'")?;
            punctuation = Some(v);
        } else {
            break;
        }
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let a = crate::util::opaque_attr(
        p.ir,
        "vector",
        &format!("punctuation<{}>", punctuation.as_deref().unwrap_or("newline")),
    );
    let k = p.ir.sym("punctuation");
    r.attrs.push((k, a));
    Ok(())
}

fn print_print(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    if let Some(&v) = ir.operands(op).first() {
        p.push(" ");
        p.print_value(v);
        p.push(" : ");
        p.print_type(ir.value_type(v));
    }
    if let Some(s) = ir.get_attr(op, "stringLiteral") {
        p.push(" str ");
        p.print_attr(s, hivm_ir::printer::Elide::Never);
    }
    let punct = ir.get_attr(op, "punctuation").and_then(|a| crate::util::opaque_arg(ir, a, "punctuation"));
    if let Some(v) = punct.filter(|v| *v != "newline") {
        p.push(&format!(" punctuation <{v}>"));
    }
    p.print_optional_attr_dict(op, &["stringLiteral", "punctuation"]);
}

pub fn dialect() -> Dialect {
    let mut ops: Vec<OpDef> =
        [CONSTANT_MASK, CREATE_MASK, SHAPE_CAST, BROADCAST].into_iter().map(OpSpec::def).collect();
    ops.extend(reduction::defs());
    ops.extend(contract::defs());
    ops.extend(scalable::defs());
    ops.extend([LOAD, STORE, TRANSPOSE, GATHER, BITCAST, FMA, EXTRACT, EXTRACT_ELEMENT, INSERT].map(OpSpec::def));
    ops.extend([INTERLEAVE, STEP].map(OpSpec::def));
    ops.push(DEINTERLEAVE.def().names(hivm_ir::opspec::name_results_after_defs));
    ops.push(
        OpDef::new("vector.from_elements")
            .arity((0, None), (1, Some(1)), 0)
            .traits(Traits::PURE.with(Traits::ZERO_REGIONS))
            .assembly(parse_from_elements, crate::util::print_operands_colon_result)
            .verifier(verify_from_elements),
    );
    ops.extend(
        [
            INSERT_STRIDED_SLICE,
            EXTRACT_STRIDED_SLICE,
            masked_load("vector.maskedload"),
            masked_load("vector.expandload"),
            masked_store("vector.maskedstore"),
            masked_store("vector.compressstore"),
            SCATTER,
            SHUFFLE,
        ]
        .map(OpSpec::def),
    );
    ops.extend([transfer("vector.transfer_read"), transfer("vector.transfer_write")]);
    ops.push(
        OpDef::new("vector.mask").traits(Traits::SINGLE_BLOCK).assembly(parse_mask, print_mask).verifier(verify_mask),
    );
    ops.push(VECTOR_YIELD.def());
    ops.push(
        OpDef::new("vector.print")
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["punctuation", "stringLiteral"])
            .assembly(parse_print, print_print),
    );
    let mut d = Dialect::new("vector", ops);
    d.check_attr = Some(check_attr);
    d
}

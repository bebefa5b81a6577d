//! Assembly building blocks shared by several ops.

use hivm_ir::attrs::AttrData;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, UnresolvedOperand};
use hivm_ir::printer::Printer;
use hivm_ir::{Attribute, Ir, OpId, Type, TypeData};

/// Parses operands then resolves all of them to one type.
pub fn resolve_all(p: &mut Parser<'_>, ops: &[UnresolvedOperand], ty: Type, out: &mut OpParseResult) -> PResult<()> {
    for u in ops {
        let v = p.resolve_operand(u, ty)?;
        out.operands.push(v);
    }
    Ok(())
}

/// `%a, %b, ... attr-dict : type` with all operands and the result of `type`.
pub fn parse_same_type(p: &mut Parser<'_>, r: &mut OpParseResult, results: usize) -> PResult<()> {
    let ops = p.parse_operand_list()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ty = p.parse_colon_type()?;
    resolve_all(p, &ops, ty, r)?;
    r.result_types.extend(std::iter::repeat_n(ty, results));
    Ok(())
}

pub fn print_same_type(p: &mut Printer<'_>, op: OpId, elided: &[&str]) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, elided);
    p.push(" : ");
    let t = ir.results(op).first().or(ir.operands(op).first()).map(|v| ir.value_type(*v));
    if let Some(t) = t {
        p.print_type(t);
    }
}

/// `%in attr-dict : T1 to T2`
pub fn parse_cast(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    // Operands resolve after the whole syntax, as MLIR's parsers do (a
    // missing `to` is reported before an unknown value).
    let u = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let from = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let to = p.parse_type()?;
    let v = p.resolve_operand(&u, from)?;
    r.operands.push(v);
    r.result_types.push(to);
    Ok(())
}

pub fn print_cast(p: &mut Printer<'_>, op: OpId) {
    print_unary_typed(p, op);
    p.push(" to ");
    p.print_type(p.ir.value_type(p.ir.result(op, 0)));
}

pub fn type_str(ir: &Ir, t: Type) -> String {
    hivm_ir::printer::type_to_string(ir, t)
}

pub fn int_attr(ir: &Ir, op: OpId, name: &str) -> Option<i128> {
    ir.get_attr(op, name).and_then(|a| ir.as_int(a))
}

/// Element type of a shaped type, or the type itself.
pub fn element_or_self(ir: &Ir, t: Type) -> Type {
    ir.type_data(t).element_type().unwrap_or(t)
}

/// The scalar a structured op's body sees for an operand of type `t`: the
/// element of a tensor or memref, anything else (vectors included) itself.
pub fn body_element(ir: &Ir, t: Type) -> Type {
    match ir.type_data(t) {
        TypeData::RankedTensor { .. } | TypeData::MemRef { .. } => element_or_self(ir, t),
        TypeData::UnrankedTensor { .. } | TypeData::UnrankedMemRef { .. } => element_or_self(ir, t),
        _ => t,
    }
}

pub fn is_int_like(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(element_or_self(ir, t)), TypeData::Integer { .. } | TypeData::Index)
}

pub fn is_float_like(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(element_or_self(ir, t)), TypeData::Float(_))
}

/// `[%a, %b]` index list.
/// `: (A, B) -> R` closing an op whose operands came before: resolves
/// `operands` to the inputs, takes the results, and returns the inputs.
pub fn parse_functional_type_tail(
    p: &mut Parser<'_>,
    r: &mut OpParseResult,
    operands: &[UnresolvedOperand],
) -> PResult<Vec<Type>> {
    p.expect(Tok::Colon, "':'")?;
    let pos = p.pos();
    let ft = p.parse_type()?;
    let TypeData::Function { inputs, results } = p.ir.type_data(ft).clone() else {
        return p.error_at(pos, "expected function type");
    };
    let vals = p.resolve_operands(operands, &inputs, pos)?;
    r.operands.extend(vals);
    r.result_types = results;
    Ok(inputs)
}

/// Splits `a, b<c, d>, (e, f)` at its top-level commas, trimmed.
pub fn split_top_level(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Checks a dialect attribute body `mnemonic<value>` against `enums`
/// (mnemonic → allowed values) and returns its canonical spelling.
pub fn check_enum_attr(dialect: &str, enums: &[(&str, &[&str])], body: &str) -> Result<String, String> {
    let Some((mnemonic, rest)) = body.split_once('<') else {
        return Err(format!("unknown attribute `{body}` in dialect `{dialect}`"));
    };
    let mnemonic = mnemonic.trim();
    let value = rest.trim_end().strip_suffix('>').unwrap_or(rest).trim();
    let Some((_, values)) = enums.iter().find(|(m, _)| *m == mnemonic) else {
        return Err(format!("unknown attribute `{mnemonic}` in dialect `{dialect}`"));
    };
    if !values.contains(&value) {
        return Err(format!("expected one of [{}] for {mnemonic}, got '{value}'", values.join(", ")));
    }
    Ok(format!("{mnemonic}<{value}>"))
}

/// `(%a, %b)`: a parenthesized, possibly empty operand list.
pub fn parse_paren_operand_list(p: &mut Parser<'_>) -> PResult<Vec<UnresolvedOperand>> {
    let mut ops = Vec::new();
    p.parse_comma_list(Some((Tok::LParen, Tok::RParen)), "operand list", &mut |p| {
        ops.push(p.parse_operand()?);
        Ok(())
    })?;
    Ok(ops)
}

/// ` %a, %b {attrs} : T` — operands, attributes and the result type, as
/// `from_elements`-style ops print (the space stays when there are no
/// operands, as MLIR's format prints it).
pub fn print_operands_colon_result(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_values(ir.operands(op));
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

/// `kw = [1, 2]`: a keyword and a list of integers.
pub fn parse_keyword_i64_list(p: &mut Parser<'_>, kw: &str) -> PResult<Vec<i64>> {
    p.expect_keyword(kw)?;
    p.expect(Tok::Equal, "'='")?;
    let mut v = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "'['", &mut |p| {
        v.push(p.parse_integer("integer")? as i64);
        Ok(())
    })?;
    Ok(v)
}

pub fn parse_index_list(p: &mut Parser<'_>) -> PResult<Vec<UnresolvedOperand>> {
    let mut v = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "operand list", &mut |p| {
        v.push(p.parse_operand()?);
        Ok(())
    })?;
    Ok(v)
}

pub fn print_index_list(p: &mut Printer<'_>, vs: &[hivm_ir::Value]) {
    p.push("[");
    p.print_values(vs);
    p.push("]");
}

/// An opaque `#dialect.mnemonic<...>`-style attribute built from its text.
pub fn opaque_attr(ir: &mut Ir, dialect: &str, body: &str) -> Attribute {
    let d = ir.sym(dialect);
    ir.attr(AttrData::Opaque { dialect: d, body: body.to_string() })
}

/// The `<...>` argument of an opaque attribute body `mnemonic<...>`.
pub fn opaque_arg<'a>(ir: &'a Ir, a: Attribute, mnemonic: &str) -> Option<&'a str> {
    match ir.attr_data(a) {
        AttrData::Opaque { body, .. } => body.strip_prefix(mnemonic)?.strip_prefix('<')?.strip_suffix('>'),
        _ => None,
    }
}

/// Operand segment sizes from the `operandSegmentSizes` property.
pub fn segments(ir: &Ir, op: OpId) -> Vec<usize> {
    segment_sizes(ir, op).iter().map(|x| *x as usize).collect()
}

/// The raw `operandSegmentSizes` entries (empty when absent or malformed).
pub fn segment_sizes(ir: &Ir, op: OpId) -> &[i64] {
    match ir.attr_of(op, hivm_ir::attrs::known::OPERAND_SEGMENT_SIZES).map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => v,
        _ => &[],
    }
}

pub fn segment_attr(ir: &mut Ir, sizes: &[usize]) -> Attribute {
    let elem = ir.int_type(32);
    ir.attr(AttrData::DenseArray {
        elem,
        data: hivm_ir::attrs::DenseArrayData::Int(sizes.iter().map(|s| *s as i64).collect()),
    })
}

/// Values of segment `i`.
pub fn segment(ir: &Ir, op: OpId, i: usize) -> &[hivm_ir::Value] {
    let sizes = segment_sizes(ir, op);
    let start = sizes.iter().take(i).fold(0i64, |a, x| a.saturating_add(*x));
    let len = sizes.get(i).copied().unwrap_or(0);
    let ops = ir.operands(op);
    match (usize::try_from(start), usize::try_from(len)) {
        (Ok(start), Ok(len)) if start.saturating_add(len) <= ops.len() => &ops[start..start + len],
        _ => &[],
    }
}

/// Verifies that `operandSegmentSizes` exists, has `n` entries and sums to the operand count.
pub fn check_segments(ir: &Ir, op: OpId, n: usize) -> Result<(), hivm_ir::dialect::VerifyError> {
    if ir.attr_of(op, hivm_ir::attrs::known::OPERAND_SEGMENT_SIZES).is_none() {
        return Err("requires attribute 'operandSegmentSizes'".into());
    }
    let sizes = segment_sizes(ir, op);
    if sizes.len() != n {
        return Err(format!(
            "'operandSegmentSizes' attribute for specifying operand segments must have {n} elements, but got {}",
            sizes.len()
        )
        .into());
    }
    if sizes.iter().any(|x| *x < 0) {
        return Err("'operandSegmentSizes' attribute cannot have negative elements".into());
    }
    let total = sizes.iter().fold(0i64, |a, x| a.saturating_add(*x));
    if total != ir.operands(op).len() as i64 {
        return Err(format!("operand count ({}) does not match with the total size ({total}) specified in attribute 'operandSegmentSizes'", ir.operands(op).len()).into());
    }
    Ok(())
}

/// `[0, %i, 4]`: static values (with `DYNAMIC` for SSA entries) and the SSA operands.
pub fn parse_dynamic_index_list(p: &mut Parser<'_>) -> PResult<(Vec<i64>, Vec<UnresolvedOperand>)> {
    parse_dynamic_index_list_in(p, (Tok::LSquare, Tok::RSquare))
}

/// `[1, %a]` or, with parentheses as delimiters, `(1, %a)`.
pub fn parse_dynamic_index_list_in(
    p: &mut Parser<'_>,
    delims: (Tok, Tok),
) -> PResult<(Vec<i64>, Vec<UnresolvedOperand>)> {
    let mut statics = Vec::new();
    let mut dynamics = Vec::new();
    p.parse_comma_list(Some(delims), "dynamic index list", &mut |p| {
        if p.is(Tok::PercentIdent) {
            dynamics.push(p.parse_operand()?);
            statics.push(hivm_ir::types::DYNAMIC);
        } else {
            let pos = p.pos();
            let v = p.parse_integer("SSA value or integer")?;
            let Ok(v) = i64::try_from(v) else { return p.op_error_at(pos, "integer value too large") };
            statics.push(v);
        }
        Ok(())
    })?;
    Ok((statics, dynamics))
}

pub fn print_dynamic_index_list(p: &mut Printer<'_>, statics: &[i64], dynamics: &[hivm_ir::Value]) {
    print_dynamic_index_list_in(p, statics, dynamics, ("[", "]"));
}

pub fn print_dynamic_index_list_in(
    p: &mut Printer<'_>,
    statics: &[i64],
    dynamics: &[hivm_ir::Value],
    delims: (&str, &str),
) {
    p.push(delims.0);
    let mut d = dynamics.iter();
    for (i, s) in statics.iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        if *s == hivm_ir::types::DYNAMIC {
            if let Some(v) = d.next() {
                p.print_value(*v);
            }
        } else {
            p.push(&s.to_string());
        }
    }
    p.push(delims.1);
}

pub fn i64_array_attr(ir: &mut Ir, values: &[i64]) -> Attribute {
    let elem = ir.int_type(64);
    ir.attr(AttrData::DenseArray { elem, data: hivm_ir::attrs::DenseArrayData::Int(values.to_vec()) })
}

pub fn i64_array(ir: &Ir, op: OpId, name: &str) -> Vec<i64> {
    ir.get_attr(op, name).map(|a| i64_array_of(ir, a)).unwrap_or_default()
}

/// The integers of a dense array attribute (empty for anything else).
pub fn i64_array_of(ir: &Ir, a: Attribute) -> Vec<i64> {
    match ir.attr_data(a) {
        AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. } => v.clone(),
        _ => Vec::new(),
    }
}

/// `[[0, 1], [2]]` reassociation indices.
pub fn parse_reassociation(p: &mut Parser<'_>) -> PResult<Attribute> {
    let mut groups = Vec::new();
    p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "reassociation", &mut |p| {
        let mut g = Vec::new();
        p.parse_comma_list(Some((Tok::LSquare, Tok::RSquare)), "reassociation group", &mut |p| {
            let v = p.parse_integer("integer")?;
            g.push(p.ir.i64_attr(v as i64));
            Ok(())
        })?;
        groups.push(p.ir.array_attr(g));
        Ok(())
    })?;
    Ok(p.ir.array_attr(groups))
}

/// `name` of an op's first result, for [`hivm_ir::dialect::AsmNamesFn`].
/// Defines a result-name hint function (`%alloc`, `%transposed`, ...).
macro_rules! namer {
    ($f:ident, $n:expr) => {
        fn $f(ir: &hivm_ir::Ir, op: hivm_ir::OpId, set: &mut dyn FnMut(hivm_ir::Value, String)) {
            $crate::util::name_result0(ir, op, set, $n)
        }
    };
}
pub(crate) use namer;

pub fn name_result0(ir: &Ir, op: OpId, set: &mut dyn FnMut(hivm_ir::Value, String), name: &str) {
    if let Some(&r) = ir.results(op).first() {
        set(r, name.to_string());
    }
}

/// Shape of a shaped type (empty for non-shaped).
pub fn shape_of(ir: &Ir, t: Type) -> Vec<i64> {
    ir.type_data(t).shape().map(|s| s.to_vec()).unwrap_or_default()
}

pub fn push_attr(p: &mut Parser<'_>, r: &mut OpParseResult, name: &str, a: Attribute) {
    let k = p.ir.sym(name);
    r.attrs.push((k, a));
}

/// `%a attrs : T`: one operand and its type (`memref.dealloc`,
/// `scf.reduce.return`).
pub fn parse_unary_typed(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let u = p.parse_operand()?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let v = p.resolve_operand(&u, t)?;
    r.operands.push(v);
    Ok(())
}

pub fn print_unary_typed(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    p.print_value(ir.operand(op, 0));
    p.print_optional_attr_dict(op, &[]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.operand(op, 0)));
}

/// Entry-block arguments whose location was not written get the place
/// their name is written (as MLIR's argument lists record it).
pub fn locate_args(p: &mut Parser<'_>, args: Vec<hivm_ir::parser::RegionArg>) -> Vec<hivm_ir::parser::RegionArg> {
    args.into_iter()
        .map(|mut a| {
            a.loc = a.loc.or_else(|| Some(p.loc_at(a.name.pos)));
            a
        })
        .collect()
}

/// `kw(%a, %b : T1, T2)` with operands resolved; `None` when `kw` is absent.
pub fn parse_keyword_group(p: &mut Parser<'_>, kw: &str) -> PResult<Option<Vec<hivm_ir::Value>>> {
    if !p.parse_optional_keyword(kw) {
        return Ok(None);
    }
    p.expect(Tok::LParen, "'('")?;
    let ops = p.parse_operand_list()?;
    let pos = p.pos();
    let tys = p.parse_colon_type_list()?;
    p.expect(Tok::RParen, "')'")?;
    p.resolve_operands(&ops, &tys, pos).map(Some)
}

/// Prints ` kw(%a, %b : T1, T2)`, or nothing for an empty group.
pub fn print_keyword_group(p: &mut Printer<'_>, kw: &str, vals: &[hivm_ir::Value]) {
    if vals.is_empty() {
        return;
    }
    p.push(&format!(" {kw}("));
    p.print_values(vals);
    p.push(" : ");
    p.print_value_types(vals);
    p.push(")");
}

/// MLIR's checks of an offsets/sizes/strides op (`OffsetSizeAndStrideOpInterface`),
/// in its order and words (plain errors, no op prefix, as upstream emits
/// them). The three operand segments start at `first_seg`; `max_ranks` are the
/// lengths the offset, size and stride lists must have.
pub fn verify_offset_size_stride(
    ir: &Ir,
    op: OpId,
    first_seg: usize,
    max_ranks: [usize; 3],
) -> Result<(), hivm_ir::dialect::VerifyError> {
    use hivm_ir::dialect::VerifyError;
    let names = [("offsets", "offset"), ("sizes", "size"), ("strides", "stride")];
    let mut lists = Vec::new();
    for (i, (plural, _)) in names.iter().enumerate() {
        let statics = i64_array(ir, op, &format!("static_{plural}"));
        let dynamic = segment(ir, op, first_seg + i).len();
        let expected = statics.iter().filter(|v| **v == hivm_ir::types::DYNAMIC).count();
        if dynamic != expected {
            return Err(VerifyError::plain(format!(
                "expected the number of '{plural}' to match the number of dynamic entries in 'static_{plural}' ({dynamic} vs {expected})"
            )));
        }
        lists.push(statics.len());
    }
    if !(lists[0] == 1 && max_ranks[0] == 1) && lists[0] != lists[1] {
        return Err(VerifyError::plain(format!(
            "expected mixed offsets rank to match mixed sizes rank ({} vs {}) so the rank of the result type is well-formed.",
            lists[0], lists[1]
        )));
    }
    if lists[1] != lists[2] {
        return Err(VerifyError::plain(format!(
            "expected mixed sizes rank to match mixed strides rank ({} vs {}) so the rank of the result type is well-formed.",
            lists[1], lists[2]
        )));
    }
    for (((_, singular), n), max) in names.iter().zip(&lists).zip(max_ranks) {
        if *n != max {
            return Err(VerifyError::plain(format!("expected {max} {singular} values, got {n}")));
        }
    }
    Ok(())
}

/// Strides and offset of a memref type (identity layouts are row-major);
/// `None` for other layouts and non-memrefs.
pub fn strides_and_offset(ir: &Ir, t: Type) -> Option<(Vec<i64>, i64)> {
    use hivm_ir::types::DYNAMIC;
    let TypeData::MemRef { shape, layout, .. } = ir.type_data(t) else { return None };
    match layout.map(|l| ir.attr_data(l)) {
        None => {
            let mut strides = vec![0; shape.len()];
            let mut acc = 1i64;
            for (i, d) in shape.iter().enumerate().rev() {
                strides[i] = acc;
                acc = if acc == DYNAMIC || *d == DYNAMIC { DYNAMIC } else { acc.checked_mul(*d).unwrap_or(DYNAMIC) };
            }
            Some((strides, 0))
        }
        Some(AttrData::Strided { strides, offset }) => Some((strides.clone(), *offset)),
        Some(AttrData::AffineMap(m)) => affine_strides(m, shape.len()),
        Some(_) => None,
    }
}

/// The strides and offset of a one-result affine layout that is a sum of
/// dims times constants or symbols, plus constants and symbols (MLIR's
/// `getStridesAndOffset`); symbolic parts are dynamic.
fn affine_strides(m: &hivm_ir::affine::AffineMap, rank: usize) -> Option<(Vec<i64>, i64)> {
    use hivm_ir::affine::{AffineBinOp, AffineExpr};
    use hivm_ir::types::DYNAMIC;
    let [e] = &m.results[..] else { return None };
    let mut strides = vec![0i64; rank];
    let mut offset = 0i64;
    let add = |acc: &mut i64, v: i64| {
        *acc = if *acc == DYNAMIC || v == DYNAMIC { DYNAMIC } else { acc.checked_add(v).unwrap_or(DYNAMIC) }
    };
    fn terms(e: &AffineExpr, out: &mut Vec<AffineExpr>) {
        match e {
            AffineExpr::Bin(b) if b.op == AffineBinOp::Add => {
                terms(&b.lhs, out);
                terms(&b.rhs, out);
            }
            _ => out.push(e.clone()),
        }
    }
    let mut ts = Vec::new();
    terms(e, &mut ts);
    for t in ts {
        match &t {
            AffineExpr::Dim(d) => add(strides.get_mut(*d as usize)?, 1),
            AffineExpr::Constant(c) => add(&mut offset, *c),
            AffineExpr::Symbol(_) => offset = DYNAMIC,
            AffineExpr::Bin(b) if b.op == AffineBinOp::Mul => match (&b.lhs, &b.rhs) {
                (AffineExpr::Dim(d), AffineExpr::Constant(c)) => add(strides.get_mut(*d as usize)?, *c),
                (AffineExpr::Dim(d), r) if r.is_symbolic_or_constant() => add(strides.get_mut(*d as usize)?, DYNAMIC),
                (l, r) if l.is_symbolic_or_constant() && r.is_symbolic_or_constant() => offset = DYNAMIC,
                _ => return None,
            },
            _ => return None,
        }
    }
    Some((strides, offset))
}

/// The strides and offset of a `memref.subview` of a buffer with
/// `(strides, offset)`, before any rank reduction (MLIR's `inferResultType`).
pub fn subview_layout(src: &(Vec<i64>, i64), offsets: &[i64], steps: &[i64]) -> (Vec<i64>, i64) {
    use hivm_ir::types::DYNAMIC;
    // Saturating as MLIR's inference: a value that overflows is unknown.
    let mul = |a: i64, b: i64| if a == DYNAMIC || b == DYNAMIC { DYNAMIC } else { a.checked_mul(b).unwrap_or(DYNAMIC) };
    let mut offset = src.1;
    for (o, st) in offsets.iter().zip(&src.0) {
        let term = mul(*o, *st);
        offset =
            if offset == DYNAMIC || term == DYNAMIC { DYNAMIC } else { offset.checked_add(term).unwrap_or(DYNAMIC) };
    }
    (src.0.iter().zip(steps).map(|(a, b)| mul(*a, *b)).collect(), offset)
}

/// Which dims of `full` a rank-reduced `reduced` shape keeps (dropped dims
/// must be 1), matched greedily as MLIR does; `None` if it is no reduction.
pub fn rank_reduction_keep(full: &[i64], reduced: &[i64]) -> Option<Vec<bool>> {
    let mut keep = Vec::with_capacity(full.len());
    let mut j = 0;
    for d in full {
        if j < reduced.len() && reduced[j] == *d {
            keep.push(true);
            j += 1;
        } else if *d == 1 {
            keep.push(false);
        } else {
            return None;
        }
    }
    (j == reduced.len()).then_some(keep)
}

/// `expected sizes to be non-negative`: upstream's check of static sizes.
pub fn verify_non_negative_sizes(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    if let Some(s) = i64_array(ir, op, "static_sizes").iter().find(|s| **s < 0 && **s != hivm_ir::types::DYNAMIC) {
        return Err(hivm_ir::dialect::VerifyError::plain(format!("expected sizes to be non-negative, but got {s}")));
    }
    Ok(())
}

/// A tensor slice's type against the one its sizes give (`tensor.extract_slice`
/// result, `tensor.insert_slice` source), rank reduction allowed.
pub fn verify_tensor_slice_type(
    ir: &Ir,
    op: OpId,
    sliced: Type,
    actual: Type,
) -> Result<(), hivm_ir::dialect::VerifyError> {
    use hivm_ir::dialect::VerifyError;
    let sizes = i64_array(ir, op, "static_sizes");
    let elem = ir.type_data(sliced).element_type().unwrap_or(sliced);
    let expected = hivm_ir::printer::shaped_type_string(ir, "tensor", &sizes, elem, None, None);
    let shape = ir.type_data(actual).shape().map(|s| s.to_vec()).unwrap_or_default();
    if shape.len() > sizes.len() {
        return Err(VerifyError::plain("expected rank to be smaller or equal to the other rank. "));
    }
    if rank_reduction_keep(&sizes, &shape).is_none() {
        return Err(VerifyError::plain(format!(
            "expected type to be '{expected}' or a rank-reduced version. (size mismatch) "
        )));
    }
    let actual_elem = ir.type_data(actual).element_type().unwrap_or(actual);
    if actual_elem != elem {
        return Err(VerifyError::plain(format!("expected element type to be '{}'", type_str(ir, elem))));
    }
    Ok(())
}

/// `reassociation = [[0, 1], [2]]` as index groups.
pub fn reassociation(ir: &Ir, op: OpId) -> Vec<Vec<i64>> {
    let Some(groups) = ir.get_attr(op, "reassociation").and_then(|a| ir.as_array(a)) else { return Vec::new() };
    groups
        .iter()
        .map(|g| {
            ir.as_array(*g)
                .map(|ds| ds.iter().filter_map(|d| ir.as_int(*d)).map(|d| d as i64).collect())
                .unwrap_or_default()
        })
        .collect()
}

/// The reassociation and shape rules of `tensor`/`memref` `expand_shape`
/// and `collapse_shape`, each dialect in its own words.
pub fn verify_reshape(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    use hivm_ir::types::DYNAMIC;
    let name = ir.op_name(op);
    let is_tensor = name.starts_with("tensor.");
    let expand = name.ends_with("expand_shape");
    let (Some(&src), Some(&res)) = (ir.operands(op).first(), ir.results(op).first()) else { return Ok(()) };
    let shape = |v: hivm_ir::Value| ir.type_data(ir.value_type(v)).shape().map(|s| s.to_vec()).unwrap_or_default();
    let (expanded, collapsed) = if expand { (shape(res), shape(src)) } else { (shape(src), shape(res)) };
    if expand {
        let out = i64_array(ir, op, "static_output_shape");
        if out.len() != expanded.len() {
            let what = if is_tensor { "dims" } else { "bounds" };
            return Err(format!(
                "expected number of static shape {what} to be equal to the output rank ({}) but found {} inputs instead",
                expanded.len(),
                out.len()
            )
            .into());
        }
        if !is_tensor
            && let Some(pos) = out.iter().zip(&expanded).position(|(o, e)| *o != DYNAMIC && *e != DYNAMIC && o != e)
        {
            return Err(format!("invalid output shape provided at pos {pos}").into());
        }
    }
    let groups = reassociation(ir, op);
    if collapsed.is_empty() && groups.is_empty() {
        // To or from rank 0 (`[]`): memrefs need unit extents; upstream
        // does not check tensors.
        if !is_tensor && expanded.iter().any(|d| *d != 1) {
            return Err("rank 0 memrefs can only be extended/collapsed with/from ones".into());
        }
        return Ok(());
    }
    if is_tensor {
        if groups.iter().any(|g| g.is_empty()) {
            // Upstream rejects empty groups when collapsing only.
            return if expand { Ok(()) } else { Err("reassociation indices must not be empty".into()) };
        }
        if collapsed.len() != groups.len() {
            return Err(format!(
                "expected collapsed rank ({}) to equal the number of reassociation maps ({}).",
                collapsed.len(),
                groups.len()
            )
            .into());
        }
        let dims = groups.iter().flatten().copied().max().map_or(0, |m| m + 1);
        if dims != expanded.len() as i64 {
            return Err(format!(
                "expected reassociation map #0 to have size equal to the expanded rank ({}), but it is  {dims}.",
                expanded.len()
            )
            .into());
        }
        let mut next = 0;
        for (i, g) in groups.iter().enumerate() {
            for d in g {
                if *d != next {
                    return Err(format!("expected reassociation map #{i} to be valid and contiguous.").into());
                }
                next += 1;
            }
        }
        for (d, g) in groups.iter().enumerate() {
            let sizes: Vec<i64> = g.iter().map(|i| expanded[*i as usize]).collect();
            if sizes.contains(&DYNAMIC) {
                if collapsed[d] != DYNAMIC {
                    return Err(format!(
                        "expected dimension {d} of collapsed type to be dynamic since one or more of the \
                         corresponding dimensions in the expanded type is dynamic"
                    )
                    .into());
                }
            } else {
                let p = sizes.iter().try_fold(1i64, |a, n| a.checked_mul(*n));
                if p != Some(collapsed[d]) {
                    let p = p.map_or_else(|| "overflow".to_string(), |p| p.to_string());
                    return Err(format!("expected dimension {d} of collapsed type to be static value of {p}").into());
                }
            }
        }
        return Ok(());
    }
    if collapsed.len() != groups.len() {
        return Err(format!(
            "invalid number of reassociation groups: found {}, expected {}",
            groups.len(),
            collapsed.len()
        )
        .into());
    }
    let mut next = 0;
    for g in &groups {
        for d in g {
            if *d != next {
                return Err("reassociation indices must be contiguous".into());
            }
            if *d >= expanded.len() as i64 {
                return Err(format!("reassociation index {d} is out of bounds").into());
            }
            next += 1;
        }
    }
    for (d, g) in groups.iter().enumerate() {
        let sizes: Vec<i64> = g.iter().map(|i| expanded[*i as usize]).collect();
        let dynamic = sizes.contains(&DYNAMIC);
        if dynamic != (collapsed[d] == DYNAMIC) {
            return Err(
                format!("collapsed dim ({d}) must be dynamic if and only if reassociation group is dynamic").into()
            );
        }
        if dynamic {
            continue;
        }
        // A product too large for i64 cannot equal a valid dim size.
        let p = sizes.iter().try_fold(1i64, |a, n| a.checked_mul(*n));
        if p != Some(collapsed[d]) {
            let p = p.map_or_else(|| "overflow".to_string(), |p| p.to_string());
            return Err(
                format!("collapsed dim size ({}) must equal reassociation group size ({p})", collapsed[d]).into()
            );
        }
    }
    Ok(())
}

/// Static slices must stay inside a static source: the last index a slice
/// touches along each dimension is below that dimension's size (a plain
/// error, as upstream reports it).
pub fn verify_slice_in_bounds(ir: &Ir, op: OpId, source: Type) -> Result<(), hivm_ir::dialect::VerifyError> {
    use hivm_ir::types::DYNAMIC;
    let Some(shape) = ir.type_data(source).shape().map(|s| s.to_vec()) else { return Ok(()) };
    let (offsets, sizes, strides) =
        (i64_array(ir, op, "static_offsets"), i64_array(ir, op, "static_sizes"), i64_array(ir, op, "static_strides"));
    for (d, n) in shape.iter().enumerate() {
        let (Some(o), Some(s), Some(st)) = (offsets.get(d), sizes.get(d), strides.get(d)) else { continue };
        if [*n, *o, *s, *st].contains(&DYNAMIC) || *s == 0 {
            continue;
        }
        // In i128: huge strides must not overflow the check itself.
        let last = *o as i128 + (*s as i128 - 1) * *st as i128;
        if last >= *n as i128 {
            return Err(hivm_ir::dialect::VerifyError::plain(format!(
                "slice along dimension {d} runs out-of-bounds: {last} >= {n}"
            )));
        }
    }
    Ok(())
}

/// An integer operand of a custom syntax that must fit a signed `bits`-bit
/// field, with upstream's message when it does not.
pub fn parse_int_field(p: &mut Parser<'_>, op: &str, what: &str, bits: u32) -> PResult<i64> {
    let pos = p.pos();
    let v = p.parse_integer(what)?;
    let half = 1i128 << (bits - 1);
    if v < -half || v >= half {
        return p.error_at(pos, format!("custom op '{op}' integer value too large"));
    }
    Ok(v as i64)
}

/// `attrs [%a, %b : T1, T2]`: the syntax of terminators that pass values
/// on (`func.return`, `scf.yield`, `scope.return`, ...).
pub fn parse_terminator_operands(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let ops = p.parse_operand_list()?;
    if !ops.is_empty() {
        let pos = p.pos();
        let tys = p.parse_colon_type_list()?;
        r.operands = p.resolve_operands(&ops, &tys, pos)?;
    }
    Ok(())
}

pub fn print_terminator_operands(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &[]);
    if !ir.operands(op).is_empty() {
        p.push(" ");
        p.print_values(ir.operands(op));
        p.push(" : ");
        p.print_operand_types(op);
    }
}

/// The value of an integer constant: a constant-like op's integer `value`
/// (MLIR's `getConstantIntValue` / `m_ConstantInt` on a value).
pub fn constant_int(ir: &Ir, v: hivm_ir::Value) -> Option<i64> {
    let op = ir.defining_op(v)?;
    if !ir.op_def(op).is_some_and(|d| d.has(hivm_ir::Traits::CONSTANT_LIKE)) {
        return None;
    }
    match ir.attr_data(ir.get_attr(op, "value")?) {
        AttrData::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

//! `hivm.hir.custom` and `hivm.hir.custom_macro`: assembly, verifier and
//! accessors, following AscendNPU-IR (spec customop.md §2, §4, §5).

use hivm_ir::attrs::{AttrData, Attribute, Sym};
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::{Elide, Printer};
use hivm_ir::{Ir, OpId, Type, TypeData, Value};

use super::attrs::{MacroSync, SyncEventSlot, enum_value};
use crate::util::{check_segments, push_attr, segment, segment_attr, type_str};

pub const CUSTOM: &str = "hivm.hir.custom";
pub const MACRO: &str = "hivm.hir.custom_macro";

/// Whether `op` is a `hivm.hir.custom` or `hivm.hir.custom_macro`.
pub fn is_custom(ir: &Ir, op: OpId) -> bool {
    ir.is_op(op, CUSTOM) || ir.is_op(op, MACRO)
}

/// Upstream's builtin library ops: (name, core type, pipe, vf mode, gm address operand indices).
pub const BUILTINS: &[(&str, &str, &str, &str, &[i32])] = &[
    ("__builtin_gather_load", "VECTOR", "PIPE_V", "SIMT", &[0]),
    ("__builtin_index_select", "VECTOR", "PIPE_V", "SIMT", &[0]),
    ("__builtin_indirect_atomic", "VECTOR", "PIPE_V", "SIMT", &[0]),
    ("__builtin_histogram", "VECTOR", "PIPE_V", "SIMT", &[]),
];

pub fn is_macro(ir: &Ir, op: OpId) -> bool {
    ir.is_op(op, MACRO)
}

// ----- parsing -----

fn parse_segment(
    p: &mut Parser<'_>,
    kw: &str,
    dicts: Option<&mut Vec<Attribute>>,
) -> PResult<(Vec<hivm_ir::parser::UnresolvedOperand>, Vec<Type>, u32)> {
    if !p.parse_optional_keyword(kw) {
        return Ok((Vec::new(), Vec::new(), p.pos()));
    }
    p.expect(Tok::LParen, "'('")?;
    let ops = p.parse_operand_list()?;
    p.expect(Tok::Colon, "':'")?;
    let pos = p.pos();
    let mut tys = Vec::new();
    let mut collected = Vec::new();
    loop {
        tys.push(p.parse_type()?);
        let mut entries = Vec::new();
        p.parse_optional_attr_dict(&mut entries)?;
        collected.push(p.ir.dict_attr(entries));
        if !p.consume_if(Tok::Comma) {
            break;
        }
    }
    p.expect(Tok::RParen, "')'")?;
    if tys.len() != ops.len() {
        return p.error_at(pos, format!("{} operands present, but expected {}", ops.len(), tys.len()));
    }
    // Dictionaries after `outs`/`tmps` types are parsed and dropped, as upstream does.
    if let Some(d) = dicts {
        *d = collected;
    }
    Ok((ops, tys, pos))
}

fn parse_common(p: &mut Parser<'_>, r: &mut OpParseResult, macro_op: bool) -> PResult<()> {
    if p.consume_if(Tok::Less) {
        r.properties = Some(p.parse_attribute(None)?);
        p.expect(Tok::Greater, "'>'")?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let name_pos = p.pos();
    let name = p.parse_utf8_string("custom op name string")?;
    let name_attr = p.ir.str_attr(&name);
    push_attr(p, r, "name", name_attr);
    let _ = name_pos;
    let mut ins_dicts = Vec::new();
    let (ins, in_tys, ipos) = parse_segment(p, "ins", Some(&mut ins_dicts))?;
    let (outs, out_tys, opos) = parse_segment(p, "outs", None)?;
    let (tmps, tmp_tys, tpos) = parse_segment(p, "tmps", None)?;
    let mut operands = p.resolve_operands(&ins, &in_tys, ipos)?;
    operands.extend(p.resolve_operands(&outs, &out_tys, opos)?);
    operands.extend(p.resolve_operands(&tmps, &tmp_tys, tpos)?);
    // arg_attrs: inline dictionaries after `ins` types merge with an explicit array.
    let arg_key = p.ir.sym("arg_attrs");
    let empty = p.ir.empty_dict();
    let any_inline = ins_dicts.iter().any(|d| *d != empty);
    let explicit = r.attrs.iter().position(|(k, _)| *k == arg_key);
    if any_inline {
        let merged = match explicit.and_then(|i| p.ir.as_array(r.attrs[i].1).map(|a| a.to_vec())) {
            None => ins_dicts,
            Some(explicit_list) => {
                let mut out = ins_dicts.clone();
                for (i, slot) in out.iter_mut().enumerate() {
                    if let Some(&e) = explicit_list.get(i)
                        && let AttrData::Dictionary(ee) = p.ir.attr_data(e).clone()
                        && !ee.is_empty()
                    {
                        let mut entries = ee;
                        entries.extend(p.ir.dict_entries(ins_dicts[i]).iter().copied());
                        *slot = p.ir.dict_attr(entries);
                    }
                }
                out
            }
        };
        let a = p.ir.array_attr(merged);
        r.attrs.retain(|(k, _)| *k != arg_key);
        r.attrs.push((arg_key, a));
    }
    let mut sizes = vec![ins.len(), outs.len(), tmps.len()];
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    if macro_op {
        let mut n = 0;
        if p.parse_optional_keyword("sync_related_args") {
            p.expect(Tok::LParen, "'('")?;
            let ops = p.parse_operand_list()?;
            let pos = p.pos();
            let tys = p.parse_colon_type_list()?;
            p.expect(Tok::RParen, "')'")?;
            let vals = p.resolve_operands(&ops, &tys, pos)?;
            n = vals.len();
            operands.extend(vals);
        }
        sizes.push(n);
    }
    r.operands = operands;
    let seg = segment_attr(p.ir, &sizes);
    push_attr(p, r, "operandSegmentSizes", seg);
    Ok(())
}

pub fn parse_custom(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_common(p, r, false)
}

pub fn parse_macro(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_common(p, r, true)
}

// ----- printing -----

/// Whether `arg_attrs` goes inline after the `ins` types (some entry has `inplace_outs`).
fn inline_arg_attrs(ir: &Ir, op: OpId) -> Option<Vec<Attribute>> {
    let arr = ir.get_attr(op, "arg_attrs").and_then(|a| ir.as_array(a))?.to_vec();
    arr.iter().any(|d| ir.dict_get(*d, "inplace_outs").is_some()).then_some(arr)
}

pub fn print(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let inline = inline_arg_attrs(ir, op);
    let mut elided = vec!["operandSegmentSizes", "name"];
    if inline.is_some() {
        elided.push("arg_attrs");
    }
    p.print_optional_attr_dict(op, &elided);
    p.push(" ");
    let name = ir.get_attr(op, "name").unwrap_or(ir.empty_dict());
    p.print_attr(name, Elide::Never);
    for (i, kw) in ["ins", "outs", "tmps"].iter().enumerate() {
        let vals = segment(ir, op, i).to_vec();
        if vals.is_empty() {
            continue;
        }
        p.push(" ");
        p.push(kw);
        p.push("(");
        p.print_values(&vals);
        p.push(" : ");
        for (j, v) in vals.iter().enumerate() {
            if j > 0 {
                p.push(", ");
            }
            p.print_type(ir.value_type(*v));
            if i == 0
                && let Some(arr) = &inline
                && let Some(&d) = arr.get(j)
                && !ir.dict_entries(d).is_empty()
            {
                p.push(" ");
                p.print_attr(d, Elide::Never);
            }
        }
        p.push(")");
    }
    p.print_arrow_results(op);
    if is_macro(ir, op) {
        let sync = segment(ir, op, 3).to_vec();
        if !sync.is_empty() {
            p.push(" sync_related_args(");
            p.print_values(&sync);
            p.push(" : ");
            p.print_value_types(&sync);
            p.push(")");
        }
    }
}

// ----- accessors -----

pub fn ins(ir: &Ir, op: OpId) -> &[Value] {
    segment(ir, op, 0)
}

pub fn outs(ir: &Ir, op: OpId) -> &[Value] {
    segment(ir, op, 1)
}

pub fn tmps(ir: &Ir, op: OpId) -> &[Value] {
    segment(ir, op, 2)
}

pub fn sync_args(ir: &Ir, op: OpId) -> &[Value] {
    if is_macro(ir, op) { segment(ir, op, 3) } else { &[] }
}

/// Without `no_side_effect` a custom op reads and writes memory; with it, it has
/// no effects at all (spec §6.1).
pub fn no_side_effect(ir: &Ir, op: OpId) -> bool {
    ir.has_attr(op, "no_side_effect")
}

pub fn name(ir: &Ir, op: OpId) -> &str {
    ir.get_attr(op, "name").and_then(|a| ir.as_str(a)).unwrap_or("")
}

fn enum_attr<'a>(ir: &'a Ir, op: OpId, key: &str, mnemonic: &str) -> Option<&'a str> {
    ir.get_attr(op, key).and_then(|a| enum_value(ir, a, mnemonic))
}

pub fn core_type(ir: &Ir, op: OpId) -> Option<&str> {
    enum_attr(ir, op, "hivm.tcore_type", "tcore_type")
}

pub fn vf_mode(ir: &Ir, op: OpId) -> Option<&str> {
    enum_attr(ir, op, "hivm.vf_mode", "vf_mode")
}

/// The op's pipes: `[pipe]` for custom, `[pipe_in, pipe_out]` for the macro;
/// a missing pipe reads as `PIPE_UNASSIGNED`.
pub fn pipes(ir: &Ir, op: OpId) -> Vec<&str> {
    let keys: &[&str] = if is_macro(ir, op) { &["hivm.pipe_in", "hivm.pipe_out"] } else { &["hivm.pipe"] };
    keys.iter().map(|k| enum_attr(ir, op, k, "pipe").unwrap_or("PIPE_UNASSIGNED")).collect()
}

pub fn symbol(ir: &Ir, op: OpId) -> Option<&str> {
    ir.get_attr(op, "symbol").and_then(|a| ir.as_str(a))
}

/// `max_rank`, default 5.
pub fn max_rank(ir: &Ir, op: OpId) -> i64 {
    ir.get_attr(op, "max_rank").and_then(|a| ir.as_int(a)).map(|v| v as i64).unwrap_or(5)
}

/// `extra_attr`, the free-form `key=value,...` text builtins carry.
pub fn extra_attr(ir: &Ir, op: OpId) -> &str {
    ir.get_attr(op, "extra_attr").and_then(|a| ir.as_str(a)).unwrap_or("")
}

/// The source rank of `__builtin_index_select`: upstream takes the last
/// character of `extra_attr` (triton-ascend writes `src_stride_len=N`) to
/// name the library call `index_select_<N>d_...`; the GM source itself is
/// passed as a 1-D memref, so its type says nothing about the rank.
pub fn index_select_src_rank(ir: &Ir, op: OpId) -> Option<char> {
    extra_attr(ir, op).chars().last()
}

pub fn builtin(
    ir: &Ir,
    op: OpId,
) -> Option<&'static (&'static str, &'static str, &'static str, &'static str, &'static [i32])> {
    if is_macro(ir, op) {
        return None;
    }
    let n = name(ir, op);
    BUILTINS.iter().find(|b| b.0 == n)
}

/// Per-`ins` operand dictionary entry (`align_dim`, `inplace_outs`).
pub fn arg_attr(ir: &Ir, op: OpId, index: usize, key: &str) -> Option<Attribute> {
    let arr = ir.get_attr(op, "arg_attrs").and_then(|a| ir.as_array(a))?;
    ir.dict_get(*arr.get(index)?, key)
}

/// Extra scratch buffers: (element type, element count).
pub fn extra_buffers(ir: &Ir, op: OpId) -> Vec<(Type, i64)> {
    let types = ir.get_attr(op, "extra_buffers_types").and_then(|a| ir.as_array(a)).unwrap_or(&[]);
    let sizes = ir.get_attr(op, "extra_buffers_sizes").and_then(|a| ir.as_array(a)).unwrap_or(&[]);
    types.iter().zip(sizes).filter_map(|(t, s)| Some((ir.as_type(*t)?, ir.as_int(*s)? as i64))).collect()
}

pub fn sync_event_slots(ir: &Ir, op: OpId) -> Vec<SyncEventSlot> {
    let arr = ir.get_attr(op, "sync_event_slots").and_then(|a| ir.as_array(a)).unwrap_or(&[]);
    arr.iter().filter_map(|a| SyncEventSlot::from_attr(ir, *a)).collect()
}

// ----- verification -----

fn is_tensor_or_memref(ir: &Ir, t: Type) -> bool {
    let d = ir.type_data(t);
    d.is_tensor() || d.is_memref()
}

fn is_ranked(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::RankedTensor { .. } | TypeData::MemRef { .. })
}

/// ODS and destination-style checks, before the op's own verifier.
fn verify_structure(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let macro_op = is_macro(ir, op);
    check_segments(ir, op, if macro_op { 4 } else { 3 })?;
    match ir.get_attr(op, "name").map(|a| ir.attr_data(a)) {
        None => return Err("requires attribute 'name'".into()),
        Some(AttrData::String { .. }) => {}
        Some(_) => return Err("attribute 'name' failed to satisfy constraint: string attribute".into()),
    }
    if let Some(u) = ir.get_attr(op, "no_side_effect")
        && !matches!(ir.attr_data(u), AttrData::Unit)
    {
        return Err("attribute 'no_side_effect' failed to satisfy constraint: unit attribute".into());
    }
    if macro_op {
        let start = ins(ir, op).len() + outs(ir, op).len() + tmps(ir, op).len();
        for (i, v) in sync_args(ir, op).iter().enumerate() {
            let t = ir.value_type(*v);
            if !ir.type_data(t).is_signless_int(64) {
                return Err(format!(
                    "operand #{} must be variadic of 64-bit signless integer, but got '{}'",
                    start + i,
                    type_str(ir, t)
                )
                .into());
            }
        }
    }
    let first_out = ins(ir, op).len();
    for (k, v) in outs(ir, op).iter().enumerate() {
        if !is_tensor_or_memref(ir, ir.value_type(*v)) {
            return Err(format!("expected that operand #{} is a tensor or a memref", first_out + k).into());
        }
    }
    let tensor_outs: Vec<Value> =
        outs(ir, op).iter().copied().filter(|v| ir.type_data(ir.value_type(*v)).is_tensor()).collect();
    let tensor_results: Vec<Value> =
        ir.results(op).iter().copied().filter(|v| ir.type_data(ir.value_type(*v)).is_tensor()).collect();
    if tensor_results.len() != tensor_outs.len() {
        return Err(format!(
            "expected the number of tensor results ({}) to be equal to the number of output tensors ({})",
            tensor_results.len(),
            tensor_outs.len()
        )
        .into());
    }
    for (k, v) in outs(ir, op).iter().enumerate() {
        let t = ir.value_type(*v);
        if ir.type_data(t).is_tensor()
            && let Some(r) = ir.results(op).get(k)
            && ir.value_type(*r) != t
        {
            return Err(format!(
                "expected type of operand #{} ({}) to match type of corresponding result ({})",
                first_out + k,
                type_str(ir, t),
                type_str(ir, ir.value_type(*r))
            )
            .into());
        }
    }
    Ok(())
}

fn verify_inplace(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(arr) = ir.get_attr(op, "arg_attrs").and_then(|a| ir.as_array(a)) else { return Ok(()) };
    let (ins, outs) = (ins(ir, op), outs(ir, op));
    let mut used = Vec::new();
    for (i, d) in arr.iter().enumerate().take(ins.len()) {
        if !matches!(ir.attr_data(*d), AttrData::Dictionary(_)) {
            continue;
        }
        let Some(a) = ir.dict_get(*d, "inplace_outs") else { continue };
        let Some(k) = ir.as_int(a) else { return Err("inplace_outs must be an integer attribute".into()) };
        if k < 0 || k as usize >= outs.len() {
            return Err("inplace_outs must be a valid outs operand index".into());
        }
        let k = k as usize;
        if used.contains(&k) {
            return Err("inplace_outs cannot map multiple ins operands to the same outs operand".into());
        }
        used.push(k);
        let (ti, to) = (ir.value_type(ins[i]), ir.value_type(outs[k]));
        if !is_ranked(ir, ti) || !is_ranked(ir, to) {
            return Err("inplace_outs requires mapped ins and outs operands to be ranked tensors or memrefs".into());
        }
        if ti != to {
            return Err(
                "inplace_outs requires mapped ins and outs operands to have identical ranked tensor or memref types"
                    .into(),
            );
        }
        if ins[i] != outs[k] {
            return Err(
                "inplace_outs requires each mapped ins operand to be the same SSA value as its mapped outs operand"
                    .into(),
            );
        }
    }
    Ok(())
}

fn verify_extra_buffers(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let get = |k| ir.get_attr(op, k).and_then(|a| ir.as_array(a));
    let (types, sizes) = (get("extra_buffers_types"), get("extra_buffers_sizes"));
    match (types, sizes) {
        (None, None) => Ok(()),
        (Some(_), None) | (None, Some(_)) => Err("Either extra buffers' types or sizes missing".into()),
        (Some(t), Some(s)) => {
            if t.len() != s.len() {
                return Err("Extra buffers' types and sizes mismatch".into());
            }
            if t.iter().any(|a| ir.as_type(*a).is_none()) {
                return Err("Extra buffers' types must be an array of type attributes".into());
            }
            if s.iter().any(|a| ir.as_int(*a).is_none()) {
                return Err("Extra buffers' sizes must be an array of integer attributes".into());
            }
            if s.iter().any(|a| ir.as_int(*a).is_some_and(|v| v < 0)) {
                return Err("Extra buffer size must be non-negative".into());
            }
            Ok(())
        }
    }
}

fn verify_builtin(ir: &Ir, op: OpId, b: &(&str, &str, &str, &str, &[i32])) -> Result<(), VerifyError> {
    let n = b.0;
    if core_type(ir, op).is_some_and(|c| c != b.1) {
        return Err(format!("Specified core type conflict with {n}'s core type.").into());
    }
    if vf_mode(ir, op).is_some_and(|v| v != b.3) {
        return Err(format!("Specified vf mode conflict with {n}'s vf mode.").into());
    }
    let pipe = pipes(ir, op)[0];
    if pipe != "PIPE_UNASSIGNED" && pipe != b.2 {
        return Err(format!("Specified pipe conflict with {n}'s pipe.").into());
    }
    Ok(())
}

fn verify_macro_sync(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let slots = sync_event_slots(ir, op);
    let args = sync_args(ir, op).len();
    if args != 0 && args != slots.len() {
        return Err(if slots.is_empty() {
            "sync_related_args should be empty".to_string()
        } else {
            format!("sync_related_args should be of size {}", slots.len())
        }
        .into());
    }
    let mut internal = Vec::new();
    let mut paired = Vec::new();
    for s in &slots {
        let Some(e) = s.event else { continue };
        match (s.mode, &s.pipes) {
            (MacroSync::Internal, _) => {
                if internal.contains(&e) {
                    return Err("duplicate user-specified sync event id on internal slot".into());
                }
                internal.push(e);
            }
            (_, None) => {
                return Err("sync_event_slot requires set_pipe and wait_pipe for `wait` and `set` macro_sync".into());
            }
            (_, Some((a, b))) => {
                let key = (a.clone(), b.clone(), e);
                if paired.contains(&key) {
                    return Err("duplicate user-specified sync event id on the same pipe pair".into());
                }
                paired.push(key);
            }
        }
    }
    Ok(())
}

pub fn verify(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    verify_structure(ir, op)?;
    verify_inplace(ir, op)?;
    if let Some(b) = builtin(ir, op) {
        return verify_builtin(ir, op, b);
    }
    verify_extra_buffers(ir, op)?;
    let Some(core) = core_type(ir, op) else { return Err("Missing core type information".into()) };
    let needs_vf =
        core != "CUBE" && crate::hacc::module_target(ir, op).is_some_and(|t| crate::hacc::is_910_95_family(&t));
    if needs_vf && vf_mode(ir, op).is_none() {
        return Err("Missing vf mode information".into());
    }
    if is_macro(ir, op) {
        if enum_attr(ir, op, "hivm.pipe_in", "pipe").is_none() {
            return Err("Missing input pipe information".into());
        }
        if enum_attr(ir, op, "hivm.pipe_out", "pipe").is_none() {
            return Err("Missing output pipe information".into());
        }
    } else if enum_attr(ir, op, "hivm.pipe", "pipe").is_none() {
        return Err("Missing pipe information".into());
    }
    match ir.get_attr(op, "symbol").map(|a| ir.as_str(a)) {
        // Upstream's accessor reports the missing symbol, then the verifier again.
        None => return Err(VerifyError::from("Missing implementation function name").twice()),
        Some(Some("")) | Some(None) => return Err("Missing implementation function name".into()),
        Some(Some(_)) => {}
    }
    if is_macro(ir, op) {
        verify_macro_sync(ir, op)?;
    }
    Ok(())
}

/// Sym of an attribute key (helper for passes that edit these ops).
pub fn key(ir: &mut Ir, k: &str) -> Sym {
    ir.sym(k)
}

/// Builtin canonicalization (spec §5): fill in the first missing or wrong
/// core type, pipe, vf mode or gm address indices from the builtin table.
pub fn canonicalize_builtin(ir: &mut Ir, op: OpId) -> bool {
    let Some(&(_, core, pipe, vf, gm)) = builtin(ir, op) else { return false };
    if core_type(ir, op) != Some(core) {
        let a = crate::util::opaque_attr(ir, "hivm", &format!("tcore_type<{core}>"));
        ir.set_attr(op, "hivm.tcore_type", a);
        return true;
    }
    if pipes(ir, op)[0] != pipe {
        let a = crate::util::opaque_attr(ir, "hivm", &format!("pipe<{pipe}>"));
        ir.set_attr(op, "hivm.pipe", a);
        return true;
    }
    if vf_mode(ir, op) != Some(vf) {
        let a = crate::util::opaque_attr(ir, "hivm", &format!("vf_mode<{vf}>"));
        ir.set_attr(op, "hivm.vf_mode", a);
        return true;
    }
    let want: Vec<i64> = gm.iter().map(|v| *v as i64).collect();
    let have = match ir.get_attr(op, "gm_addr_args_indices").map(|a| ir.attr_data(a)) {
        Some(AttrData::DenseArray { data: hivm_ir::attrs::DenseArrayData::Int(v), .. }) => Some(v.clone()),
        _ => None,
    };
    if have.as_ref() != Some(&want) {
        let elem = ir.int_type(32);
        let a = ir.attr(AttrData::DenseArray { elem, data: hivm_ir::attrs::DenseArrayData::Int(want) });
        ir.set_attr(op, "gm_addr_args_indices", a);
        return true;
    }
    false
}

//! HIVM ops other than the custom ones: pipe synchronisation, block queries,
//! `pointer_cast`, the control-register ops (`set_mask_norm`, `set_ctrl`,
//! `set_ffts_base_addr`), and the DMA ops `load`/`store`/`copy`/`load_scale`
//! — each with its upstream assembly and the pipe it runs on.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser, UnresolvedOperand};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Attribute, Ir, OpDef, OpId, Traits, Type, TypeData};

use super::attrs::enum_value;
use crate::util::{check_segments, push_attr, segment, segment_attr, type_str};

use super::attrs::{parse_stripped_enum, print_stripped_enum};

// ----- sync_block_set / sync_block_wait (between cores) -----

/// `attrs [<CORE>, <PIPE>, <PIPE>] flag = N|%v [ffts_base_addr = %a]
/// [sync_instr_mode = <MODE>]`; `ffts` only for the set.
fn parse_sync_block(p: &mut Parser<'_>, r: &mut OpParseResult, ffts: bool) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::LSquare, "'['")?;
    let core = parse_stripped_enum(p, "tcore_type")?;
    push_attr(p, r, "tcore_type", core);
    p.expect(Tok::Comma, "','")?;
    let tpipe = parse_stripped_enum(p, "pipe")?;
    push_attr(p, r, "tpipe", tpipe);
    p.expect(Tok::Comma, "','")?;
    let pipe = parse_stripped_enum(p, "pipe")?;
    push_attr(p, r, "pipe", pipe);
    p.expect(Tok::RSquare, "']'")?;
    p.expect_keyword("flag")?;
    p.expect(Tok::Equal, "'='")?;
    let i64t = p.ir.int_type(64);
    let mut dynamic = 0;
    if p.is(Tok::PercentIdent) {
        let u = p.parse_operand()?;
        let v = p.resolve_operand(&u, i64t)?;
        r.operands.push(v);
        dynamic = 1;
    } else {
        let op_name = p.ir.sym_str(r.name).to_string();
        let n = crate::util::parse_int_field(p, &op_name, "flag id", 64)?;
        let a = p.ir.int_attr(n as i128, i64t);
        push_attr(p, r, "static_flag_id", a);
    }
    let mut with_ffts = 0;
    if ffts && p.parse_optional_keyword("ffts_base_addr") {
        p.expect(Tok::Equal, "'='")?;
        let u = p.parse_operand()?;
        let v = p.resolve_operand(&u, i64t)?;
        r.operands.push(v);
        with_ffts = 1;
    }
    if p.parse_optional_keyword("sync_instr_mode") {
        p.expect(Tok::Equal, "'='")?;
        let m = parse_stripped_enum(p, "sync_block_instr_mode")?;
        push_attr(p, r, "tsync_instr_mode", m);
    }
    if ffts {
        let seg = segment_attr(p.ir, &[dynamic, with_ffts]);
        push_attr(p, r, "operandSegmentSizes", seg);
    }
    Ok(())
}

fn parse_sync_block_set(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_sync_block(p, r, true)
}

fn parse_sync_block_wait(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    parse_sync_block(p, r, false)
}

fn print_sync_block(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let set = ir.op_name(op) == "hivm.hir.sync_block_set";
    let mode = ir.get_attr(op, "tsync_instr_mode");
    // The default mode is not printed.
    let default_mode =
        mode.is_some_and(|m| enum_value(ir, m, "sync_block_instr_mode") == Some("INTRA_BLOCK_SYNCHRONIZATION"));
    p.print_optional_attr_dict(
        op,
        &["tcore_type", "tpipe", "pipe", "static_flag_id", "tsync_instr_mode", "operandSegmentSizes"],
    );
    p.push("[");
    for (i, (k, e)) in [("tcore_type", "tcore_type"), ("tpipe", "pipe"), ("pipe", "pipe")].iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        if let Some(a) = ir.get_attr(op, k) {
            print_stripped_enum(p, a, e);
        }
    }
    p.push("] flag = ");
    let (dyn_flag, ffts) = if set {
        (segment(ir, op, 0).first().copied(), segment(ir, op, 1).first().copied())
    } else {
        (ir.operands(op).first().copied(), None)
    };
    match (ir.get_attr(op, "static_flag_id").and_then(|a| ir.as_int(a)), dyn_flag) {
        (Some(n), _) => p.push(&n.to_string()),
        (None, Some(v)) => p.print_value(v),
        (None, None) => {}
    }
    if let Some(f) = ffts {
        p.push(" ffts_base_addr = ");
        p.print_value(f);
    }
    if let Some(m) = mode
        && !default_mode
    {
        p.push(" sync_instr_mode = ");
        print_stripped_enum(p, m, "sync_block_instr_mode");
    }
}

fn verify_sync_block(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let set = ir.op_name(op) == "hivm.hir.sync_block_set";
    if set {
        check_segments(ir, op, 2)?;
    }
    let dynamic = if set { segment(ir, op, 0).len() } else { ir.operands(op).len() };
    let stat = ir.get_attr(op, "static_flag_id").is_some();
    if stat && dynamic > 0 {
        return Err("Only one flag ID is supported!".into());
    }
    if !stat && dynamic == 0 {
        return Err("Flag ID is needed!".into());
    }
    Ok(())
}

// ----- set_flag / wait_flag / pipe_barrier -----

fn parse_flag(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.expect(Tok::LSquare, "'['")?;
    let set = parse_stripped_enum(p, "pipe")?;
    push_attr(p, r, "set_pipe", set);
    p.expect(Tok::Comma, "','")?;
    let wait = parse_stripped_enum(p, "pipe")?;
    push_attr(p, r, "wait_pipe", wait);
    p.expect(Tok::Comma, "','")?;
    if p.is(Tok::PercentIdent) {
        let u = p.parse_operand()?;
        let i64t = p.ir.int_type(64);
        let v = p.resolve_operand(&u, i64t)?;
        r.operands.push(v);
    } else {
        let e = parse_stripped_enum(p, "event")?;
        push_attr(p, r, "static_event_id", e);
    }
    p.expect(Tok::RSquare, "']'")?;
    p.parse_optional_attr_dict(&mut r.attrs)
}

fn print_flag(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("[");
    for (i, k) in ["set_pipe", "wait_pipe"].iter().enumerate() {
        if i > 0 {
            p.push(", ");
        }
        if let Some(a) = ir.get_attr(op, k) {
            print_stripped_enum(p, a, "pipe");
        }
    }
    p.push(", ");
    match (ir.get_attr(op, "static_event_id"), ir.operands(op).first()) {
        (Some(e), _) => print_stripped_enum(p, e, "event"),
        (None, Some(v)) => p.print_value(*v),
        (None, None) => {}
    }
    p.push("]");
    p.print_optional_attr_dict(op, &["set_pipe", "wait_pipe", "static_event_id"]);
}

fn verify_flag(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    for k in ["set_pipe", "wait_pipe"] {
        if ir.get_attr(op, k).and_then(|a| enum_value(ir, a, "pipe")).is_none() {
            return Err(format!("requires attribute '{k}'").into());
        }
    }
    let dynamic = ir.operands(op).len();
    let stat = ir.get_attr(op, "static_event_id").is_some();
    if dynamic > 1 || (dynamic == 1) == stat {
        return Err("requires exactly one of static_event_id and dynamic_event_id".into());
    }
    if let Some(v) = ir.operands(op).first()
        && !ir.type_data(ir.value_type(*v)).is_signless_int(64)
    {
        return Err(format!(
            "operand #0 must be 64-bit signless integer, but got '{}'",
            type_str(ir, ir.value_type(*v))
        )
        .into());
    }
    Ok(())
}

fn parse_barrier(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.expect(Tok::LSquare, "'['")?;
    let pipe = parse_stripped_enum(p, "pipe")?;
    push_attr(p, r, "pipe", pipe);
    p.expect(Tok::RSquare, "']'")?;
    p.parse_optional_attr_dict(&mut r.attrs)
}

fn print_barrier(p: &mut Printer<'_>, op: OpId) {
    p.push("[");
    if let Some(a) = p.ir.get_attr(op, "pipe") {
        print_stripped_enum(p, a, "pipe");
    }
    p.push("]");
    p.print_optional_attr_dict(op, &["pipe"]);
}

// ----- get_block_idx and friends: `attr-dict -> type` -----

fn parse_query(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    p.expect(Tok::Arrow, "'->'")?;
    let t = p.parse_type()?;
    r.result_types.push(t);
    Ok(())
}

fn print_query(p: &mut Printer<'_>, op: OpId) {
    p.print_optional_attr_dict(op, &[]);
    p.push(" -> ");
    p.print_type(p.ir.value_type(p.ir.result(op, 0)));
}

fn verify_query(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let t = ir.value_type(ir.result(op, 0));
    if !ir.type_data(t).is_signless_int(64) {
        return Err(format!("result #0 must be 64-bit signless integer, but got '{}'", type_str(ir, t)).into());
    }
    Ok(())
}

// ----- pointer_cast: `(addrs) ([dyn sizes])? attr-dict : type` -----

fn parse_pointer_cast(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.expect(Tok::LParen, "'('")?;
    let addrs = p.parse_operand_list()?;
    p.expect(Tok::RParen, "')'")?;
    let mut dyns = Vec::new();
    if p.is(Tok::LSquare) {
        dyns = crate::util::parse_index_list(p)?;
    }
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let t = p.parse_colon_type()?;
    let i64t = p.ir.int_type(64);
    crate::util::resolve_all(p, &addrs, i64t, r)?;
    let it = p.ir.index_type();
    crate::util::resolve_all(p, &dyns, it, r)?;
    let seg = segment_attr(p.ir, &[addrs.len(), dyns.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    r.result_types.push(t);
    Ok(())
}

fn print_pointer_cast(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push("(");
    p.print_values(segment(ir, op, 0));
    p.push(")");
    let dyns = segment(ir, op, 1);
    if !dyns.is_empty() {
        p.push(" ");
        crate::util::print_index_list(p, dyns);
    }
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
    p.push(" : ");
    p.print_type(ir.value_type(ir.result(op, 0)));
}

fn verify_pointer_cast(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    check_segments(ir, op, 2)?;
    if segment(ir, op, 0).is_empty() {
        return Err("addrs should have at least one addr".into());
    }
    if !ir.type_data(ir.value_type(ir.result(op, 0))).is_memref() {
        return Err("result #0 must be memref of any type values".into());
    }
    Ok(())
}

// ----- load / store / copy -----

/// Optional trailing clauses of a DMA op, in their printed order.
#[derive(Clone, Copy)]
enum Clause {
    /// `kw = <V>` stored as `#hivm.mnemonic<V>` under `attr`.
    Enum { kw: &'static str, attr: &'static str, mnemonic: &'static str },
    /// `kw = true|false` stored as a bool under `kw`.
    Bool { kw: &'static str },
    /// `kw = %v : T`, operand segment `seg`.
    Value { kw: &'static str, seg: usize },
    /// `kw = [[0, 1], ...]`
    Reassoc { kw: &'static str },
}

const LOAD: &[Clause] = &[
    Clause::Enum { kw: "pad_mode", attr: "pad_mode", mnemonic: "padmode" },
    Clause::Value { kw: "pad_value", seg: 2 },
    Clause::Value { kw: "left_padding_num", seg: 3 },
    Clause::Bool { kw: "init_out_buffer" },
    Clause::Value { kw: "right_padding_num", seg: 4 },
    Clause::Value { kw: "init_condition", seg: 5 },
    Clause::Bool { kw: "may_implicit_transpose_with_last_axis" },
    Clause::Enum { kw: "eviction_policy", attr: "eviction_policy", mnemonic: "eviction_policy" },
    Clause::Enum { kw: "core_type", attr: "tcoretype", mnemonic: "tcore_type" },
];
const STORE: &[Clause] = &[Clause::Enum { kw: "atomic", attr: "atomic_kind", mnemonic: "atomic_kind" }];
const COPY: &[Clause] = &[
    Clause::Enum { kw: "pad_mode", attr: "pad_mode", mnemonic: "padmode" },
    Clause::Value { kw: "pad_value", seg: 2 },
    Clause::Reassoc { kw: "collapse_reassociation" },
];

fn clauses_of(name: &str) -> (&'static [Clause], usize) {
    match name {
        "hivm.hir.load" => (LOAD, 6),
        "hivm.hir.copy" => (COPY, 3),
        _ => (STORE, 0),
    }
}

fn parse_dma(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.ir.sym_str(r.name).to_string();
    let (clauses, nseg) = clauses_of(&name);
    let single = |p: &mut Parser<'_>, kw: &str| -> PResult<(UnresolvedOperand, Type)> {
        p.expect_keyword(kw)?;
        p.expect(Tok::LParen, "'('")?;
        let u = p.parse_operand()?;
        let t = p.parse_colon_type()?;
        p.expect(Tok::RParen, "')'")?;
        Ok((u, t))
    };
    let (src, st) = single(p, "ins")?;
    let (dst, dt) = single(p, "outs")?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let mut segs: Vec<Vec<hivm_ir::Value>> = vec![Vec::new(); nseg.max(2)];
    segs[0].push(p.resolve_operand(&src, st)?);
    segs[1].push(p.resolve_operand(&dst, dt)?);
    for c in clauses {
        match *c {
            Clause::Enum { kw, attr, mnemonic } => {
                if p.parse_optional_keyword(kw) {
                    p.expect(Tok::Equal, "'='")?;
                    let a = parse_stripped_enum(p, mnemonic)?;
                    push_attr(p, r, attr, a);
                }
            }
            Clause::Bool { kw } => {
                if p.parse_optional_keyword(kw) {
                    p.expect(Tok::Equal, "'='")?;
                    let a = p.parse_attribute(None)?;
                    push_attr(p, r, kw, a);
                }
            }
            Clause::Value { kw, seg } => {
                if p.parse_optional_keyword(kw) {
                    p.expect(Tok::Equal, "'='")?;
                    let u = p.parse_operand()?;
                    let t = p.parse_colon_type()?;
                    segs[seg].push(p.resolve_operand(&u, t)?);
                }
            }
            Clause::Reassoc { kw } => {
                if p.parse_optional_keyword(kw) {
                    p.expect(Tok::Equal, "'='")?;
                    let a = crate::util::parse_reassociation(p)?;
                    push_attr(p, r, kw, a);
                }
            }
        }
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types.push(p.parse_type()?);
    }
    if nseg > 0 {
        let sizes: Vec<usize> = segs.iter().map(|s| s.len()).collect();
        let seg = segment_attr(p.ir, &sizes);
        push_attr(p, r, "operandSegmentSizes", seg);
    }
    r.operands = segs.into_iter().flatten().collect();
    Ok(())
}

fn print_dma(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    let name = ir.op_name(op);
    let (clauses, nseg) = clauses_of(name);
    let seg = |i: usize| -> &[hivm_ir::Value] { if nseg == 0 { &ir.operands(op)[i..=i] } else { segment(ir, op, i) } };
    for (i, kw) in ["ins", "outs"].iter().enumerate() {
        let v = seg(i)[0];
        p.push(&format!(" {kw}("));
        p.print_value(v);
        p.push(" : ");
        p.print_type(ir.value_type(v));
        p.push(")");
    }
    let mut elided = vec!["operandSegmentSizes"];
    for c in clauses {
        match c {
            Clause::Enum { attr, .. } => elided.push(attr),
            Clause::Bool { kw } | Clause::Reassoc { kw } => elided.push(kw),
            Clause::Value { .. } => {}
        }
    }
    p.print_optional_attr_dict(op, &elided);
    for c in clauses {
        match *c {
            Clause::Enum { kw, attr, mnemonic } => {
                if let Some(a) = ir.get_attr(op, attr) {
                    p.push(&format!(" {kw} = "));
                    print_stripped_enum(p, a, mnemonic);
                }
            }
            Clause::Bool { kw } => {
                // Default-valued flags print only when set.
                if let Some(a) = ir.get_attr(op, kw)
                    && ir.as_int(a).is_some_and(|v| v != 0)
                {
                    p.push(&format!(" {kw} = true"));
                }
            }
            Clause::Value { kw, seg: s } => {
                if let Some(&v) = segment(ir, op, s).first() {
                    p.push(&format!(" {kw} = "));
                    p.print_value(v);
                    p.push(" : ");
                    p.print_type(ir.value_type(v));
                }
            }
            Clause::Reassoc { kw } => {
                if let Some(a) = ir.get_attr(op, kw) {
                    p.push(&format!(" {kw} = "));
                    p.print_attr(a, hivm_ir::printer::Elide::May);
                }
            }
        }
    }
    p.print_arrow_results(op);
}

fn verify_dma(ir: &Ir, op: OpId) -> Result<(), hivm_ir::dialect::VerifyError> {
    let (_, nseg) = clauses_of(ir.op_name(op));
    if nseg > 0 {
        check_segments(ir, op, nseg)?;
    }
    let (src, dst) = (ir.operand(op, 0), ir.operand(op, 1));
    for (i, v) in [src, dst].iter().enumerate() {
        let t = ir.value_type(*v);
        if !(ir.type_data(t).is_tensor() || ir.type_data(t).is_memref()) {
            return Err(format!("operand #{i} must be tensor or memref, but got '{}'", type_str(ir, t)).into());
        }
    }
    let dt = ir.value_type(dst);
    match ir.results(op) {
        [] if ir.type_data(dt).is_tensor() => Err("expected one tensor result for a tensor destination".into()),
        [r] if ir.value_type(*r) != dt => Err(format!(
            "result type '{}' does not match destination type '{}'",
            type_str(ir, ir.value_type(*r)),
            type_str(ir, dt)
        )
        .into()),
        _ => Ok(()),
    }
}

// ----- structural checks MLIR derives from an op's ODS arguments -----

/// How many operands an op takes, as ODS declares it.
#[derive(Clone, Copy)]
pub(super) enum Arity {
    Zero,
    One,
    Exactly(usize),
    AtLeast(usize),
}

/// MLIR's trait checks in its order (zero results where `no_results`, no
/// successors, the operand count), with its words.
pub(super) fn check_arity(ir: &Ir, op: OpId, no_results: bool, operands: Arity) -> Result<(), VerifyError> {
    if no_results && !ir.results(op).is_empty() {
        return Err("requires zero results".into());
    }
    if !ir.successors(op).is_empty() {
        return Err(format!("requires 0 successors but found {}", ir.successors(op).len()).into());
    }
    let n = ir.operands(op).len();
    match operands {
        Arity::Zero if n != 0 => Err("requires zero operands".into()),
        Arity::One if n != 1 => Err("requires a single operand".into()),
        Arity::Exactly(k) if n != k => Err(format!("expected {k} operands, but found {n}").into()),
        Arity::AtLeast(k) if n < k => Err(format!("expected {k} or more operands, but found {n}").into()),
        _ => Ok(()),
    }
}

/// ODS's type-constraint failure: `operand #i must be <summary>, but got 'T'`.
pub(super) fn type_error(ir: &Ir, kind: &str, i: usize, summary: &str, t: Type) -> VerifyError {
    format!("{kind} #{i} must be {summary}, but got '{}'", type_str(ir, t)).into()
}

/// A `BoolAttr` (an `i1` integer attribute).
pub(super) fn is_bool_attr(ir: &Ir, a: Attribute) -> bool {
    matches!(ir.attr_data(a), AttrData::Integer { ty, .. } if ir.type_data(*ty).is_signless_int(1))
}

/// Parses an attribute that must be a `BoolAttr` (`true` / `false`), with
/// the error ODS-generated parsers give for another kind.
pub(super) fn parse_bool_attr(p: &mut Parser<'_>) -> PResult<Attribute> {
    let pos = p.pos();
    let a = p.parse_attribute(None)?;
    if !is_bool_attr(p.ir, a) {
        return p.error_at(pos, "invalid kind of attribute specified");
    }
    Ok(a)
}

/// Upstream `TensorOrMemref`: a ranked memref or a ranked tensor.
pub(super) fn is_tensor_or_memref(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::MemRef { .. } | TypeData::RankedTensor { .. })
}

/// MLIR's `DestinationStyleOpInterface` checks for a DPS op whose inits are
/// the operands in `inits` (the results are the tensor inits, in order).
pub(super) fn verify_dps(ir: &Ir, op: OpId, inits: std::ops::Range<usize>) -> Result<(), VerifyError> {
    let mut tensor_inits = Vec::new();
    for i in inits {
        let Some(&v) = ir.operands(op).get(i) else { break };
        let td = ir.type_data(ir.value_type(v));
        if td.is_tensor() {
            tensor_inits.push((i, ir.value_type(v)));
        } else if !td.is_memref() {
            return Err(format!("expected that operand #{i} is a tensor or a memref").into());
        }
    }
    let tensor_results = ir.results(op).iter().filter(|r| ir.type_data(ir.value_type(**r)).is_tensor()).count();
    if tensor_results != tensor_inits.len() {
        return Err(format!(
            "expected the number of tensor results ({tensor_results}) to be equal to the number of output tensors ({})",
            tensor_inits.len()
        )
        .into());
    }
    for (k, (i, t)) in tensor_inits.into_iter().enumerate() {
        let Some(&r) = ir.results(op).get(k) else { break };
        if ir.value_type(r) != t {
            return Err(format!(
                "expected type of operand #{i} ({}) to match type of corresponding result ({})",
                type_str(ir, t),
                type_str(ir, ir.value_type(r))
            )
            .into());
        }
    }
    Ok(())
}

// ----- set_mask_norm: `attr-dict` -----

fn parse_attr_dict_only(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)
}

fn print_attr_dict_only(p: &mut Printer<'_>, op: OpId) {
    p.print_optional_attr_dict(op, &[]);
}

fn verify_set_mask_norm(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_arity(ir, op, true, Arity::Zero)
}

// ----- set_ffts_base_addr: `attr-dict $ffts_base_addr` (an i64) -----

fn parse_set_ffts(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let u = p.parse_operand()?;
    let i64t = p.ir.int_type(64);
    let v = p.resolve_operand(&u, i64t)?;
    r.operands.push(v);
    Ok(())
}

fn print_set_ffts(p: &mut Printer<'_>, op: OpId) {
    p.print_optional_attr_dict(op, &[]);
    if let Some(&v) = p.ir.operands(op).first() {
        p.push(" ");
        p.print_value(v);
    }
}

fn verify_set_ffts(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_arity(ir, op, true, Arity::One)?;
    let t = ir.value_type(ir.operand(op, 0));
    if !ir.type_data(t).is_signless_int(64) {
        return Err(type_error(ir, "operand", 0, "64-bit signless integer", t));
    }
    Ok(())
}

// ----- set_ctrl: `$enable at ctrl[$idx] attr-dict` -----

fn parse_set_ctrl(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let enable = parse_bool_attr(p)?;
    push_attr(p, r, "enable", enable);
    p.expect_keyword("at")?;
    p.expect_keyword("ctrl")?;
    p.expect(Tok::LSquare, "'['")?;
    let pos = p.pos();
    let i64t = p.ir.int_type(64);
    let idx = p.parse_attribute(Some(i64t))?;
    if !matches!(p.ir.attr_data(idx), AttrData::Integer { .. }) {
        return p.error_at(pos, "invalid kind of attribute specified");
    }
    push_attr(p, r, "idx", idx);
    p.expect(Tok::RSquare, "']'")?;
    p.parse_optional_attr_dict(&mut r.attrs)
}

fn print_set_ctrl(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.push(" ");
    if let Some(a) = ir.get_attr(op, "enable") {
        p.print_attr(a, hivm_ir::printer::Elide::Must);
    }
    p.push(" at ctrl[");
    if let Some(a) = ir.get_attr(op, "idx") {
        p.print_attr(a, hivm_ir::printer::Elide::Must);
    }
    p.push("]");
    p.print_optional_attr_dict(op, &["enable", "idx"]);
}

fn verify_set_ctrl(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_arity(ir, op, true, Arity::Zero)?;
    let Some(enable) = ir.get_attr(op, "enable") else { return Err("requires attribute 'enable'".into()) };
    let Some(idx) = ir.get_attr(op, "idx") else { return Err("requires attribute 'idx'".into()) };
    if !is_bool_attr(ir, enable) {
        return Err("attribute 'enable' failed to satisfy constraint: bool attribute".into());
    }
    if !matches!(ir.attr_data(idx), AttrData::Integer { ty, .. } if ir.type_data(*ty).is_signless_int(64)) {
        return Err("attribute 'idx' failed to satisfy constraint: 64-bit signless integer attribute".into());
    }
    Ok(())
}

// ----- load_scale: `attr-dict ins($src : T) outs($dst : T) (is_transposed = b)? (-> T)?` -----
// Operands: src, dst (no segments; the init is operand 1).

fn single_group(p: &mut Parser<'_>, kw: &str) -> PResult<hivm_ir::Value> {
    p.expect_keyword(kw)?;
    p.expect(Tok::LParen, "'('")?;
    let u = p.parse_operand()?;
    let t = p.parse_colon_type()?;
    p.expect(Tok::RParen, "')'")?;
    p.resolve_operand(&u, t)
}

fn print_single_group(p: &mut Printer<'_>, kw: &str, v: hivm_ir::Value) {
    p.push(&format!(" {kw}("));
    p.print_value(v);
    p.push(" : ");
    p.print_type(p.ir.value_type(v));
    p.push(")");
}

fn parse_load_scale(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    p.parse_optional_attr_dict(&mut r.attrs)?;
    let src = single_group(p, "ins")?;
    let dst = single_group(p, "outs")?;
    if p.parse_optional_keyword("is_transposed") {
        p.expect(Tok::Equal, "'='")?;
        let a = parse_bool_attr(p)?;
        push_attr(p, r, "is_transposed", a);
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types.push(p.parse_type()?);
    }
    r.operands.extend([src, dst]);
    Ok(())
}

fn print_load_scale(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["is_transposed"]);
    for (kw, v) in ["ins", "outs"].into_iter().zip(ir.operands(op)) {
        print_single_group(p, kw, *v);
    }
    // A default-valued attribute prints only when it is not the default.
    if ir.get_attr(op, "is_transposed").is_some_and(|a| ir.as_int(a) != Some(0)) {
        p.push(" is_transposed = ");
        p.print_attr(ir.get_attr(op, "is_transposed").unwrap(), hivm_ir::printer::Elide::Must);
    }
    p.print_arrow_results(op);
}

fn verify_load_scale(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    check_arity(ir, op, false, Arity::Exactly(2))?;
    if let Some(a) = ir.get_attr(op, "is_transposed")
        && !is_bool_attr(ir, a)
    {
        return Err("attribute 'is_transposed' failed to satisfy constraint: bool attribute".into());
    }
    for i in 0..2 {
        let t = ir.value_type(ir.operand(op, i));
        if !is_tensor_or_memref(ir, t) {
            return Err(type_error(ir, "operand", i, "Tensor or Memref", t));
        }
    }
    if ir.results(op).len() > 1 {
        return Err(
            format!("result group starting at #0 requires 0 or 1 element, but found {}", ir.results(op).len()).into()
        );
    }
    if let Some(&r) = ir.results(op).first()
        && !matches!(ir.type_data(ir.value_type(r)), TypeData::RankedTensor { .. })
    {
        return Err(type_error(ir, "result", 0, "ranked tensor of any type values", ir.value_type(r)));
    }
    verify_dps(ir, op, 1..2)
}

/// The operand range of the inits (`outs`) of the HIVM destination-style
/// ops whose inits are not found by the `ins, outs, ...` segment
/// convention: the local matmuls keep upstream's operand order (inputs,
/// then C), and `load_scale` has no segments. `None` for other ops.
pub fn dps_inits(ir: &Ir, op: OpId) -> Option<std::ops::Range<usize>> {
    let seg = match ir.op_name(op) {
        "hivm.hir.load_scale" => return (ir.operands(op).len() >= 2).then_some(1..2),
        "hivm.hir.mmadL1" => 6,
        "hivm.hir.mmadmxL1" => 8,
        "hivm.hir.matmul" => 10,
        _ => return None,
    };
    let sizes = crate::util::segments(ir, op);
    let start: usize = sizes.iter().take(seg).sum();
    let len = *sizes.get(seg)?;
    (start + len <= ir.operands(op).len()).then_some(start..start + len)
}

/// The pipe(s) an op occupies, as the sync solver sees them (spec sync-solver.md §1.3).
pub fn op_pipes(ir: &Ir, op: OpId) -> Vec<String> {
    let space = |v: hivm_ir::Value| -> Option<String> {
        match ir.type_data(ir.value_type(v)) {
            TypeData::MemRef { memory_space: Some(a), .. } => enum_value(ir, *a, "address_space").map(str::to_string),
            _ => None,
        }
    };
    let name = ir.op_name(op);
    let fixed = match name {
        "hivm.hir.load" | "hivm.hir.nd2nz" | "hivm.hir.load_scale" => Some("PIPE_MTE2"),
        "hivm.hir.store" | "hivm.hir.nz2nd" => Some("PIPE_MTE3"),
        "hivm.hir.fixpipe" => Some("PIPE_FIX"),
        "hivm.hir.l12ub" => Some("PIPE_MTE1"),
        _ if name.starts_with("hivm.hir.v") && name != "hivm.hir.vbrc" => Some("PIPE_V"),
        _ => None,
    };
    if let Some(p) = fixed {
        return vec![p.to_string()];
    }
    match name {
        "hivm.hir.mmadL1" | "hivm.hir.mmadmxL1" => vec!["PIPE_MTE1".to_string(), "PIPE_M".to_string()],
        "hivm.hir.matmul" => vec!["PIPE_MTE2".to_string(), "PIPE_MTE3".to_string()],
        super::custom::CUSTOM | super::custom::MACRO => {
            super::custom::pipes(ir, op).into_iter().map(str::to_string).collect()
        }
        "hivm.hir.vbrc" => {
            // Broadcasting into L1 is a DMA; into UB it is vector work.
            let into_l1 = space(ir.operand(op, 1)).as_deref() == Some("cbuf");
            vec![if into_l1 { "PIPE_MTE2" } else { "PIPE_V" }.to_string()]
        }
        "hivm.hir.copy" => {
            let (s, d) = (space(ir.operand(op, 0)), space(ir.operand(op, 1)));
            let pipe = match (s.as_deref(), d.as_deref()) {
                (Some("ub"), Some("ub")) => "PIPE_V",
                (Some("cc"), Some("gm")) => "PIPE_FIX",
                (Some("gm"), Some("cbuf")) => "PIPE_MTE2",
                (Some("ub"), Some("cbuf")) => "PIPE_MTE3",
                _ => "PIPE_UNASSIGNED",
            };
            vec![pipe.to_string()]
        }
        _ => Vec::new(),
    }
}

pub fn defs() -> Vec<OpDef> {
    let flag = &["set_pipe", "wait_pipe", "static_event_id"];
    let mut v = vec![
        OpDef::new("hivm.hir.set_flag").inherent(flag).assembly(parse_flag, print_flag).verifier(verify_flag),
        OpDef::new("hivm.hir.sync_block_set")
            .inherent(&["tcore_type", "tpipe", "pipe", "static_flag_id", "tsync_instr_mode", "operandSegmentSizes"])
            .assembly(parse_sync_block_set, print_sync_block)
            .verifier(verify_sync_block),
        OpDef::new("hivm.hir.sync_block_wait")
            .inherent(&["tcore_type", "tpipe", "pipe", "static_flag_id", "tsync_instr_mode"])
            .assembly(parse_sync_block_wait, print_sync_block)
            .verifier(verify_sync_block),
        OpDef::new("hivm.hir.wait_flag").inherent(flag).assembly(parse_flag, print_flag).verifier(verify_flag),
        OpDef::new("hivm.hir.pipe_barrier").inherent(&["pipe"]).assembly(parse_barrier, print_barrier),
        OpDef::new("hivm.hir.pointer_cast")
            .inherent(&["operandSegmentSizes"])
            .assembly(parse_pointer_cast, print_pointer_cast)
            .verifier(verify_pointer_cast),
        OpDef::new("hivm.hir.load")
            .inherent(&[
                "operandSegmentSizes",
                "pad_mode",
                "init_out_buffer",
                "may_implicit_transpose_with_last_axis",
                "eviction_policy",
                "tcoretype",
            ])
            .assembly(parse_dma, print_dma)
            .verifier(verify_dma),
        OpDef::new("hivm.hir.store")
            .inherent(&["atomic_kind", "may_implicit_transpose_with_last_axis"])
            .assembly(parse_dma, print_dma)
            .verifier(verify_dma),
        OpDef::new("hivm.hir.copy")
            .inherent(&["operandSegmentSizes", "pad_mode", "collapse_reassociation"])
            .assembly(parse_dma, print_dma)
            .verifier(verify_dma),
        OpDef::new("hivm.hir.load_scale")
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["is_transposed"])
            .assembly(parse_load_scale, print_load_scale)
            .verifier(verify_load_scale),
        OpDef::new("hivm.hir.set_mask_norm")
            .traits(Traits::ZERO_REGIONS)
            .assembly(parse_attr_dict_only, print_attr_dict_only)
            .verifier(verify_set_mask_norm),
        OpDef::new("hivm.hir.set_ffts_base_addr")
            .traits(Traits::ZERO_REGIONS)
            .assembly(parse_set_ffts, print_set_ffts)
            .verifier(verify_set_ffts),
        OpDef::new("hivm.hir.set_ctrl")
            .traits(Traits::ZERO_REGIONS)
            .inherent(&["enable", "idx"])
            .assembly(parse_set_ctrl, print_set_ctrl)
            .verifier(verify_set_ctrl),
    ];
    for q in ["get_block_idx", "get_block_num", "get_sub_block_idx", "get_sub_block_num"] {
        let name: &'static str = Box::leak(format!("hivm.hir.{q}").into_boxed_str());
        v.push(OpDef::new(name).traits(Traits::PURE).assembly(parse_query, print_query).verifier(verify_query));
    }
    // The sync solver's per-loop iteration counter (not pure: it advances).
    v.push(OpDef::new("hivm.hir.multi_buffer_counter").assembly(parse_query, print_query).verifier(verify_query));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = r#"
func.func @k(%gm: memref<4xui8, #hivm.address_space<gm>>, %l1: memref<4xui8, #hivm.address_space<cbuf>>,
             %a: memref<16xf8E5M2>, %s: memref<1xui8>, %c: memref<16xf32>, %e: i64, %bias: memref<16xf32>) {
  %t = arith.constant true
  %i = arith.constant 16 : index
  hivm.hir.set_ffts_base_addr %e
  hivm.hir.set_mask_norm
  hivm.hir.set_ctrl false at ctrl[60]
  hivm.hir.load_scale ins(%gm : memref<4xui8, #hivm.address_space<gm>>) outs(%l1 : memref<4xui8, #hivm.address_space<cbuf>>)
  hivm.hir.mmadmxL1 ins(%a, %a, %s, %s, %t, %i, %i, %i, %bias : memref<16xf8E5M2>, memref<16xf8E5M2>, memref<1xui8>, memref<1xui8>, i1, index, index, index, memref<16xf32>) outs(%c : memref<16xf32>) sync_related_args(%e, %e : i64, i64)
  return
}
"#;

    fn hivm_ops(ir: &Ir, m: OpId) -> Vec<OpId> {
        let mut v = Vec::new();
        ir.walk(m, &mut |o| {
            if ir.op_name(o).starts_with("hivm.") {
                v.push(o);
            }
        });
        v
    }

    #[test]
    fn sync_solver_sees_pipes_and_inits() {
        let mut ir = Ir::new(crate::shared_registry());
        let m = {
            let mut p = Parser::new(&mut ir, KERNEL, "k.mlir", 0);
            p.parse_module().map_err(|e| e.msg).unwrap()
        };
        assert!(hivm_ir::verifier::verify_all(&ir, m).is_empty());
        let ops = hivm_ops(&ir, m);
        let pipes: Vec<Vec<String>> = ops.iter().map(|o| op_pipes(&ir, *o)).collect();
        let none: Vec<String> = Vec::new();
        assert_eq!(pipes[..3], [none.clone(), none.clone(), none]);
        assert_eq!(pipes[3], ["PIPE_MTE2"]);
        assert_eq!(pipes[4], ["PIPE_MTE1", "PIPE_M"]);
        // load_scale: (src, dst); mmadmxL1: C is operand 8, after the eight inputs.
        assert_eq!(dps_inits(&ir, ops[3]), Some(1..2));
        assert_eq!(dps_inits(&ir, ops[4]), Some(8..9));
        let args = ir.block_args(ir.parent_block(ops[4]).unwrap());
        assert_eq!(ir.operand(ops[4], 8), args[4]);
        assert_eq!(dps_inits(&ir, ops[0]), None);
    }
}

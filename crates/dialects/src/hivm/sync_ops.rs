//! HIVM synchronisation ops: flags between pipes of one core
//! (`set_flag`, `wait_flag`, `pipe_barrier`), flags between cores
//! (`sync_block*`), and the block locks.

use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::opspec::{
    AttrDef, AttrKind, Compiled, CustomDirective, Fixed, FormatState, OpSpec, ValueDef, Var, attr, one, opt, opt_attr,
    optional_default_attr, parse_attr, print_attr,
};
use hivm_ir::parser::{PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{Ir, OpDef, OpId};

use super::attrs::kinds::{EVENT, PIPE, SYNC_BLOCK_INSTR_MODE, SYNC_BLOCK_MODE, TCORE_TYPE};
use crate::util::type_str;

const I64: Fixed = Fixed::Int(64);

/// `custom<EventID>($static_event_id, $dynamic_event_id)`: `<EVENT_ID0>` or `%v`.
const EVENT_ID: CustomDirective =
    CustomDirective { name: "EventID", parse: parse_event_id, print: print_static_or_dynamic };

/// `custom<FlagID>($static_flag_id, $dynamic_flag_id)`: `3` or `%v`.
const FLAG_ID: CustomDirective =
    CustomDirective { name: "FlagID", parse: parse_flag_id, print: print_static_or_dynamic };

fn dynamic_slot(args: &[Var]) -> usize {
    match args[1] {
        Var::Operand(i) => i,
        _ => unreachable!("the second argument is the dynamic operand"),
    }
}

fn parse_event_id(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    if p.is(Tok::PercentIdent) {
        let u = p.parse_operand()?;
        st.operands[dynamic_slot(args)].push(u);
    } else {
        let a = parse_attr(p, EVENT)?;
        st.attrs.push(("static_event_id", a));
    }
    Ok(())
}

fn parse_flag_id(p: &mut Parser<'_>, st: &mut FormatState, args: &[Var]) -> PResult<()> {
    if p.is(Tok::PercentIdent) {
        let u = p.parse_operand()?;
        st.operands[dynamic_slot(args)].push(u);
    } else {
        let n = crate::util::parse_int_field(p, st.op, "flag id", 64)?;
        let t = p.ir.int_type(64);
        let a = p.ir.int_attr(n as i128, t);
        st.attrs.push(("static_flag_id", a));
    }
    Ok(())
}

fn print_static_or_dynamic(p: &mut Printer<'_>, c: &Compiled, op: OpId, args: &[Var]) {
    let ir = p.ir;
    let Var::Attr(s) = args[0] else { return };
    let a = &c.spec.attrs[s];
    match (ir.get_attr(op, a.name), c.operand_group(ir, op, dynamic_slot(args)).first()) {
        // A flag id prints as its bare value, an event stripped (`<EVENT_ID0>`).
        (Some(v), _) => match ir.as_int(v) {
            Some(n) => p.push(&n.to_string()),
            None => print_attr(p, a.kind, v),
        },
        (None, Some(v)) => p.print_value(*v),
        (None, None) => {}
    }
}

const FLAG_OPERANDS: &[ValueDef] = &[opt("dynamic_event_id").of(I64)];
const FLAG_ATTRS: &[AttrDef] = &[attr("set_pipe", PIPE), attr("wait_pipe", PIPE), opt_attr("static_event_id", EVENT)];
const FLAG_FORMAT: &str =
    "`[` $set_pipe `,` $wait_pipe `,` custom<EventID>($static_event_id, $dynamic_event_id) `]` attr-dict";

fn verify_flag(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let dynamic = ir.operands(op).len();
    let stat = ir.get_attr(op, "static_event_id").is_some();
    if (dynamic == 1) == stat {
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

fn verify_sync_block_flag(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(c) = ir.op_def(op).and_then(|d| d.spec) else { return Ok(()) };
    let dynamic = c.operand_index("dynamic_flag_id").map_or(0, |i| c.operand_group(ir, op, i).len());
    let stat = ir.get_attr(op, "static_flag_id").is_some();
    if stat && dynamic > 0 {
        return Err("Only one flag ID is supported!".into());
    }
    if !stat && dynamic == 0 {
        return Err("Flag ID is needed!".into());
    }
    Ok(())
}

/// The format both `sync_block_set` and `sync_block_wait` start with.
macro_rules! sync_block_flag_format {
    () => {
        "attr-dict `[` $tcore_type `,` $tpipe `,` $pipe`]` `flag` `=` custom<FlagID>($static_flag_id, $dynamic_flag_id) "
    };
}

const LOCK_FORMAT: &str = "attr-dict `lock_var` `(` $lock_var `:` type($lock_var) `)`";

/// `set_flag` and `wait_flag`.
const fn flag(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: FLAG_OPERANDS,
        attrs: FLAG_ATTRS,
        format: FLAG_FORMAT,
        customs: &[EVENT_ID],
        verify: Some(verify_flag),
        ..OpSpec::EMPTY
    }
}

const PIPE_BARRIER: OpSpec = OpSpec {
    name: "hivm.hir.pipe_barrier",
    attrs: &[attr("pipe", PIPE)],
    format: "`[` $pipe `]` attr-dict",
    ..OpSpec::EMPTY
};

const SYNC_BLOCK_ATTRS: &[AttrDef] = &[
    attr("tcore_type", TCORE_TYPE),
    attr("tpipe", PIPE),
    attr("pipe", PIPE),
    opt_attr("static_flag_id", AttrKind::Any),
    optional_default_attr("tsync_instr_mode", SYNC_BLOCK_INSTR_MODE, "INTRA_BLOCK_SYNCHRONIZATION"),
];

const SYNC_BLOCK_SET: OpSpec = OpSpec {
    name: "hivm.hir.sync_block_set",
    operands: &[opt("dynamic_flag_id").of(I64), opt("ffts_base_addr").of(I64)],
    attrs: SYNC_BLOCK_ATTRS,
    segments: true,
    format: concat!(
        sync_block_flag_format!(),
        "(`ffts_base_addr` `=` $ffts_base_addr^)? (`sync_instr_mode` `=` $tsync_instr_mode^)?"
    ),
    customs: &[FLAG_ID],
    verify: Some(verify_sync_block_flag),
    ..OpSpec::EMPTY
};

const SYNC_BLOCK_WAIT: OpSpec = OpSpec {
    name: "hivm.hir.sync_block_wait",
    operands: &[opt("dynamic_flag_id").of(I64)],
    attrs: SYNC_BLOCK_ATTRS,
    format: concat!(sync_block_flag_format!(), "(`sync_instr_mode` `=` $tsync_instr_mode^)?"),
    customs: &[FLAG_ID],
    verify: Some(verify_sync_block_flag),
    ..OpSpec::EMPTY
};

const SYNC_BLOCK: OpSpec = OpSpec {
    name: "hivm.hir.sync_block",
    operands: &[opt("ffts_base_addr").of(I64)],
    attrs: &[
        attr("sync_block_mode", SYNC_BLOCK_MODE),
        opt_attr("flag_id", AttrKind::Any),
        opt_attr("tcube_pipe", PIPE),
        opt_attr("cube_pipe", PIPE),
        opt_attr("tvector_pipe", PIPE),
        opt_attr("vector_pipe", PIPE),
    ],
    format: "attr-dict `[` $sync_block_mode (`,` $flag_id^)?`]` \
             (`ffts_base_addr` `=` $ffts_base_addr^)? (`tcube_pipe` `=` $tcube_pipe^)? \
             (`cube_pipe` `=` $cube_pipe^)? (`tvector_pipe` `=` $tvector_pipe^)? \
             (`vector_pipe` `=` $vector_pipe^)?",
    verify: Some(verify_sync_block),
    ..OpSpec::EMPTY
};

/// Which pipes each mode must and must not name, and that the cube's are
/// cube pipes and the vector's vector pipes (a pipe both cores have, S or
/// MTE2, fits either), with upstream's messages.
fn verify_sync_block(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    use super::attrs::enum_value;
    let mode = ir.get_attr(op, "sync_block_mode").and_then(|a| enum_value(ir, a, "sync_block_mode"));
    let Some(mode) = mode else { return Ok(()) };
    let pipe = |k: &str| ir.get_attr(op, k).and_then(|a| enum_value(ir, a, "pipe"));
    let has = |k: &str| ir.get_attr(op, k).is_some();
    let not_defined = |keys: &[&str]| -> Result<(), VerifyError> {
        match keys.iter().find(|k| has(k)) {
            Some(k) => Err(format!("{k} should not be defined!").into()),
            None => Ok(()),
        }
    };
    // Cube-only pipes, vector-only pipes; the others are both cores'.
    let fits = |p: Option<&str>, cube: bool| match p {
        Some("PIPE_M" | "PIPE_MTE1" | "PIPE_FIX") => cube,
        Some("PIPE_V" | "PIPE_MTE3") => !cube,
        _ => true,
    };
    if matches!(mode, "BARRIER_CUBE" | "BARRIER_VECTOR") {
        not_defined(&["tvector_pipe", "tcube_pipe", "vector_pipe", "cube_pipe"])?;
    }
    if matches!(mode, "ALL_CUBE" | "ALL") {
        if !has("tcube_pipe") {
            return Err("tcube_pipe should be defined!".into());
        }
        if !fits(pipe("tcube_pipe"), true) {
            return Err("tcube_pipe of should match CUBE core type!".into());
        }
        if has("cube_pipe") && !fits(pipe("cube_pipe"), true) {
            return Err("cube_pipe should match CUBE core type!".into());
        }
        if mode == "ALL_CUBE" {
            not_defined(&["tvector_pipe", "vector_pipe"])?;
        }
    }
    if matches!(mode, "ALL_VECTOR" | "ALL_SUB_VECTOR" | "ALL") {
        if !has("tvector_pipe") {
            return Err("tvector_pipe should be defined!".into());
        }
        if !fits(pipe("tvector_pipe"), false) {
            return Err("tvector_pipe of ALL_VECTOR should match VECTOR core type!".into());
        }
        if has("vector_pipe") && !fits(pipe("vector_pipe"), false) {
            return Err("vector_pipe should match VECTOR core type!".into());
        }
        if mode != "ALL" {
            not_defined(&["tcube_pipe", "cube_pipe"])?;
        }
    }
    Ok(())
}

/// `sync_block_lock`, `sync_block_unlock`, `free_lock_var`.
const fn lock(name: &'static str) -> OpSpec {
    const LOCK_VAR: &[ValueDef] = &[one("lock_var")];
    OpSpec { name, operands: LOCK_VAR, format: LOCK_FORMAT, ..OpSpec::EMPTY }
}

const CREATE_SYNC_BLOCK_LOCK: OpSpec = OpSpec {
    name: "hivm.hir.create_sync_block_lock",
    operands: &[opt("lockArg")],
    results: &[one("memref")],
    format: "(`from` $lockArg^)? attr-dict `:` (`from` type($lockArg)^ `to`)? type($memref)",
    verify: Some(verify_create_sync_block_lock),
    ..OpSpec::EMPTY
};

fn verify_create_sync_block_lock(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let Some(&r) = ir.results(op).first() else { return Ok(()) };
    if let hivm_ir::TypeData::MemRef { shape, .. } = ir.type_data(ir.value_type(r))
        && shape.contains(&hivm_ir::types::DYNAMIC)
    {
        // Upstream repeats the op name inside its `emitOpError` message.
        return Err("'create_sync_block_lock' op should only support static shape".into());
    }
    Ok(())
}

pub fn defs() -> Vec<OpDef> {
    [
        flag("hivm.hir.set_flag"),
        flag("hivm.hir.wait_flag"),
        PIPE_BARRIER,
        SYNC_BLOCK_SET,
        SYNC_BLOCK_WAIT,
        SYNC_BLOCK,
        lock("hivm.hir.sync_block_lock"),
        lock("hivm.hir.sync_block_unlock"),
        lock("hivm.hir.free_lock_var"),
        CREATE_SYNC_BLOCK_LOCK,
    ]
    .into_iter()
    .map(OpSpec::def)
    .collect()
}

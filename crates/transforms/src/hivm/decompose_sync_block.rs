//! `hivm-decompose-op`, the part that lowers `hivm.hir.sync_block` (as
//! upstream's `SyncBlockOpLowering`): a barrier across cores becomes a
//! `pipe_barrier` on the core's own pipe, then `sync_block_set` /
//! `sync_block_wait` pairs on FFTS flags.
//!
//! * `ALL_CUBE`, `ALL_VECTOR`: barrier on the `t*_pipe`, then a set and a wait
//!   of the `flag_id` (default 15 for cube, 14 for vector) between blocks;
//!   `ALL_SUB_VECTOR` is the vector form between the sub-blocks of a block.
//! * `BARRIER_CUBE`, `BARRIER_VECTOR`: `pipe_barrier[<PIPE_ALL>]` only.
//! * `ALL`: ignores `flag_id`. In a function with a known core type (AIC or
//!   AIV) a barrier on its `t*_pipe`; outside a MIX module, that core's set and
//!   wait between blocks (flag 13 cube, 12 vector); in a MIX module, the cube
//!   first waits for its vectors (flag 10), syncs with the other cubes
//!   (flag 13) and releases its vectors (flag 11), which set flag 10 and wait
//!   for flag 11. MIX and AIC_OR_AIV functions get nothing.
//!
//! A flag cannot be set or waited on from `PIPE_ALL`: as the set's pipe it
//! becomes `PIPE_FIX` (cube) or `PIPE_MTE3` (vector), as the wait's `PIPE_S`;
//! the barrier keeps `PIPE_ALL`. A missing `cube_pipe` / `vector_pipe` is the
//! `t*_pipe`.
//!
//! The other ops upstream's pass decomposes (vector casts, reductions,
//! atomics, ...) are left untouched. Host functions and vector functions are
//! skipped, as upstream.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Attribute, Ir, OpId, Value};

use hivm_dialects::util::{opaque_arg, opaque_attr, segment_attr};

use super::{defined_functions, enclosing, in_host_function};

pub struct DecomposeOp;

impl Pass for DecomposeOp {
    fn name(&self) -> &str {
        "hivm-decompose-op"
    }

    fn display_name(&self) -> &str {
        "HIVMDecomposeOp"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for f in defined_functions(ir, root) {
            if ir.has_attr(f, "hivm.vector_function") || is_host(ir, f) {
                continue;
            }
            let mix_module = enclosing(ir, f, "builtin.module")
                .and_then(|m| ir.get_attr(m, "hivm.module_core_type"))
                .and_then(|a| opaque_arg(ir, a, "module_core_type"))
                == Some("MIX");
            let core = match ir.get_attr(f, "hivm.func_core_type") {
                None => FuncCore::Unknown,
                Some(a) => match opaque_arg(ir, a, "func_core_type") {
                    Some("AIC") => FuncCore::Aic,
                    Some("AIV") => FuncCore::Aiv,
                    Some("MIX" | "AIC_OR_AIV") => FuncCore::Unknown,
                    _ => {
                        return Err(Diagnostic::error(
                            ir.loc(f),
                            "'hivm.func_core_type' must be a #hivm.func_core_type<...> attribute",
                        ));
                    }
                },
            };
            let mut ops = Vec::new();
            ir.walk(f, &mut |o| {
                if ir.is_op(o, "hivm.hir.sync_block") {
                    ops.push(o);
                }
            });
            for op in ops {
                lower(ir, op, mix_module, core)?;
            }
        }
        Ok(())
    }
}

/// A function marked `hacc.function_kind = #hacc.function_kind<HOST>`.
fn is_host(ir: &Ir, f: OpId) -> bool {
    ir.get_attr(f, "hacc.function_kind").and_then(|a| opaque_arg(ir, a, "function_kind")) == Some("HOST")
        // A nested function in a host function is host code too.
        || in_host_function(ir, f)
}

#[derive(Clone, Copy, PartialEq)]
enum FuncCore {
    Aic,
    Aiv,
    /// MIX, AIC_OR_AIV, or no `hivm.func_core_type`.
    Unknown,
}

// Flag ids the lowering uses when the op names none (and always for ALL).
const CUBE_FLAG: i128 = 15;
const VECTOR_FLAG: i128 = 14;
const ALL_CUBE_FLAG: i128 = 13;
const ALL_VECTOR_FLAG: i128 = 12;
const ALL_CUBE_TO_VECTOR_FLAG: i128 = 11;
const ALL_VECTOR_TO_CUBE_FLAG: i128 = 10;

const INTER_BLOCK: &str = "INTER_BLOCK_SYNCHRONIZATION";
const INTRA_BLOCK: &str = "INTRA_BLOCK_SYNCHRONIZATION";
const INTER_SUBBLOCK: &str = "INTER_SUBBLOCK_SYNCHRONIZATION";

/// What every set / wait of one `sync_block` shares.
struct Emit {
    at: OpId,
    loc: Attribute,
    ffts: Option<Value>,
}

impl Emit {
    fn barrier(&self, ir: &mut Ir, pipe: &str) {
        let a = pipe_attr(ir, pipe);
        Builder::new(ir, InsertPoint::Before(self.at)).op(
            "hivm.hir.pipe_barrier",
            &[],
            &[],
            vec![("pipe", a)],
            self.loc,
        );
    }

    /// `sync_block_set` when `set`, then `sync_block_wait` when `wait`. One
    /// call describes both ends of a flag, each op naming the core it runs
    /// on; a function on one side of a cube/vector pair emits only its end.
    fn sync(
        &self,
        ir: &mut Ir,
        (set_core, wait_core): (&str, &str),
        mode: &str,
        (tpipe, pipe): (&str, &str),
        flag: Attribute,
        (set, wait): (bool, bool),
    ) {
        let (tp, p) = (pipe_attr(ir, tpipe), pipe_attr(ir, pipe));
        let m = opaque_attr(ir, "hivm", &format!("sync_block_instr_mode<{mode}>"));
        if set {
            let core = opaque_attr(ir, "hivm", &format!("tcore_type<{set_core}>"));
            let ffts: Vec<Value> = self.ffts.into_iter().collect();
            let seg = segment_attr(ir, &[0, ffts.len()]);
            let attrs = vec![
                ("tcore_type", core),
                ("tpipe", tp),
                ("pipe", p),
                ("static_flag_id", flag),
                ("tsync_instr_mode", m),
                ("operandSegmentSizes", seg),
            ];
            Builder::new(ir, InsertPoint::Before(self.at)).op("hivm.hir.sync_block_set", &ffts, &[], attrs, self.loc);
        }
        if wait {
            let core = opaque_attr(ir, "hivm", &format!("tcore_type<{wait_core}>"));
            let attrs = vec![
                ("tcore_type", core),
                ("tpipe", tp),
                ("pipe", p),
                ("static_flag_id", flag),
                ("tsync_instr_mode", m),
            ];
            Builder::new(ir, InsertPoint::Before(self.at)).op("hivm.hir.sync_block_wait", &[], &[], attrs, self.loc);
        }
    }
}

fn pipe_attr(ir: &mut Ir, pipe: &str) -> Attribute {
    opaque_attr(ir, "hivm", &format!("pipe<{pipe}>"))
}

fn i64_flag(ir: &mut Ir, n: i128) -> Attribute {
    let t = ir.int_type(64);
    ir.int_attr(n, t)
}

/// The set's pipe and the wait's pipe once `PIPE_ALL` is replaced (the set
/// side by the core's last pipe, the wait side by the scalar pipe).
fn flag_pipes(tpipe: &str, pipe: &str, set_side_all: &'static str) -> (String, String) {
    let t = if tpipe == "PIPE_ALL" { set_side_all } else { tpipe };
    let p = if pipe == "PIPE_ALL" { "PIPE_S" } else { pipe };
    (t.to_string(), p.to_string())
}

fn lower(ir: &mut Ir, op: OpId, mix_module: bool, core: FuncCore) -> Result<(), Diagnostic> {
    let loc = ir.loc(op);
    let err = |m: String| Diagnostic::error(loc, m);
    let pipe_of = |ir: &Ir, name: &str| -> Result<Option<String>, Diagnostic> {
        match ir.get_attr(op, name) {
            None => Ok(None),
            Some(a) => opaque_arg(ir, a, "pipe")
                .map(|p| Some(p.to_string()))
                .ok_or_else(|| err(format!("'hivm.hir.sync_block' op {name} must be a #hivm.pipe<...> attribute"))),
        }
    };
    // The target pipe a mode needs, and the waiting pipe (the target pipe
    // when not given).
    let pipes = |ir: &Ir, t: &str, w: &str| -> Result<(String, String), Diagnostic> {
        let tp = pipe_of(ir, t)?
            .ok_or_else(|| err(format!("'hivm.hir.sync_block' op {t} should be defined for this sync_block_mode")))?;
        let p = pipe_of(ir, w)?.unwrap_or_else(|| tp.clone());
        Ok((tp, p))
    };
    let mode = ir
        .get_attr(op, "sync_block_mode")
        .and_then(|a| opaque_arg(ir, a, "sync_block_mode"))
        .ok_or_else(|| err("'hivm.hir.sync_block' op needs a #hivm.sync_block_mode<...> attribute".into()))?
        .to_string();
    let flag = match ir.get_attr(op, "flag_id") {
        None => None,
        Some(a) if ir.as_int(a).is_some() => Some(a),
        Some(_) => return Err(err("'hivm.hir.sync_block' op flag_id must be an integer attribute".into())),
    };
    let ffts = ir.operands(op).first().copied();
    let e = Emit { at: op, loc, ffts };
    match mode.as_str() {
        "BARRIER_CUBE" | "BARRIER_VECTOR" => e.barrier(ir, "PIPE_ALL"),
        "ALL_CUBE" => {
            let (tp, p) = pipes(ir, "tcube_pipe", "cube_pipe")?;
            let flag = flag.unwrap_or_else(|| i64_flag(ir, CUBE_FLAG));
            e.barrier(ir, &tp);
            let (tp, p) = flag_pipes(&tp, &p, "PIPE_FIX");
            e.sync(ir, ("CUBE", "CUBE"), INTER_BLOCK, (&tp, &p), flag, (true, true));
        }
        "ALL_VECTOR" | "ALL_SUB_VECTOR" => {
            let (tp, p) = pipes(ir, "tvector_pipe", "vector_pipe")?;
            let flag = flag.unwrap_or_else(|| i64_flag(ir, VECTOR_FLAG));
            let instr = if mode == "ALL_VECTOR" { INTER_BLOCK } else { INTER_SUBBLOCK };
            e.barrier(ir, &tp);
            let (tp, p) = flag_pipes(&tp, &p, "PIPE_MTE3");
            e.sync(ir, ("VECTOR", "VECTOR"), instr, (&tp, &p), flag, (true, true));
        }
        "ALL" => {
            let (tcube, cube) = pipes(ir, "tcube_pipe", "cube_pipe")?;
            let (tvec, vec) = pipes(ir, "tvector_pipe", "vector_pipe")?;
            match core {
                FuncCore::Aic => e.barrier(ir, &tcube),
                FuncCore::Aiv => e.barrier(ir, &tvec),
                FuncCore::Unknown => {}
            }
            let (tcube, cube) = flag_pipes(&tcube, &cube, "PIPE_FIX");
            let (tvec, vec) = flag_pipes(&tvec, &vec, "PIPE_MTE3");
            let [cube_flag, vec_flag, to_vec, to_cube] =
                [ALL_CUBE_FLAG, ALL_VECTOR_FLAG, ALL_CUBE_TO_VECTOR_FLAG, ALL_VECTOR_TO_CUBE_FLAG]
                    .map(|n| i64_flag(ir, n));
            match (mix_module, core) {
                (false, FuncCore::Aic) => {
                    e.sync(ir, ("CUBE", "CUBE"), INTER_BLOCK, (&tcube, &cube), cube_flag, (true, true));
                }
                (false, FuncCore::Aiv) => {
                    e.sync(ir, ("VECTOR", "VECTOR"), INTER_BLOCK, (&tvec, &vec), vec_flag, (true, true));
                }
                (true, FuncCore::Aic) => {
                    e.sync(ir, ("VECTOR", "CUBE"), INTRA_BLOCK, (&tvec, &cube), to_cube, (false, true));
                    e.sync(ir, ("CUBE", "CUBE"), INTER_BLOCK, (&tcube, &cube), cube_flag, (true, true));
                    e.sync(ir, ("CUBE", "VECTOR"), INTRA_BLOCK, (&tcube, &vec), to_vec, (true, false));
                }
                (true, FuncCore::Aiv) => {
                    e.sync(ir, ("VECTOR", "CUBE"), INTRA_BLOCK, (&tvec, &cube), to_cube, (true, false));
                    e.sync(ir, ("CUBE", "VECTOR"), INTRA_BLOCK, (&tcube, &vec), to_vec, (false, true));
                }
                (_, FuncCore::Unknown) => {}
            }
        }
        other => return Err(err(format!("'hivm.hir.sync_block' op has unsupported sync_block_mode '{other}'"))),
    }
    ir.erase_op(op);
    Ok(())
}

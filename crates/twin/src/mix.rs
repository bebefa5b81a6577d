//! Mix kernels: an entry with `hivm.func_core_type<MIX>` (or, unmarked,
//! `mix_mode = "mix"`) and cross-core flags (`is_mix`) runs per block on
//! one cube core and two vector cores, as 910B pairs them. Each core is an interpreter of its own on a
//! thread of its own, executing its side of the function (`interp/mix.rs`)
//! with its own on-chip memories and pipes; global memory is shared. Only
//! one core runs at a time, handing over at a `sync_block_wait` that must
//! wait, so a run is deterministic; the checker sees cross-core order only
//! through the flags (`sync/cross.rs`).

use std::sync::Arc;

use hivm_ir::{Ir, OpId};

use crate::interp::{ABORTED, Config, Interp, MixCore, RunError};
use crate::memory::Memory;
use crate::sync::{Report, TraceLine, cross};
use crate::value::{MemRefVal, Val};

/// The kernel, handed to the cores' threads. `Ir` is not `Sync` (its
/// symbol cache is a `RefCell`), but the cores never use it at the same
/// time: a core thread touches it only between being given the turn
/// (`Shared::start`, a granted `sync_block_wait`) and handing it on, each
/// step under the block's one mutex, while the calling thread only waits
/// for them to end.
struct TurnRef<'a>(&'a Ir);

// SAFETY: see above; accesses to the `Ir` are serialised by the turn.
unsafe impl Sync for TurnRef<'_> {}

impl<'a> TurnRef<'a> {
    fn get(&self) -> &'a Ir {
        self.0
    }
}

/// Whether `entry` is a mix kernel split for real cores: marked as one
/// (`hivm.func_core_type<MIX>`, or unmarked with `mix_mode = "mix"`) and
/// synchronised across cores (it has `sync_block_set`/`sync_block_wait`).
/// A kernel marked mix before cross-core synchronisation (Triton's
/// `tl.dot` kernels at the linalg stage, a MIX function holding the global
/// `matmul`) runs on one core as before: each of its ops is whole.
pub fn is_mix(ir: &Ir, entry: OpId) -> bool {
    let core = ir
        .get_attr(entry, "hivm.func_core_type")
        .and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "func_core_type"));
    let marked = match core {
        Some(c) => c == "MIX",
        None => ir.get_attr(entry, "mix_mode").and_then(|a| ir.as_str(a)) == Some("mix"),
    };
    let mut flags = false;
    if marked {
        ir.walk(entry, &mut |o| {
            flags |= ir.is_op(o, "hivm.hir.sync_block_set") || ir.is_op(o, "hivm.hir.sync_block_wait");
        });
    }
    flags
}

/// A kernel argument as it crosses to a core's thread.
enum Arg {
    Int(i64),
    Float(f64),
    Mem(MemRefVal),
    Undef,
}

/// Each core's stack: the interpreter recurses through nested regions and
/// calls (the drivers' own thread has more; this is reserved, not used).
const CORE_STACK: usize = 256 << 20;

/// One core's reports, timeline and outcome.
type CoreRun = (Vec<Report>, Vec<TraceLine>, Result<(), RunError>);

/// What block `block` of `blocks` did: every core's reports and timeline,
/// and the error that stopped it.
pub struct BlockRun {
    pub reports: Vec<Report>,
    pub timeline: Vec<TraceLine>,
    pub error: Option<RunError>,
}

/// Runs block `block` of `blocks` of mix kernel `entry` with `args`, which
/// live in `main`'s memory.
pub fn run_block(ir: &Ir, entry: OpId, main: &Interp, args: &[Val], block: i64, blocks: i64) -> BlockRun {
    let shared = Arc::new(cross::Shared::default());
    let bufs = main.mem.share();
    let named = main.named.clone();
    let gm: Vec<(u64, u64)> = named.iter().map(|(a, n, _)| (*a, *n)).collect();
    let sent: Vec<Arg> = args
        .iter()
        .map(|a| match a {
            Val::Int(i) => Arg::Int(*i),
            Val::Float(f) => Arg::Float(*f),
            Val::Mem(m) => Arg::Mem((**m).clone()),
            Val::Undef => Arg::Undef,
        })
        .collect();
    let config = &main.config;
    let ir_ref = TurnRef(ir);
    let results: Vec<CoreRun> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cross::CORES)
            .map(|core| {
                let (shared, bufs, named, gm, sent) = (shared.clone(), &bufs, &named, &gm, &sent);
                let config: Config = config.clone();
                let ir_ref = &ir_ref;
                let starter = shared.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("hivm-twin-core{core}"))
                    .stack_size(CORE_STACK)
                    .spawn_scoped(s, move || {
                        if shared.start(core).is_err() {
                            shared.finish(core, false);
                            return (Vec::new(), Vec::new(), Err(RunError::at(entry, ABORTED)));
                        }
                        let ir = ir_ref.get();
                        let mut it = Interp::new(ir, config);
                        it.mem = Memory::adopt(bufs);
                        it.named = named.clone();
                        let args: Vec<Val> = sent
                            .iter()
                            .map(|a| match a {
                                Arg::Int(i) => Val::Int(*i),
                                Arg::Float(f) => Val::Float(*f),
                                Arg::Mem(m) => Val::Mem(std::rc::Rc::new(m.clone())),
                                Arg::Undef => Val::Undef,
                            })
                            .collect();
                        let r = run_core(&mut it, &shared, core, entry, args, gm.clone(), block, blocks);
                        if r.is_ok() {
                            it.sync.finish();
                        }
                        let failed = r.as_ref().is_err_and(|e| e.msg != ABORTED);
                        let timeline = it.sync.timeline.take().unwrap_or_default();
                        let reports = std::mem::take(&mut it.sync.reports);
                        drop(it);
                        shared.finish(core, failed);
                        (reports, timeline, r)
                    });
                spawned.map_err(|e| {
                    // The others must not wait for this core.
                    starter.finish(core, true);
                    format!("cannot start a thread for {}: {e}", cross::core_name(core))
                })
            })
            .collect();
        // The caller's stop check (Python's Ctrl-C) belongs to this thread.
        shared.wait_all(crate::interrupt::requested);
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().expect("a core's thread panicked"),
                Err(e) => (Vec::new(), Vec::new(), Err(RunError::at(entry, e))),
            })
            .collect()
    });
    let mut out = BlockRun { reports: Vec::new(), timeline: Vec::new(), error: None };
    let mut seen = std::collections::HashSet::new();
    for (core, (reports, timeline, r)) in results.into_iter().enumerate() {
        let name = cross::core_name(core);
        for mut rep in reports {
            // Both vector cores run the same code: one report per fault.
            let key = (rep.class, rep.site.op, rep.other.as_ref().and_then(|o| o.0.op), rep.message.clone());
            if !seen.insert(key) {
                continue;
            }
            if !rep.message.contains("across cores") {
                rep.message.push_str(&format!(" (on {name})"));
            }
            out.reports.push(rep);
        }
        out.timeline.extend(timeline.into_iter().map(|mut t| {
            t.text = format!("[{name}] {}", t.text);
            t
        }));
        if let Err(e) = r
            && e.msg != ABORTED
            && out.error.is_none()
        {
            let mut e = e;
            if e.msg != crate::interp::INTERRUPTED {
                e.msg.push_str(&format!(" (on {name})"));
            }
            out.error = Some(e);
        }
    }
    if shared.stopped() && out.error.is_none() {
        out.error = Some(RunError::at(entry, crate::interp::INTERRUPTED));
    }
    out.reports.extend(shared.take_reports());
    out
}

#[allow(clippy::too_many_arguments)]
fn run_core(
    it: &mut Interp,
    shared: &Arc<cross::Shared>,
    core: usize,
    entry: OpId,
    args: Vec<Val>,
    gm: Vec<(u64, u64)>,
    block: i64,
    blocks: i64,
) -> Result<(), RunError> {
    it.start_block(block, blocks).map_err(|e| RunError::at(entry, e))?;
    it.sync.cross = Some(cross::Link { shared: shared.clone(), core, gm });
    it.mix = Some(MixCore::new(core));
    it.call_function(entry, args).map(|_| ())
}

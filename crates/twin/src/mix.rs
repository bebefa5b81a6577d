//! Cores run together: a mix kernel (an entry with
//! `hivm.func_core_type<MIX>`, or unmarked with `mix_mode = "mix"`, and
//! cross-core flags: `is_mix`) runs per block on one cube core and two
//! vector cores, as 910B pairs them; a kernel whose blocks meet at
//! INTER_BLOCK flags (`syncs_blocks`) runs all its blocks' cores together.
//! Each core is an interpreter of its own on a thread of its own, executing its side of the function (`interp/mix.rs`)
//! with its own on-chip memories and pipes; global memory is shared. Only
//! one core runs at a time, handing over at a `sync_block_wait` that must
//! wait, so a run is deterministic; the checker sees cross-core order only
//! through the flags (`sync/cross.rs`).

use std::sync::Arc;

use hivm_ir::{Ir, OpId};

use crate::interp::{ABORTED, Config, Interp, MixCore, RunError};
use crate::memory::Memory;
use crate::sync::blocks::BlockLog;
use crate::sync::{Class, Report, TraceLine, cross};
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
    let core = hivm_dialects::hivm::func_core_type(ir, entry);
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

/// One core's reports, timeline, outcome and (blocks running one by one)
/// accesses of the arguments.
type CoreRun = (Vec<Report>, Vec<TraceLine>, Result<(), RunError>, Option<BlockLog>);

/// What the blocks run together did: every core's reports and timeline
/// (with the block, among those run, each came from), and the error that
/// stopped them (and its block).
pub struct GridRun {
    pub reports: Vec<(usize, Report)>,
    pub timeline: Vec<(usize, TraceLine)>,
    pub error: Option<(usize, RunError)>,
    /// The block's accesses of the arguments, when it ran alone of several.
    pub log: Option<BlockLog>,
}

/// Whether the blocks of `entry` must run together: it (or a function it
/// calls) syncs them with INTER_BLOCK flags. Some(whether the first such
/// flag is the cube cores').
pub fn syncs_blocks(ir: &Ir, entry: OpId) -> Option<bool> {
    let module = ir.top_ancestor(entry);
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![entry];
    let mut found = None;
    let enum_of = |o: OpId, key: &str, mnemonic: &str| {
        ir.get_attr(o, key).and_then(|a| hivm_dialects::hivm::attrs::enum_value(ir, a, mnemonic).map(str::to_string))
    };
    while let Some(f) = todo.pop() {
        if !seen.insert(f) {
            continue;
        }
        ir.walk(f, &mut |o| {
            if (ir.is_op(o, "hivm.hir.sync_block_set") || ir.is_op(o, "hivm.hir.sync_block_wait"))
                && found.is_none()
                && cross::Mode::of(ir, o) == cross::Mode::InterBlock
            {
                found = Some(enum_of(o, "tcore_type", "tcore_type").as_deref() == Some("CUBE"));
            }
            if ir.is_op(o, "func.call")
                && let Some(hivm_ir::AttrData::SymbolRef { root, .. }) =
                    ir.get_attr(o, "callee").map(|a| ir.attr_data(a))
                && let Some(callee) = crate::interp::find_func(ir, module, ir.sym_str(*root))
            {
                todo.push(callee);
            }
        });
    }
    found
}

/// Runs blocks `first .. first + grid.blocks` of `blocks` of kernel
/// `entry` together, `args[k]` being block `first + k`'s arguments (which
/// live in `main`'s memory): each core of `grid` on a thread of its own.
pub fn run_grid(
    ir: &Ir,
    entry: OpId,
    main: &Interp,
    args: &[Vec<Val>],
    first: i64,
    blocks: i64,
    grid: cross::Grid,
) -> GridRun {
    let shared = Arc::new(cross::Shared::new(grid));
    let bufs = main.mem.share();
    let named = main.named.clone();
    let gm: Vec<(u64, u64)> = named.iter().map(|(a, n, _)| (*a, *n)).collect();
    let sent: Vec<Vec<Arg>> = args
        .iter()
        .map(|block| {
            block
                .iter()
                .map(|a| match a {
                    Val::Int(i) => Arg::Int(*i),
                    Val::Float(f) => Arg::Float(*f),
                    Val::Mem(m) => Arg::Mem((**m).clone()),
                    Val::Undef => Arg::Undef,
                })
                .collect()
        })
        .collect();
    let config = &main.config;
    let ir_ref = TurnRef(ir);
    let results: Vec<CoreRun> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..grid.cores())
            .map(|core| {
                let (shared, bufs, named, gm) = (shared.clone(), &bufs, &named, &gm);
                let sent = &sent[grid.block(core)];
                let config: Config = config.clone();
                let ir_ref = &ir_ref;
                let starter = shared.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("hivm-twin-core{core}"))
                    .stack_size(CORE_STACK)
                    .spawn_scoped(s, move || {
                        if shared.start(core).is_err() {
                            shared.finish(core, false);
                            return (Vec::new(), Vec::new(), Err(RunError::at(entry, ABORTED)), None);
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
                        let block = first + grid.block(core) as i64;
                        let link = cross::Link { shared: shared.clone(), core, gm: gm.clone() };
                        let r = run_core(&mut it, link, entry, args, block, blocks);
                        if r.is_ok() {
                            it.sync.finish();
                        }
                        let failed = r.as_ref().is_err_and(|e| e.msg != ABORTED);
                        let timeline = it.sync.timeline.take().unwrap_or_default();
                        let reports = std::mem::take(&mut it.sync.reports);
                        let log = it.sync.blocks.take();
                        drop(it);
                        shared.finish(core, failed);
                        (reports, timeline, r, log)
                    });
                spawned.map_err(|e| {
                    // The others must not wait for this core.
                    starter.finish(core, true);
                    format!("cannot start a thread for {}: {e}", grid.name(core))
                })
            })
            .collect();
        // The caller's stop check (Python's Ctrl-C) belongs to this thread.
        shared.wait_all(crate::interrupt::requested);
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().expect("a core's thread panicked"),
                Err(e) => (Vec::new(), Vec::new(), Err(RunError::at(entry, e)), None),
            })
            .collect()
    });
    let mut out = GridRun { reports: Vec::new(), timeline: Vec::new(), error: None, log: None };
    let mut seen = std::collections::HashSet::new();
    for (core, (reports, timeline, r, log)) in results.into_iter().enumerate() {
        if let Some(log) = log {
            match &mut out.log {
                Some(all) => all.merge(log),
                None => out.log = Some(log),
            }
        }
        let block = grid.block(core);
        // Within its block: the block is said by the caller.
        let name = cross::Grid { blocks: 1, ..grid }.name(grid.local(core));
        // With one core per block, the block says which core.
        let on = if grid.per_block == 1 { String::new() } else { format!(" (on {name})") };
        for mut rep in reports {
            // A block's vector cores run the same code: one report per fault;
            // and a race between two ops across blocks is one report.
            let across = grid.blocks > 1 && rep.class == Class::Race && rep.message.contains("across cores");
            let (b, m) = if across { (usize::MAX, String::new()) } else { (block, rep.message.clone()) };
            let key = (b, rep.class, rep.site.op, rep.other.as_ref().and_then(|o| o.0.op), m);
            if !seen.insert(key) {
                continue;
            }
            if !rep.message.contains("across cores") {
                rep.message.push_str(&on);
            }
            out.reports.push((block, rep));
        }
        out.timeline.extend(timeline.into_iter().map(|mut t| {
            t.text = format!("[{name}] {}", t.text);
            (block, t)
        }));
        if let Err(e) = r
            && e.msg != ABORTED
            && out.error.is_none()
        {
            let mut e = e;
            if e.msg != crate::interp::INTERRUPTED {
                // Errors carry no block of their own.
                if grid.per_block > 1 || grid.blocks > 1 {
                    e.msg.push_str(&format!(" (on {})", grid.name(core)));
                }
            }
            out.error = Some((block, e));
        }
    }
    if shared.stopped() && out.error.is_none() {
        out.error = Some((0, RunError::at(entry, crate::interp::INTERRUPTED)));
    }
    // Flags a stopped run leaves set are not the kernel's fault.
    let stopped = out.error.is_some();
    out.reports.extend(shared.take_reports().into_iter().filter(|(_, r)| !stopped || r.class != Class::Leftover));
    out
}

fn run_core(
    it: &mut Interp,
    link: cross::Link,
    entry: OpId,
    args: Vec<Val>,
    block: i64,
    blocks: i64,
) -> Result<(), RunError> {
    it.start_block(block, blocks).map_err(|e| RunError::at(entry, e))?;
    let grid = link.shared.grid;
    if grid.blocks > 1 {
        // The blocks run together: the cross-core log sees them all.
        it.sync.blocks = None;
    }
    if grid.per_block == cross::CORES {
        it.mix = Some(MixCore::new(grid.local(link.core)));
    }
    it.sync.link(link);
    it.call_function(entry, args).map(|_| ())
}

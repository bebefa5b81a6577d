//! A kernel prepared once and run as often as wanted: parsed, verified,
//! brought to the memref level the interpreter runs and its entry found.
//! `run_source` prepares and runs once; a caller that launches one kernel
//! many times (`hivm.triton`'s compiled launches) keeps the `Prepared` and
//! pays only for the run.

use std::path::{Path, PathBuf};

use hivm_ir::diagnostics::{Diagnostic, SourceBuffer};
use hivm_ir::parser::Parser;
use hivm_ir::{Ir, OpId};

use crate::interp::{Config, Interp};
use crate::memory::Capacities;
use crate::value::{MemRefVal, Val};
use crate::{ArgData, Outcome, RunOptions, make_args, parse_error, pick_entry, prepare, sync, triton_grid};

pub struct Prepared {
    pub ir: Ir,
    pub source: String,
    pub file: String,
    base_dir: PathBuf,
    entry: OpId,
    /// Tensor-level input: scalar memory ops stay full barriers (see
    /// `Config::scalar_barriers`).
    has_tensors: bool,
}

/// What one run produced.
#[derive(Default)]
pub struct Results {
    /// Per argument: element type, shape and bytes (memrefs only).
    pub args: Vec<Option<ArgData>>,
    pub reports: Vec<(u32, sync::Report)>,
    /// Per block, what every pipe did (with `trace`).
    pub timeline: Vec<(u32, sync::TraceLine)>,
    pub error: Option<Diagnostic>,
}

impl Prepared {
    /// Prepares `source` (named `file` in diagnostics; `source` attributes
    /// are relative to `base_dir`) as `opts` asks (`entry`, `sync_solver`;
    /// the rest is the runs'). A failure comes back as a finished outcome.
    pub fn new(source: String, file: &str, base_dir: &Path, opts: &RunOptions) -> Result<Prepared, Box<Outcome>> {
        let mut ir = Ir::new(hivm_dialects::shared_registry());
        let buf = SourceBuffer { name: file.to_string(), text: &source, first_line: 0 };
        let parsed = Parser::new(&mut ir, &source, file, 0).parse_module();
        let prepared = match parsed {
            Ok(module) => bring_to_memrefs(&mut ir, module, opts),
            Err(e) => Err(parse_error(&mut ir, &e, &buf, file)),
        };
        match prepared {
            Ok((entry, has_tensors)) => Ok(Prepared {
                ir,
                source,
                file: file.to_string(),
                base_dir: base_dir.to_path_buf(),
                entry,
                has_tensors,
            }),
            Err(d) => Err(Box::new(Outcome::failed(ir, source, file.to_string(), d))),
        }
    }

    /// One run with `opts`'s arguments, blocks and limits (its `entry` and
    /// `sync_solver` were the preparation's).
    pub fn run(&self, opts: &RunOptions) -> Results {
        let mut out = Results::default();
        if let Err(d) = self.run_into(opts, &mut out) {
            out.error = Some(d);
        }
        out
    }

    fn run_into(&self, opts: &RunOptions, out: &mut Results) -> Result<(), Diagnostic> {
        let (ir, entry) = (&self.ir, self.entry);
        let target = hivm_dialects::hacc::module_target(ir, entry);
        let config = Config {
            impls: opts.impls.clone(),
            base_dir: self.base_dir.clone(),
            timeout: opts.timeout,
            caps: Capacities::for_target(target.as_deref()),
            regbase: target.as_deref().is_some_and(hivm_dialects::hacc::is_regbase),
            target: target.clone(),
            progress: opts.progress,
            trace: opts.trace,
            max_steps: opts.max_ops,
            scalar_barriers: self.has_tensors,
            part_alone: opts.part_alone,
        };
        let mut it = Interp::new(ir, config);
        let args = make_args(ir, entry, &opts.args, &mut it)?;
        let blocks = opts.blocks.max(1);
        let grid = triton_grid(ir, entry, &args, blocks)?;
        let mix = crate::mix::is_mix(ir, entry);
        let block_args = |b: u32| {
            let mut block_args = args.clone();
            if let Some(g) = &grid {
                let n = block_args.len();
                for (k, id) in g.program_ids(b as i64).into_iter().enumerate() {
                    block_args[n - 3 + k] = Val::Int(id);
                }
            }
            block_args
        };
        if let Some(cube_flag) = crate::mix::syncs_blocks(ir, entry) {
            // Blocks meet at INTER_BLOCK flags: all their cores run together.
            let cores = if mix {
                crate::sync::cross::Grid::mix(blocks as usize)
            } else {
                // A kernel for one core type: its func_core_type's, else its
                // flags'.
                let aic = match hivm_dialects::hivm::func_core_type(ir, entry) {
                    Some(c) => c == "AIC",
                    None => cube_flag,
                };
                crate::sync::cross::Grid::single(blocks as usize, aic)
            };
            // Every block must be resident at once to meet: more blocks than
            // the chip has cores of the type wait for cores that never free.
            let chip = target.as_deref().and_then(hivm_dialects::hacc::targets::target);
            let (_, cube_cores, vector_cores) = chip.map_or((24, 24, 48), |t| t.cores);
            let (have, kind) = if cores.per_block > 1 || cores.cube {
                (
                    cube_cores,
                    if cores.per_block > 1 { "AI cores (a cube and two vector cores each)" } else { "cube cores" },
                )
            } else {
                (vector_cores, "vector cores")
            };
            if blocks > have {
                let name = target.as_deref().unwrap_or("the default target (Ascend910B1)");
                return Err(Diagnostic::error(
                    ir.loc(entry),
                    format!(
                        "the kernel's INTER_BLOCK flags need all {blocks} blocks running at once, but {name} has {have} {kind}: \
                         the blocks beyond them wait for cores that never free up, so this hangs on hardware"
                    ),
                ));
            }
            let all: Vec<Vec<Val>> = (0..blocks).map(block_args).collect();
            let run = crate::mix::run_grid(ir, entry, &it, &all, 0, blocks as i64, cores);
            out.reports.extend(run.reports.into_iter().map(|(b, r)| (b as u32, r)));
            out.timeline.extend(run.timeline.into_iter().map(|(b, t)| (b as u32, t)));
            if let Some((_, e)) = run.error {
                return Err(e.to_diagnostic(ir));
            }
        } else {
            // Blocks one after another; what they share is checked across
            // them at each block's end (`sync/blocks.rs`).
            let mut across = crate::sync::blocks::AcrossBlocks::new(it.named.clone());
            for b in 0..blocks {
                let block_args = block_args(b);
                if mix {
                    // One cube and two vector cores (`mix.rs`).
                    let one = crate::sync::cross::Grid::mix(1);
                    let run = crate::mix::run_grid(ir, entry, &it, &[block_args], b as i64, blocks as i64, one);
                    out.reports.extend(run.reports.into_iter().map(|(_, r)| (b, r)));
                    out.timeline.extend(run.timeline.into_iter().map(|(_, t)| (b, t)));
                    if let Some((_, e)) = run.error {
                        return Err(e.to_diagnostic(ir));
                    }
                    if let Some(log) = run.log {
                        let mem = arg_memory(&it, &args);
                        out.reports.extend(across.end_block(b, log, &mem).into_iter().map(|r| (b, r)));
                    }
                    continue;
                }
                it.start_block(b as i64, blocks as i64).map_err(|e| Diagnostic::error(ir.loc(entry), e))?;
                let r = it.call_function(entry, block_args);
                // Flags a stopped run leaves set are not the kernel's fault.
                if r.is_ok() {
                    it.sync.finish();
                }
                for rep in std::mem::take(&mut it.sync.reports) {
                    out.reports.push((b, rep));
                }
                for line in it.sync.timeline.take().unwrap_or_default() {
                    out.timeline.push((b, line));
                }
                if let Err(e) = r {
                    return Err(e.to_diagnostic(ir));
                }
                if let Some(log) = it.sync.blocks.take() {
                    let mem = arg_memory(&it, &args);
                    out.reports.extend(across.end_block(b, log, &mem).into_iter().map(|r| (b, r)));
                }
            }
        }
        for a in &args {
            out.args.push(match a {
                Val::Mem(m) => {
                    let size = m.elem.size();
                    let data = it.mem.get(m.buf).bytes();
                    // Arguments are made contiguous from offset 0: their bytes
                    // are a prefix of the buffer.
                    let bytes = if **m == MemRefVal::contiguous(m.buf, m.elem, m.sizes.clone()) {
                        data[..(m.num_elements().max(0) as usize) * size].to_vec()
                    } else {
                        let mut bytes = Vec::new();
                        m.for_each(|o| {
                            let s = o as usize * size;
                            bytes.extend_from_slice(&data[s..s + size]);
                        });
                        bytes
                    };
                    Some((m.elem, m.sizes.clone(), bytes))
                }
                _ => None,
            });
        }
        Ok(())
    }

    /// The outcome of one run, owning the kernel (for one-shot callers).
    pub fn into_outcome(self, r: Results) -> Outcome {
        // Element types do not carry signedness; the entry's parameters do.
        let entry_block = self.ir.region_blocks(self.ir.regions(self.entry)[0])[0];
        let unsigned = self
            .ir
            .block_args(entry_block)
            .iter()
            .map(|a| {
                let elem = match self.ir.type_data(self.ir.value_type(*a)) {
                    hivm_ir::TypeData::MemRef { elem, .. } => *elem,
                    _ => return false,
                };
                matches!(
                    self.ir.type_data(elem),
                    hivm_ir::TypeData::Integer { signedness: hivm_ir::types::Signedness::Unsigned, .. }
                )
            })
            .collect();
        Outcome {
            unsigned,
            ir: self.ir,
            source: self.source,
            file: self.file,
            args: r.args,
            reports: r.reports,
            timeline: r.timeline,
            error: r.error,
        }
    }

    pub fn render(&self, d: &Diagnostic) -> String {
        render(&self.ir, &self.source, &self.file, d)
    }

    pub fn report_diagnostic(&self, block: u32, r: &sync::Report, blocks: u32) -> Diagnostic {
        report_diagnostic(&self.ir, block, r, blocks)
    }
}

/// Verifies the module and brings it to what the interpreter runs; returns
/// the entry and whether the input was tensor-level.
fn bring_to_memrefs(ir: &mut Ir, module: OpId, opts: &RunOptions) -> Result<(OpId, bool), Diagnostic> {
    if let Some(e) = hivm_ir::verifier::verify_all(ir, module).into_iter().next() {
        return Err(e);
    }
    // Bring tensor-level kernels to memrefs, as the device pipeline does
    // (see `prepare`): elementwise ops to linalg, loop yields that need it
    // copied into their iter_args, then bufferization.
    let reg = hivm_transforms::pass_registry();
    let run = |ir: &mut Ir, pieces: &[String]| -> Result<(), Diagnostic> {
        let mut pm =
            hivm_ir::pass::PassManager::from_cli(&reg, pieces).map_err(|e| Diagnostic::error(ir.unknown_loc(), e))?;
        pm.run(ir, module, true)
    };
    let mut pieces = vec!["hivm-alloc-extra-buffer".to_string()];
    // Tensor-level kernels keep scalar memory ops as full barriers: the
    // device compiler turns the copies bufferization makes into pipe ops.
    let has_tensors = prepare::has_tensors(ir, module);
    if has_tensors {
        pieces.push(prepare::ELEMENTWISE.into());
        run(ir, &std::mem::take(&mut pieces))?;
        prepare::copy_loop_yields_into_iter_args(ir, module);
        pieces.push(prepare::BUFFERIZE.into());
    }
    // `sync_block` becomes the flags it stands for (upstream's
    // decompose-op), which the twin runs.
    let mut sync_block = false;
    ir.walk(module, &mut |o| sync_block |= ir.is_op(o, "hivm.hir.sync_block"));
    if sync_block {
        pieces.push("hivm-decompose-op".into());
    }
    if opts.sync_solver {
        // Synchronise as the device pipeline would, then check the result.
        pieces.push("hivm-graph-sync-solver".into());
        // Multi-buffered buffers then become one copy per address chosen by
        // the loop's counter, which becomes a memory cell (upstream's
        // order: solver, enable-multi-buffer, lower-multi-buffer-counter).
        let mut multi_buffer = false;
        ir.walk(module, &mut |o| {
            multi_buffer |= ir.is_op(o, "hivm.hir.multi_buffer_counter")
                || (ir.is_op(o, "hivm.hir.pointer_cast") && hivm_dialects::util::segment(ir, o, 0).len() > 1);
        });
        if multi_buffer {
            pieces.push("hivm-enable-multi-buffer".into());
            pieces.push("hivm-lower-multi-buffer-counter".into());
        }
    }
    if !pieces.is_empty() {
        run(ir, &pieces)?;
    }
    ir.emitted.clear();
    let entry = pick_entry(ir, module, opts.entry.as_deref())?;
    Ok((entry, has_tensors))
}

pub(crate) fn render(ir: &Ir, source: &str, file: &str, d: &Diagnostic) -> String {
    let buf = SourceBuffer { name: file.to_string(), text: source, first_line: 0 };
    let mut s = String::new();
    hivm_ir::diagnostics::render(ir, d, Some(&buf), &mut s);
    s
}

/// A timeline line: `block  PIPE  FILE:LINE:COL  op  what [intrinsic]`.
pub(crate) fn format_trace(ir: &Ir, block: u32, t: &sync::TraceLine) -> String {
    let (loc, name) = match t.site.op {
        Some(op) => {
            let l = hivm_ir::diagnostics::file_line_col(ir, ir.loc(op))
                .map(|(f, l, c)| format!("{f}:{l}:{c}"))
                .unwrap_or_else(|| "<unknown>".into());
            (l, ir.op_name(op).to_string())
        }
        None => ("<unknown>".into(), String::new()),
    };
    let detail = t.site.detail.as_ref().map(|d| format!("  [{d}]")).unwrap_or_default();
    format!("block {block}  {:<9}  {loc}  {name}  {}{detail}", sync::pipe_name(t.pipe), t.text)
}

/// The memory of the kernel's memref arguments, as `(address, bytes)`.
fn arg_memory<'a>(it: &'a Interp, args: &[Val]) -> Vec<(u64, &'a [u8])> {
    args.iter()
        .filter_map(|a| match a {
            Val::Mem(m) => {
                let b = it.mem.get(m.buf);
                Some((b.addr(), b.bytes()))
            }
            _ => None,
        })
        .collect()
}

/// A sync report as a located diagnostic.
pub(crate) fn report_diagnostic(ir: &Ir, block: u32, r: &sync::Report, blocks: u32) -> Diagnostic {
    let loc = r.site.op.map(|o| ir.loc(o)).unwrap_or_else(|| ir.unknown_loc());
    let mut msg = r.message.clone();
    if let Some(d) = &r.site.detail {
        msg.push_str(&format!(" [in the implementation: {d}]"));
    }
    if blocks > 1 {
        msg.push_str(&format!(" (block {block})"));
    }
    let mut d =
        if r.class == sync::Class::Warning { Diagnostic::warning(loc, msg) } else { Diagnostic::error(loc, msg) };
    if let Some((site, what)) = &r.other {
        let l = site.op.map(|o| ir.loc(o)).unwrap_or(loc);
        let mut n = what.clone();
        if let Some(x) = &site.detail {
            n.push_str(&format!(": {x}"));
        }
        d = d.with_note(l, n);
    }
    d
}

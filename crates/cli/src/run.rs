//! hivm-run: runs a kernel with custom ops on the host CPU (the CPU twin)
//! and checks its synchronisation.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use hivm_twin::{ArgSpec, RunOptions, sync::Class};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SyncMode {
    /// Sync problems are errors (exit 1).
    Error,
    /// Report sync problems, exit 0 if nothing else failed.
    Warn,
}

#[derive(Parser)]
#[command(name = "hivm-run", version, about = "Run a kernel with custom ops on the CPU and check its synchronisation")]
struct Cli {
    /// The kernel (.mlir).
    #[arg(required_unless_present = "print_include_dir")]
    kernel: Option<PathBuf>,
    /// Write the twin header (hivm_twin.h, the C/C++ API implementations are built
    /// against) to a stable folder, print the folder and exit: `-I$(hivm-run --print-include-dir)`.
    #[arg(long = "print-include-dir")]
    print_include_dir: bool,
    /// The function to run (default: the only one defined).
    #[arg(long)]
    entry: Option<String>,
    /// C or C++ implementation files of the custom ops (default: each op's `source`).
    #[arg(long = "impl", value_name = "FILE")]
    impls: Vec<PathBuf>,
    /// The entry's arguments in order: FILE.npy, zeros:SHAPExTYPE (e.g. zeros:4x8xf16, zeros:16xui8), or a number.
    #[arg(long = "arg", value_name = "VALUE", allow_hyphen_values = true)]
    args: Vec<String>,
    /// Write argument N after the run to a .npy file.
    #[arg(long = "save", value_name = "N=FILE.npy")]
    saves: Vec<String>,
    /// Print argument N after the run, labelled `arg N (TYPE): `.
    #[arg(long = "print", value_name = "N")]
    prints: Vec<usize>,
    /// Run N blocks, one after another (get_block_idx is 0 to N-1).
    #[arg(long, default_value_t = 1)]
    blocks: u32,
    /// What sync problems do to the exit status.
    #[arg(long, value_enum, default_value_t = SyncMode::Error)]
    sync: SyncMode,
    /// Seconds an implementation may run before it is stopped.
    #[arg(long, default_value_t = 30.0, allow_hyphen_values = true)]
    timeout: f64,
    /// Ops the interpreter may execute before it stops the run.
    #[arg(long = "max-ops", value_name = "N")]
    max_ops: Option<u64>,
    /// Print what every pipe did, in order, to stderr (HIVM ops and the
    /// intrinsics inside implementations).
    #[arg(long)]
    trace: bool,
    /// Run the GraphSyncSolver (`hivm-graph-sync-solver`) first, so that a
    /// kernel written without set_flag/wait_flag runs synchronised as it
    /// would after the device pipeline (multi-buffered buffers are then
    /// split and their counter lowered, as upstream does after the solver).
    #[arg(long = "sync-solver")]
    sync_solver: bool,
    /// Run one core's part of a split mix kernel (a function with
    /// hivm.func_core_type<AIC> or <AIV>) by itself: its sync_block_wait are
    /// taken as met and its sync_block_set go nowhere, each said once as a
    /// warning, so only the core's own pipes are checked.
    #[arg(long = "part-alone")]
    part_alone: bool,
}

fn main() -> ExitCode {
    hivm_cli::reaper::become_subreaper();
    hivm_cli::reaper::end_builds_on_signal();
    let code = std::panic::catch_unwind(run).unwrap_or(ExitCode::from(2));
    hivm_cli::reaper::end_descendants();
    code
}

fn run() -> ExitCode {
    let cli = Cli::parse();
    if cli.print_include_dir {
        return match hivm_twin::include_dir() {
            Ok(dir) => {
                println!("{}", dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hivm-run: error: {e}");
                ExitCode::from(1)
            }
        };
    }
    let Some(kernel) = cli.kernel.clone() else {
        eprintln!("hivm-run: error: no kernel given");
        return ExitCode::from(1);
    };
    let mut specs = Vec::new();
    for a in &cli.args {
        match ArgSpec::parse(a) {
            Ok(s) => specs.push(s),
            Err(e) => {
                eprintln!("hivm-run: error: --arg {a}: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let mut saves = Vec::new();
    for s in &cli.saves {
        match s.split_once('=').and_then(|(n, f)| Some((n.parse::<usize>().ok()?, PathBuf::from(f)))) {
            Some(x) => saves.push(x),
            None => {
                eprintln!("hivm-run: error: --save {s}: expected N=FILE.npy");
                return ExitCode::from(1);
            }
        }
    }
    if cli.blocks == 0 {
        eprintln!("hivm-run: error: --blocks must be at least 1");
        return ExitCode::from(1);
    }
    let timeout = match Duration::try_from_secs_f64(cli.timeout) {
        Ok(t) if cli.timeout > 0.0 => t,
        _ => {
            eprintln!("hivm-run: error: --timeout must be a positive number of seconds (at most about 1.8e19)");
            return ExitCode::from(1);
        }
    };
    let opts = RunOptions {
        entry: cli.entry.clone(),
        impls: cli.impls.clone(),
        args: specs,
        blocks: cli.blocks,
        timeout,
        progress: true,
        max_ops: cli.max_ops.unwrap_or(u64::MAX),
        trace: cli.trace,
        sync_solver: cli.sync_solver,
        part_alone: cli.part_alone,
    };
    let out = hivm_twin::run(&kernel, &opts);
    for (block, line) in &out.timeline {
        eprintln!("{}", out.format_trace(*block, line));
    }
    let mut failed = false;
    let mut sync_errors = 0;
    for (block, r) in &out.reports {
        let d = out.report_diagnostic(*block, r, cli.blocks);
        eprint!("{}", out.render(&d));
        if r.class != Class::Warning {
            sync_errors += 1;
        }
    }
    if let Some(e) = &out.error {
        eprint!("{}", out.render(e));
        return ExitCode::from(1);
    }
    for (n, file) in &saves {
        match out.args.get(*n) {
            Some(Some((elem, shape, bytes))) => {
                let unsigned = out.unsigned.get(*n).copied().unwrap_or(false);
                if let Err(e) = hivm_twin::npy::write_as(file, *elem, unsigned, shape, bytes) {
                    eprintln!("hivm-run: error: {e}");
                    failed = true;
                }
            }
            _ => {
                eprintln!("hivm-run: error: --save {n}: argument {n} is not a memref argument");
                failed = true;
            }
        }
    }
    for n in &cli.prints {
        match out.args.get(*n) {
            Some(Some((elem, shape, bytes))) => {
                // A closed pipe (`| head`) ends the output with a message, not a panic.
                use std::io::Write;
                let unsigned = out.unsigned.get(*n).copied().unwrap_or(false);
                let text = hivm_twin::format_array_as(*elem, unsigned, shape, bytes);
                let ty = hivm_twin::memref_type_name_as(*elem, unsigned, shape);
                if let Err(e) = writeln!(std::io::stdout(), "arg {n} ({ty}): {text}") {
                    eprintln!("hivm-run: error writing output: {e}");
                    failed = true;
                    break;
                }
            }
            _ => {
                eprintln!("hivm-run: error: --print {n}: argument {n} is not a memref argument");
                failed = true;
            }
        }
    }
    if sync_errors > 0 {
        eprintln!("hivm-run: {sync_errors} sync problem(s) found");
        if cli.sync == SyncMode::Error {
            failed = true;
        }
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

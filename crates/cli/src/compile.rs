//! `hivm-compile`: bishengir-compile's front half for Triton kernels. It takes
//! the linalg module triton-ascend's `triton-to-linalg` makes and runs the
//! pipeline of `hivm_transforms::pipelines::triton_to_hivm` (HFusion, HIVM
//! conversion, bufferization, memory planning, the sync solver), printing
//! the HIVM kernel the NPU would run; `--to-std` continues to calls of the
//! custom ops' implementations.

mod output;

use std::process::ExitCode;

use clap::Parser;
use hivm_transforms::pipelines::{CompileOptions, triton_to_hivm};

#[derive(Parser)]
#[command(
    name = "hivm-compile",
    version,
    about = "Compile a Triton kernel's linalg module to HIVM (bishengir-compile's front half)"
)]
struct Cli {
    /// The linalg module (.mlir), as triton-to-linalg produces it; `-` for stdin.
    input: String,
    /// Output file (default: stdout); written only when the compile succeeds.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<String>,
    /// The target device (e.g. Ascend910B3); default: the module's `hacc.target`.
    #[arg(long)]
    target: Option<String>,
    /// Continue through convert-hivm-to-std: custom ops become calls of their implementations.
    #[arg(long = "to-std")]
    to_std: bool,
    /// Check that the custom ops' entry points are defined once in these files (comma-separated).
    #[arg(long = "link-aicore-bitcode", value_name = "FILES")]
    link_aicore_bitcode: Option<String>,
    /// Print the IR after each pass (to stderr).
    #[arg(long = "mlir-print-ir-after-all")]
    print_ir_after_all: bool,
    /// Print the IR before each pass (to stderr).
    #[arg(long = "mlir-print-ir-before-all")]
    print_ir_before_all: bool,
    /// Report wall time per pass (to stderr).
    #[arg(long = "mlir-timing")]
    timing: bool,
    /// Print the generic op form.
    #[arg(long = "mlir-print-op-generic")]
    generic: bool,
    /// Print the passes the compile runs, one per line, and exit.
    #[arg(long = "print-pipeline")]
    print_pipeline: bool,
}

fn main() -> ExitCode {
    hivm_cli::run_driver("hivm-compile", real_main)
}

fn real_main() -> ExitCode {
    let cli = Cli::parse();
    let co = CompileOptions { target: cli.target, to_std: cli.to_std, link_aicore_bitcode: cli.link_aicore_bitcode };
    let passes = triton_to_hivm(&co);
    if cli.print_pipeline {
        for p in &passes {
            println!("{p}");
        }
        return ExitCode::SUCCESS;
    }
    let text = if cli.input == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            eprintln!("hivm-compile: could not read stdin: {e}");
            return ExitCode::from(1);
        }
        s
    } else {
        match std::fs::read_to_string(&cli.input) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("hivm-compile: could not open input file '{}': {e}", cli.input);
                return ExitCode::from(1);
            }
        }
    };
    let file = if cli.input == "-" { "<stdin>".to_string() } else { cli.input.clone() };
    let o = hivm_cli::opt::Options {
        input: Some(cli.input),
        verify_each: true,
        passes,
        timing: cli.timing,
        generic: cli.generic,
        print_ir_after_all: cli.print_ir_after_all,
        print_ir_before_all: cli.print_ir_before_all,
        ..Default::default()
    };
    let mut sink = match output::Output::create(cli.output.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("hivm-compile: cannot open output file: {e}");
            return ExitCode::from(1);
        }
    };
    let out = hivm_cli::opt::run(&o, &text, &file, None, &mut sink);
    eprint!("{}", out.stderr);
    if out.failed {
        sink.discard();
        return ExitCode::from(1);
    }
    if let Err(e) = sink.commit() {
        eprintln!("hivm-compile: error writing output: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

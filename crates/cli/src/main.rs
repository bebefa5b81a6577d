//! `hivm-opt`: parse, verify, transform and print MLIR with the HIVM dialects,
//! accepting mlir-opt's command-line conventions (single- or double-dash flags).

mod input;
mod output;

use hivm_cli::opt;

use std::process::ExitCode;

const HELP: &str = "OVERVIEW: hivm-rs modular optimizer driver

USAGE: hivm-opt [options] <input file>

OPTIONS:
  -o <filename>                  Output filename (default: stdout)
  --split-input-file             Split the input file into pieces and process each chunk independently
  --verify-diagnostics           Check that emitted diagnostics match expected-* lines on the corresponding line
  --mlir-print-op-generic        Print the generic op form
  --mlir-print-debuginfo         Print debug info in MLIR output
  --mlir-timing                  Report wall time of parsing, verification, passes and output
  --link-aicore-bitcode=<files>  Check that custom-op implementations are defined once in these files
                                 (LLVM bitcode or ELF), besides each op's `bitcode` attribute
  --mlir-print-ir-before-all     Print the IR before each pass (to stderr)
  --mlir-print-ir-after-all      Print the IR after each pass (to stderr)
  --allow-unregistered-dialect   Allow operation with no registered dialects
  --verify-each                  Run the verifier after each transformation pass (default: true)
  --pass-pipeline=<pipeline>     A textual description of a pass pipeline to run
  --<pass-name>                  Run a registered pass (see --list-passes)
  --list-passes                  List the registered passes
  --version                      Display the version of this program
  --help                         Display available options
";

fn main() -> ExitCode {
    hivm_cli::run_driver("hivm-opt", real_main)
}

fn real_main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut o = opt::Options { verify_each: true, ..Default::default() };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "-" || !a.starts_with('-') {
            if o.input.is_some() {
                eprintln!(
                    "hivm-opt: Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: hivm-opt --help"
                );
                return ExitCode::from(1);
            }
            o.input = Some(a.clone());
            continue;
        }
        let flag = a.trim_start_matches('-');
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        match name {
            "o" => {
                let v = value.or_else(|| {
                    i += 1;
                    args.get(i - 1).cloned()
                });
                match v {
                    Some(v) => o.output = Some(v),
                    None => {
                        eprintln!("hivm-opt: for the -o option: requires a value!");
                        return ExitCode::from(1);
                    }
                }
            }
            "split-input-file" => o.split_input_file = true,
            "verify-diagnostics" => o.verify_diagnostics = true,
            "mlir-print-op-generic" => o.generic = true,
            "mlir-print-debuginfo" => {
                o.debuginfo = true;
                hivm_ir::printer::NOTE_LOCATIONS.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            "allow-unregistered-dialect" => o.allow_unregistered = true,
            "mlir-timing" => o.timing = true,
            "link-aicore-bitcode" => match value {
                // The check needs the custom ops, so it runs before any pass
                // that lowers them, wherever the flag is written.
                Some(v) => o.passes.insert(0, format!("hivm-check-implementations{{files={v}}}")),
                None => {
                    eprintln!("hivm-opt: for the --link-aicore-bitcode option: requires a value!");
                    return ExitCode::from(1);
                }
            },
            "mlir-print-ir-before-all" => o.print_ir_before_all = true,
            "mlir-print-ir-after-all" => o.print_ir_after_all = true,
            "mlir-disable-threading" | "mlir-print-local-scope" => {}
            "verify-each" => o.verify_each = value.as_deref() != Some("false") && value.as_deref() != Some("0"),
            "pass-pipeline" => match value {
                Some(v) => o.passes.push(v),
                None => {
                    eprintln!("hivm-opt: for the --pass-pipeline option: requires a value!");
                    return ExitCode::from(1);
                }
            },
            "help" | "h" => {
                print!("{HELP}");
                return ExitCode::SUCCESS;
            }
            "version" => {
                println!("hivm-rs {}\n  hivm-opt (MLIR 22 textual format compatible)", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            "list-passes" => {
                for (n, d) in hivm_cli::passes::registry().list() {
                    println!("  --{n:<30} {d}");
                }
                return ExitCode::SUCCESS;
            }
            _ => {
                if hivm_cli::passes::registry().contains(name) {
                    o.passes.push(match value {
                        Some(v) => format!("{name}{{{v}}}"),
                        None => name.to_string(),
                    });
                } else {
                    eprintln!("hivm-opt: Unknown command line argument '{a}'.  Try: 'hivm-opt --help'");
                    return ExitCode::from(1);
                }
            }
        }
    }
    let file = match o.input.as_deref() {
        None | Some("-") => "<stdin>".to_string(),
        Some(path) => path.to_string(),
    };
    let input = match input::Input::open(o.input.as_deref()) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("hivm-opt: could not open input file '{file}': {e}");
            return ExitCode::from(1);
        }
    };
    let text = match input.text() {
        Ok(t) => t,
        Err(valid_up_to) => {
            // Report the first invalid byte as a located error, as the lexer would.
            let valid = &input.bytes()[..valid_up_to];
            let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
            let col = valid.len() - valid.iter().rposition(|b| *b == b'\n').map(|p| p + 1).unwrap_or(0) + 1;
            eprintln!("{file}:{line}:{col}: error: input is not valid UTF-8");
            return ExitCode::from(1);
        }
    };
    let release = |start: usize, end: usize| input.release(start, end);
    let mut sink = match output::Output::create(o.output.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("hivm-opt: cannot open output file: {e}");
            return ExitCode::from(1);
        }
    };
    let out = opt::run(&o, text, &file, Some(&release), &mut sink);
    eprint!("{}", out.stderr);
    if out.failed {
        sink.discard();
        return ExitCode::from(1);
    }
    if let Err(e) = sink.commit() {
        eprintln!("hivm-opt: error writing output: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

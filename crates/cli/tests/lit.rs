//! Runs the lit-style `.mlir` suite under `tests/lit`: each `// RUN:` line is
//! executed with `hivm-opt` resolved to the freshly built binary. A trailing
//! `| FileCheck ...` is evaluated in-process with `litcheck-filecheck`, so no
//! system packages are needed. Setting `HIVM_FILECHECK=/path/to/FileCheck`
//! runs LLVM's FileCheck instead, as a cross-check.
//!
//! A file with `// REQUIRES: llvm-22` also needs upstream MLIR/LLVM 22
//! (mlir-opt, mlir-translate, clang under `/usr/lib/llvm-22/bin`, or
//! `LLVM_BIN`); without them it fails when `HIVM_REQUIRE_MLIR_OPT=1` (as in
//! `.ci/run`) and is otherwise reported as UNSUPPORTED, never passed.
//!
//! Usage: `cargo test --test lit [-- FILTER]`.

use std::path::{Path, PathBuf};
use std::process::Command;

use litcheck_filecheck::litcheck::Symbol;
use litcheck_filecheck::litcheck::diagnostics::{FileName, SourceLanguage};
use litcheck_filecheck::{Config, Test};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            // `Inputs` hold files tests use, as in LLVM's lit.
            if p.file_name().is_some_and(|n| n != "Inputs") {
                collect(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "mlir") {
            out.push(p);
        }
    }
}

fn run_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for l in text.lines() {
        let Some(i) = l.find("RUN:") else { continue };
        let body = l[i + 4..].trim();
        if let Some(b) = body.strip_suffix('\\') {
            cur.push_str(b);
            cur.push(' ');
        } else {
            cur.push_str(body);
            lines.push(std::mem::take(&mut cur));
        }
    }
    lines
}

struct FileCheckArgs {
    check_file: String,
    prefixes: Vec<String>,
    match_full_lines: bool,
    strict_whitespace: bool,
    allow_empty: bool,
    implicit_check_not: Vec<String>,
}

fn parse_filecheck(args: &str, test_path: &str) -> Result<FileCheckArgs, String> {
    let mut fc = FileCheckArgs {
        check_file: String::new(),
        prefixes: Vec::new(),
        match_full_lines: false,
        strict_whitespace: false,
        allow_empty: false,
        implicit_check_not: Vec::new(),
    };
    for a in args.split_whitespace() {
        let a = a.replace("%s", test_path);
        let flag = a.trim_start_matches('-');
        if let Some(v) = flag.strip_prefix("check-prefixes=").or_else(|| flag.strip_prefix("check-prefix=")) {
            fc.prefixes.extend(v.split(',').map(str::to_string));
        } else if let Some(v) = flag.strip_prefix("implicit-check-not=") {
            fc.implicit_check_not.push(v.trim_matches('\'').trim_matches('"').to_string());
        } else if flag == "match-full-lines" {
            fc.match_full_lines = true;
        } else if flag == "strict-whitespace" {
            fc.strict_whitespace = true;
        } else if flag == "allow-empty" {
            fc.allow_empty = true;
        } else if flag.starts_with("dump-input") || flag.starts_with("vv") || flag == "v" {
        } else if !a.starts_with('-') {
            fc.check_file = a.to_string();
        } else {
            return Err(format!("unsupported FileCheck option {a}"));
        }
    }
    Ok(fc)
}

fn filecheck(fc: &FileCheckArgs, input: &str) -> Result<(), String> {
    let mut config = Config::default();
    if !fc.prefixes.is_empty() {
        config.options.check_prefixes = fc.prefixes.iter().map(Symbol::intern).collect();
    }
    config.options.match_full_lines = fc.match_full_lines;
    config.options.strict_whitespace = fc.strict_whitespace;
    config.options.allow_empty = fc.allow_empty;
    config.options.implicit_check_not = fc.implicit_check_not.iter().map(Symbol::intern).collect();
    let checks_text = std::fs::read_to_string(&fc.check_file).map_err(|e| format!("{}: {e}", fc.check_file))?;
    let sm = config.source_manager.clone();
    let checks = sm.load(SourceLanguage::Unknown, FileName::from(fc.check_file.clone()), checks_text);
    let input = sm.load(SourceLanguage::Unknown, FileName::from("<stdin>".to_string()), input.to_string());
    Test::new(checks, &config).verify(input).map(|_| ()).map_err(|e| format!("{e:?}"))
}

const PRELUDE: &str = "set -o pipefail\nnot() { \"$@\"; [ $? -ne 0 ]; }\n";

fn run_test(path: &Path, opt: &str, real_filecheck: Option<&str>) -> Result<(), String> {
    let run = env!("CARGO_BIN_EXE_hivm-run");
    let compile = env!("CARGO_BIN_EXE_hivm-compile");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let lines = run_lines(&text);
    if lines.is_empty() {
        return Err("no RUN lines".into());
    }
    let tp = path.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("hivm-lit-{}", std::process::id()));
    for line in lines {
        let dir = path.parent().and_then(|d| d.to_str()).unwrap_or(".");
        let line = line
            .replace("%S", dir)
            .replace("%s", tp)
            .replace("%t", tmp.to_str().unwrap())
            .replace("%root", root.to_str().unwrap())
            .replace("hivm-compile", compile)
            .replace("hivm-run", run)
            .replace("hivm-opt", opt)
            .replace("bishengir-opt", opt);
        let (cmd, fc) = match (real_filecheck, line.rfind("| FileCheck")) {
            (None, Some(i)) => (line[..i].to_string(), Some(parse_filecheck(&line[i + "| FileCheck".len()..], tp)?)),
            (Some(real), _) => (line.replace("FileCheck", real), None),
            (None, None) => (line.clone(), None),
        };
        // A RUN line that hangs (or leaves a process holding its output
        // pipes) fails after ten minutes instead of stopping the suite.
        let out = Command::new("timeout")
            .args(["-k", "10", "600", "bash"])
            .env("HIVM_OPT", opt)
            .arg("-c")
            .arg(format!("{PRELUDE}{cmd}"))
            .output()
            .map_err(|e| format!("failed to run bash: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "RUN: {line}\nexit: {}\nstderr:\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if let Some(fc) = fc {
            let stdout = String::from_utf8_lossy(&out.stdout);
            filecheck(&fc, &stdout)
                .map_err(|e| format!("RUN: {line}\nFileCheck failed:\n{e}\ninput was:\n{stdout}"))?;
        }
    }
    Ok(())
}

/// Whether the upstream toolchain a `REQUIRES: llvm-22` test uses is here.
fn have_llvm22() -> bool {
    let bin = std::env::var("LLVM_BIN").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    ["mlir-opt", "mlir-translate", "clang"].iter().all(|t| Path::new(&bin).join(t).exists())
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/lit");
    let opt = env!("CARGO_BIN_EXE_hivm-opt");
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let real = std::env::var("HIVM_FILECHECK").ok();
    let mut files = Vec::new();
    collect(&root, &mut files);
    let (mut passed, mut failed, mut unsupported) = (0, 0, 0);
    let llvm22 = have_llvm22();
    let required = std::env::var("HIVM_REQUIRE_MLIR_OPT").as_deref() == Ok("1");
    for f in files {
        let name = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
        if !filter.is_empty() && !filter.iter().any(|p| name.contains(p.as_str())) {
            continue;
        }
        let needs_llvm22 = std::fs::read_to_string(&f).is_ok_and(|t| t.contains("// REQUIRES: llvm-22"));
        if needs_llvm22 && !llvm22 {
            if required {
                failed += 1;
                println!(
                    "FAIL: {name}\nneeds mlir-opt, mlir-translate and clang 22 (apt-get install mlir-22-tools clang-22)\n"
                );
            } else {
                unsupported += 1;
                println!("UNSUPPORTED: {name} (needs mlir-22-tools and clang-22)");
            }
            continue;
        }
        match run_test(&f, opt, real.as_deref()) {
            Ok(()) => {
                passed += 1;
                println!("PASS: {name}");
            }
            Err(e) => {
                failed += 1;
                println!("FAIL: {name}\n{e}\n");
            }
        }
    }
    println!("lit: {passed} passed, {failed} failed, {unsupported} unsupported");
    if failed > 0 || passed == 0 {
        std::process::exit(1);
    }
}

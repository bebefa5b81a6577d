//! Aliases that each use the one before twice: a few hundred bytes that would
//! print 2^40 elements. The printer counts what a value expands to before
//! printing it (linear in the distinct values) and stops at once with an
//! error at the op, instead of growing its text until memory runs out.
//! (Not a lit test: the fuzzer mutates tests/lit, and seeds like this one
//! make every mutant a slow near-limit print.)

use std::process::Command;
use std::time::{Duration, Instant};

fn doubling(prefix: &str, levels: usize, leaf: &str, wrap: impl Fn(&str) -> String) -> String {
    let mut text = format!("{prefix}0 = {leaf}\n");
    for i in 1..=levels {
        let prev = format!("{prefix}{}", i - 1);
        text.push_str(&format!("{prefix}{i} = {}\n", wrap(&prev)));
    }
    text
}

fn opt(text: &str) -> (bool, String, String) {
    let path = std::env::temp_dir().join(format!("hivm-alias-blowup-{}-{}.mlir", std::process::id(), text.len()));
    std::fs::write(&path, text).unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_hivm-opt")).arg("--allow-unregistered-dialect").arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn doubling_aliases_are_refused_at_their_op_at_once() {
    let arrays = doubling("#a", 40, "[1, 2]", |p| format!("[{p}, {p}]")) + "\"t.op\"() {x = #a40} : () -> ()\n";
    let tuples = doubling("!t", 40, "tuple<i32, i32>", |p| format!("tuple<{p}, {p}>"))
        + "func.func @f() {\n  %0 = \"t.op\"() : () -> !t40\n  return\n}\n";
    for (text, at) in [(&arrays, ":42:1: error: "), (&tuples, ":43:8: error: ")] {
        assert!(text.len() < 1200, "{} bytes", text.len());
        let start = Instant::now();
        let (ok, stdout, stderr) = opt(text);
        assert!(!ok && stdout.is_empty(), "{stdout}");
        assert!(stderr.contains(&format!("{at}an operation's printed form would exceed")), "{stderr}");
        assert!(start.elapsed() < Duration::from_secs(20), "took {:?}", start.elapsed());
    }
}

#[test]
fn a_few_doublings_print_in_full() {
    let text = doubling("#b", 3, "[1, 2]", |p| format!("[{p}, {p}]")) + "\"t.op\"() {x = #b3} : () -> ()\n";
    let (ok, stdout, stderr) = opt(&text);
    assert!(ok, "{stderr}");
    let two = "[[1, 2], [1, 2]]";
    let four = format!("[{two}, {two}]");
    assert!(stdout.contains(&format!("{{x = [{four}, {four}]}}")), "{stdout}");
}

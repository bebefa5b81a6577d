//! Every input the fuzzer ever found failing must now pass the round-trip check.

#[test]
fn saved_crashers_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fuzz-crashers");
    let reg = hivm_dialects::shared_registry();
    let mut failures = Vec::new();
    let mut count = 0;
    for e in std::fs::read_dir(&dir).expect("tests/fuzz-crashers exists").flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "mlir") {
            continue;
        }
        count += 1;
        let bytes = std::fs::read(&p).unwrap();
        if let Err(msg) = hivm_fuzz::check_catching(&reg, &bytes) {
            failures.push(format!("{}: {msg}", p.display()));
        }
    }
    assert!(count > 0, "no crashers found in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn short_fuzz_run_finds_nothing() {
    // A deterministic, bounded sample of mutants over the lit and diff corpora.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bin = env!("CARGO_BIN_EXE_hivm-fuzz");
    let out = std::env::temp_dir().join(format!("hivm-fuzz-test-{}", std::process::id()));
    let status = std::process::Command::new(bin)
        .args(["--seconds", "10", "--seed", "42", "--out"])
        .arg(&out)
        .arg(root.join("tests/lit"))
        .arg(root.join("tests/diff"))
        .status()
        .unwrap();
    assert!(status.success(), "fuzzer found failures; see {}", out.display());
}

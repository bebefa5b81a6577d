//! `hivm-run --print` into a pipe its reader has closed (`| head`) ends with
//! an error message and exit 1, not a panic.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn printing_into_a_closed_pipe_is_an_error_not_a_panic() {
    let dir = std::env::temp_dir().join(format!("hivm-closed-stdout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kernel = dir.join("k.mlir");
    std::fs::write(&kernel, "func.func @k(%a: memref<400000xi32>) {\n  return\n}\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hivm-run"))
        .arg(&kernel)
        .args(["--arg", "zeros:400000xi32", "--print", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end at once: every write then fails with EPIPE.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error writing output"), "{stderr}");
    let _ = std::io::stderr().flush();
    std::fs::remove_dir_all(&dir).ok();
}

//! Builds `intrinsics/check.cpp` against the twin header with the system
//! C++ compiler and runs it: every vector intrinsic for every dtype, mask
//! mode, repeat and stride combination, and the copies, against reference
//! computations.

use std::process::Command;

#[test]
fn intrinsics_match_reference() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let out = std::env::temp_dir().join(format!("hivm-twin-check-{}", std::process::id()));
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let build = Command::new(&cxx)
        .args(["-std=c++17", "-O2", "-Wno-attributes", "-include"])
        .arg(format!("{dir}/include/hivm_twin.h"))
        .arg(format!("{dir}/tests/intrinsics/check.cpp"))
        .arg(format!("{dir}/include/hivm_twin_rt.c"))
        .arg("-o")
        .arg(&out)
        .output()
        .expect("a C++ compiler (c++) is needed to test the twin header");
    assert!(build.status.success(), "compiling the check failed:\n{}", String::from_utf8_lossy(&build.stderr));
    let run = Command::new(&out).output().expect("running the check");
    let _ = std::fs::remove_file(&out);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    let cases: u64 = stdout.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(cases > 10_000, "too few cases ran: {stdout}");
}

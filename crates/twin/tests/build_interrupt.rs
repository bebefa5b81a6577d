//! Stopping a run while the C/C++ compiler builds an implementation: the
//! compiler is killed with everything it started (cc1plus, as) and the run
//! ends as interrupted within about a second, not when the compile ends.

use std::path::Path;
use std::time::{Duration, Instant};

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, RunOptions};

/// Constant evaluation that keeps g++ busy for several seconds (each
/// constant within the default operation limit).
const SLOW: &str = r#"
constexpr long spin(long n) { long s = 0; for (long i = 0; i < n; i++) for (long j = 0; j < 1000; j++) s += (i ^ j) % 3; return s; }
constexpr long A0 = spin(1500);
constexpr long A1 = spin(1501);
constexpr long A2 = spin(1502);
constexpr long A3 = spin(1503);
extern "C" void _mlir_ciface_slow(void *, void *) { (void)(A0 + A1 + A2 + A3); }
"#;

const KERNEL: &str = r#"func.func @k(%in: memref<8xf32>, %out: memref<8xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "slow"} "slow" ins(%in : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}
"#;

/// Live (not zombie) processes whose command line mentions `needle`.
fn live_with(needle: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if !e.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else { continue };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let zombie = stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with('Z'));
        if cmd.contains(needle) && !zombie {
            out.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
        }
    }
    out
}

#[test]
fn ctrl_c_during_a_build_stops_the_compiler() {
    let nonce = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("hivm-build-interrupt-{}-{nonce}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A name of its own, found again in the compilers' command lines; new
    // content, so that no cached build is found.
    let name = format!("slow-{nonce}.cpp");
    let src = dir.join(&name);
    std::fs::write(&src, format!("{SLOW}// {nonce}\n")).unwrap();
    let opts = RunOptions {
        impls: vec![src.clone()],
        args: vec![ArgSpec::Zeros(vec![8], Elem::F32), ArgSpec::Zeros(vec![8], Elem::F32)],
        timeout: Duration::from_secs(60),
        ..RunOptions::default()
    };
    let started = Instant::now();
    // Ctrl-C 0.3 s into the run, while the compiler is busy.
    let check: hivm_twin::interrupt::Check =
        std::sync::Arc::new(move || started.elapsed() >= Duration::from_millis(300));
    let out = hivm_twin::interrupt::with_check(Some(check), || {
        hivm_twin::run_source(KERNEL, "k.mlir", Path::new("."), &opts)
    });
    let took = started.elapsed();
    let err = out.error.as_ref().map(|e| e.message.clone()).unwrap_or_default();
    assert_eq!(err, "interrupted");
    assert!(took < Duration::from_millis(1500), "the run stopped {took:?} after it began (Ctrl-C at 0.3 s)");
    let left = live_with(&name);
    assert!(left.is_empty(), "compiler processes left behind: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! A kernel prepared once and run many times gives each run's own numbers,
//! and an implementation edited between runs is rebuilt (the process
//! remembers built libraries by their files' stamps, never past a change).

use std::path::Path;
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, Prepared, RunOptions};

const KERNEL: &str = r#"
module {
  func.func @k(%a: memref<16xi32, #hivm.address_space<ub>>, %b: memref<16xi32, #hivm.address_space<ub>>, %c: memref<16xi32, #hivm.address_space<ub>>) {
    hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, source = "impl.c", symbol = "k"} "k" ins(%a, %b : memref<16xi32, #hivm.address_space<ub>>, memref<16xi32, #hivm.address_space<ub>>) outs(%c : memref<16xi32, #hivm.address_space<ub>>)
    return
  }
}
"#;

fn implementation(op: &str) -> String {
    format!(
        "#include <stdint.h>\n\
         typedef struct {{ int32_t *allocated, *aligned; int64_t offset, sizes[1], strides[1]; }} m1;\n\
         void _mlir_ciface_k(m1 *a, m1 *b, m1 *c) {{\n\
           for (int i = 0; i < 16; ++i) c->aligned[c->offset + i] = a->aligned[a->offset + i] {op} b->aligned[b->offset + i];\n\
         }}\n"
    )
}

fn array(v: impl Fn(i32) -> i32) -> ArgSpec {
    array_of(16, v)
}

fn array_of(n: i32, v: impl Fn(i32) -> i32) -> ArgSpec {
    ArgSpec::Array(Elem::Int(32), vec![n as i64], (0..n).flat_map(|i| v(i).to_le_bytes()).collect())
}

fn opts(args: Vec<ArgSpec>) -> RunOptions {
    RunOptions { args, timeout: Duration::from_secs(60), ..RunOptions::default() }
}

fn out(p: &Prepared, a: impl Fn(i32) -> i32, b: impl Fn(i32) -> i32) -> Vec<i32> {
    let r = p.run(&opts(vec![array(a), array(b), array(|_| 0)]));
    if let Some(e) = &r.error {
        panic!("{}", p.render(e));
    }
    let (_, _, bytes) = r.args[2].clone().expect("a memref");
    bytes.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn runs_again_with_new_inputs_and_a_rebuilt_implementation() {
    let dir = std::env::temp_dir().join(format!("hivm-twin-prepared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("impl.c");
    std::fs::write(&src, implementation("+")).unwrap();
    let p = Prepared::new(KERNEL.to_string(), "k.mlir", &dir, &opts(vec![])).unwrap_or_else(|o| {
        panic!("{}", o.render(o.error.as_ref().unwrap()));
    });
    assert_eq!(out(&p, |i| i, |i| 100 * i), (0..16).map(|i| 101 * i).collect::<Vec<_>>());
    assert_eq!(out(&p, |i| 2 * i, |_| 7), (0..16).map(|i| 2 * i + 7).collect::<Vec<_>>());
    // Edited in place (same size, same second): the change time still moves.
    std::fs::write(&src, implementation("-")).unwrap();
    assert_eq!(out(&p, |i| 3 * i, |i| i), (0..16).map(|i| 2 * i).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The document's kernel (its implementation calls `vadd`, whose trace the
/// checker replays after each call) run many times from one preparation,
/// on pooled buffers and reused shared memory: each run gets its own sums
/// and no report.
#[test]
fn the_document_kernel_runs_many_times() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/custom_add");
    let text = std::fs::read_to_string(root.join("kernel.mlir")).unwrap();
    let args = |n: i32| {
        let mut a = vec![
            ArgSpec::Array(Elem::Int(8), vec![1], vec![0]),
            ArgSpec::Array(Elem::Int(8), vec![1], vec![0]),
            array_of(32, |_| 0),
            array_of(32, |i| i * n),
            array_of(32, |i| i + n),
        ];
        a.extend(["1", "1", "1", "0", "0", "0"].map(|s| ArgSpec::Literal(s.into())));
        a
    };
    let p = Prepared::new(text, "kernel.mlir", &root, &opts(vec![])).unwrap_or_else(|o| {
        panic!("{}", o.render(o.error.as_ref().unwrap()));
    });
    for n in 0..6 {
        let r = p.run(&opts(args(n)));
        if let Some(e) = &r.error {
            panic!("run {n}: {}", p.render(e));
        }
        assert!(r.reports.is_empty(), "run {n}: {}", p.render(&p.report_diagnostic(0, &r.reports[0].1, 1)));
        let (_, _, bytes) = r.args[2].clone().expect("a memref");
        let got: Vec<i32> = bytes.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
        let want: Vec<i32> = (0..32).map(|i| i * n + i + n).collect();
        assert_eq!(got, want, "run {n}");
    }
}

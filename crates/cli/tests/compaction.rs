//! Compacting the IR between passes (`PassManager::run_compacting`) must not
//! change what a pipeline produces: the same kernels run with and without it
//! print byte-identically, in custom and generic form, and the compacted IR
//! keeps working (verifies, takes further passes, re-parses).

use std::fmt::Write;
use std::sync::Arc;

use hivm_ir::parser::Parser;
use hivm_ir::pass::PassManager;
use hivm_ir::printer::{PrintOptions, print_top_level};
use hivm_ir::{Ir, OpId};

const PIPELINE: &[&str] =
    &["hivm-alloc-extra-buffer", "one-shot-bufferize", "convert-hivm-to-std", "canonicalize", "cse"];

/// A chain of `n` custom ops (in place every third, else with a scratch
/// buffer), a loop and a branch over tensors, and an unstructured function
/// with block arguments and successors, so that every kind of id is renumbered.
fn kernel(n: usize) -> String {
    let t = "tensor<64xf32>";
    let mut s = String::new();
    s.push_str("module {\n  func.func @kernel(%m0: memref<64xf32>, %m1: memref<64xf32>, %m2: memref<64xf32>, %c: i1) ");
    s.push_str("attributes {hacc.function_kind = #hacc.function_kind<DEVICE>} {\n");
    let _ = writeln!(s, "    %a = bufferization.to_tensor %m0 restrict writable : memref<64xf32> to {t}");
    let _ = writeln!(s, "    %b = bufferization.to_tensor %m1 restrict : memref<64xf32> to {t}");
    let mut prev = "%a".to_string();
    for i in 0..n {
        let pipe = ["PIPE_V", "PIPE_MTE2", "PIPE_MTE3"][i % 3];
        let common = format!(
            "hivm.pipe = #hivm.pipe<{pipe}>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>"
        );
        if i % 3 == 2 {
            let _ = writeln!(
                s,
                "    %r{i} = hivm.hir.custom {{{common}, symbol = \"inplace_{}\"}} \"op_{i}\" \
                 ins({prev}, %b : {t} {{inplace_outs = 0 : i32}}, {t}) outs({prev} : {t}) -> {t}",
                i % 7
            );
        } else {
            let _ = writeln!(s, "    %e{i} = tensor.empty() : {t}");
            let _ = writeln!(
                s,
                "    %r{i} = hivm.hir.custom {{extra_buffers_sizes = [{}], extra_buffers_types = [f32], {common}, \
                 symbol = \"impl_{}\"}} \"op_{i}\" ins({prev}, %b : {t}, {t}) outs(%e{i} : {t}) -> {t}",
                256 * (1 + i % 4),
                i % 11
            );
        }
        prev = format!("%r{i}");
    }
    let _ = writeln!(
        s,
        "    %lb = arith.constant 0 : index\n    %ub = arith.constant 4 : index\n    %st = arith.constant 1 : index"
    );
    let _ = writeln!(s, "    %loop = scf.for %i = %lb to %ub step %st iter_args(%acc = {prev}) -> ({t}) {{");
    let _ = writeln!(
        s,
        "      %x = hivm.hir.custom {{hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, \
         hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = \"in_loop\"}} \"looped\" \
         ins(%acc, %b : {t} {{inplace_outs = 0 : i32}}, {t}) outs(%acc : {t}) -> {t}"
    );
    let _ = writeln!(s, "      scf.yield %x : {t}\n    }}");
    let _ = writeln!(
        s,
        "    %sel = scf.if %c -> ({t}) {{\n      scf.yield %loop : {t}\n    }} else {{\n      scf.yield %b : {t}\n    }}"
    );
    let _ =
        writeln!(s, "    bufferization.materialize_in_destination %sel in writable %m2 : ({t}, memref<64xf32>) -> ()");
    s.push_str("    return\n  }\n");
    s.push_str("  func.func @branches(%c: i1, %x: index) -> index {\n    cf.cond_br %c, ^a(%x : index), ^b\n");
    s.push_str(
        "  ^a(%y: index):\n    %z = arith.addi %y, %y : index\n    cf.br ^b\n  ^b:\n    return %x : index\n  }\n}\n",
    );
    s
}

fn parse(text: &str) -> (Ir, OpId) {
    let mut ir = Ir::new(hivm_dialects::shared_registry());
    let module = Parser::new(&mut ir, text, "kernel.mlir", 1).parse_module().unwrap_or_else(|e| panic!("{}", e.msg));
    (ir, module)
}

fn pipeline() -> PassManager {
    let pieces: Vec<String> = PIPELINE.iter().map(|s| s.to_string()).collect();
    PassManager::from_cli(&hivm_cli::passes::registry(), &pieces).unwrap()
}

fn print_both(ir: &Ir, module: OpId) -> (String, String) {
    let custom = print_top_level(ir, module, PrintOptions::default());
    let generic = print_top_level(ir, module, PrintOptions { generic: true, ..PrintOptions::default() });
    (custom, generic)
}

#[test]
fn compacting_between_passes_changes_no_output() {
    let text = kernel(6000);
    let (mut plain, m) = parse(&text);
    pipeline().run(&mut plain, m, true).unwrap();
    let expected = print_both(&plain, m);

    let (mut ir, m) = parse(&text);
    let m = pipeline().run_compacting(&mut ir, m, true).unwrap();
    assert!(
        ir.op_arena_len() < plain.op_arena_len(),
        "the arenas were not compacted ({} op slots vs {})",
        ir.op_arena_len(),
        plain.op_arena_len()
    );
    let got = print_both(&ir, m);
    assert!(got.0 == expected.0, "custom form differs after compaction");
    assert!(got.1 == expected.1, "generic form differs after compaction");

    // The compacted IR is still whole: it verifies, takes more passes
    // (which create and erase ops), and what it prints parses back.
    assert!(hivm_ir::verifier::verify(&ir, m).is_ok());
    let again = ["canonicalize".to_string(), "cse".to_string()];
    PassManager::from_cli(&hivm_cli::passes::registry(), &again).unwrap().run(&mut ir, m, true).unwrap();
    let (reparsed, rm) = parse(&got.0);
    assert_eq!(print_top_level(&reparsed, rm, PrintOptions::default()), got.0);
}

#[test]
fn compaction_refuses_a_nested_root() {
    let text = kernel(10);
    let (mut ir, m) = parse(&text);
    let func = ir.block_ops(ir.region_blocks(ir.regions(m)[0])[0]).next().unwrap();
    let before = ir.op_arena_len();
    assert_eq!(ir.compact(func), func);
    assert_eq!(ir.op_arena_len(), before);
    let _ = Arc::strong_count(&ir.registry);
}

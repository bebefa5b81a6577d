//! Every HIVM op reports the pipe it occupies, as the sync solver needs.

use hivm_dialects::hivm::ops::op_pipes;
use hivm_ir::{Ir, OpId};

fn module(text: &str) -> (Ir, OpId) {
    let mut ir = Ir::new(hivm_dialects::shared_registry());
    let m = {
        let mut p = hivm_ir::parser::Parser::new(&mut ir, text, "pipes.mlir", 0);
        p.parse_module().map_err(|e| e.msg).unwrap()
    };
    assert!(hivm_ir::verifier::verify_all(&ir, m).is_empty());
    (ir, m)
}

#[test]
fn ops_report_their_pipes() {
    let (ir, m) = module(
        r#"
func.func @f(%gm: memref<16xf16, #hivm.address_space<gm>>, %ub: memref<16xf16, #hivm.address_space<ub>>,
             %ub2: memref<16xf16, #hivm.address_space<ub>>, %l1: memref<16xf16, #hivm.address_space<cbuf>>, %c: f16) {
  hivm.hir.load ins(%gm : memref<16xf16, #hivm.address_space<gm>>) outs(%ub : memref<16xf16, #hivm.address_space<ub>>)
  hivm.hir.vadd ins(%ub, %ub2 : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%ub2 : memref<16xf16, #hivm.address_space<ub>>)
  hivm.hir.store ins(%ub : memref<16xf16, #hivm.address_space<ub>>) outs(%gm : memref<16xf16, #hivm.address_space<gm>>)
  hivm.hir.copy ins(%ub : memref<16xf16, #hivm.address_space<ub>>) outs(%ub2 : memref<16xf16, #hivm.address_space<ub>>)
  hivm.hir.copy ins(%gm : memref<16xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.vbrc ins(%c : f16) outs(%l1 : memref<16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "u.c" ins(%ub : memref<16xf16, #hivm.address_space<ub>>) outs(%ub2 : memref<16xf16, #hivm.address_space<ub>>)
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k"} "u.m" ins(%gm : memref<16xf16, #hivm.address_space<gm>>) outs(%ub : memref<16xf16, #hivm.address_space<ub>>)
  return
}"#,
    );
    let func = ir.block_ops(ir.region_blocks(ir.regions(m)[0])[0]).next().unwrap();
    let body = ir.region_blocks(ir.regions(func)[0])[0];
    let got: Vec<Vec<String>> = ir.block_ops(body).map(|o| op_pipes(&ir, o)).collect();
    let want: Vec<Vec<&str>> = vec![
        vec!["PIPE_MTE2"],
        vec!["PIPE_V"],
        vec!["PIPE_MTE3"],
        vec!["PIPE_V"],
        vec!["PIPE_MTE2"],
        vec!["PIPE_MTE2"],
        vec!["PIPE_V"],
        vec!["PIPE_MTE2", "PIPE_V"],
        vec![],
    ];
    assert_eq!(got, want);
}

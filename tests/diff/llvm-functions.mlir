// LLVM functions, globals, calls, GEPs, allocas, inline asm, NVVM registers and branches.
llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
llvm.mlir.global private constant @str("abc\00") : !llvm.array<4 x i8>
llvm.mlir.global internal @g2(0 : i32) : i32
llvm.mlir.global external thread_local unnamed_addr @g3() : !llvm.ptr

llvm.func @vararg(i32, ...)
llvm.func internal @h(%a: i32 {llvm.noundef}) -> i32 attributes {dso_local, passthrough = ["nounwind"]} {
  llvm.return %a : i32
}
llvm.func @kernel(%arg0: !llvm.ptr<1>, %arg6: i32 {gpu.block = #gpu.block<x>, tt.divisibility = 1 : i32}) attributes {hacc.entry, nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>} {
  llvm.return
}

llvm.func @decl(i32, !llvm.ptr) -> i32
llvm.func @v(i32)
llvm.func @f(%a: i32, %p: !llvm.ptr, %q: !llvm.ptr<1>, %b: i1) -> i32 {
  %c = llvm.mlir.constant(1 : i32) : i32
  %0 = llvm.getelementptr %p[%a] : (!llvm.ptr, i32) -> !llvm.ptr, i64
  %1 = llvm.getelementptr inbounds %p[%a, 1] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  %2 = llvm.getelementptr %q[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  %3 = llvm.getelementptr inbounds|nuw %p[%a] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  %4 = llvm.alloca %c x i32 : (i32) -> !llvm.ptr
  %5 = llvm.alloca %c x f32 {alignment = 16 : i64} : (i32) -> !llvm.ptr
  %6 = llvm.call @decl(%a, %p) : (i32, !llvm.ptr) -> i32
  llvm.call @v(%a) : (i32) -> ()
  %7 = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u64 $0, 0x0;", "=l,l" %q : (!llvm.ptr<1>) -> i64
  %8 = llvm.inline_asm "nop", "=r"  : () -> i32
  %9 = nvvm.read.ptx.sreg.tid.x : i32
  llvm.cond_br %b, ^bb1(%a : i32), ^bb2
^bb1(%r: i32):
  llvm.br ^bb2
^bb2:
  llvm.return %a : i32
}
llvm.func @gv(i32, ...)
llvm.func @vcall(%a: i32, %b: f32) {
  llvm.call @gv(%a, %b) vararg(!llvm.func<void (i32, ...)>) : (i32, f32) -> ()
  llvm.return
}

// An alignment of 0 is none.
llvm.func @zero_align(%n: i64) {
  %0 = llvm.alloca %n x i32 {alignment = 0 : i64} : (i64) -> !llvm.ptr
  llvm.return
}

// A custom op on the cube core: its C++ implementation moves L1 -> L0A/L0B,
// multiplies and drains L0C to GM with the cube intrinsics the twin header
// emulates, each on its pipe; the sums are exact (integers below 2^24), as
// in cube-matmul.mlir. Without its own MTE1 -> M and M -> FIX handshakes
// the implementation races (reported once per op); an L0 access past the memory is a located error.
// RUN: python3 %root/scripts/npy.py %t.a.npy f16 16x32 range:0:1
// RUN: python3 %root/scripts/npy.py %t.b.npy f16 32x16 range:0:1
// RUN: hivm-run %s --impl %S/Inputs/cube_mm.cpp --arg %t.a.npy --arg %t.b.npy --arg zeros:16x16xf32 --print 2 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: sed 's/symbol = "cube_mm"/symbol = "cube_mm_racy"/' %s > %t.racy.mlir
// RUN: not hivm-run %t.racy.mlir --impl %S/Inputs/cube_mm.cpp --arg %t.a.npy --arg %t.b.npy --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: sed 's/symbol = "cube_mm"/symbol = "cube_mm_far"/' %s > %t.far.mlir
// RUN: not hivm-run %t.far.mlir --impl %S/Inputs/cube_mm.cpp --arg %t.a.npy --arg %t.b.npy --arg zeros:16x16xf32 2>&1 | FileCheck %s --check-prefix=FAR
// CHECK: {{\[}}[166656, 167152, 167648, 168144,
// CHECK-SAME: 173104, 173600, 174096],
// CHECK: [3975936, 3991792, 4007648,
// CHECK-SAME: 4182064, 4197920, 4213776]]
// RACE: error: race: PIPE_M read of L0A[0, 1024) is not ordered after an earlier PIPE_MTE1 write of the same memory (no set_flag/wait_flag chain orders them) [in the implementation: mad(
// FAR: error: custom op 'mm' (_mlir_ciface_cube_mm_far): load_cbuf_to_ca: L0A access [65280, 65792) is outside L0A (65536 bytes)
func.func @mm(%a: memref<16x32xf16>, %b: memref<32x16xf16>, %c: memref<16x16xf32>) {
  %z = arith.constant 0 : i64
  %o = arith.constant 1024 : i64
  %l1a = hivm.hir.pointer_cast(%z) : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>
  %l1b = hivm.hir.pointer_cast(%o) : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x32xf16>) outs(%l1a : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x16xf16>) outs(%l1b : memref<1x2x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe = #hivm.pipe<PIPE_MTE1>, symbol = "cube_mm"} "mm" ins(%l1a, %l1b : memref<2x1x16x16xf16, #hivm.address_space<cbuf>>, memref<1x2x16x16xf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x16xf32>)
  return
}

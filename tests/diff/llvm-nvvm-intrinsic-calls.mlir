// Calls of LLVM intrinsics by name (with operand bundles, argument and
// result attributes, fast-math flags, no result), `llvm.unreachable` ending
// a block, and the NVVM barrier and warp shuffles a Triton kernel lowers to.
llvm.func @abort()

llvm.func @kernel(%x: f32, %y: f32, %n: i32, %lanes: i32, %mask: i32, %p: !llvm.ptr) -> f32 {
  %e = llvm.call_intrinsic "llvm.exp2.f32"(%x) : (f32) -> f32
  %q = llvm.call_intrinsic "llvm.nvvm.div.full"(%e, %y) : (f32, f32) -> f32
  %f = llvm.call_intrinsic "llvm.fmuladd.f32"(%x, %y, %q) {fastmathFlags = #llvm.fastmath<contract, afn>} : (f32, f32, f32) -> f32
  %s = llvm.call_intrinsic "llvm.smax.i32"(%n, %lanes) : (i32 {llvm.noundef}, i32) -> (i32 {llvm.noundef})
  llvm.call_intrinsic "llvm.assume"(%mask) ["align"(%p, %n : !llvm.ptr, i32), "cold"()] : (i32) -> ()
  %t = llvm.call_intrinsic "llvm.ctpop.i32"(%n) {note = "bits"} : (i32) -> (i32)
  nvvm.barrier0
  %b = nvvm.shfl.sync bfly %mask, %f, %lanes, %n : f32 -> f32
  %u = nvvm.shfl.sync up %mask, %s, %lanes, %n : i32 -> i32
  %d = nvvm.shfl.sync down %mask, %b, %lanes, %n {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
  %i = nvvm.shfl.sync idx %mask, %t, %lanes, %n : i32 -> i32
  nvvm.barrier0 {phase = 1 : i32}
  %ok = llvm.icmp "slt" %u, %i : i32
  llvm.cond_br %ok, ^done, ^fail
^done:
  llvm.return %b : f32
^fail:
  llvm.call @abort() : () -> ()
  llvm.unreachable
}

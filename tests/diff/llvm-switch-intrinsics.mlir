// llvm.switch (default before the case list, signed case values), intrinsics with and without fast-math flags, NVVM grid registers.
llvm.func @f(%a: i32) {
  llvm.switch %a : i32, ^bb1 [
  ]
^bb1:
  llvm.switch %a : i32, ^bb2 [
    -1: ^bb2,
    4294967295: ^bb2
  ]
^bb2:
  llvm.return
}
llvm.func @sw(%a: i32, %b: i32) -> i32 {
  %n = nvvm.read.ptx.sreg.nctaid.x : i32
  llvm.switch %a : i32, ^bb1 [
    0: ^bb2(%b : i32),
    5: ^bb1
  ]
^bb1:
  llvm.return %a : i32
^bb2(%v: i32):
  llvm.return %v : i32
}
llvm.func @intr(%x: f32, %y: f32, %a: i32) -> f32 {
  %0 = llvm.intr.exp(%x) : (f32) -> f32
  %1 = llvm.intr.pow(%x, %y) {fastmathFlags = #llvm.fastmath<fast>} : (f32, f32) -> f32
  %2 = llvm.intr.fma(%x, %y, %x) : (f32, f32, f32) -> f32
  %3 = llvm.intr.ctpop(%a) : (i32) -> i32
  %4 = llvm.intr.fabs(%x) : (f32) -> f32
  %5 = llvm.intr.maxnum(%x, %y) : (f32, f32) -> f32
  llvm.return %0 : f32
}

// LLVM value ops: integer ops with overflow/exact/disjoint flags, fast-math float ops, casts, comparisons, constants, aggregates and vector elements.
func.func @f(%a: i32, %b: i64, %p: !llvm.ptr, %x: f32, %v: vector<4xf32>, %s: !llvm.struct<(i32,!llvm.ptr, f32)>) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1.0 : f32) : f32
  %z = llvm.mlir.zero : !llvm.ptr
  %u = llvm.mlir.undef : !llvm.struct<(i32, !llvm.ptr, f32)>
  %q = llvm.mlir.poison : !llvm.array<4 x i8>
  %0 = llvm.add %a, %c0 : i32
  %1 = llvm.sub %a, %c0 overflow<nsw, nuw> : i32
  %2 = llvm.mul %a, %a overflow<nuw> : i32
  %3 = llvm.sdiv %a, %a : i32
  %4 = llvm.srem %a, %a : i32
  %5 = llvm.ashr %a, %a : i32
  %6 = llvm.lshr exact %a, %a : i32
  %7 = llvm.fadd %x, %c1 : f32
  %8 = llvm.fmul %x, %c1 {fastmathFlags = #llvm.fastmath<fast>} : f32
  %9 = llvm.or disjoint %a, %a : i32
  %12 = llvm.zext %a : i32 to i64
  %14 = llvm.trunc %b overflow<nsw> : i64 to i32
  %15 = llvm.icmp "slt" %a, %c0 : i32
  %16 = llvm.fcmp "olt" %x, %c1 : f32
  %17 = llvm.select %15, %a, %c0 : i1, i32
  %18 = llvm.extractvalue %s[0] : !llvm.struct<(i32, ptr, f32)>
  %e18 = llvm.extractvalue %s[1] : !llvm.struct<(i32, ptr, f32)>
  %19 = llvm.insertvalue %x, %u[2] : !llvm.struct<(i32, ptr, f32)>
  %22 = llvm.extractelement %v[%a : i32] : vector<4xf32>
  %23 = llvm.insertelement %x, %v[%a : i32] : vector<4xf32>
  %28 = llvm.fneg %x : f32
  %29 = llvm.freeze %a : i32
  %vc = llvm.fcmp "oeq" %v, %v : vector<4xf32>
  return %a : i32
}

// LLVM spells fast-math flag lists with ", " (arith without the space).
func.func @flags(%x: f32) -> f32 {
  %0 = llvm.fadd %x, %x {fastmathFlags = #llvm.fastmath<ninf, nnan>} : f32
  %1 = arith.addf %x, %x fastmath<ninf, nnan> : f32
  return %0 : f32
}

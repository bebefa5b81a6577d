// LLVM intrinsics with their own syntax: exception type ids, stack save
// and restore, constrained truncation, invariant regions, varargs, and
// subvector insertion and extraction; `vector.interleave2` has none, and
// an LLVM op MLIR does not know stays as written (the dialect allows it).
llvm.func @intrinsics(%p: !llvm.ptr, %g: !llvm.ptr<1>, %d: f64, %v: vector<2xf64>, %x: vector<8xi16>, %s: vector<[8]xi16>, %y: vector<4xi16>) -> i32 {
  %0 = llvm.intr.eh.typeid.for %p : (!llvm.ptr) -> i32
  %1 = llvm.intr.stacksave : !llvm.ptr
  llvm.intr.stackrestore %1 : !llvm.ptr
  %2 = llvm.intr.stacksave {tag} : !llvm.ptr<5>
  llvm.intr.stackrestore %2 : !llvm.ptr<5>
  %3 = llvm.intr.experimental.constrained.fptrunc %d dynamic maytrap : f64 to f16
  %4 = llvm.intr.experimental.constrained.fptrunc %v "downward" "ignore" : vector<2xf64> to vector<2xf32>
  %5 = llvm.intr.invariant.start 64, %g : !llvm.ptr<1>
  llvm.intr.invariant.end %5, 64, %g : !llvm.ptr<1>
  llvm.intr.vastart %p : !llvm.ptr
  llvm.intr.vacopy %p to %1 : !llvm.ptr, !llvm.ptr
  llvm.intr.vaend %1 : !llvm.ptr
  %6 = llvm.intr.vector.insert %y, %x[4] : vector<4xi16> into vector<8xi16>
  %7 = llvm.intr.vector.insert %x, %s[8] : vector<8xi16> into vector<[8]xi16>
  %8 = llvm.intr.vector.extract %s[0] : vector<[4]xi16> from vector<[8]xi16>
  %9 = llvm.intr.vector.extract %x[4] : vector<4xi16> from vector<8xi16>
  %10 = "llvm.intr.vector.interleave2"(%y, %y) : (vector<4xi16>, vector<4xi16>) -> vector<8xi16>
  %11 = "llvm.intr.experimental.vector.interleave2"(%y, %y) {tag} : (vector<4xi16>, vector<4xi16>) -> vector<8xi16>
  llvm.return %0 : i32
}

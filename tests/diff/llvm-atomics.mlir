// LLVM's memory-model ops: atomic and invariant loads and stores,
// read-modify-writes, compare-and-exchange, fences and vector shuffles.
llvm.func @atomics(%p: !llvm.ptr, %q: !llvm.ptr<3>, %i: i32, %h: f16, %w: i64, %vp: vector<2xf32>) {
  %0 = llvm.load %p atomic seq_cst {alignment = 4 : i64} : !llvm.ptr -> i32
  %1 = llvm.load volatile %q atomic syncscope("wavefront") acquire {alignment = 8 : i64} : !llvm.ptr<3> -> i64
  %2 = llvm.load %p invariant {alignment = 2 : i64} : !llvm.ptr -> f16
  %3 = llvm.load %p invariant_group dereferenceable<bytes = 16> : !llvm.ptr -> !llvm.ptr
  %4 = llvm.load %p {nontemporal} : !llvm.ptr -> vector<2xf32>
  llvm.store %i, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.store volatile %w, %q atomic syncscope("workgroup") unordered invariant_group {alignment = 8 : i64} : i64, !llvm.ptr<3>
  %5 = llvm.atomicrmw add %p, %i acq_rel : !llvm.ptr, i32
  %6 = llvm.atomicrmw volatile umax %q, %w syncscope("agent") seq_cst {alignment = 8 : i64} : !llvm.ptr<3>, i64
  %7 = llvm.atomicrmw fmaximum %p, %h monotonic : !llvm.ptr, f16
  %8 = llvm.atomicrmw xchg %p, %p release : !llvm.ptr, !llvm.ptr
  %9 = llvm.atomicrmw "_xor" %p, %i acquire : !llvm.ptr, i32
  %10 = llvm.atomicrmw fadd %p, %vp monotonic : !llvm.ptr, vector<2xf32>
  %11 = llvm.cmpxchg %p, %i, %i seq_cst seq_cst : !llvm.ptr, i32
  %12 = llvm.cmpxchg weak %q, %w, %w syncscope("one-as") acquire monotonic {alignment = 16 : i64, tag} : !llvm.ptr<3>, i64
  %13 = llvm.cmpxchg volatile %p, %p, %p release acquire : !llvm.ptr, !llvm.ptr
  %14 = llvm.extractvalue %12[1] : !llvm.struct<(i64, i1)>
  llvm.fence syncscope("singlethread") acq_rel
  llvm.fence seq_cst {tag}
  %15 = "llvm.atomicrmw"(%p, %i) <{bin_op = 16 : i64, ordering = 7 : i64}> : (!llvm.ptr, i32) -> i32
  llvm.return
}

llvm.func @shuffles(%a: vector<4xi8>, %b: vector<[2]xf64>) -> vector<6xi8> {
  %0 = llvm.shufflevector %a, %a [3, 2, 1, 0, -1, 7] : vector<4xi8>
  %1 = llvm.shufflevector %b, %b [0, 0, 0] : vector<[2]xf64>
  %2 = llvm.shufflevector %a, %a [1] {tag} : vector<4xi8>
  llvm.return %0 : vector<6xi8>
}

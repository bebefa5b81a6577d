func.func @pointers(%a: i64, %p0: !llvm.ptr, %q: !llvm.ptr<0>, %r: !llvm.ptr<3>) -> i64 {
  %p = llvm.inttoptr %a : i64 to !llvm.ptr<11>
  %v = llvm.load volatile %p : !llvm.ptr<11> -> i32
  %w = llvm.load %p0 {alignment = 4 : i64} : !llvm.ptr -> f32
  %x = llvm.load %r {nontemporal} : !llvm.ptr<3> -> vector<4xf16>
  llvm.store volatile %v, %p : i32, !llvm.ptr<11>
  llvm.store %w, %q {alignment = 8 : i64} : f32, !llvm.ptr
  %i = llvm.ptrtoint %p0 : !llvm.ptr to i64
  return %i : i64
}

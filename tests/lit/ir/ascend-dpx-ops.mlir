// The `ascend_dpx` SIMT ops: a masked, warp-reduced clamp-and-scale kernel
// touching every op family (thread queries, loads/stores with cache
// clauses, shuffles, math, casts, atomics, scalar calls), printed in custom
// form, also after a trip through the generic form.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

func.func private @scale_of(i32) -> f32

// CHECK-LABEL: func.func @clamp_scale
func.func @clamp_scale(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %acc: !llvm.ptr<1>, %tile: !llvm.ptr<3>, %flat: !llvm.ptr, %n: i32) {
  // CHECK: %[[TID:.*]] = ascend_dpx.thread_id_x
  %tid = ascend_dpx.thread_id_x
  // CHECK: ascend_dpx.block_dim_x
  %bdim = ascend_dpx.block_dim_x
  // CHECK: ascend_dpx.clock64
  %t0 = ascend_dpx.clock64
  %in_range = arith.cmpi slt, %tid, %n : i32
  %zero = arith.constant 0.0 : f32
  // CHECK: %[[X:.*]] = ascend_dpx.load %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = <L2_CACHE_HINT_IDS_LV> volatileOption = <VOLATILE> : (!llvm.ptr<1>, i1, f32) -> f32
  %x = ascend_dpx.load %in, %in_range, %zero volatileOption = #ascend_dpx.dpx_volatile_option<VOLATILE> cacheModifier = < L2_CACHE_HINT_IDS_LV > : (!llvm.ptr<1>, i1, f32) -> f32
  // CHECK: ascend_dpx.load %{{.*}} : (!llvm.ptr<3>) -> i32
  %y = ascend_dpx.load %tile cacheOption = <LOADCACHEOPTION_CA> : (!llvm.ptr<3>) -> i32
  // CHECK: %[[S:.*]] = ascend_dpx.call_scalar @scale_of(%{{.*}}) {use_shmem_offset = 16 : i32} : (i32) -> f32
  %s = ascend_dpx.call_scalar @scale_of(%y) {use_shmem_offset = 16 : i32} : (i32) -> f32
  // CHECK: %[[M:.*]] = ascend_dpx.fma_rn %[[X]], %[[S]], %{{.*}} : (f32, f32, f32) -> f32
  %m = ascend_dpx.fma_rn %x, %s, %zero : (f32, f32, f32) -> f32
  // CHECK: ascend_dpx.max %[[M]], %{{.*}} : (f32, f32) -> f32
  %c = ascend_dpx.max %m, %zero : (f32, f32) -> f32
  // CHECK: ascend_dpx.isnan %{{.*}} : (f32) -> i1
  %bad = ascend_dpx.isnan %c : (f32) -> i1
  // CHECK: ascend_dpx.rsqrt_rn %{{.*}} : (f32) -> f32
  %r = ascend_dpx.rsqrt_rn %c : (f32) -> f32
  %lanes = arith.constant -1 : i32
  %clamp = arith.constant 31 : i32
  %one = arith.constant 1 : i32
  // CHECK: ascend_dpx.shfl.bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (f32, i32, i32, i32) -> f32
  %sh = ascend_dpx.shfl.bfly %r, %lanes, %clamp, %one : (f32, i32, i32, i32) -> f32
  // CHECK: ascend_dpx.reduce.add %{{.*}} : (f32) -> f32
  %sum = ascend_dpx.reduce.add %sh : (f32) -> f32
  // CHECK: ascend_dpx.cast %{{.*}} kind <fp_to_si> : f32 to i32
  %q = ascend_dpx.cast %sum kind <fp_to_si> : f32 to i32
  // CHECK: ascend_dpx.cast %{{.*}} kind <si_to_fp> : i32 to f32
  %back = ascend_dpx.cast %q kind <si_to_fp> : i32 to f32
  // CHECK: ascend_dpx.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = <L2_CACHE_HINT_WTS_RED> : <1>, f32
  ascend_dpx.store %out, %back, %in_range cacheModifier = <L2_CACHE_HINT_WTS_RED> : !llvm.ptr<1>, f32
  // CHECK: ascend_dpx.store %{{.*}}, %{{.*}} : , i32
  ascend_dpx.store %flat, %q : , i32
  // CHECK: ascend_dpx.store %{{.*}}, %{{.*}} cacheOption = <LOADCACHEOPTION_NCA> : <3>, i32
  ascend_dpx.store %tile, %q cacheOption = <LOADCACHEOPTION_NCA> : <3>, i32
  // CHECK: ascend_dpx.atomic_add %{{.*}}, %{{.*}} cacheModifier = <L2_CACHE_HINT_NOTALLOC_RED> : (!llvm.ptr<1>, i32) -> i32
  %old = ascend_dpx.atomic_add %acc, %q cacheModifier = <L2_CACHE_HINT_NOTALLOC_RED> : (!llvm.ptr<1>, i32) -> i32
  // CHECK: ascend_dpx.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<1>, i32, i32) -> i32
  %prev = ascend_dpx.atomic_cas %acc, %old, %q : (!llvm.ptr<1>, i32, i32) -> i32
  // CHECK: ascend_dpx.sync_threads
  ascend_dpx.sync_threads
  return
}

// The Triton dialects (`tt`, `ttg`, and AscendNPU-IR's `ttgext`): pointer
// and memory-descriptor types, the layout attributes (printed through the
// aliases Triton gives them: `#blocked`, `#linear`, `#shared` for every
// shared layout, `#smem`; default CTA layouts left out; unused ones not
// printed), and every op, in custom form, re-read, and after a trip
// through the generic form.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK:      #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [0, 1], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [0, 1]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-NEXT{LITERAL}: #linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0]], block = []}>
// CHECK-NEXT: #shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
// CHECK-NEXT: #shared1 = #ttgext.fractal_shared<{fractalM0 = 16, fractalN0 = 16, layoutType = "zN"}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {

#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>
#unused = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#split = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [0, 1], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [0, 1]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
#lin = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0]], block = []}>
#swz = #ttg.swizzled_shared<{order = [1, 0], vec = 2, maxPhase = 4, perPhase = 1}>
#zn = #ttgext.fractal_shared<{layoutType = "zN", fractalM0 = 16, fractalN0 = 16}>
#mem = #ttg.shared_memory

module attributes {"ttg.threads-per-warp" = 32 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
  // CHECK-LABEL: tt.func public @kernel(
  // CHECK-SAME: %[[A:.*]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %{{.*}}: !tt.ptr<f16, 3>, %[[N:.*]]: i32,
  // CHECK-SAME: tensor<16x32xf32, #blocked>, %{{.*}}: tensor<16x32xf32, #blocked1>, %{{.*}}: tensor<16x32xf32, #linear>) -> f32 {
  tt.func public @kernel(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16, 3>, %n: i32,
                         %t: tensor<16x32xf32, #row>, %f: tensor<16x32xf32, #split>, %l: tensor<16x32xf32, #lin>) -> f32 {
    // CHECK: tt.get_program_id x : i32
    %pid = tt.get_program_id x : i32
    // CHECK: tt.get_num_programs z : i32
    %np = tt.get_num_programs z : i32
    // CHECK: %[[R:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #ttg.slice<{parent = #row, dim = 0}>>
    // CHECK: %[[E:.*]] = tt.expand_dims %[[R]] {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #row}>> -> tensor<1x32xi32, #row>
    // CHECK: %[[BC:.*]] = tt.broadcast %[[E]] : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %bc = tt.broadcast %e : tensor<1x32xi32, #row> -> tensor<16x32xi32, #row>
    // CHECK: %[[SP:.*]] = tt.splat %[[A]] : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    %sp = tt.splat %a : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #row>
    // CHECK: %[[P:.*]] = tt.addptr %[[SP]], %[[BC]] : tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xi32, #blocked>
    %ptrs = tt.addptr %sp, %bc : tensor<16x32x!tt.ptr<f32>, #row>, tensor<16x32xi32, #row>
    %mask = arith.constant dense<true> : tensor<16x32xi1, #row>
    %other = arith.constant dense<0.0> : tensor<16x32xf32, #row>
    // CHECK: %[[V:.*]] = tt.load %[[P]], %[[M:.*]], %{{.*}} cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<16x32x!tt.ptr<f32>, #blocked>
    %v = tt.load %ptrs, %mask, %other evictionPolicy = evict_last cacheModifier = ca {isVolatile = true} : tensor<16x32x!tt.ptr<f32>, #row>
    // CHECK: tt.store %[[P]], %[[V]], %[[M]] cacheModifier = cs : tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.store %ptrs, %v, %mask cacheModifier = cs evictionPolicy = evict_normal : tensor<16x32x!tt.ptr<f32>, #row>
    // CHECK: %[[S:.*]] = tt.load %[[A]] : !tt.ptr<f32>
    %s = tt.load %a : !tt.ptr<f32, 1>
    // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %[[P]], %[[V]], %[[M]] : (tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xf32, #blocked>, tensor<16x32xi1, #blocked>) -> tensor<16x32xf32, #blocked>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs, %v, %mask : (tensor<16x32x!tt.ptr<f32>, #row>, tensor<16x32xf32, #row>, tensor<16x32xi1, #row>) -> tensor<16x32xf32, #row>
    // CHECK: tt.atomic_cas relaxed, cta, %[[A]], %[[S]], %[[S]] : (!tt.ptr<f32>, f32, f32) -> f32
    %c = tt.atomic_cas relaxed, cta, %a, %s, %s : (!tt.ptr<f32>, f32, f32) -> f32
    // CHECK: ttg.convert_layout %[[V]] : tensor<16x32xf32, #blocked> -> tensor<16x32xf32, #linear>
    %cv = ttg.convert_layout %v : tensor<16x32xf32, #row> -> tensor<16x32xf32, #lin>
    // CHECK: "tt.reduce"(%[[V]]) <{axis = 1 : i32}> ({
    // CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
    // CHECK-NEXT: %[[MAX:.*]] = arith.maxnumf %[[X]], %[[Y]] : f32
    // CHECK-NEXT: tt.reduce.return %[[MAX]] : f32
    // CHECK-NEXT: }) : (tensor<16x32xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %red = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.maxnumf %x, %y : f32
      tt.reduce.return %m : f32
    }) : (tensor<16x32xf32, #row>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #row}>>
    // CHECK: "tt.scan"(%[[V]]) <{axis = 0 : i32, reverse = false}> ({
    // CHECK: tt.scan.return %{{.*}} : f32
    // CHECK-NEXT: }) : (tensor<16x32xf32, #blocked>) -> tensor<16x32xf32, #blocked>
    %scan = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.scan.return %m : f32
    }) : (tensor<16x32xf32, #row>) -> tensor<16x32xf32, #row>
    // CHECK: %[[AL:.*]] = ttg.local_alloc %[[V]] : (tensor<16x32xf32, #blocked>) -> !ttg.memdesc<16x32xf32, #shared, #smem>
    %alloc = ttg.local_alloc %v : (tensor<16x32xf32, #row>) -> !ttg.memdesc<16x32xf32, #swz, #mem>
    // CHECK: %[[BUF:.*]] = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<2x16x32xf16, #shared1, #smem, mutable>
    %buf = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<2x16x32xf16, #zn, #mem, mutable>
    // CHECK: %[[ONE:.*]] = ttg.memdesc_index %[[BUF]][%[[N]]] : !ttg.memdesc<2x16x32xf16, #shared1, #smem, mutable> -> !ttg.memdesc<16x32xf16, #shared1, #smem, mutable, 2x16x32>
    %one = ttg.memdesc_index %buf[%n] : !ttg.memdesc<2x16x32xf16, #zn, #mem, mutable> -> !ttg.memdesc<16x32xf16, #zn, #mem, mutable, 2x16x32>
    // CHECK: ttg.memdesc_subslice %[[AL]][0, 16] : !ttg.memdesc<16x32xf32, #shared, #smem> -> !ttg.memdesc<16x16xf32, #shared, #smem, 16x32>
    %sub = ttg.memdesc_subslice %alloc[0, 16] : !ttg.memdesc<16x32xf32, #swz, #mem> -> !ttg.memdesc<16x16xf32, #swz, #mem, 16x32>
    // CHECK: ttg.memdesc_trans %[[AL]] {order = array<i32: 1, 0>} : !ttg.memdesc<16x32xf32, #shared, #smem> -> !ttg.memdesc<32x16xf32, #shared, #smem>
    %tr = ttg.memdesc_trans %alloc {order = array<i32: 1, 0>} : !ttg.memdesc<16x32xf32, #swz, #mem> -> !ttg.memdesc<32x16xf32, #swz, #mem>
    // CHECK: ttg.local_load %[[AL]] : !ttg.memdesc<16x32xf32, #shared, #smem> -> tensor<16x32xf32, #blocked>
    %ld = ttg.local_load %alloc : !ttg.memdesc<16x32xf32, #swz, #mem> -> tensor<16x32xf32, #row>
    %h = arith.truncf %ld : tensor<16x32xf32, #row> to tensor<16x32xf16, #row>
    // CHECK: ttg.local_store %{{.*}}, %[[ONE]] : tensor<16x32xf16, #blocked> -> !ttg.memdesc<16x32xf16, #shared1, #smem, mutable, 2x16x32>
    ttg.local_store %h, %one : tensor<16x32xf16, #row> -> !ttg.memdesc<16x32xf16, #zn, #mem, mutable, 2x16x32>
    // CHECK: ttg.local_dealloc %[[BUF]] : !ttg.memdesc<2x16x32xf16, #shared1, #smem, mutable>
    ttg.local_dealloc %buf : !ttg.memdesc<2x16x32xf16, #zn, #mem, mutable>
    // CHECK: tt.call_scalar %[[BUF]], @helper(%[[N]]) : !ttg.memdesc<2x16x32xf16, #shared1, #smem, mutable>, (i32) -> i32
    %sh = tt.call_scalar %buf, @helper(%n) : !ttg.memdesc<2x16x32xf16, #zn, #mem, mutable>, (i32) -> i32
    // CHECK: tt.call @helper(%[[N]]) : (i32) -> i32
    %call = tt.call @helper(%n) : (i32) -> i32
    // CHECK: tt.return %[[S]] : f32
    tt.return %s : f32
  }
  // CHECK: tt.func private @helper(i32) -> i32
  tt.func private @helper(i32) -> i32

  // CHECK-LABEL: tt.func @values(
  tt.func @values(%p: !tt.ptr<f16>, %i: i64, %x: tensor<4x8xf32>, %k: tensor<8x4xf32>, %h: tensor<4x8xf16>,
                  %idx: tensor<4x8xi32>, %c: i1, %one: tensor<1x1xf32>, %d: tensor<4x8xf32, #col>) {
    // CHECK: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<f16>
    %ip = tt.int_to_ptr %i : i64 -> !tt.ptr<f16>
    // CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<f16> -> i64
    %pi = tt.ptr_to_int %p : !tt.ptr<f16> -> i64
    // CHECK: tt.bitcast %{{.*}} : tensor<4x8xf16> -> tensor<4x8xi16>
    %bc = tt.bitcast %h : tensor<4x8xf16> -> tensor<4x8xi16>
    // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<4x8xf32> -> tensor<4x8xf8E5M2>
    %f8 = tt.fp_to_fp %x, rounding = rtne : tensor<4x8xf32> -> tensor<4x8xf8E5M2>
    // CHECK: tt.fp_to_fp %{{.*}} : tensor<4x8xf16> -> tensor<4x8xf32>
    %ext = tt.fp_to_fp %h : tensor<4x8xf16> -> tensor<4x8xf32>
    // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<4x8xf32>
    %cl = tt.clampf %x, %x, %x, propagateNan = all : tensor<4x8xf32>
    // CHECK: tt.precise_sqrt %{{.*}} : tensor<4x8xf32>
    %sq = tt.precise_sqrt %x : tensor<4x8xf32>
    // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<4x8xf32>
    %dv = tt.precise_divf %x, %x : tensor<4x8xf32>
    // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<4x8xi32>
    %hi = tt.mulhiui %idx, %idx : tensor<4x8xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    // Tensor pointers print stripped, as a `TT_TensorPtr` result does.
    // CHECK: %[[TP:.*]] = tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<4x8xf16>>
    %tp = tt.make_tensor_ptr %p, [%c1, %c1], [%c1, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tt.ptr<tensor<4x8xf16>>
    // CHECK: %[[ADV:.*]] = tt.advance %[[TP]], [%{{.*}}, %{{.*}}] : <tensor<4x8xf16>>
    %adv = tt.advance %tp, [%c0, %c0] : <tensor<4x8xf16>>
    // CHECK: %[[TL:.*]] = tt.load %[[ADV]] {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<4x8xf16>>
    %tl = tt.load %adv {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<4x8xf16>>
    // CHECK: tt.store %[[ADV]], %[[TL]] {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<4x8xf16>>
    tt.store %adv, %tl {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<4x8xf16>>
    // CHECK: tt.unsplat %{{.*}} : tensor<1x1xf32>
    %s = tt.unsplat %one : tensor<1x1xf32>
    // CHECK: tt.reshape %{{.*}} allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
    %rs = tt.reshape %x allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
    // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<8x8xf32>
    %cat = tt.cat %x, %x : tensor<4x8xf32> -> tensor<8x8xf32>
    // CHECK: %[[J:.*]] = tt.join %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<4x8x2xf32>
    %jn = tt.join %x, %x : tensor<4x8xf32> -> tensor<4x8x2xf32>
    // CHECK: %{{.*}}:2 = tt.split %[[J]] : tensor<4x8x2xf32> -> tensor<4x8xf32>
    %lo, %up = tt.split %jn : tensor<4x8x2xf32> -> tensor<4x8xf32>
    // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    %tr = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    %acc = arith.constant dense<0.0> : tensor<4x4xf32>
    // The default precision (ieee) is left out; others are printed.
    // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<4x8xf32> * tensor<8x4xf32> -> tensor<4x4xf32>
    %dot = tt.dot %x, %k, %acc, inputPrecision = tf32 : tensor<4x8xf32> * tensor<8x4xf32> -> tensor<4x4xf32>
    // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32> * tensor<8x4xf32> -> tensor<4x4xf32>
    %dot2 = tt.dot %x, %k, %acc, inputPrecision = ieee : tensor<4x8xf32> * tensor<8x4xf32> -> tensor<4x4xf32>
    // CHECK: tt.extern_elementwise %{{.*}}, %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__hmf_atan2f"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %ee = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__hmf_atan2f"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    // CHECK: tt.elementwise_inline_asm "cos.approx.f32 $0, $1;" {constraints = "=f,f", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf32>
    %asm = tt.elementwise_inline_asm "cos.approx.f32 $0, $1;" {constraints = "=f,f", packed_element = 1 : i32, pure = true} %x : tensor<4x8xf32> -> tensor<4x8xf32>
    %flat = tt.reshape %idx : tensor<4x8xi32> -> tensor<32xi32>
    %m = arith.constant dense<true> : tensor<32xi1>
    // CHECK: tt.histogram %{{.*}}, %{{.*}} : tensor<32xi32> -> tensor<8xi32>
    %hist = tt.histogram %flat, %m : tensor<32xi32> -> tensor<8xi32>
    // CHECK: tt.histogram %{{.*}} : tensor<32xi32> -> tensor<8xi32>
    %hist2 = tt.histogram %flat : tensor<32xi32> -> tensor<8xi32>
    // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
    %g = tt.gather %x[%idx] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
    // CHECK: "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 1 : i32}> ({
    // CHECK: tt.map_elementwise.return %{{.*}} : i32
    // CHECK-NEXT: }) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %mp = "tt.map_elementwise"(%idx, %idx) <{pack = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %sum = arith.addi %a, %b : i32
      tt.map_elementwise.return %sum : i32
    }) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    // Dot-operand layouts have no alias; their parent does.
    // CHECK: ttg.convert_layout %{{.*}} : tensor<4x8xf32, #blocked2> -> tensor<4x8xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
    %cv = ttg.convert_layout %d : tensor<4x8xf32, #col> -> tensor<4x8xf32, #ttg.dot_op<{parent = #col, opIdx = 0, kWidth = 0}>>
    // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %{{.*}} : tensor<4x8xf32>
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<4x8xf32>
    // CHECK: tt.print "done" {hex = true, isSigned = array<i32>}
    tt.print "done" {hex = true, isSigned = array<i32>}
    // CHECK: tt.assert %{{.*}}, "must hold" : i1
    tt.assert %c, "must hold" : i1
    // CHECK: tt.return
    tt.return
  }
}

// The generic form spells out the defaults and the enum values.
// GENERIC: "tt.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{boundaryCheck = array<i32>, cache = 2 : i32, evict = 3 : i32, isVolatile = true, operandSegmentSizes = array<i32: 1, 1, 1>}>
// GENERIC: "tt.store"(%{{.*}}, %{{.*}}, %{{.*}}) <{boundaryCheck = array<i32>, cache = 5 : i32, evict = 1 : i32}>
// GENERIC: "tt.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) <{atomic_rmw_op = 5 : i32, scope = 1 : i32, sem = 4 : i32}>
// GENERIC: "tt.call_scalar"(%{{.*}}, %{{.*}}) <{callee = @helper}> : (!ttg.memdesc<2x16x32xf16, #shared1, #smem, mutable>, i32) -> i32
// GENERIC: "tt.make_tensor_ptr"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{order = array<i32: 1, 0>}> : (!tt.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tt.ptr<tensor<4x8xf16>>
// GENERIC: "tt.dot"(%{{.*}}, %{{.*}}, %{{.*}}) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}>

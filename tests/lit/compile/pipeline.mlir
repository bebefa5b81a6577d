// hivm-compile's pipeline is bishengir-compile's front half in upstream's order.
// RUN: hivm-compile --print-pipeline %s | FileCheck %s
// RUN: hivm-compile --print-pipeline --to-std --target=Ascend910B1 --link-aicore-bitcode=a.bc %s | FileCheck %s --check-prefix=OPTS

// CHECK: canonicalize
// CHECK-NEXT: hacc-append-device-spec
// CHECK-NEXT: convert-arith-to-hfusion
// CHECK-NEXT: convert-math-to-hfusion
// CHECK-NEXT: convert-linalg-to-hfusion
// CHECK-NEXT: adapt-triton-kernel
// CHECK-NEXT: convert-tensor-to-hfusion
// CHECK: hfusion-add-ffts-addr{force-add-ffts-addr=0}
// CHECK-NEXT: convert-hfusion-to-hivm
// CHECK-NEXT: triton-global-kernel-args-to-hivm-op
// CHECK-NEXT: convert-tensor-to-hivm
// CHECK-NEXT: convert-to-hivm-op
// CHECK: one-shot-bufferize
// CHECK-NEXT: convert-to-hivm-op
// CHECK: hivm-infer-mem-scope
// CHECK: hivm-alloc-extra-buffer
// CHECK-NEXT: hivm-infer-mem-scope
// CHECK-NEXT: hivm-plan-memory
// CHECK-NEXT: hivm-graph-sync-solver
// CHECK-NOT: convert-hivm-to-std

// OPTS: hivm-check-implementations{files=a.bc}
// OPTS: hacc-append-device-spec{target=Ascend910B1}
// OPTS: hivm-graph-sync-solver
// OPTS: convert-hivm-to-std
module {}

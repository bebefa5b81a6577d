// RUN: hivm-opt -allow-unregistered-dialect %s | FileCheck %s
// RUN: hivm-opt -allow-unregistered-dialect %s | hivm-opt -allow-unregistered-dialect | FileCheck %s

// Unregistered ops keep regions, successors, properties and block arguments.
// CHECK-LABEL: "test.entry"() ({
// CHECK-NEXT:  ^bb0(%arg0: i32, %arg1: f16):
// CHECK-NEXT:    %0:2 = "test.pair"(%arg0) <{kind = "p"}> : (i32) -> (i32, f16)
// CHECK-NEXT:    "test.branch"(%0#1)[^bb1, ^bb2] : (f16) -> ()
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    "test.use"(%0#0, %arg1) : (i32, f16) -> ()
// CHECK-NEXT:    "test.branch"()[^bb2] : () -> ()
// CHECK-NEXT:  ^bb2:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    "test.end"() : () -> ()
// CHECK-NEXT:  }, {
// CHECK-NEXT:  }) {note = "two regions"} : () -> ()
"test.entry"() ({
^bb0(%a: i32, %b: f16):
  %p:2 = "test.pair"(%a) <{kind = "p"}> : (i32) -> (i32, f16)
  "test.branch"(%p#1) [^bb1, ^bb2] : (f16) -> ()
^bb1:
  "test.use"(%p#0, %b) : (i32, f16) -> ()
  "test.branch"() [^bb2] : () -> ()
^bb2:
  "test.end"() : () -> ()
}, {
}) {note = "two regions"} : () -> ()

// A block that no branch reaches says so.
// CHECK: "test.holder"() ({
// CHECK-NEXT:   "test.a"() : () -> ()
// CHECK-NEXT: ^bb1:  // no predecessors
// CHECK-NEXT:   "test.b"() : () -> ()
"test.holder"() ({
  "test.a"() : () -> ()
^bb1:
  "test.b"() : () -> ()
}) : () -> ()

// Aliases that each use the one before twice: a few hundred bytes that
// would print 2^40 elements. The printer counts what a value expands to
// before printing it (linear in the distinct values) and stops with a
// located error instead of growing its text until memory runs out.
// RUN: not hivm-opt %s -split-input-file --allow-unregistered-dialect 2>&1 | FileCheck %s
// RUN: not hivm-opt %s -split-input-file --allow-unregistered-dialect 2>/dev/null | FileCheck %s --check-prefix=SMALL

#a0 = [1, 2]
#a1 = [#a0, #a0]
#a2 = [#a1, #a1]
#a3 = [#a2, #a2]
#a4 = [#a3, #a3]
#a5 = [#a4, #a4]
#a6 = [#a5, #a5]
#a7 = [#a6, #a6]
#a8 = [#a7, #a7]
#a9 = [#a8, #a8]
#a10 = [#a9, #a9]
#a11 = [#a10, #a10]
#a12 = [#a11, #a11]
#a13 = [#a12, #a12]
#a14 = [#a13, #a13]
#a15 = [#a14, #a14]
#a16 = [#a15, #a15]
#a17 = [#a16, #a16]
#a18 = [#a17, #a17]
#a19 = [#a18, #a18]
#a20 = [#a19, #a19]
#a21 = [#a20, #a20]
#a22 = [#a21, #a21]
#a23 = [#a22, #a22]
#a24 = [#a23, #a23]
#a25 = [#a24, #a24]
#a26 = [#a25, #a25]
#a27 = [#a26, #a26]
#a28 = [#a27, #a27]
#a29 = [#a28, #a28]
#a30 = [#a29, #a29]
#a31 = [#a30, #a30]
#a32 = [#a31, #a31]
#a33 = [#a32, #a32]
#a34 = [#a33, #a33]
#a35 = [#a34, #a34]
#a36 = [#a35, #a35]
#a37 = [#a36, #a36]
#a38 = [#a37, #a37]
#a39 = [#a38, #a38]
#a40 = [#a39, #a39]
// CHECK: alias-blowup.mlir:[[@LINE+1]]:1: error: an operation's printed form would exceed 1024 MiB or 1048576 nested elements
"t.op"() {x = #a40} : () -> ()

// -----

!t0 = tuple<i32, i32>
!t1 = tuple<!t0, !t0>
!t2 = tuple<!t1, !t1>
!t3 = tuple<!t2, !t2>
!t4 = tuple<!t3, !t3>
!t5 = tuple<!t4, !t4>
!t6 = tuple<!t5, !t5>
!t7 = tuple<!t6, !t6>
!t8 = tuple<!t7, !t7>
!t9 = tuple<!t8, !t8>
!t10 = tuple<!t9, !t9>
!t11 = tuple<!t10, !t10>
!t12 = tuple<!t11, !t11>
!t13 = tuple<!t12, !t12>
!t14 = tuple<!t13, !t13>
!t15 = tuple<!t14, !t14>
!t16 = tuple<!t15, !t15>
!t17 = tuple<!t16, !t16>
!t18 = tuple<!t17, !t17>
!t19 = tuple<!t18, !t18>
!t20 = tuple<!t19, !t19>
!t21 = tuple<!t20, !t20>
!t22 = tuple<!t21, !t21>
!t23 = tuple<!t22, !t22>
!t24 = tuple<!t23, !t23>
!t25 = tuple<!t24, !t24>
!t26 = tuple<!t25, !t25>
!t27 = tuple<!t26, !t26>
!t28 = tuple<!t27, !t27>
!t29 = tuple<!t28, !t28>
!t30 = tuple<!t29, !t29>
!t31 = tuple<!t30, !t30>
!t32 = tuple<!t31, !t31>
!t33 = tuple<!t32, !t32>
!t34 = tuple<!t33, !t33>
!t35 = tuple<!t34, !t34>
!t36 = tuple<!t35, !t35>
!t37 = tuple<!t36, !t36>
!t38 = tuple<!t37, !t37>
!t39 = tuple<!t38, !t38>
!t40 = tuple<!t39, !t39>
func.func @f() {
// CHECK: alias-blowup.mlir:[[@LINE+1]]:8: error: an operation's printed form would exceed
  %0 = "t.op"() : () -> !t40
  return
}

// -----

// Doubling a few times prints in full.
#b0 = [1, 2]
#b1 = [#b0, #b0]
#b2 = [#b1, #b1]
#b3 = [#b2, #b2]
// SMALL: "t.op"() {x = {{\[\[\[\[}}1, 2], [1, 2]], {{\[\[}}1, 2], [1, 2]]], {{\[\[\[}}1, 2], [1, 2]], {{\[\[}}1, 2], [1, 2]]]]} : () -> ()
"t.op"() {x = #b3} : () -> ()

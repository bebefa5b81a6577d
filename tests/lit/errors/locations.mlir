// Line and column numbers of locations are unsigned 32-bit: anything else is
// rejected in mlir-opt's words and at mlir-opt's line:col (this file gives the
// same diagnostics with mlir-opt 22). Location aliases may be used before
// their definition, as in mlir-opt's --mlir-print-debuginfo output.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @line_too_large() {
  %0 = arith.constant 0 : i32 loc("f.mlir":4294967296:1)
  return
}

// -----

func.func @col_too_large() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1:99999999999)
  return
}

// -----

func.func @col_too_large_spaced() {
  %0 = arith.constant 0 : i32 loc("f.mlir": 1 :   4294967296 )
  return
}

// -----

func.func @line_negative() {
  %0 = arith.constant 0 : i32 loc("f.mlir":-1:1)
  return
}

// -----

func.func @col_negative() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1:  -1)
  return
}

// -----

func.func @line_hex_too_large() {
  %0 = arith.constant 0 : i32 loc("f.mlir":0x100000000:1)
  return
}

// -----

func.func @line_huge() {
  %0 = arith.constant 0 : i32 loc("f.mlir":
      99999999999999999999999999999999999999999:1)
  return
}

// -----

func.func @line_float() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1.5:2)
  return
}

// -----

func.func @range_end_line_too_large() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1:2 to 4294967296:3)
  return
}

// -----

func.func @range_end_col_too_large() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1:2 to 3:4294967296)
  return
}

// -----

func.func @range_same_line_col_too_large() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1:2 to :99999999999)
  return
}

// -----

func.func @range_end_negative() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1:2 to   -1:3)
  return
}

// -----

func.func @range_end_line_only() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1:2 to 3 // a comment
    )
  return
}

// -----

func.func @range_after_line_only() {
  %0 = arith.constant 0 : i32 loc("f.mlir":1 to 2:3)
  return
}

// -----

#alias_too_large = loc("f.mlir":1:4294967296)

// -----

func.func @inline_too_large() attributes {l = loc("f.mlir":4294967296:1)} {
  return
}

// -----

func.func @inline_unclosed() attributes {l = loc("f.mlir":1:2 x)} {
  return
}

// -----

func.func @nested_too_large() {
  return loc(fused["a.mlir":1:2, callsite("b.mlir":1:2 at "c.mlir":-1:1)])
}

// -----

// As in mlir-opt's --mlir-print-debuginfo output, aliases come last.
func.func @debuginfo() {
  %0 = arith.constant 0 : i32 loc(#loc1)
  return loc(#loc2)
}
#loc1 = loc("f.mlir":2:3)
#loc2 = loc("f.mlir":4294967296:3)

// -----

func.func @never_defined(%a: i32 loc(#arg)) {
  return loc(#ret)
}
#arg = loc("f.mlir":1:1)

// -----

func.func @not_a_location() {
  return loc(#five)
}
#five = 5 : i32

// -----

#five = 5 : i32
func.func @nested_not_a_location() {
  return loc("name"(#five))
}

// The diagnostics, in order:
// CHECK: {{.*}}locations.mlir:8:44: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:15:46: error: expected integer column number in FileLineColRange
// CHECK: {{.*}}locations.mlir:22:51: error: expected integer column number in FileLineColRange
// CHECK: {{.*}}locations.mlir:29:44: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:36:46: error: expected integer column number in FileLineColRange
// CHECK: {{.*}}locations.mlir:43:44: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:50:44: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:58:44: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:65:50: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:72:53: error: expected integer column number in FileLineColRange
// CHECK: {{.*}}locations.mlir:79:52: error: expected integer column number in FileLineColRange
// CHECK: {{.*}}locations.mlir:86:50: error: expected either integer or `:` post `to` in FileLineColRange
// CHECK: {{.*}}locations.mlir:93:52: error: expected either integer or `:` post `to` in FileLineColRange
// CHECK: {{.*}}locations.mlir:101:45: error: expected ')' in location
// CHECK: {{.*}}locations.mlir:107:35: error: expected integer column number in FileLineColRange
// CHECK: {{.*}}locations.mlir:111:60: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:117:62: error: expected ')' in inline location
// CHECK: {{.*}}locations.mlir:124:68: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:135:22: error: expected integer line number in FileLineColRange
// CHECK: {{.*}}locations.mlir:140:14: error: operation location alias was never defined
// CHECK: {{.*}}locations.mlir:147:14: error: expected location, but found '5 : i32'
// CHECK: {{.*}}locations.mlir:155:26: error: expected location attribute, but got5 : i32

// Locations: ranges (both end forms, ends equal to the start, which print as
// the start but stay distinct locations), a line alone, hexadecimal and
// extreme 32-bit numbers, and location aliases used before they are defined,
// as in mlir-opt's own --mlir-print-debuginfo output.
#early = loc("early.mlir":2:3 to 4:5)
func.func @locs(%a: i32 loc("a.mlir":1:2 to 3:4), %b: i32 loc(#arg)) -> i32 {
  %0 = arith.addi %a, %b : i32 loc("r.mlir":5:6 to :9)
  %1 = arith.addi %0, %b : i32 loc("r.mlir":5:6 to 5:6)
  %2 = arith.addi %1, %b : i32 loc("r.mlir":5:6 to :6)
  %3 = arith.addi %2, %b : i32 loc("r.mlir":5:6)
  %4 = arith.addi %3, %b : i32 loc("r.mlir":5:6 to 5:6)
  %5 = arith.addi %4, %b : i32 loc("r.mlir":7)
  %6 = arith.addi %5, %b : i32 loc("r.mlir":7:0)
  %7 = arith.addi %6, %b : i32 loc("r.mlir":0x10:0xFFFFFFFF)
  %8 = arith.addi %7, %b : i32 loc("r.mlir":4294967295:0 to 0:4294967295)
  %9 = arith.addi %8, %b : i32 loc("r.mlir":5:6 to 5:7)
  %10 = arith.addi %9, %b : i32 loc(#early)
  cf.br ^bb1(%10 : i32) loc(#late)
^bb1(%x: i32 loc(#blockarg)):
  return %x : i32 loc(#late)
} loc(#fn)
#arg = loc("arg.mlir":1:1)
#late = loc("late.mlir":10:1 to 12:2)
#blockarg = loc("blockarg.mlir":4)
#fn = loc("fn.mlir":00012:0x0)

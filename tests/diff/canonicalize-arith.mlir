// DIFF-ARGS: -canonicalize
func.func @fold(%x: i32) -> (i32, i32) {
  %a = arith.constant 40 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  %z = arith.constant 0 : i32
  %y = arith.addi %x, %z : i32
  %unused = arith.muli %x, %x : i32
  return %c, %y : i32, i32
}
func.func @wrap() -> i8 {
  %a = arith.constant 127 : i8
  %b = arith.constant 1 : i8
  %c = arith.addi %a, %b : i8
  return %c : i8
}

// cf.switch, as mlir-opt prints it: cases one per line, values read unsigned
// at the flag's width (and stored wrapped to it), operands per case.
func.func @dispatch(%sel: i32, %x: f32, %y: f32) -> f32 {
  cf.switch %sel : i32, [
    default: ^other(%x : f32),
    0: ^zero,
    7: ^other(%y : f32),
    -3: ^pair(%x, %y : f32, f32)
  ]
^zero:
  return %x : f32
^other(%v: f32):
  return %v : f32
^pair(%a: f32, %b: f32):
  %s = arith.addf %a, %b : f32
  return %s : f32
}
func.func @bytes(%b: i8) {
  cf.switch %b : i8, [
    default: ^done,
    255: ^done,
    -128: ^done
  ]
^done:
  return
}
func.func @only_default(%i: i64) {
  cf.switch %i : i64, [
    default: ^done
  ]
^done:
  return
}
func.func @wide(%w: i128) {
  cf.switch %w : i128, [
    default: ^done,
    1: ^done,
    -1: ^done
  ]
^done:
  return
}

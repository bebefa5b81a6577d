// DIFF-ARGS: -cse

func.func @dup(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}

// Values of the enclosing block are reused inside a loop body.
func.func @nested(%m: memref<4xf32>, %v: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %c1b = arith.constant 1 : index
    memref.store %v, %m[%c1b] : memref<4xf32>
  }
  return
}

// Ops with memory effects are never merged.
func.func @effects() -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  return %a, %b : memref<4xf32>, memref<4xf32>
}

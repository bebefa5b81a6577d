func.func @f(%a: i32, %b: index, %m: memref<4xf32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 4 : i64
  %y = arith.constant -1 : i64
  %t = arith.constant true
  %f = arith.constant 1.5 : f32
  %f2 = arith.constant 1.0e10 : f64
  %r = scf.for %i = %c0 to %b step %c1 iter_args(%acc = %a) -> (i32) {
    %s = arith.addi %acc, %a : i32
    scf.yield %s : i32
  }
  %r2 = scf.for %i = %c0 to %b step %c1 iter_args(%acc = %a) -> (i32) {
    %s = arith.addi %acc, %a : i32
    scf.yield %s : i32
  }
  %al = memref.alloc() : memref<4xf32>
  %al2 = memref.alloc() : memref<4xf32>
  %ld = memref.load %m[%c0] : memref<4xf32>
  %z = "foo.bar"(%r) ({
  ^bb0(%q: i32):
    "foo.y"(%q) : (i32) -> ()
  }, {
    "foo.z"() : () -> ()
  ^bb1:
    "foo.w"() [^bb2] : () -> ()
  ^bb2(%k: i32):
    "foo.w"() : () -> ()
  }) {z = 1, a = [1, 2 : i32], b = {c = 3}, s = "h\n\"i\01", u} : (i32) -> i32
  %p:2 = "foo.two"() <{x = 1 : i64}> : () -> (i32, f32)
  "foo.use"(%p#1, %p#0) : (f32, i32) -> ()
  cf.br ^bb1(%z : i32)
^bb1(%v: i32):
  return %v : i32
}

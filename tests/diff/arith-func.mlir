func.func @f(%a: i32, %b: i32, %x: f32, %y: f32, %i: index, %v: vector<4xf32>) -> i32 {
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.addf %x, %y fastmath<fast> : f32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpf olt, %x, %y : f32
  %4 = arith.select %2, %a, %b : i32
  %5 = arith.index_cast %i : index to i32
  %6 = arith.extsi %a : i32 to i64
  %7 = arith.trunci %6 : i64 to i16
  %8 = arith.extf %x : f32 to f64
  %9 = arith.truncf %8 : f64 to f16
  %10 = arith.sitofp %a : i32 to f32
  %11 = arith.fptosi %x : f32 to i32
  %12 = arith.bitcast %x : f32 to i32
  %13 = arith.maximumf %x, %y : f32
  %14 = arith.minsi %a, %b : i32
  %15 = arith.divsi %a, %b : i32
  %16 = arith.andi %a, %b : i32
  %17 = arith.subf %x, %y : f32
  %18 = arith.constant dense<1.0> : vector<4xf32>
  %19 = arith.constant 255 : i8
  %20 = arith.constant -3 : index
  %21 = arith.negf %x : f32
  %22 = arith.uitofp %a : i32 to f32
  %23 = arith.shli %a, %b : i32
  %24 = arith.muli %a, %b : i32
  %25 = arith.remf %x, %y : f32
  call @f(%a, %b, %x, %y, %i, %v) : (i32, i32, f32, f32, index, vector<4xf32>) -> i32
  return %4 : i32
}
func.func private @g(i32 {foo.bar}, f32) -> (i32 {a.b = 1})
func.func nested @h() attributes {x} {
  return
}

// MLIR's math dialect, as mlir-opt prints it: fastmath flags after the operands
// (elided when none), operand types given by the result type.
func.func @m(%f: f32, %v: vector<4xf32>, %t: tensor<8xf16>, %i: i32, %vi: vector<4xi32>) -> (f32, vector<4xf32>) {
  %0 = math.sqrt %f : f32
  %1 = math.log %v fastmath<fast> : vector<4xf32>
  %2 = math.exp %t fastmath<nnan,ninf> : tensor<8xf16>
  %3 = math.powf %f, %0 : f32
  %4 = math.fma %f, %0, %3 fastmath<contract> : f32
  %5 = math.absi %i : i32
  %6 = math.ctpop %vi : vector<4xi32>
  %7 = math.ipowi %i, %5 : i32
  %8 = math.fpowi %f, %i : f32, i32
  %9 = math.copysign %v, %1 : vector<4xf32>
  %10 = math.tanh %f fastmath<none> : f32
  return %4, %9 : f32, vector<4xf32>
}
func.func @flags(%x: f32, %v: vector<4xf32>) -> (f32, f32, f32) {
  %0 = math.sqrt %x fastmath<contract,afn,reassoc> : f32
  %1 = vector.reduction <add>, %v fastmath< fast > : vector<4xf32> into f32
  %2 = "math.exp"(%x) <{fastmath = #arith.fastmath<nnan,reassoc>}> : (f32) -> f32
  return %0, %1, %2 : f32, f32, f32
}

// func.call_indirect and vector interleave/deinterleave/from_elements/step.
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
func.func @f(%a: vector<4xf32>, %b: vector<2x8xi32>, %x: f32, %i: i32) -> vector<4xf32> {
  %f = func.constant @g : (i32) -> i32
  %r = func.call_indirect %f(%i) : (i32) -> i32
  %0 = vector.interleave %a, %a : vector<4xf32> -> vector<8xf32>
  %1, %2 = vector.deinterleave %b : vector<2x8xi32> -> vector<2x4xi32>
  %3 = vector.from_elements %x, %x, %x, %x : vector<4xf32>
  %4 = vector.step : vector<8xindex>
  %6 = vector.from_elements %x : vector<f32>
  return %3 : vector<4xf32>
}

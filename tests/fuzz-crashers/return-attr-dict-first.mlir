func.func @f(%a: f32) -> f32 {
  return {m = 1} %a : f32
}

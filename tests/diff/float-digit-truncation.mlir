// LLVM shortens a float's exact decimal digits to about the precision it
// prints by truncating before it rounds, so these print one digit lower
// than correct rounding would (0.1 as f16 is 9.99755859375e-02).
func.func @digits() {
  "acme.use"() {a = 0.1 : f16, b = 0x000F : f16, c = 0x0094 : f16, d = 8.940696716308594e-07 : f32, e = 8.821487426757813e-06 : f32, f = 0.3 : f16, g = 0.1 : bf16} : () -> ()
  %h = arith.constant 0.1 : f16
  %v = arith.constant dense<[0.1, 0.7, 2.2]> : tensor<3xf16>
  "acme.use"(%h, %v) : (f16, tensor<3xf16>) -> ()
  return
}

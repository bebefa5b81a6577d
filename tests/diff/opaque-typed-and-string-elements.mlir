// Attributes of dialects nobody registered: a dialect attribute written with
// a type keeps it, and elements of a type that is not a number are strings
// (dense and sparse, splat and nested, with bytes that need escapes).
#tagged = #acme.tag<"t"> : i16
func.func @opaque_values() {
  "acme.op"() {plain = #acme.flag : i32, args = #acme.pair<1, 2> : index, viaAlias = #tagged, tensorTyped = #acme.w : tensor<2xf32>, angled = #acme<"a b"> : i8, empty = #acme. : i2} : () -> ()
  "acme.op"() {splat = dense<"same"> : tensor<3x!acme.str>, list = dense<["a", "b\0A", "c\22"]> : tensor<3x!acme.str>, nested = dense<[["x", "y"], ["z", "x"]]> : tensor<2x2x!acme.str>, hexish = dense<"0x0102"> : tensor<2x!acme.str>} : () -> ()
  "acme.op"() {sparse = sparse<[[0], [2]], ["p", "q"]> : tensor<4x!acme.str>, sparseSplat = sparse<0, "only"> : tensor<1x1x!acme.str>} : () -> ()
  return
}

// A block argument may be named with a result number, `%x#2`, which then
// is the only name that reaches it, as in MLIR.
func.func @numbered() {
  "acme.op"() ({
  ^bb0(%x#2: i32, %y: i32):
    "acme.use"(%x#2, %y) : (i32, i32) -> ()
  }) : () -> ()
  return
}

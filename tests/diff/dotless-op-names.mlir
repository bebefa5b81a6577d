// An op name without a dot belongs to no dialect, even when it spells one
// that is registered (`"index"`, `"arith"`): mlir-opt accepts both as
// unregistered ops.
func.func @names(%x: index) {
  "index"() {bar = dense<1> : tensor<index>} : () -> ()
  "arith"(%x) : (index) -> ()
  %i = index.add %x, %x
  return
}

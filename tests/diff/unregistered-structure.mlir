// Unregistered ops in generic form: properties, successors, nested regions,
// block arguments, multiple results and locations.
#map = affine_map<(d0, d1) -> (d1, d0)>
"test.module"() ({
^bb0(%a: i32, %b: memref<4x4xf32, #map>):
  %0:3 = "test.multi"(%a) <{prop = [1, 2], sym = @x}> {z = 1 : i64, a = "s"} : (i32) -> (i32, f32, index)
  "test.use"(%0#0, %0#2) : (i32, index) -> ()
  "test.cond"() [^bb1, ^bb2] : () -> ()
^bb1:
  %1 = "test.region"(%0#1) ({
  ^bb0(%x: f32):
    %2 = "test.inner"(%x, %a) : (f32, i32) -> f32
    "test.yield"(%2) : (f32) -> ()
  }) : (f32) -> f32
  "test.use"(%1) : (f32) -> ()
  "test.br"() [^bb2] : () -> ()
^bb2:
  "test.ret"() : () -> ()
}, {
  "test.other"() {dense = dense<[1.5, 2.0]> : vector<2xf32>, set = affine_set<(d0)[s0] : (d0 - s0 >= 0)>} : () -> ()
}) : () -> ()

// Dialect symbols print in pretty form when they read as identifiers.
func.func private @pretty_type() -> !bar<baz>
func.func private @quoted_type() -> !bar<"x y">
func.func @pretty_attrs() {
  "foo.op"() {a = #foo<bar>, b = #foo<"q r">, c = #foo.baz<1>} : () -> ()
  return
}

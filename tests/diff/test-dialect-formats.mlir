// Custom formats of MLIR's test dialect (linked by bishengir's tools too):
// graph regions (uses before definitions), an affine scope, polyfor's
// induction variables, literal-parsing ops, an optional result, and ops
// the dialect's own hook prints.
func.func @graph() {
  test.graph_region {
    %late:2 = "acme.pair"(%early) : (i32) -> (i32, i32)
    %early = "acme.one"(%late#1) : (i32) -> i32
  }
  return
}
func.func @loops(%n: index) {
  test.polyfor %i, %j {
    "acme.use"(%j, %i, %n) : (index, index, index) -> ()
  }
  test.affine_scope {
    %s = arith.addi %n, %n : index
    "acme.end"(%s) : (index) -> ()
  }
  return
}
func.func @literals() {
  %r:3 = test.parse_integer_literal : 3
  test.parse_integer_literal : 0
  test.parse_wrapped_keyword acme.some.keyword
  test.parse_b64 "aHZpdm0tcnM="
  test.parse_b64 "eA=="
  "acme.use"(%r#2) : (index) -> ()
  return
}
test.dialect_custom_printer custom_format
test.dialect_custom_format_fallback custom_format_fallback
%opt = test.format_optional_result_d_op : f80
test.format_optional_result_d_op
// An isolated region's argument is written with the operand's name, result
// number included; ops in a default-dialect region leave out `test.`.
func.func @isolated() {
  %c = arith.constant 4 : index
  test.isolated_region %c {
    "acme.use"(%c) : (index) -> ()
  }
  %pair:2 = "acme.pair"() : () -> (index, index)
  test.isolated_region %pair#1 {
    "acme.use"(%pair#1) : (index) -> ()
  }
  return
}
func.func @default_dialect() {
  test.default_dialect {
    parse_integer_literal : 2
    test.parse_integer_literal : 1
    test.op.with_dot_in_name
    test.dialect_custom_printer.with.dot
    "test.terminator"() : () -> ()
  }
  return
}
// Result names taken from, and printed through, a `names` property; printed
// only where the printed names differ from it.
func.func @pretty_names() {
  %first = test.string_attr_pretty_name
  %second = test.string_attr_pretty_name attributes {names = ["first"]}
  %g = "test.string_attr_pretty_name"() {names = ["two words"]} : () -> i32
  %u, %v = test.string_attr_pretty_name
  %w:2, %z = test.string_attr_pretty_name
  %7 = test.string_attr_pretty_name
  "acme.use"(%first, %second, %g, %u, %v, %w#1, %z, %7) : (i32, i32, i32, i32, i32, i32, i32, i32) -> ()
  return
}
// Names an op's asm interface gives its result groups, in generic form.
func.func @asm_names() -> (i32, i32, i32, i32, i32, i32) {
  %a, %b:2, %c = "test.asm_interface_op"() : () -> (i32, i32, i32, i32)
  %d, %e = "test.asm_interface_op"() : () -> (i32, i32)
  return %a, %b#0, %b#1, %c, %d, %e : i32, i32, i32, i32, i32, i32
}

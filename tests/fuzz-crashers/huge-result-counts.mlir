func.func @f() {
  test.parse_integer_literal : 99999999999
  %q:4000000000 = test.string_attr_pretty_name
  return
}

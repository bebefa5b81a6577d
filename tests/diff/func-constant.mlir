// func.constant: a function as a value, named %f (printed as
// `constant` inside a function body, where func is the default dialect).
func.func @callee(%a: i32) -> i32 {
  return %a : i32
}
func.func @user() -> ((i32) -> i32) {
  %f = func.constant @callee : (i32) -> i32
  %g = func.constant {tag} @callee : (i32) -> i32
  return %g : (i32) -> i32
}

//! The `test` dialect bishengir-opt registers for its own tests: it defines
//! no ops but accepts any (`"test.consume"(%x) : (T) -> ()`), in generic form,
//! as MLIR's test dialect does with `allowUnknownOperations`.

use hivm_ir::Dialect;

pub fn dialect() -> Dialect {
    let mut d = Dialect::new("test", Vec::new());
    d.allow_unknown_ops = true;
    d
}

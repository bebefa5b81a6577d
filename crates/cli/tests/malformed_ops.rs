//! Every registered op, written in generic form with operand, result and
//! region counts it does not expect, must give a diagnostic (or be accepted)
//! — never a panic — in both output forms. Hand-written verifiers and
//! printers index operands and regions; their declared arity
//! (`OpDef::arity`) or their own checks must run first.

use hivm_cli::opt::{Options, run};

/// Generic-form bodies with the op name left as `NAME`.
const SHAPES: &[&str] = &[
    "\"NAME\"() : () -> ()",
    "%r = \"NAME\"(%a) : (index) -> index",
    "%r = \"NAME\"(%t) : (tensor<4xf32>) -> tensor<4xf32>",
    "\"NAME\"(%a, %a) ({\n  ^bb0:\n    \"test.end\"() : () -> ()\n  }) : (index, index) -> ()",
    "%r:2 = \"NAME\"(%a, %a, %a) ({\n  }, {\n  }) : (index, index, index) -> (index, index)",
    "%r = \"NAME\"(%m, %a) : (memref<4xf32>, index) -> f32",
];

#[test]
fn malformed_generic_ops_do_not_panic() {
    let registry = hivm_dialects::registry();
    let mut names = registry.op_names();
    names.sort_unstable();
    assert!(names.len() > 200, "the registry lists {} ops", names.len());
    let mut panics = Vec::new();
    for name in names {
        for shape in SHAPES {
            let body = shape.replace("NAME", name);
            let text =
                format!("func.func @f(%a: index, %t: tensor<4xf32>, %m: memref<4xf32>) {{\n  {body}\n  return\n}}\n");
            for generic in [false, true] {
                let opts = Options { generic, ..Options::default() };
                let outcome = std::panic::catch_unwind(|| {
                    let mut out = Vec::new();
                    run(&opts, &text, "malformed.mlir", None, &mut out)
                });
                match outcome {
                    Err(_) => panics.push(format!("{name} (generic output: {generic}):\n{text}")),
                    Ok(o) if o.stderr.contains("panicked") || o.stderr.contains("internal error") => {
                        panics.push(format!("{name}: {}", o.stderr))
                    }
                    Ok(_) => {}
                }
            }
        }
    }
    assert!(panics.is_empty(), "{} inputs panicked:\n{}", panics.len(), panics.join("\n"));
}

//! The edit API passes rely on: insert, move, erase, clone, replace uses.

use std::sync::Arc;

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::printer::{PrintOptions, print_top_level};
use hivm_ir::{Ir, OpId, Registry};

fn parse(text: &str) -> (Ir, OpId) {
    let mut ir = Ir::new(Arc::new(Registry::default()));
    ir.allow_unregistered = true;
    let m = {
        let mut p = hivm_ir::parser::Parser::new(&mut ir, text, "t.mlir", 0);
        p.parse_module().map_err(|e| e.msg).unwrap()
    };
    (ir, m)
}

fn print(ir: &Ir, m: OpId) -> String {
    print_top_level(ir, m, PrintOptions { generic: true, debuginfo: false })
}

fn ops_of(ir: &Ir, m: OpId) -> Vec<OpId> {
    let b = ir.region_blocks(ir.regions(m)[0])[0];
    ir.block_ops(b).collect()
}

const INPUT: &str = r#"
%0 = "t.a"() : () -> i32
%1 = "t.b"(%0) : (i32) -> i32
"t.use"(%0, %1) : (i32, i32) -> ()
"#;

#[test]
fn insert_before_and_after_keep_order() {
    let (mut ir, m) = parse(INPUT);
    let ops = ops_of(&ir, m);
    let i32t = ir.int_type(32);
    let loc = ir.unknown_loc();
    let mut b = Builder::new(&mut ir, InsertPoint::After(ops[0]));
    b.op("t.x", &[], &[i32t], vec![], loc);
    b.op("t.y", &[], &[], vec![], loc);
    let mut b = Builder::new(&mut ir, InsertPoint::Before(ops[0]));
    b.op("t.first", &[], &[], vec![], loc);
    let names: Vec<String> = ops_of(&ir, m).iter().map(|o| ir.op_name(*o).to_string()).collect();
    assert_eq!(names, ["t.first", "t.a", "t.x", "t.y", "t.b", "t.use"]);
}

#[test]
fn replace_uses_then_erase() {
    let (mut ir, m) = parse(INPUT);
    let ops = ops_of(&ir, m);
    let (a, b) = (ir.result(ops[0], 0), ir.result(ops[1], 0));
    ir.replace_all_uses_in(m, b, a);
    ir.erase_op(ops[1]);
    assert!(ir.is_erased(ops[1]));
    let text = print(&ir, m);
    assert!(text.contains(r#""t.use"(%0, %0) : (i32, i32) -> ()"#), "{text}");
    assert!(!text.contains("t.b"), "{text}");
}

#[test]
fn move_and_clone() {
    let (mut ir, m) = parse(INPUT);
    let ops = ops_of(&ir, m);
    ir.move_op_after(ops[0], ops[2]);
    let names: Vec<&str> = ops_of(&ir, m).iter().map(|o| ir.op_name(*o)).collect();
    assert_eq!(names, ["t.b", "t.use", "t.a"]);
    let mut map = hivm_ir::ValueMap::default();
    let c = ir.clone_op(ops[1], &mut map);
    ir.insert_op_after(ops[2], c);
    assert_eq!(ir.operands(c), ir.operands(ops[1]));
    assert_ne!(ir.result(c, 0), ir.result(ops[1], 0));
    assert_eq!(map[&ir.result(ops[1], 0)], ir.result(c, 0));
}

#[test]
fn clone_remaps_nested_regions_and_successors() {
    let (mut ir, m) = parse(
        r#""t.holder"() ({
^bb0(%x: i32):
  "t.br"()[^bb1] : () -> ()
^bb1:
  "t.use"(%x) : (i32) -> ()
}) : () -> ()"#,
    );
    let holder = ops_of(&ir, m)[0];
    let mut map = hivm_ir::ValueMap::default();
    let c = ir.clone_op(holder, &mut map);
    ir.insert_op_after(holder, c);
    let text = print(&ir, m);
    assert_eq!(text.matches(r#""t.br"()[^bb1]"#).count(), 2, "{text}");
    assert_eq!(text.matches(r#""t.use"(%arg0)"#).count(), 1, "{text}");
    assert_eq!(text.matches(r#""t.use"(%arg1)"#).count(), 1, "{text}");
}

#[test]
fn attributes_set_and_remove() {
    let (mut ir, m) = parse(INPUT);
    let op = ops_of(&ir, m)[0];
    let v = ir.i64_attr(7);
    ir.set_attr(op, "k", v);
    assert_eq!(ir.get_attr(op, "k"), Some(v));
    assert!(print(&ir, m).contains("{k = 7 : i64}"));
    assert_eq!(ir.remove_attr(op, "k"), Some(v));
    assert!(!ir.has_attr(op, "k"));
}

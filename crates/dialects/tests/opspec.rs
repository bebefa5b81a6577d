//! The declarative op definitions (`hivm_ir::opspec`): formats round-trip
//! with MLIR's spacing, optional groups follow their anchors, defaults are
//! materialised and elided, and the structural checks speak MLIR's words.

use std::sync::Arc;

use hivm_ir::opspec::{AttrKind, EnumKind, Fixed, OpSpec, attr, default_attr, one, opt, opt_attr, var};
use hivm_ir::parser::Parser;
use hivm_ir::printer::{PrintOptions, print_top_level};
use hivm_ir::{Dialect, Ir};

const COLOR: AttrKind = AttrKind::Enum(EnumKind { dialect: "fmt", mnemonic: "color", summary: "color attribute" });

const PAIR: OpSpec = OpSpec {
    name: "fmt.pair",
    attrs: &[attr("a", COLOR), attr("b", COLOR)],
    format: "`[` $a `,` $b `]` attr-dict",
    ..OpSpec::EMPTY
};

const MOVE: OpSpec = OpSpec {
    name: "fmt.move",
    operands: &[one("src"), one("dst"), opt("pad")],
    attrs: &[
        default_attr("dims", AttrKind::I64Array, "[]"),
        default_attr("fast", AttrKind::Bool, "false"),
        opt_attr("mode", COLOR),
        opt_attr("flag", AttrKind::Unit),
    ],
    results: &[opt("result")],
    segments: true,
    format: "attr-dict `ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)` \
             (`pad` `=` $pad^ `:` type($pad))? (`dims` `=` $dims^)? (`fast` `=` $fast^)? \
             (`mode` `=` $mode^)? (`flagged` $flag^)? (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

const AT: OpSpec = OpSpec {
    name: "fmt.at",
    attrs: &[attr("on", AttrKind::Bool), attr("idx", AttrKind::Int(64))],
    format: "$on `at` `ctrl``[` $idx `]` attr-dict",
    ..OpSpec::EMPTY
};

const LIST: OpSpec = OpSpec {
    name: "fmt.list",
    operands: &[var("xs").of(Fixed::Int(64)), var("sizes").of(Fixed::Index)],
    results: &[one("r")],
    segments: true,
    format: "`(`$xs `)` (`[` $sizes^`]`)? attr-dict `:` type($r)",
    ..OpSpec::EMPTY
};

const EITHER: OpSpec = OpSpec {
    name: "fmt.either",
    operands: &[opt("v")],
    format: "(`value` $v^ `:` type($v)) : (`none`)? attr-dict",
    ..OpSpec::EMPTY
};

fn ir() -> Ir {
    let mut r = hivm_dialects::registry();
    r.register(Dialect::new("fmt", [PAIR, MOVE, AT, LIST, EITHER].into_iter().map(OpSpec::def).collect()));
    Ir::new(Arc::new(r))
}

fn run(src: &str, generic: bool) -> Result<String, String> {
    let mut ir = ir();
    let m = {
        let mut p = Parser::new(&mut ir, src, "t.mlir", 0);
        p.parse_module().map_err(|e| e.msg)?
    };
    if let Some(d) = hivm_ir::verifier::verify_all(&ir, m).into_iter().next() {
        return Err(d.message);
    }
    Ok(print_top_level(&ir, m, PrintOptions { generic, debuginfo: false }))
}

/// The body of the single function in `out`, one op per line, trimmed.
fn body(out: &str) -> Vec<String> {
    out.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("module") && !l.starts_with("func") && *l != "}" && *l != "return")
        .map(str::to_string)
        .collect()
}

const ARGS: &str = "%a: memref<4xf32>, %b: memref<4xf32>, %t: tensor<4xf32>, %i: i64, %n: index, %f: f32";

fn roundtrip(ops: &str) -> Vec<String> {
    let src = format!("func.func @f({ARGS}) {{\n{ops}\nreturn\n}}");
    let out = run(&src, false).unwrap_or_else(|e| panic!("{e}"));
    // Printing is a fixed point.
    assert_eq!(run(&out, false).unwrap(), out);
    body(&out)
}

#[test]
fn spacing_follows_mlir_generated_printers() {
    let got = roundtrip(
        "fmt.pair [ <red> , <blue> ]\n\
         fmt.at true at ctrl [ 7 ]\n\
         %p = fmt.list (%i, %i) [%n] : memref<?xf32>\n\
         %q = fmt.list(%i) : memref<4xf32>",
    );
    assert_eq!(
        got,
        [
            "fmt.pair[<red>, <blue>]",
            "fmt.at true at ctrl[7]",
            "%0 = fmt.list(%arg3, %arg3) [%arg4] : memref<?xf32>",
            "%1 = fmt.list(%arg3) : memref<4xf32>",
        ]
    );
}

#[test]
fn optional_groups_follow_their_anchors() {
    let got = roundtrip(
        "fmt.move ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)\n\
         fmt.move {x = 1 : i32} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) pad = %f : f32 dims = [1, 0] fast = true mode = #fmt.color<red> flagged\n\
         fmt.move ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) dims = [] fast = false\n\
         %r = fmt.move ins(%a : memref<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>",
    );
    assert_eq!(
        got,
        [
            "fmt.move ins(%arg0 : memref<4xf32>) outs(%arg1 : memref<4xf32>)",
            "fmt.move {x = 1 : i32} ins(%arg0 : memref<4xf32>) outs(%arg1 : memref<4xf32>) pad = %arg5 : f32 dims = [1, 0] fast = true mode = <red> flagged",
            // Written defaults are elided like absent ones.
            "fmt.move ins(%arg0 : memref<4xf32>) outs(%arg1 : memref<4xf32>)",
            "%0 = fmt.move ins(%arg0 : memref<4xf32>) outs(%arg2 : tensor<4xf32>) -> tensor<4xf32>",
        ]
    );
}

#[test]
fn else_groups_print_when_the_anchor_is_absent() {
    assert_eq!(
        roundtrip("fmt.either value %i : i64\nfmt.either none"),
        ["fmt.either value %arg3 : i64", "fmt.either none"]
    );
}

#[test]
fn defaults_are_materialised_and_segments_recorded() {
    let src = format!("func.func @f({ARGS}) {{\nfmt.move ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)\nreturn\n}}");
    let out = run(&src, true).unwrap();
    assert!(
        out.contains(
            "\"fmt.move\"(%arg0, %arg1) <{dims = array<i64>, fast = false, operandSegmentSizes = array<i32: 1, 1, 0>}>"
        ),
        "{out}"
    );
    // The generic form reads back to the same op.
    let custom = run(&out, false).unwrap();
    assert!(custom.contains("fmt.move ins(%arg0 : memref<4xf32>) outs(%arg1 : memref<4xf32>)\n"), "{custom}");
}

#[test]
fn structural_checks_use_mlir_words() {
    let cases = [
        ("\"fmt.pair\"() <{a = #fmt.color<red>}> : () -> ()", "'fmt.pair' op requires attribute 'b'"),
        (
            "\"fmt.at\"() <{on = 1 : i32, idx = 3 : i64}> : () -> ()",
            "'fmt.at' op attribute 'on' failed to satisfy constraint: bool attribute",
        ),
        (
            "\"fmt.list\"(%i) <{operandSegmentSizes = array<i32: 1>}> : (i64) -> memref<4xf32>",
            "'fmt.list' op 'operandSegmentSizes' attribute for specifying operand segments must have 2 elements, but got 1",
        ),
        (
            "\"fmt.list\"(%i) <{operandSegmentSizes = array<i32: 2, 0>}> : (i64) -> memref<4xf32>",
            "'fmt.list' op operand count (1) does not match with the total size (2) specified in attribute 'operandSegmentSizes'",
        ),
        (
            "\"fmt.move\"(%a, %b, %f, %f) <{operandSegmentSizes = array<i32: 1, 1, 2>}> : (memref<4xf32>, memref<4xf32>, f32, f32) -> ()",
            "'fmt.move' op operand group starting at #2 requires 0 or 1 element, but found 2",
        ),
        (
            "\"fmt.either\"(%i, %i) : (i64, i64) -> ()",
            "'fmt.either' op operand group starting at #0 requires 0 or 1 element, but found 2",
        ),
        (
            "\"fmt.pair\"() <{a = #fmt.color<red>, b = #fmt.color<red>}> : () -> i32",
            "'fmt.pair' op requires zero results",
        ),
    ];
    for (op, want) in cases {
        let src = format!("func.func @f({ARGS}) {{\n{op}\nreturn\n}}");
        assert_eq!(run(&src, false).unwrap_err(), want, "{op}");
    }
}

#[test]
fn parse_errors_are_located_and_worded_as_mlir() {
    let cases = [
        ("fmt.at 1 at ctrl[7]", "invalid kind of attribute specified"),
        ("fmt.pair[red, <blue>]", "expected '<' to begin #fmt.color"),
        ("fmt.pair[<red> <blue>]", "expected ','"),
        ("fmt.move ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) dims = [1, x]", "expected integer value"),
        ("fmt.either value", "expected ':'"),
    ];
    for (op, want) in cases {
        let src = format!("func.func @f({ARGS}) {{\n{op}\nreturn\n}}");
        let e = run(&src, false).unwrap_err();
        assert!(e.contains(want), "{op}: got {e}");
    }
}

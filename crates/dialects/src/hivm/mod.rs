//! The HIVM dialect: attributes and the custom-operator ops.

pub mod attrs;
pub mod custom;

use hivm_ir::{Dialect, OpDef};

pub fn dialect() -> Dialect {
    let inherent: &'static [&'static str] = &["name", "no_side_effect", "operandSegmentSizes"];
    let mut d = Dialect::new(
        "hivm",
        vec![
            OpDef::new(custom::CUSTOM)
                .inherent(inherent)
                .assembly(custom::parse_custom, custom::print)
                .verifier(custom::verify),
            OpDef::new(custom::MACRO)
                .inherent(inherent)
                .assembly(custom::parse_macro, custom::print)
                .verifier(custom::verify),
        ],
    );
    d.check_attr = Some(attrs::check_attr);
    d
}

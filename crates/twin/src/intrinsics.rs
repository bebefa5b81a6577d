//! Which Ascend intrinsics the twin header emulates, and the twin's own
//! message when an implementation calls one it does not: the compiler alone
//! says only "'vcadd' was not declared in this scope".

use crate::native::HEADER;

/// The intrinsics `hivm_twin.h` defines (a test checks each is defined there).
pub const EMULATED: &[&str] = &[
    "set_flag",
    "wait_flag",
    "pipe_barrier",
    "get_block_idx",
    "get_block_num",
    "set_vector_mask",
    "set_mask_count",
    "set_mask_norm",
    "copy_gm_to_ubuf_align_b8",
    "copy_gm_to_ubuf_align_b16",
    "copy_gm_to_ubuf_align_b32",
    "copy_ubuf_to_gm_align_b8",
    "copy_ubuf_to_gm_align_b16",
    "copy_ubuf_to_gm_align_b32",
    "copy_ubuf_to_ubuf",
    "vadd",
    "vsub",
    "vmul",
    "vdiv",
    "vmax",
    "vmin",
    "vand",
    "vor",
    "vadds",
    "vmuls",
    "vmaxs",
    "vmins",
    "vexp",
    "vln",
    "vsqrt",
    "vrec",
    "vabs",
    "vrelu",
];

/// The Ascend intrinsics the header declares as not emulated (its
/// `HIVM_TWIN_UNEMULATED(name)` lines): a call is a compile error naming it.
pub fn unemulated() -> impl Iterator<Item = &'static str> {
    HEADER.lines().filter_map(|l| l.strip_prefix("HIVM_TWIN_UNEMULATED(")?.strip_suffix(')'))
}

/// The identifiers a compiler's output says are undeclared (gcc and clang,
/// C and C++, ASCII or typographic quotes).
fn undeclared(stderr: &str) -> Vec<String> {
    const PATTERNS: [(&str, &str); 4] = [
        ("", "was not declared in this scope"),
        ("use of undeclared identifier ", ""),
        ("call to undeclared function ", ""),
        ("implicit declaration of function ", ""),
    ];
    let mut names = Vec::new();
    for line in stderr.lines() {
        for (before, after) in PATTERNS {
            let Some(at) = (if before.is_empty() { line.find(after) } else { line.find(before) }) else {
                continue;
            };
            let quoted = if before.is_empty() { &line[..at] } else { &line[at + before.len()..] };
            let quoted = quoted.trim();
            let name: String = if before.is_empty() {
                quoted.trim_end_matches(['\'', '’']).rsplit(['\'', '‘', ' ']).next().unwrap_or("").to_string()
            } else {
                quoted
                    .trim_start_matches(['\'', '‘'])
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect()
            };
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// A summary to put before a failed compile's output: each unemulated Ascend
/// intrinsic called, and each undeclared name with the intrinsics the twin
/// does emulate. None when the failure is about something else.
pub fn explain(stderr: &str) -> Option<String> {
    let listed: Vec<&str> = unemulated().collect();
    let mut lines = Vec::new();
    for name in &listed {
        if stderr.contains(&format!("does not emulate the Ascend intrinsic '{name}'")) {
            lines.push(format!("the CPU twin does not emulate the Ascend intrinsic '{name}'"));
        }
    }
    for name in undeclared(stderr) {
        if listed.contains(&name.as_str()) {
            lines.push(format!("the CPU twin does not emulate the Ascend intrinsic '{name}'"));
        } else if EMULATED.contains(&name.as_str()) {
            lines.push(format!(
                "'{name}' is emulated by the CPU twin for C++ sources only (compile the implementation as C++)"
            ));
        } else {
            lines.push(format!(
                "'{name}' is not declared: neither the implementation nor the CPU twin's header defines it \
                 (if it is an Ascend intrinsic, the twin does not emulate it)"
            ));
        }
    }
    if lines.is_empty() {
        return None;
    }
    lines.push(format!(
        "the twin emulates: {} (see `hivm-run --print-include-dir` for the header)",
        EMULATED.join(", ")
    ));
    Some(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_emulated_intrinsic_is_defined_in_the_header() {
        for name in EMULATED {
            // The copies are made per width by a macro: `copy_..._b##BITS(` and `HIVM_TWIN_GM_TO_UB(8)`.
            let by_width = name.rsplit_once("_b").is_some_and(|(stem, bits)| {
                HEADER.contains(&format!(" {stem}_b##BITS(")) && HEADER.contains(&format!("HIVM_TWIN_GM_TO_UB({bits})"))
            });
            let defined = by_width || HEADER.contains(&format!(" {name}(")) || HEADER.contains(&format!("({name},"));
            assert!(defined, "{name} is not defined in hivm_twin.h");
            assert!(!unemulated().any(|u| u == *name), "{name} is listed both ways");
        }
        assert!(unemulated().count() > 50);
    }

    #[test]
    fn the_python_package_ships_this_header() {
        // python/hivm/include/hivm_twin.h is a link to the header, which the wheel
        // installs for `hivm.include_dir()`; a copy would drift.
        let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../../python/hivm/include/hivm_twin.h");
        let text = std::fs::read_to_string(shipped).expect("python/hivm/include/hivm_twin.h is missing");
        assert!(text == HEADER, "python/hivm/include/hivm_twin.h differs from crates/twin/include/hivm_twin.h");
    }

    #[test]
    fn undeclared_names_are_found_in_gcc_and_clang_output() {
        let gcc = "a.cpp:2:44: error: ‘foo_intrin’ was not declared in this scope\n";
        let gcc_c = "a.cpp:2:44: error: 'vcadd' was not declared in this scope; did you mean 'vadd'?\n";
        let clang = "a.cpp:2:44: error: use of undeclared identifier 'bar'\n";
        let c = "a.c:2:44: error: implicit declaration of function ‘baz’ [-Werror=implicit-function-declaration]\n";
        assert_eq!(undeclared(gcc), ["foo_intrin"]);
        assert_eq!(undeclared(gcc_c), ["vcadd"]);
        assert_eq!(undeclared(clang), ["bar"]);
        assert_eq!(undeclared(c), ["baz"]);
        assert!(explain(gcc_c).unwrap().starts_with("the CPU twin does not emulate the Ascend intrinsic 'vcadd'"));
        assert!(explain("a.cpp:1:1: error: expected ';'").is_none());
    }
}

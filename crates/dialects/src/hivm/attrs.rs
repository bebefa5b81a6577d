//! HIVM attributes. They are stored as dialect attributes whose body is
//! validated and canonicalized here (`#hivm.pipe<PIPE_V>`); accessors below
//! decode them for passes.

use hivm_ir::{Attribute, Ir};

use crate::util::opaque_arg;

/// Enum-valued attributes: mnemonic → allowed values, in storage order.
pub const ENUMS: &[(&str, &[&str])] = &[
    (
        "pipe",
        &[
            "PIPE_S",
            "PIPE_V",
            "PIPE_M",
            "PIPE_MTE1",
            "PIPE_MTE2",
            "PIPE_MTE3",
            "PIPE_ALL",
            "PIPE_MTE4",
            "PIPE_MTE5",
            "PIPE_V2",
            "PIPE_FIX",
            "VIRTUAL_PIPE_MTE2_L1A",
            "VIRTUAL_PIPE_MTE2_L1B",
            "PIPE_NUM",
            "PIPE_UNASSIGNED",
        ],
    ),
    ("tcore_type", &["CUBE", "VECTOR", "CUBE_OR_VECTOR", "CUBE_AND_VECTOR"]),
    ("compare_mode", &["eq", "ne", "lt", "gt", "ge", "le"]),
    (
        "sync_block_instr_mode",
        &["INTER_BLOCK_SYNCHRONIZATION", "INTER_SUBBLOCK_SYNCHRONIZATION", "INTRA_BLOCK_SYNCHRONIZATION"],
    ),
    ("tcore_type_marker", &["CUBE", "VECTOR", "CUBE_OR_VECTOR", "CUBE_AND_VECTOR"]),
    ("func_core_type", &["AIC", "AIV", "MIX", "AIC_OR_AIV"]),
    ("module_core_type", &["AIC", "AIV", "MIX"]),
    ("vf_mode", &["SIMD", "SIMT", "MIX"]),
    ("inline_mode", &["always_inline", "no_inline"]),
    (
        "iterator_type",
        &[
            "parallel",
            "broadcast",
            "transpose",
            "reduction",
            "interleave",
            "deinterleave",
            "inverse",
            "pad",
            "concat",
            "gather",
            "cumulative",
            "opaque",
        ],
    ),
    (
        "event",
        &["EVENT_ID0", "EVENT_ID1", "EVENT_ID2", "EVENT_ID3", "EVENT_ID4", "EVENT_ID5", "EVENT_ID6", "EVENT_ID7"],
    ),
    ("address_space", &["zero", "gm", "cbuf", "ca", "cb", "cc", "ub", "ssbuf"]),
    ("dma_mode", &["nz2nd", "nz2dn", "normal"]),
    ("fixpipe_pre_quant_mode", &["NO_QUANT", "F322F16", "S322I8", "QF322F32_PRE", "F322BF16"]),
    ("fixpipe_pre_relu_mode", &["NO_RELU", "NORMAL_RELU", "LEAKY_RELU", "P_RELU"]),
    ("fixpipe_dual_dst_mode", &["NO_DUAL", "ROW_SPLIT", "COLUMN_SPLIT"]),
    ("fixpipe_sub_block", &["sub_block_0", "sub_block_1"]),
    ("padmode", &["PadNull", "PadFirstElem", "PadValue"]),
    ("atomic_kind", &["none", "add", "max", "min", "and", "or", "xor", "umax", "umin"]),
    ("eviction_policy", &["EvictNormal", "EvictFirst", "EvictLast"]),
    ("round_mode", &["rint", "round", "floor", "ceil", "trunc", "odd", "truncwithoverflow"]),
    ("cast", &["cast_signed", "cast_unsigned"]),
    ("descale_mode", &["DescaleNull", "DescalePerChannel", "DescalePerTensor"]),
    // `#hivm.memory_effect<read>`: what an outlined SIMT VF does with a
    // memref argument (a function argument attribute, `hivm.memory_effect`).
    ("memory_effect", &["read", "write", "read_write"]),
    ("deinterleave_mode", &["CHANNEL_0", "CHANNEL_1", "ALL_CHANNELS"]),
    ("unsigned_mode", &["si2si", "si2ui", "ui2si", "ui2ui"]),
    ("DCCIMode", &["single_cache_line", "all_cache_lines"]),
    ("DataCacheKind", &["all", "ub", "out", "atomic"]),
    ("axis_kind", &["first", "middle", "last"]),
    ("align_kind", &["align", "unaligned", "unknown"]),
    ("sync_block_mode", &["ALL_CUBE", "ALL_VECTOR", "ALL_SUB_VECTOR", "BARRIER_CUBE", "BARRIER_VECTOR", "ALL"]),
    ("cache_modifier", &["none", "ca", "cg", "wb", "cs", "wt", "cv"]),
    ("sub_block", &["x"]),
    ("unit_flag", &["DISABLED", "RESERVED", "ENABLED_WITHOUT_UPDATE", "ENABLED_WITH_UPDATE"]),
    ("simt_mem_scope_hint", &["zero", "gm", "cbuf", "ca", "cb", "cc", "ub", "ssbuf"]),
    ("padding_option", &["zero", "nan"]),
    (
        "reduce_op",
        &[
            "none",
            "sum",
            "prod",
            "max",
            "min",
            "max_with_index_left",
            "max_with_index_right",
            "min_with_index_left",
            "min_with_index_right",
            "max_with_index",
            "min_with_index",
            "any",
            "all",
            "xori",
            "ori",
            "andi",
        ],
    ),
];

/// Numeric value of a pipe as upstream stores it (PIPE_UNASSIGNED = 99).
pub fn pipe_number(name: &str) -> Option<u32> {
    let pipes = ENUMS[0].1;
    let i = pipes.iter().position(|p| *p == name)?;
    Some(if name == "PIPE_UNASSIGNED" { 99 } else { i as u32 })
}

/// Splits `mnemonic<args>` into its parts.
fn split_body(body: &str) -> Option<(&str, &str)> {
    let open = body.find('<')?;
    let inner = body[open + 1..].strip_suffix('>')?;
    Some((&body[..open], inner))
}

/// Validates and canonicalizes an attribute body of the `hivm` dialect.
pub fn check_attr(body: &str) -> Result<String, String> {
    // Markers without parameters.
    if matches!(body, "storage_aligned" | "enable_saving_ub" | "disable_size_align_for_cast" | "block") {
        return Ok(body.to_string());
    }
    let Some((mnemonic, args)) = split_body(body) else {
        return Err(format!("unknown attribute `{body}` in dialect `hivm`"));
    };
    if mnemonic == "tightly_coupled_buffer" {
        // An optional 32-bit id.
        let v = args.trim();
        return if v.is_empty() {
            Ok("tightly_coupled_buffer<>".into())
        } else {
            v.parse::<i32>()
                .map(|n| format!("tightly_coupled_buffer<{n}>"))
                .map_err(|_| format!("expected an integer id in #hivm.tightly_coupled_buffer, got '{v}'"))
        };
    }
    if let Some((_, values)) = ENUMS.iter().find(|(m, _)| *m == mnemonic) {
        let v = args.trim();
        if !values.contains(&v) {
            return Err(format!("expected one of [{}] for {mnemonic}, got '{v}'", values.join(", ")));
        }
        return Ok(format!("{mnemonic}<{v}>"));
    }
    if mnemonic == "block" {
        // `#hivm.block<linear_dim = N>` (the bare `#hivm.block` is a marker).
        let n = args.trim().strip_prefix("linear_dim").map(|r| r.trim_start()).and_then(|r| r.strip_prefix('='));
        return match n.map(|v| v.trim().parse::<i32>()) {
            Some(Ok(v)) => Ok(format!("block<linear_dim = {v}>")),
            _ => Err(format!("expected 'linear_dim = N' in #hivm.block, got '{args}'")),
        };
    }
    if mnemonic == "data_layout" {
        return data_layout(args);
    }
    if mnemonic == "sync_event_slot" {
        return SyncEventSlot::parse(args).map(|s| format!("sync_event_slot{}", s.print()));
    }
    Err(format!("unknown attribute `{mnemonic}` in dialect `hivm`"))
}

const DATA_LAYOUTS: &[&str] = &[
    "dotA_ND",
    "dotB_ND",
    "dotC_ND",
    "nZ",
    "zN",
    "ND",
    "Fractal",
    "NCHW",
    "NC1HWC0",
    "C1HWNC0",
    "SCALEA_ND",
    "SCALEB_DN",
    "SCALEA_zZ",
    "SCALEB_nN",
];

/// `#hivm.data_layout<LAYOUT (, transpose = b)? (, fractalSizes = [..])?>`:
/// the optional parameters in any order, printed in declaration order.
fn data_layout(args: &str) -> Result<String, String> {
    let mut parts = crate::util::split_top_level(args);
    if parts.is_empty() {
        return Err("expected a data layout".into());
    }
    let layout = parts.remove(0);
    if !DATA_LAYOUTS.contains(&layout.as_str()) {
        return Err(format!("expected one of [{}] for data_layout, got '{layout}'", DATA_LAYOUTS.join(", ")));
    }
    let (mut transpose, mut sizes) = (None, None);
    for p in parts {
        let Some((k, v)) = p.split_once('=') else {
            return Err(format!("expected 'key = value' in data_layout, got '{p}'"));
        };
        match (k.trim(), v.trim()) {
            ("transpose", b @ ("true" | "false")) => transpose = Some(b.to_string()),
            ("fractalSizes", list) => {
                let inner = list
                    .strip_prefix('[')
                    .and_then(|l| l.strip_suffix(']'))
                    .ok_or_else(|| format!("expected '[...]' for fractalSizes, got '{list}'"))?;
                let vals: Result<Vec<i64>, _> =
                    inner.split(',').filter(|x| !x.trim().is_empty()).map(|x| x.trim().parse::<i64>()).collect();
                let vals = vals.map_err(|_| format!("expected integers in fractalSizes, got '{list}'"))?;
                sizes = Some(vals.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "));
            }
            (k, v) => return Err(format!("unexpected data_layout parameter '{k} = {v}'")),
        }
    }
    // Upstream's DataLayoutAttr::verify: ND takes `transpose` or not; the dot
    // operand layouts need it; every other layout refuses it.
    let dot_operand = matches!(layout.as_str(), "dotA_ND" | "dotB_ND");
    if dot_operand && transpose.is_none() {
        return Err("'transpose' must be set if data layout is DOTA_ND or DOTB_ND".into());
    }
    if !dot_operand && layout != "ND" && transpose.is_some() {
        return Err("'transpose' is only valid if data layout is DOTA_ND or DOTB_ND or ND like".into());
    }
    let mut out = format!("data_layout<{layout}");
    if let Some(t) = transpose {
        out.push_str(&format!(", transpose = {t}"));
    }
    if let Some(s) = sizes {
        out.push_str(&format!(", fractalSizes = [{s}]"));
    }
    out.push('>');
    Ok(out)
}

/// Reads `<VALUE>`, the form a declarative assembly format gives an enum
/// attribute parameter, into `#hivm.<mnemonic><VALUE>`.
pub fn parse_stripped_enum(p: &mut hivm_ir::parser::Parser<'_>, mnemonic: &str) -> hivm_ir::parser::PResult<Attribute> {
    let pos = p.pos();
    // The full form is accepted too (MLIR's parseCustomAttributeWithFallback).
    if p.is(hivm_ir::lexer::Tok::HashIdent) {
        let a = p.parse_attribute(None)?;
        return match enum_value(p.ir, a, mnemonic) {
            Some(_) => Ok(a),
            None => p.error_at(pos, format!("expected #hivm.{mnemonic} attribute")),
        };
    }
    if !p.is(hivm_ir::lexer::Tok::Less) {
        return p.error(format!("expected '<' to begin #hivm.{mnemonic}"));
    }
    let body = format!("{mnemonic}{}", p.parse_pretty_body()?);
    match check_attr(&body) {
        Ok(canonical) => Ok(crate::util::opaque_attr(p.ir, "hivm", &canonical)),
        Err(m) => p.error_at(pos, m),
    }
}

/// Prints an enum attribute as `<VALUE>`.
pub fn print_stripped_enum(p: &mut hivm_ir::printer::Printer<'_>, a: Attribute, mnemonic: &str) {
    match enum_value(p.ir, a, mnemonic) {
        Some(v) => p.push(&format!("<{v}>")),
        None => p.print_attr(a, hivm_ir::printer::Elide::Never),
    }
}

/// Decodes `#hivm.<mnemonic><VALUE>` into VALUE.
pub fn enum_value<'a>(ir: &'a Ir, a: Attribute, mnemonic: &str) -> Option<&'a str> {
    match ir.attr_data(a) {
        hivm_ir::AttrData::Opaque { dialect, .. } if ir.sym_str(*dialect) == "hivm" => opaque_arg(ir, a, mnemonic),
        _ => None,
    }
}

/// `#hivm.memory_effect<...>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MemoryEffect {
    Read,
    Write,
    ReadWrite,
}

impl MemoryEffect {
    pub fn reads(self) -> bool {
        self != MemoryEffect::Write
    }

    pub fn writes(self) -> bool {
        self != MemoryEffect::Read
    }

    /// Decodes `#hivm.memory_effect<...>`; `None` for any other attribute.
    pub fn from_attr(ir: &Ir, a: Attribute) -> Option<MemoryEffect> {
        match enum_value(ir, a, "memory_effect")? {
            "read" => Some(MemoryEffect::Read),
            "write" => Some(MemoryEffect::Write),
            "read_write" => Some(MemoryEffect::ReadWrite),
            _ => None,
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum MacroSync {
    Wait,
    Set,
    Internal,
}

impl MacroSync {
    pub fn as_str(self) -> &'static str {
        match self {
            MacroSync::Wait => "wait",
            MacroSync::Set => "set",
            MacroSync::Internal => "internal",
        }
    }
}

/// `#hivm.sync_event_slot<...>`: an optional (set pipe, wait pipe) pair, the
/// macro's role in that sync, and an optional pinned event id.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SyncEventSlot {
    pub pipes: Option<(String, String)>,
    pub mode: MacroSync,
    pub event: Option<u32>,
}

/// Top-level comma split that respects `<...>` nesting.
fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(s[start..].trim());
    parts
}

fn parse_pipe_ref(s: &str) -> Result<String, String> {
    let body = s.strip_prefix("#hivm.").ok_or_else(|| format!("expected #hivm.pipe attribute, got '{s}'"))?;
    let canonical = check_attr(body)?;
    let v = canonical.strip_prefix("pipe<").and_then(|r| r.strip_suffix('>'));
    v.map(str::to_string).ok_or_else(|| format!("expected #hivm.pipe attribute, got '{s}'"))
}

/// `<EVENT_IDn>`
fn parse_event(s: &str) -> Option<u32> {
    let inner = s.strip_prefix('<')?.strip_suffix('>')?.trim();
    inner.strip_prefix("EVENT_ID")?.parse::<u32>().ok().filter(|n| *n < 8)
}

impl SyncEventSlot {
    /// Parses the slot parameters (between the outer `<` `>`).
    pub fn parse(args: &str) -> Result<SyncEventSlot, String> {
        let parts = split_top(args);
        let mode_of = |s: &str| match s {
            "wait" => Some(MacroSync::Wait),
            "set" => Some(MacroSync::Set),
            "internal" => Some(MacroSync::Internal),
            _ => None,
        };
        let bad_event = "expected `wait`, `set`, `internal`, or an event attribute".to_string();
        if let Some(m) = mode_of(parts[0]) {
            if m != MacroSync::Internal {
                return Err("macro_sync without pipes is only supported for `internal`".into());
            }
            let event = match parts.get(1) {
                None => None,
                Some(e) => Some(parse_event(e).ok_or_else(|| "expected event attribute like <EVENT_ID0>".to_string())?),
            };
            if parts.len() > 2 {
                return Err("expected '>'".into());
            }
            return Ok(SyncEventSlot { pipes: None, mode: MacroSync::Internal, event });
        }
        if parts.len() < 2 {
            return Err("expected `internal` or a pair of #hivm.pipe attributes".into());
        }
        let set = parse_pipe_ref(parts[0])?;
        let wait = parse_pipe_ref(parts[1])?;
        let mut slot = SyncEventSlot { pipes: Some((set, wait)), mode: MacroSync::Internal, event: None };
        match parts.get(2) {
            None => {}
            Some(p) => match mode_of(p) {
                Some(m) => {
                    slot.mode = m;
                    if let Some(e) = parts.get(3) {
                        slot.event = Some(parse_event(e).ok_or(bad_event.clone())?);
                    }
                    if parts.len() > 4 {
                        return Err("expected '>'".into());
                    }
                }
                None => {
                    slot.event = Some(parse_event(p).ok_or(bad_event)?);
                    if parts.len() > 3 {
                        return Err("expected '>'".into());
                    }
                }
            },
        }
        Ok(slot)
    }

    /// Canonical parameters including the outer angle brackets.
    pub fn print(&self) -> String {
        let mut s = String::from("<");
        match &self.pipes {
            None => s.push_str(self.mode.as_str()),
            Some((a, b)) => {
                s.push_str(&format!("#hivm.pipe<{a}>, #hivm.pipe<{b}>"));
                if self.mode != MacroSync::Internal {
                    s.push_str(", ");
                    s.push_str(self.mode.as_str());
                } else if self.event.is_some() {
                    s.push_str(", internal");
                }
            }
        }
        if let Some(e) = self.event {
            s.push_str(&format!(", <EVENT_ID{e}>"));
        }
        s.push('>');
        s
    }

    pub fn from_attr(ir: &Ir, a: Attribute) -> Option<SyncEventSlot> {
        let hivm_ir::AttrData::Opaque { dialect, body } = ir.attr_data(a) else { return None };
        if ir.sym_str(*dialect) != "hivm" {
            return None;
        }
        let args = body.strip_prefix("sync_event_slot<")?.strip_suffix('>')?;
        SyncEventSlot::parse(args).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_round_trip_in_canonical_form() {
        for (input, want) in [
            ("<internal>", "<internal>"),
            ("<internal, <EVENT_ID3>>", "<internal, <EVENT_ID3>>"),
            ("<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>", "<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>"),
            ("<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, internal>", "<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>>"),
            (
                "<#hivm.pipe<PIPE_MTE2>,#hivm.pipe<PIPE_V>, <EVENT_ID1>>",
                "<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, internal, <EVENT_ID1>>",
            ),
            (
                "<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID1>>",
                "<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID1>>",
            ),
        ] {
            let args = &input[1..input.len() - 1];
            assert_eq!(SyncEventSlot::parse(args).unwrap().print(), want, "{input}");
        }
    }

    #[test]
    fn slot_errors_use_upstream_words() {
        assert_eq!(
            SyncEventSlot::parse("wait").unwrap_err(),
            "macro_sync without pipes is only supported for `internal`"
        );
        assert_eq!(
            SyncEventSlot::parse("#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_S>, bogus").unwrap_err(),
            "expected `wait`, `set`, `internal`, or an event attribute"
        );
        assert!(check_attr("nonsense<1>").unwrap_err().contains("unknown attribute `nonsense`"));
        assert_eq!(check_attr("pipe< PIPE_V >").unwrap(), "pipe<PIPE_V>");
    }

    #[test]
    fn memory_effects() {
        assert_eq!(check_attr("memory_effect< read_write >").unwrap(), "memory_effect<read_write>");
        assert!(check_attr("memory_effect<readwrite>").is_err());
        let mut ir = Ir::new(crate::shared_registry());
        let a = crate::util::opaque_attr(&mut ir, "hivm", "memory_effect<write>");
        let e = MemoryEffect::from_attr(&ir, a).unwrap();
        assert_eq!(e, MemoryEffect::Write);
        assert!(e.writes() && !e.reads());
        let p = crate::util::opaque_attr(&mut ir, "hivm", "pipe<PIPE_V>");
        assert_eq!(MemoryEffect::from_attr(&ir, p), None);
    }
}

/// HIVM enum attributes as op-definition attribute kinds (printed `<VALUE>`
/// inside op syntax).
pub mod kinds {
    use hivm_ir::opspec::{AttrKind, EnumKind};

    const fn hivm(mnemonic: &'static str, summary: &'static str) -> AttrKind {
        AttrKind::Enum(EnumKind { dialect: "hivm", mnemonic, summary })
    }

    pub const PIPE: AttrKind = hivm("pipe", "pipe attribute");
    pub const EVENT: AttrKind = hivm("event", "event attribute");
    pub const TCORE_TYPE: AttrKind = hivm("tcore_type", "core type attribute");
    pub const SYNC_BLOCK_INSTR_MODE: AttrKind = hivm("sync_block_instr_mode", "sync block instruction mode");
    pub const SYNC_BLOCK_MODE: AttrKind = hivm("sync_block_mode", "sync block mode");
    pub const PAD_MODE: AttrKind = hivm("padmode", "pad mode attribute");
    pub const EVICTION_POLICY: AttrKind = hivm("eviction_policy", "eviction policy attribute");
    pub const CACHE_MODIFIER: AttrKind = hivm("cache_modifier", "cache modifier attribute");
    pub const ATOMIC_KIND: AttrKind = hivm("atomic_kind", "Atomic Operation Kind for StoreOp");
    pub const ROUND_MODE: AttrKind = hivm("round_mode", "Round Mode for VCastOp");
    pub const CAST: AttrKind = hivm("cast", "Cast for VCastOp");
    pub const UNSIGNED_MODE: AttrKind = hivm("unsigned_mode", "Unsigned Mode for VCastOp");
    pub const COMPARE_MODE: AttrKind = hivm("compare_mode", "Compare Mode for VCmpOp");
    pub const DEINTERLEAVE_MODE: AttrKind = hivm("deinterleave_mode", "HIVM deinterleave mode");
    pub const REDUCE_OP: AttrKind = hivm("reduce_op", "reduce op attribute");
    pub const ADDRESS_SPACE: AttrKind = hivm("address_space", "address space attribute");
    pub const DATA_LAYOUT: AttrKind = hivm("data_layout", "data layout attribute");
    pub const DCCI_MODE: AttrKind = hivm("DCCIMode", "hivm dcci mode");
    pub const DATA_CACHE_KIND: AttrKind = hivm("DataCacheKind", "hivm data cache kind");
    pub const AXIS_KIND: AttrKind = hivm("axis_kind", "hivm op axis kind information");
    pub const ALIGN_KIND: AttrKind = hivm("align_kind", "alignment kind information");
    pub const DESCALE_MODE: AttrKind = hivm("descale_mode", "descale mode for matmul");
    pub const PADDING_OPTION: AttrKind = hivm("padding_option", "padding option attribute");
}

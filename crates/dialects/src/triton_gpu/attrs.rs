//! TritonGPU's layout attributes (`#ttg.blocked`, `#ttg.slice`,
//! `#ttg.dot_op`, `#ttg.swizzled_shared`, `#ttg.linear`,
//! `#ttg.shared_memory`), AscendNPU-IR's `#ttgext.fractal_shared`, and the
//! `!ttg.memdesc` type, kept as text: each body is read, checked as
//! Triton's parsers and verifiers check it, and re-printed as Triton's
//! printers print it (CTA layouts equal to the default left out).

use super::text::{Value, list_text, normalize, parse_dict, split_dims, split_mnemonic, uint, uint_list};

/// The default CTA layout of a rank: one CTA, no split, reversed order.
fn default_cta(rank: usize) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    (vec![1; rank], vec![1; rank], (0..rank as i64).rev().collect())
}

/// The CTA layout among `entries` (`CTAsPerCGA`, `CTASplitNum`, `CTAOrder`:
/// all or none), printed as `, CTAsPerCGA = [..], ...` unless it is the
/// default for `rank`.
fn cta_suffix(cta: &[(String, Value)], rank: usize) -> Result<String, String> {
    let mut parts: [Option<Vec<i64>>; 3] = [None, None, None];
    for (k, v) in cta {
        let slot = match k.as_str() {
            "CTAsPerCGA" => 0,
            "CTASplitNum" => 1,
            "CTAOrder" => 2,
            _ => return Err(format!("unexpected key: {k}")),
        };
        parts[slot] = Some(uint_list(v, k)?);
    }
    let [a, b, c] = parts;
    let (a, b, c) = match (a, b, c) {
        (Some(a), Some(b), Some(c)) => (a, b, c),
        (None, None, None) => return Ok(String::new()),
        _ => return Err("CTAsPerCGA, CTASplitNum, and CTAOrder must all be present or all be absent".into()),
    };
    if (a.clone(), b.clone(), c.clone()) == default_cta(rank) {
        return Ok(String::new());
    }
    Ok(format!(", CTAsPerCGA = {}, CTASplitNum = {}, CTAOrder = {}", list_text(&a), list_text(&b), list_text(&c)))
}

/// An order must be a permutation of its dimensions.
fn check_order(order: &[i64], what: &str) -> Result<(), String> {
    let mut seen = vec![false; order.len()];
    for &d in order {
        match seen.get_mut(d as usize) {
            Some(s) if !*s => *s = true,
            _ => return Err(format!("{what} must be a permutation of 0..{}", order.len())),
        }
    }
    Ok(())
}

fn blocked(inner: &str) -> Result<String, String> {
    let dict = parse_dict(inner)?;
    let mut fields: [Option<Vec<i64>>; 4] = [None, None, None, None];
    let mut cta = Vec::new();
    for (k, v) in dict {
        let (slot, what) = match k.as_str() {
            "sizePerThread" => (0, "number of elements per thread"),
            "threadsPerWarp" => (1, "number of threads per warp"),
            "warpsPerCTA" => (2, "number of warps per CTA"),
            "order" => (3, "order"),
            "CTAsPerCGA" | "CTASplitNum" | "CTAOrder" => {
                cta.push((k, v));
                continue;
            }
            _ => return Err(format!("unexpected key: {k}")),
        };
        fields[slot] = Some(uint_list(&v, what)?);
    }
    let [size, threads, warps, order] = fields.map(Option::unwrap_or_default);
    let rank = size.len();
    if threads.len() != rank || warps.len() != rank || order.len() != rank {
        return Err("sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank".into());
    }
    check_order(&order, "order")?;
    let suffix = cta_suffix(&cta, rank)?;
    Ok(format!(
        "blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}{suffix}}}>",
        list_text(&size),
        list_text(&threads),
        list_text(&warps),
        list_text(&order)
    ))
}

/// A nested layout (`parent = #ttg.blocked<...>`), canonical.
fn nested(text: &str) -> Result<String, String> {
    let body = text.strip_prefix('#').unwrap_or(text);
    if let Some(b) = body.strip_prefix("ttg.") {
        return Ok(format!("#ttg.{}", check_attr(b)?));
    }
    if let Some(b) = body.strip_prefix("ttgext.") {
        return Ok(format!("#ttgext.{}", check_ext_attr(b)?));
    }
    Ok(text.to_string())
}

/// The rank of a layout written in full, where it can be told.
fn layout_rank(text: &str) -> Option<usize> {
    let body = text.strip_prefix("#ttg.")?;
    let (mnemonic, inner) = split_mnemonic(body).ok()?;
    let dict = parse_dict(inner?).ok()?;
    let get = |k: &str| dict.iter().find(|(n, _)| n == k).map(|(_, v)| v);
    match mnemonic {
        "blocked" => match get("sizePerThread")? {
            Value::List(v) => Some(v.len()),
            _ => None,
        },
        "slice" => match get("parent")? {
            Value::Attr(p) => layout_rank(p).map(|r| r.saturating_sub(1)),
            _ => None,
        },
        "dot_op" => match get("parent")? {
            Value::Attr(p) => layout_rank(p),
            _ => None,
        },
        "linear" => match get("register")? {
            Value::List(bases) => bases.iter().find_map(|b| match b {
                Value::List(x) => Some(x.len()),
                _ => None,
            }),
            _ => None,
        },
        _ => None,
    }
}

fn slice(inner: &str) -> Result<String, String> {
    let dict = parse_dict(inner)?;
    let mut dim = None;
    let mut parent = None;
    for (k, v) in &dict {
        match k.as_str() {
            "dim" => dim = Some(uint(v, "dim")?),
            "parent" => match v {
                Value::Attr(a) => parent = Some(nested(a)?),
                _ => return Err("expected a distributed encoding trait".into()),
            },
            _ => {}
        }
    }
    let dim = dim.ok_or("expected an integer 'dim'")?;
    let parent = parent.ok_or("expected a distributed encoding trait")?;
    if let Some(rank) = layout_rank(&parent) {
        if rank <= 1 {
            return Err("parent layout must have at least rank >= 2".into());
        }
        if dim as usize >= rank {
            return Err(format!("slice dim={dim} must be less than the parent rank={rank}"));
        }
    }
    Ok(format!("slice<{{dim = {dim}, parent = {parent}}}>"))
}

fn dot_op(inner: &str) -> Result<String, String> {
    let dict = parse_dict(inner)?;
    let mut op_idx = None;
    let mut parent = None;
    let mut k_width = 0;
    for (k, v) in &dict {
        match k.as_str() {
            "opIdx" => op_idx = Some(uint(v, "opIdx")?),
            "parent" => match v {
                Value::Attr(a) => parent = Some(nested(a)?),
                _ => return Err("failed to parse DotOperandEncodingAttr parameter 'parent'".into()),
            },
            "kWidth" => k_width = uint(v, "kWidth")?,
            _ => return Err(format!("expected one of [opIdx, parent, kWidth] but got '{k}'")),
        }
    }
    let op_idx = op_idx.ok_or("struct is missing required parameter: opIdx")?;
    let parent = parent.ok_or("struct is missing required parameter: parent")?;
    if op_idx > 1 {
        return Err(format!("ttg.dot_op opIdx parameter can be 0 or 1, got: {op_idx}"));
    }
    if parent.starts_with("#ttg.blocked") && k_width != 0 {
        return Err("ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout".into());
    }
    let kw = if k_width != 0 { format!(", kWidth = {k_width}") } else { String::new() };
    Ok(format!("dot_op<{{opIdx = {op_idx}, parent = {parent}{kw}}}>"))
}

fn swizzled_shared(inner: &str) -> Result<String, String> {
    let dict = parse_dict(inner)?;
    let (mut vec, mut per_phase, mut max_phase) = (0, 0, 0);
    let mut order = Vec::new();
    let mut cta = Vec::new();
    for (k, v) in dict {
        match k.as_str() {
            "vec" => vec = uint(&v, "vec")?,
            "perPhase" => per_phase = uint(&v, "perPhase")?,
            "maxPhase" => max_phase = uint(&v, "maxPhase")?,
            "order" => order = uint_list(&v, "order")?,
            _ => cta.push((k, v)),
        }
    }
    let suffix = cta_suffix(&cta, order.len())?;
    check_order(&order, "order")?;
    Ok(format!(
        "swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = {}{suffix}}}>",
        list_text(&order)
    ))
}

fn linear(inner: &str) -> Result<String, String> {
    let dict = parse_dict(inner)?;
    let mut parts = Vec::new();
    let mut rank = None;
    for dim in ["register", "lane", "warp", "block"] {
        let Some((_, v)) = dict.iter().find(|(k, _)| k == dim) else {
            return Err(format!("Expected basis of '{dim}' not found"));
        };
        let Value::List(bases) = v else { return Err(format!("Expected array of arrays for basis of '{dim}'")) };
        let mut texts = Vec::new();
        for b in bases {
            let Value::List(items) = b else {
                return Err(format!("Expected array of integers in basis for '{dim}'"));
            };
            let ints = items
                .iter()
                .map(|x| match x {
                    Value::Int(n) => Ok(*n),
                    _ => Err(format!("Expected integer in basis for '{dim}'")),
                })
                .collect::<Result<Vec<i64>, String>>()?;
            if *rank.get_or_insert(ints.len()) != ints.len() {
                return Err(format!("every basis of '{dim}' must have the layout's rank"));
            }
            if ints.iter().filter(|n| **n != 0).count() > 1 {
                return Err("In a distributed layout, each base must move in at most one dimension.".into());
            }
            texts.push(list_text(&ints));
        }
        parts.push(format!("{dim} = [{}]", texts.join(", ")));
    }
    if let Some((k, _)) = dict.iter().find(|(k, _)| !["register", "lane", "warp", "block"].contains(&k.as_str())) {
        return Err(format!("unexpected key: {k}"));
    }
    if rank.unwrap_or(0) == 0 {
        return Err("Empty Layout not supported".into());
    }
    Ok(format!("linear<{{{}}}>", parts.join(", ")))
}

/// Validates and canonicalizes a `#ttg.` attribute body.
pub(crate) fn check_attr(body: &str) -> Result<String, String> {
    let (mnemonic, inner) = split_mnemonic(body)?;
    fn need<'a>(inner: Option<&'a str>, mnemonic: &str) -> Result<&'a str, String> {
        inner.ok_or_else(|| format!("expected '<' after '{mnemonic}'"))
    }
    match mnemonic {
        "blocked" => blocked(need(inner, mnemonic)?),
        "slice" => slice(need(inner, mnemonic)?),
        "dot_op" => dot_op(need(inner, mnemonic)?),
        "swizzled_shared" => swizzled_shared(need(inner, mnemonic)?),
        "linear" => linear(need(inner, mnemonic)?),
        "shared_memory" => match inner {
            None => Ok("shared_memory".into()),
            Some(_) => Err("'#ttg.shared_memory' takes no parameters".into()),
        },
        // Layouts of other targets (MMA, NVMMA shared, padded, ...), kept
        // as written.
        "nvidia_mma"
        | "amd_mfma"
        | "amd_wmma"
        | "nvmma_shared"
        | "amd_rotating_shared"
        | "shared_linear"
        | "padded_shared"
        | "cta_layout" => {
            need(inner, mnemonic)?;
            Ok(body.trim().to_string())
        }
        _ => Err(format!("unknown attribute `{mnemonic}` in dialect `ttg`")),
    }
}

/// Validates and canonicalizes a `#ttgext.` attribute body.
pub(crate) fn check_ext_attr(body: &str) -> Result<String, String> {
    let (mnemonic, inner) = split_mnemonic(body)?;
    if mnemonic != "fractal_shared" {
        return Err(format!("unknown attribute `{mnemonic}` in dialect `ttgext`"));
    }
    let dict = parse_dict(inner.ok_or("expected '<' after 'fractal_shared'")?)?;
    let (mut m0, mut n0, mut layout) = (0, 0, None);
    let mut cta = Vec::new();
    for (k, v) in dict {
        match k.as_str() {
            "fractalM0" => match v {
                Value::Int(n) => m0 = n,
                _ => return Err("expected integer for fractalM0".into()),
            },
            "fractalN0" => match v {
                Value::Int(n) => n0 = n,
                _ => return Err("expected integer for fractalN0".into()),
            },
            "layoutType" => match v {
                Value::Str(s) if s == "zN" || s == "nZ" => layout = Some(s),
                Value::Str(_) => return Err("unknown layoutType: expected 'zN' or 'nZ'".into()),
                _ => return Err("expected string for layoutType".into()),
            },
            _ => cta.push((k, v)),
        }
    }
    let layout = layout.ok_or("missing required 'layoutType'")?;
    let suffix = cta_suffix(&cta, 2)?;
    let pow2 = |n: i64| n > 0 && n <= u32::MAX as i64 && (n & (n - 1)) == 0;
    if !(pow2(m0) && pow2(n0)) {
        return Err("fractal block must be power-of-2".into());
    }
    Ok(format!("fractal_shared<{{fractalM0 = {m0}, fractalN0 = {n0}, layoutType = \"{layout}\"{suffix}}}>"))
}

/// The parts of a `!ttg.memdesc<...>` body.
pub(crate) struct MemDesc {
    pub shape: Vec<i64>,
    pub elem: String,
    pub encoding: String,
    pub memory_space: String,
    pub mutable: bool,
    pub alloc_shape: Vec<i64>,
}

pub(crate) fn memdesc_parts(body: &str) -> Result<MemDesc, String> {
    let inner = body
        .strip_prefix("memdesc")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('<'))
        .and_then(|r| r.strip_suffix('>'))
        .ok_or("expected '<' after 'memdesc'")?;
    let parts = crate::util::split_top_level(inner);
    let Some((first, rest)) = parts.split_first() else { return Err("expected a shape".into()) };
    let (shape, elem) = split_dims(first)?;
    let elem = elem.trim();
    // What follows the dimensions must be a type, not more of them (a
    // dimension split over a line would print as two).
    if elem.is_empty() || elem.starts_with(|c: char| c.is_ascii_digit()) {
        return Err("expected an element type".into());
    }
    if shape.is_empty() {
        return Err("rank 0 memdesc is not allowed".into());
    }
    let [encoding, memory_space, tail @ ..] = rest else {
        return Err("expected the encoding and memory space of the memdesc".into());
    };
    if encoding.trim().is_empty() || memory_space.trim().is_empty() {
        return Err("expected the encoding and memory space of the memdesc".into());
    }
    let mut mutable = false;
    let mut alloc_shape = shape.clone();
    let mut tail = tail.iter();
    let mut next = tail.next();
    if next.map(String::as_str) == Some("mutable") {
        mutable = true;
        next = tail.next();
    }
    if let Some(t) = next {
        let dims: Result<Vec<i64>, _> = t.split('x').map(|d| d.trim().parse::<i64>()).collect();
        alloc_shape = dims.map_err(|_| format!("expected the allocation shape, got '{t}'"))?;
        if tail.next().is_some() {
            return Err("expected '>' to close the memdesc".into());
        }
    }
    if shape.iter().skip(1).any(|d| *d <= 0 || (d & (d - 1)) != 0) {
        return Err(format!("shape must have power-of-2 and non-zero dimensions; got {}", list_text(&shape)));
    }
    if alloc_shape.len() < shape.len() {
        return Err("alloc shape must have at least as many dimensions as shape".into());
    }
    if shape.iter().zip(&alloc_shape[alloc_shape.len() - shape.len()..]).any(|(s, a)| s > a) {
        return Err(format!(
            "shape must be less than or equal to allocShape. shape = {}, allocShape = {}",
            list_text(&shape),
            list_text(&alloc_shape)
        ));
    }
    Ok(MemDesc {
        shape,
        elem: normalize(elem),
        encoding: nested(encoding)?,
        memory_space: nested(memory_space)?,
        mutable,
        alloc_shape,
    })
}

/// Validates and canonicalizes a `!ttg.` type body.
pub(crate) fn check_type(body: &str) -> Result<String, String> {
    let body = body.trim();
    if body == "async.token" {
        return Ok(body.into());
    }
    if !body.starts_with("memdesc") {
        let mnemonic = body.split('<').next().unwrap_or(body);
        return Err(format!("unknown  type `{mnemonic}` in dialect `ttg`"));
    }
    let m = memdesc_parts(body)?;
    let dims: String = m.shape.iter().map(|d| format!("{d}x")).collect();
    let mut out = format!("memdesc<{dims}{}, {}, {}", m.elem, m.encoding, m.memory_space);
    if m.mutable {
        out.push_str(", mutable");
    }
    if m.alloc_shape != m.shape {
        let a: Vec<String> = m.alloc_shape.iter().map(i64::to_string).collect();
        out.push_str(", ");
        out.push_str(&a.join("x"));
    }
    out.push('>');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_canonicalize() {
        let b = "blocked<{order = [1, 0], sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>";
        assert_eq!(
            check_attr(b).unwrap(),
            "blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [1, 0]}>"
        );
        assert!(check_attr("blocked<{sizePerThread = [1], CTAOrder = [0]}>").is_err());
        let s = check_attr("slice<{parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>, dim = 0}>").unwrap();
        assert!(s.starts_with("slice<{dim = 0, parent = #ttg.blocked<"));
        assert!(check_attr("slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>}>").is_err());
        assert_eq!(check_attr("shared_memory").unwrap(), "shared_memory");
        assert_eq!(
            check_ext_attr("fractal_shared<{layoutType = \"nZ\", fractalN0 = 8, fractalM0 = 16}>").unwrap(),
            "fractal_shared<{fractalM0 = 16, fractalN0 = 8, layoutType = \"nZ\"}>"
        );
        assert!(check_ext_attr("fractal_shared<{fractalM0 = 3, fractalN0 = 8, layoutType = \"nZ\"}>").is_err());
    }

    #[test]
    fn memdesc_types() {
        let t = "memdesc<4x8xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>";
        assert_eq!(check_type(t).unwrap(), t);
        let t2 = "memdesc<4x8xf16, #ttg.shared_memory, #ttg.shared_memory, 2x4x8>";
        assert_eq!(check_type(t2).unwrap(), t2);
        assert!(check_type("memdesc<f16, #a, #b>").is_err());
        assert!(check_type("memdesc<4x3xf16, #a, #b>").is_err());
    }
}

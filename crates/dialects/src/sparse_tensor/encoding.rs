//! `#sparse_tensor.encoding<{ map = ..., posWidth = ..., ... }>`: read in
//! the order and with the words of MLIR 22's parser (the dimension-level
//! map with its symbol, level-variable and dimension bindings, affine
//! level expressions and level types), checked as its verifier checks it,
//! and printed as its printer prints it.

use std::collections::BTreeMap;
use std::fmt::Write;

use hivm_ir::affine::{AffineBinOp, AffineExpr, AffineMap};
use hivm_ir::dialect::error_at;

use super::lexer::{Kind, Lexer};
use super::literal::{self, Numeric};

type Res<T> = Result<T, String>;

/// Level formats and properties, encoded as MLIR's `LevelType` bits.
pub(super) mod lt {
    pub const DENSE: u64 = 0x1_0000;
    pub const BATCH: u64 = 0x2_0000;
    pub const COMPRESSED: u64 = 0x4_0000;
    pub const SINGLETON: u64 = 0x8_0000;
    pub const LOOSE_COMPRESSED: u64 = 0x10_0000;
    pub const N_OUT_OF_M: u64 = 0x20_0000;
    pub const NONUNIQUE: u64 = 1;
    pub const NONORDERED: u64 = 2;
    pub const SOA: u64 = 4;

    pub fn format(t: u64) -> u64 {
        t & 0xffff_0000
    }

    pub fn has(t: u64, prop: u64) -> bool {
        t & prop != 0
    }

    pub fn n(t: u64) -> u64 {
        (t >> 32) & 0xff
    }

    pub fn m(t: u64) -> u64 {
        (t >> 40) & 0xff
    }

    /// Dense, batch and n-out-of-m levels are unique and ordered.
    pub fn is_valid(t: u64) -> bool {
        let (f, props) = (format(t), t & 0xffff);
        if f <= BATCH || f == N_OUT_OF_M { props == 0 } else { matches!(f, COMPRESSED | SINGLETON | LOOSE_COMPRESSED) }
    }

    /// `compressed(nonunique, soa)`, `structured[2, 4]`.
    pub fn to_string(t: u64) -> String {
        let mut s = match format(t) {
            DENSE => "dense",
            BATCH => "batch",
            COMPRESSED => "compressed",
            SINGLETON => "singleton",
            LOOSE_COMPRESSED => "loose_compressed",
            N_OUT_OF_M => "structured",
            _ => "undef",
        }
        .to_string();
        if format(t) == N_OUT_OF_M {
            s += &format!("[{}, {}]", n(t), m(t));
        }
        let props: Vec<&str> = [(NONUNIQUE, "nonunique"), (NONORDERED, "nonordered"), (SOA, "soa")]
            .into_iter()
            .filter(|(p, _)| has(t, *p))
            .map(|(_, name)| name)
            .collect();
        if !props.is_empty() {
            s += &format!("({})", props.join(", "));
        }
        s
    }
}

/// `ShapedType::kDynamic`, written `?` in a slice.
const DYNAMIC: i64 = i64::MIN;

/// `#sparse_tensor<slice(offset, size, stride)>`.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) struct Slice {
    pub offset: i64,
    pub size: i64,
    pub stride: i64,
}

impl Slice {
    /// What a dimension without a slice gets when another has one.
    const DEFAULT: Slice = Slice { offset: 0, size: DYNAMIC, stride: 1 };

    pub fn print(&self) -> String {
        let part = |v: i64| if v == DYNAMIC { "?".to_string() } else { v.to_string() };
        format!("#sparse_tensor<slice({}, {}, {})>", part(self.offset), part(self.size), part(self.stride))
    }

    /// The slice verifier; `at` is where its mnemonic is.
    fn verify(&self, at: usize) -> Res<()> {
        if self.offset != DYNAMIC && self.offset < 0 {
            return Err(error_at(at, "expect non-negative value or ? for slice offset"));
        }
        if self.size != DYNAMIC && self.size <= 0 {
            return Err(error_at(at, "expect positive value or ? for slice size"));
        }
        if self.stride != DYNAMIC && self.stride <= 0 {
            return Err(error_at(at, "expect positive value or ? for slice stride"));
        }
        Ok(())
    }
}

/// `(offset, size, stride)` after the `slice` mnemonic, which is at `at`.
pub(super) fn parse_slice_params(l: &mut Lexer<'_>, at: usize) -> Res<Slice> {
    expect(l, b'(', "expected '('")?;
    let offset = slice_part(l)?;
    expect(l, b',', "expected ','")?;
    let size = slice_part(l)?;
    expect(l, b',', "expected ','")?;
    let stride = slice_part(l)?;
    expect(l, b')', "expected ')'")?;
    let s = Slice { offset, size, stride };
    s.verify(at)?;
    Ok(s)
}

fn slice_part(l: &mut Lexer<'_>) -> Res<i64> {
    if let Some(v) = optional_integer(l)? {
        if v < 0 {
            return Err(error_at(l.tok.start, "expect positive value or ? for slice offset/size/stride"));
        }
        return Ok(v);
    }
    expect(l, b'?', "expected '?'")?;
    Ok(DYNAMIC)
}

/// MLIR's `parseOptionalInteger` into an `int64_t`.
fn optional_integer(l: &mut Lexer<'_>) -> Res<Option<i64>> {
    let neg = l.is(b'-');
    if !neg && l.tok.kind != Kind::Int {
        return Ok(None);
    }
    if neg {
        l.bump();
        if l.tok.kind != Kind::Int {
            return Err(error_at(l.wrong_token_pos(), "expected integer value"));
        }
    }
    let at = l.tok.start;
    let text = l.text();
    let m = match text.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => text.parse::<u64>().ok(),
    };
    let v = m.and_then(|m| if neg { 0i64.checked_sub_unsigned(m) } else { i64::try_from(m).ok() });
    let Some(v) = v else { return Err(error_at(at, "integer value too large")) };
    l.bump();
    Ok(Some(v))
}

pub(super) fn expect(l: &mut Lexer<'_>, c: u8, msg: &str) -> Res<()> {
    if l.consume(c) { Ok(()) } else { Err(error_at(l.wrong_token_pos(), msg)) }
}

/// Everything an encoding holds, as MLIR's attribute storage does.
pub(super) struct Encoding {
    pub lvl_types: Vec<u64>,
    pub dim_to_lvl: Option<AffineMap>,
    pub lvl_to_dim: Option<AffineMap>,
    pub pos_width: u32,
    pub crd_width: u32,
    pub explicit: Option<Numeric>,
    pub implicit: Option<Numeric>,
    pub slices: Vec<Slice>,
}

impl Encoding {
    /// Reads `<{ ... }>` (what follows the `encoding` mnemonic, from byte
    /// `start` of `body`) and runs the attribute verifier.
    pub fn parse(body: &str, start: usize) -> Res<Encoding> {
        let mut l = Lexer::new(body, start);
        // Where MLIR's `getNameLoc` points: the mnemonic.
        const NAME: usize = 0;
        expect(&mut l, b'<', "expected '<'")?;
        expect(&mut l, b'{', "expected '{'")?;
        let mut e = Encoding {
            lvl_types: Vec::new(),
            dim_to_lvl: None,
            lvl_to_dim: None,
            pos_width: 0,
            crd_width: 0,
            explicit: None,
            implicit: None,
            slices: Vec::new(),
        };
        let mut slices: Vec<Option<Slice>> = Vec::new();
        while l.tok.kind == Kind::Ident {
            let key = l.text();
            if !matches!(key, "map" | "posWidth" | "crdWidth" | "explicitVal" | "implicitVal") {
                return Err(error_at(NAME, format!("unexpected key: {key}")));
            }
            l.bump();
            expect(&mut l, b'=', "expected '='")?;
            match key {
                "map" => {
                    let map = MapParser::new(&mut l).parse()?;
                    e.lvl_types.extend(map.lvl_specs.iter().map(|s| s.1));
                    slices.extend(map.dim_specs.iter().map(|s| s.1));
                    if !slices.iter().any(Option::is_some) {
                        slices.clear();
                    }
                    let lvl_exprs: Vec<AffineExpr> = map.lvl_specs.iter().map(|s| s.0.clone()).collect();
                    let dim_exprs: Vec<AffineExpr> = map.dim_specs.iter().filter_map(|s| s.0.clone()).collect();
                    e.dim_to_lvl = Some(AffineMap {
                        num_dims: map.dim_specs.len() as u32,
                        num_symbols: map.sym_rank,
                        results: lvl_exprs,
                    });
                    e.lvl_to_dim = (!dim_exprs.is_empty()).then_some(AffineMap {
                        num_dims: map.lvl_specs.len() as u32,
                        num_symbols: map.sym_rank,
                        results: dim_exprs,
                    });
                }
                "posWidth" | "crdWidth" => {
                    let what = if key == "posWidth" { "position" } else { "index" };
                    let width = match literal::parse(&mut l)? {
                        Some(Numeric { int: Some(v), .. }) => v as u32,
                        _ => return Err(error_at(NAME, format!("expected an integral {what} bitwidth"))),
                    };
                    if key == "posWidth" {
                        e.pos_width = width;
                    } else {
                        e.crd_width = width;
                    }
                }
                _ => {
                    let Some(v) = literal::parse(&mut l)? else {
                        return Err(error_at(NAME, format!("expected a numeric value for {key}")));
                    };
                    if key == "explicitVal" {
                        e.explicit = Some(v);
                    } else {
                        e.implicit = Some(v);
                    }
                }
            }
            if !l.consume(b',') {
                break;
            }
        }
        expect(&mut l, b'}', "expected '}'")?;
        expect(&mut l, b'>', "expected '>'")?;
        if l.tok.kind != Kind::Eof {
            return Err(error_at(l.tok.start, "unexpected text after the encoding"));
        }
        // A dimension without a slice gets the full one when another has one.
        e.slices = slices.into_iter().map(|s| s.unwrap_or(Slice::DEFAULT)).collect();
        if e.lvl_to_dim.as_ref().is_none_or(|m| m.num_dims == 0 && m.num_symbols == 0 && m.results.is_empty()) {
            e.lvl_to_dim = e.dim_to_lvl.as_ref().and_then(infer_lvl_to_dim);
        }
        e.verify().map_err(|m| error_at(NAME, m))?;
        Ok(e)
    }

    /// MLIR's `SparseTensorEncodingAttr::verify`, in its order and words.
    fn verify(&self) -> Result<(), String> {
        let accept = |w: u32| matches!(w, 0 | 8 | 16 | 32 | 64);
        if !accept(self.pos_width) {
            return Err(format!("unexpected position bitwidth: {}", self.pos_width));
        }
        if !accept(self.crd_width) {
            return Err(format!("unexpected coordinate bitwidth: {}", self.crd_width));
        }
        let lts = &self.lvl_types;
        let singleton = |t: &u64| lt::format(*t) == lt::SINGLETON;
        // Every COO segment: a (loose) compressed level, then singletons
        // all stored alike.
        let mut i = lts.iter().position(singleton);
        while let Some(s) = i {
            if s == 0 || !matches!(lt::format(lts[s - 1]), lt::COMPRESSED | lt::LOOSE_COMPRESSED) {
                return Err("expected compressed or loose_compressed level before singleton level".into());
            }
            let end = lts[s..].iter().position(|t| !singleton(t)).map_or(lts.len(), |n| s + n);
            if lts[s..end].iter().any(|t| lt::has(*t, lt::SOA) != lt::has(lts[s], lt::SOA)) {
                return Err("expected all singleton lvlTypes stored in the same memory layout (SoA vs AoS).".into());
            }
            i = lts[end..].iter().position(singleton).map(|n| end + n);
        }
        let batch = |t: &u64| lt::format(*t) == lt::BATCH;
        if let Some(last) = lts.iter().rposition(batch)
            && !lts[..last].iter().all(batch)
        {
            return Err("Batch lvlType can only be leading levels.".into());
        }
        if lts.iter().any(|t| lt::has(*t, lt::SOA) && lt::format(*t) != lt::SINGLETON) {
            return Err("SoA is only applicable to singleton lvlTypes.".into());
        }
        if let Some(k) = lts.iter().position(|t| lt::format(*t) == lt::N_OUT_OF_M) {
            if k != lts.len() - 1 {
                return Err("expected n_out_of_m to be the last level type".into());
            }
            if !lts[..k].iter().all(|t| lt::format(*t) == lt::DENSE) {
                return Err("expected all dense lvlTypes before a n_out_of_m level".into());
            }
            if let Some(map) = &self.dim_to_lvl
                && map.num_dims as usize != map.results.len()
            {
                if !is_block_sparsity(map) {
                    return Err("expected 1xm block structure for n_out_of_m level".into());
                }
                let mut coefficient = 0;
                for size in block_sizes(map) {
                    if size != 0 {
                        if size != coefficient && coefficient != 0 {
                            return Err("expected only one blocked level with the same coefficients".into());
                        }
                        coefficient = size;
                    }
                }
                if coefficient as u64 != lt::m(lts[k]) {
                    return Err(
                        "expected coeffiencts of Affine expressions to be equal to m of n_out_of_m level".into()
                    );
                }
            }
        }
        let lvl_rank = lts.len();
        if lvl_rank == 0 {
            return Err("expected a non-empty array for lvlTypes".into());
        }
        let dim_rank = self.dim_rank();
        if let Some(map) = &self.dim_to_lvl {
            if map.results.len() != lvl_rank {
                return Err(format!(
                    "level-rank mismatch between dimToLvl and lvlTypes: {} != {lvl_rank}",
                    map.results.len()
                ));
            }
            let inferred = infer_lvl_to_dim(map);
            if inferred.is_none() && map.num_symbols == 0 {
                return Err("failed to infer lvlToDim from dimToLvl".into());
            }
            if self.lvl_to_dim.is_some() && inferred != self.lvl_to_dim {
                return Err("expected lvlToDim to be an inverse of dimToLvl".into());
            }
            if dim_rank > lvl_rank {
                return Err(format!("unexpected dimToLvl mapping from {dim_rank} to {lvl_rank}"));
            }
        }
        if !self.slices.is_empty() {
            if self.slices.len() != dim_rank {
                return Err(format!(
                    "dimension-rank mismatch between dimSlices and dimToLvl: {} != {dim_rank}",
                    self.slices.len()
                ));
            }
            if dim_rank != lvl_rank {
                return Err(format!("dimSlices expected dimension-rank to match level-rank: {dim_rank} != {lvl_rank}"));
            }
        }
        Ok(())
    }

    pub fn dim_rank(&self) -> usize {
        self.dim_to_lvl.as_ref().map_or(self.lvl_types.len(), |m| m.num_dims as usize)
    }

    /// The body as mlir-opt prints it: `encoding<{ map = ... }>`.
    pub fn print(&self) -> String {
        let identity;
        let map = match &self.dim_to_lvl {
            Some(m) => m,
            None => {
                identity = AffineMap::identity(self.lvl_types.len() as u32);
                &identity
            }
        };
        let mut s = String::from("encoding<{ map = ");
        if map.num_symbols > 0 {
            let syms: Vec<String> = (0..map.num_symbols).map(|i| format!("s{i}")).collect();
            let _ = write!(s, "[{}]", syms.join(", "));
        }
        let dims: Vec<String> = (0..map.num_dims as usize)
            .map(|i| match self.slices.get(i) {
                Some(slice) => format!("d{i} : {}", slice.print()),
                None => format!("d{i}"),
            })
            .collect();
        let lvls: Vec<String> = map
            .results
            .iter()
            .zip(&self.lvl_types)
            .map(|(e, t)| {
                let mut out = String::new();
                e.print(&mut out);
                format!("{out} : {}", lt::to_string(*t))
            })
            .collect();
        let _ = write!(s, "({}) -> ({})", dims.join(", "), lvls.join(", "));
        if self.pos_width != 0 {
            let _ = write!(s, ", posWidth = {}", self.pos_width);
        }
        if self.crd_width != 0 {
            let _ = write!(s, ", crdWidth = {}", self.crd_width);
        }
        if let Some(v) = &self.explicit {
            let _ = write!(s, ", explicitVal = {}", v.text);
        }
        if let Some(v) = &self.implicit {
            let _ = write!(s, ", implicitVal = {}", v.text);
        }
        s.push_str(" }>");
        s
    }
}

/// `d op c` for a positive constant `c`: the dim and constant.
fn dim_op_const(e: &AffineExpr) -> Option<(AffineBinOp, u32, i64)> {
    let AffineExpr::Bin(b) = e else { return None };
    match (&b.lhs, &b.rhs) {
        (AffineExpr::Dim(d), AffineExpr::Constant(c)) if *c > 0 => Some((b.op, *d, *c)),
        _ => None,
    }
}

/// Each level is a dim, `d floordiv c` or (after it) `d mod c`, and at
/// least one dim is blocked.
fn is_block_sparsity(map: &AffineMap) -> bool {
    let mut coefficients: BTreeMap<u32, i64> = BTreeMap::new();
    let mut blocked = false;
    for e in &map.results {
        match e {
            AffineExpr::Dim(d) => {
                if coefficients.insert(*d, 0).is_some() {
                    return false;
                }
            }
            AffineExpr::Bin(_) => match dim_op_const(e) {
                Some((AffineBinOp::FloorDiv, d, c)) => {
                    if coefficients.insert(d, c).is_some() {
                        return false;
                    }
                }
                Some((AffineBinOp::Mod, d, c)) => {
                    if coefficients.get(&d) != Some(&c) {
                        return false;
                    }
                    blocked = true;
                }
                _ => return false,
            },
            _ => return false,
        }
    }
    blocked
}

/// The block size of each `mod` level, 0 for each plain dim.
fn block_sizes(map: &AffineMap) -> Vec<i64> {
    map.results
        .iter()
        .filter_map(|e| match (e, dim_op_const(e)) {
            (AffineExpr::Dim(_), _) => Some(0),
            (_, Some((AffineBinOp::Mod, _, c))) => Some(c),
            _ => None,
        })
        .collect()
}

/// The level-to-dimension map MLIR infers: the inverse of a permutation
/// or of a block map; none with symbols.
fn infer_lvl_to_dim(map: &AffineMap) -> Option<AffineMap> {
    if map.num_symbols != 0 {
        return None;
    }
    let n = map.results.len() as u32;
    let is_permutation = map.num_dims == n && {
        let mut seen = vec![false; n as usize];
        map.results.iter().all(|e| matches!(e, AffineExpr::Dim(d) if !std::mem::replace(&mut seen[*d as usize], true)))
    };
    if is_permutation {
        let mut inverse = vec![AffineExpr::Constant(0); n as usize];
        for (i, e) in map.results.iter().enumerate() {
            if let AffineExpr::Dim(d) = e {
                inverse[*d as usize] = AffineExpr::Dim(i as u32);
            }
        }
        return Some(AffineMap { num_dims: n, num_symbols: 0, results: inverse });
    }
    if !is_block_sparsity(map) {
        return None;
    }
    // Plain dims keep their level; a blocked dim `d` is
    // `lvl(d floordiv c) * c + lvl(d mod c)`, listed by dim.
    let mut results = Vec::new();
    let mut blocks: BTreeMap<u32, (u32, i64, u32)> = BTreeMap::new();
    for (i, e) in map.results.iter().enumerate() {
        match dim_op_const(e) {
            Some((AffineBinOp::FloorDiv, d, c)) => {
                blocks.insert(d, (i as u32, c, 0));
            }
            Some((_, d, _)) => {
                if let Some(b) = blocks.get_mut(&d) {
                    b.2 = i as u32;
                }
            }
            None => results.push(AffineExpr::Dim(i as u32)),
        }
    }
    for (outer, c, inner) in blocks.into_values() {
        let product = AffineExpr::times(AffineExpr::Dim(outer), AffineExpr::Constant(c));
        results.push(AffineExpr::plus(product, AffineExpr::Dim(inner)));
    }
    Some(AffineMap { num_dims: n, num_symbols: 0, results })
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum VarKind {
    Symbol,
    Dimension,
    Level,
}

/// The parsed `map = ...`: each dimension's optional expression (in
/// levels) and slice, each level's expression (in dimensions) and type.
struct DimLvlMap {
    sym_rank: u32,
    dim_specs: Vec<(Option<AffineExpr>, Option<Slice>)>,
    lvl_specs: Vec<(AffineExpr, u64)>,
}

/// MLIR's `DimLvlMapParser`: one namespace for every variable; dimension
/// expressions see levels and symbols, level expressions dimensions and
/// symbols.
struct MapParser<'l, 'a> {
    l: &'l mut Lexer<'a>,
    /// Name, kind and number of every variable bound so far.
    vars: Vec<(&'a str, VarKind, u32)>,
    next: [u32; 3],
    dims_and_symbols: Vec<(&'a str, AffineExpr)>,
    lvls_and_symbols: Vec<(&'a str, AffineExpr)>,
    map: DimLvlMap,
}

impl<'l, 'a> MapParser<'l, 'a> {
    fn new(l: &'l mut Lexer<'a>) -> Self {
        MapParser {
            l,
            vars: Vec::new(),
            next: [0; 3],
            dims_and_symbols: Vec::new(),
            lvls_and_symbols: Vec::new(),
            map: DimLvlMap { sym_rank: 0, dim_specs: Vec::new(), lvl_specs: Vec::new() },
        }
    }

    fn parse(mut self) -> Res<DimLvlMap> {
        if self.l.is(b'[') {
            self.list(b'[', b']', " in symbol binding list", |p| p.bind(VarKind::Symbol).map(drop))?;
        }
        if self.l.is(b'{') {
            self.list(b'{', b'}', " in level declaration list", |p| p.bind(VarKind::Level).map(drop))?;
        }
        self.list(b'(', b')', " in dimension-specifier list", Self::dim_spec)?;
        if self.l.tok.kind != Kind::Arrow {
            return Err(error_at(self.l.wrong_token_pos(), "expected '->'"));
        }
        self.l.bump();
        let declared = self.next[VarKind::Level as usize];
        let at = self.l.tok.start;
        self.list(b'(', b')', " in level-specifier list", |p| p.lvl_spec(declared != 0))?;
        let specs = self.map.lvl_specs.len();
        if declared != 0 && specs != declared as usize {
            return Err(error_at(
                at,
                format!(
                    "Level-rank mismatch between forward-declarations and specifiers. Declared {declared} level-variables; but got {specs} level-specifiers."
                ),
            ));
        }
        self.map.sym_rank = self.next[VarKind::Symbol as usize];
        Ok(self.map)
    }

    /// MLIR's `parseCommaSeparatedList` with the list's delimiters.
    fn list(&mut self, open: u8, close: u8, context: &str, mut each: impl FnMut(&mut Self) -> Res<()>) -> Res<()> {
        expect(self.l, open, &format!("expected '{}'{context}", open as char))?;
        if self.l.consume(close) {
            return Ok(());
        }
        loop {
            each(self)?;
            if !self.l.consume(b',') {
                break;
            }
        }
        expect(self.l, close, &format!("expected '{}'{context}", close as char))
    }

    fn bare_identifier(&mut self) -> Res<(&'a str, usize)> {
        let at = self.l.tok.start;
        if self.l.tok.kind != Kind::Ident {
            return Err(error_at(at, "expected bare identifier"));
        }
        let name = self.l.text();
        self.l.bump();
        Ok((name, at))
    }

    /// A new variable of `kind`, numbered in its kind.
    fn bind(&mut self, kind: VarKind) -> Res<u32> {
        let (name, at) = self.bare_identifier()?;
        if self.vars.iter().any(|v| v.0 == name) {
            return Err(error_at(at, format!("redefinition of identifier '{name}'")));
        }
        let num = self.next[kind as usize];
        self.next[kind as usize] += 1;
        self.vars.push((name, kind, num));
        match kind {
            VarKind::Symbol => {
                self.dims_and_symbols.push((name, AffineExpr::Symbol(num)));
                self.lvls_and_symbols.push((name, AffineExpr::Symbol(num)));
            }
            VarKind::Dimension => self.dims_and_symbols.push((name, AffineExpr::Dim(num))),
            VarKind::Level => self.lvls_and_symbols.push((name, AffineExpr::Dim(num))),
        }
        Ok(num)
    }

    /// `d0`, `d0 = l0 * 2 + l1`, `d0 : #sparse_tensor<slice(...)>`.
    fn dim_spec(&mut self) -> Res<()> {
        self.bind(VarKind::Dimension)?;
        let mut expr = None;
        if self.l.consume(b'=') {
            expr = Some(AffineParser { l: self.l, scope: &self.lvls_and_symbols, depth: 0 }.expr()?);
        }
        let mut slice = None;
        if self.l.consume(b':') {
            let at = self.l.tok.start;
            if !(self.l.tok.kind == Kind::Hash && self.l.text() == "#sparse_tensor") {
                return Err(error_at(at, "expected SparseTensorDimSliceAttr"));
            }
            self.l.bump();
            expect(self.l, b'<', "expected '<'")?;
            let mnemonic = self.l.tok.start;
            if !self.l.is_keyword("slice") {
                return Err(error_at(at, "expected SparseTensorDimSliceAttr"));
            }
            self.l.bump();
            slice = Some(parse_slice_params(self.l, mnemonic)?);
            expect(self.l, b'>', "expected '>'")?;
        }
        self.map.dim_specs.push((expr, slice));
        Ok(())
    }

    /// `expr : type`, after `lN =` when levels were declared.
    fn lvl_spec(&mut self, require_binding: bool) -> Res<()> {
        if require_binding {
            let (name, at) = self.bare_identifier()?;
            let Some(&(_, _, num)) = self.vars.iter().find(|v| v.0 == name && v.1 == VarKind::Level) else {
                return Err(error_at(at, format!("use of undeclared identifier '{name}'")));
            };
            let spec = self.map.lvl_specs.len() as u32;
            if num != spec {
                return Err(error_at(
                    at,
                    format!(
                        "Level-variable ordering mismatch. The variable '{name}' was forward-declared as the {} level; but is bound by the {} specification.",
                        nth(num),
                        nth(spec)
                    ),
                ));
            }
            expect(self.l, b'=', "expected '='")?;
        } else {
            self.next[VarKind::Level as usize] += 1;
        }
        let expr = AffineParser { l: self.l, scope: &self.dims_and_symbols, depth: 0 }.expr()?;
        expect(self.l, b':', "expected ':'")?;
        let ty = parse_lvl_type(self.l)?;
        self.map.lvl_specs.push((expr, ty));
        Ok(())
    }
}

fn nth(n: u32) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        _ => format!("{n}th"),
    }
}

/// MLIR's `LvlTypeParser`: a format, `[n, m]` for `structured`, then
/// properties in parentheses.
fn parse_lvl_type(l: &mut Lexer<'_>) -> Res<u64> {
    let at = l.tok.start;
    if l.tok.kind != Kind::Ident {
        return Err(error_at(at, "expected valid level format (e.g. dense, compressed or singleton)"));
    }
    let base = l.text();
    l.bump();
    let mut props = 0u64;
    let mut sizes: Vec<u64> = Vec::new();
    if base == "structured" && l.consume(b'[') {
        const CONTEXT: &str = " in structured n out of m";
        if !l.consume(b']') {
            loop {
                let here = l.tok.start;
                match optional_integer(l) {
                    Ok(Some(v)) if v < 0 => return Err(error_at(here, "expected structured size to be >= 0")),
                    Ok(Some(v)) if v <= i32::MAX as i64 => sizes.push(v as u64),
                    Ok(Some(_)) | Err(_) => return Err(error_at(here, "failed to parse structured size")),
                    Ok(None) => return Err(error_at(here, "expected valid integer for structured size")),
                }
                if !l.consume(b',') {
                    break;
                }
            }
            expect(l, b']', &format!("expected ']'{CONTEXT}"))?;
        }
    }
    if base == "structured" {
        if sizes.len() != 2 {
            return Err(error_at(at, "expected exactly 2 structured sizes"));
        }
        if sizes[0] > sizes[1] {
            return Err(error_at(at, "expected n <= m in n_out_of_m"));
        }
    }
    if l.consume(b'(') && !l.consume(b')') {
        loop {
            let here = l.tok.start;
            if l.tok.kind != Kind::Ident {
                return Err(error_at(here, "expected valid level property (e.g. nonordered, nonunique or high)"));
            }
            props |= match l.text() {
                "nonunique" => lt::NONUNIQUE,
                "nonordered" => lt::NONORDERED,
                "soa" => lt::SOA,
                other => return Err(error_at(here, format!("unknown level property: {other}"))),
            };
            l.bump();
            if !l.consume(b',') {
                break;
            }
        }
        expect(l, b')', "expected ')' in level property list")?;
    }
    props |= match base {
        "dense" => lt::DENSE,
        "batch" => lt::BATCH,
        "compressed" => lt::COMPRESSED,
        "structured" => lt::N_OUT_OF_M | (sizes[0] << 32) | (sizes[1] << 40),
        "loose_compressed" => lt::LOOSE_COMPRESSED,
        "singleton" => lt::SINGLETON,
        _ => return Err(error_at(at, format!("unknown level format: {base}"))),
    };
    if !lt::is_valid(props) {
        return Err(error_at(at, "invalid level type: level format doesn't support the properties"));
    }
    Ok(props)
}

/// MLIR's affine-expression grammar over named variables, building with
/// the simplifying constructors, as `AsmParser::parseAffineExpr` does.
struct AffineParser<'l, 'a, 's> {
    l: &'l mut Lexer<'a>,
    scope: &'s [(&'a str, AffineExpr)],
    /// Parentheses and negations open, bounded as the IR parser bounds
    /// its nesting.
    depth: u32,
}

impl AffineParser<'_, '_, '_> {
    fn expr(&mut self) -> Res<AffineExpr> {
        let mut lhs = self.term(false)?;
        loop {
            if self.l.consume(b'+') {
                let rhs = self.term(true)?;
                lhs = AffineExpr::plus(lhs, rhs);
            } else if self.l.consume(b'-') {
                let rhs = self.term(true)?;
                lhs = AffineExpr::minus(lhs, rhs);
            } else {
                return Ok(lhs);
            }
        }
    }

    fn term(&mut self, after_op: bool) -> Res<AffineExpr> {
        let mut lhs = self.operand(after_op)?;
        loop {
            let at = self.l.tok.start;
            let op = if self.l.is(b'*') {
                "*"
            } else if self.l.tok.kind == Kind::Ident && matches!(self.l.text(), "floordiv" | "ceildiv" | "mod") {
                self.l.text()
            } else {
                return Ok(lhs);
            };
            self.l.bump();
            let rhs = self.operand(true)?;
            lhs = match op {
                "*" => {
                    if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
                        return Err(error_at(
                            at,
                            "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
                        ));
                    }
                    AffineExpr::times(lhs, rhs)
                }
                _ if !rhs.is_symbolic_or_constant() => {
                    return Err(error_at(
                        at,
                        format!("non-affine expression: right operand of {op} has to be either a constant or symbolic"),
                    ));
                }
                "floordiv" => AffineExpr::floordiv(lhs, rhs),
                "ceildiv" => AffineExpr::ceildiv(lhs, rhs),
                _ => AffineExpr::modulo(lhs, rhs),
            };
        }
    }

    fn operand(&mut self, after_op: bool) -> Res<AffineExpr> {
        if self.depth >= hivm_ir::parser::MAX_NESTING {
            return Err(error_at(self.l.tok.start, format!("nesting is deeper than {} levels", self.depth)));
        }
        self.depth += 1;
        let e = self.operand_inner(after_op);
        self.depth -= 1;
        e
    }

    fn operand_inner(&mut self, after_op: bool) -> Res<AffineExpr> {
        let at = self.l.tok.start;
        match self.l.tok.kind {
            Kind::Int => {
                let text = self.l.text();
                let v = match text.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16).ok(),
                    None => text.parse::<u64>().ok(),
                };
                let v = v
                    .and_then(|v| i64::try_from(v).ok())
                    .ok_or_else(|| error_at(at, "constant too large for index"))?;
                self.l.bump();
                Ok(AffineExpr::Constant(v))
            }
            Kind::Punct(b'(') => {
                self.l.bump();
                if self.l.is(b')') {
                    return Err(error_at(self.l.tok.start, "no expression inside parentheses"));
                }
                let e = self.expr()?;
                expect(self.l, b')', "expected ')'")?;
                Ok(e)
            }
            Kind::Punct(b'-') => {
                self.l.bump();
                let e = self.operand(after_op)?;
                Ok(AffineExpr::negated(e))
            }
            Kind::Ident => {
                let name = self.l.text();
                match self.scope.iter().find(|(n, _)| *n == name) {
                    Some((_, e)) => {
                        self.l.bump();
                        Ok(e.clone())
                    }
                    None => Err(error_at(self.l.wrong_token_pos(), "use of undeclared identifier")),
                }
            }
            Kind::Punct(b'+' | b'*') if !after_op => Err(error_at(at, "missing left operand of binary operator")),
            _ if after_op => Err(error_at(at, "missing right operand of binary operator")),
            _ => Err(error_at(at, "expected affine expression")),
        }
    }
}

//! Affine expressions, maps and integer sets, built with MLIR's construction-time
//! simplifications so that parsing then printing matches `mlir-opt`.

use std::fmt::Write;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AffineExpr {
    Dim(u32),
    Symbol(u32),
    Constant(i64),
    /// Built by the simplifying constructors ([`AffineExpr::plus`], ...).
    Bin(Box<AffineBin>),
}

/// A binary node, with the facts simplification asks about its operands
/// cached, so building a long sum term by term stays linear.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineBin {
    pub op: AffineBinOp,
    pub lhs: AffineExpr,
    pub rhs: AffineExpr,
    symbolic_or_constant: bool,
    divisor: i64,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AffineBinOp {
    Add,
    Mul,
    Mod,
    FloorDiv,
    CeilDiv,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineMap {
    pub num_dims: u32,
    pub num_symbols: u32,
    pub results: Vec<AffineExpr>,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntegerSet {
    pub num_dims: u32,
    pub num_symbols: u32,
    /// Each constraint is `expr == 0` (true) or `expr >= 0` (false).
    pub constraints: Vec<(AffineExpr, bool)>,
}

/// Whether `l` and `r` are both dims, or both symbols, with `l` the later.
fn out_of_order(l: &AffineExpr, r: &AffineExpr) -> bool {
    match (l, r) {
        (AffineExpr::Dim(a), AffineExpr::Dim(b)) | (AffineExpr::Symbol(a), AffineExpr::Symbol(b)) => a > b,
        _ => false,
    }
}

/// `q` when `l + r` is `e - (e floordiv q) * q`, which MLIR folds to `e mod q`:
/// `r` is `((e floordiv q) * q) * -1`, or `(e floordiv c) * -c`.
fn mod_of(l: &AffineExpr, r: &AffineExpr) -> Option<AffineExpr> {
    let rb = r.bin(AffineBinOp::Mul)?;
    if rb.rhs.as_const() == Some(-1)
        && let Some(inner) = rb.lhs.bin(AffineBinOp::Mul)
        && let Some(fd) = inner.lhs.bin(AffineBinOp::FloorDiv)
        && fd.rhs == inner.rhs
        && fd.lhs == *l
    {
        return Some(inner.rhs.clone());
    }
    let fd = rb.lhs.bin(AffineBinOp::FloorDiv)?;
    let c = rb.rhs.as_const()?;
    (fd.lhs == *l && fd.rhs.as_const() == c.checked_neg()).then(|| fd.rhs.clone())
}

fn floor_div(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if a.wrapping_rem(b) != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if a.wrapping_rem(b) != 0 && ((a < 0) == (b < 0)) { q + 1 } else { q }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

impl AffineExpr {
    pub fn is_symbolic_or_constant(&self) -> bool {
        match self {
            AffineExpr::Dim(_) => false,
            AffineExpr::Symbol(_) | AffineExpr::Constant(_) => true,
            AffineExpr::Bin(b) => b.symbolic_or_constant,
        }
    }

    pub fn is_pure_affine(&self) -> bool {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) | AffineExpr::Constant(_) => true,
            AffineExpr::Bin(b) => match b.op {
                AffineBinOp::Add => b.lhs.is_pure_affine() && b.rhs.is_pure_affine(),
                AffineBinOp::Mul => {
                    b.lhs.is_pure_affine()
                        && b.rhs.is_pure_affine()
                        && (b.lhs.as_const().is_some() || b.rhs.as_const().is_some())
                }
                _ => b.lhs.is_pure_affine() && b.rhs.as_const().is_some(),
            },
        }
    }

    pub fn largest_known_divisor(&self) -> i64 {
        match self {
            AffineExpr::Constant(c) => c.wrapping_abs(),
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) => 1,
            AffineExpr::Bin(b) => b.divisor,
        }
    }

    fn as_const(&self) -> Option<i64> {
        match self {
            AffineExpr::Constant(c) => Some(*c),
            _ => None,
        }
    }

    /// The binary node of `op`, if this is one.
    fn bin(&self, op: AffineBinOp) -> Option<&AffineBin> {
        match self {
            AffineExpr::Bin(b) if b.op == op => Some(b),
            _ => None,
        }
    }

    /// The operands of a binary node (which the caller has checked this is).
    fn into_operands(self) -> (AffineExpr, AffineExpr) {
        match self {
            AffineExpr::Bin(b) => {
                let b = *b;
                (b.lhs, b.rhs)
            }
            _ => unreachable!("not a binary affine expression"),
        }
    }

    /// `c` when this is `e + c` for a constant `c`.
    fn add_const_rhs(&self) -> Option<i64> {
        self.bin(AffineBinOp::Add).and_then(|b| b.rhs.as_const())
    }

    /// `c` when this is `e * c` for a constant `c`.
    fn mul_const_rhs(&self) -> Option<i64> {
        self.bin(AffineBinOp::Mul).and_then(|b| b.rhs.as_const())
    }

    /// `(c, e)` for `e * c` with a constant `c`, else `(1, self)`.
    fn mul_factor(&self) -> (i64, &AffineExpr) {
        match self {
            AffineExpr::Bin(b) if b.op == AffineBinOp::Mul && b.rhs.as_const().is_some() => {
                (b.rhs.as_const().unwrap_or(1), &b.lhs)
            }
            _ => (1, self),
        }
    }

    fn raw(op: AffineBinOp, l: AffineExpr, r: AffineExpr) -> AffineExpr {
        let symbolic_or_constant = l.is_symbolic_or_constant() && r.is_symbolic_or_constant();
        let divisor = match op {
            AffineBinOp::Mul => l.largest_known_divisor().saturating_mul(r.largest_known_divisor()),
            AffineBinOp::Add | AffineBinOp::Mod => gcd(l.largest_known_divisor(), r.largest_known_divisor()),
            AffineBinOp::FloorDiv | AffineBinOp::CeilDiv => 1,
        };
        AffineExpr::Bin(Box::new(AffineBin { op, lhs: l, rhs: r, symbolic_or_constant, divisor }))
    }

    /// `l + r`, simplified as MLIR does. Operands are moved, never copied,
    /// and every test is O(1): a sum built term by term costs linear time.
    pub fn plus(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        let (lc, rc) = (l.as_const(), r.as_const());
        if let (Some(a), Some(b)) = (lc, rc) {
            // An overflowing sum stays unfolded.
            return match a.checked_add(b) {
                Some(s) => AffineExpr::Constant(s),
                None => AffineExpr::raw(AffineBinOp::Add, l, r),
            };
        }
        if lc.is_some() || (l.is_symbolic_or_constant() && !r.is_symbolic_or_constant()) {
            return AffineExpr::plus(r, l);
        }
        if rc == Some(0) {
            return l;
        }
        if let (Some(c), Some(lc)) = (rc, l.add_const_rhs()) {
            let (ll, _) = l.into_operands();
            return AffineExpr::plus(ll, AffineExpr::Constant(lc.wrapping_add(c)));
        }
        // `e * c1 + e * c2` (a bare `e` counts as `e * 1`).
        let ((c1, e1), (c2, e2)) = (l.mul_factor(), r.mul_factor());
        if e1 == e2 {
            let e = if l.mul_const_rhs().is_some() { l.into_operands().0 } else { l };
            return AffineExpr::times(e, AffineExpr::Constant(c1.wrapping_add(c2)));
        }
        if let Some(lc) = l.add_const_rhs() {
            let (ll, _) = l.into_operands();
            return AffineExpr::plus(AffineExpr::plus(ll, r), AffineExpr::Constant(lc));
        }
        if let Some(m) = mod_of(&l, &r) {
            return AffineExpr::modulo(l, m);
        }
        // Two dims (or two symbols) go in position order: `d2 + d1` is `d1 + d2`.
        if out_of_order(&l, &r) {
            return AffineExpr::raw(AffineBinOp::Add, r, l);
        }
        AffineExpr::raw(AffineBinOp::Add, l, r)
    }

    pub fn times(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        if out_of_order(&l, &r) {
            return AffineExpr::raw(AffineBinOp::Mul, r, l);
        }
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const()) {
            // An overflowing product stays unfolded.
            return match a.checked_mul(b) {
                Some(p) => AffineExpr::Constant(p),
                None => AffineExpr::raw(AffineBinOp::Mul, l, r),
            };
        }
        if !l.is_symbolic_or_constant() && !r.is_symbolic_or_constant() {
            return AffineExpr::raw(AffineBinOp::Mul, l, r);
        }
        if !r.is_symbolic_or_constant() || l.as_const().is_some() {
            return AffineExpr::times(r, l);
        }
        match r.as_const() {
            Some(1) => return l,
            Some(0) => return r,
            _ => {}
        }
        if let Some(lc) = l.mul_const_rhs() {
            let (ll, _) = l.into_operands();
            if let Some(c) = r.as_const() {
                return AffineExpr::times(ll, AffineExpr::Constant(lc.wrapping_mul(c)));
            }
            let inner = AffineExpr::times(ll, r);
            return AffineExpr::times(inner, AffineExpr::Constant(lc));
        }
        AffineExpr::raw(AffineBinOp::Mul, l, r)
    }

    pub fn negated(e: AffineExpr) -> AffineExpr {
        AffineExpr::times(e, AffineExpr::Constant(-1))
    }

    pub fn minus(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        AffineExpr::plus(l, AffineExpr::negated(r))
    }

    pub fn floordiv(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        AffineExpr::div_like(AffineBinOp::FloorDiv, l, r)
    }

    pub fn ceildiv(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        AffineExpr::div_like(AffineBinOp::CeilDiv, l, r)
    }

    fn div_like(op: AffineBinOp, l: AffineExpr, r: AffineExpr) -> AffineExpr {
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const())
            && b != 0
        {
            return AffineExpr::Constant(if op == AffineBinOp::FloorDiv { floor_div(a, b) } else { ceil_div(a, b) });
        }
        let Some(c) = r.as_const().filter(|c| *c >= 1) else {
            return AffineExpr::raw(op, l, r);
        };
        if c == 1 {
            return l;
        }
        if let Some(lc) = l.mul_const_rhs()
            && lc % c == 0
        {
            let (ll, _) = l.into_operands();
            return AffineExpr::times(ll, AffineExpr::Constant(lc / c));
        }
        if op == AffineBinOp::FloorDiv
            && let Some(b) = l.bin(AffineBinOp::Add)
            && (b.lhs.largest_known_divisor() % c == 0 || b.rhs.largest_known_divisor() % c == 0)
        {
            let (ll, lr) = l.into_operands();
            return AffineExpr::plus(AffineExpr::floordiv(ll, r.clone()), AffineExpr::floordiv(lr, r));
        }
        AffineExpr::raw(op, l, r)
    }

    pub fn modulo(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const())
            && b >= 1
        {
            return AffineExpr::Constant(a.rem_euclid(b));
        }
        let Some(c) = r.as_const().filter(|c| *c >= 1) else {
            return AffineExpr::raw(AffineBinOp::Mod, l, r);
        };
        if c == 1 || l.largest_known_divisor() % c == 0 {
            return AffineExpr::Constant(0);
        }
        if let Some(b) = l.bin(AffineBinOp::Add) {
            if b.lhs.largest_known_divisor() % c == 0 {
                return AffineExpr::modulo(l.into_operands().1, r);
            }
            if b.rhs.largest_known_divisor() % c == 0 {
                return AffineExpr::modulo(l.into_operands().0, r);
            }
        }
        if let Some(b) = l.bin(AffineBinOp::Mod)
            && let Some(lc) = b.rhs.as_const()
            && lc % c == 0
        {
            return AffineExpr::modulo(l.into_operands().0, r);
        }
        AffineExpr::raw(AffineBinOp::Mod, l, r)
    }

    pub fn print(&self, out: &mut String) {
        self.print_with(out, &|out, e| {
            let _ = match e {
                AffineExpr::Dim(d) => write!(out, "d{d}"),
                AffineExpr::Symbol(s) => write!(out, "s{s}"),
                _ => Ok(()),
            };
        });
    }

    /// Prints with dims and symbols written by `leaf` (as SSA values in
    /// `affine.load` subscripts, say).
    pub fn print_with(&self, out: &mut String, leaf: &dyn Fn(&mut String, &AffineExpr)) {
        self.print_inner(out, false, leaf);
    }

    fn print_inner(&self, out: &mut String, strong: bool, leaf: &dyn Fn(&mut String, &AffineExpr)) {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) => leaf(out, self),
            AffineExpr::Constant(c) => {
                let _ = write!(out, "{c}");
            }
            AffineExpr::Bin(b) if b.op == AffineBinOp::Add => {
                let (l, r) = (&b.lhs, &b.rhs);
                if strong {
                    out.push('(');
                }
                if let Some(c) = r.mul_const_rhs().filter(|c| *c <= -1) {
                    let (_, rl) = r.mul_factor();
                    l.print_inner(out, false, leaf);
                    out.push_str(" - ");
                    if c == -1 {
                        rl.print_inner(out, rl.bin(AffineBinOp::Add).is_some(), leaf);
                    } else {
                        rl.print_inner(out, true, leaf);
                        let _ = write!(out, " * {}", c.wrapping_neg());
                    }
                } else if let Some(c) = r.as_const().filter(|c| *c < 0) {
                    l.print_inner(out, false, leaf);
                    let _ = write!(out, " - {}", c.wrapping_neg());
                } else {
                    l.print_inner(out, false, leaf);
                    out.push_str(" + ");
                    r.print_inner(out, false, leaf);
                }
                if strong {
                    out.push(')');
                }
            }
            AffineExpr::Bin(b) => {
                let (op, l, r) = (&b.op, &b.lhs, &b.rhs);
                if strong {
                    out.push('(');
                }
                if *op == AffineBinOp::Mul && r.as_const() == Some(-1) {
                    out.push('-');
                    l.print_inner(out, true, leaf);
                } else {
                    l.print_inner(out, true, leaf);
                    out.push_str(match op {
                        AffineBinOp::Mul => " * ",
                        AffineBinOp::Mod => " mod ",
                        AffineBinOp::FloorDiv => " floordiv ",
                        AffineBinOp::CeilDiv => " ceildiv ",
                        AffineBinOp::Add => unreachable!(),
                    });
                    r.print_inner(out, true, leaf);
                }
                if strong {
                    out.push(')');
                }
            }
        }
    }

    /// The expression with its dims and symbols replaced (MLIR's
    /// `replaceDimsAndSymbols`): nodes that change are rebuilt with the
    /// simplifying constructors; ids without a replacement stay.
    pub fn replace(&self, dims: &[AffineExpr], syms: &[AffineExpr]) -> AffineExpr {
        match self {
            AffineExpr::Dim(d) => dims.get(*d as usize).cloned().unwrap_or_else(|| self.clone()),
            AffineExpr::Symbol(s) => syms.get(*s as usize).cloned().unwrap_or_else(|| self.clone()),
            AffineExpr::Constant(_) => self.clone(),
            AffineExpr::Bin(b) => {
                let (l, r) = (b.lhs.replace(dims, syms), b.rhs.replace(dims, syms));
                if l == b.lhs && r == b.rhs {
                    return self.clone();
                }
                match b.op {
                    AffineBinOp::Add => AffineExpr::plus(l, r),
                    AffineBinOp::Mul => AffineExpr::times(l, r),
                    AffineBinOp::Mod => AffineExpr::modulo(l, r),
                    AffineBinOp::FloorDiv => AffineExpr::floordiv(l, r),
                    AffineBinOp::CeilDiv => AffineExpr::ceildiv(l, r),
                }
            }
        }
    }

    /// Evaluates the expression for concrete dims and symbols; `None` on division by zero.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        Some(match self {
            AffineExpr::Dim(d) => *dims.get(*d as usize)?,
            AffineExpr::Symbol(s) => *syms.get(*s as usize)?,
            AffineExpr::Constant(c) => *c,
            AffineExpr::Bin(e) => {
                let (a, b) = (e.lhs.eval(dims, syms)?, e.rhs.eval(dims, syms)?);
                match e.op {
                    AffineBinOp::Add => a.wrapping_add(b),
                    AffineBinOp::Mul => a.wrapping_mul(b),
                    AffineBinOp::Mod if b >= 1 => a.rem_euclid(b),
                    AffineBinOp::FloorDiv if b != 0 => floor_div(a, b),
                    AffineBinOp::CeilDiv if b != 0 => ceil_div(a, b),
                    _ => return None,
                }
            }
        })
    }
}

fn print_dims_syms(out: &mut String, nd: u32, ns: u32) {
    out.push('(');
    for i in 0..nd {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "d{i}");
    }
    out.push(')');
    if ns > 0 {
        out.push('[');
        for i in 0..ns {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "s{i}");
        }
        out.push(']');
    }
}

impl AffineMap {
    pub fn identity(n: u32) -> AffineMap {
        AffineMap { num_dims: n, num_symbols: 0, results: (0..n).map(AffineExpr::Dim).collect() }
    }

    pub fn is_identity(&self) -> bool {
        self.num_symbols == 0
            && self.results.len() == self.num_dims as usize
            && self.results.iter().enumerate().all(|(i, e)| *e == AffineExpr::Dim(i as u32))
    }

    /// The body without the `affine_map<...>` wrapper.
    pub fn print(&self, out: &mut String) {
        print_dims_syms(out, self.num_dims, self.num_symbols);
        out.push_str(" -> (");
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            e.print(out);
        }
        out.push(')');
    }
}

impl IntegerSet {
    pub fn print(&self, out: &mut String) {
        print_dims_syms(out, self.num_dims, self.num_symbols);
        out.push_str(" : (");
        if self.constraints.is_empty() {
            // No constraint holds everywhere (the parser already stores
            // this as `0 == 0`, as MLIR does).
            out.push_str("0 == 0");
        }
        for (i, (e, eq)) in self.constraints.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            e.print(out);
            out.push_str(if *eq { " == 0" } else { " >= 0" });
        }
        out.push(')');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AffineExpr::*;

    fn p(e: &AffineExpr) -> String {
        let mut s = String::new();
        e.print(&mut s);
        s
    }

    #[test]
    fn constants_move_right_and_fold() {
        assert_eq!(p(&AffineExpr::plus(Constant(2), Dim(0))), "d0 + 2");
        assert_eq!(p(&AffineExpr::plus(AffineExpr::plus(Dim(0), Constant(2)), Constant(3))), "d0 + 5");
        assert_eq!(p(&AffineExpr::times(AffineExpr::times(Dim(0), Constant(2)), Constant(3))), "d0 * 6");
        assert_eq!(p(&AffineExpr::plus(Dim(0), Dim(0))), "d0 * 2");
    }

    #[test]
    fn subtraction_pretty_prints() {
        assert_eq!(p(&AffineExpr::minus(Dim(0), Dim(1))), "d0 - d1");
        assert_eq!(p(&AffineExpr::negated(Dim(0))), "-d0");
        assert_eq!(p(&AffineExpr::plus(Dim(0), Constant(-3))), "d0 - 3");
        assert_eq!(p(&AffineExpr::times(AffineExpr::plus(Dim(0), Dim(1)), Constant(3))), "(d0 + d1) * 3");
    }

    #[test]
    fn floordiv_of_multiple_simplifies() {
        assert_eq!(p(&AffineExpr::floordiv(AffineExpr::times(Dim(0), Constant(4)), Constant(2))), "d0 * 2");
        assert_eq!(p(&AffineExpr::modulo(AffineExpr::times(Dim(0), Constant(4)), Constant(2))), "0");
        assert_eq!(Constant(7).eval(&[], &[]), Some(7));
        assert_eq!(AffineExpr::raw(AffineBinOp::FloorDiv, Dim(0), Constant(2)).eval(&[-3], &[]), Some(-2));
    }

    #[test]
    fn overflowing_constants_stay_unfolded() {
        // As mlir-opt: no fold, and no endless swapping of two constants.
        assert_eq!(p(&AffineExpr::plus(Constant(i64::MAX), Constant(1))), "9223372036854775807 + 1");
        assert_eq!(p(&AffineExpr::times(Constant(i64::MAX), Constant(2))), "9223372036854775807 * 2");
        // `c.wrapping_neg()`, as mlir-opt prints `x - c` for a negative `c`.
        assert_eq!(p(&AffineExpr::plus(Dim(0), Constant(i64::MIN))), "d0 - -9223372036854775808");
    }

    #[test]
    fn cached_facts_match_the_expression() {
        let sum = (0..1000).fold(Dim(0), |e, k| AffineExpr::plus(e, AffineExpr::times(Symbol(k % 3), Constant(4))));
        assert!(!sum.is_symbolic_or_constant());
        assert_eq!(sum.largest_known_divisor(), 1);
        let syms = (1..1000).fold(Symbol(0), |e, k| AffineExpr::plus(e, AffineExpr::times(Symbol(k), Constant(6))));
        assert!(syms.is_symbolic_or_constant());
        let quad = AffineExpr::times(AffineExpr::plus(Dim(0), Dim(1)), Constant(4));
        assert_eq!(quad.largest_known_divisor(), 4);
        assert_eq!(p(&AffineExpr::modulo(AffineExpr::plus(quad, Dim(2)), Constant(2))), "d2 mod 2");
    }
}

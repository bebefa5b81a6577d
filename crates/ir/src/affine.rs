//! Affine expressions, maps and integer sets, built with MLIR's construction-time
//! simplifications so that parsing then printing matches `mlir-opt`.

use std::fmt::Write;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AffineExpr {
    Dim(u32),
    Symbol(u32),
    Constant(i64),
    Bin(AffineBinOp, Box<AffineExpr>, Box<AffineExpr>),
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
            AffineExpr::Bin(_, l, r) => l.is_symbolic_or_constant() && r.is_symbolic_or_constant(),
        }
    }

    pub fn is_pure_affine(&self) -> bool {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) | AffineExpr::Constant(_) => true,
            AffineExpr::Bin(AffineBinOp::Add, l, r) => l.is_pure_affine() && r.is_pure_affine(),
            AffineExpr::Bin(AffineBinOp::Mul, l, r) => {
                l.is_pure_affine()
                    && r.is_pure_affine()
                    && (matches!(**l, AffineExpr::Constant(_)) || matches!(**r, AffineExpr::Constant(_)))
            }
            AffineExpr::Bin(_, l, r) => l.is_pure_affine() && matches!(**r, AffineExpr::Constant(_)),
        }
    }

    pub fn largest_known_divisor(&self) -> i64 {
        match self {
            AffineExpr::Constant(c) => c.abs(),
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) => 1,
            AffineExpr::Bin(AffineBinOp::Mul, l, r) => {
                l.largest_known_divisor().saturating_mul(r.largest_known_divisor())
            }
            AffineExpr::Bin(AffineBinOp::Add | AffineBinOp::Mod, l, r) => {
                gcd(l.largest_known_divisor(), r.largest_known_divisor())
            }
            AffineExpr::Bin(_, _, _) => 1,
        }
    }

    fn as_const(&self) -> Option<i64> {
        match self {
            AffineExpr::Constant(c) => Some(*c),
            _ => None,
        }
    }

    fn raw(op: AffineBinOp, l: AffineExpr, r: AffineExpr) -> AffineExpr {
        AffineExpr::Bin(op, Box::new(l), Box::new(r))
    }

    pub fn plus(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const())
            && let Some(s) = a.checked_add(b)
        {
            return AffineExpr::Constant(s);
        }
        if l.as_const().is_some() || (l.is_symbolic_or_constant() && !r.is_symbolic_or_constant()) {
            return AffineExpr::plus(r, l);
        }
        if r.as_const() == Some(0) {
            return l;
        }
        if let (AffineExpr::Bin(AffineBinOp::Add, ll, lr), Some(c)) = (&l, r.as_const())
            && let Some(lc) = lr.as_const()
        {
            return AffineExpr::plus((**ll).clone(), AffineExpr::Constant(lc.wrapping_add(c)));
        }
        let split = |e: &AffineExpr| -> (i64, AffineExpr) {
            if let AffineExpr::Bin(AffineBinOp::Mul, a, b) = e
                && let Some(c) = b.as_const()
            {
                return (c, (**a).clone());
            }
            (1, e.clone())
        };
        let (c1, e1) = split(&l);
        let (c2, e2) = split(&r);
        if e1 == e2 {
            return AffineExpr::times(e1, AffineExpr::Constant(c1.wrapping_add(c2)));
        }
        if let AffineExpr::Bin(AffineBinOp::Add, ll, lr) = &l
            && let Some(lc) = lr.as_const()
        {
            let inner = AffineExpr::plus((**ll).clone(), r);
            return AffineExpr::plus(inner, AffineExpr::Constant(lc));
        }
        AffineExpr::raw(AffineBinOp::Add, l, r)
    }

    pub fn times(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const())
            && let Some(p) = a.checked_mul(b)
        {
            return AffineExpr::Constant(p);
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
        if let AffineExpr::Bin(AffineBinOp::Mul, ll, lr) = &l
            && let Some(lc) = lr.as_const()
        {
            if let Some(c) = r.as_const() {
                return AffineExpr::times((**ll).clone(), AffineExpr::Constant(lc.wrapping_mul(c)));
            }
            let inner = AffineExpr::times((**ll).clone(), r);
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
        if let AffineExpr::Bin(AffineBinOp::Mul, ll, lr) = &l
            && let Some(lc) = lr.as_const()
            && lc % c == 0
        {
            return AffineExpr::times((**ll).clone(), AffineExpr::Constant(lc / c));
        }
        if op == AffineBinOp::FloorDiv
            && let AffineExpr::Bin(AffineBinOp::Add, ll, lr) = &l
            && (ll.largest_known_divisor() % c == 0 || lr.largest_known_divisor() % c == 0)
        {
            return AffineExpr::plus(
                AffineExpr::floordiv((**ll).clone(), r.clone()),
                AffineExpr::floordiv((**lr).clone(), r),
            );
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
        if let AffineExpr::Bin(AffineBinOp::Add, ll, lr) = &l {
            if ll.largest_known_divisor() % c == 0 {
                return AffineExpr::modulo((**lr).clone(), r);
            }
            if lr.largest_known_divisor() % c == 0 {
                return AffineExpr::modulo((**ll).clone(), r);
            }
        }
        if let AffineExpr::Bin(AffineBinOp::Mod, ll, lr) = &l
            && let Some(lc) = lr.as_const()
            && lc % c == 0
        {
            return AffineExpr::modulo((**ll).clone(), r);
        }
        AffineExpr::raw(AffineBinOp::Mod, l, r)
    }

    pub fn print(&self, out: &mut String) {
        self.print_inner(out, false);
    }

    fn print_inner(&self, out: &mut String, strong: bool) {
        match self {
            AffineExpr::Dim(d) => {
                let _ = write!(out, "d{d}");
            }
            AffineExpr::Symbol(s) => {
                let _ = write!(out, "s{s}");
            }
            AffineExpr::Constant(c) => {
                let _ = write!(out, "{c}");
            }
            AffineExpr::Bin(AffineBinOp::Add, l, r) => {
                if strong {
                    out.push('(');
                }
                if let AffineExpr::Bin(AffineBinOp::Mul, rl, rr) = &**r
                    && let Some(c) = rr.as_const()
                    && c <= -1
                {
                    l.print_inner(out, false);
                    out.push_str(" - ");
                    if c == -1 {
                        rl.print_inner(out, matches!(**rl, AffineExpr::Bin(AffineBinOp::Add, ..)));
                    } else {
                        rl.print_inner(out, true);
                        let _ = write!(out, " * {}", -(c as i128));
                    }
                } else if let Some(c) = r.as_const().filter(|c| *c < 0) {
                    l.print_inner(out, false);
                    let _ = write!(out, " - {}", -(c as i128));
                } else {
                    l.print_inner(out, false);
                    out.push_str(" + ");
                    r.print_inner(out, false);
                }
                if strong {
                    out.push(')');
                }
            }
            AffineExpr::Bin(op, l, r) => {
                if strong {
                    out.push('(');
                }
                if *op == AffineBinOp::Mul && r.as_const() == Some(-1) {
                    out.push('-');
                    l.print_inner(out, true);
                } else {
                    l.print_inner(out, true);
                    out.push_str(match op {
                        AffineBinOp::Mul => " * ",
                        AffineBinOp::Mod => " mod ",
                        AffineBinOp::FloorDiv => " floordiv ",
                        AffineBinOp::CeilDiv => " ceildiv ",
                        AffineBinOp::Add => unreachable!(),
                    });
                    r.print_inner(out, true);
                }
                if strong {
                    out.push(')');
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
            AffineExpr::Bin(op, l, r) => {
                let (a, b) = (l.eval(dims, syms)?, r.eval(dims, syms)?);
                match op {
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
            // MLIR prints the empty set as the trivially false `1 == 0`.
            out.push_str("1 == 0");
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
        assert_eq!(
            AffineExpr::Bin(AffineBinOp::FloorDiv, Box::new(Dim(0)), Box::new(Constant(2))).eval(&[-3], &[]),
            Some(-2)
        );
    }
}

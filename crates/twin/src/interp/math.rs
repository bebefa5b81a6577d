//! The `math` dialect on scalars. Floats are computed in f64 and rounded to
//! the result type, as every float op of the twin is; for the functions
//! below that is the correctly rounded result except in rare ties of the
//! double rounding, which no device guarantees to do better.

use hivm_ir::OpId;

use super::{Interp, R, RunError, unsupported};
use crate::value::{Elem, Val, norm_int, round_float, unsigned};

unsafe extern "C" {
    // The C library's, which Rust's std links on every host the twin runs on.
    safe fn erf(x: f64) -> f64;
}

/// A unary float function by its `math.` name.
pub(super) fn unary(short: &str) -> Option<fn(f64) -> f64> {
    let f: fn(f64) -> f64 = match short {
        "absf" => f64::abs,
        "ceil" => f64::ceil,
        "floor" => f64::floor,
        "round" => f64::round,
        "roundeven" => f64::round_ties_even,
        "trunc" => f64::trunc,
        "sqrt" => f64::sqrt,
        "rsqrt" => |x| 1.0 / x.sqrt(),
        "cbrt" => f64::cbrt,
        "exp" => f64::exp,
        "exp2" => f64::exp2,
        "expm1" => f64::exp_m1,
        "log" => f64::ln,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "sin" => f64::sin,
        "cos" => f64::cos,
        "tan" => f64::tan,
        "asin" => f64::asin,
        "acos" => f64::acos,
        "atan" => f64::atan,
        "sinh" => f64::sinh,
        "cosh" => f64::cosh,
        "tanh" => f64::tanh,
        "asinh" => f64::asinh,
        "acosh" => f64::acosh,
        "atanh" => f64::atanh,
        "erf" => |x| erf(x),
        "erfc" => |x| 1.0 - erf(x),
        _ => return None,
    };
    Some(f)
}

impl Interp<'_> {
    pub(super) fn math(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let short = &name["math.".len()..];
        let Some(&res) = ir.results(op).first().filter(|_| !ir.operands(op).is_empty()) else {
            return Err(unsupported(ir, op));
        };
        let re = Elem::of(ir, ir.value_type(res))
            .ok_or_else(|| RunError::at(op, "math ops on vectors are not supported by the CPU twin yet"))?;
        let arg = |k: usize| self.get(ir.operand(op, k)).clone();
        let v = if let Some(f) = unary(short) {
            if !re.is_float() {
                return Err(unsupported(ir, op));
            }
            Val::Float(round_float(f(arg(0).float()), re))
        } else {
            match short {
                "powf" => Val::Float(round_float(arg(0).float().powf(arg(1).float()), re)),
                "atan2" => Val::Float(round_float(arg(0).float().atan2(arg(1).float()), re)),
                "copysign" => Val::Float(round_float(arg(0).float().copysign(arg(1).float()), re)),
                // One rounding, as a fused multiply-add has.
                "fma" => Val::Float(round_float(arg(0).float().mul_add(arg(1).float(), arg(2).float()), re)),
                "fpowi" => {
                    let e = i32::try_from(arg(1).int()).unwrap_or(if arg(1).int() < 0 { i32::MIN } else { i32::MAX });
                    Val::Float(round_float(arg(0).float().powi(e), re))
                }
                "isnan" | "isinf" | "isfinite" | "isnormal" => {
                    let x = arg(0).float();
                    let b = match short {
                        "isnan" => x.is_nan(),
                        "isinf" => x.is_infinite(),
                        "isfinite" => x.is_finite(),
                        _ => x.is_normal(),
                    };
                    Val::Int(b as i64)
                }
                "absi" | "ctlz" | "cttz" | "ctpop" | "ipowi" => {
                    let w = re.width();
                    let x = unsigned(arg(0).int(), w);
                    let r = match short {
                        "absi" => arg(0).int().wrapping_abs(),
                        "ctlz" => (x.leading_zeros() - (64 - w)) as i64,
                        "cttz" => x.trailing_zeros().min(w) as i64,
                        "ctpop" => x.count_ones() as i64,
                        _ => ipowi(arg(0).int(), arg(1).int(), w),
                    };
                    Val::Int(norm_int(r, w))
                }
                _ => return Err(unsupported(ir, op)),
            }
        };
        self.set(res, v);
        Ok(())
    }
}

/// `math.ipowi`: wrapping integer power; a negative exponent gives 0 but
/// for bases 1 and -1 (MLIR's expansion of it).
fn ipowi(b: i64, e: i64, w: u32) -> i64 {
    if e < 0 {
        return match b {
            1 => 1,
            -1 => {
                if e % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            _ => 0,
        };
    }
    let mut r: i64 = 1;
    let mut base = b;
    let mut e = e as u64;
    while e > 0 {
        if e & 1 == 1 {
            r = norm_int(r.wrapping_mul(base), w);
        }
        base = norm_int(base.wrapping_mul(base), w);
        e >>= 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_functions_wrap_at_their_width() {
        assert_eq!(ipowi(3, 4, 32), 81);
        assert_eq!(ipowi(2, 31, 32), i32::MIN as i64);
        assert_eq!(ipowi(-1, -3, 32), -1);
        assert_eq!(ipowi(5, -1, 32), 0);
    }

    #[test]
    fn erf_comes_from_the_c_library() {
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-15);
        assert_eq!(unary("erfc").unwrap()(0.0), 1.0);
    }
}

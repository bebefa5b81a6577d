//! The small float formats MLIR has (`f8E4M3FN`, `f4E2M1FN`, `tf32`, ...),
//! as LLVM's APFloat defines them: conversion from a value with
//! round-to-nearest-even, and back to an exact `f64`. Each format is a bias,
//! exponent and mantissa widths, and how it spends its special encodings.
//! [`bits_of_value`] and [`value_of_bits`] cover every format but the
//! 80/128-bit ones (IEEE's native and half ones through `f64`/`half`).

use crate::types::FloatKind;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Special {
    /// Infinities and NaNs in the top exponent, as IEEE 754.
    Ieee,
    /// No infinities; the all-ones pattern (either sign) is NaN (`...FN`).
    NanAllOnes,
    /// No infinities, no negative zero; the negative-zero pattern is NaN (`...FNUZ`).
    NanNegZero,
    /// Every pattern is a finite number (`f4E2M1FN`, `f6E2M3FN`, `f6E3M2FN`).
    FiniteOnly,
    /// Unsigned powers of two; all ones is NaN, there is no zero (`f8E8M0FNU`).
    PowerOfTwo,
}

#[derive(Clone, Copy, Debug)]
struct Format {
    exp: u32,
    man: u32,
    bias: i32,
    special: Special,
}

fn format(k: FloatKind) -> Option<Format> {
    use Special::*;
    let f = |exp, man, bias, special| Format { exp, man, bias, special };
    Some(match k {
        FloatKind::TF32 => f(8, 10, 127, Ieee),
        FloatKind::F8E5M2 => f(5, 2, 15, Ieee),
        FloatKind::F8E4M3 => f(4, 3, 7, Ieee),
        FloatKind::F8E3M4 => f(3, 4, 3, Ieee),
        FloatKind::F8E4M3FN => f(4, 3, 7, NanAllOnes),
        FloatKind::F8E5M2FNUZ => f(5, 2, 16, NanNegZero),
        FloatKind::F8E4M3FNUZ => f(4, 3, 8, NanNegZero),
        FloatKind::F8E4M3B11FNUZ => f(4, 3, 11, NanNegZero),
        FloatKind::F4E2M1FN => f(2, 1, 1, FiniteOnly),
        FloatKind::F6E2M3FN => f(2, 3, 1, FiniteOnly),
        FloatKind::F6E3M2FN => f(3, 2, 3, FiniteOnly),
        FloatKind::F8E8M0FNU => f(8, 0, 127, PowerOfTwo),
        _ => return None,
    })
}

impl Format {
    fn sign_bit(&self) -> u128 {
        if self.special == Special::PowerOfTwo { 0 } else { 1 << (self.exp + self.man) }
    }

    fn emin(&self) -> i32 {
        1 - self.bias
    }

    /// The largest finite value's exponent field and mantissa.
    fn max_fields(&self) -> (u128, u128) {
        let all_exp = (1u128 << self.exp) - 1;
        let all_man = (1u128 << self.man) - 1;
        match self.special {
            Special::Ieee => (all_exp - 1, all_man),
            Special::NanAllOnes => (all_exp, all_man - 1),
            Special::NanNegZero | Special::FiniteOnly => (all_exp, all_man),
            Special::PowerOfTwo => (all_exp - 1, 0),
        }
    }

    fn value_of(&self, e: u128, m: u128) -> f64 {
        let scale = |x: f64, p: i32| x * 2f64.powi(p);
        if e == 0 && self.special != Special::PowerOfTwo {
            scale(m as f64, self.emin() - self.man as i32)
        } else {
            scale(((1u128 << self.man) + m) as f64, e as i32 - self.bias - self.man as i32)
        }
    }

    fn nan(&self) -> u128 {
        match self.special {
            Special::Ieee => (((1u128 << self.exp) - 1) << self.man) | (1 << self.man.saturating_sub(1)),
            Special::NanAllOnes | Special::PowerOfTwo => (1u128 << (self.exp + self.man)) - 1,
            Special::NanNegZero => self.sign_bit(),
            Special::FiniteOnly => self.max_bits(),
        }
    }

    fn max_bits(&self) -> u128 {
        let (e, m) = self.max_fields();
        (e << self.man) | m
    }
}

/// The bit pattern of format `k` nearest to `v` (ties to even).
pub fn bits_of_value(k: FloatKind, v: f64) -> Option<u128> {
    Some(match k {
        FloatKind::F64 => v.to_bits() as u128,
        FloatKind::F32 => (v as f32).to_bits() as u128,
        FloatKind::F16 => half::f16::from_f64(v).to_bits() as u128,
        FloatKind::BF16 => half::bf16::from_f64(v).to_bits() as u128,
        _ => encode(k, v)?,
    })
}

/// The exact value of bit pattern `bits` of format `k`.
pub fn value_of_bits(k: FloatKind, bits: u128) -> Option<f64> {
    Some(match k {
        FloatKind::F64 => f64::from_bits(bits as u64),
        FloatKind::F32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        FloatKind::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        _ => decode(k, bits)?,
    })
}

/// The bit pattern nearest to `v` (ties to even), as APFloat converts.
pub fn encode(k: FloatKind, v: f64) -> Option<u128> {
    let f = format(k)?;
    if v.is_nan() {
        return Some(f.nan());
    }
    let neg = v.is_sign_negative() && f.special != Special::PowerOfTwo;
    let sign = if neg { f.sign_bit() } else { 0 };
    let a = v.abs();
    let max = {
        let (e, m) = f.max_fields();
        f.value_of(e, m)
    };
    let overflow = || match f.special {
        Special::Ieee => sign | (((1u128 << f.exp) - 1) << f.man),
        Special::FiniteOnly => sign | f.max_bits(),
        _ => f.nan(),
    };
    if a.is_infinite() {
        return Some(overflow());
    }
    if a == 0.0 {
        return Some(match f.special {
            Special::NanNegZero => 0,
            Special::PowerOfTwo => f.nan(),
            _ => sign,
        });
    }
    // Quantise to the format's spacing at this magnitude.
    let e = (a.log2().floor() as i32).max(f.emin());
    let quantum = 2f64.powi(e - f.man as i32);
    let q = (a / quantum).round_ties_even() * quantum;
    if q > max {
        return Some(overflow());
    }
    if q == 0.0 {
        return Some(if f.special == Special::NanNegZero { 0 } else { sign });
    }
    let qe = q.log2().floor() as i32;
    let bits = if qe < f.emin() && f.special != Special::PowerOfTwo {
        (q / 2f64.powi(f.emin() - f.man as i32)) as u128
    } else {
        let field = (qe + f.bias) as u128;
        let m = (q / 2f64.powi(qe - f.man as i32)) as u128 - (1u128 << f.man);
        (field << f.man) | m
    };
    Some(sign | bits)
}

/// The exact value of a bit pattern (NaN and infinities as `f64` has them).
pub fn decode(k: FloatKind, bits: u128) -> Option<f64> {
    let f = format(k)?;
    let sign = f.sign_bit();
    let neg = bits & sign != 0;
    let body = bits & !sign & ((1u128 << (f.exp + f.man)) - 1);
    let (e, m) = (body >> f.man, body & ((1u128 << f.man) - 1));
    let all_exp = (1u128 << f.exp) - 1;
    let v = match f.special {
        Special::Ieee if e == all_exp => {
            if m == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        Special::NanAllOnes if e == all_exp && m == (1u128 << f.man) - 1 => f64::NAN,
        Special::NanNegZero if bits == sign => f64::NAN,
        Special::PowerOfTwo if e == all_exp => f64::NAN,
        _ => f.value_of(e, m),
    };
    Some(if neg { -v } else { v })
}

/// Significant bits (with the implicit one), for the shortest-digits format.
pub fn precision(k: FloatKind) -> Option<u32> {
    format(k).map(|f| f.man + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_apfloat_conversions() {
        // (kind, value, bits) as mlir-opt 22 converts literals.
        let cases = [
            (FloatKind::F8E4M3FN, 1000.0, 0x7F),
            (FloatKind::F8E4M3FN, 448.0, 0x7E),
            (FloatKind::F8E4M3FN, 464.0, 0x7E),
            (FloatKind::F8E4M3FN, 1.5, 0x3C),
            (FloatKind::F8E4M3FN, 1e-9, 0x00),
            (FloatKind::F4E2M1FN, 10.0, 0x7),
            (FloatKind::F4E2M1FN, 0.5, 0x1),
            (FloatKind::F8E5M2, 100000.0, 0x7C),
            (FloatKind::F8E4M3FNUZ, -0.0, 0x00),
            (FloatKind::F8E8M0FNU, 4.0, 129),
            (FloatKind::F8E4M3, 240.0, 0x77),
        ];
        for (k, v, bits) in cases {
            assert_eq!(encode(k, v), Some(bits), "{k:?} {v}");
        }
        assert_eq!(decode(FloatKind::F8E5M2, encode(FloatKind::F8E5M2, 0.3).unwrap()), Some(0.3125));
        assert_eq!(decode(FloatKind::F8E4M3FN, encode(FloatKind::F8E4M3FN, 0.1).unwrap()), Some(0.1015625));
        assert!(decode(FloatKind::F8E4M3FN, 0x7F).unwrap().is_nan());
        assert!(decode(FloatKind::F8E4M3FNUZ, 0x80).unwrap().is_nan());
        assert_eq!(decode(FloatKind::F8E5M2, 0x7C), Some(f64::INFINITY));
    }
}

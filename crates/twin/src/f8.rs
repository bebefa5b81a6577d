//! The 8-bit float formats the MX matmul takes (OCP 8-bit floating point
//! and microscaling specs): `f8E4M3FN` (bias 7, no infinities, S.1111.111
//! is NaN, 448 the largest), `f8E5M2` (bias 15, IEEE-like with infinities)
//! and the scale format E8M0 (a power of two, 0xFF is NaN).
//!
//! Decoding is exact (every code is an f32). Encoding is MLIR's (APFloat's)
//! conversion, which `arith.truncf` and stores of f8 values use: round to
//! nearest, ties to even; past the largest finite value `f8E4M3FN` becomes
//! NaN and `f8E5M2` infinity (not the OCP "saturating" mode, which no op
//! the twin runs asks for).

/// One of the two 8-bit float element formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum F8 {
    E4M3FN,
    E5M2,
}

impl F8 {
    /// Exponent bias and fraction bits.
    fn shape(self) -> (i32, u32) {
        match self {
            F8::E4M3FN => (7, 3),
            F8::E5M2 => (15, 2),
        }
    }

    /// The value of code `c`.
    pub fn decode(self, c: u8) -> f32 {
        let (bias, mant) = self.shape();
        let sign = if c & 0x80 != 0 { -1.0f32 } else { 1.0 };
        let e = ((c & 0x7f) >> mant) as i32;
        let m = (c & ((1 << mant) - 1)) as i32;
        let emax = (1 << (7 - mant)) - 1;
        match self {
            F8::E4M3FN if e == emax && m == (1 << mant) - 1 => return f32::NAN,
            F8::E5M2 if e == emax => return if m == 0 { sign * f32::INFINITY } else { f32::NAN },
            _ => {}
        }
        let frac = m as f32 / (1 << mant) as f32;
        let v = if e == 0 { frac * pow2(1 - bias) } else { (1.0 + frac) * pow2(e - bias) };
        sign * v
    }

    /// `x` rounded to this format (see the module comment).
    pub fn encode(self, x: f64) -> u8 {
        let (bias, mant) = self.shape();
        let sign: u8 = if x.is_sign_negative() { 0x80 } else { 0 };
        let nan = match self {
            F8::E4M3FN => 0x7f,
            F8::E5M2 => 0x7e,
        };
        if x.is_nan() {
            return nan;
        }
        let overflow = match self {
            F8::E4M3FN => nan | sign,
            F8::E5M2 => 0x7c | sign,
        };
        let a = x.abs();
        if a.is_infinite() {
            return overflow;
        }
        // In units of the smallest subnormal, a is an integer part plus a
        // remainder; codes are consecutive in that unit within one binade.
        let emin = 1 - bias;
        let (exp, step) = if a < pow2_64(emin) {
            (0, pow2_64(emin - mant as i32))
        } else {
            let e = a.log2().floor() as i32;
            // log2 may be off by one at binade edges.
            let e = if pow2_64(e) > a {
                e - 1
            } else if pow2_64(e + 1) <= a {
                e + 1
            } else {
                e
            };
            (e - emin + 1, pow2_64(e - mant as i32))
        };
        // a / step is exact (a power-of-two scaling); round to even.
        let q = a / step;
        let lo = q.floor();
        let r = q - lo;
        let mut n = lo as u64;
        if r > 0.5 || (r == 0.5 && n % 2 == 1) {
            n += 1;
        }
        // n counts steps within the binade (with the implicit one for normals).
        let code: u64 = if exp == 0 {
            n // subnormal, or rounded up into the first normal binade
        } else {
            ((exp as u64) << mant) + n - (1 << mant)
        };
        let max_finite: u64 = match self {
            F8::E4M3FN => 0x7e,
            F8::E5M2 => 0x7b,
        };
        if code > max_finite { overflow } else { sign | code as u8 }
    }
}

/// The E8M0 scale `c`: 2^(c - 127), None for the NaN code 0xFF.
pub fn e8m0(c: u8) -> Option<f64> {
    (c != 0xff).then(|| pow2_64(c as i32 - 127))
}

fn pow2(e: i32) -> f32 {
    pow2_64(e) as f32
}

fn pow2_64(e: i32) -> f64 {
    2f64.powi(e)
}

#[cfg(test)]
mod tests {
    use super::{F8, e8m0};

    /// The value of a code by the format's definition, written from the bit
    /// fields with integer arithmetic only (independent of `decode`).
    fn reference(f: F8, c: u8) -> Option<f64> {
        let (ebits, mbits, bias) = match f {
            F8::E4M3FN => (4u32, 3u32, 7i32),
            F8::E5M2 => (5, 2, 15),
        };
        let s = c >> 7;
        let e = ((c >> mbits) & ((1 << ebits) - 1)) as i32;
        let m = (c & ((1 << mbits) - 1)) as i64;
        let all_e = (1 << ebits) - 1;
        if f == F8::E4M3FN && e == all_e && m == 7 {
            return None; // NaN
        }
        if f == F8::E5M2 && e == all_e {
            return if m == 0 { Some(if s == 1 { f64::NEG_INFINITY } else { f64::INFINITY }) } else { None };
        }
        // value = significand * 2^(exponent - mbits), significand an integer.
        let (sig, exp) = if e == 0 { (m, 1 - bias) } else { (m + (1 << mbits), e - bias) };
        let mut v = sig as f64;
        let shift = exp - mbits as i32;
        for _ in 0..shift.abs() {
            v = if shift > 0 { v * 2.0 } else { v / 2.0 };
        }
        Some(if s == 1 { -v } else { v })
    }

    /// The code nearest to `x` by search over all finite codes (ties to the
    /// even code), or the format's overflow code beyond the largest value
    /// plus half a step.
    fn nearest(f: F8, x: f64) -> u8 {
        let max = if f == F8::E4M3FN { 448.0 } else { 57344.0 };
        let next = if f == F8::E4M3FN { 480.0 } else { 65536.0 };
        let half = (max + next) / 2.0;
        let neg = x.is_sign_negative();
        let a = x.abs();
        let over = if f == F8::E4M3FN { 0x7f } else { 0x7c };
        let sign = if neg { 0x80u8 } else { 0 };
        // At exactly half way the even neighbour is `next` for E5M2 (2^16,
        // mantissa 0) and 448 for E4M3FN (mantissa 110).
        if a > half || (a == half && f == F8::E5M2) {
            return over | sign;
        }
        let mut best: Option<(f64, u8)> = None;
        for c in 0u8..=0x7f {
            let Some(v) = reference(f, c).filter(|v| v.is_finite()) else { continue };
            let d = (v - a).abs();
            match best {
                Some((bd, bc)) if d > bd || (d == bd && (bc & 1 == 0 || c & 1 == 1)) => {}
                _ => best = Some((d, c)),
            }
        }
        best.unwrap().1 | sign
    }

    #[test]
    fn every_code_decodes_to_its_defined_value() {
        for f in [F8::E4M3FN, F8::E5M2] {
            for c in 0..=255u8 {
                let got = f.decode(c) as f64;
                match reference(f, c) {
                    None => assert!(got.is_nan(), "{f:?} {c:#04x}"),
                    Some(v) => assert_eq!(got.to_bits(), v.to_bits(), "{f:?} {c:#04x}: {got} vs {v}"),
                }
            }
        }
        assert_eq!(F8::E4M3FN.decode(0x7e), 448.0);
        assert_eq!(F8::E5M2.decode(0x7b), 57344.0);
        assert_eq!(F8::E4M3FN.decode(0x01), 2f32.powi(-9));
        assert_eq!(F8::E5M2.decode(0x01), 2f32.powi(-16));
    }

    #[test]
    fn every_code_survives_the_round_trip() {
        for f in [F8::E4M3FN, F8::E5M2] {
            for c in 0..=255u8 {
                let v = f.decode(c);
                if v.is_nan() {
                    assert!(f.decode(f.encode(v as f64)).is_nan());
                } else {
                    assert_eq!(f.encode(v as f64), c, "{f:?} {c:#04x} ({v})");
                }
            }
        }
    }

    #[test]
    fn rounding_matches_a_nearest_search_at_midpoints_and_between() {
        for f in [F8::E4M3FN, F8::E5M2] {
            let vals: Vec<f64> = (0..=0x7fu8).filter_map(|c| reference(f, c)).filter(|v| v.is_finite()).collect();
            let mut probes = Vec::new();
            for w in vals.windows(2) {
                let (a, b) = (w[0], w[1]);
                probes.extend([(a + b) / 2.0, a + (b - a) * 0.25, a + (b - a) * 0.75, (a + b) / 2.0 * (1.0 + 1e-12)]);
            }
            let max = *vals.last().unwrap();
            probes.extend([max * 1.03, max * 1.0714, max * 1.0715, max * 1.07142857, max * 1.2, 1e30, 1e-30]);
            let mut seed = 12345u64;
            for _ in 0..20000 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let e = ((seed >> 40) % 40) as i32 - 24;
                let m = 1.0 + (seed >> 11 & 0xfffff) as f64 / (1u64 << 20) as f64;
                probes.push(m * 2f64.powi(e));
            }
            for p in probes {
                for x in [p, -p] {
                    assert_eq!(f.encode(x), nearest(f, x), "{f:?} {x}");
                }
            }
            assert!(f.decode(f.encode(f64::NAN)).is_nan());
        }
        // The edges named by the formats.
        assert_eq!(F8::E4M3FN.encode(464.0), 0x7e); // tie to 448 (even)
        assert_eq!(F8::E4M3FN.encode(464.1), 0x7f); // NaN: no infinity
        assert_eq!(F8::E5M2.encode(61440.0), 0x7c); // tie to 2^16: infinity
        assert_eq!(F8::E5M2.encode(-1e9), 0xfc);
        assert_eq!(F8::E4M3FN.encode(-0.0), 0x80);
    }

    #[test]
    fn e8m0_is_a_power_of_two_with_a_nan_code() {
        for c in 0..=254u8 {
            let v = e8m0(c).unwrap();
            let mut want = 1.0f64;
            for _ in 0..(c as i32 - 127).abs() {
                want = if c >= 127 { want * 2.0 } else { want / 2.0 };
            }
            assert_eq!(v, want, "{c}");
        }
        assert_eq!(e8m0(0xff), None);
    }
}

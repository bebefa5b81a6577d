//! Float formatting identical to MLIR's `printFloatValue`, which is built on
//! LLVM's `APFloat::toString`: six-digit exponential form when it round-trips,
//! else the shortest-precision default form, else the raw bits in hex.

use crate::types::FloatKind;

/// Exact value of a float bit pattern, for the formats we can decode.
fn to_f64(kind: FloatKind, bits: u128) -> Option<f64> {
    Some(match kind {
        FloatKind::F64 => f64::from_bits(bits as u64),
        FloatKind::F32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        FloatKind::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        _ => return crate::minifloat::decode(kind, bits),
    })
}

fn mantissa_bits(kind: FloatKind) -> u32 {
    match kind {
        FloatKind::F64 => 53,
        FloatKind::F32 => 24,
        FloatKind::F16 => 11,
        FloatKind::BF16 => 8,
        _ => crate::minifloat::precision(kind).unwrap_or(24),
    }
}

/// LLVM `APFloat::toString(Str, precision, max_padding, truncate_zero)` for finite values.
fn apfloat_to_string(v: f64, precision: usize, max_padding: usize, truncate_zero: bool) -> String {
    let mut out = String::new();
    if v.is_sign_negative() {
        out.push('-');
    }
    let a = v.abs();
    if a == 0.0 {
        if max_padding == 0 {
            if truncate_zero {
                out.push_str("0.0E+0");
            } else {
                out.push_str("0.0");
                if precision > 1 {
                    out.push_str(&"0".repeat(precision - 1));
                }
                out.push_str("e+00");
            }
        } else {
            out.push('0');
        }
        return out;
    }
    // Significant digits and the decimal exponent of the first digit, rounded
    // as LLVM does: up when the first dropped digit is 5 or more (Rust's
    // formatting rounds exact ties to even), so round from 25 more digits.
    let keep = precision.max(1);
    let sci = format!("{:.*e}", keep - 1 + 25, a);
    let (mant, exp) = sci.split_once('e').unwrap();
    let mut first_exp: i64 = exp.parse().unwrap();
    let all: Vec<u8> = mant.bytes().filter(|c| c.is_ascii_digit()).collect();
    let mut digits = all[..keep].to_vec();
    if all[keep] >= b'5' {
        let mut i = keep;
        loop {
            if i == 0 {
                digits.insert(0, b'1');
                digits.pop();
                first_exp += 1;
                break;
            }
            i -= 1;
            if digits[i] == b'9' {
                digits[i] = b'0';
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    while digits.len() > 1 && *digits.last().unwrap() == b'0' {
        digits.pop();
    }
    let nd = digits.len() as i64;
    // Exponent of the last digit, as LLVM tracks it.
    let mut e = first_exp - (nd - 1);
    let scientific = if max_padding == 0 {
        true
    } else if e >= 0 {
        e as usize > max_padding || (nd + e) as usize > precision
    } else {
        let msd = e + nd - 1;
        msd < 0 && (-msd) as usize > max_padding
    };
    let d = |i: usize| digits[i] as char;
    if scientific {
        e += nd - 1;
        out.push(d(0));
        out.push('.');
        if nd == 1 && truncate_zero {
            out.push('0');
        } else {
            for i in 1..nd as usize {
                out.push(d(i));
            }
        }
        if !truncate_zero && precision as i64 > nd - 1 {
            out.push_str(&"0".repeat(precision - nd as usize + 1));
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if e >= 0 { '+' } else { '-' });
        let ae = e.unsigned_abs();
        if !truncate_zero && ae < 10 {
            out.push('0');
        }
        out.push_str(&ae.to_string());
        return out;
    }
    if e >= 0 {
        for i in 0..nd as usize {
            out.push(d(i));
        }
        out.push_str(&"0".repeat(e as usize));
        return out;
    }
    let whole = e + nd;
    let mut i = 0usize;
    if whole > 0 {
        while (i as i64) < whole {
            out.push(d(i));
            i += 1;
        }
        out.push('.');
    } else {
        out.push_str("0.");
        out.push_str(&"0".repeat((-whole) as usize));
    }
    while (i as i64) < nd {
        out.push(d(i));
        i += 1;
    }
    out
}

fn round_trips(kind: FloatKind, s: &str, bits: u128) -> bool {
    let neg = s.starts_with('-');
    let body = s.trim_start_matches('-');
    crate::parser::float_bits(kind, body, neg) == Some(bits)
}

/// Formats a float attribute value; the flag says whether hex was used.
pub fn format_float(kind: FloatKind, bits: u128) -> (String, bool) {
    if let Some(v) = to_f64(kind, bits)
        && v.is_finite()
    {
        let s = apfloat_to_string(v, 6, 0, false);
        if round_trips(kind, &s, bits) {
            return (s, false);
        }
        let prec = 2 + (mantissa_bits(kind) as usize * 59) / 196;
        let s = apfloat_to_string(v, prec, 3, true);
        if s.contains('.') {
            return (s, false);
        }
    }
    let width = kind.bit_width();
    let digits = (width as usize).div_ceil(4);
    (format!("0x{:0digits$X}", bits, digits = digits), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64s(v: f64) -> String {
        format_float(FloatKind::F64, v.to_bits() as u128).0
    }

    fn f32s(v: f32) -> String {
        format_float(FloatKind::F32, v.to_bits() as u128).0
    }

    #[test]
    fn matches_mlir_opt_outputs() {
        assert_eq!(f64s(1.5), "1.500000e+00");
        assert_eq!(f64s(-0.0), "-0.000000e+00");
        assert_eq!(f64s(123456789.0), "0x419D6F3454000000");
        assert_eq!(f32s(1.2345678), "1.23456776");
        assert_eq!(f64s(0.3), "3.000000e-01");
        assert_eq!(f64s(12345.678), "12345.678");
        assert_eq!(f64s(1.23456789012345), "1.23456789012345");
        assert_eq!(f64s(2.5e-310), "2.500000e-310");
        assert_eq!(f32s(f32::INFINITY), "0x7F800000");
        assert_eq!(format_float(FloatKind::F16, half::f16::from_f64(1.1).to_bits() as u128).0, "1.099610e+00");
        assert_eq!(format_float(FloatKind::BF16, half::bf16::from_f64(0.1).to_bits() as u128).0, "1.000980e-01");
    }
}

//! `.npy` files in and out of twin buffers.

use std::path::Path;

use crate::value::Elem;

/// An array read from a file: element type, shape and little-endian bytes.
pub struct Array {
    pub elem: Elem,
    pub shape: Vec<i64>,
    pub bytes: Vec<u8>,
}

pub fn elem_of_descr(d: &str) -> Option<Elem> {
    Some(match d.trim_start_matches(['<', '|', '=']) {
        "b1" => Elem::Int(1),
        "i1" | "u1" => Elem::Int(8),
        "i2" | "u2" => Elem::Int(16),
        "i4" | "u4" => Elem::Int(32),
        "i8" | "u8" => Elem::Int(64),
        "f2" => Elem::F16,
        "f4" => Elem::F32,
        "f8" => Elem::F64,
        _ => return None,
    })
}

pub fn read(path: &Path) -> Result<Array, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let npy = npyz::NpyFile::new(&data[..]).map_err(|e| format!("{}: not a .npy file: {e}", path.display()))?;
    let descr = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => return Err(format!("{}: structured dtype {other:?} is not supported", path.display())),
    };
    if descr.starts_with('>') {
        return Err(format!("{}: big-endian data ({descr}) is not supported", path.display()));
    }
    if npy.order() == npyz::Order::Fortran {
        return Err(format!("{}: Fortran-ordered arrays are not supported", path.display()));
    }
    let elem = elem_of_descr(&descr).ok_or_else(|| format!("{}: dtype {descr} is not supported", path.display()))?;
    let shape: Vec<i64> = npy.shape().iter().map(|d| *d as i64).collect();
    let n = shape
        .iter()
        .try_fold(1i64, |a, d| a.checked_mul(*d))
        .ok_or_else(|| format!("{}: the shape {shape:?} is too large", path.display()))?;
    let want = (n as u128) * elem.size() as u128;
    // The payload follows the header: raw little-endian elements, exactly
    // as many as the shape says.
    let payload = &data[data_offset(&data).ok_or_else(|| format!("{}: not a .npy file", path.display()))?..];
    if payload.len() as u128 != want {
        let (what, by) = if (payload.len() as u128) < want {
            ("fewer", want - payload.len() as u128)
        } else {
            ("more", payload.len() as u128 - want)
        };
        return Err(format!(
            "{}: the file holds {} bytes of data, {by} {what} than its header's shape {shape:?} of {descr} needs ({want})",
            path.display(),
            payload.len()
        ));
    }
    Ok(Array { elem, shape, bytes: payload.to_vec() })
}

/// Where the data starts: after the magic, the version, the header length
/// (2 bytes in version 1, 4 in versions 2 and 3) and the header.
fn data_offset(data: &[u8]) -> Option<usize> {
    let major = *data.get(6)?;
    let (len, at) = if major == 1 {
        (u16::from_le_bytes([*data.get(8)?, *data.get(9)?]) as usize, 10)
    } else {
        (u32::from_le_bytes(data.get(8..12)?.try_into().ok()?) as usize, 12)
    };
    let end = at + len;
    (end <= data.len()).then_some(end)
}

pub fn write(path: &Path, elem: Elem, shape: &[i64], bytes: &[u8]) -> Result<(), String> {
    write_as(path, elem, false, shape, bytes)
}

/// [`write`], integers saved as unsigned (`u1`, `u2` ...) when `unsigned`.
pub fn write_as(path: &Path, elem: Elem, unsigned: bool, shape: &[i64], bytes: &[u8]) -> Result<(), String> {
    let descr = elem.npy_descr().ok_or_else(|| format!("cannot save {} arrays as .npy", elem.name()))?;
    let unsigned_descr = descr.replace('i', "u");
    let descr = if unsigned && matches!(elem, Elem::Int(8 | 16 | 32 | 64)) { unsigned_descr.as_str() } else { descr };
    let shape_txt = match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!("({})", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_txt}, }}");
    // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat(total.div_ceil(64) * 64 - total));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + bytes.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(bytes);
    std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

//! Decoding of fuzz bytes into numbers, shared by the targets that take plain numbers.

/// Three bytes per number: mostly moderate values (so shapes and motions construct and the
/// queries run), sometimes special ones (NaN, infinities, the coordinate limits, subnormals).
pub fn numbers(data: &[u8]) -> Vec<f64> {
    const SPECIAL: [f64; 12] =
        [0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-300, 1e-7, 1e9, 2e9, 1e75, 1e76, f64::MAX];
    data.chunks_exact(3)
        .map(|c| {
            let raw = i16::from_le_bytes([c[1], c[2]]) as f64;
            match c[0] % 16 {
                0 => SPECIAL[c[1] as usize % SPECIAL.len()],
                1 => raw * 1e6,
                2 => raw * 1e-6,
                _ => raw / 3276.8,
            }
        })
        .collect()
}

//! Lower-case hexadecimal, as tokens, signatures and hashes travel in links and keys.

/// `bytes` as two lower-case hex digits each.
pub fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of `text` (hex digits, either case, an even number of them); `None` otherwise.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// [`decode`] of exactly `N` bytes.
pub fn decode_array<const N: usize>(text: &str) -> Option<[u8; N]> {
    decode(text)?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(encode(&[0, 15, 255]), "000fff");
        assert_eq!(decode("000FfF"), Some(vec![0, 15, 255]));
        assert_eq!(decode("abc"), None);
        assert_eq!(decode("zz"), None);
        assert_eq!(decode("é1"), None);
        assert_eq!(decode_array::<2>("0a0b"), Some([10, 11]));
        assert_eq!(decode_array::<2>("0a0b0c"), None);
    }
}

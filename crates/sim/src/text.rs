//! What may appear in text players see: names and chat lines keep letters of
//! every script but lose the invisible characters that make one string look
//! like another (bidirectional overrides, zero-width joiners and spaces, tag
//! characters): Unicode's format characters (general category Cf).

/// Unicode 15's format characters (category Cf), as inclusive ranges.
const FORMAT_CHARS: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Whether `c` is a Unicode format character (invisible, and able to reorder
/// or disguise the text around it).
pub fn is_format_char(c: char) -> bool {
    let c = u32::from(c);
    FORMAT_CHARS.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// Whether `c` is dropped from names and chat: control or format characters.
pub fn is_hidden_char(c: char) -> bool {
    c.is_control() || is_format_char(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spoofing_characters_are_hidden_and_letters_are_not() {
        for c in ['\u{202E}', '\u{202D}', '\u{200B}', '\u{200D}', '\u{2066}', '\u{FEFF}', '\u{E0041}', '\u{00AD}', '\u{7}'] {
            assert!(is_hidden_char(c), "{:04X}", u32::from(c));
        }
        for c in ['a', 'é', 'Ж', '漢', 'ش', '😀', ' ', '^'] {
            assert!(!is_hidden_char(c), "{c}");
        }
    }
}

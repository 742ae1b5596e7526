//! Sixteen bytes at a time where the target has wasm's SIMD (`simd128`,
//! which the npm build enables), eight at a time (a `u64`) elsewhere: the
//! searches that a large body's scans, its UTF-8 check and the SSE parser
//! spend their time in. A block's answer is a mask, a bit per byte with the
//! first byte lowest, so callers count trailing zeros whatever the width;
//! the eight-byte searches make only the lowest bit exact, which is all
//! they are read for.
//!
//! The crate denies `unsafe` but in two kinds of blocks, each saying why it
//! is sound. Here: loading a 16-byte array as one `v128` (wasm loads it
//! without any alignment requirement), and taking bytes that passed the
//! UTF-8 check as a `&str` or a `String`. In `transport::fetch`: copying a
//! chunk into a buffer's spare room.

/// Bytes per block.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub const WIDTH: usize = 16;
/// Bytes per block.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub const WIDTH: usize = 8;

/// A block of [`WIDTH`] bytes.
type Block = [u8; WIDTH];

/// The block starting at `at`, if `bytes` holds a whole one there.
#[inline(always)]
fn block_at(bytes: &[u8], at: usize) -> Option<&Block> {
    bytes.get(at..at.checked_add(WIDTH)?).and_then(|slice| slice.try_into().ok())
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
mod imp {
    use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128, v128_load, v128_or};

    #[inline(always)]
    fn load(block: &[u8; 16]) -> v128 {
        // SAFETY: `block` is a reference to 16 readable bytes, and
        // `v128.load` has no alignment requirement.
        unsafe { v128_load(block.as_ptr().cast()) }
    }

    /// A bit for each quote, backslash or control character.
    #[inline(always)]
    pub fn string_specials(block: &[u8; 16]) -> u32 {
        let v = load(block);
        let special = v128_or(v128_or(u8x16_eq(v, u8x16_splat(b'"')), u8x16_eq(v, u8x16_splat(b'\\'))), u8x16_lt(v, u8x16_splat(0x20)));
        u32::from(u8x16_bitmask(special))
    }

    /// A bit for each line feed or carriage return.
    #[inline(always)]
    pub fn line_ends(block: &[u8; 16]) -> u32 {
        let v = load(block);
        u32::from(u8x16_bitmask(v128_or(u8x16_eq(v, u8x16_splat(b'\n')), u8x16_eq(v, u8x16_splat(b'\r')))))
    }

    /// A bit for each byte past ASCII.
    #[inline(always)]
    pub fn non_ascii(block: &[u8; 16]) -> u32 {
        u32::from(u8x16_bitmask(load(block)))
    }

    #[inline(always)]
    pub fn structure(block: &[u8; 16]) -> super::Structure {
        let v = load(block);
        let bits = |byte: u8| u32::from(u8x16_bitmask(u8x16_eq(v, u8x16_splat(byte))));
        // `[` and `]` differ from `{` and `}` by the bit 0x20 alone.
        let folded = v128_or(v, u8x16_splat(0x20));
        let folded_bits = |byte: u8| u32::from(u8x16_bitmask(u8x16_eq(folded, u8x16_splat(byte))));
        super::Structure { backslashes: bits(b'\\'), quotes: bits(b'"'), opens: folded_bits(b'{'), closes: folded_bits(b'}') }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;

    /// The high bit of each byte of `w` below `n` (n <= 128), exact for the
    /// lowest: a borrow starts only at such a byte.
    #[inline(always)]
    fn below(w: u64, n: u8) -> u64 {
        w.wrapping_sub(ONES * u64::from(n)) & !w & HIGHS
    }

    /// One bit per byte from the high bits a mask sets: only the lowest needs to be exact.
    #[inline(always)]
    fn bits(highs: u64) -> u32 {
        match highs {
            0 => 0,
            found => 1 << (found.trailing_zeros() / 8),
        }
    }

    /// The lowest bit for the first quote, backslash or control character.
    #[inline(always)]
    pub fn string_specials(block: &[u8; 8]) -> u32 {
        let w = u64::from_le_bytes(*block);
        bits(below(w ^ (ONES * u64::from(b'"')), 1) | below(w ^ (ONES * u64::from(b'\\')), 1) | below(w, 0x20))
    }

    /// The lowest bit for the first line feed or carriage return.
    #[inline(always)]
    pub fn line_ends(block: &[u8; 8]) -> u32 {
        let w = u64::from_le_bytes(*block);
        bits(below(w ^ (ONES * u64::from(b'\n')), 1) | below(w ^ (ONES * u64::from(b'\r')), 1))
    }

    /// The lowest bit for the first byte past ASCII.
    #[inline(always)]
    pub fn non_ascii(block: &[u8; 8]) -> u32 {
        bits(u64::from_le_bytes(*block) & HIGHS)
    }

    /// The high bit of each byte of `w` equal to `byte`, and of no other: the
    /// low seven bits of a byte that differs carry into its high bit, without
    /// a borrow into the next byte as [`below`] has.
    #[inline(always)]
    fn exact(w: u64, byte: u8) -> u32 {
        let x = w ^ (ONES * u64::from(byte));
        let highs = !(((x & !HIGHS) + !HIGHS) | x) & HIGHS;
        // The eight high bits gathered into the top byte by one multiply.
        ((highs >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    #[inline(always)]
    pub fn structure(block: &[u8; 8]) -> super::Structure {
        let w = u64::from_le_bytes(*block);
        // `[` and `]` differ from `{` and `}` by the bit 0x20 alone.
        let folded = w | (ONES * 0x20);
        super::Structure { backslashes: exact(w, b'\\'), quotes: exact(w, b'"'), opens: exact(folded, b'{'), closes: exact(folded, b'}') }
    }
}

/// Every bit of a block's mask.
const ALL: u32 = (1 << WIDTH) - 1;

/// Where a block's backslashes, quotes and brackets are, a bit per byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Structure {
    /// Backslashes.
    pub backslashes: u32,
    /// `"`.
    pub quotes: u32,
    /// `{` and `[`.
    pub opens: u32,
    /// `}` and `]`.
    pub closes: u32,
}

/// Where the block starting at `at` has its backslashes, quotes and
/// brackets, if `bytes` holds a whole block there.
#[inline(always)]
pub fn structure(bytes: &[u8], at: usize) -> Option<Structure> {
    // Not `Option::map`: at opt-level "z" that stayed a call for each block,
    // a quarter of a left-out container's scan (a CPU profile of the bench's
    // structured result).
    let block = block_at(bytes, at)?;
    Some(imp::structure(block))
}

/// A bit for each byte of a block that lies inside a string (an opening
/// quote counts as inside, a closing one as outside), given where the
/// block's `quotes` are and whether it starts inside one; for a block
/// without a backslash, where every quote opens or closes.
#[inline(always)]
pub fn inside_strings(quotes: u32, starts_inside: bool) -> u32 {
    let mut parity = quotes;
    parity ^= parity << 1;
    parity ^= parity << 2;
    parity ^= parity << 4;
    parity ^= parity << 8;
    if starts_inside {
        !parity & ALL
    } else {
        parity & ALL
    }
}

/// The offset of the first byte from `at` that `$wanted` picks: a block at a
/// time by `$in_block`'s mask, then a byte at a time near the end. A macro,
/// not a function taking the mask function: at opt-level "z" the shim that
/// calls a function item through `Fn` stayed a call per block, as much time
/// as the rest of a long string's scan (a CPU profile of 5 MiB reads).
macro_rules! first {
    ($bytes:expr, $at:expr, $in_block:path, |$byte:ident| $wanted:expr) => {{
        let (bytes, mut at): (&[u8], usize) = ($bytes, $at);
        loop {
            let Some(block) = block_at(bytes, at) else {
                break bytes.get(at..).and_then(|rest| rest.iter().position(|&$byte: &u8| $wanted)).map(|i| at + i);
            };
            match $in_block(block) {
                0 => at += WIDTH,
                found => break Some(at + found.trailing_zeros() as usize),
            }
        }
    }};
}

/// Where the run of a string's plain bytes from `at` ends: the offset of the
/// first quote, backslash or control character, or the end of `bytes`.
#[inline(always)]
pub fn plain_run_end(bytes: &[u8], at: usize) -> usize {
    first!(bytes, at, imp::string_specials, |byte| byte == b'"' || byte == b'\\' || byte < 0x20).unwrap_or(bytes.len().max(at))
}

/// Where the first line feed or carriage return in `bytes` is.
pub fn line_end(bytes: &[u8]) -> Option<usize> {
    first!(bytes, 0, imp::line_ends, |byte| byte == b'\n' || byte == b'\r')
}

/// How many of `bytes`' first bytes are ASCII.
pub fn ascii_prefix(bytes: &[u8]) -> usize {
    first!(bytes, 0, imp::non_ascii, |byte| !byte.is_ascii()).unwrap_or(bytes.len())
}

/// Whether `bytes` are UTF-8: no stray continuation byte, no overlong form,
/// no surrogate, nothing past U+10FFFF. Runs of ASCII go a block at a time,
/// every other character by its lead byte. Written out rather than
/// `std::str::from_utf8`, whose 365 expressions the first call's module
/// carried for this alone.
fn is_utf8(bytes: &[u8]) -> bool {
    let mut at = 0;
    while let Some(&lead) = bytes.get(at) {
        if lead.is_ascii() {
            at += bytes.get(at..).map_or(1, ascii_prefix);
            continue;
        }
        let (length, least) = match lead {
            0xC0..=0xDF => (2, 0x80),
            0xE0..=0xEF => (3, 0x800),
            0xF0..=0xF7 => (4, 0x1_0000),
            _ => return false,
        };
        let Some(tail) = bytes.get(at + 1..at + length) else { return false };
        let mut point = u32::from(lead) & (0x7F >> length);
        for &byte in tail {
            if byte & 0xC0 != 0x80 {
                return false;
            }
            point = (point << 6) | u32::from(byte & 0x3F);
        }
        if point < least || point > 0x10_FFFF || (0xD800..=0xDFFF).contains(&point) {
            return false;
        }
        at += length;
    }
    true
}

/// `bytes` as a `&str` if they are UTF-8.
///
/// ```
/// use mcp_wasm::protocol::wide::to_str;
/// assert_eq!(to_str(b"plain ascii, then caf\xc3\xa9"), Some("plain ascii, then café"));
/// assert_eq!(to_str(b"sixteen bytes ok \xff"), None);
/// ```
#[allow(unsafe_code)]
pub fn to_str(bytes: &[u8]) -> Option<&str> {
    // SAFETY: `is_utf8` accepted these very bytes as UTF-8.
    is_utf8(bytes).then(|| unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// `bytes` as a `String` if [`to_str`] accepts them, else the bytes back.
#[allow(unsafe_code)]
pub fn into_string(bytes: Vec<u8>) -> Result<String, Vec<u8>> {
    if to_str(&bytes).is_none() {
        return Err(bytes);
    }
    // SAFETY: `to_str` accepted these very bytes as UTF-8.
    Ok(unsafe { String::from_utf8_unchecked(bytes) })
}

#[cfg(test)]
mod tests {
    use super::to_str;

    /// `to_str` agrees with `std` on `sequence` alone and after ASCII runs
    /// that put it at every place in a block, and before one.
    fn agrees(sequence: &[u8]) {
        for lead in [0, 1, super::WIDTH - 1, super::WIDTH, 2 * super::WIDTH + 3] {
            let mut bytes = vec![b'a'; lead];
            bytes.extend_from_slice(sequence);
            assert_eq!(to_str(&bytes).is_some(), std::str::from_utf8(&bytes).is_ok(), "{bytes:x?}");
            bytes.extend_from_slice(&[b'z'; 20]);
            assert_eq!(to_str(&bytes).is_some(), std::str::from_utf8(&bytes).is_ok(), "{bytes:x?}");
        }
    }

    #[test]
    fn agrees_with_std_on_every_sequence_of_two_bytes_and_every_three_byte_lead() {
        for first in 0..=255u8 {
            agrees(&[first]);
            for second in 0..=255u8 {
                agrees(&[first, second]);
            }
        }
        for first in 0xE0..=0xEFu8 {
            for second in 0..=255u8 {
                for third in 0..=255u8 {
                    let bytes = [first, second, third];
                    assert_eq!(to_str(&bytes).is_some(), std::str::from_utf8(&bytes).is_ok(), "{bytes:x?}");
                }
            }
        }
    }

    #[test]
    fn agrees_with_std_on_four_byte_forms_and_their_edges() {
        let edges = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF];
        for first in 0xF0..=0xFFu8 {
            for second in 0..=255u8 {
                for third in edges {
                    for fourth in edges {
                        agrees(&[first, second, third, fourth]);
                    }
                }
            }
        }
        // Characters cut short at the end, and whole texts.
        for text in ["café", "日本語のテキスト", "😀 and 𐍈", "\u{10FFFF}\u{D7FF}\u{E000}"] {
            agrees(text.as_bytes());
            for cut in 1..text.len() {
                agrees(&text.as_bytes()[..cut]);
            }
        }
    }
}

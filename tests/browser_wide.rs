//! The block searches of `protocol::wide` against a byte-by-byte search, on
//! random bytes: natively (eight bytes at a time) and, in the browser tiers,
//! as the npm build runs them (wasm SIMD, sixteen at a time).
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use mcp_wasm::protocol::wide::{ascii_prefix, inside_strings, into_string, line_end, plain_run_end, structure, to_str, Structure, WIDTH};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Mostly letters, now and then a quote, backslash, control or high byte.
fn random_bytes(state: &mut u64, length: usize) -> Vec<u8> {
    (0..length)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            let byte = (*state >> 8) as u8;
            match *state % 40 {
                0 => b'"',
                1 => b'\\',
                2 => byte & 0x1f,
                3 => 0x80 | byte,
                4 => 0xc3,
                5 => 0xa9,
                6 => b'{',
                7 => b']',
                8 => b'[',
                9 => b'}',
                10 => b'\n',
                11 => b'\r',
                _ => b'a' + byte % 26,
            }
        })
        .collect()
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn block_searches_end_where_a_byte_by_byte_search_does() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for length in 0..80 {
        for _ in 0..200 {
            let bytes = random_bytes(&mut state, length);
            for from in [0, length / 3] {
                let plain = bytes[from..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).map_or(length, |i| from + i);
                assert_eq!(plain_run_end(&bytes, from), plain, "{bytes:?} from {from}");
            }
            assert_eq!(ascii_prefix(&bytes), bytes.iter().position(|b| !b.is_ascii()).unwrap_or(length), "{bytes:?}");
            for at in [0, 1, length / 2] {
                let Some(found) = structure(&bytes, at) else {
                    assert!(at + WIDTH > length);
                    continue;
                };
                let bits = |wanted: &[u8]| (0..WIDTH).filter(|i| wanted.contains(&bytes[at + i])).fold(0, |mask, i| mask | 1 << i);
                let expected = Structure { backslashes: bits(b"\\"), quotes: bits(b"\""), opens: bits(b"{["), closes: bits(b"}]") };
                assert_eq!(found, expected, "{bytes:?} at {at}");
                for starts_inside in [false, true] {
                    let mut inside = starts_inside;
                    let expected = (0..WIDTH).fold(0, |mask, i| {
                        inside ^= bytes[at + i] == b'"';
                        if inside {
                            mask | 1 << i
                        } else {
                            mask
                        }
                    });
                    assert_eq!(inside_strings(found.quotes, starts_inside), expected, "{bytes:?} at {at}");
                }
            }
            assert_eq!(line_end(&bytes), bytes.iter().position(|&b| b == b'\n' || b == b'\r'), "{bytes:?}");
            assert_eq!(to_str(&bytes), std::str::from_utf8(&bytes).ok());
            assert_eq!(into_string(bytes.clone()), String::from_utf8(bytes.clone()).map_err(|_| bytes));
        }
    }
}

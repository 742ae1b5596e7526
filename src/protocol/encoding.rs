//! The byte encodings the protocol needs: base64 (RFC 4648, standard and
//! URL-safe) and percent-decoding. Small enough not to need a crate, and
//! total: no input makes them panic.

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn encode(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let byte = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (byte(0) << 16) | (byte(1) << 8) | byte(2);
        for i in 0..4 {
            if i <= chunk.len() {
                let digit = ((n >> (18 - 6 * i)) & 63) as usize;
                out.push(char::from(alphabet.get(digit).copied().unwrap_or(b'=')));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 with padding (HTTP Basic credentials, header values).
pub fn base64(bytes: &[u8]) -> String {
    encode(bytes, STANDARD, true)
}

/// Base64url without padding (RFC 4648 §5): PKCE, JWTs.
pub fn base64url(bytes: &[u8]) -> String {
    encode(bytes, URL_SAFE, false)
}

/// Decodes base64 in either alphabet, with or without padding; whitespace is
/// ignored. `None` for any other character.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace() && *b != b'=').map(value).collect::<Option<_>>()?;
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, d)| n | (u32::from(*d) << (18 - 6 * i)));
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// How [`percent_decode`] treats what is not a valid escape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escapes {
    /// A `%` without two hex digits is kept as it is.
    Lenient,
    /// A `%` without two hex digits makes the whole text invalid.
    Strict,
}

/// Decodes `%XX` escapes (and `+` as a space when `plus_is_space`, as forms
/// encode it) into bytes.
pub fn percent_decode(text: &str, plus_is_space: bool, escapes: Escapes) -> Option<Vec<u8>> {
    let hex = |b: Option<&u8>| b.and_then(|b| char::from(*b).to_digit(16));
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some((&first, tail)) = rest.split_first() {
        match first {
            b'%' => match (hex(tail.first()), hex(tail.get(1))) {
                (Some(high), Some(low)) => {
                    out.push((high * 16 + low) as u8);
                    rest = tail.get(2..).unwrap_or_default();
                    continue;
                }
                _ if escapes == Escapes::Strict => return None,
                _ => out.push(b'%'),
            },
            b'+' if plus_is_space => out.push(b' '),
            other => out.push(other),
        }
        rest = tail;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_both_alphabets() {
        assert_eq!(base64(b"client:secret"), "Y2xpZW50OnNlY3JldA==");
        assert_eq!(base64(&[0xfb, 0xff, 0xbf]), "+/+/");
        assert_eq!(base64url(&[0xfb, 0xff, 0xbf]), "-_-_");
        assert_eq!(base64url(b"ab"), "YWI");
        assert_eq!(base64(b""), "");
        assert_eq!(base64_decode("Y2xpZW50OnNlY3JldA=="), Some(b"client:secret".to_vec()));
        assert_eq!(base64_decode("YWI"), Some(b"ab".to_vec()));
        assert_eq!(base64_decode("*"), None);
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b+c", true, Escapes::Lenient), Some(b"a b c".to_vec()));
        assert_eq!(percent_decode("a+b", false, Escapes::Lenient), Some(b"a+b".to_vec()));
        assert_eq!(percent_decode("100%", false, Escapes::Lenient), Some(b"100%".to_vec()));
        assert_eq!(percent_decode("%zz", false, Escapes::Lenient), Some(b"%zz".to_vec()));
        assert_eq!(percent_decode("%zz", false, Escapes::Strict), None);
        assert_eq!(percent_decode("%4", false, Escapes::Strict), None);
        assert_eq!(percent_decode("%C3%A9", false, Escapes::Strict), Some("é".as_bytes().to_vec()));
    }
}

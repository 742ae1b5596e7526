//! A [`serde_json::Value`] written as JSON text, byte for byte as
//! `serde_json::to_string` writes it (no spaces, keys in their order, the same
//! escapes), without serde's serializer: the messages the client sends are
//! written by hand ([`crate::protocol::jsonrpc::Message::to_json`]), and
//! serde's generic serializer, with its `Serialize` impls for every type it
//! met, was 1 KB gzip of the module a page loads first.

use serde_json::{Number, Value};

/// The value as JSON text.
///
/// ```
/// use mcp_wasm::protocol::json_write::to_text;
/// let value = serde_json::json!({"b": [1, -2, 0.5, null, true], "a": "é\n\u{1}"});
/// assert_eq!(to_text(&value), serde_json::to_string(&value).unwrap());
/// ```
pub fn to_text(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// Appends the value's JSON text to `out`.
pub fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, key);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

/// Appends a number: integers digit by digit, floats as serde_json writes them.
pub fn write_number(out: &mut String, n: &Number) {
    if let Some(i) = n.as_i64() {
        write_i64(out, i);
    } else if let Some(u) = n.as_u64() {
        write_u64(out, u);
    } else {
        write_float(out, n);
    }
}

// Apart, so that a page that never sends a fraction never loads the float printer.
#[inline(never)]
fn write_float(out: &mut String, n: &Number) {
    out.push_str(&serde_json::to_string(n).unwrap_or_else(|_| "null".into()));
}

/// Appends an integer in decimal.
pub fn write_i64(out: &mut String, i: i64) {
    if i < 0 {
        out.push('-');
    }
    write_u64(out, i.unsigned_abs());
}

/// Appends an unsigned integer in decimal.
pub fn write_u64(out: &mut String, mut u: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        if let Some(slot) = digits.get_mut(start) {
            *slot = b'0' + (u % 10) as u8;
        }
        u /= 10;
        if u == 0 || start == 0 {
            break;
        }
    }
    for &digit in digits.get(start..).unwrap_or_default() {
        out.push(char::from(digit));
    }
}

/// Appends a JSON string: `"` and `\` escaped, and the control characters, with the
/// short escapes where JSON has them.
pub fn write_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut plain = 0;
    for (at, byte) in s.bytes().enumerate() {
        let short = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            0x00..=0x1f => b'u',
            _ => continue,
        };
        out.push_str(s.get(plain..at).unwrap_or_default());
        out.push('\\');
        out.push(char::from(short));
        if short == b'u' {
            out.push_str(if byte < 0x10 { "000" } else { "001" });
            out.extend(char::from_digit(u32::from(byte & 0xf), 16));
        }
        plain = at + 1;
    }
    out.push_str(s.get(plain..).unwrap_or_default());
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::to_text;
    use serde_json::{json, Value};

    fn same(value: &Value) {
        assert_eq!(to_text(value), serde_json::to_string(value).unwrap(), "{value:?}");
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let every_byte: String = (0u8..=0x7f).map(char::from).collect();
        same(&json!(every_byte));
        same(&json!("naïve ✓ 😀 \u{2028}\u{7f} \"quoted\" back\\slash"));
        for n in [json!(0), json!(-0), json!(7), json!(-7), json!(i64::MIN), json!(i64::MAX), json!(u64::MAX)] {
            same(&n);
        }
        for f in [0.5, -0.0, 1e21, 1e-7, 123456789.125, f64::MAX, f64::MIN_POSITIVE, 1.0] {
            same(&json!(f));
        }
        same(&json!({"jsonrpc": "2.0", "z": [], "a": {}, "nested": [[1, [2, {"k": null}]], {"t": true, "f": false}]}));
        same(&json!([]));
        same(&json!({}));
    }

    #[test]
    fn keeps_the_key_order() {
        let value: Value = serde_json::from_str(r#"{"z":1,"a":2,"m":{"y":3,"b":4}}"#).unwrap();
        assert_eq!(to_text(&value), r#"{"z":1,"a":2,"m":{"y":3,"b":4}}"#);
    }
}

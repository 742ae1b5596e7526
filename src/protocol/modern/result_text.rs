//! A complete modern result without a tree: the transport kept a large
//! result as the server's text, and all [`super::classify_result`] does to a
//! complete one is take `resultType` out. Here that member is cut out of
//! the text itself, so that the result reaches JS as one `JSON.parse`, as a
//! large legacy result does.

use crate::protocol::pick::{is_space, offset_in, sole_member};

/// The text of a complete result, less its `resultType` member, as
/// [`super::classify_result`] would give it; the text comes back unchanged
/// (as `Err`) whenever only the parsed value can tell: another
/// `resultType`, one written with escapes or given twice, or a text that is
/// not an object.
///
/// # Errors
/// The text itself, for the caller to parse.
pub fn complete_text(mut text: String) -> Result<String, String> {
    let Some(found) = find_result_type(&text) else { return Err(text) };
    let Some((start, end)) = found else { return Ok(text) };
    // `drain`, which the first call's module has already, rather than `replace_range`'s splice.
    text.drain(start..end);
    Ok(text)
}

/// `None` when the text must be parsed; `Some(None)` for a complete result
/// without `resultType`; otherwise the bytes to cut, with one comma.
fn find_result_type(text: &str) -> Option<Option<(usize, usize)>> {
    let Some(value) = sole_member(text, "resultType")? else { return Some(None) };
    if value != "\"complete\"" {
        return None;
    }
    let bytes = text.as_bytes();
    let value_start = offset_in(text, value)?;
    let value_end = value_start.checked_add(value.len())?;
    // A key read without a copy has no escapes: its bytes are the name's.
    let colon = skip_space_back(bytes, value_start)?.checked_sub(1)?;
    (bytes.get(colon) == Some(&b':')).then_some(())?;
    let key_start = skip_space_back(bytes, colon)?.checked_sub(KEY.len())?;
    (bytes.get(key_start..key_start + KEY.len()) == Some(KEY)).then_some(())?;
    let before = skip_space_back(bytes, key_start)?.checked_sub(1)?;
    match bytes.get(before)? {
        // Not the first member: the comma before it goes with it.
        b',' => Some(Some((before, value_end))),
        // The first member: the comma after it, if another member follows.
        b'{' => {
            let after = skip_space(bytes, value_end);
            match bytes.get(after)? {
                b',' => Some(Some((key_start, after + 1))),
                b'}' => Some(Some((key_start, value_end))),
                _ => None,
            }
        }
        _ => None,
    }
}

const KEY: &[u8] = b"\"resultType\"";

/// The position after the whitespace that ends at `end`.
fn skip_space_back(bytes: &[u8], end: usize) -> Option<usize> {
    let head = bytes.get(..end)?;
    Some(head.iter().rposition(|b| !is_space(*b)).map_or(0, |i| i + 1))
}

/// The first position at or after `start` that is not whitespace.
fn skip_space(bytes: &[u8], start: usize) -> usize {
    bytes.get(start..).map_or(start, |tail| start + tail.iter().take_while(|b| is_space(**b)).count())
}

#[cfg(test)]
mod tests {
    use super::complete_text;
    use crate::protocol::modern::{classify_result, Outcome};
    use serde_json::Value;

    /// The text path gives what the parsed path gives, key order included.
    fn agrees(text: &str) {
        let stripped = complete_text(text.to_owned()).unwrap();
        let parsed: Value = serde_json::from_str(text).unwrap();
        let Outcome::Complete(expected) = classify_result(parsed).unwrap() else { panic!("not complete: {text}") };
        let got: Value = serde_json::from_str(&stripped).unwrap_or_else(|e| panic!("{stripped:?}: {e}"));
        assert_eq!(got, expected, "{text}");
        assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&expected).unwrap(), "key order of {text}");
    }

    #[test]
    fn result_type_is_cut_wherever_it_stands() {
        for text in [
            r#"{"resultType":"complete","content":[]}"#,
            r#"{"resultType":"complete","content":[],"structuredContent":{},"isError":false}"#,
            r#"{"a":1,"resultType":"complete","b":2,"c":3}"#,
            r#"{"content":[],"resultType":"complete"}"#,
            r#"{"a":1,"resultType":"complete","b":{"resultType":"task"}}"#,
            r#"{ "resultType" : "complete" , "a" : "x" }"#,
            "{\n  \"a\": 1,\n  \"resultType\": \"complete\"\n}",
            r#"{"resultType":"complete"}"#,
            r#"{"content":[{"type":"text","text":"\"resultType\":\"task\""}]}"#,
            r#"{}"#,
        ] {
            agrees(text);
        }
    }

    #[test]
    fn what_only_the_parsed_value_can_tell_comes_back() {
        for text in [
            r#"{"resultType":"task","task":{}}"#,
            r#"{"resultType":"input_required","requestState":"s"}"#,
            r#"{"resultType":"compl\u0065te"}"#,
            r#"{"result\u0054ype":"complete"}"#,
            r#"{"resultType":"complete","resultType":"complete"}"#,
            r#"{"resultType":7}"#,
            r#"[1,2]"#,
            r#"{"a":1} trailing"#,
        ] {
            assert_eq!(complete_text(text.to_owned()), Err(text.to_owned()), "{text}");
        }
    }
}

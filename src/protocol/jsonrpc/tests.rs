use super::*;
use serde_json::json;

fn one(text: &str) -> Result<Message, DecodeError> {
    decode(text, false).map(|mut v| v.remove(0))
}

/// `text` with trailing white space, which JSON allows and every scan must read past.
fn spaced(text: &str) -> String {
    format!("{text}{}", " ".repeat(64))
}

#[test]
fn decodes_each_message_kind() {
    assert_eq!(
        one(r#"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#),
        Ok(Message::Response { id: Some(RequestId::Number(1)), outcome: Ok(json!({"ok": true})) })
    );
    assert_eq!(
        one(r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"nope","data":[1]}}"#),
        Ok(Message::Response {
            id: Some(RequestId::String("a".into())),
            outcome: Err(ErrorObject { code: -32601, message: "nope".into(), data: Some(json!([1])) }),
        })
    );
    assert_eq!(
        one(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request"}}"#),
        Ok(Message::Response { id: None, outcome: Err(ErrorObject::new(-32000, "Bad Request")) })
    );
    assert_eq!(
        one(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#),
        Ok(Message::Notification { method: "notifications/progress".into(), params: Some(json!({"progress": 1}).into()) })
    );
    assert_eq!(
        one(r#"{"jsonrpc":"2.0","id":"s-1","method":"ping"}"#),
        Ok(Message::Request { id: RequestId::String("s-1".into()), method: "ping".into(), params: None })
    );
}

#[test]
fn round_trips_through_json() {
    let messages = [
        Message::Request { id: RequestId::Number(7), method: "tools/list".into(), params: Some(json!({}).into()) },
        Message::Notification { method: "notifications/initialized".into(), params: None },
        Message::Response { id: Some(RequestId::String("x".into())), outcome: Ok(json!({})) },
        Message::Response { id: Some(RequestId::Number(2)), outcome: Err(ErrorObject::new(-32601, "m")) },
    ];
    for message in messages {
        assert_eq!(one(&message.to_json()), Ok(message));
    }
}

#[test]
fn malformed_json_is_a_syntax_error() {
    for text in ["", "{", "{\"jsonrpc\":\"2.0\",}", "\u{0}", "nul", "{\"a\":1}garbage"] {
        assert!(matches!(decode(text, false), Err(DecodeError::Syntax(_))), "{text:?}");
    }
}

#[test]
fn wrong_shapes_are_shape_errors() {
    let cases = [
        "42",
        "\"text\"",
        "null",
        r#"{"id":1,"result":{}}"#,
        r#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":2,"id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0"}"#,
        r#"{"jsonrpc":"2.0","id":1}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"result":{}}"#,
        // serde_json reads `-0` as a float, which `decode` refuses as an id.
        r#"{"jsonrpc":"2.0","id":-0,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#,
        r#"{"jsonrpc":"2.0","id":true,"result":{}}"#,
        r#"{"jsonrpc":"2.0","method":7}"#,
        r#"{"jsonrpc":"2.0","method":"x","params":"str"}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":"boom"}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#,
        "[]",
    ];
    for text in cases {
        assert!(matches!(decode(text, true), Err(DecodeError::Shape(_))), "{text}");
    }
}

#[test]
fn batches_only_where_allowed() {
    let batch = r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":1,"result":{}}]"#;
    assert_eq!(decode(batch, true).map(|v| v.len()), Ok(2));
    assert!(matches!(decode(batch, false), Err(DecodeError::Shape(_))));
    // One bad member spoils the batch rather than being silently dropped.
    assert!(decode(r#"[{"jsonrpc":"2.0","method":"a"},{"x":1}]"#, true).is_err());
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let text = "[".repeat(100_000);
    assert!(decode(&text, true).is_err());
}

#[test]
fn raw_results_are_the_exact_text_of_single_responses() {
    // Padded with whitespace, which JSON allows anywhere between tokens.
    let text = spaced(r#"{"jsonrpc":"2.0","id":7,"result":{"z":1, "a":[1,2,{"k":"v"}]}}"#);
    assert_eq!(raw_result(&text), Some((RequestId::Number(7), r#"{"z":1, "a":[1,2,{"k":"v"}]}"#)));
    assert_eq!(raw_result(&spaced(r#"{"result":{},"id":"x","jsonrpc":"2.0"}"#)), Some((RequestId::String("x".into()), "{}")));
    assert_eq!(raw_result(&spaced(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}"#)), None);
    assert_eq!(raw_result(&spaced(r#"{"jsonrpc":"2.0","method":"m","params":{}}"#)), None);
    assert_eq!(raw_result(&spaced(r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#)), None);
    assert_eq!(raw_result(&spaced(r#"{"jsonrpc":"2.0","id":1,"result":"#)), None);
    // However small, and a `null` result is left to the parser.
    assert_eq!(raw_result(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#), Some((RequestId::Number(7), "{}")));
    assert_eq!(raw_result(r#"{"jsonrpc":"2.0","id":7,"result":null}"#), None);
}

#[test]
fn raw_results_only_of_what_decode_reads_as_that_response() {
    // Found by fuzzing (fuzz/regressions/jsonrpc): each of these once gave a
    // raw result, which the session kept for a pending request of that id
    // and handed to JS with the next, unrelated response to it.
    for text in [
        r#"{"id":3,"result":{}}"#,
        r#"{"jsonrpc":"1.0","id":3,"result":{}}"#,
        r#"[3, {"big":1}]"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"ping","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":null,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{},"error":null}"#,
        r#"{"jsonrpc":"2.0","id":3,"params":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":3,"params":null,"result":{}}"#,
    ] {
        let text = spaced(text);
        assert!(!matches!(decode(&text, true).as_deref(), Ok([Message::Response { id: Some(_), outcome: Ok(_) }])), "{text}");
        assert_eq!(raw_result(&text), None, "{text}");
    }
    let text = spaced(r#" {"params":[],"jsonrpc":"2.0","id":3,"result":{"a":1}}"#);
    assert_eq!(raw_result(&text), Some((RequestId::Number(3), r#"{"a":1}"#)));
}

#[test]
fn raw_results_only_for_texts_decode_accepts() {
    for refused in [r#"{"jsonrpc":"2.0","id":1,"result":{"n":5e700}}"#, r#"{"jsonrpc":"2.0","id":1,"result":{"s":"\ud800"}}"#] {
        let text = spaced(refused);
        assert!(decode(&text, true).is_err(), "{refused}");
        assert_eq!(raw_result(&text), None, "{refused}");
        assert!(decode_or_raw(text, true).is_err(), "{refused}");
    }
    let text = spaced(r#"{"jsonrpc":"2.0","id":1,"result":{"n":1e300,"s":"\ud83d\ude00"}}"#);
    let result = r#"{"n":1e300,"s":"\ud83d\ude00"}"#;
    assert_eq!(decode_or_raw(text.clone(), true), Ok(Decoded::RawResult(RequestId::Number(1), result.to_owned())));
}

/// Random JSON from pieces that hit every rule of the scan: numbers with
/// exponents, strings with escapes (surrogates, escaped backslashes, quotes)
/// and brackets at every alignment, and nesting to past serde_json's limit.
pub(crate) fn random_json(next: &mut impl FnMut() -> usize, depth: usize, out: &mut String) {
    const NUMBERS: [&str; 9] =
        ["0", "-12.5e-7", "6.02E23", "1e308", "9e308", "1e400", "2E+10", "123456789012345678901234567890e290", "1e-999"];
    const PIECES: [&str; 20] = [
        "a",
        "[",
        "]",
        "{",
        "}",
        " ",
        "7",
        "e",
        "u",
        r"\\",
        r"\\u",
        r#"\""#,
        r"\n",
        r"\u0041",
        r"\ud83d\ude00",
        r"\ud83d",
        r"\ude00",
        r"\\ud83d\ude00",
        r"\uD83D\uDE00",
        "caf\u{e9}",
    ];
    match next() % 8 {
        0 | 1 => out.push_str(NUMBERS[next() % NUMBERS.len()]),
        2 | 3 => {
            out.push('"');
            for _ in 0..next() % 12 {
                out.push_str(PIECES[next() % PIECES.len()]);
            }
            out.push('"');
        }
        4 if depth < 140 => {
            // A run of nesting, deep enough now and then to reach the limit.
            let levels = if next() % 6 == 0 { 20 + next() % 120 } else { 1 };
            out.push_str(&"[".repeat(levels));
            random_json(next, depth + levels, out);
            out.push_str(&"]".repeat(levels));
        }
        _ if depth < 140 => {
            out.push('{');
            for member in 0..next() % 4 {
                if member > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"k{member}\":"));
                random_json(next, depth + 1, out);
            }
            out.push('}');
        }
        _ => out.push_str("null"),
    }
}

/// A reproducible stream of pseudo-random numbers.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> usize {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    }
}

/// The contract `raw_result` relies on: for JSON that `RawValue` accepts,
/// whatever the scan lets through, `decode`'s parse accepts too.
#[test]
fn what_the_scan_lets_through_decodes() {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d_u64);
    let (mut passed, mut flagged) = (0, 0);
    for _ in 0..20_000 {
        let mut text = String::new();
        random_json(&mut next, 0, &mut text);
        if serde_json::from_str::<&serde_json::value::RawValue>(&text).is_err() {
            continue;
        }
        if !crate::protocol::scan::plain(&text) {
            flagged += 1;
        } else {
            passed += 1;
            assert!(serde_json::from_str::<Value>(&text).is_ok(), "the scan let {text} through, which does not decode");
        }
    }
    assert!(passed > 1_000 && flagged > 1_000, "both outcomes are exercised: {passed} passed, {flagged} flagged");
}

#[test]
fn the_scan_flags_at_word_boundaries_and_passes_plain_text() {
    let long_digits = format!("[{}]", "1".repeat(301));
    assert!(!crate::protocol::scan::plain(&long_digits));
    for flagged in
        [r#"["abcdefg\ud800"]"#, r#"["abcdefgh\ud9ff"]"#, r#"["abcdef\udc00"]"#, "[1234567e999]", "[12345678e+302]", r#"["\\\ud83d"]"#]
    {
        assert!(!crate::protocol::scan::plain(flagged), "{flagged}");
    }
    // An escaped backslash before `u` is no escape, and its `\uDE00` is alone.
    assert!(!crate::protocol::scan::plain(r#"["\\ud83d\ude00"]"#));
    assert!(!crate::protocol::scan::plain(&format!("{}{}", "[".repeat(101), "]".repeat(101))));
    assert!(crate::protocol::scan::plain(&format!("{}{}", "[".repeat(100), "]".repeat(100))));
    assert!(crate::protocol::scan::plain(&format!(
        "[\"{}\"]",
        "The quick brown fox, 0123456789e999 \\ud83d\\n".repeat(100).replace("\\ud83d", "\\u0041")
    )));
}

/// Whatever the scan lets through, serde_json converts: no number it passes
/// is out of range, no escape it passes is a lone surrogate.
#[test]
fn what_the_scan_passes_decodes() {
    let mut texts = Vec::new();
    for int in [1, 2, 9, 15, 17, 40, 150, 290, 299, 300, 301, 310] {
        for frac in [0, 1, 5, 30] {
            for exp in [
                "", "e0", "e5", "E+7", "e-7", "e-400", "e-99999", "e150", "e250", "e290", "e299", "e300", "e307", "e308", "e309", "e999",
                "e1000",
            ] {
                let fraction = if frac == 0 { String::new() } else { format!(".{}", "3".repeat(frac)) };
                texts.push(format!("[{}{fraction}{exp}]", "9".repeat(int)));
            }
        }
    }
    for escape in [r"\ud83d\ude00", r"\ud83d", r"\ude00", r"\ude00\ud83d", r"\ud83d\u0041", r"\ud83dx", r"\uD83D\uDE00", r"\\ud83d"] {
        texts.push(format!(r#"["{escape}"]"#));
    }
    for text in texts {
        let decodes = serde_json::from_str::<Value>(&text).is_ok();
        assert!(decodes || !crate::protocol::scan::plain(&text), "the scan let {text} through, which does not decode");
    }
    for common in ["[1.5e-7, 2E+10, 6.02e23]", r#"["\ud83d\ude00 \uD83D\uDE00"]"#] {
        assert!(crate::protocol::scan::plain(common), "{common} needs no second pass");
    }
}

/// `RawValue` skips nesting without serde_json's limit: a large result
/// nested past it is refused as `decode` refuses it, not handed on.
#[test]
fn raw_result_refuses_nesting_that_decode_refuses() {
    let nested = |levels: usize| {
        let result = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        spaced(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"a":{result}}}}}"#))
    };
    let deep = nested(130);
    assert!(decode(&deep, true).is_err());
    assert_eq!(raw_result(&deep), None);
    let shallow = nested(90);
    assert!(decode(&shallow, true).is_ok());
    assert!(raw_result(&shallow).is_some());
}

/// Whatever the one-pass scan accepts, serde_json reads, also after random
/// damage to well-formed texts; and a raw result is always the one `decode`
/// finds.
#[test]
fn the_scan_never_accepts_what_decode_refuses() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15_u64);
    const DAMAGE: [&str; 14] = ["", "\"", "\\", ",", ":", "{", "}", "[", "]", "e", "-", ".", "0", "\u{1}"];
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let mut text = String::new();
        random_json(&mut next, 0, &mut text);
        for _ in 0..next() % 3 {
            let at = next() % (text.len() + 1);
            if text.is_char_boundary(at) {
                let end = (at + next() % 3).min(text.len());
                if text.is_char_boundary(end) {
                    text.replace_range(at..end, DAMAGE[next() % DAMAGE.len()]);
                }
            }
        }
        if crate::protocol::scan::plain(&text) {
            accepted += 1;
            assert!(serde_json::from_str::<Value>(&text).is_ok(), "the scan let {text} through, which does not decode");
        } else {
            refused += 1;
        }
        let padded = spaced(&format!(r#"{{"jsonrpc":"2.0","id":9,"result":{text}}}"#));
        if let Some((id, raw)) = raw_result(&padded) {
            assert_eq!(id, RequestId::Number(9));
            match decode(&padded, true).as_deref() {
                Ok([Message::Response { outcome: Ok(result), .. }]) => {
                    assert_eq!(result, &serde_json::from_str::<Value>(raw).unwrap_or_default());
                }
                other => panic!("raw_result found a result in {padded}, decode reads {other:?}"),
            }
        }
    }
    assert!(accepted > 2_000 && refused > 2_000, "both outcomes are exercised: {accepted} accepted, {refused} refused");
}

#[test]
fn raw_results_leave_unusual_envelopes_to_decode() {
    for text in [
        r#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":18446744073709551615,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":"\u0061","result":{}}"#,
        r#"{"jsonrpc":"\u0032.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","\u0069d":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{},"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":null}"#,
        r#"{"jsonrpc":"2.0","id":null,"result":{}}"#,
        // serde_json reads `-0` as a float, which `decode` refuses as an id.
        r#"{"jsonrpc":"2.0","id":-0,"result":{}}"#,
    ] {
        assert_eq!(raw_result(&spaced(text)), None, "{text}");
    }
    let text = spaced(r#"{"jsonrpc":"2.0","id":-4,"other":{"id":5},"result":[{"result":1}]}"#);
    assert_eq!(raw_result(&text), Some((RequestId::Number(-4), r#"[{"result":1}]"#)));
}

#[test]
fn integer_ids_read_as_decode_reads_them() {
    for id in [
        "0",
        "7",
        "-7",
        "42",
        "123456789",
        "999999999999999999",
        "-999999999999999999",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999",
        "-0",
        "1.0",
        "1e2",
    ] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
        let raw = raw_result(&text).map(|(id, _)| id);
        if let Some(raw) = &raw {
            assert!(matches!(one(&text), Ok(Message::Response { id: Some(decoded), .. }) if &decoded == raw), "{id}");
        }
        // Up to 18 digits, the raw path reads the id itself; past that it may leave it to decode.
        let short = id.trim_start_matches('-').len() <= 18 && id.bytes().all(|b| b == b'-' || b.is_ascii_digit()) && id != "-0";
        assert_eq!(raw.is_some(), short, "{id}");
    }
}

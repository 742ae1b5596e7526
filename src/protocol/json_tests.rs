//! The reader against serde_json's: the same verdict on every text, and the
//! same value, keys in the same order, for every text both accept.

use super::{parse, parse_message, MAX_VALUES, TOO_MANY_VALUES};
use serde_json::Value;

/// Asserts that `parse` and `serde_json::from_str` agree on `text`, and
/// returns whether both accepted it.
fn agrees(text: &str) -> bool {
    let ours = parse(text);
    let theirs = serde_json::from_str::<Value>(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{text:?}");
            true
        }
        (Err(_), Err(_)) => false,
        _ => panic!("{text:?}: ours {ours:?}, serde_json {theirs:?}"),
    }
}

#[test]
fn agrees_on_written_cases() {
    let cases = [
        "null",
        "true",
        "false",
        " 0 ",
        "-0",
        "-0.0",
        "1",
        "-1",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "1E-7",
        "1.5e300",
        "1e309",
        "-1e400",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "0.1",
        "2.5e-324",
        "4.9e-324",
        "1e-400",
        "[]",
        "[ ]",
        "[1,]",
        "[,1]",
        "[1 2]",
        "{}",
        "{ }",
        r#"{"a":1,}"#,
        r#"{"a" 1}"#,
        "{1:2}",
        r#"{"a":1,"a":2}"#,
        r#"{"b":1,"a":2,"b":3}"#,
        r#""abc"#,
        r#""a\"b""#,
        r#""\u00e9""#,
        r#""\ud83d\ude00""#,
        r#""\ud83d""#,
        r#""\ude00""#,
        r#""\ud83d\u0041""#,
        r#""\ud83dx""#,
        r#""\u12""#,
        r#""\u12g4""#,
        r#""\x""#,
        r#""\/\b\f\n\r\t""#,
        "\"a\tb\"",
        "\"a\u{1}b\"",
        "\"\u{7f}\"",
        "\"é😀\"",
        "tru",
        "truex",
        "nul",
        "[true false]",
        "\u{feff}1",
        "1 2",
        "[1]]",
        "{\"a\":[{}]}",
        "\n\t\r 7 \n",
        "",
        " ",
        "[",
        "{",
        r#"{"a""#,
        r#"{"a":"#,
        r#"{"a":1"#,
        "[1",
        "[\"",
        r#"[{"":""}]"#,
    ];
    let accepted = cases.into_iter().filter(|text| agrees(text)).count();
    assert_eq!(accepted, 34);
}

#[test]
fn nests_as_deep_as_serde_json_and_no_deeper() {
    for depth in [126, 127, 128, 129, 500] {
        agrees(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
        agrees(&format!("{}1{}", "[".repeat(depth), "]".repeat(depth)));
        agrees(&format!("{}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth)));
        agrees(&format!("{}null{}", r#"{"a":"#.repeat(depth), "}".repeat(depth)));
    }
}

/// A small deterministic generator (xorshift), so that a failure repeats.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const SPACE: &[&str] = &["", "", "", " ", "\n", "\t", "\r\n "];
const NUMBERS: &[&str] = &["0", "-0", "7", "-12", "3.25", "-0.5e-3", "1E10", "6.02e+23", "9007199254740993", "1e308", "2e-308", "0.1"];
const STRINGS: &[&str] =
    &[r#""""#, r#""a""#, r#""é""#, r#""\n""#, r#""\u0041\u00e9""#, r#""\ud83d\ude00 x""#, r#""q\"\\""#, r#""😀""#, r#""\/""#];

/// A JSON text of a random value, with random whitespace.
fn value(random: &mut Random, depth: usize, out: &mut String) {
    let kind = if depth > 6 { random.below(4) } else { random.below(7) };
    match kind {
        0 => out.push_str(random.pick(&["null", "true", "false"])),
        1 | 2 => out.push_str(random.pick(NUMBERS)),
        3 => out.push_str(random.pick(STRINGS)),
        4 | 5 => {
            out.push('{');
            for i in 0..random.below(4) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(random.pick(SPACE));
                out.push_str(random.pick(&[r#""a""#, r#""b""#, r#""é""#, r#""\u0061""#, r#""""#]));
                out.push_str(random.pick(SPACE));
                out.push(':');
                out.push_str(random.pick(SPACE));
                value(random, depth + 1, out);
                out.push_str(random.pick(SPACE));
            }
            out.push('}');
        }
        _ => {
            out.push('[');
            for i in 0..random.below(4) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(random.pick(SPACE));
                value(random, depth + 1, out);
                out.push_str(random.pick(SPACE));
            }
            out.push(']');
        }
    }
}

/// One random edit: a byte dropped, or a JSON-significant piece put in or
/// put in place of a byte.
fn mutate(random: &mut Random, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let at = random.below(bytes.len() + 1);
    let piece = random.pick(&[
        "\"", "\\", ",", ":", "[", "]", "{", "}", "-", "0", "1", ".", "e", "+", " ", "\u{1}", "\\u", "\\ud800", "\\udc00", "n", "t", "é",
        "x", "9e999",
    ]);
    match random.below(3) {
        0 if at < bytes.len() => {
            bytes.remove(at);
        }
        1 if at < bytes.len() => {
            bytes.splice(at..=at, piece.bytes());
        }
        _ => {
            bytes.splice(at..at, piece.bytes());
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[test]
fn agrees_on_random_texts_and_their_mutations() {
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let mut text = String::new();
        value(&mut random, 0, &mut text);
        assert!(agrees(&text), "{text:?}");
        let mut mutated = text;
        for _ in 0..=random.below(3) {
            mutated = mutate(&mut random, &mutated);
            if agrees(&mutated) {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    // Both verdicts are well represented among the edits.
    assert!(accepted > 2_000 && refused > 2_000, "{accepted} accepted, {refused} refused");
}

#[test]
fn errors_say_where() {
    let error = parse(r#"{"a": tru}"#).unwrap_err();
    assert_eq!(error.to_string(), "expected a value at byte 6");
    assert_eq!(parse("[1e400]").unwrap_err().to_string(), "a number out of range at byte 1");
}

#[test]
fn integers_are_the_numbers_serde_json_reads() {
    let texts = [
        "0",
        "-0",
        "7",
        "-7",
        "999999999999999999",
        "-999999999999999999",
        "1000000000000000000",
        "-1000000000000000000",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775809",
        "123456789012345678901234567890",
    ];
    for text in texts {
        let (ours, theirs) = (parse(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        let (a, b) = (ours.as_number().unwrap(), theirs.as_number().unwrap());
        assert_eq!((a.as_u64(), a.as_i64(), a.is_f64()), (b.as_u64(), b.as_i64(), b.is_f64()), "{text}");
        assert_eq!(a.as_f64().map(f64::to_bits), b.as_f64().map(f64::to_bits), "{text}");
    }
}

#[test]
fn a_message_of_more_than_a_million_values_is_refused_wherever_they_are() {
    assert_eq!(TOO_MANY_VALUES, format!("more than {MAX_VALUES} values"));
    let zeros = |n: usize| format!("[{}]", vec!["0"; n].join(","));
    // The array is a value too.
    assert_eq!(parse_message(&zeros(MAX_VALUES - 1)).map(|v| v.as_array().map(Vec::len)), Ok(Some(MAX_VALUES - 1)));
    assert_eq!(parse_message(&zeros(MAX_VALUES)).map_err(|e| e.reason), Err(TOO_MANY_VALUES));
    // Members count as well, and so do values in nested containers.
    let members: Vec<String> = (0..MAX_VALUES / 2).map(|i| format!("\"{i}\":[0]")).collect();
    assert_eq!(parse_message(&format!("{{{}}}", members.join(","))).map_err(|e| e.reason), Err(TOO_MANY_VALUES));
    // Results, schemas and instances are read by `parse`, which counts nothing.
    assert_eq!(parse(&zeros(MAX_VALUES)).map(|v| v.as_array().map(Vec::len)), Ok(Some(MAX_VALUES)));
}

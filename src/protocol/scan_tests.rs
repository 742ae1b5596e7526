use super::{plain, scan, scan_accepted, scan_accepted_entering};

#[test]
fn refuses_what_serde_json_refuses() {
    for text in [
        "",
        " ",
        "[01]",
        "[1.]",
        "[.5]",
        "[-]",
        "[1e]",
        "[1e+]",
        "[+1]",
        "[Infinity]",
        "[NaN]",
        "[1 2]",
        "[1,]",
        "[,1]",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{a:1}",
        "{\"a\":1 \"b\":2}",
        "{\"a\":1}}",
        "[1]]",
        "[1] x",
        "[tru]",
        "[nulls]",
        "\u{feff}[]",
        "[\"a\tb\"]",
        "[\"a\u{1}b\"]",
        "[\"\\q\"]",
        "[\"\\u12G4\"]",
        "[\"\\u12\"]",
        "[\"abc",
        "{\"a\":}",
        "{\"a\"}",
        "{,}",
        "[\"\\\"]",
    ] {
        assert!(serde_json::from_str::<serde_json::Value>(text).is_err(), "serde_json reads {text:?}");
        assert!(!plain(text), "the scan let {text:?} through");
    }
}

#[test]
fn accepts_ordinary_json() {
    for text in [
        "0",
        "-0.0e-0",
        " [ 1 , -2.5 , 3e10 , 4E-7 , 5e+2 ] ",
        r#"{"a":{"b":[true,false,null,{}]},"c":[],"d":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#,
        "\"caf\u{e9} \u{1F600}\"",
        "\"\u{7f} and eight bytes and more, past the word boundary\"",
        "[1e300, 123456789012345678901234567890, 1e-999]",
    ] {
        assert!(serde_json::from_str::<serde_json::Value>(text).is_ok(), "serde_json refuses {text:?}");
        assert!(plain(text), "the scan refused {text:?}");
    }
}

#[test]
fn leaves_the_edges_of_f64_to_the_parser() {
    // In range for serde_json, but close enough to the end that the scan
    // leaves them to the parser, which gives the exact verdict.
    for text in ["[9e308]", "[1e309]", "[12345678e+302]", "[1e1000]", "[1e-1000]", &format!("[{}]", "1".repeat(301))] {
        assert!(!plain(text), "{text}");
    }
    assert!(plain("[12345678e+300]"));
}

#[test]
fn reports_each_value_three_levels_deep_with_its_path_and_exact_text() {
    let text = r#" { "a" : 1 , "b":{"c":[1,{"d":2}]}, "e" : "x\"y" ,"f":[ [] , {} ] , "g":{} } "#;
    let mut found = Vec::new();
    assert!(scan(text, |path, value| {
        found.push((path.to_vec(), value));
        true
    }));
    let expected: [(&[Option<&str>], &str); 10] = [
        (&[Some("a")], "1"),
        (&[Some("b"), Some("c"), None], "1"),
        (&[Some("b"), Some("c"), None], r#"{"d":2}"#),
        (&[Some("b"), Some("c")], r#"[1,{"d":2}]"#),
        (&[Some("b")], r#"{"c":[1,{"d":2}]}"#),
        (&[Some("e")], r#""x\"y""#),
        (&[Some("f"), None], "[]"),
        (&[Some("f"), None], "{}"),
        (&[Some("f")], "[ [] , {} ]"),
        (&[Some("g")], "{}"),
    ];
    let expected: Vec<_> = expected.iter().map(|(path, value)| (path.to_vec(), *value)).collect();
    assert_eq!(found, expected);
    // An array at the top: its items have no key.
    let mut items = Vec::new();
    assert!(scan(r#"[{"a":1}, 2]"#, |path, value| {
        items.push((path.to_vec(), value));
        true
    }));
    assert_eq!(items, [(vec![None, Some("a")], "1"), (vec![None], r#"{"a":1}"#), (vec![None], "2")]);
    // A `false` from the callback refuses the text.
    assert!(!scan(r#"{"a":1,"b":2}"#, |path, _| path == [Some("a")]));
}

#[test]
fn nesting_is_held_at_a_hundred_levels() {
    let nested = |levels: usize, open: &str, close: &str| format!("{}{}", open.repeat(levels), close.repeat(levels));
    assert!(plain(&nested(100, "[", "]")));
    assert!(!plain(&nested(101, "[", "]")));
    assert!(plain(&format!("{}1{}", "{\"a\":".repeat(100), "}".repeat(100))));
    assert!(!plain(&format!("{}1{}", "{\"a\":".repeat(101), "}".repeat(101))));
    // Objects and arrays alternate: each level remembers which it is.
    let mixed = format!("{}0{}", "[{\"k\":".repeat(50), "}]".repeat(50));
    assert!(plain(&mixed));
    assert!(!plain(&mixed.replacen("}]", "]}", 1)));
}

#[test]
fn finds_the_first_special_byte_at_every_offset_of_a_word() {
    for filler in ["a", "\u{e9}", "\u{1F600}"] {
        for before in 0..20 {
            for after in 0..12 {
                let (head, tail) = (filler.repeat(before), "b".repeat(after));
                for special in ["\\n", "\\\"", "\\ud83d\\ude00", "\\ud800", "\u{1}", "\t", "\\x", "\"\""] {
                    let text = format!("[\"{head}{special}{tail}\"]");
                    let serde = serde_json::from_str::<serde_json::Value>(&text).is_ok();
                    assert_eq!(plain(&text), serde, "{text:?}");
                }
            }
        }
    }
}

/// A reading pass: [`scan`] or [`scan_accepted`].
type Reader = fn(&str, &mut dyn FnMut(&[Option<&str>], &str) -> bool) -> bool;

/// Every value `read` reports, with its path.
fn reports(text: &str, read: Reader) -> Option<Vec<(Vec<Option<String>>, String)>> {
    let mut found = Vec::new();
    let accepted = read(text, &mut |path, value| {
        found.push((path.iter().map(|p| p.map(str::to_owned)).collect(), value.to_owned()));
        true
    });
    accepted.then_some(found)
}

#[test]
fn an_accepted_text_is_reported_alike_when_its_deep_values_are_stepped_over() {
    let strict: Reader = |t, f| scan(t, f);
    let stepping: Reader = |t, f| scan_accepted(t, f);
    let deep = r#"{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"enum":["}","]","\"{[","\\"]}}},"n":[[1,[2]],{"k":[{}]}]}]}"#;
    let mut texts = vec![deep.to_owned(), r#"[{"a":[[["\\\"]"]]]}, 2, [[[]]]]"#.to_owned(), "{}".to_owned(), "[[[[]]]]".to_owned()];
    // Brackets and quotes at every offset of a word inside a stepped-over string.
    for before in 0..12 {
        for special in ["]", "}", "[", "{", "\\\"", "\\\\", "\u{e9}"] {
            texts.push(format!(r#"{{"a":{{"b":[{{"c":"{}{special}x"}}, {{"d":[1]}}]}}, "e": 1}}"#, "y".repeat(before)));
        }
    }
    for text in &texts {
        assert!(serde_json::from_str::<serde_json::Value>(text).is_ok(), "{text}");
        assert_eq!(reports(text, stepping), reports(text, strict), "{text}");
        assert!(reports(text, stepping).is_some(), "{text}");
    }
}

#[test]
fn stepping_over_text_that_is_not_json_stays_within_it() {
    // Not what the function is for, but a server's bytes must never make it read past the end.
    let mut seed = 0x2545_f491_u32;
    let alphabet = br#"{}[]"\,:1a "#;
    for _ in 0..3000 {
        let len = (seed % 40) as usize;
        let mut text = String::from(r#"{"a":{"b":["#);
        for _ in 0..len {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            text.push(char::from(alphabet[(seed % alphabet.len() as u32) as usize]));
        }
        let _ = scan_accepted(&text, |_, value| !value.is_empty());
    }
    assert!(!scan_accepted(r#"{"a":{"b":[{"c":"unterminated"#, |_, _| true));
    assert!(!scan_accepted(r#"{"a":{"b":[{"c":1}}}"#, |_, _| true));
}

#[test]
fn random_containers_are_stepped_over_as_the_strict_pass_reads_them() {
    let strict: Reader = |t, f| scan(t, f);
    let stepping: Reader = |t, f| scan_accepted(t, f);
    let mut next = crate::protocol::jsonrpc::tests::xorshift(0x9e37_79b9_7f4a_7c15);
    let mut stepped = 0;
    for _ in 0..6000 {
        let mut value = String::new();
        crate::protocol::jsonrpc::tests::random_json(&mut next, 0, &mut value);
        // Placed where the stepping pass steps over it (three levels down), and where it reads it.
        let text = format!(r#"{{"a":{{"b":[{value},{{"c":[{value}]}}]}},"d":{value}}}"#);
        let strict_reports = reports(&text, strict);
        if strict_reports.is_none() {
            continue;
        }
        stepped += 1;
        assert_eq!(reports(&text, stepping), strict_reports, "{text}");
    }
    assert!(stepped > 1_000, "only {stepped} texts were JSON the scan accepts");
}

#[test]
fn entering_only_some_containers_reports_the_others_whole() {
    let text = r#"{"content": [{"type": "text", "x": {"deep": [1]}}, {"type": "image"}], "structuredContent": {"items": [{"a": 1}]}, "isError": false}"#;
    let all = |text| {
        let mut seen = Vec::new();
        assert!(scan_accepted(text, |path: &[Option<&str>], value| {
            seen.push((path.to_vec(), value));
            true
        }));
        seen
    };
    let enter = |path: &[Option<&str>]| matches!(path, [] | [Some("content")] | [Some("content"), None]);
    let mut entered = Vec::new();
    assert!(scan_accepted_entering(text, &enter, |path, value| {
        entered.push((path.to_vec(), value));
        true
    }));
    // What lies in an entered container is reported as before; nothing inside one that is not.
    let expected: Vec<_> = all(text).into_iter().filter(|(path, _)| path.len() == 1 || path.first() == Some(&Some("content"))).collect();
    assert_eq!(entered, expected);
    assert!(entered.contains(&(vec![Some("structuredContent")], r#"{"items": [{"a": 1}]}"#)));
}

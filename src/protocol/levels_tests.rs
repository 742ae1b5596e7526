use super::LEVELS;
use crate::protocol::jsonrpc::{raw_result_levels, RAW_RESULT_MIN};
use crate::protocol::scan::scan;

/// Values as a scan reports them: each with its path.
type Found<'a> = Vec<(Vec<Option<&'a str>>, &'a str)>;

/// What a scan of `text` itself reports, down to [`LEVELS`].
fn scanned(text: &str) -> Found<'_> {
    let mut found = Vec::new();
    assert!(scan(text, |path, value| {
        if path.len() <= LEVELS {
            found.push((path.to_vec(), value));
        }
        true
    }));
    found
}

/// What the levels kept by the response's scan replay for the result.
fn replayed(response: &str) -> (String, Found<'_>) {
    let (_, result, levels) = raw_result_levels(response).expect("a raw result");
    let levels = levels.expect("levels kept");
    let mut found = Vec::new();
    assert!(levels.replay(result, |path, value| {
        found.push((path.to_vec(), value));
        true
    }));
    (result.to_owned(), found)
}

fn response(result: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","result" : {result} ,"id":3}}{}"#, " ".repeat(RAW_RESULT_MIN))
}

#[test]
fn replay_reports_what_a_scan_of_the_result_reports() {
    for result in [
        r#"{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{}}}},{"name":"b"}],"nextCursor":null}"#,
        r#"{"content":[{"type":"text","text":"hi"}],"structuredContent":{"items":[[1,[2]],{"k":{"deep":[3]}}]},"isError":false}"#,
        r#"[1,{"a":[2,{"b":3}]},[]]"#,
        r#"{}"#,
        r#""just text""#,
    ] {
        let text = response(result);
        let (kept, found) = replayed(&text);
        assert_eq!(kept, result);
        assert_eq!(found, scanned(result), "{result}");
    }
}

#[test]
fn too_many_values_keep_none() {
    let many = format!("[{}0]", "0,".repeat(1 << 16));
    let text = response(&many);
    let (_, result, levels) = raw_result_levels(&text).expect("a raw result");
    assert_eq!(result, many);
    assert!(levels.is_none());
    let few = format!("[{}0]", "0,".repeat((1 << 16) - 2));
    assert!(raw_result_levels(&response(&few)).and_then(|(_, _, levels)| levels).is_some());
}

#[test]
fn replay_refuses_a_text_they_did_not_come_from() {
    let text = response(r#"{"a":{"b":1}}"#);
    let (_, _, levels) = raw_result_levels(&text).expect("a raw result");
    let levels = levels.expect("levels kept");
    assert!(!levels.replay("{}", |_, _| true));
}

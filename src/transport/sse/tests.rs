use super::*;

fn parse_chunks(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut parser = SseParser::default();
    let mut out = Vec::new();
    for chunk in chunks {
        parser.push(chunk, &mut out).expect("within limits");
    }
    plain(out)
}

fn ev(event: &str, data: &str, id: Option<&str>) -> SseEvent {
    SseEvent { event: event.into(), data: data.into(), id: id.map(Into::into), fresh_id: false, oversized: None, kept: None }
}

/// Compares ignoring `fresh_id`, which only some tests look at.
fn plain(events: Vec<SseEvent>) -> Vec<SseEvent> {
    events.into_iter().map(|e| SseEvent { fresh_id: false, ..e }).collect()
}

#[test]
fn every_line_ending_style() {
    for stream in [&b"data: a\n\ndata: b\n\n"[..], b"data: a\r\n\r\ndata: b\r\n\r\n", b"data: a\r\rdata: b\r\r"] {
        assert_eq!(parse_chunks(&[stream]), vec![ev("message", "a", None), ev("message", "b", None)]);
    }
}

#[test]
fn every_split_point_gives_the_same_events() {
    let stream = "\u{FEFF}: comment\r\nevent: message\r\nid: 7\r\nretry: 1500\r\ndata: {\"x\":\"é🦀\"}\r\ndata: second\r\n\r\n\
                  data: plain\n\n"
        .as_bytes();
    let whole = parse_chunks(&[stream]);
    assert_eq!(whole, vec![ev("message", "{\"x\":\"é🦀\"}\nsecond", Some("7")), ev("message", "plain", Some("7"))]);
    for a in 0..=stream.len() {
        assert_eq!(parse_chunks(&[&stream[..a], &stream[a..]]), whole, "split at {a}");
        for b in a..=stream.len() {
            assert_eq!(parse_chunks(&[&stream[..a], &stream[a..b], &stream[b..]]), whole, "split at {a},{b}");
        }
    }
}

#[test]
fn byte_by_byte() {
    let stream = b"event: endpoint\r\ndata: /message?sessionId=1\r\n\r\n";
    let chunks: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(parse_chunks(&chunks), vec![ev("endpoint", "/message?sessionId=1", None)]);
}

#[test]
fn crlf_split_between_chunks_is_one_line_end() {
    // If the LF after a chunk-final CR were a second line end, this would
    // dispatch twice or lose the id.
    assert_eq!(parse_chunks(&[b"id: 1\r", b"\ndata: x\r", b"\n\r", b"\n"]), vec![ev("message", "x", Some("1"))]);
}

#[test]
fn priming_event_has_empty_data_and_sets_the_id() {
    let mut parser = SseParser::default();
    let mut out = Vec::new();
    parser.push(b"id: prime-1\nretry: 500\ndata: \n\n", &mut out).unwrap();
    assert_eq!(plain(out), vec![ev("message", "", Some("prime-1"))]);
    assert_eq!(parser.retry_ms(), Some(500));
    assert_eq!(parser.last_event_id(), Some("prime-1"));
}

/// What resuming relies on: an event cut off after its `id` line is not
/// dispatched, so no event carries its id, though the parser has read it.
#[test]
fn an_event_cut_after_its_id_carries_that_id_nowhere() {
    let mut parser = SseParser::default();
    let mut out = Vec::new();
    parser.push(b"id: p0\ndata: \n\nid: e1\ndata: {\"method\":\"notifications/pro", &mut out).unwrap();
    let named: Vec<Option<&str>> = out.iter().filter(|e| e.fresh_id).map(|e| e.id.as_deref()).collect();
    assert_eq!(named, [Some("p0")]);
    assert_eq!(parser.last_event_id(), Some("e1"));
}

#[test]
fn fields_without_data_dispatch_nothing() {
    assert_eq!(parse_chunks(&[b"event: x\n\n: keep-alive\n\n"]), vec![]);
}

/// A block with an id and no data is no event, but the standard moves the
/// last event id on at it; a server may prime a stream so. The parser hands
/// it over with empty data, which no caller delivers.
#[test]
fn an_id_without_data_moves_the_id_on_as_an_event_of_no_data() {
    let mut parser = SseParser::default();
    let mut out = Vec::new();
    parser.push(b"id: 3\nretry: 500\n\n: keep-alive\n\nevent: x\nid: 4\n\n", &mut out).unwrap();
    assert_eq!(
        out,
        vec![SseEvent { fresh_id: true, ..ev("message", "", Some("3")) }, SseEvent { fresh_id: true, ..ev("x", "", Some("4")) }]
    );
}

#[test]
fn field_rules() {
    // No space after the colon, a field with no colon, unknown fields, a bad retry, an id with NUL.
    let events = parse_chunks(&[b"data:tight\ndata\nfoo: bar\nretry: 12x\nid: a\0b\n\n"]);
    assert_eq!(events, vec![ev("message", "tight\n", None)]);
}

#[test]
fn unterminated_final_event_is_not_dispatched() {
    assert_eq!(parse_chunks(&[b"data: done\n\ndata: partial"]), vec![ev("message", "done", None)]);
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let events = parse_chunks(&[b"data: a\xFF\xFEb\n\n"]);
    assert_eq!(events, vec![ev("message", "a\u{FFFD}\u{FFFD}b", None)]);
}

#[test]
fn utf8_sequence_split_across_chunks() {
    let crab = "🦀".as_bytes();
    let events = parse_chunks(&[b"data: ", &crab[..1], &crab[1..3], &crab[3..], b"\n\n"]);
    assert_eq!(events, vec![ev("message", "🦀", None)]);
}

#[test]
fn a_bom_split_across_chunks_is_stripped() {
    assert_eq!(parse_chunks(&[b"\xEF", b"\xBB", b"\xBFdata: x\n\n"]), vec![ev("message", "x", None)]);
}

#[test]
fn huge_lines_are_refused_not_buffered_forever() {
    let mut parser = SseParser::with_limit(1024);
    let mut out = Vec::new();
    let chunk = vec![b'a'; 600];
    parser.push(b"data: ", &mut out).unwrap();
    parser.push(&chunk, &mut out).unwrap();
    assert_eq!(parser.push(&chunk, &mut out), Err(SseError::LineTooLong { limit: 1024 }));
}

/// A long first data line becomes the event's data without a copy: the
/// events are the same, whatever the chunks, with more lines after it, with
/// invalid UTF-8 in it.
#[test]
fn long_data_lines_give_the_same_events() {
    // Longer than the line buffer's head, so that it arrives in pieces.
    let long = format!("{}caf\u{e9} \u{1f980}", "x".repeat(150_000));
    let mut bytes = format!("id: 1\ndata: {long}\ndata: tail\n\ndata: {long}").into_bytes();
    // A byte that is not UTF-8 at the end of the second long line: U+FFFD, as line by line.
    bytes.push(0xff);
    bytes.extend_from_slice(b"\n\ndata: short\n\n");
    let expected = vec![
        ev("message", &format!("{long}\ntail"), Some("1")),
        ev("message", &format!("{long}\u{fffd}"), Some("1")),
        ev("message", "short", Some("1")),
    ];
    for size in [1, 7, 1000, 4096, bytes.len()] {
        let mut parser = SseParser::default();
        let mut out = Vec::new();
        for chunk in bytes.chunks(size) {
            parser.push(chunk, &mut out).unwrap();
        }
        assert_eq!(plain(out), expected, "chunks of {size}");
        assert_eq!(parser.line.len(), 0);
    }
    // The field's name split from a value that arrives whole: the name is in
    // the line's head, the value in a piece.
    for split in [8, 9, 10, 11, 12] {
        let mut parser = SseParser::default();
        let mut out = Vec::new();
        parser.push(&bytes[..split], &mut out).unwrap();
        parser.push(&bytes[split..], &mut out).unwrap();
        assert_eq!(plain(out), expected, "split at {split}");
    }
}

#[test]
fn huge_events_are_refused() {
    let mut parser = SseParser::with_limit(100);
    let mut out = Vec::new();
    let line = format!("data: {}\n", "x".repeat(60));
    parser.push(line.as_bytes(), &mut out).unwrap();
    assert_eq!(parser.push(line.as_bytes(), &mut out), Err(SseError::EventTooLarge { limit: 100 }));
}

#[test]
fn absurd_retries_are_capped() {
    for retry in ["99999999999999999999999", "3000000000", "600001"] {
        let mut parser = SseParser::default();
        parser.push(format!("retry: {retry}\n").as_bytes(), &mut Vec::new()).unwrap();
        assert_eq!(parser.retry_ms(), Some(crate::session::limits::MAX_RETRY_MS), "{retry}");
    }
    let mut parser = SseParser::default();
    parser.push(b"retry: 500\n", &mut Vec::new()).unwrap();
    assert_eq!(parser.retry_ms(), Some(500));
    for retry in ["0", "99", "00"] {
        parser.push(format!("retry: {retry}\n").as_bytes(), &mut Vec::new()).unwrap();
        assert_eq!(parser.retry_ms(), Some(crate::session::limits::MIN_RETRY_MS), "retry: {retry} reconnects without a pause");
    }
}

/// A shared stream skips an oversized event, keeps what its data said about
/// itself, and goes on with the next events.
#[test]
fn skipped_events_keep_their_envelope_and_the_stream_goes_on() {
    use crate::protocol::jsonrpc::RequestId;
    let big = format!(r#"{{"jsonrpc":"2.0","result":{{"text":"{}"}},"id":42}}"#, "x".repeat(5_000));
    // As one long line, and as several data lines that together pass the limit.
    let one_line = format!("id: 1\ndata: {big}\n\ndata: {{\"jsonrpc\":\"2.0\",\"id\":43,\"result\":{{}}}}\n\n");
    let (head, tail) = big.split_at(2_500);
    let two_lines = format!("data: {head}\ndata: {tail}\n\ndata: small\n\n");
    for stream in [one_line, two_lines] {
        for size in [1, 7, 1000, stream.len()] {
            let mut parser = SseParser::new(1024, Oversize::Skip);
            let mut out = Vec::new();
            for chunk in stream.as_bytes().chunks(size) {
                parser.push(chunk, &mut out).unwrap();
            }
            assert_eq!(out.len(), 2, "chunks of {size}");
            let skipped = out[0].oversized.as_ref().expect("the first event is oversized");
            assert_eq!(skipped.envelope.response_id(), Some(&RequestId::Number(42)));
            assert!(skipped.bytes >= big.len(), "{} bytes counted", skipped.bytes);
            assert!(out[0].data.is_empty());
            assert!(out[1].oversized.is_none() && !out[1].data.is_empty());
        }
    }
}

#[test]
fn an_overlong_line_of_another_field_is_dropped() {
    let mut parser = SseParser::new(64, Oversize::Skip);
    let mut out = Vec::new();
    let stream = format!("event: {}\ndata: ok\n\n", "e".repeat(500));
    parser.push(stream.as_bytes(), &mut out).unwrap();
    assert_eq!(plain(out), vec![ev("message", "ok", None)]);
}

#[test]
fn fresh_ids_mark_events_that_set_their_own_id() {
    let mut parser = SseParser::default();
    let mut out = Vec::new();
    parser.push(b"id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n", &mut out).unwrap();
    let marks: Vec<(Option<&str>, bool)> = out.iter().map(|e| (e.id.as_deref(), e.fresh_id)).collect();
    assert_eq!(marks, [(Some("1"), true), (Some("1"), false), (Some("2"), true)]);
}

/// Feeds `stream` to a keeping parser in chunks of `size`, and rebuilds each
/// kept event's data from the pieces the parser named, as its caller does.
fn kept_events(stream: &[u8], size: usize, limit: usize) -> Result<Vec<(SseEvent, Vec<u8>)>, SseError> {
    kept_events_of(stream.chunks(size), limit, 1000)
}

/// [`kept_events`] for chunks of any sizes, keeping data over `keep_over` bytes.
fn kept_events_of<'a>(
    chunks: impl Iterator<Item = &'a [u8]>,
    limit: usize,
    keep_over: usize,
) -> Result<Vec<(SseEvent, Vec<u8>)>, SseError> {
    let mut parser = SseParser::with_limit(limit).keep_data_over(keep_over);
    let (mut out, mut groups, mut pending) = (Vec::new(), Vec::new(), Vec::new());
    for chunk in chunks {
        parser.push(chunk, &mut out)?;
        for piece in parser.take_kept() {
            match piece {
                KeptPiece::Held(bytes) => pending.extend_from_slice(&bytes),
                KeptPiece::InChunk(start, end) => pending.extend_from_slice(&chunk[start..end]),
                KeptPiece::Dispatched => groups.push(std::mem::take(&mut pending)),
            }
        }
    }
    let mut groups = groups.into_iter();
    Ok(out.into_iter().map(|event| (event.clone(), if event.kept.is_some() { groups.next().unwrap() } else { Vec::new() })).collect())
}

fn big_read(fill: usize) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":4,"result":{{"contents":[{{"uri":"u","text":"{}"}}]}}}}"#, "é".repeat(fill))
}

#[test]
fn a_long_first_data_line_is_left_with_the_caller_wherever_the_chunks_split() {
    let data = big_read(3000);
    let stream = format!("\u{FEFF}event: message\nid: 9\ndata: {data}\ndata: {{\"tail\":1}}\n\ndata: small\n\n");
    for size in [1, 2, 7, 100, 999, 1000, 1001, 4096, stream.len()] {
        let events = kept_events(stream.as_bytes(), size, 1 << 20).unwrap();
        assert_eq!(events.len(), 2, "chunks of {size}");
        let (first, kept) = &events[0];
        assert_eq!(kept, format!("{data}\n{{\"tail\":1}}").as_bytes(), "chunks of {size}");
        let compact = r#"{"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"u","text":""}]}}"#;
        assert_eq!(first.data, format!("{compact}\n{{\"tail\":1}}"));
        let info = first.kept.as_ref().unwrap();
        assert_eq!((info.bytes, info.elided, info.whole), (kept.len(), 6000, false));
        assert_eq!(first.id.as_deref(), Some("9"));
        assert_eq!(events[1].0, SseEvent { id: Some("9".into()), ..ev("message", "small", None) });
    }
}

/// A chunk that ends inside `data: ` leaves the line's head shorter than the field's name and
/// colon, and a large next chunk goes to a piece of its own: the kept data must still begin after
/// the colon's space, not with what the head lacked of it (`a: `).
#[test]
fn a_split_inside_the_field_name_before_a_large_chunk_is_kept_from_the_value() {
    let keep_over = 256 * 1024;
    let data = big_read(150_000);
    let stream = format!("event: message\ndata: {data}\n\n");
    for cut in ["event: message\nd".len(), "event: message\ndat".len(), "event: message\ndata:".len()] {
        let (head, rest) = stream.as_bytes().split_at(cut);
        let (large, tail) = rest.split_at(100_000);
        let events = kept_events_of([head, large, tail].into_iter(), 1 << 20, keep_over).unwrap();
        assert_eq!(events.len(), 1, "cut at {cut}");
        let (event, kept) = &events[0];
        assert!(event.kept.is_some(), "cut at {cut}: the data is kept");
        assert!(kept.as_slice() == data.as_bytes(), "cut at {cut}: kept {:?}…", String::from_utf8_lossy(&kept[..kept.len().min(12)]));
    }
}

/// Thousands of short data lines after a long first one are handed over as one piece per chunk,
/// not two JS arrays per line.
#[test]
fn short_data_lines_of_a_kept_event_join_into_one_piece() {
    let data = big_read(3000);
    let stream = format!("data: {data}\n{}\n", "data\n".repeat(10_000));
    let mut parser = SseParser::with_limit(1 << 20).keep_data_over(1000);
    let mut out = Vec::new();
    let (head, tail) = stream.as_bytes().split_at(data.len() + 7);
    parser.push(head, &mut out).unwrap();
    parser.take_kept();
    parser.push(tail, &mut out).unwrap();
    let pieces = parser.take_kept();
    assert!(pieces.len() <= 3, "{} pieces", pieces.len());
    let held: usize = pieces.iter().map(|p| if let KeptPiece::Held(bytes) = p { bytes.len() } else { 0 }).sum();
    assert_eq!(held, 10_000, "a line feed for each line");
    assert_eq!(out.len(), 1);
}

#[test]
fn kept_data_with_nothing_left_out_is_dispatched_whole_and_counts_against_the_limit() {
    let list = format!("{{\"result\":{{\"tools\":[{}]}}}}", "{\"name\":\"t\"},".repeat(200).trim_end_matches(','));
    let stream = format!("data: {list}\n\n");
    let events = kept_events(stream.as_bytes(), 333, 1 << 20).unwrap();
    assert_eq!(events[0].0.data, list);
    assert_eq!(events[0].0.kept.as_ref().map(|k| k.elided), Some(0));
    assert_eq!(events[0].1, list.as_bytes());
    let too_large = kept_events(stream.as_bytes(), 333, list.len() - 1);
    assert_eq!(too_large.err(), Some(SseError::EventTooLarge { limit: list.len() - 1 }));
}

#[test]
fn a_parser_that_skips_past_its_limit_keeps_nothing() {
    let mut parser = SseParser::new(1 << 20, Oversize::Skip).keep_data_over(1000);
    let mut out = Vec::new();
    parser.push(format!("data: {}\n\n", big_read(3000)).as_bytes(), &mut out).unwrap();
    assert!(parser.take_kept().is_empty());
    assert_eq!(out[0].data, big_read(3000));
    assert_eq!(out[0].kept, None);
}

#[test]
fn kept_data_past_half_a_mebibyte_with_nothing_left_out_is_left_whole_with_the_caller() {
    let list = format!("{{\"result\":{{\"tools\":[{}]}}}}", "{\"name\":\"t\"},".repeat(100_000).trim_end_matches(','));
    let events = kept_events(format!("data: {list}\n\n").as_bytes(), 64 * 1024, 4 << 20).unwrap();
    let (event, kept) = &events[0];
    assert!(event.data.is_empty() && event.kept.as_ref().is_some_and(|k| k.whole && k.elided == 0 && k.bytes == list.len()));
    assert_eq!(kept, list.as_bytes());
}

/// An id too long to copy into every event leaves the stream without one, as an empty id does,
/// and the next id of a sane length counts again.
#[test]
fn an_overlong_id_is_dropped_not_copied_into_every_event() {
    let mut parser = SseParser::default();
    let mut out = Vec::new();
    parser.push(b"id: 7\ndata: a\n\n", &mut out).unwrap();
    let long = "i".repeat(super::MAX_ID_BYTES + 1);
    parser.push(format!("id: {long}\ndata: b\n\ndata: c\n\n").as_bytes(), &mut out).unwrap();
    assert_eq!(parser.last_event_id(), None);
    parser.push(format!("id: {}\ndata: d\n\n", "j".repeat(super::MAX_ID_BYTES)).as_bytes(), &mut out).unwrap();
    let ids: Vec<Option<usize>> = out.iter().map(|e| e.id.as_ref().map(String::len)).collect();
    assert_eq!(ids, [Some(1), None, None, Some(super::MAX_ID_BYTES)]);
}

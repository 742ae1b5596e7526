//! What a JSON-RPC message is, learned from its bytes as they stream past,
//! without keeping them: its `id`, and whether it has a `method`, a `result`
//! or an `error`. A message too large to read is still answered: the request
//! it responds to fails at once instead of waiting for its timeout, and a
//! request the server sent can be refused by id.
//!
//! Memory is constant (the id is kept up to [`MAX_ID_BYTES`]); time is one
//! pass over the bytes.

use super::RequestId;

/// The longest id kept; a longer one is no id the client would recognise.
pub const MAX_ID_BYTES: usize = 256;
/// Top-level keys longer than this are none of the ones looked for.
const MAX_KEY_BYTES: usize = 8;

/// What was learned of a message's top level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The `id`, if it was a string or an integer.
    pub id: Option<RequestId>,
    /// It has a `method`: a request (with an id) or a notification.
    pub has_method: bool,
    /// It has a `result` or an `error`: a response.
    pub has_outcome: bool,
}

impl Envelope {
    /// A response to request `id`.
    pub fn response_id(&self) -> Option<&RequestId> {
        self.id.as_ref().filter(|_| self.has_outcome && !self.has_method)
    }

    /// A request from the server, with its id.
    pub fn request_id(&self) -> Option<&RequestId> {
        self.id.as_ref().filter(|_| self.has_method)
    }
}

/// What the id's value looks like so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Capture {
    /// Not capturing.
    Off,
    /// The last top-level key was `id`: its value comes next.
    Pending,
    /// Inside the id's string.
    Text,
    /// Inside the id's number.
    Number,
}

/// The scanner. Feed it bytes in any chunks, then call [`EnvelopeScanner::finish`].
#[derive(Debug, Default)]
pub struct EnvelopeScanner {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// The current string is a key of the top-level object.
    in_key: bool,
    /// At the top level, the next string is a key.
    expect_key: bool,
    key: Vec<u8>,
    capture: CaptureState,
    envelope: Envelope,
}

#[derive(Debug)]
struct CaptureState {
    mode: Capture,
    bytes: Vec<u8>,
    done: bool,
}

impl Default for CaptureState {
    fn default() -> Self {
        Self { mode: Capture::Off, bytes: Vec::new(), done: false }
    }
}

impl CaptureState {
    fn push(&mut self, byte: u8) {
        if self.bytes.len() < MAX_ID_BYTES + 2 {
            self.bytes.push(byte);
        }
    }

    fn end(&mut self) {
        self.mode = Capture::Off;
        self.done = true;
    }
}

impl EnvelopeScanner {
    /// Reads the next bytes of the message.
    pub fn feed(&mut self, chunk: &[u8]) {
        for &byte in chunk {
            self.step(byte);
        }
    }

    fn step(&mut self, byte: u8) {
        if self.in_string {
            self.string_byte(byte);
            return;
        }
        if self.capture.mode == Capture::Number {
            if byte.is_ascii_digit() || matches!(byte, b'-' | b'+' | b'.' | b'e' | b'E') {
                self.capture.push(byte);
                return;
            }
            self.capture.end();
        }
        match byte {
            b'"' => {
                self.in_string = true;
                self.in_key = self.depth == 1 && self.expect_key;
                if self.in_key {
                    self.key.clear();
                }
                if self.depth == 1 && self.capture.mode == Capture::Pending {
                    self.capture.mode = Capture::Text;
                    self.capture.push(byte);
                }
            }
            b'{' | b'[' => {
                if self.depth == 1 && self.capture.mode == Capture::Pending {
                    // An object or array is no id.
                    self.capture.end();
                }
                self.depth = self.depth.saturating_add(1);
                if self.depth == 1 {
                    self.expect_key = byte == b'{';
                }
            }
            b'}' | b']' => self.depth = self.depth.saturating_sub(1),
            b':' if self.depth == 1 => {
                self.expect_key = false;
                if self.key == b"id" && !self.capture.done {
                    self.capture.mode = Capture::Pending;
                }
            }
            b',' if self.depth == 1 => self.expect_key = true,
            b'-' | b'0'..=b'9' if self.depth == 1 && self.capture.mode == Capture::Pending => {
                self.capture.mode = Capture::Number;
                self.capture.push(byte);
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            // `null`, `true`, `false`: no id.
            _ if self.depth == 1 && self.capture.mode == Capture::Pending => self.capture.end(),
            _ => {}
        }
    }

    fn string_byte(&mut self, byte: u8) {
        if self.capture.mode == Capture::Text {
            self.capture.push(byte);
        }
        if self.escaped {
            self.escaped = false;
            self.push_key(byte);
            return;
        }
        match byte {
            b'\\' => {
                self.escaped = true;
                self.push_key(byte);
            }
            b'"' => {
                self.in_string = false;
                if self.capture.mode == Capture::Text {
                    self.capture.end();
                }
                if self.in_key {
                    self.in_key = false;
                    self.key_done();
                }
            }
            _ => self.push_key(byte),
        }
    }

    fn push_key(&mut self, byte: u8) {
        if self.in_key && self.key.len() <= MAX_KEY_BYTES {
            self.key.push(byte);
        }
    }

    fn key_done(&mut self) {
        match self.key.as_slice() {
            b"method" => self.envelope.has_method = true,
            b"result" | b"error" => self.envelope.has_outcome = true,
            _ => {}
        }
    }

    /// What the message said about itself.
    pub fn finish(mut self) -> Envelope {
        if self.capture.mode == Capture::Number {
            self.capture.end();
        }
        if self.capture.done && self.capture.bytes.len() <= MAX_ID_BYTES {
            // Through `str`: serde_json's byte reader would be a second copy of its parser in the module.
            let text = crate::protocol::wide::to_str(&self.capture.bytes);
            self.envelope.id = text.and_then(|t| crate::protocol::json::parse(t).ok()).as_ref().and_then(RequestId::from_token);
        }
        self.envelope
    }
}

/// Scans a whole message.
pub fn scan(bytes: &[u8]) -> Envelope {
    let mut scanner = EnvelopeScanner::default();
    scanner.feed(bytes);
    scanner.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_requests_and_notifications() {
        let response = scan(br#"{"result":{"content":[{"text":"\"id\": 9, \"method\""}],"id":[1]},"jsonrpc":"2.0","id":4}"#);
        assert_eq!(response, Envelope { id: Some(RequestId::Number(4)), has_method: false, has_outcome: true });
        assert_eq!(response.response_id(), Some(&RequestId::Number(4)));
        let request = scan(br#"{ "jsonrpc" : "2.0" , "id" : "s-1\"x" , "method" : "sampling/createMessage", "params": {"id": 3} }"#);
        assert_eq!(request.request_id(), Some(&RequestId::String("s-1\"x".into())));
        assert_eq!(request.response_id(), None);
        let notification = scan(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"id":1,"result":2}}"#);
        assert_eq!(notification, Envelope { id: None, has_method: true, has_outcome: false });
        let error = scan(br#"{"jsonrpc":"2.0","id":-7,"error":{"code":-32603,"message":"x"}}"#);
        assert_eq!(error.response_id(), Some(&RequestId::Number(-7)));
    }

    #[test]
    fn chunks_split_anywhere() {
        let text = br#"{"jsonrpc":"2.0","result":{"big":"aaaaaaaaaaaaaaaaaaaaaaaaaaaa\\\"\\"},"id":12345}"#;
        for size in 1..text.len() {
            let mut scanner = EnvelopeScanner::default();
            for chunk in text.chunks(size) {
                scanner.feed(chunk);
            }
            assert_eq!(scanner.finish().response_id(), Some(&RequestId::Number(12345)), "chunks of {size}");
        }
    }

    #[test]
    fn what_is_no_id() {
        assert_eq!(scan(br#"{"id":null,"error":{}}"#).id, None);
        assert_eq!(scan(br#"{"id":{"a":1},"result":1}"#).id, None);
        assert_eq!(scan(br#"{"id":1.5,"result":1}"#).id, None);
        assert_eq!(scan(format!(r#"{{"id":"{}","result":1}}"#, "x".repeat(300)).as_bytes()).id, None);
        assert_eq!(scan(br#"[{"id":1,"result":1}]"#).id, None, "a batch has no single id");
        assert_eq!(scan(b"garbage").id, None);
        assert_eq!(scan(br#"{"id":1,"id":2,"result":1}"#).id, Some(RequestId::Number(1)), "the first id counts");
    }
}

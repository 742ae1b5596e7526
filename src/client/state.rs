//! What one connection holds: the session, what the server declared, the
//! client's settings, and the bookkeeping the features share (listed tool
//! schemas, subscriptions, the cache, a renewal in progress).

#[cfg(feature = "modern")]
use super::cache::ResponseCache;
use super::era::Era;
use super::events::EventHub;
#[cfg(feature = "modern")]
use super::handlers::Answering;
use super::lifecycle::Offer;
#[cfg(feature = "modern")]
use super::listening::Listening;
use super::skill_checker::SkillChecker;
use super::validator::SchemaValidator;
use crate::error::Error;
use crate::protocol::lifecycle::ServerIdentity;
#[cfg(feature = "validator")]
use crate::protocol::schema::LinearPatterns;
use crate::session::limits::Limits;
use crate::session::{Answer, Channel, Connector, Kept, LargeResult, OpenContext, Session, ToolSchemas};
use futures::future::{LocalBoxFuture, Shared};
use serde_json::{Map, Value};
use std::cell::{Cell, OnceCell, RefCell};
use std::rc::{Rc, Weak};

/// A session renewal, awaited by every request that found the session gone.
pub(crate) type Renewal = Shared<LocalBoxFuture<'static, Result<(), Error>>>;

/// A result as the server sent it: parsed, or for a large result its
/// original text, which a consumer (`JSON.parse`) reads faster than the value
/// could be written out again, and which is parsed here only if something
/// needs the value. A large message may also be kept outside wasm (in JS),
/// with only a text lacking what the checks do not read handed on: the checks
/// read that text, and the value is read in whole when something needs it.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The parsed result; `None` while only its text is known (a large
    /// result the transport kept as text), until something needs the value.
    value: Option<Value>,
    parsed: OnceCell<Value>,
    large: Option<LargeResult>,
}

impl From<Answer> for Reply {
    fn from(answer: Answer) -> Self {
        match answer {
            Answer::Parsed(value) => Self::from(value),
            Answer::Text(large) => Self { value: None, parsed: OnceCell::new(), large: Some(large) },
        }
    }
}

impl From<Value> for Reply {
    fn from(value: Value) -> Self {
        Self { value: Some(value), parsed: OnceCell::new(), large: None }
    }
}

/// A large result parsed; the transport found it to be JSON already, so a
/// failure here is the parser's depth limit (or a kept body gone), and
/// reads as `null`.
fn parse(large: Option<&LargeResult>) -> Value {
    large.and_then(|large| large.parse_whole().ok()).unwrap_or(Value::Null)
}

/// About how many bytes `value` takes as JSON text, without writing it.
pub(crate) fn json_size(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(s) => s.len() + 2,
        Value::Array(items) => 2 + items.iter().map(|v| json_size(v) + 1).sum::<usize>(),
        Value::Object(map) => 2 + map.iter().map(|(k, v)| k.len() + 4 + json_size(v)).sum::<usize>(),
    }
}

impl Reply {
    /// The result, parsed from its text the first time it is needed.
    pub fn value(&self) -> &Value {
        match &self.value {
            Some(value) => value,
            None => self.parsed.get_or_init(|| parse(self.large.as_ref())),
        }
    }

    /// Reads a result still in its text into its tree for the client's own
    /// checks, within the bound on values ([`LargeResult::parse`]); the
    /// checks' [`Reply::value`] then reads that tree.
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] past the bound, [`Error::Protocol`] for a text
    /// the reader refuses.
    pub(crate) fn read_within_limit(&self) -> Result<(), Error> {
        if let (None, None, Some(large)) = (&self.value, self.parsed.get(), &self.large) {
            let _ = self.parsed.set(large.parse()?);
        }
        Ok(())
    }

    /// The result, to keep.
    pub fn into_value(self) -> Value {
        match self.value {
            Some(value) => value,
            None => self.parsed.into_inner().unwrap_or_else(|| parse(self.large.as_ref())),
        }
    }

    /// The server's own text of the result, when it was kept as text in
    /// wasm (not for a message kept outside it, see [`Reply::kept`]).
    pub fn text(&self) -> Option<&str> {
        self.large.as_ref().filter(|large| large.kept.is_none()).map(|large| large.text.as_str())
    }

    /// The whole message, when the transport kept it outside wasm.
    pub fn kept(&self) -> Option<&Kept> {
        self.large.as_ref().and_then(|large| large.kept.as_ref())
    }

    /// The result read from a message kept outside wasm, for a check that
    /// needs what the text it read lacks, within the bound on values
    /// ([`LargeResult::parse`]): the check is the client's own reading, and
    /// a kept message may be 32 MiB of tiny values. Unlike [`Reply::value`],
    /// a message the reader refuses is an error, not `null`.
    pub(crate) fn read_kept(&self) -> Option<Result<Value, Error>> {
        self.large.as_ref().filter(|large| large.kept.is_some()).map(LargeResult::parse)
    }

    /// The text the checks read: the server's, or for a kept message the one
    /// without what its checks do not read, which a shape check reads alike.
    pub(crate) fn checked_text(&self) -> Option<&str> {
        self.large.as_ref().map(|large| large.text.as_str())
    }

    /// The result's length in bytes as the server sent it (for a result that
    /// came parsed, about as long as it would be written out).
    pub(crate) fn bytes(&self) -> usize {
        match (&self.large, &self.value) {
            (Some(large), _) => large.kept.as_ref().map_or(large.text.len(), |kept| kept.bytes()),
            (None, Some(value)) => json_size(value),
            (None, None) => 0,
        }
    }

    /// The text, while nothing has parsed it yet: a check that can read what
    /// it needs from the text saves building the tree.
    pub(crate) fn unparsed_text(&self) -> Option<&str> {
        match (&self.value, self.parsed.get()) {
            (None, None) => self.checked_text(),
            _ => None,
        }
    }

    /// Two top-level members of the result, read from the text in one pass
    /// without a tree while nothing has parsed it.
    #[cfg(feature = "modern")]
    pub(crate) fn members(&self, names: [&str; 2]) -> [Option<Value>; 2] {
        use crate::protocol::pick::{member, pick_accepted, Pick};
        // A kept message's text lacks strings a member may hold.
        let text = self.unparsed_text().filter(|_| self.kept().is_none());
        let picked = text.and_then(|text| pick_accepted(text, Pick { names: [names[0], names[1], "", ""], items: None }));
        match picked {
            Some((fields, _)) => [0, 1].map(|slot| member(&fields, slot).and_then(|raw| crate::protocol::json::parse(raw).ok())),
            None => names.map(|name| self.value().get(name).cloned()),
        }
    }

    /// The length of the result's JSON, from its text when it has one.
    #[cfg(feature = "modern")]
    pub(crate) fn text_len(&self) -> Option<usize> {
        self.text().map(str::len)
    }

    /// The value to change, which makes the kept text stale: it is dropped.
    pub(crate) fn value_mut(&mut self) -> &mut Value {
        if self.value.is_none() {
            let parsed = self.parsed.take().unwrap_or_else(|| parse(self.large.as_ref()));
            self.value = Some(parsed);
        }
        self.large = None;
        self.value.get_or_insert(Value::Null)
    }
}

/// The settings a connection keeps from its options.
#[derive(Clone)]
pub(crate) struct Settings {
    pub strict: bool,
    pub validate_output: bool,
    pub validator: Option<Rc<dyn SchemaValidator>>,
    pub skill_checker: Option<Rc<dyn SkillChecker>>,
    #[cfg(feature = "modern")]
    pub max_input_rounds: u32,
    pub limits: Limits,
}

pub(crate) struct ClientState {
    pub connector: Rc<dyn Connector>,
    pub context: OpenContext,
    pub session: Session,
    pub channel: Channel,
    pub era: Era,
    #[cfg(feature = "modern")]
    pub answering: Rc<Answering>,
    pub settings: Settings,
    /// What `initialize` (or `server/discover`) said; replaced on renewal.
    pub identity: RefCell<ServerIdentity>,
    /// What the client offered, to offer it again on renewal.
    pub offer: Offer,
    pub events: Rc<EventHub>,
    pub me: Weak<ClientState>,
    pub renewal: RefCell<Option<Renewal>>,
    /// The renewals the server-to-client stream asked for in a row, and when the last was.
    pub stream_renewals: Cell<(u32, f64)>,
    /// The client has set a logging level or subscribed to a resource
    /// (`note_told`): a snapshot carries them, and a renewal of the session
    /// restores them. Never cleared: a snapshot reads the two fields then.
    pub told: Cell<bool>,
    /// The level set with `set_logging_level`: sent in `_meta` in the modern
    /// era, and again to a renewed legacy session.
    pub log_level: RefCell<Option<String>>,
    /// Subscribed resources (the modern era carries them on `subscriptions/listen`;
    /// a renewed legacy session is asked for them again), sorted: a list, since a
    /// `BTreeSet` would compile in a second ordered collection for a handful of URIs.
    pub subscriptions: RefCell<Vec<String>>,
    #[cfg(feature = "modern")]
    pub listening: Listening,
    #[cfg(feature = "modern")]
    pub cache: Option<ResponseCache>,
    /// Tool input schemas for `Mcp-Param-*` headers, shared with the transport.
    pub tool_schemas: ToolSchemas,
    /// The `outputSchema` of every tool in the last listing (a JSON object's
    /// map, as [`ToolSchemas`] is).
    pub output_schemas: RefCell<Map<String, Value>>,
    /// The tools whose last listing declared `idempotentHint: true`: the only
    /// calls sent again after a broken stream. Each maps to `true`, in a JSON
    /// object's map rather than a set of its own, for the same reason.
    pub idempotent_tools: RefCell<Map<String, Value>>,
    /// The tools whose last listing declared `execution.taskSupport`
    /// `required` (mapped to `true`) or `optional` (`false`): how a call of
    /// one must go (see `ClientState::task_support`).
    pub task_tools: RefCell<Map<String, Value>>,
    /// Whether a whole listing of the tools has ended since the learned maps
    /// were last cleared and the server last said its tools changed: a tool
    /// it did not declare a task tool of is then known to forbid tasks,
    /// rather than unknown.
    pub tools_listed: Cell<bool>,
    /// Whether that listener is in place (from the first listing of the tools on).
    pub watching_tool_changes: Cell<bool>,
    /// How many times the learned maps were cleared for their budget, or the
    /// server said its tools changed: a listing during which either happened
    /// has not taught all the tools are, and is not whole.
    pub tool_upsets: Cell<u64>,
    /// Whole listings of the tools begun: one that a newer one began during
    /// neither learns nor forgets (see `ClientState::forget_tools_but`).
    pub tool_listings: Cell<u64>,
    /// The bytes of the pages of tools learned from since the last whole
    /// listing: what bounds the learned maps when a caller only ever asks
    /// page by page (see `ClientState::charge_learning`).
    pub learned_bytes: Cell<usize>,
    /// Evaluates `pattern` keywords; keeps compiled patterns across calls.
    #[cfg(feature = "validator")]
    pub patterns: LinearPatterns,
}

impl std::fmt::Debug for ClientState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientState")
            .field("channel", &self.channel)
            .field("era", &self.era)
            .field("protocol_version", &self.identity.borrow().protocol_version)
            .field("session", &self.session)
            .finish()
    }
}

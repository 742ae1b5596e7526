//! RFC 6570 URI Templates, levels 1 to 4: expansion, and matching a URI back
//! to the variables that would expand to it (for routing `resources/read` to
//! a resource template).

use super::encoding::{percent_decode, Escapes};
use std::fmt;

/// A variable's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateValue {
    /// A string (numbers and booleans are passed as their text).
    String(String),
    /// A list of strings.
    List(Vec<String>),
    /// Name-value pairs, in order.
    Map(Vec<(String, String)>),
}

/// How many steps matching one URI against one template may take by default:
/// real templates need a few dozen; a template built to backtrack
/// (`{+a}{+b}…{+h}!`) is stopped within milliseconds.
pub const DEFAULT_MATCH_STEPS: u64 = 100_000;

/// The most literals and expressions a template may have. Matching goes a call
/// deeper for each, on wasm's 1 MiB stack; a server's template of 50,000
/// `{a}` would exhaust it well within the steps. Real ones have a handful.
pub const MAX_PARTS: usize = 64;

/// Matching gave up: deciding whether the URI matches would take more steps
/// than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchTooCostly {
    /// The step limit that was reached.
    pub steps: u64,
}

impl fmt::Display for MatchTooCostly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "matching the URI template takes more than {} steps", self.steps)
    }
}

/// A template that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError(pub String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid URI template: {}", self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Operator {
    symbol: Option<char>,
    first: &'static str,
    separator: char,
    named: bool,
    if_empty: &'static str,
    reserved: bool,
}

const OPERATORS: [Operator; 8] = [
    Operator { symbol: None, first: "", separator: ',', named: false, if_empty: "", reserved: false },
    Operator { symbol: Some('+'), first: "", separator: ',', named: false, if_empty: "", reserved: true },
    Operator { symbol: Some('#'), first: "#", separator: ',', named: false, if_empty: "", reserved: true },
    Operator { symbol: Some('.'), first: ".", separator: '.', named: false, if_empty: "", reserved: false },
    Operator { symbol: Some('/'), first: "/", separator: '/', named: false, if_empty: "", reserved: false },
    Operator { symbol: Some(';'), first: ";", separator: ';', named: true, if_empty: "", reserved: false },
    Operator { symbol: Some('?'), first: "?", separator: '&', named: true, if_empty: "=", reserved: false },
    Operator { symbol: Some('&'), first: "&", separator: '&', named: true, if_empty: "=", reserved: false },
];

#[derive(Clone, Debug, PartialEq, Eq)]
struct VarSpec {
    name: String,
    prefix: Option<usize>,
    explode: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// A literal, percent-encoded as it expands, once.
    Literal(String),
    Expression(Operator, Vec<VarSpec>),
}

/// A parsed URI template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

fn is_unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~".contains(c)
}

fn is_reserved(c: char) -> bool {
    ":/?#[]@!$&'()*+,;=".contains(c)
}

/// Percent-encodes `text`, keeping unreserved characters, and reserved ones
/// (and existing `%XX` escapes) when `reserved` is set.
fn encode(text: &str, reserved: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        let escape = c == '%' && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if is_unreserved(c) || (reserved && (is_reserved(c) || escape)) {
            out.push(c);
        } else {
            let mut buffer = [0; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

/// Decodes `%XX` escapes; `None` for a bad escape or a result that is not UTF-8.
fn decode(text: &str) -> Option<String> {
    String::from_utf8(percent_decode(text, false, Escapes::Strict)?).ok()
}

fn parse_varspec(text: &str) -> Result<VarSpec, TemplateError> {
    let (name, explode, prefix) = if let Some(name) = text.strip_suffix('*') {
        (name, true, None)
    } else if let Some((name, length)) = text.split_once(':') {
        let length: usize = length.parse().map_err(|_| TemplateError(format!("bad prefix length in {text:?}")))?;
        if !(1..10_000).contains(&length) {
            return Err(TemplateError(format!("prefix length out of range in {text:?}")));
        }
        (name, false, Some(length))
    } else {
        (text, false, None)
    };
    let valid = !name.is_empty()
        && name.split('.').all(|piece| !piece.is_empty())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%');
    if !valid {
        return Err(TemplateError(format!("bad variable name {name:?}")));
    }
    Ok(VarSpec { name: name.to_owned(), prefix, explode })
}

impl UriTemplate {
    /// Parses a template.
    ///
    /// # Errors
    /// [`TemplateError`] for an unclosed brace, an empty expression, a bad
    /// variable name or prefix, or an operator RFC 6570 reserves.
    pub fn parse(source: &str) -> Result<Self, TemplateError> {
        let mut parts = Vec::new();
        let mut rest = source;
        while let Some((literal, after)) = rest.split_once('{') {
            if literal.contains('}') {
                return Err(TemplateError("a '}' without '{'".into()));
            }
            if !literal.is_empty() {
                push_part(&mut parts, Part::Literal(encode(literal, true)))?;
            }
            let (body, tail) = after.split_once('}').ok_or_else(|| TemplateError("an expression is not closed".into()))?;
            let mut chars = body.chars();
            let first = chars.next().ok_or_else(|| TemplateError("an empty expression".into()))?;
            if "=,!@|".contains(first) {
                return Err(TemplateError(format!("the operator {first:?} is reserved")));
            }
            let operator = OPERATORS.iter().copied().find(|op| op.symbol == Some(first)).unwrap_or(OPERATORS[0]);
            let list = if operator.symbol.is_some() { chars.as_str() } else { body };
            let vars = list.split(',').map(parse_varspec).collect::<Result<Vec<_>, _>>()?;
            push_part(&mut parts, Part::Expression(operator, vars))?;
            rest = tail;
        }
        if rest.contains('}') {
            return Err(TemplateError("a '}' without '{'".into()));
        }
        if !rest.is_empty() {
            push_part(&mut parts, Part::Literal(encode(rest, true)))?;
        }
        Ok(Self { source: source.to_owned(), parts })
    }

    /// The template text.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The variable names, in order of appearance.
    pub fn variable_names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        for part in &self.parts {
            if let Part::Expression(_, vars) = part {
                names.extend(vars.iter().map(|v| v.name.as_str()));
            }
        }
        names
    }

    /// Expands the template; `lookup` gives each variable's value, or `None`
    /// when it is undefined.
    pub fn expand(&self, lookup: &dyn Fn(&str) -> Option<TemplateValue>) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(encoded) => out.push_str(encoded),
                Part::Expression(op, vars) => expand_expression(*op, vars, lookup, &mut out),
            }
        }
        out
    }

    /// The variables that expand this template to `uri`, sorted by name, or
    /// `None` if it does not match, deciding within `max_steps` steps.
    ///
    /// # Errors
    /// [`MatchTooCostly`] when the search takes more steps than that.
    pub fn matches(&self, uri: &str, max_steps: u64) -> Result<Option<Bindings>, MatchTooCostly> {
        let mut bindings = Bindings::default();
        let mut budget = Budget { left: max_steps, limit: max_steps };
        Ok(match_parts(&self.parts, uri, &mut bindings, &mut budget)?.then_some(bindings))
    }
}

/// Adds `part` to a template's parts, or refuses a template of more than [`MAX_PARTS`].
fn push_part(parts: &mut Vec<Part>, part: Part) -> Result<(), TemplateError> {
    if parts.len() == MAX_PARTS {
        return Err(TemplateError(crate::error::cold_format!("more than {MAX_PARTS} literals and expressions")));
    }
    parts.push(part);
    Ok(())
}

fn expand_expression(op: Operator, vars: &[VarSpec], lookup: &dyn Fn(&str) -> Option<TemplateValue>, out: &mut String) {
    let mut first = true;
    for var in vars {
        let Some(value) = lookup(&var.name) else { continue };
        let empty = match &value {
            TemplateValue::String(_) => false,
            TemplateValue::List(items) => items.is_empty(),
            TemplateValue::Map(pairs) => pairs.is_empty(),
        };
        if empty {
            continue;
        }
        out.push_str(if first { op.first } else { "" });
        if !first {
            out.push(op.separator);
        }
        first = false;
        let named = |out: &mut String, name: &str, text: &str| {
            out.push_str(name);
            if text.is_empty() {
                out.push_str(op.if_empty);
            } else {
                out.push('=');
                out.push_str(text);
            }
        };
        match value {
            TemplateValue::String(text) => {
                let text: String = match var.prefix {
                    Some(length) => text.chars().take(length).collect(),
                    None => text,
                };
                let encoded = encode(&text, op.reserved);
                if op.named {
                    named(out, &var.name, &encoded);
                } else {
                    out.push_str(&encoded);
                }
            }
            TemplateValue::List(items) => {
                let encoded: Vec<String> = items.iter().map(|i| encode(i, op.reserved)).collect();
                if !var.explode {
                    let joined = encoded.join(",");
                    if op.named {
                        named(out, &var.name, &joined);
                    } else {
                        out.push_str(&joined);
                    }
                } else if op.named {
                    for (i, item) in encoded.iter().enumerate() {
                        if i > 0 {
                            out.push(op.separator);
                        }
                        named(out, &var.name, item);
                    }
                } else {
                    out.push_str(&encoded.join(&op.separator.to_string()));
                }
            }
            TemplateValue::Map(pairs) => {
                let encoded: Vec<(String, String)> = pairs.iter().map(|(k, v)| (encode(k, op.reserved), encode(v, op.reserved))).collect();
                if var.explode {
                    for (i, (key, value)) in encoded.iter().enumerate() {
                        if i > 0 {
                            out.push(op.separator);
                        }
                        if op.named {
                            named(out, key, value);
                        } else {
                            out.push_str(key);
                            out.push('=');
                            out.push_str(value);
                        }
                    }
                } else {
                    let joined = encoded.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]).collect::<Vec<_>>().join(",");
                    if op.named {
                        named(out, &var.name, &joined);
                    } else {
                        out.push_str(&joined);
                    }
                }
            }
        }
    }
}

/// The steps a match may still take.
struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    fn spend(&mut self, steps: u64) -> Result<(), MatchTooCostly> {
        self.left = self.left.checked_sub(steps).ok_or(MatchTooCostly { steps: self.limit })?;
        Ok(())
    }
}

/// Tries every split of `uri` between the parts, backtracking. Real templates
/// have few expressions and stay far below the budget; one built to backtrack
/// (many adjacent `{+x}`) runs into it.
fn match_parts(parts: &[Part], uri: &str, bindings: &mut Bindings, budget: &mut Budget) -> Result<bool, MatchTooCostly> {
    budget.spend(1)?;
    let Some((part, rest)) = parts.split_first() else { return Ok(uri.is_empty()) };
    match part {
        Part::Literal(encoded) => match uri.strip_prefix(encoded.as_str()) {
            Some(tail) => match_parts(rest, tail, bindings, budget),
            None => Ok(false),
        },
        Part::Expression(op, vars) => {
            // The longest capture when nothing follows; otherwise the shortest first.
            if rest.is_empty() {
                return Ok(uri.chars().all(|c| allowed(*op, c)) && capture(*op, vars, rest, uri, uri.len(), bindings, budget)?);
            }
            // Captures only grow, and a disallowed character stays in them: the
            // candidates end before the first one. Taken one at a time, not
            // gathered: each level of the search would hold a list as long as the URI.
            let stop = uri.char_indices().find(|(_, c)| !allowed(*op, *c)).map_or(uri.len(), |(i, _)| i);
            for end in uri.char_indices().map(|(i, _)| i).take_while(|i| *i <= stop).chain((stop == uri.len()).then_some(stop)) {
                if capture(*op, vars, rest, uri, end, bindings, budget)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
    }
}

/// Whether the expression captures `uri` up to `end` and `rest` matches what follows.
fn capture(
    op: Operator,
    vars: &[VarSpec],
    rest: &[Part],
    uri: &str,
    end: usize,
    bindings: &mut Bindings,
    budget: &mut Budget,
) -> Result<bool, MatchTooCostly> {
    let Some((piece, tail)) = uri.split_at_checked(end) else { return Ok(false) };
    budget.spend(1 + bindings.len() as u64 + piece.len() as u64 / 16)?;
    let before = bindings.clone();
    if bind(op, vars, piece, bindings) && match_parts(rest, tail, bindings, budget)? {
        return Ok(true);
    }
    *bindings = before;
    Ok(false)
}

/// Whether `c` could be part of this operator's expansion: what the
/// expansion leaves unencoded, plus its own punctuation.
fn allowed(op: Operator, c: char) -> bool {
    is_unreserved(c)
        || c == '%'
        || c == ','
        || c == op.separator
        || op.first.contains(c)
        || (op.named && c == '=')
        || (op.reserved && is_reserved(c))
}

/// The variables a URI binds, sorted by name. A list with a lookup: a
/// template has a handful, and a `BTreeMap` would compile a second
/// ordered-map implementation into the module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings(Vec<(String, TemplateValue)>);

impl Bindings {
    fn at(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(held, _)| held.as_str().cmp(name))
    }

    /// The value bound to `name`.
    pub fn get(&self, name: &str) -> Option<&TemplateValue> {
        self.at(name).ok().and_then(|at| self.0.get(at)).map(|(_, value)| value)
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut TemplateValue> {
        self.at(name).ok().and_then(|at| self.0.get_mut(at)).map(|(_, value)| value)
    }

    /// Binds `name`, replacing an earlier value.
    fn set(&mut self, name: &str, value: TemplateValue) {
        match self.at(name) {
            Ok(at) => {
                if let Some(slot) = self.0.get_mut(at) {
                    slot.1 = value;
                }
            }
            Err(at) => self.0.insert(at, (name.to_owned(), value)),
        }
    }

    /// The bindings, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &TemplateValue)> {
        self.0.iter().map(|(name, value)| (name.as_str(), value))
    }

    /// How many variables are bound.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no variable is bound.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for Bindings {
    type Item = (String, TemplateValue);
    type IntoIter = std::vec::IntoIter<(String, TemplateValue)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

fn bind(op: Operator, vars: &[VarSpec], piece: &str, bindings: &mut Bindings) -> bool {
    if piece.is_empty() {
        return true;
    }
    let Some(body) = piece.strip_prefix(op.first) else { return false };
    let items: Vec<&str> = body.split(op.separator).collect();
    if op.named {
        for item in items {
            let (name, value) = item.split_once('=').unwrap_or((item, ""));
            let Some(var) = vars.iter().find(|v| v.name == name) else { return false };
            let Some(value) = decode(value) else { return false };
            match bindings.get_mut(&var.name) {
                Some(TemplateValue::List(list)) if var.explode => list.push(value),
                Some(_) => return false,
                None if var.explode => bindings.set(&var.name, TemplateValue::List(vec![value])),
                None => bindings.set(&var.name, TemplateValue::String(value)),
            }
        }
        return true;
    }
    if let [var] = vars {
        let value = if var.explode {
            match items.iter().map(|i| decode(i)).collect::<Option<Vec<_>>>() {
                Some(list) => TemplateValue::List(list),
                None => return false,
            }
        } else {
            match decode(body) {
                Some(text) => TemplateValue::String(text),
                None => return false,
            }
        };
        bindings.set(&var.name, value);
        return true;
    }
    if items.len() > vars.len() {
        return false;
    }
    for (var, item) in vars.iter().zip(items) {
        match decode(item) {
            Some(text) => bindings.set(&var.name, TemplateValue::String(text)),
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests;

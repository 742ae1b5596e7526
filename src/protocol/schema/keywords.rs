//! Keyword by keyword evaluation. Each check returns what it evaluated of the
//! instance (property names, item count), which `unevaluatedProperties` and
//! `unevaluatedItems` need.

use super::patterns::weight;
use super::{format_number as num, Dialect, Limits, PatternError, PatternMatcher, SchemaError, ValidationError};
use crate::protocol::jsonrpc::kind;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;

/// How deep schemas may nest (through `$ref` included) before validation stops:
/// a recursive schema over a recursive instance must not overflow the stack.
const MAX_DEPTH: usize = 256;
/// Bytes of text (times the pattern's weight) that one step of the budget
/// buys a pattern match: matching costs a few nanoseconds per such unit.
const PATTERN_UNITS_PER_STEP: u64 = 16;

/// What a schema evaluated of an object or array instance.
#[derive(Default)]
pub(super) struct Evaluated {
    properties: HashSet<String>,
    items: usize,
}

impl Evaluated {
    fn absorb(&mut self, other: Evaluated) {
        self.properties.extend(other.properties);
        self.items = self.items.max(other.items);
    }
}

pub(super) struct Validator<'a> {
    root: &'a Value,
    dialect: Dialect,
    patterns: &'a dyn PatternMatcher,
    /// Record evaluated property names (see [`uses_unevaluated`]).
    track: bool,
    /// Steps left before the validation gives up.
    budget: Cell<u64>,
    /// The `$ref`s being followed, as (target schema, instance) addresses: a
    /// target met again for the same instance value is a loop that makes no
    /// progress, however the schema branches.
    following: RefCell<Vec<(*const Value, *const Value)>>,
}

/// Why a check did not succeed: the instance does not match, or the
/// validation must stop. Combinators that try alternatives swallow the first
/// and pass the second on.
pub(super) enum Fail {
    Mismatch(ValidationError),
    Abort(ValidationError),
}

type Outcome = Result<Evaluated, Fail>;

fn mismatch(path: &str, keyword: &'static str, message: String) -> Fail {
    Fail::Mismatch(ValidationError { instance_path: path.to_owned(), keyword: Cow::Borrowed(keyword), message })
}

fn abort(path: &str, keyword: &'static str, message: String) -> Fail {
    Fail::Abort(ValidationError { instance_path: path.to_owned(), keyword: Cow::Borrowed(keyword), message })
}

/// How many values an instance holds, itself included.
fn count_values(value: &Value) -> u64 {
    match value {
        Value::Array(items) => 1 + items.iter().map(count_values).sum::<u64>(),
        Value::Object(map) => 1 + map.values().map(count_values).sum::<u64>(),
        _ => 1,
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`). Counts
/// the values it compares in `work`.
fn equal(a: &Value, b: &Value, work: &mut u64) -> bool {
    *work += 1;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b, work)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w, work))),
        _ => a == b,
    }
}

fn is_type(instance: &Value, name: &str) -> bool {
    match name {
        "null" => instance.is_null(),
        "boolean" => instance.is_boolean(),
        "object" => instance.is_object(),
        "array" => instance.is_array(),
        "string" => instance.is_string(),
        "number" => instance.is_number(),
        "integer" => instance.as_f64().is_some_and(|n| n.fract() == 0.0),
        _ => false,
    }
}

/// Escapes a property name for a JSON Pointer (RFC 6901).
fn push_segment(path: &mut String, segment: &str) -> usize {
    let before = path.len();
    path.push('/');
    if segment.contains(['~', '/']) {
        path.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(segment);
    }
    before
}

/// A keyword of a schema object. Schema objects are small, and comparing a
/// handful of keys costs less than hashing the name (serde_json's ordered map
/// hashes with SipHash), which matters once per keyword per instance node.
fn kw<'a>(schema: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    if schema.len() > 12 {
        return schema.get(name);
    }
    schema.iter().find_map(|(key, value)| (key == name).then_some(value))
}

/// Whether a schema uses `unevaluatedProperties` or `unevaluatedItems`
/// anywhere: only then must validation record what each keyword evaluated.
pub(super) fn uses_unevaluated(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.iter().any(|(key, value)| key == "unevaluatedProperties" || key == "unevaluatedItems" || uses_unevaluated(value))
        }
        Value::Array(items) => items.iter().any(uses_unevaluated),
        _ => false,
    }
}

impl<'a> Validator<'a> {
    pub(super) fn new(root: &'a Value, patterns: &'a dyn PatternMatcher, limits: &Limits, instance: &Value) -> Self {
        let allowance = count_values(instance).saturating_mul(limits.steps_per_value);
        Self {
            root,
            dialect: Dialect::of(root),
            patterns,
            track: uses_unevaluated(root),
            budget: Cell::new(limits.steps.saturating_add(allowance)),
            following: RefCell::default(),
        }
    }

    pub(super) fn run(&self, schema: &Value, instance: &Value) -> Result<(), SchemaError> {
        match self.check(schema, instance, &mut String::new(), 0) {
            Ok(_) => Ok(()),
            Err(Fail::Mismatch(detail)) => Err(SchemaError::Mismatch(detail)),
            Err(Fail::Abort(detail)) => Err(SchemaError::TooCostly(detail)),
        }
    }

    /// Takes `steps` from the budget, or stops the validation.
    fn spend(&self, steps: u64, path: &str) -> Result<(), Fail> {
        match self.budget.get().checked_sub(steps) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => {
                self.budget.set(0);
                Err(abort(path, "budget", "validating this value against the schema takes more work than the client allows".into()))
            }
        }
    }

    /// Checks `instance` against an alternative: `Ok(Some)` if it matches,
    /// `Ok(None)` if not, `Err` when the validation must stop.
    fn attempt(&self, schema: &Value, instance: &Value, path: &str, depth: usize) -> Result<Option<Evaluated>, Fail> {
        match self.check(schema, instance, &mut path.to_owned(), depth) {
            Ok(evaluated) => Ok(Some(evaluated)),
            Err(Fail::Mismatch(_)) => Ok(None),
            Err(stop) => Err(stop),
        }
    }

    /// Follows a `$ref`, refusing to come back to a target for the same instance value.
    fn follow(&self, target: &Value, instance: &Value, path: &mut String, depth: usize) -> Outcome {
        let key = (target as *const Value, instance as *const Value);
        if self.following.borrow().contains(&key) {
            return Err(abort(path, "$ref", "the schema refers back to itself without going deeper into the value".into()));
        }
        self.following.borrow_mut().push(key);
        let outcome = self.check(target, instance, path, depth);
        self.following.borrow_mut().pop();
        outcome
    }

    pub(super) fn check(&self, schema: &Value, instance: &Value, path: &mut String, depth: usize) -> Outcome {
        if depth > MAX_DEPTH {
            return Err(abort(path, "$ref", format!("the schema nests deeper than {MAX_DEPTH} levels")));
        }
        self.spend(1, path)?;
        let schema = match schema {
            Value::Bool(true) => return Ok(Evaluated::default()),
            Value::Bool(false) => return Err(mismatch(path, "false", "no value is allowed here".into())),
            Value::Object(schema) => schema,
            _ => return Err(mismatch(path, "schema", "the schema is neither an object nor a boolean".into())),
        };
        let mut evaluated = Evaluated::default();
        if let Some(Value::String(reference)) = kw(schema, "$ref") {
            let target = self.resolve(reference, path)?;
            evaluated.absorb(self.follow(target, instance, path, depth + 1)?);
            // Draft-07 ignores every keyword beside `$ref`.
            if self.dialect == Dialect::Draft7 {
                return Ok(evaluated);
            }
        }
        self.check_type_and_values(schema, instance, path)?;
        match instance {
            Value::Number(n) => self.check_number(schema, n.as_f64().unwrap_or(f64::NAN), path)?,
            Value::String(s) => self.check_string(schema, s, path)?,
            Value::Array(items) => evaluated.absorb(self.check_array(schema, items, path, depth)?),
            Value::Object(map) => evaluated.absorb(self.check_object(schema, instance, map, path, depth)?),
            _ => {}
        }
        evaluated.absorb(self.check_combinators(schema, instance, path, depth)?);
        self.check_unevaluated(schema, instance, &mut evaluated, path, depth)?;
        Ok(evaluated)
    }

    fn resolve(&self, reference: &str, path: &str) -> Result<&'a Value, Fail> {
        let Some(pointer) = reference.strip_prefix('#') else {
            let why = format!("$ref {reference:?} is not local; network and file references are not followed");
            return Err(mismatch(path, "$ref", why));
        };
        if pointer.is_empty() {
            return Ok(self.root);
        }
        if !pointer.starts_with('/') {
            let mut visited = 0;
            let found = find_anchor(self.root, pointer, &mut visited);
            self.spend(visited, path)?;
            return found.ok_or_else(|| mismatch(path, "$ref", format!("$ref {reference:?}: no such $anchor")));
        }
        let decoded = percent_decode(pointer);
        self.root.pointer(&decoded).ok_or_else(|| mismatch(path, "$ref", format!("$ref {reference:?} points at nothing")))
    }

    /// `equal`, paid for from the budget.
    fn equal(&self, a: &Value, b: &Value, path: &str) -> Result<bool, Fail> {
        let mut work = 0;
        let same = equal(a, b, &mut work);
        self.spend(work, path)?;
        Ok(same)
    }

    fn check_type_and_values(&self, schema: &Map<String, Value>, instance: &Value, path: &str) -> Result<(), Fail> {
        match kw(schema, "type") {
            Some(Value::String(name)) if !is_type(instance, name) => {
                return Err(mismatch(path, "type", format!("expected {name}, found {}", kind(instance))));
            }
            Some(Value::Array(names)) if !names.iter().filter_map(Value::as_str).any(|n| is_type(instance, n)) => {
                let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                return Err(mismatch(path, "type", format!("expected one of {}, found {}", names.join(", "), kind(instance))));
            }
            _ => {}
        }
        if let Some(Value::Array(options)) = kw(schema, "enum") {
            let mut found = false;
            for option in options {
                if self.equal(option, instance, path)? {
                    found = true;
                    break;
                }
            }
            if !found {
                return Err(mismatch(path, "enum", "the value is not one of the allowed values".into()));
            }
        }
        if let Some(expected) = kw(schema, "const") {
            if !self.equal(expected, instance, path)? {
                return Err(mismatch(path, "const", "the value is not the one the schema requires".into()));
            }
        }
        Ok(())
    }

    /// Matches a pattern, paying for it in proportion to the text's length.
    fn pattern_matches(&self, pattern: &str, text: &str, path: &str, keyword: &'static str) -> Result<bool, Fail> {
        let units = (text.len() as u64 + 1).saturating_mul(weight(pattern));
        self.spend(units / PATTERN_UNITS_PER_STEP + 1, path)?;
        match self.patterns.is_match(pattern, text) {
            Ok(matched) => Ok(matched),
            Err(PatternError::Invalid(why)) => {
                Err(mismatch(path, keyword, format!("the schema's pattern /{pattern}/ is not a valid regular expression: {why}")))
            }
            Err(PatternError::Unsupported(why)) => {
                Err(abort(path, keyword, format!("the schema's pattern /{pattern}/ cannot be evaluated in linear time: {why}")))
            }
        }
    }

    fn check_number(&self, schema: &Map<String, Value>, n: f64, path: &str) -> Result<(), Fail> {
        let bound = |name: &str| kw(schema, name).and_then(Value::as_f64);
        if let Some(max) = bound("maximum").filter(|max| n > *max) {
            return Err(mismatch(path, "maximum", format!("{} is greater than {}", num(n), num(max))));
        }
        if let Some(min) = bound("minimum").filter(|min| n < *min) {
            return Err(mismatch(path, "minimum", format!("{} is less than {}", num(n), num(min))));
        }
        if let Some(max) = bound("exclusiveMaximum").filter(|max| n >= *max) {
            return Err(mismatch(path, "exclusiveMaximum", format!("{} is not less than {}", num(n), num(max))));
        }
        if let Some(min) = bound("exclusiveMinimum").filter(|min| n <= *min) {
            return Err(mismatch(path, "exclusiveMinimum", format!("{} is not greater than {}", num(n), num(min))));
        }
        if let Some(step) = bound("multipleOf").filter(|s| *s > 0.0) {
            let ratio = n / step;
            if (ratio - ratio.round()).abs() > 1e-9 * ratio.abs().max(1.0) {
                return Err(mismatch(path, "multipleOf", format!("{} is not a multiple of {}", num(n), num(step))));
            }
        }
        Ok(())
    }

    fn check_string(&self, schema: &Map<String, Value>, s: &str, path: &str) -> Result<(), Fail> {
        let length = s.chars().count() as f64;
        if let Some(max) = kw(schema, "maxLength").and_then(Value::as_f64).filter(|max| length > *max) {
            return Err(mismatch(path, "maxLength", format!("longer than {} characters", num(max))));
        }
        if let Some(min) = kw(schema, "minLength").and_then(Value::as_f64).filter(|min| length < *min) {
            return Err(mismatch(path, "minLength", format!("shorter than {} characters", num(min))));
        }
        if let Some(Value::String(pattern)) = kw(schema, "pattern") {
            if !self.pattern_matches(pattern, s, path, "pattern")? {
                return Err(mismatch(path, "pattern", format!("does not match /{pattern}/")));
            }
        }
        Ok(())
    }

    fn check_array(&self, schema: &Map<String, Value>, items: &[Value], path: &mut String, depth: usize) -> Outcome {
        let count = items.len() as f64;
        if let Some(max) = kw(schema, "maxItems").and_then(Value::as_f64).filter(|max| count > *max) {
            return Err(mismatch(path, "maxItems", format!("more than {} items", num(max))));
        }
        if let Some(min) = kw(schema, "minItems").and_then(Value::as_f64).filter(|min| count < *min) {
            return Err(mismatch(path, "minItems", format!("fewer than {} items", num(min))));
        }
        if kw(schema, "uniqueItems") == Some(&Value::Bool(true)) {
            for (i, a) in items.iter().enumerate() {
                for (j, b) in items.iter().enumerate().skip(i + 1) {
                    if self.equal(a, b, path)? {
                        return Err(mismatch(path, "uniqueItems", format!("items {i} and {j} are equal")));
                    }
                }
            }
        }
        // Items checked positionally (a tuple), then the schema for the rest.
        let (tuple, rest) = match (self.dialect, kw(schema, "items")) {
            (Dialect::Draft7, Some(Value::Array(tuple))) => (Some(tuple), kw(schema, "additionalItems")),
            (Dialect::Draft7, rest) => (None, rest),
            (Dialect::Draft2020, rest) => (kw(schema, "prefixItems").and_then(Value::as_array), rest),
        };
        let mut evaluated = Evaluated::default();
        for (i, item) in items.iter().enumerate() {
            let item_schema = match tuple.and_then(|t| t.get(i)) {
                Some(s) => s,
                None => match rest {
                    Some(s) => s,
                    None => continue,
                },
            };
            let before = push_segment(path, &i.to_string());
            self.check(item_schema, item, path, depth + 1)?;
            path.truncate(before);
            evaluated.items = i + 1;
        }
        if let Some(contains) = kw(schema, "contains") {
            let mut matches = 0.0;
            for item in items {
                if self.attempt(contains, item, path, depth + 1)?.is_some() {
                    matches += 1.0;
                }
            }
            let min = kw(schema, "minContains").and_then(Value::as_f64).unwrap_or(1.0);
            if matches < min {
                return Err(mismatch(path, "contains", format!("{} items match \"contains\", at least {} must", num(matches), num(min))));
            }
            if let Some(max) = kw(schema, "maxContains").and_then(Value::as_f64).filter(|max| matches > *max) {
                return Err(mismatch(path, "maxContains", format!("{} items match \"contains\", at most {} may", num(matches), num(max))));
            }
        }
        Ok(evaluated)
    }

    fn check_object(
        &self,
        schema: &Map<String, Value>,
        instance: &Value,
        map: &Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) -> Outcome {
        let count = map.len() as f64;
        if let Some(max) = kw(schema, "maxProperties").and_then(Value::as_f64).filter(|max| count > *max) {
            return Err(mismatch(path, "maxProperties", format!("more than {} properties", num(max))));
        }
        if let Some(min) = kw(schema, "minProperties").and_then(Value::as_f64).filter(|min| count < *min) {
            return Err(mismatch(path, "minProperties", format!("fewer than {} properties", num(min))));
        }
        if let Some(Value::Array(required)) = kw(schema, "required") {
            if let Some(missing) = required.iter().filter_map(Value::as_str).find(|name| !map.contains_key(*name)) {
                return Err(mismatch(path, "required", format!("the required property {missing:?} is missing")));
            }
        }
        let mut evaluated = Evaluated::default();
        let properties = kw(schema, "properties").and_then(Value::as_object);
        let patterns = kw(schema, "patternProperties").and_then(Value::as_object);
        for (name, value) in map {
            let mut matched = false;
            let before = push_segment(path, name);
            if let Some(property) = properties.and_then(|p| kw(p, name)) {
                self.check(property, value, path, depth + 1)?;
                matched = true;
            }
            for (pattern, property) in patterns.into_iter().flatten() {
                if self.pattern_matches(pattern, name, path, "patternProperties")? {
                    self.check(property, value, path, depth + 1)?;
                    matched = true;
                }
            }
            if !matched {
                if let Some(additional) = kw(schema, "additionalProperties") {
                    if additional == &Value::Bool(false) {
                        path.truncate(before);
                        return Err(mismatch(path, "additionalProperties", format!("the property {name:?} is not allowed")));
                    }
                    self.check(additional, value, path, depth + 1)?;
                    matched = true;
                }
            }
            path.truncate(before);
            if matched && self.track {
                evaluated.properties.insert(name.clone());
            }
            if let Some(names) = kw(schema, "propertyNames") {
                match self.check(names, &Value::String(name.clone()), path, depth + 1) {
                    Ok(_) => {}
                    Err(Fail::Mismatch(e)) => {
                        return Err(mismatch(path, "propertyNames", format!("the property name {name:?} is not allowed: {}", e.message)));
                    }
                    Err(stop) => return Err(stop),
                }
            }
        }
        let dependent_required = kw(schema, "dependentRequired").or(match self.dialect {
            Dialect::Draft7 => kw(schema, "dependencies"),
            Dialect::Draft2020 => None,
        });
        for (name, dependency) in dependent_required.and_then(Value::as_object).into_iter().flatten() {
            if !map.contains_key(name) {
                continue;
            }
            match dependency {
                Value::Array(needed) => {
                    if let Some(missing) = needed.iter().filter_map(Value::as_str).find(|n| !map.contains_key(*n)) {
                        return Err(mismatch(path, "dependentRequired", format!("{name:?} requires {missing:?}")));
                    }
                }
                // Draft-07 `dependencies` may hold a schema instead.
                schema_dependency => evaluated.absorb(self.check(schema_dependency, instance, path, depth + 1)?),
            }
        }
        for (name, dependency) in kw(schema, "dependentSchemas").and_then(Value::as_object).into_iter().flatten() {
            if map.contains_key(name) {
                evaluated.absorb(self.check(dependency, instance, path, depth + 1)?);
            }
        }
        Ok(evaluated)
    }

    fn check_combinators(&self, schema: &Map<String, Value>, instance: &Value, path: &mut String, depth: usize) -> Outcome {
        let mut evaluated = Evaluated::default();
        for sub in kw(schema, "allOf").and_then(Value::as_array).into_iter().flatten() {
            evaluated.absorb(self.check(sub, instance, path, depth + 1)?);
        }
        if let Some(Value::Array(options)) = kw(schema, "anyOf") {
            let mut any = false;
            for sub in options {
                if let Some(e) = self.attempt(sub, instance, path, depth + 1)? {
                    evaluated.absorb(e);
                    any = true;
                }
            }
            if !any {
                return Err(mismatch(path, "anyOf", "matches none of the anyOf alternatives".into()));
            }
        }
        if let Some(Value::Array(options)) = kw(schema, "oneOf") {
            let mut matched = None;
            for sub in options {
                if let Some(e) = self.attempt(sub, instance, path, depth + 1)? {
                    if matched.is_some() {
                        return Err(mismatch(path, "oneOf", "matches more than one oneOf alternative".into()));
                    }
                    matched = Some(e);
                }
            }
            match matched {
                Some(e) => evaluated.absorb(e),
                None => return Err(mismatch(path, "oneOf", "matches none of the oneOf alternatives".into())),
            }
        }
        if let Some(not) = kw(schema, "not") {
            if self.attempt(not, instance, path, depth + 1)?.is_some() {
                return Err(mismatch(path, "not", "matches the schema in \"not\"".into()));
            }
        }
        if let Some(condition) = kw(schema, "if") {
            match self.attempt(condition, instance, path, depth + 1)? {
                Some(e) => {
                    evaluated.absorb(e);
                    if let Some(then) = kw(schema, "then") {
                        evaluated.absorb(self.check(then, instance, path, depth + 1)?);
                    }
                }
                None => {
                    if let Some(otherwise) = kw(schema, "else") {
                        evaluated.absorb(self.check(otherwise, instance, path, depth + 1)?);
                    }
                }
            }
        }
        Ok(evaluated)
    }

    fn check_unevaluated(
        &self,
        schema: &Map<String, Value>,
        instance: &Value,
        evaluated: &mut Evaluated,
        path: &mut String,
        depth: usize,
    ) -> Result<(), Fail> {
        if let (Some(rule), Value::Object(map)) = (kw(schema, "unevaluatedProperties"), instance) {
            for (name, value) in map.iter().filter(|(name, _)| !evaluated.properties.contains(*name)) {
                if rule == &Value::Bool(false) {
                    return Err(mismatch(path, "unevaluatedProperties", format!("the property {name:?} is not allowed")));
                }
                let before = push_segment(path, name);
                self.check(rule, value, path, depth + 1)?;
                path.truncate(before);
            }
            evaluated.properties.extend(map.keys().cloned());
        }
        if let (Some(rule), Value::Array(items)) = (kw(schema, "unevaluatedItems"), instance) {
            for (i, item) in items.iter().enumerate().skip(evaluated.items) {
                if rule == &Value::Bool(false) {
                    return Err(mismatch(path, "unevaluatedItems", format!("item {i} is not allowed")));
                }
                let before = push_segment(path, &i.to_string());
                self.check(rule, item, path, depth + 1)?;
                path.truncate(before);
            }
            evaluated.items = items.len();
        }
        Ok(())
    }
}

/// The subschema carrying `$anchor: anchor`; counts the nodes it visits.
fn find_anchor<'v>(node: &'v Value, anchor: &str, visited: &mut u64) -> Option<&'v Value> {
    *visited += 1;
    match node {
        Value::Object(map) => {
            if map.get("$anchor").and_then(Value::as_str) == Some(anchor) {
                return Some(node);
            }
            map.values().find_map(|child| find_anchor(child, anchor, visited))
        }
        Value::Array(items) => items.iter().find_map(|child| find_anchor(child, anchor, visited)),
        _ => None,
    }
}

/// Decodes `%XX` escapes in a URI fragment (JSON Pointers in `$ref` may use them).
fn percent_decode(text: &str) -> String {
    let bytes = crate::protocol::encoding::percent_decode(text, false, crate::protocol::encoding::Escapes::Lenient).unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

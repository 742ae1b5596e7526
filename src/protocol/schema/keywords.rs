//! Keyword by keyword evaluation. Each check returns what it evaluated of the
//! instance (property names, item count), which `unevaluatedProperties` and
//! `unevaluatedItems` need.

use super::instance::{self, member, Node, SMALL_OBJECT};
use super::patterns::weight;
use super::{format_number as num, Dialect, Limits, PatternError, PatternMatcher, SchemaError, ValidationError};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// How deep schemas may nest (through `$ref` included) before validation stops:
/// a recursive schema over a recursive instance must not overflow the stack.
const MAX_DEPTH: usize = 256;
/// Bytes of text (times the pattern's weight) that one step of the budget
/// buys a pattern match: matching costs a few nanoseconds per such unit.
const PATTERN_UNITS_PER_STEP: u64 = 16;
/// How many schema objects keep their keywords found for the rest of a
/// validation: a large instance meets the same few schemas thousands of
/// times, and a server's huge schema cannot make the memo grow past this.
const REMEMBERED_SCHEMAS: usize = 4096;

/// What a schema evaluated of an object or array instance. The property
/// names are recorded only for schemas that use `unevaluatedProperties`: a
/// set made for every value checked would cost more than the check.
#[derive(Default)]
pub(super) struct Evaluated {
    properties: Option<HashSet<String>>,
    items: usize,
}

impl Evaluated {
    fn absorb(&mut self, other: Evaluated) {
        if let Some(names) = other.properties {
            self.properties.get_or_insert_with(HashSet::new).extend(names);
        }
        self.items = self.items.max(other.items);
    }

    fn record(&mut self, names: impl IntoIterator<Item = String>) {
        self.properties.get_or_insert_with(HashSet::new).extend(names);
    }

    fn has(&self, name: &str) -> bool {
        self.properties.as_ref().is_some_and(|names| names.contains(name))
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
    following: RefCell<Vec<(usize, usize)>>,
    /// Each schema object's keywords, by its address, once found.
    /// Shared, not copied: a [`Keywords`] is a slot per keyword, and copying
    /// one out for every instance value cost more than the lookup.
    keywords: RefCell<HashMap<usize, Rc<Keywords<'a>>, BuildHasherDefault<AddressHasher>>>,
}

/// Hashes an address: one multiplication, where SipHash would cost more
/// than finding the keywords again.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_usize(&mut self, address: usize) {
        let mixed = (address as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = mixed ^ (mixed >> 29);
    }
}

/// Why a check did not succeed: the instance does not match, or the
/// validation must stop. Combinators that try alternatives swallow the first
/// and pass the second on.
pub(super) enum Fail {
    Mismatch(ValidationError),
    Abort(ValidationError),
}

type Outcome = Result<Evaluated, Fail>;

fn mismatch(path: &Path<'_>, keyword: &'static str, message: String) -> Fail {
    Fail::Mismatch(ValidationError { instance_path: path.render(), keyword: Cow::Borrowed(keyword), message })
}

fn abort(path: &Path<'_>, keyword: &'static str, message: String) -> Fail {
    Fail::Abort(ValidationError { instance_path: path.render(), keyword: Cow::Borrowed(keyword), message })
}

/// How many values an instance holds, itself included.
fn count_values(value: &Node<'_>) -> u64 {
    match value {
        Node::Array(items) => 1 + items.iter().map(count_values).sum::<u64>(),
        Node::Object(members) => 1 + members.iter().map(|(_, v)| count_values(v)).sum::<u64>(),
        _ => 1,
    }
}

/// A JSON Schema type name as a bit; unknown names match nothing.
fn type_bit(name: &str) -> u8 {
    match name {
        "null" => 1,
        "boolean" => 2,
        "object" => 4,
        "array" => 8,
        "string" => 16,
        "number" => 32,
        "integer" => 64,
        _ => 0,
    }
}

/// The type bits an instance value matches: a whole number is both a number and an integer.
fn type_bits(instance: &Node<'_>) -> u8 {
    match instance {
        Node::Null => 1,
        Node::Bool(_) => 2,
        Node::Object(_) => 4,
        Node::Array(_) => 8,
        Node::String(_) => 16,
        Node::Number(n) if n.fract() == 0.0 => 32 | 64,
        Node::Number(_) => 32,
    }
}

/// The member names of an instance object, for keywords that look up many
/// of them: a small object's members searched in turn, a large one's names
/// hashed into a set the first time a keyword asks.
struct Names<'n> {
    members: &'n [(Cow<'n, str>, Node<'n>)],
    set: OnceCell<HashSet<&'n str>>,
}

impl<'n> Names<'n> {
    fn of(members: &'n [(Cow<'n, str>, Node<'n>)]) -> Self {
        Self { members, set: OnceCell::new() }
    }

    fn has(&self, name: &str) -> bool {
        if self.members.len() <= SMALL_OBJECT {
            return member(self.members, name).is_some();
        }
        self.set.get_or_init(|| self.members.iter().map(|(k, _)| k.as_ref()).collect()).contains(name)
    }
}

/// Where in the instance a check is: a chain of steps back to the root,
/// which only a report writes out as a JSON Pointer. Checking a value costs
/// no text, and trying an alternative copies nothing.
#[derive(Clone, Copy)]
pub(super) struct Path<'p> {
    up: Option<&'p Path<'p>>,
    step: Step<'p>,
}

#[derive(Clone, Copy)]
enum Step<'p> {
    Root,
    Name(&'p str),
    Index(usize),
}

impl<'p> Path<'p> {
    pub(super) const ROOT: Path<'static> = Path { up: None, step: Step::Root };

    fn name<'q>(&'q self, name: &'q str) -> Path<'q> {
        Path { up: Some(self), step: Step::Name(name) }
    }

    fn index(&self, index: usize) -> Path<'_> {
        Path { up: Some(self), step: Step::Index(index) }
    }

    /// The JSON Pointer (RFC 6901): names escaped, indexes in decimal
    /// without the formatting machinery.
    fn render(&self) -> String {
        fn digits(out: &mut String, n: usize) {
            if n >= 10 {
                digits(out, n / 10);
            }
            out.push(char::from(b'0' + (n % 10) as u8));
        }
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(path) = at {
            steps.push(path.step);
            at = path.up;
        }
        let mut out = String::new();
        for step in steps.iter().rev() {
            match step {
                Step::Root => {}
                Step::Name(name) => {
                    out.push('/');
                    out.push_str(&name.replace('~', "~0").replace('/', "~1"));
                }
                Step::Index(index) => {
                    out.push('/');
                    digits(&mut out, *index);
                }
            }
        }
        out
    }
}

/// The keywords the validator reads: slots of [`Keywords`].
#[derive(Clone, Copy)]
enum K {
    Ref,
    AdditionalItems,
    AdditionalProperties,
    AllOf,
    AnyOf,
    Const,
    Contains,
    Dependencies,
    DependentRequired,
    DependentSchemas,
    Else,
    Enum,
    ExclusiveMaximum,
    ExclusiveMinimum,
    If,
    Items,
    MaxContains,
    MaxItems,
    MaxLength,
    MaxProperties,
    Maximum,
    MinContains,
    MinItems,
    MinLength,
    MinProperties,
    Minimum,
    MultipleOf,
    Not,
    OneOf,
    Pattern,
    PatternProperties,
    PrefixItems,
    Properties,
    PropertyNames,
    Required,
    Then,
    Type,
    UnevaluatedItems,
    UnevaluatedProperties,
    UniqueItems,
}

const KEYWORDS: usize = K::UniqueItems as usize + 1;

/// A schema object's keywords, found in one pass over its keys: each check
/// then reads a slot instead of searching the object for every keyword it
/// knows, once per keyword per instance value.
#[derive(Clone, Copy)]
struct Keywords<'a> {
    slots: [Option<&'a Value>; KEYWORDS],
    /// `type` as bits ([`type_bit`]), when the schema has one to check.
    types: Option<u8>,
    /// Which groups of keywords ([`Group`]) the schema uses: a check skips
    /// the groups it does not, once per instance value.
    groups: u8,
}

/// Groups of keywords, as bits of [`Keywords::groups`].
struct Group;

impl Group {
    const VALUES: u8 = 1;
    const NUMBER: u8 = 2;
    const STRING: u8 = 4;
    const ARRAY: u8 = 8;
    const OBJECT: u8 = 16;
    const COMBINATORS: u8 = 32;
    const UNEVALUATED: u8 = 64;

    fn of(keyword: K) -> u8 {
        match keyword {
            K::Enum | K::Const => Self::VALUES,
            K::Maximum | K::Minimum | K::ExclusiveMaximum | K::ExclusiveMinimum | K::MultipleOf => Self::NUMBER,
            K::MaxLength | K::MinLength | K::Pattern => Self::STRING,
            K::AdditionalItems
            | K::Contains
            | K::Items
            | K::MaxContains
            | K::MaxItems
            | K::MinContains
            | K::MinItems
            | K::PrefixItems
            | K::UniqueItems => Self::ARRAY,
            K::AdditionalProperties
            | K::Dependencies
            | K::DependentRequired
            | K::DependentSchemas
            | K::MaxProperties
            | K::MinProperties
            | K::PatternProperties
            | K::Properties
            | K::PropertyNames
            | K::Required => Self::OBJECT,
            K::AllOf | K::AnyOf | K::OneOf | K::Not | K::If | K::Then | K::Else => Self::COMBINATORS,
            K::UnevaluatedItems | K::UnevaluatedProperties => Self::UNEVALUATED,
            K::Ref | K::Type => 0,
        }
    }
}

impl<'a> Keywords<'a> {
    fn of(schema: &'a Map<String, Value>) -> Self {
        let mut slots = [None; KEYWORDS];
        let mut groups = 0;
        for (key, value) in schema {
            let keyword = match key.as_str() {
                "$ref" => K::Ref,
                "additionalItems" => K::AdditionalItems,
                "additionalProperties" => K::AdditionalProperties,
                "allOf" => K::AllOf,
                "anyOf" => K::AnyOf,
                "const" => K::Const,
                "contains" => K::Contains,
                "dependencies" => K::Dependencies,
                "dependentRequired" => K::DependentRequired,
                "dependentSchemas" => K::DependentSchemas,
                "else" => K::Else,
                "enum" => K::Enum,
                "exclusiveMaximum" => K::ExclusiveMaximum,
                "exclusiveMinimum" => K::ExclusiveMinimum,
                "if" => K::If,
                "items" => K::Items,
                "maxContains" => K::MaxContains,
                "maxItems" => K::MaxItems,
                "maxLength" => K::MaxLength,
                "maxProperties" => K::MaxProperties,
                "maximum" => K::Maximum,
                "minContains" => K::MinContains,
                "minItems" => K::MinItems,
                "minLength" => K::MinLength,
                "minProperties" => K::MinProperties,
                "minimum" => K::Minimum,
                "multipleOf" => K::MultipleOf,
                "not" => K::Not,
                "oneOf" => K::OneOf,
                "pattern" => K::Pattern,
                "patternProperties" => K::PatternProperties,
                "prefixItems" => K::PrefixItems,
                "properties" => K::Properties,
                "propertyNames" => K::PropertyNames,
                "required" => K::Required,
                "then" => K::Then,
                "type" => K::Type,
                "unevaluatedItems" => K::UnevaluatedItems,
                "unevaluatedProperties" => K::UnevaluatedProperties,
                "uniqueItems" => K::UniqueItems,
                _ => continue,
            };
            if let Some(slot) = slots.get_mut(keyword as usize) {
                *slot = Some(value);
                groups |= Group::of(keyword);
            }
        }
        let types = match slots.get(K::Type as usize).copied().flatten() {
            Some(Value::String(name)) => Some(type_bit(name)),
            Some(Value::Array(names)) => Some(names.iter().filter_map(Value::as_str).fold(0, |bits, name| bits | type_bit(name))),
            _ => None,
        };
        Self { slots, types, groups }
    }

    fn uses(&self, group: u8) -> bool {
        self.groups & group != 0
    }

    fn get(&self, keyword: K) -> Option<&'a Value> {
        self.slots.get(keyword as usize).copied().flatten()
    }
}

/// A member of a small schema object, such as a schema's `properties`:
/// comparing a handful of keys costs less than hashing
/// the name (serde_json's ordered map hashes with SipHash), which matters
/// once per keyword per instance node.
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
    pub(super) fn new(root: &'a Value, patterns: &'a dyn PatternMatcher, limits: &Limits, instance: &Node<'_>) -> Self {
        let allowance = count_values(instance).saturating_mul(limits.steps_per_value);
        Self {
            root,
            dialect: Dialect::of(root),
            patterns,
            track: uses_unevaluated(root),
            budget: Cell::new(limits.steps.saturating_add(allowance)),
            following: RefCell::default(),
            keywords: RefCell::default(),
        }
    }

    pub(super) fn run(&self, schema: &'a Value, instance: &Node<'_>) -> Result<(), SchemaError> {
        match self.check(schema, instance, &Path::ROOT, 0) {
            Ok(_) => Ok(()),
            Err(Fail::Mismatch(detail)) => Err(SchemaError::Mismatch(detail)),
            Err(Fail::Abort(detail)) => Err(SchemaError::TooCostly(detail)),
        }
    }

    /// Takes `steps` from the budget, or stops the validation.
    fn spend(&self, steps: u64, path: &Path<'_>) -> Result<(), Fail> {
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
    fn attempt(&self, schema: &'a Value, instance: &Node<'_>, path: &Path<'_>, depth: usize) -> Result<Option<Evaluated>, Fail> {
        match self.check(schema, instance, path, depth) {
            Ok(evaluated) => Ok(Some(evaluated)),
            Err(Fail::Mismatch(_)) => Ok(None),
            Err(stop) => Err(stop),
        }
    }

    /// Follows a `$ref`, refusing to come back to a target for the same instance value.
    fn follow(&self, target: &'a Value, instance: &Node<'_>, path: &Path<'_>, depth: usize) -> Outcome {
        let key = (target as *const Value as usize, instance as *const Node<'_> as usize);
        if self.following.borrow().contains(&key) {
            return Err(abort(path, "$ref", "the schema refers back to itself without going deeper into the value".into()));
        }
        self.following.borrow_mut().push(key);
        let outcome = self.check(target, instance, path, depth);
        self.following.borrow_mut().pop();
        outcome
    }

    /// The keywords of a schema object, found once per validation (up to
    /// [`REMEMBERED_SCHEMAS`] objects).
    fn keywords_of(&self, schema: &'a Map<String, Value>) -> Rc<Keywords<'a>> {
        let address = schema as *const Map<String, Value> as usize;
        if let Some(found) = self.keywords.borrow().get(&address) {
            return Rc::clone(found);
        }
        let found = Rc::new(Keywords::of(schema));
        let mut memo = self.keywords.borrow_mut();
        if memo.len() < REMEMBERED_SCHEMAS {
            memo.insert(address, Rc::clone(&found));
        }
        found
    }

    pub(super) fn check(&self, schema: &'a Value, instance: &Node<'_>, path: &Path<'_>, depth: usize) -> Outcome {
        if depth > MAX_DEPTH {
            return Err(abort(path, "$ref", format!("the schema nests deeper than {MAX_DEPTH} levels")));
        }
        self.spend(1, path)?;
        let schema = match schema {
            Value::Bool(true) => return Ok(Evaluated::default()),
            Value::Bool(false) => return Err(mismatch(path, "false", "no value is allowed here".into())),
            Value::Object(schema) => self.keywords_of(schema),
            _ => return Err(mismatch(path, "schema", "the schema is neither an object nor a boolean".into())),
        };
        let schema = &schema;
        let mut evaluated = Evaluated::default();
        if let Some(Value::String(reference)) = schema.get(K::Ref) {
            let target = self.resolve(reference, path)?;
            evaluated.absorb(self.follow(target, instance, path, depth + 1)?);
            // Draft-07 ignores every keyword beside `$ref`.
            if self.dialect == Dialect::Draft7 {
                return Ok(evaluated);
            }
        }
        self.check_type_and_values(schema, instance, path)?;
        match instance {
            Node::Number(n) if schema.uses(Group::NUMBER) => self.check_number(schema, *n, path)?,
            Node::String(s) if schema.uses(Group::STRING) => self.check_string(schema, s, path)?,
            Node::Array(items) if schema.uses(Group::ARRAY) => evaluated.absorb(self.check_array(schema, items, path, depth)?),
            Node::Object(members) if schema.uses(Group::OBJECT) => {
                evaluated.absorb(self.check_object(schema, instance, members, path, depth)?);
            }
            _ => {}
        }
        if schema.uses(Group::COMBINATORS) {
            evaluated.absorb(self.check_combinators(schema, instance, path, depth)?);
        }
        if schema.uses(Group::UNEVALUATED) {
            self.check_unevaluated(schema, instance, &mut evaluated, path, depth)?;
        }
        Ok(evaluated)
    }

    fn resolve(&self, reference: &str, path: &Path<'_>) -> Result<&'a Value, Fail> {
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

    /// A comparison ([`instance::same`], [`instance::equal`]), paid for from
    /// the budget with the values it counted.
    fn paid(&self, path: &Path<'_>, compare: impl FnOnce(&mut u64) -> bool) -> Result<bool, Fail> {
        let mut work = 0;
        let outcome = compare(&mut work);
        self.spend(work, path)?;
        Ok(outcome)
    }

    fn check_type_and_values(&self, schema: &Keywords<'a>, instance: &Node<'_>, path: &Path<'_>) -> Result<(), Fail> {
        if schema.types.is_some_and(|types| types & type_bits(instance) == 0) {
            return Err(match schema.get(K::Type) {
                Some(Value::Array(names)) => {
                    let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
                    mismatch(path, "type", format!("expected one of {}, found {}", names.join(", "), instance.kind()))
                }
                Some(Value::String(name)) => mismatch(path, "type", format!("expected {name}, found {}", instance.kind())),
                _ => mismatch(path, "type", format!("found {}", instance.kind())),
            });
        }
        if !schema.uses(Group::VALUES) {
            return Ok(());
        }
        if let Some(Value::Array(options)) = schema.get(K::Enum) {
            let mut found = false;
            for option in options {
                if self.paid(path, |work| instance::same(option, instance, work))? {
                    found = true;
                    break;
                }
            }
            if !found {
                return Err(mismatch(path, "enum", "the value is not one of the allowed values".into()));
            }
        }
        if let Some(expected) = schema.get(K::Const) {
            if !self.paid(path, |work| instance::same(expected, instance, work))? {
                return Err(mismatch(path, "const", "the value is not the one the schema requires".into()));
            }
        }
        Ok(())
    }

    /// Matches a pattern, paying for it in proportion to the text's length.
    fn pattern_matches(&self, pattern: &str, text: &str, path: &Path<'_>, keyword: &'static str) -> Result<bool, Fail> {
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

    fn check_number(&self, schema: &Keywords<'a>, n: f64, path: &Path<'_>) -> Result<(), Fail> {
        let bound = |keyword: K| schema.get(keyword).and_then(Value::as_f64);
        if let Some(max) = bound(K::Maximum).filter(|max| n > *max) {
            return Err(mismatch(path, "maximum", format!("{} is greater than {}", num(n), num(max))));
        }
        if let Some(min) = bound(K::Minimum).filter(|min| n < *min) {
            return Err(mismatch(path, "minimum", format!("{} is less than {}", num(n), num(min))));
        }
        if let Some(max) = bound(K::ExclusiveMaximum).filter(|max| n >= *max) {
            return Err(mismatch(path, "exclusiveMaximum", format!("{} is not less than {}", num(n), num(max))));
        }
        if let Some(min) = bound(K::ExclusiveMinimum).filter(|min| n <= *min) {
            return Err(mismatch(path, "exclusiveMinimum", format!("{} is not greater than {}", num(n), num(min))));
        }
        if let Some(step) = bound(K::MultipleOf).filter(|s| *s > 0.0) {
            let ratio = n / step;
            if (ratio - ratio.round()).abs() > 1e-9 * ratio.abs().max(1.0) {
                return Err(mismatch(path, "multipleOf", format!("{} is not a multiple of {}", num(n), num(step))));
            }
        }
        Ok(())
    }

    fn check_string(&self, schema: &Keywords<'a>, s: &str, path: &Path<'_>) -> Result<(), Fail> {
        let (max, min) = (schema.get(K::MaxLength).and_then(Value::as_f64), schema.get(K::MinLength).and_then(Value::as_f64));
        // Counting characters walks the whole string: only when a bound asks.
        let length = if max.is_some() || min.is_some() { s.chars().count() as f64 } else { 0.0 };
        if let Some(max) = max.filter(|max| length > *max) {
            return Err(mismatch(path, "maxLength", format!("longer than {} characters", num(max))));
        }
        if let Some(min) = min.filter(|min| length < *min) {
            return Err(mismatch(path, "minLength", format!("shorter than {} characters", num(min))));
        }
        if let Some(Value::String(pattern)) = schema.get(K::Pattern) {
            if !self.pattern_matches(pattern, s, path, "pattern")? {
                return Err(mismatch(path, "pattern", format!("does not match /{pattern}/")));
            }
        }
        Ok(())
    }

    fn check_array(&self, schema: &Keywords<'a>, items: &[Node<'_>], path: &Path<'_>, depth: usize) -> Outcome {
        let count = items.len() as f64;
        if let Some(max) = schema.get(K::MaxItems).and_then(Value::as_f64).filter(|max| count > *max) {
            return Err(mismatch(path, "maxItems", format!("more than {} items", num(max))));
        }
        if let Some(min) = schema.get(K::MinItems).and_then(Value::as_f64).filter(|min| count < *min) {
            return Err(mismatch(path, "minItems", format!("fewer than {} items", num(min))));
        }
        if schema.get(K::UniqueItems) == Some(&Value::Bool(true)) {
            for (i, a) in items.iter().enumerate() {
                for (j, b) in items.iter().enumerate().skip(i + 1) {
                    if self.paid(path, |work| instance::equal(a, b, work))? {
                        return Err(mismatch(path, "uniqueItems", format!("items {i} and {j} are equal")));
                    }
                }
            }
        }
        // Items checked positionally (a tuple), then the schema for the rest.
        let (tuple, rest) = match (self.dialect, schema.get(K::Items)) {
            (Dialect::Draft7, Some(Value::Array(tuple))) => (Some(tuple), schema.get(K::AdditionalItems)),
            (Dialect::Draft7, rest) => (None, rest),
            (Dialect::Draft2020, rest) => (schema.get(K::PrefixItems).and_then(Value::as_array), rest),
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
            self.check(item_schema, item, &path.index(i), depth + 1)?;
            evaluated.items = i + 1;
        }
        if let Some(contains) = schema.get(K::Contains) {
            let mut matches = 0.0;
            for item in items {
                if self.attempt(contains, item, path, depth + 1)?.is_some() {
                    matches += 1.0;
                }
            }
            let min = schema.get(K::MinContains).and_then(Value::as_f64).unwrap_or(1.0);
            if matches < min {
                return Err(mismatch(path, "contains", format!("{} items match \"contains\", at least {} must", num(matches), num(min))));
            }
            if let Some(max) = schema.get(K::MaxContains).and_then(Value::as_f64).filter(|max| matches > *max) {
                return Err(mismatch(path, "maxContains", format!("{} items match \"contains\", at most {} may", num(matches), num(max))));
            }
        }
        Ok(evaluated)
    }

    fn check_object(
        &self,
        schema: &Keywords<'a>,
        instance: &Node<'_>,
        members: &[(Cow<'_, str>, Node<'_>)],
        path: &Path<'_>,
        depth: usize,
    ) -> Outcome {
        // Walking a large object's members (and hashing its names for `required`) is work that a
        // schema applied to the same object many times must pay for each time.
        if members.len() > SMALL_OBJECT {
            self.spend(members.len() as u64, path)?;
        }
        let count = members.len() as f64;
        if let Some(max) = schema.get(K::MaxProperties).and_then(Value::as_f64).filter(|max| count > *max) {
            return Err(mismatch(path, "maxProperties", format!("more than {} properties", num(max))));
        }
        if let Some(min) = schema.get(K::MinProperties).and_then(Value::as_f64).filter(|min| count < *min) {
            return Err(mismatch(path, "minProperties", format!("fewer than {} properties", num(min))));
        }
        let names = Names::of(members);
        if let Some(Value::Array(required)) = schema.get(K::Required) {
            if let Some(missing) = required.iter().filter_map(Value::as_str).find(|name| !names.has(name)) {
                return Err(mismatch(path, "required", format!("the required property {missing:?} is missing")));
            }
        }
        let mut evaluated = Evaluated::default();
        let properties = schema.get(K::Properties).and_then(Value::as_object);
        let patterns = schema.get(K::PatternProperties).and_then(Value::as_object);
        for (name, value) in members {
            let mut matched = false;
            let at = path.name(name);
            if let Some(property) = properties.and_then(|p| kw(p, name)) {
                self.check(property, value, &at, depth + 1)?;
                matched = true;
            }
            for (pattern, property) in patterns.into_iter().flatten() {
                if self.pattern_matches(pattern, name, &at, "patternProperties")? {
                    self.check(property, value, &at, depth + 1)?;
                    matched = true;
                }
            }
            if !matched {
                if let Some(additional) = schema.get(K::AdditionalProperties) {
                    if additional == &Value::Bool(false) {
                        return Err(mismatch(path, "additionalProperties", format!("the property {name:?} is not allowed")));
                    }
                    self.check(additional, value, &at, depth + 1)?;
                    matched = true;
                }
            }
            if matched && self.track {
                evaluated.record([name.to_string()]);
            }
            if let Some(names) = schema.get(K::PropertyNames) {
                match self.check(names, &Node::String(Cow::Borrowed(name)), path, depth + 1) {
                    Ok(_) => {}
                    Err(Fail::Mismatch(e)) => {
                        return Err(mismatch(path, "propertyNames", format!("the property name {name:?} is not allowed: {}", e.message)));
                    }
                    Err(stop) => return Err(stop),
                }
            }
        }
        let dependent_required = schema.get(K::DependentRequired).or(match self.dialect {
            Dialect::Draft7 => schema.get(K::Dependencies),
            Dialect::Draft2020 => None,
        });
        for (name, dependency) in dependent_required.and_then(Value::as_object).into_iter().flatten() {
            if !names.has(name) {
                continue;
            }
            match dependency {
                Value::Array(needed) => {
                    if let Some(missing) = needed.iter().filter_map(Value::as_str).find(|n| !names.has(n)) {
                        return Err(mismatch(path, "dependentRequired", format!("{name:?} requires {missing:?}")));
                    }
                }
                // Draft-07 `dependencies` may hold a schema instead.
                schema_dependency => evaluated.absorb(self.check(schema_dependency, instance, path, depth + 1)?),
            }
        }
        for (name, dependency) in schema.get(K::DependentSchemas).and_then(Value::as_object).into_iter().flatten() {
            if names.has(name) {
                evaluated.absorb(self.check(dependency, instance, path, depth + 1)?);
            }
        }
        Ok(evaluated)
    }

    fn check_combinators(&self, schema: &Keywords<'a>, instance: &Node<'_>, path: &Path<'_>, depth: usize) -> Outcome {
        let mut evaluated = Evaluated::default();
        for sub in schema.get(K::AllOf).and_then(Value::as_array).into_iter().flatten() {
            evaluated.absorb(self.check(sub, instance, path, depth + 1)?);
        }
        if let Some(Value::Array(options)) = schema.get(K::AnyOf) {
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
        if let Some(Value::Array(options)) = schema.get(K::OneOf) {
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
        if let Some(not) = schema.get(K::Not) {
            if self.attempt(not, instance, path, depth + 1)?.is_some() {
                return Err(mismatch(path, "not", "matches the schema in \"not\"".into()));
            }
        }
        if let Some(condition) = schema.get(K::If) {
            match self.attempt(condition, instance, path, depth + 1)? {
                Some(e) => {
                    evaluated.absorb(e);
                    if let Some(then) = schema.get(K::Then) {
                        evaluated.absorb(self.check(then, instance, path, depth + 1)?);
                    }
                }
                None => {
                    if let Some(otherwise) = schema.get(K::Else) {
                        evaluated.absorb(self.check(otherwise, instance, path, depth + 1)?);
                    }
                }
            }
        }
        Ok(evaluated)
    }

    fn check_unevaluated(
        &self,
        schema: &Keywords<'a>,
        instance: &Node<'_>,
        evaluated: &mut Evaluated,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), Fail> {
        if let (Some(rule), Node::Object(members)) = (schema.get(K::UnevaluatedProperties), instance) {
            for (name, value) in members.iter().filter(|(name, _)| !evaluated.has(name)) {
                if rule == &Value::Bool(false) {
                    return Err(mismatch(path, "unevaluatedProperties", format!("the property {name:?} is not allowed")));
                }
                self.check(rule, value, &path.name(name), depth + 1)?;
            }
            evaluated.record(members.iter().map(|(name, _)| name.to_string()));
        }
        if let (Some(rule), Node::Array(items)) = (schema.get(K::UnevaluatedItems), instance) {
            for (i, item) in items.iter().enumerate().skip(evaluated.items) {
                if rule == &Value::Bool(false) {
                    return Err(mismatch(path, "unevaluatedItems", format!("item {i} is not allowed")));
                }
                self.check(rule, item, &path.index(i), depth + 1)?;
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

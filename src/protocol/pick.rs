//! Reads the few members a check needs from a JSON text in one pass,
//! without building a tree: the text checks of large results and pages
//! (`results`, `list_text`) share it. One small hand-written visitor costs
//! the core fewer bytes than a derived struct or a map type per shape.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// Some members of an object, each as the server's text, in the order of
/// the names asked for. Parsing keeps the last of a member given twice, as
/// the parsed value does; a name with an escape in it fails the parse, and
/// the caller reads the value instead.
pub type Picked<'a> = [Option<&'a RawValue>; 4];

/// Reads an object, keeping the members named (at most four; "" is no
/// name) and skipping the rest; with `items`, the array under that name is
/// read in the same pass, each of its objects picked by the names given.
#[derive(Clone, Copy)]
pub struct Pick<'f> {
    /// The members to keep, by slot.
    pub names: [&'f str; 4],
    /// The array of objects to read, and the members to keep of each.
    pub items: Option<(&'f str, [&'f str; 4])>,
}

/// What [`Pick`] read: the members asked for, and the items.
pub type Read<'a> = (Picked<'a>, Option<Vec<Picked<'a>>>);

impl<'de> DeserializeSeed<'de> for Pick<'_> {
    type Value = Read<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Pick<'_> {
    type Value = Read<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut picked, mut items): Read<'de> = ([None; 4], None);
        while let Some(name) = map.next_key::<&'de str>()? {
            if let Some((_, item_names)) = self.items.filter(|(field, _)| *field == name) {
                items = Some(map.next_value_seed(Items(item_names))?);
            } else if let Some(slot) = self.names.iter().position(|n| !n.is_empty() && *n == name).and_then(|i| picked.get_mut(i)) {
                *slot = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok((picked, items))
    }
}

/// An array of objects, each read by [`Pick`] with the item's member names.
struct Items<'f>([&'f str; 4]);

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = Vec<Picked<'de>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = Vec<Picked<'de>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some((item, _)) = seq.next_element_seed(Pick { names: self.0, items: None })? {
            items.push(item);
        }
        Ok(items)
    }
}

/// Reads `text` with `pick`; `None` when it is not an object of that shape
/// (or has a member name with an escape in it).
pub fn pick<'a>(text: &'a str, pick: Pick<'_>) -> Option<Read<'a>> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let read = pick.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(read)
}

/// The one member `name` of the object `text`, as text: `Some(None)` when
/// it has none; `None` when `text` is not an object, names it twice, or has
/// a member name with an escape in it (only the parsed value can tell).
/// Code that rewrites an object's text needs the member to be the only one
/// of its name, where [`pick`] keeps the last.
pub fn sole_member<'a>(text: &'a str, name: &str) -> Option<Option<&'a RawValue>> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let found = deserializer.deserialize_map(Sole(name)).ok()?;
    deserializer.end().ok()?;
    found
}

struct Sole<'n>(&'n str);

impl<'de> Visitor<'de> for Sole<'_> {
    type Value = Option<Option<&'de RawValue>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found: Option<&'de RawValue> = None;
        let mut twice = false;
        while let Some(name) = map.next_key::<&'de str>()? {
            if name == self.0 {
                twice |= found.is_some();
                found = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok((!twice).then_some(found))
    }
}

/// Where `inner`, a slice of `outer`, begins in it.
pub fn offset_in(outer: &str, inner: &str) -> Option<usize> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    outer.get(start..start.checked_add(inner.len())?).map(|_| start)
}

/// JSON's whitespace.
pub const SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// Whether `byte` is JSON whitespace.
pub fn is_space(byte: u8) -> bool {
    SPACE.contains(&char::from(byte))
}

/// The first byte of `text` that is not JSON whitespace.
pub fn first_byte(text: &str) -> Option<u8> {
    text.trim_start_matches(SPACE).bytes().next()
}

/// Whether a member's text begins with `first`: `"` for a string, `{` for
/// an object, `[` for an array.
pub fn starts_with(raw: &RawValue, first: u8) -> bool {
    first_byte(raw.get()) == Some(first)
}

/// The member in `slot`, if it was present.
pub fn member<'a>(picked: &Picked<'a>, slot: usize) -> Option<&'a RawValue> {
    picked.get(slot).copied().flatten()
}

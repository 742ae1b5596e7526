//! Reads the few members a check needs from a JSON text in one pass,
//! without building a tree: the text checks of large results and pages
//! (`results`, `list_text`) and of large params share it. The pass is
//! [`scan`]'s, so a text [`pick`] reads is one `decode` would read too;
//! [`pick_accepted`] trusts that an earlier pass checked it.

pub use super::scan::is_space;
use super::scan::{scan, scan_accepted_entering};

/// Some members of an object, each as the server's text, in the order of
/// the names asked for. The last of a member given twice is kept, as the
/// parsed value keeps it; a name with an escape in it fails the read, and
/// the caller reads the value instead.
pub type Picked<'a> = [Option<&'a str>; 4];

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

/// Keeps `value` in the slot of `names` that `key` names, if any.
fn keep<'a>(picked: &mut Picked<'a>, names: &[&str; 4], key: &str, value: &'a str) {
    if let Some(slot) = names.iter().position(|n| !n.is_empty() && *n == key).and_then(|i| picked.get_mut(i)) {
        *slot = Some(value);
    }
}

/// Reads `text` with `pick`; `None` when it is not an object of that shape
/// (or has a member name with an escape in it), or not a text [`scan`]
/// accepts.
pub fn pick<'a>(text: &'a str, pick: Pick<'_>) -> Option<Read<'a>> {
    read(text, pick, false)
}

/// [`pick`] for a text that [`scan`] or `decode` accepted already (a large
/// result as the transport keeps it): what lies deeper than the items'
/// members is stepped over without its grammar checked again
/// ([`scan_accepted`]), such as a tool's `inputSchema` or the objects of a
/// `structuredContent`.
pub fn pick_accepted<'a>(text: &'a str, shape: Pick<'_>) -> Option<Read<'a>> {
    read(text, shape, true)
}

fn read<'a>(text: &'a str, pick: Pick<'_>, accepted: bool) -> Option<Read<'a>> {
    if first_byte(text) != Some(b'{') {
        return None;
    }
    let (items_field, item_names) = pick.items.unzip();
    let (mut picked, mut items): Read<'a> = ([None; 4], None);
    let (mut read_items, mut item): (Vec<Picked<'a>>, Picked<'a>) = (Vec::new(), [None; 4]);
    let keep_member = |path: &[Option<&'a str>], value: &'a str| {
        match *path {
            [Some(key)] if has_backslash(key) => return false,
            [Some(key)] if Some(key) == items_field => {
                if !value.starts_with('[') {
                    return false;
                }
                items = Some(std::mem::take(&mut read_items));
            }
            [Some(key)] => keep(&mut picked, &pick.names, key, value),
            [Some(key), None] if Some(key) == items_field => {
                if !value.starts_with('{') {
                    return false;
                }
                read_items.push(std::mem::take(&mut item));
            }
            [Some(key), None, Some(name)] if Some(key) == items_field => {
                if has_backslash(name) {
                    return false;
                }
                if let Some(names) = &item_names {
                    keep(&mut item, names, name, value);
                }
            }
            _ => {}
        }
        true
    };
    // Only the items array and its objects are entered: every other member is kept or skipped whole,
    // and a text already checked lets the pass step over it by its brackets (a large
    // `structuredContent` beside the content blocks).
    let enter = |path: &[Option<&str>]| match path {
        [] => true,
        [Some(key)] | [Some(key), None] => Some(*key) == items_field,
        _ => false,
    };
    let read = if accepted { scan_accepted_entering(text, &enter, keep_member) } else { scan(text, keep_member) };
    read.then_some((picked, items))
}

/// The one member `name` of the object `text`, as text: `Some(None)` when
/// it has none; `None` when `text` is not an object, names it twice, has
/// a member name with an escape in it (only the parsed value can tell), or
/// is not a text [`scan`] accepts. Code that rewrites an object's text needs
/// the member to be the only one of its name, where [`pick`] keeps the last.
pub fn sole_member<'a>(text: &'a str, name: &str) -> Option<Option<&'a str>> {
    if first_byte(text) != Some(b'{') {
        return None;
    }
    let (mut found, mut twice) = (None, false);
    let read = scan(text, |path, value| match *path {
        [Some(key)] if has_backslash(key) => false,
        [Some(key)] if key == name => {
            twice |= found.replace(value).is_some();
            true
        }
        _ => true,
    });
    (read && !twice).then_some(found)
}

/// Where `inner`, a slice of `outer`, begins in it.
pub fn offset_in(outer: &str, inner: &str) -> Option<usize> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    outer.get(start..start.checked_add(inner.len())?).map(|_| start)
}

/// `text` without the JSON whitespace it starts with. By bytes rather than
/// `trim_start_matches` with a `char` array, whose searchers the first call's
/// module otherwise carries in copies of their own.
pub fn trim_start_space(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut start = 0;
    while bytes.get(start).is_some_and(|&b| is_space(b)) {
        start += 1;
    }
    text.get(start..).unwrap_or(text)
}

/// `text` without the JSON whitespace it ends with.
pub fn trim_end_space(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    while end > 0 && bytes.get(end - 1).is_some_and(|&b| is_space(b)) {
        end -= 1;
    }
    text.get(..end).unwrap_or(text)
}

/// `text` without the JSON whitespace around it.
pub fn trim_space(text: &str) -> &str {
    trim_end_space(trim_start_space(text))
}

/// Whether a key or a string's text holds an escape. A loop rather than
/// `str::contains`, whose `memchr` the first call's module carried for these
/// short texts alone.
pub fn has_backslash(text: &str) -> bool {
    text.bytes().any(|b| b == b'\\')
}

/// The first byte of `text` that is not JSON whitespace.
pub fn first_byte(text: &str) -> Option<u8> {
    trim_start_space(text).bytes().next()
}

/// The string a picked member's text `raw` holds, unescaped; `None` when it
/// holds no string. Read as a `Value`, whose parser the module has anyway,
/// where a typed `String` would bring serde's typed reader into the JS build.
pub fn string_value(raw: &str) -> Option<String> {
    match crate::protocol::json::parse(raw) {
        Ok(serde_json::Value::String(s)) => Some(s),
        _ => None,
    }
}

/// Whether a member's text begins with `first`: `"` for a string, `{` for
/// an object, `[` for an array.
pub fn starts_with(raw: &str, first: u8) -> bool {
    first_byte(raw) == Some(first)
}

/// The member in `slot`, if it was present.
pub fn member<'a>(picked: &Picked<'a>, slot: usize) -> Option<&'a str> {
    picked.get(slot).copied().flatten()
}

#[cfg(test)]
mod tests {
    use super::{first_byte, trim_end_space, trim_space, trim_start_space};

    #[test]
    fn json_whitespace_is_trimmed_and_nothing_else() {
        assert_eq!(trim_space(" \t\r\n{\"a\": 1}\n \t"), "{\"a\": 1}");
        assert_eq!(trim_start_space("\n [ ] "), "[ ] ");
        assert_eq!(trim_end_space(" [ ]\r\n"), " [ ]");
        assert_eq!(trim_space(" \t\r\n"), "");
        assert_eq!(trim_space(""), "");
        // Other whitespace is not JSON's: a form feed, a no-break space, an ideographic space.
        assert_eq!(trim_space("\u{c}x\u{a0}"), "\u{c}x\u{a0}");
        assert_eq!(trim_space(" \u{3000}é "), "\u{3000}é");
        assert_eq!(first_byte("\r\n\t {"), Some(b'{'));
        assert_eq!(first_byte(" \n"), None);
    }
}

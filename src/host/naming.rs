//! Qualified tool names for a host that merges several servers: a server
//! prefix, then the tool's name, rewritten to fit what an LLM API accepts.
//! Names are assigned deterministically (the same servers and tools give the
//! same names in any order) and never collide; the host keeps the map back to
//! `(server, tool)`, so a name need not be reversible.

use std::collections::{HashMap, HashSet};

/// What an LLM API accepts as a function or tool name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameRules {
    /// The longest name, in characters (all allowed characters are ASCII).
    pub max_len: usize,
    /// Characters allowed besides ASCII letters and digits.
    pub extra: &'static str,
    /// Whether the first character must be a letter or an underscore.
    pub letter_first: bool,
}

/// OpenAI Chat Completions and Responses: `^[a-zA-Z0-9_-]{1,64}$`.
pub const OPENAI: NameRules = NameRules { max_len: 64, extra: "_-", letter_first: false };
/// Anthropic Messages: `^[a-zA-Z0-9_-]{1,64}$`.
pub const ANTHROPIC: NameRules = NameRules { max_len: 64, extra: "_-", letter_first: false };
/// Google Gemini: starts with a letter or an underscore; letters, digits,
/// `_ . : -`; at most 64 characters.
pub const GEMINI: NameRules = NameRules { max_len: 64, extra: "_.:-", letter_first: true };
/// Accepted by all three: the default for a registry offered to any of them.
pub const PORTABLE: NameRules = NameRules { max_len: 64, extra: "_-", letter_first: true };

/// `_` and eight hex digits: the hash a cut or clashing name ends with.
const HASH_SUFFIX_LEN: usize = 9;

/// FNV-1a, 32 bits, over the parts joined by NUL bytes (so `("ab", "c")`
/// and `("a", "bc")` differ): small, and stable across platforms and releases.
fn fnv1a(parts: &[&str]) -> u32 {
    let bytes = parts.iter().enumerate().flat_map(|(i, part)| (i > 0).then_some(0u8).into_iter().chain(part.bytes()));
    bytes.fold(0x811c_9dc5, |hash: u32, byte| (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193))
}

fn allowed(rules: &NameRules, c: char) -> bool {
    c.is_ascii_alphanumeric() || rules.extra.contains(c)
}

/// `server + separator + tool`, with every character the rules refuse
/// replaced by `_`, an `_` in front if the rules want a letter first, and,
/// when too long, cut and ended with a hash of the whole so that long names
/// sharing a prefix stay apart.
pub fn qualify(server: &str, tool: &str, separator: &str, rules: &NameRules) -> String {
    let mut name: String = format!("{server}{separator}{tool}").chars().map(|c| if allowed(rules, c) { c } else { '_' }).collect();
    if name.is_empty() || (rules.letter_first && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')) {
        name.insert(0, '_');
    }
    if name.len() > rules.max_len {
        let suffix = format!("_{:08x}", fnv1a(&[server, tool]));
        with_suffix(&mut name, &suffix, rules.max_len);
    }
    name
}

/// Names for every `(server, tool)` pair, in the input's order. A name two
/// pairs would share goes to neither: both get a hash suffix of their own
/// pair, so the outcome does not depend on which was listed first.
pub fn assign(pairs: &[(&str, &str)], separator: &str, rules: &NameRules) -> Vec<String> {
    let mut names: Vec<String> = pairs.iter().map(|(server, tool)| qualify(server, tool, separator, rules)).collect();
    for _ in 0..3 {
        let clashing = clashes(&names);
        if clashing.is_empty() {
            return names;
        }
        for i in clashing {
            let (Some((server, tool)), Some(name)) = (pairs.get(i), names.get_mut(i)) else { continue };
            let suffix = format!("_{:08x}", fnv1a(&[server, tool, name]));
            with_suffix(name, &suffix, rules.max_len);
        }
    }
    number_copies(names, rules)
}

/// Only the same pair listed more than once (or a hash collision a server
/// made on purpose) can still clash: the first keeps the name, and each later
/// copy is numbered by how many came before it. A number that another pair's
/// name already has (a server can list a tool called that) gives way to the
/// next of one count shared by all names: those are each tried once, so the
/// work stays linear.
fn number_copies(mut names: Vec<String>, rules: &NameRules) -> Vec<String> {
    let mut taken: HashSet<String> = names.iter().cloned().collect();
    let mut copies_of: HashMap<String, usize> = HashMap::new();
    let mut spare = 0usize;
    for name in &mut names {
        let copies = copies_of.entry(name.clone()).or_default();
        *copies += 1;
        if *copies == 1 {
            continue;
        }
        let mut numbered = name.clone();
        with_suffix(&mut numbered, &format!("_{}", *copies - 1), rules.max_len);
        while taken.contains(&numbered) {
            spare += 1;
            numbered.clone_from(name);
            with_suffix(&mut numbered, &format!("_{spare}"), rules.max_len);
        }
        taken.insert(numbered.clone());
        *name = numbered;
    }
    names
}

/// The positions of names that another position also has.
fn clashes(names: &[String]) -> Vec<usize> {
    // Counted in one pass: a server can list a hundred thousand tools.
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for name in names {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    names.iter().enumerate().filter(|(_, name)| counts.get(name.as_str()).is_some_and(|&n| n > 1)).map(|(i, _)| i).collect()
}

/// Ends `name` with `suffix`, cutting it (at a character boundary) to stay
/// within `max_len` bytes.
fn with_suffix(name: &mut String, suffix: &str, max_len: usize) {
    let mut keep = name.len().min(max_len.saturating_sub(suffix.len()));
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    name.truncate(keep);
    name.push_str(suffix);
}

/// How every prefixed name of `server` begins: `server + separator` with the
/// rules' characters, as far as a name cut for its hash suffix keeps it.
fn marker(server: &str, separator: &str, rules: &NameRules) -> String {
    let mut start = qualify(server, "", separator, &NameRules { max_len: usize::MAX, ..*rules });
    // What the rules allow is ASCII, so any byte is a character boundary.
    start.truncate(rules.max_len.saturating_sub(HASH_SUFFIX_LEN));
    start
}

/// When a name carries its server's prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix {
    /// Every name: the model always sees which server a tool is from.
    Always,
    /// Only names that more than one server uses; the rest stay as the
    /// server named them, which reads better in a single-purpose host.
    OnCollision,
}

/// [`assign`], with the prefix applied as `prefix` says.
pub fn assign_with(pairs: &[(&str, &str)], separator: &str, rules: &NameRules, prefix: Prefix) -> Vec<String> {
    assign_among(pairs, &[], separator, rules, prefix)
}

/// [`assign_with`] for a host whose servers (`known`) may have no pair now (not
/// listed yet, reconnecting): with [`Prefix::OnCollision`], a bare name that
/// reads as one of their prefixed names carries its own server's prefix, so
/// that it cannot take over a name the absent server held.
pub fn assign_among(pairs: &[(&str, &str)], known: &[&str], separator: &str, rules: &NameRules, prefix: Prefix) -> Vec<String> {
    if prefix == Prefix::Always {
        return assign(pairs, separator, rules);
    }
    // Whether some other server lists the tool too: the first server seen for each tool, and
    // whether a second one was (one pass, not a search per pair).
    let mut servers: HashMap<&str, (&str, bool)> = HashMap::new();
    for (server, tool) in pairs {
        let entry = servers.entry(tool).or_insert((server, false));
        entry.1 |= entry.0 != *server;
    }
    let shared = |tool: &str| servers.get(tool).is_some_and(|&(_, two)| two);
    // A bare name that reads as some server's prefixed one is prefixed too: otherwise a server
    // could list `github__search`, and when github's `search` stops being shared (and so loses
    // its prefix) the name a model already holds would lead to that server instead.
    let mut seen: HashSet<&str> = HashSet::new();
    let every_server = known.iter().copied().chain(pairs.iter().map(|(server, _)| *server));
    let markers: Vec<String> = every_server.filter(|server| seen.insert(server)).map(|server| marker(server, separator, rules)).collect();
    let mut names: Vec<String> = pairs
        .iter()
        .map(|(server, tool)| {
            let bare = qualify("", tool, "", rules);
            if shared(tool) || markers.iter().any(|marker| bare.starts_with(marker.as_str())) {
                qualify(server, tool, separator, rules)
            } else {
                bare
            }
        })
        .collect();
    // A bare name may still meet a prefixed one, or lose its difference to
    // the character rules: settle those as `assign` does.
    let clashing = clashes(&names);
    if !clashing.is_empty() {
        let subset: Vec<(&str, &str)> = clashing.iter().filter_map(|&i| pairs.get(i).copied()).collect();
        let settled = assign(&subset, separator, rules);
        for (i, name) in clashing.into_iter().zip(settled) {
            if let Some(slot) = names.get_mut(i) {
                *slot = name;
            }
        }
        if !clashes(&names).is_empty() {
            return assign(pairs, separator, rules);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fits(name: &str, rules: &NameRules) -> bool {
        !name.is_empty()
            && name.len() <= rules.max_len
            && name.chars().all(|c| allowed(rules, c))
            && (!rules.letter_first || name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    }

    #[test]
    fn plain_names_are_prefixed_and_kept() {
        assert_eq!(qualify("everything", "get-sum", "__", &PORTABLE), "everything__get-sum");
        assert_eq!(qualify("weather", "forecast", ".", &GEMINI), "weather.forecast");
    }

    #[test]
    fn refused_characters_become_underscores() {
        assert_eq!(qualify("my server", "tool/é", "__", &OPENAI), "my_server__tool__");
        assert_eq!(qualify("a.b", "c:d", "__", &GEMINI), "a.b__c:d");
        assert_eq!(qualify("a.b", "c:d", "__", &OPENAI), "a_b__c_d");
    }

    #[test]
    fn gemini_and_portable_names_start_with_a_letter_or_underscore() {
        assert_eq!(qualify("1password", "get", "__", &GEMINI), "_1password__get");
        assert_eq!(qualify("1password", "get", "__", &OPENAI), "1password__get");
        assert_eq!(qualify("", "", "", &PORTABLE), "_");
    }

    #[test]
    fn long_names_are_cut_and_kept_apart() {
        let tool_a = format!("{}_alpha", "x".repeat(80));
        let tool_b = format!("{}_beta", "x".repeat(80));
        let a = qualify("server", &tool_a, "__", &OPENAI);
        let b = qualify("server", &tool_b, "__", &OPENAI);
        assert_eq!(a.len(), 64);
        assert!(fits(&a, &OPENAI) && fits(&b, &OPENAI));
        assert_ne!(a, b);
    }

    #[test]
    fn collisions_get_suffixes_whatever_the_order() {
        let pairs = [("a", "x.y"), ("a", "x_y"), ("b", "z")];
        let names = assign(&pairs, "__", &OPENAI);
        assert_eq!(names[2], "b__z");
        assert_ne!(names[0], names[1]);
        assert!(names.iter().all(|n| fits(n, &OPENAI)));
        let reversed = assign(&[pairs[1], pairs[0], pairs[2]], "__", &OPENAI);
        assert_eq!((reversed[0].as_str(), reversed[1].as_str()), (names[1].as_str(), names[0].as_str()));
    }

    #[test]
    fn separator_ambiguity_is_a_collision_too() {
        // "a_" + "__" + "b" and "a" + "__" + "_b" spell the same name.
        let names = assign(&[("a_", "b"), ("a", "_b")], "__", &PORTABLE);
        assert_ne!(names[0], names[1]);
    }

    #[test]
    fn the_same_pair_twice_is_numbered() {
        let names = assign(&[("s", "t"), ("s", "t")], "__", &PORTABLE);
        assert_ne!(names[0], names[1]);
        assert!(names.iter().all(|n| fits(n, &PORTABLE)));
    }

    #[test]
    fn a_hundred_thousand_tools_are_named_in_one_pass() {
        // A server can list this many in a few pages; a search per pair would take minutes.
        let tools: Vec<String> = (0..50_000).map(|i| format!("tool{i}")).collect();
        let mut pairs: Vec<(&str, &str)> = tools.iter().flat_map(|t| [("a", t.as_str()), ("b", t.as_str())]).collect();
        let names = assign_with(&pairs, "__", &PORTABLE, Prefix::OnCollision);
        assert_eq!((names[0].as_str(), names[1].as_str()), ("a__tool0", "b__tool0"));
        pairs.iter_mut().for_each(|pair| *pair = ("s", "same"));
        let names = assign(&pairs, "__", &PORTABLE);
        assert!(names[99_999].ends_with("_99999"), "{}", names[99_999]);
    }

    #[test]
    fn every_copy_of_a_pair_gets_a_number_of_its_own() {
        let names = assign(&[("s", "t"), ("s", "t"), ("s", "t"), ("s", "t")], "__", &PORTABLE);
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 4, "{names:?}");
        assert!(names[3].ends_with("_3"), "{names:?}");
    }

    #[test]
    fn a_numbered_copy_gives_way_to_a_name_a_tool_already_has() {
        let copy = assign(&[("s", "t"), ("s", "t")], "__", &PORTABLE).remove(1);
        let tool = copy.strip_prefix("s__").unwrap_or_default().to_owned();
        let names = assign(&[("s", "t"), ("s", "t"), ("s", &tool)], "__", &PORTABLE);
        assert_eq!(names[2], copy);
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 3, "{names:?}");
    }

    #[test]
    fn numbers_taken_by_listed_tools_are_each_tried_once() {
        // 20,000 copies of one tool beside tools named as each copy's number would be: with a
        // search from 1 for each copy, this is 200 million tries.
        let base = assign(&[("s", "t"), ("s", "t")], "__", &PORTABLE).remove(0);
        let tail = base.strip_prefix("s__").unwrap_or_default();
        let squatters: Vec<String> = (1..=20_000).map(|n| format!("{tail}_{n}")).collect();
        let pairs: Vec<(&str, &str)> = std::iter::repeat_n(("s", "t"), 20_000).chain(squatters.iter().map(|t| ("s", t.as_str()))).collect();
        let names = assign(&pairs, "__", &PORTABLE);
        let unique: HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), pairs.len());
        assert_eq!(names[1], format!("{base}_20001"));
    }

    #[test]
    fn on_collision_prefixes_only_shared_names() {
        let pairs = [("http", "echo"), ("sse", "echo"), ("http", "get-sum"), ("modern", "add")];
        let names = assign_with(&pairs, "__", &PORTABLE, Prefix::OnCollision);
        assert_eq!(names, ["http__echo", "sse__echo", "get-sum", "add"]);
        let always = assign_with(&pairs, "__", &PORTABLE, Prefix::Always);
        assert_eq!(always, ["http__echo", "sse__echo", "http__get-sum", "modern__add"]);
    }

    #[test]
    fn on_collision_settles_a_bare_name_meeting_a_prefixed_one() {
        // "a__b" bare, and server "a" with "b" where "b" is shared.
        let pairs = [("x", "a__b"), ("a", "b"), ("c", "b"), ("s", "t"), ("s", "t")];
        let names = assign_with(&pairs, "__", &PORTABLE, Prefix::OnCollision);
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert_eq!(names[2], "c__b");
    }

    #[test]
    fn on_collision_prefixes_a_bare_name_that_reads_as_another_servers() {
        // b lists what a's `search` is called while shared: once it is not, a model holding
        // `a__search` must not reach b.
        let names = assign_with(&[("a", "search"), ("b", "a__search")], "__", &PORTABLE, Prefix::OnCollision);
        assert_eq!(names, ["search", "b__a__search"]);
        // Spelt with characters the rules rewrite, or long enough to be cut.
        let names = assign_with(&[("a", "search"), ("b", "a..search")], "__", &OPENAI, Prefix::OnCollision);
        assert_eq!(names, ["search", "b__a__search"]);
        let server = "s".repeat(70);
        let cut = qualify(&server, "search", "__", &PORTABLE);
        let names = assign_with(&[(&server, "search"), ("b", &cut)], "__", &PORTABLE, Prefix::OnCollision);
        assert_eq!(names[0], "search");
        assert!(names[1].starts_with("b__"), "{names:?}");
    }

    #[test]
    fn every_assigned_name_fits_every_rule_set() {
        let tools = ["echo", "get sum", "ünïcode", "9lives", &"long".repeat(30), "a.b:c-d"];
        let pairs: Vec<(&str, &str)> = tools.iter().flat_map(|t| [("everything", *t), ("every thing", *t)]).collect();
        for rules in [OPENAI, ANTHROPIC, GEMINI, PORTABLE] {
            let names = assign(&pairs, "__", &rules);
            assert!(names.iter().all(|n| fits(n, &rules)), "{names:?}");
            let mut unique = names.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), names.len());
        }
    }
}

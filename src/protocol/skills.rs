//! Skills (SEP-2640, extension `io.modelcontextprotocol/skills`): a server
//! lists skills with `skills/list`, each with its `SKILL.md` frontmatter and
//! the files it is made of (uri, `sha256:` digest, size in bytes); the client
//! loads a skill's files with `resources/read` only when it is used, and
//! checks each against the listing before anything reaches a model. A file
//! that differs in size, digest or frontmatter is refused, and nothing more
//! of that skill is read. The checks are the Cargo feature `skills`.

#[cfg(feature = "skill-checks")]
use super::sha256::sha256_hex;
use serde_json::{Map, Value};

/// The extension's key in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";
/// The listing method.
pub const LIST: &str = "skills/list";

/// What the listing says of one file of a skill, if it lists the file.
pub fn listed_file<'a>(skill: &'a Value, uri: &str) -> Option<&'a Value> {
    skill.get("resources")?.as_array()?.iter().find(|file| file.get("uri").and_then(Value::as_str) == Some(uri))
}

#[cfg(feature = "skill-checks")]
/// Checks a file's bytes against its listing entry (`size`, `digest`).
///
/// # Errors
/// What differs.
pub fn check_file(listed: &Value, bytes: &[u8]) -> Result<(), String> {
    let uri = listed.get("uri").and_then(Value::as_str).unwrap_or("the file");
    if let Some(size) = listed.get("size").and_then(Value::as_u64) {
        if size != bytes.len() as u64 {
            return Err(format!("{uri} is {} bytes, and the listing says {size}", bytes.len()));
        }
    }
    if let Some(digest) = listed.get("digest").and_then(Value::as_str) {
        let Some(expected) = digest.strip_prefix("sha256:") else {
            return Err(format!("{uri}: the listing's digest {digest:?} is not a sha256: digest"));
        };
        let actual = sha256_hex(bytes);
        if !expected.eq_ignore_ascii_case(&actual) {
            return Err(format!("{uri} has digest sha256:{actual}, and the listing says {digest}"));
        }
    }
    Ok(())
}

/// A `SKILL.md`, split into its frontmatter and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillFile {
    /// The YAML frontmatter, read into JSON.
    pub frontmatter: Map<String, Value>,
    /// What follows it.
    pub body: String,
}

#[cfg(feature = "skill-checks")]
/// Checks a loaded `SKILL.md` against the skill's listing: its size and
/// digest, and that its frontmatter says exactly what the listing says.
///
/// # Errors
/// What differs, or that the frontmatter cannot be read.
pub fn check_skill(skill: &Value, text: &str) -> Result<SkillFile, String> {
    let uri = skill.get("uri").and_then(Value::as_str).unwrap_or_default();
    if let Some(listed) = listed_file(skill, uri) {
        check_file(listed, text.as_bytes())?;
    }
    let file = parse_skill_file(text)?;
    if let Some(listed) = skill.get("frontmatter").and_then(Value::as_object) {
        for (key, value) in listed {
            match file.frontmatter.get(key) {
                Some(found) if same(found, value) => {}
                Some(found) => return Err(format!("{uri}: frontmatter {key} is {found}, and the listing says {value}")),
                None => return Err(format!("{uri}: the frontmatter has no {key}, which the listing gives")),
            }
        }
        if let Some(extra) = file.frontmatter.keys().find(|key| !listed.contains_key(*key)) {
            return Err(format!("{uri}: the frontmatter has {extra}, which the listing does not give"));
        }
    }
    Ok(file)
}

#[cfg(feature = "skill-checks")]
/// JSON equality with numbers compared by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

#[cfg(feature = "skill-checks")]
/// Splits a `SKILL.md` at its frontmatter (between `---` lines at the top).
///
/// # Errors
/// No frontmatter, or YAML beyond what frontmatter uses.
pub fn parse_skill_file(text: &str) -> Result<SkillFile, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err("the file does not begin with a --- frontmatter block".into());
    }
    let mut yaml = Vec::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push(line.trim_end_matches(['\n', '\r']));
    }
    if !closed {
        return Err("the frontmatter block is not closed with ---".into());
    }
    let body: String = lines.collect();
    let bytes = yaml.iter().map(|line| line.len() + 1).sum::<usize>();
    if bytes > yaml::MAX_BYTES {
        return Err(crate::error::cold_format!("the frontmatter is {bytes} bytes long, more than {} this client reads", yaml::MAX_BYTES));
    }
    let frontmatter = match yaml::block(&yaml, 0, 0)? {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        _ => return Err("the frontmatter is not a mapping".into()),
    };
    Ok(SkillFile { frontmatter, body })
}

#[cfg(feature = "skill-checks")]
/// The YAML that frontmatter uses: mappings by indentation, `- ` lists,
/// plain, quoted and block (`|`, `>`) scalars, and `[a, b]` flow lists.
/// Anchors, tags and flow mappings are refused rather than guessed at.
///
/// The file is the server's: how much of it is read, and how deep, is
/// bounded. Each level of nesting is a call (the wasm stack is 1 MiB) and
/// reads its lines again to find where its children end, so the depth bounds
/// both the stack and the time, which is then linear in the bytes.
mod yaml {
    use serde_json::{Map, Value};

    /// The most a frontmatter may hold. The Agent Skills format asks for a
    /// name of at most 64 characters and a description of at most 1,024.
    pub(super) const MAX_BYTES: usize = 64 * 1024;
    /// How deep mappings, lists and `[…]` lists may nest in a frontmatter.
    pub(super) const MAX_DEPTH: usize = 32;

    /// `depth`, or why it is too deep.
    fn deeper(depth: usize) -> Result<usize, String> {
        match depth.checked_add(1) {
            Some(next) if next <= MAX_DEPTH => Ok(next),
            _ => Err(crate::error::cold_format!("the frontmatter nests deeper than {MAX_DEPTH} levels")),
        }
    }

    fn indent(line: &str) -> usize {
        line.len() - line.trim_start_matches(' ').len()
    }

    fn significant(line: &str) -> bool {
        let trimmed = line.trim();
        !trimmed.is_empty() && !trimmed.starts_with('#')
    }

    /// The value of the block made of `lines`, all indented at least `at`,
    /// `depth` levels down.
    pub(super) fn block(lines: &[&str], at: usize, depth: usize) -> Result<Value, String> {
        let Some(first) = lines.iter().position(|line| significant(line)) else { return Ok(Value::Null) };
        let depth = deeper(depth)?;
        let (_, lines) = lines.split_at(first);
        let Some(head) = lines.first() else { return Ok(Value::Null) };
        let own = indent(head).max(at);
        if head.trim_start().starts_with("- ") || head.trim() == "-" {
            return list(lines, own, depth);
        }
        mapping(lines, own, depth)
    }

    /// Lines up to the next significant one indented `at` or less.
    fn children<'a, 'b>(lines: &'a [&'b str], at: usize) -> (&'a [&'b str], &'a [&'b str]) {
        let end = lines.iter().position(|line| significant(line) && indent(line) <= at).unwrap_or(lines.len());
        lines.split_at(end)
    }

    fn mapping(mut lines: &[&str], at: usize, depth: usize) -> Result<Value, String> {
        let mut map = Map::new();
        while let Some((line, rest)) = lines.split_first() {
            lines = rest;
            if !significant(line) {
                continue;
            }
            if indent(line) != at {
                return Err(format!("unexpected indentation in the frontmatter: {line:?}"));
            }
            let (key, value) = line.trim().split_once(':').ok_or_else(|| format!("expected `key: value` in the frontmatter: {line:?}"))?;
            let key = unquote(key.trim())?;
            let (nested, rest) = children(lines, at);
            lines = rest;
            let value = value.trim();
            let value = match value {
                "" => block(nested, at + 1, depth)?,
                "|" | "|-" | ">" | ">-" => folded(nested, value),
                _ => scalar(value, depth)?,
            };
            if map.insert(key.clone(), value).is_some() {
                return Err(format!("the frontmatter gives {key} twice"));
            }
        }
        Ok(Value::Object(map))
    }

    fn list(mut lines: &[&str], at: usize, depth: usize) -> Result<Value, String> {
        let mut items = Vec::new();
        while let Some((line, rest)) = lines.split_first() {
            lines = rest;
            if !significant(line) {
                continue;
            }
            let item = line.trim_start().strip_prefix('-').ok_or_else(|| format!("expected a list item in the frontmatter: {line:?}"))?;
            let (nested, rest) = children(lines, at);
            lines = rest;
            items.push(if item.trim().is_empty() { block(nested, at + 1, depth)? } else { scalar(item.trim(), depth)? });
        }
        Ok(Value::Array(items))
    }

    /// A `|` (lines kept) or `>` (lines joined) block scalar; `-` drops the final newline.
    fn folded(lines: &[&str], style: &str) -> Value {
        let at = lines.iter().filter(|line| significant(line)).map(|line| indent(line)).min().unwrap_or(0);
        let texts: Vec<&str> = lines.iter().map(|line| line.get(at..).unwrap_or("")).collect();
        let mut text = if style.starts_with('|') { texts.join("\n") } else { texts.join(" ") };
        let trimmed = text.trim_end_matches(['\n', ' ']).len();
        text.truncate(trimmed);
        if !style.ends_with('-') {
            text.push('\n');
        }
        Value::String(text)
    }

    fn unquote(text: &str) -> Result<String, String> {
        if let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            return crate::protocol::pick::string_value(&format!("\"{inner}\""))
                .ok_or_else(|| format!("a bad double-quoted string in the frontmatter: {text}"));
        }
        if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
            return Ok(inner.replace("''", "'"));
        }
        Ok(text.to_owned())
    }

    fn scalar(text: &str, depth: usize) -> Result<Value, String> {
        // A comment after a plain scalar.
        let text = match text.find(" #") {
            Some(at) if !text.starts_with(['"', '\'']) => text.get(..at).unwrap_or(text).trim_end(),
            _ => text,
        };
        if text.starts_with(['&', '*', '!', '{', '%', '@', '`']) {
            return Err(format!("the frontmatter uses YAML this client does not read: {text}"));
        }
        if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            let depth = deeper(depth)?;
            let items = inner
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| scalar(item, depth))
                .collect::<Result<_, _>>()?;
            return Ok(Value::Array(items));
        }
        if text.starts_with(['"', '\'']) {
            return unquote(text).map(Value::String);
        }
        Ok(match text {
            "true" | "True" | "TRUE" => Value::Bool(true),
            "false" | "False" | "FALSE" => Value::Bool(false),
            "null" | "Null" | "NULL" | "~" => Value::Null,
            _ => text.parse::<i64>().map(Value::from).ok().or_else(|| float(text)).unwrap_or_else(|| Value::String(text.to_owned())),
        })
    }

    /// A float as Rust's `f64::from_str` reads it (`+1.5`, `.5`, `1.`, `01.5`,
    /// `1e3`; nothing infinite or NaN), read by serde_json once written as JSON
    /// writes it: `str::parse` would bring core's float parser and its 10 KB
    /// table of powers into the module, where serde_json's is there anyway.
    pub(super) fn float(text: &str) -> Option<Value> {
        let (sign, unsigned) = match text.strip_prefix('-') {
            Some(rest) => ("-", rest),
            None => ("", text.strip_prefix('+').unwrap_or(text)),
        };
        let (mantissa, exponent) = unsigned.split_at_checked(unsigned.find(['e', 'E']).unwrap_or(unsigned.len()))?;
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || !digits(fraction) || whole.len() + fraction.len() == 0 {
            return None;
        }
        let whole = whole.trim_start_matches('0');
        let json =
            format!("{sign}{}.{}{exponent}", if whole.is_empty() { "0" } else { whole }, if fraction.is_empty() { "0" } else { fraction });
        <serde_json::Number as std::str::FromStr>::from_str(&json).ok().map(Value::Number)
    }
}

#[cfg(feature = "skill-checks")]
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frontmatter_floats_read_as_f64_from_str_reads_them() {
        let texts = [
            "1.5",
            "-1.5",
            "+1.5",
            ".5",
            "-.5",
            "1.",
            "01.5",
            "00.25",
            "1e3",
            "1.5E-3",
            "-2.5e+2",
            "1.e5",
            "0.0",
            "-0.0",
            "123456789.123456789",
            "1e400",
            ".",
            "-",
            "+",
            "e5",
            ".e5",
            "+-1",
            "1.2.3",
            "1e",
            "1e+",
            "inf",
            "NaN",
            "infinity",
            "1_000.5",
            "0x1p3",
            "1 .5",
            "",
        ];
        for text in texts {
            let expected = text.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number);
            let got = yaml::float(text);
            let same = match (&got, &expected) {
                (Some(Value::Number(a)), Some(Value::Number(b))) => a.as_f64() == b.as_f64(),
                (None, None) => true,
                _ => false,
            };
            assert!(same, "{text:?}: {got:?} against {expected:?}");
        }
    }

    const SKILL: &str = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";

    fn listing(text: &str) -> Value {
        json!({
            "uri": "skill://pdf-processing/SKILL.md",
            "frontmatter": {"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"},
            "resources": [{"uri": "skill://pdf-processing/SKILL.md", "digest": format!("sha256:{}", sha256_hex(text.as_bytes())), "size": text.len()}],
        })
    }

    #[test]
    fn a_faithful_skill_loads() {
        let file = check_skill(&listing(SKILL), SKILL).unwrap();
        assert_eq!(file.frontmatter["name"], json!("pdf-processing"));
        assert_eq!(file.body, "\nSkill body.\n");
    }

    #[test]
    fn tampering_is_caught_by_size_digest_or_frontmatter() {
        let listed = listing(SKILL);
        let same_length = SKILL.replace("Skill body.", "Evil body!!");
        assert!(check_skill(&listed, &same_length).unwrap_err().contains("digest"));
        assert!(check_skill(&listed, &format!("{SKILL}extra\n")).unwrap_err().contains("bytes"));
        let rewritten = SKILL.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials");
        // The listing's digest and size are made to match the tampered file: only the frontmatter differs.
        let mut forged = listing(&rewritten);
        forged["frontmatter"] = listed["frontmatter"].clone();
        let error = check_skill(&forged, &rewritten).unwrap_err();
        assert!(error.contains("description"), "{error}");
    }

    #[test]
    fn frontmatter_yaml() {
        let text = "---\nname: x\n# a comment\nversion: 2\nlicense: 'MIT'\nallowed: [read, \"write\"]\nmetadata:\n  owner: team\n  tier: 1\ntags:\n  - a\n  - b\nnotes: |\n  line one\n  line two\n---\nbody";
        let file = parse_skill_file(text).unwrap();
        assert_eq!(
            Value::Object(file.frontmatter),
            json!({"name": "x", "version": 2, "license": "MIT", "allowed": ["read", "write"], "metadata": {"owner": "team", "tier": 1},
                   "tags": ["a", "b"], "notes": "line one\nline two\n"})
        );
        assert!(parse_skill_file("no frontmatter").is_err());
        assert!(parse_skill_file("---\nname: x\n").is_err());
        assert!(parse_skill_file("---\nname: &anchor x\n---\n").is_err());
        assert!(parse_skill_file("---\nname: x\nname: y\n---\n").is_err());
    }

    /// A server's file cannot make the reader recurse past its depth (each level is a
    /// call on wasm's 1 MiB stack) nor read its lines again and again.
    #[test]
    fn frontmatter_nesting_and_size_are_bounded() {
        let flow = |levels: usize| format!("---\nname: {}x{}\n---\n", "[".repeat(levels), "]".repeat(levels));
        let mut expected = json!("x");
        for _ in 0..yaml::MAX_DEPTH - 1 {
            expected = json!([expected]);
        }
        assert_eq!(parse_skill_file(&flow(yaml::MAX_DEPTH - 1)).unwrap().frontmatter["name"], expected);
        for levels in [yaml::MAX_DEPTH, 30_000] {
            assert!(parse_skill_file(&flow(levels)).unwrap_err().contains("nests deeper than 32"), "{levels} [");
        }

        let mapping = |levels: usize| {
            let lines: String = (0..levels).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
            format!("---\n{lines}---\n")
        };
        assert!(parse_skill_file(&mapping(yaml::MAX_DEPTH)).is_ok());
        assert!(parse_skill_file(&mapping(yaml::MAX_DEPTH + 1)).unwrap_err().contains("nests deeper"));
        assert!(parse_skill_file(&mapping(300)).unwrap_err().contains("nests deeper"));

        let list = |levels: usize| {
            let lines: String = (0..levels).map(|i| format!("{}-\n", " ".repeat(i + 1))).collect();
            format!("---\nk:\n{lines}---\n")
        };
        assert!(parse_skill_file(&list(yaml::MAX_DEPTH - 1)).is_ok());
        assert!(parse_skill_file(&list(300)).unwrap_err().contains("nests deeper"));

        let long = format!("---\nname: x\ndescription: {}\n---\n", "d".repeat(yaml::MAX_BYTES));
        assert!(parse_skill_file(&long).unwrap_err().contains("more than 65536"));
        let many: String = (0..5_000).map(|i| format!("k{i}: v\n")).collect();
        assert_eq!(parse_skill_file(&format!("---\n{many}---\n")).unwrap().frontmatter.len(), 5_000);
    }
}

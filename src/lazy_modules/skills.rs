//! `checkSkill` and `checkSkillFile`: the checks a skill's files pass
//! (`crate::protocol::skills`), shipped in the validator module so that the
//! core carries no YAML reader and no SHA-256 for pages that read no skill.
//! JSON crosses as UTF-8 bytes, as in `validateJson`.

use super::object;
use crate::protocol::skills;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// Checks a `SKILL.md` (`text`, UTF-8) against the skill as listed (`skill`,
/// JSON text). Returns `{ frontmatter, body }`, the frontmatter as JSON text,
/// or `{ refused }` saying what differs.
#[wasm_bindgen(js_name = checkSkill, skip_typescript)]
pub fn check_skill(skill: &[u8], text: &[u8]) -> JsValue {
    let Some(skill) = json(skill) else { return refused("the listing is not JSON") };
    let Ok(text) = std::str::from_utf8(text) else { return refused("the file is not UTF-8") };
    match skills::check_skill(&skill, text) {
        Ok(file) => object(&[("frontmatter", &Value::Object(file.frontmatter).to_string()), ("body", &file.body)]),
        Err(why) => refused(&why),
    }
}

/// Checks a file's `bytes` against its listing entry (`listed`, JSON text).
/// Returns `null`, or `{ refused }` saying what differs.
#[wasm_bindgen(js_name = checkSkillFile, skip_typescript)]
pub fn check_skill_file(listed: &[u8], bytes: &[u8]) -> JsValue {
    let Some(listed) = json(listed) else { return refused("the listing is not JSON") };
    match skills::check_file(&listed, bytes) {
        Ok(()) => JsValue::NULL,
        Err(why) => refused(&why),
    }
}

/// Read as text (`from_str`): serde_json's byte reader would be a second
/// copy of the parser in this module.
fn json(bytes: &[u8]) -> Option<Value> {
    std::str::from_utf8(bytes).ok().and_then(|text| crate::protocol::json::parse(text).ok())
}

fn refused(why: &str) -> JsValue {
    object(&[("refused", why)])
}

//! `qualifiedNames`: the names under which a host offers several servers'
//! tools and prompts to a model (`host::naming`), for `McpHost` and for
//! hosts of one's own.

use super::convert::from_js;
use super::error::to_js_error;
use crate::error::Error;
use crate::host::naming::{self, NameRules, Prefix};
use js_sys::Reflect;
use serde_json::Value;
use wasm_bindgen::prelude::*;

fn read_naming(options: &JsValue) -> Result<(NameRules, String, Prefix), Error> {
    let invalid = |what: &str| Error::InvalidArgument(format!("naming.{what}"));
    let field = |name: &str| Reflect::get(options, &name.into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
    if options.is_undefined() || options.is_null() {
        return Ok((naming::PORTABLE, "__".into(), Prefix::Always));
    }
    if !options.is_object() {
        return Err(Error::InvalidArgument("naming must be an object".into()));
    }
    let rules = match field("rules").map(|r| r.as_string()) {
        None => naming::PORTABLE,
        Some(Some(r)) if r == "portable" => naming::PORTABLE,
        Some(Some(r)) if r == "openai" => naming::OPENAI,
        Some(Some(r)) if r == "anthropic" => naming::ANTHROPIC,
        Some(Some(r)) if r == "gemini" => naming::GEMINI,
        Some(_) => return Err(invalid("rules must be \"portable\", \"openai\", \"anthropic\" or \"gemini\"")),
    };
    let separator = match field("separator") {
        None => "__".to_owned(),
        Some(s) => s.as_string().filter(|s| s.len() <= 8).ok_or_else(|| invalid("separator must be a string of at most 8 characters"))?,
    };
    let prefix = match field("prefix").map(|p| p.as_string()) {
        None => Prefix::Always,
        Some(Some(p)) if p == "always" => Prefix::Always,
        Some(Some(p)) if p == "on-collision" => Prefix::OnCollision,
        Some(_) => return Err(invalid("prefix must be \"always\" or \"on-collision\"")),
    };
    Ok((rules, separator, prefix))
}

/// The names under which a host offers each `[server, name]` entry to a
/// model: deterministic (the same entries give the same names in any order),
/// distinct, and within the chosen LLM API's rules for length and
/// characters. A name two entries would share gets a short hash suffix on
/// both. `McpHost` uses this for its registry.
///
/// @throws {McpClientError} `invalid-argument` for a bad entry or option.
#[wasm_bindgen(js_name = qualifiedNames, unchecked_return_type = "string[]")]
pub fn qualified_names(
    #[wasm_bindgen(unchecked_param_type = "ReadonlyArray<readonly [server: string, name: string]>")] entries: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "HostNaming")] naming_options: JsValue,
) -> Result<JsValue, JsValue> {
    let fail = |e: Error| to_js_error(&e);
    let (rules, separator, prefix) = read_naming(&naming_options).map_err(fail)?;
    let entries = from_js(&entries, "entries").map_err(fail)?;
    let bad = || fail(Error::InvalidArgument("entries must be an array of [server, name] string pairs".into()));
    let list = entries.as_array().ok_or_else(bad)?;
    let mut pairs = Vec::with_capacity(list.len());
    for entry in list {
        match entry.as_array().map(Vec::as_slice) {
            Some([Value::String(server), Value::String(name)]) => pairs.push((server.as_str(), name.as_str())),
            _ => return Err(bad()),
        }
    }
    let names = naming::assign_with(&pairs, &separator, &rules, prefix);
    super::convert::to_js(&Value::from(names)).map_err(fail)
}

//! The validator module's skill checks behind [`crate::client::SkillChecker`].

use super::load;
use crate::client::SkillChecker;
use crate::error::Error;
use crate::protocol::skills::SkillFile;
use futures::future::LocalBoxFuture;
use js_sys::{Function, Reflect, Uint8Array};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// `checkSkill` and `checkSkillFile` of the validator module, loaded the
/// first time a skill is read.
#[derive(Debug)]
pub struct LazySkillChecker;

/// Calls `export` of the validator module with two byte arrays. Without a
/// loader (the raw module) nothing can check the file, and an unchecked
/// file must not be handed over: `unsupported`.
async fn call(export: &str, first: Uint8Array, second: Uint8Array) -> Result<JsValue, Error> {
    let Some(part) = load("validator").await? else {
        return Err(Error::Unsupported("reading a skill needs the validator module, which this entry did not provide".into()));
    };
    let broken = |_| Error::Network { message: format!("the validator module has no {export}") };
    let function: Function = Reflect::get(&part, &export.into()).map_err(broken)?.dyn_into().map_err(broken)?;
    function.call2(&JsValue::NULL, &first, &second).map_err(|e| Error::Invalid(crate::transport::fetch::js_message(&e)))
}

fn field(answer: &JsValue, name: &str) -> Option<String> {
    Reflect::get(answer, &name.into()).ok().and_then(|v| v.as_string())
}

impl SkillChecker for LazySkillChecker {
    fn check_skill(&self, skill: &Value, text: &str) -> LocalBoxFuture<'static, Result<Result<SkillFile, String>, Error>> {
        let (skill, text) = (Uint8Array::from(skill.to_string().as_bytes()), Uint8Array::from(text.as_bytes()));
        Box::pin(async move {
            let answer = call("checkSkill", skill, text).await?;
            if let Some(why) = field(&answer, "refused") {
                return Ok(Err(why));
            }
            // Read as a `Value`: a typed read of the map would compile in another deserializer.
            let frontmatter = field(&answer, "frontmatter").and_then(|text| crate::protocol::json::parse(&text).ok());
            match (frontmatter, field(&answer, "body")) {
                (Some(Value::Object(frontmatter)), Some(body)) => Ok(Ok(SkillFile { frontmatter, body })),
                _ => Err(Error::Invalid("the validator module's checkSkill gave no frontmatter and body".into())),
            }
        })
    }

    fn check_file(&self, listed: &Value, bytes: &[u8]) -> LocalBoxFuture<'static, Result<Result<(), String>, Error>> {
        let (listed, bytes) = (Uint8Array::from(listed.to_string().as_bytes()), Uint8Array::from(bytes));
        Box::pin(async move {
            let answer = call("checkSkillFile", listed, bytes).await?;
            Ok(field(&answer, "refused").map_or(Ok(()), Err))
        })
    }
}

//! The skill checks behind [`crate::client::SkillChecker`] in the npm core:
//! compiled in, in the validator's module of the split core (the YAML
//! frontmatter reader and SHA-256 are for pages that read a skill), which
//! they wait for the first time a skill is read.

use super::checks::{check_file, check_skill};
use super::validator_ready;
use crate::client::SkillChecker;
use crate::error::Error;
use crate::protocol::skills::SkillFile;
use futures::future::LocalBoxFuture;
use serde_json::Value;

/// The skill checks, run once the validator's module is in.
#[derive(Debug)]
pub struct LazySkillChecker;

impl SkillChecker for LazySkillChecker {
    fn check_skill(&self, skill: &Value, text: &str) -> LocalBoxFuture<'static, Result<Result<SkillFile, String>, Error>> {
        let (skill, text) = (skill.clone(), text.to_owned());
        Box::pin(async move {
            validator_ready().await?;
            Ok(check_skill(&skill, &text))
        })
    }

    fn check_file(&self, listed: &Value, bytes: &[u8]) -> LocalBoxFuture<'static, Result<Result<(), String>, Error>> {
        let (listed, bytes) = (listed.clone(), bytes.to_vec());
        Box::pin(async move {
            validator_ready().await?;
            Ok(check_file(&listed, &bytes))
        })
    }
}

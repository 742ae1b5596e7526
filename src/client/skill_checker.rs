//! The checks `read_skill` and `read_skill_file` make on a skill's files,
//! supplied with the options in place of the built-in ones (Cargo feature
//! `skills`). The JavaScript package's core module has none compiled in: it
//! loads them with its validator module the first time a skill is read, so a
//! page that never reads a skill does not download a YAML reader.

use crate::error::Error;
use crate::protocol::skills::SkillFile;
use futures::future::LocalBoxFuture;
use serde_json::Value;

/// Checks a skill's files against its listing (SEP-2640).
///
/// Each method's outer error says the checks could not run (a module that
/// failed to load); the inner one is a refusal, saying what differs. A
/// refused file must not reach a model.
pub trait SkillChecker {
    /// Checks a loaded `SKILL.md` against the skill as listed: its size and
    /// digest, and that its frontmatter says exactly what the listing says.
    /// Returns the file split into frontmatter and body.
    ///
    /// # Errors
    /// As the trait says.
    fn check_skill(&self, skill: &Value, text: &str) -> LocalBoxFuture<'static, Result<Result<SkillFile, String>, Error>>;

    /// Checks another file's bytes against its listing entry (`size`,
    /// `digest`).
    ///
    /// # Errors
    /// As the trait says.
    fn check_file(&self, listed: &Value, bytes: &[u8]) -> LocalBoxFuture<'static, Result<Result<(), String>, Error>>;
}

/// The checks of [`crate::protocol::skills`], run at once.
#[cfg(feature = "skills")]
#[derive(Debug, Clone, Copy, Default)]
pub struct BuiltinSkillChecker;

#[cfg(feature = "skills")]
impl SkillChecker for BuiltinSkillChecker {
    fn check_skill(&self, skill: &Value, text: &str) -> LocalBoxFuture<'static, Result<Result<SkillFile, String>, Error>> {
        Box::pin(futures::future::ready(Ok(crate::protocol::skills::check_skill(skill, text))))
    }

    fn check_file(&self, listed: &Value, bytes: &[u8]) -> LocalBoxFuture<'static, Result<Result<(), String>, Error>> {
        Box::pin(futures::future::ready(Ok(crate::protocol::skills::check_file(listed, bytes))))
    }
}

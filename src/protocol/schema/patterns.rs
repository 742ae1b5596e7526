//! `pattern` and `patternProperties` in linear time.
//!
//! JSON Schema patterns are ECMA-262 regular expressions, which the platform
//! evaluates by backtracking: `^(a+)+$` against forty `a`s and a `!` would
//! hold the page's thread for minutes, and nothing can interrupt it. So
//! patterns go to regex-lite, whose matcher (a Pike VM) takes time linear in
//! the text for a compiled program of bounded size. What regex-lite cannot
//! compile (look-around, backreferences, `\p{…}` classes) is reported as
//! unsupported rather than handed to a backtracking engine.

use super::{PatternError, PatternMatcher};
use regex_lite::{Regex, RegexBuilder};
use std::cell::RefCell;

/// The largest compiled program accepted, in regex-lite's approximate bytes.
/// Together with the text's length it bounds a match's work.
const PROGRAM_LIMIT: usize = 32 * 1024;
/// How deeply groups and repetitions may nest.
const NEST_LIMIT: u32 = 64;
/// How many compiled patterns one matcher keeps: a schema's patterns are few,
/// but an array of 10,000 strings checks the same one 10,000 times.
const CACHE_ENTRIES: usize = 64;

/// The default [`PatternMatcher`]: regex-lite with a compile cache.
#[derive(Default)]
pub struct LinearPatterns {
    cache: RefCell<Vec<(String, Result<Regex, PatternError>)>>,
}

impl std::fmt::Debug for LinearPatterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinearPatterns").field("cached", &self.cache.borrow().len()).finish()
    }
}

/// regex-lite's words for what it does not support, as opposed to syntax errors.
fn unsupported(message: &str) -> bool {
    message.contains("not supported") || message.contains("size limit") || message.contains("too much nesting")
}

fn compile(pattern: &str) -> Result<Regex, PatternError> {
    RegexBuilder::new(pattern).size_limit(PROGRAM_LIMIT).nest_limit(NEST_LIMIT).build().map_err(|e| {
        let message = e.to_string();
        if unsupported(&message) {
            PatternError::Unsupported(message)
        } else {
            PatternError::Invalid(message)
        }
    })
}

/// A pattern's weight in the work a match costs per byte of text: its length,
/// scaled up for counted repetitions, which compile to many states.
pub fn weight(pattern: &str) -> u64 {
    let repetitions = pattern.bytes().filter(|b| *b == b'{').count() as u64;
    (pattern.len() as u64 + 1).saturating_mul(repetitions + 1)
}

impl PatternMatcher for LinearPatterns {
    fn is_match(&self, pattern: &str, text: &str) -> Result<bool, PatternError> {
        let mut cache = self.cache.borrow_mut();
        if !cache.iter().any(|(source, _)| source == pattern) {
            if cache.len() >= CACHE_ENTRIES {
                drop(cache.remove(0));
            }
            cache.push((pattern.to_owned(), compile(pattern)));
        }
        // Matching never re-enters the cache, so the borrow can stay.
        match cache.iter().find(|(source, _)| source == pattern).map(|(_, compiled)| compiled) {
            Some(Ok(regex)) => Ok(regex.is_match(text)),
            Some(Err(error)) => Err(error.clone()),
            None => Err(PatternError::Invalid("the pattern cache lost an entry".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecma_patterns_schemas_use() {
        let m = LinearPatterns::default();
        assert_eq!(m.is_match("^[a-z]+-\\d+$", "abc-12"), Ok(true));
        assert_eq!(m.is_match("^\\d{4}-\\d{2}-\\d{2}$", "2026-11-30"), Ok(true));
        assert_eq!(m.is_match("^https?:\\/\\/", "https://x"), Ok(true));
        assert_eq!(m.is_match("^[^@]+@[^@]+\\.[^@]+$", "a@b"), Ok(false));
        assert_eq!(m.is_match("b", "abc"), Ok(true), "unanchored, as in ECMA-262");
    }

    #[test]
    fn catastrophic_patterns_run_in_linear_time() {
        let m = LinearPatterns::default();
        let text = format!("{}!", "a".repeat(40));
        assert_eq!(m.is_match("^(a+)+$", &text), Ok(false));
        assert_eq!(m.is_match("^(a|a)*$", &text), Ok(false));
    }

    #[test]
    fn what_cannot_run_in_linear_time_is_unsupported_not_invalid() {
        let m = LinearPatterns::default();
        assert!(matches!(m.is_match("^(?=a)a", "a"), Err(PatternError::Unsupported(_))));
        assert!(matches!(m.is_match("(a)\\1", "aa"), Err(PatternError::Unsupported(_))));
        assert!(matches!(m.is_match("\\p{L}", "a"), Err(PatternError::Unsupported(_))));
        assert!(matches!(m.is_match("((a{1,100}){1,100}){1,100}", "a"), Err(PatternError::Unsupported(_))));
        assert!(matches!(m.is_match("(", "a"), Err(PatternError::Invalid(_))));
    }

    #[test]
    fn counted_repetitions_weigh_more() {
        assert_eq!(weight("abc"), 4);
        assert_eq!(weight("a{2}b{3}"), 27);
    }
}

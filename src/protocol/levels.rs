//! The values a [`scan`](super::scan::scan) of a large response reported
//! under its `result`, kept with the result's text so that the checks that
//! read that result (`pick`) take them from here instead of scanning the
//! text a second time.

use super::scan::REPORTED_DEPTH;

/// How many levels of a result are kept: its members, the items of an
/// array among them, and those items' members.
pub const LEVELS: usize = REPORTED_DEPTH - 1;

/// At most this many values are kept; a result with more keeps none, and
/// its readers scan its text (a page of small items cannot make this list
/// many times larger than the text).
const MAX_VALUES: usize = 1 << 16;

/// Byte offsets of a key or value in the result's text.
type Span = (u32, u32);

/// The values of a result's first [`LEVELS`] levels, in the order [`scan`]
/// reports them, as offsets into the result's text.
///
/// [`scan`]: super::scan::scan
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    values: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Value {
    /// The keys on the way (`None` for an array's item), `depth` of them.
    path: [Option<Span>; LEVELS],
    depth: u8,
    value: Span,
}

/// Collects the values a scan of a whole text reports under one member of
/// its top-level object.
#[derive(Debug)]
pub struct Recorder<'a> {
    text: &'a str,
    member: &'a str,
    values: Vec<Value>,
    overflowed: bool,
}

impl<'a> Recorder<'a> {
    /// A recorder for the values under `member` of the object `text`.
    pub fn new(text: &'a str, member: &'a str) -> Self {
        Self { text, member, values: Vec::new(), overflowed: false }
    }

    /// Takes one value the scan of `text` reported.
    pub fn found(&mut self, path: &[Option<&str>], value: &str) {
        let [Some(first), below @ ..] = path else { return };
        if *first != self.member || below.is_empty() || self.overflowed {
            return;
        }
        if self.values.len() >= MAX_VALUES {
            self.overflowed = true;
            self.values = Vec::new();
            return;
        }
        let mut kept = Value { path: [None; LEVELS], depth: 0, value: (0, 0) };
        for (slot, key) in kept.path.iter_mut().zip(below) {
            *slot = key.map(|key| self.span(key));
        }
        kept.depth = below.len().min(LEVELS) as u8;
        kept.value = self.span(value);
        self.values.push(kept);
    }

    fn span(&self, inner: &str) -> Span {
        let start = (inner.as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize);
        (start as u32, (start + inner.len()) as u32)
    }

    /// The values, with offsets from `start` (where the member's value
    /// begins in the text); `None` when there were too many to keep.
    pub fn finish(self, start: usize) -> Option<Levels> {
        if self.overflowed || self.text.len() > u32::MAX as usize {
            return None;
        }
        let shift = |(from, to): Span| Some((from.checked_sub(start as u32)?, to.checked_sub(start as u32)?));
        let mut values = self.values;
        for kept in &mut values {
            for key in kept.path.iter_mut().flatten() {
                *key = shift(*key)?;
            }
            kept.value = shift(kept.value)?;
        }
        Some(Levels { values })
    }
}

impl Levels {
    /// Reports the kept values of `text` (the result they were found in) to
    /// `found` as [`scan`](super::scan::scan) reports them; `false` when
    /// `found` answers `false`, or when `text` is not the text they came from.
    pub fn replay<'a>(&self, text: &'a str, mut found: impl FnMut(&[Option<&'a str>], &'a str) -> bool) -> bool {
        let slice = |(from, to): Span| text.get(from as usize..to as usize);
        for kept in &self.values {
            let mut path: [Option<&'a str>; LEVELS] = [None; LEVELS];
            for (slot, key) in path.iter_mut().zip(&kept.path) {
                if let Some(span) = key {
                    match slice(*span) {
                        Some(key) => *slot = Some(key),
                        None => return false,
                    }
                }
            }
            let (Some(path), Some(value)) = (path.get(..usize::from(kept.depth)), slice(kept.value)) else { return false };
            if !found(path, value) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
#[path = "levels_tests.rs"]
mod tests;

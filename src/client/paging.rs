//! Walking every page of a paginated list (`tools/list`, `resources/list`, …).

use crate::error::Error;
use std::future::Future;

/// The most pages one walk follows; a server that pages forever is an error, not a hang.
pub const MAX_PAGES: usize = 1_000;

/// How many times `maxMessageBytes` the pages of one whole walk may come to:
/// each page is bounded on its own, but [`MAX_PAGES`] of the largest would be
/// 32 GiB by default.
pub const MAX_LIST_MESSAGES: usize = 4;

/// The cursors one walk has followed, to catch a server that repeats one.
/// Each is kept as a 64-bit FNV-1a hash, not its text: a server's cursors may
/// each be as long as a message, and a walk's thousand of them would then be
/// held together. Two cursors of one walk that share a hash end it as a
/// repeat: by chance, about once in 10^13 walks of a thousand pages. A sorted
/// list: a hash set would compile in a hash table the first call needs for
/// nothing else.
#[derive(Debug, Default)]
pub struct SeenCursors(Vec<u64>);

impl SeenCursors {
    /// Records `cursor`; `false` if it was followed before.
    pub fn first_time(&mut self, cursor: &str) -> bool {
        let hash = fnv1a(cursor);
        match self.0.binary_search(&hash) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, hash);
                true
            }
        }
    }

    /// Whether more than [`MAX_PAGES`] cursors were followed.
    pub fn too_many(&self) -> bool {
        self.0.len() > MAX_PAGES
    }
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// Fetches pages with `fetch_page(cursor)`, each with the `nextCursor` it
/// carries, until one has none; returns the pages in order. `size` is a
/// page's length in bytes.
///
/// # Errors
/// Any page's error; [`Error::Protocol`] if a cursor repeats or there are
/// more than [`MAX_PAGES`] pages; [`Error::LimitExceeded`] (`maxMessageBytes`)
/// once the pages come to more than `max_bytes`.
pub async fn collect_pages<P, F, Fut, E>(max_bytes: usize, size: impl Fn(&P) -> usize, mut fetch_page: F) -> Result<Vec<P>, E>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<(P, Option<String>), E>>,
    E: From<Error>,
{
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = SeenCursors::default();
    let mut bytes = 0usize;
    for _ in 0..MAX_PAGES {
        let (page, next) = fetch_page(cursor.take()).await?;
        bytes = bytes.saturating_add(size(&page));
        if bytes > max_bytes {
            return Err(too_many_bytes(pages.len() + 1, max_bytes).into());
        }
        pages.push(page);
        match next {
            None => return Ok(pages),
            Some(next) if seen.first_time(&next) => cursor = Some(next),
            Some(next) => return Err(Error::protocol(format!("the server sent cursor {next:?} twice; stopping a paging loop")).into()),
        }
    }
    Err(Error::protocol(format!("more than {MAX_PAGES} pages")).into())
}

#[cold]
#[inline(never)]
fn too_many_bytes(pages: usize, max_bytes: usize) -> Error {
    let message = format!("{pages} pages come to more than the {max_bytes} bytes a listing may hold");
    Error::LimitExceeded { limit: "maxMessageBytes", message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;

    #[test]
    fn a_cursor_is_new_once_whatever_the_order() {
        let mut seen = SeenCursors::default();
        for cursor in ["m", "b", "z", "a", "mm"] {
            assert!(seen.first_time(cursor), "{cursor}");
        }
        for cursor in ["a", "b", "m", "mm", "z"] {
            assert!(!seen.first_time(cursor), "{cursor}");
        }
        assert!(!seen.too_many());
        for n in 0..MAX_PAGES {
            seen.first_time(&n.to_string());
        }
        assert!(seen.too_many());
    }

    #[test]
    fn follows_cursors_to_the_end() {
        let mut asked = Vec::new();
        let pages = block_on(collect_pages(
            usize::MAX,
            |_: &_| 1,
            |cursor| {
                asked.push(cursor.clone());
                let next = match cursor.as_deref() {
                    None => Some("b".to_owned()),
                    Some("b") => Some("c".to_owned()),
                    _ => None,
                };
                async move { Ok::<_, Error>((cursor, next)) }
            },
        ));
        assert_eq!(pages.unwrap(), [None, Some("b".into()), Some("c".into())]);
        assert_eq!(asked, [None, Some("b".into()), Some("c".into())]);
    }

    #[test]
    fn a_repeated_cursor_stops_the_walk() {
        let result = block_on(collect_pages(usize::MAX, |_: &_| 1, |_| async { Ok::<_, Error>(((), Some("same".to_owned()))) }));
        assert!(matches!(result, Err(Error::Protocol(m)) if m.contains("twice")));
    }

    #[test]
    fn endless_paging_and_errors_end_the_walk() {
        let mut n = 0;
        let endless = block_on(collect_pages(
            usize::MAX,
            |_: &_| 1,
            |_| {
                n += 1;
                let next = Some(n.to_string());
                async move { Ok::<_, Error>(((), next)) }
            },
        ));
        assert!(matches!(endless, Err(Error::Protocol(m)) if m.contains("pages")));
        let failed = block_on(collect_pages(usize::MAX, |_: &_| 1, |_| async { Err::<((), Option<String>), _>(Error::Timeout { ms: 5 }) }));
        assert!(matches!(failed, Err(Error::Timeout { ms: 5 })));
    }

    #[test]
    fn pages_that_add_up_past_the_budget_end_the_walk() {
        let mut asked = 0;
        let walk = block_on(collect_pages(
            2_500,
            |_: &()| 1_000,
            |_| {
                asked += 1;
                let next = Some(asked.to_string());
                async move { Ok::<_, Error>(((), next)) }
            },
        ));
        assert!(
            matches!(&walk, Err(Error::LimitExceeded { limit: "maxMessageBytes", message }) if message.contains("3 pages")),
            "{walk:?}"
        );
        assert_eq!(asked, 3, "the walk stops at the page that goes past");
        let within = block_on(collect_pages(
            2_000,
            |_: &()| 1_000,
            |cursor| async move { Ok::<_, Error>(((), cursor.is_none().then(|| "last".to_owned()))) },
        ));
        assert!(matches!(within.as_deref(), Ok([(), ()])), "a walk that comes to the budget exactly is whole: {within:?}");
    }

    #[test]
    fn cursors_are_kept_as_hashes_however_long() {
        let mut seen = SeenCursors::default();
        let long = "c".repeat(1 << 20);
        assert!(seen.first_time(&long));
        assert!(!seen.first_time(&long.clone()));
        assert!(seen.first_time(&"c".repeat((1 << 20) - 1)));
        assert_eq!(std::mem::size_of_val(seen.0.as_slice()), 16, "two hashes, not two megabytes");
    }
}

//! Walking every page of a paginated list (`tools/list`, `resources/list`, …).

use crate::error::Error;
use std::future::Future;

/// The most pages one walk follows; a server that pages forever is an error, not a hang.
pub const MAX_PAGES: usize = 1_000;

/// The cursors one walk has followed, to catch a server that repeats one. A
/// sorted list: a walk has at most [`MAX_PAGES`] of them, and a hash set of
/// strings would compile in a hash table the first call needs for nothing else.
#[derive(Debug, Default)]
pub struct SeenCursors(Vec<String>);

impl SeenCursors {
    /// Records `cursor`; `false` if it was followed before.
    pub fn first_time(&mut self, cursor: &str) -> bool {
        match self.0.binary_search_by(|seen| seen.as_str().cmp(cursor)) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, cursor.to_owned());
                true
            }
        }
    }

    /// Whether more than [`MAX_PAGES`] cursors were followed.
    pub fn too_many(&self) -> bool {
        self.0.len() > MAX_PAGES
    }
}

/// Fetches pages with `fetch_page(cursor)`, each with the `nextCursor` it
/// carries, until one has none; returns the pages in order.
///
/// # Errors
/// Any page's error; [`Error::Protocol`] if a cursor repeats or there are
/// more than [`MAX_PAGES`] pages.
pub async fn collect_pages<P, F, Fut, E>(mut fetch_page: F) -> Result<Vec<P>, E>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<(P, Option<String>), E>>,
    E: From<Error>,
{
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = SeenCursors::default();
    for _ in 0..MAX_PAGES {
        let (page, next) = fetch_page(cursor.take()).await?;
        pages.push(page);
        match next {
            None => return Ok(pages),
            Some(next) if seen.first_time(&next) => cursor = Some(next),
            Some(next) => return Err(Error::protocol(format!("the server sent cursor {next:?} twice; stopping a paging loop")).into()),
        }
    }
    Err(Error::protocol(format!("more than {MAX_PAGES} pages")).into())
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
        let pages = block_on(collect_pages(|cursor| {
            asked.push(cursor.clone());
            let next = match cursor.as_deref() {
                None => Some("b".to_owned()),
                Some("b") => Some("c".to_owned()),
                _ => None,
            };
            async move { Ok::<_, Error>((cursor, next)) }
        }));
        assert_eq!(pages.unwrap(), [None, Some("b".into()), Some("c".into())]);
        assert_eq!(asked, [None, Some("b".into()), Some("c".into())]);
    }

    #[test]
    fn a_repeated_cursor_stops_the_walk() {
        let result = block_on(collect_pages(|_| async { Ok::<_, Error>(((), Some("same".to_owned()))) }));
        assert!(matches!(result, Err(Error::Protocol(m)) if m.contains("twice")));
    }

    #[test]
    fn endless_paging_and_errors_end_the_walk() {
        let mut n = 0;
        let endless = block_on(collect_pages(|_| {
            n += 1;
            let next = Some(n.to_string());
            async move { Ok::<_, Error>(((), next)) }
        }));
        assert!(matches!(endless, Err(Error::Protocol(m)) if m.contains("pages")));
        let failed = block_on(collect_pages(|_| async { Err::<((), Option<String>), _>(Error::Timeout { ms: 5 }) }));
        assert!(matches!(failed, Err(Error::Timeout { ms: 5 })));
    }
}

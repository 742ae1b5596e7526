//! Walking every page of a paginated list (`tools/list`, `resources/list`, …).

use crate::error::Error;
use serde_json::Value;
use std::collections::HashSet;
use std::future::Future;

/// The most pages one walk follows; a server that pages forever is an error, not a hang.
pub const MAX_PAGES: usize = 1_000;

/// Fetches pages with `fetch_page(cursor)` until one has no `nextCursor`, and
/// returns the concatenated `items_field` arrays.
///
/// # Errors
/// Any page's error; [`Error::Protocol`] if a page has no `items_field`
/// array, a cursor repeats, or there are more than [`MAX_PAGES`] pages.
pub async fn collect_pages<F, Fut, E>(items_field: &str, mut fetch_page: F) -> Result<Vec<Value>, E>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<Value, E>>,
    E: From<Error>,
{
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = HashSet::new();
    for _ in 0..MAX_PAGES {
        let mut page = fetch_page(cursor.take()).await?;
        match page.get_mut(items_field).map(Value::take) {
            Some(Value::Array(page_items)) => items.extend(page_items),
            _ => return Err(Error::Protocol(format!("a page has no {items_field} array")).into()),
        }
        match page.get("nextCursor") {
            None | Some(Value::Null) => return Ok(items),
            Some(Value::String(next)) if seen.insert(next.clone()) => cursor = Some(next.clone()),
            Some(Value::String(next)) => {
                return Err(Error::Protocol(format!("the server sent cursor {next:?} twice; stopping a paging loop")).into())
            }
            Some(_) => return Err(Error::Protocol("nextCursor is not a string".into()).into()),
        }
    }
    Err(Error::Protocol(format!("more than {MAX_PAGES} pages")).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use serde_json::json;

    #[test]
    fn follows_cursors_to_the_end() {
        let pages = [json!({"tools": [1, 2], "nextCursor": "b"}), json!({"tools": [3], "nextCursor": "c"}), json!({"tools": []})];
        let mut asked = Vec::new();
        let all = block_on(collect_pages("tools", |cursor| {
            asked.push(cursor.clone());
            let page = match cursor.as_deref() {
                None => pages[0].clone(),
                Some("b") => pages[1].clone(),
                _ => pages[2].clone(),
            };
            async move { Ok::<_, Error>(page) }
        }));
        assert_eq!(all.unwrap(), vec![json!(1), json!(2), json!(3)]);
        assert_eq!(asked, [None, Some("b".into()), Some("c".into())]);
    }

    #[test]
    fn a_repeated_cursor_stops_the_walk() {
        let result = block_on(collect_pages("tools", |_| async { Ok::<_, Error>(json!({"tools": [], "nextCursor": "same"})) }));
        assert!(matches!(result, Err(Error::Protocol(_))));
    }

    #[test]
    fn bad_pages_and_errors_end_the_walk() {
        let missing = block_on(collect_pages("tools", |_| async { Ok::<_, Error>(json!({"items": []})) }));
        assert!(matches!(missing, Err(Error::Protocol(_))));
        let failed = block_on(collect_pages("tools", |_| async { Err::<Value, _>(Error::Timeout { ms: 5 }) }));
        assert!(matches!(failed, Err(Error::Timeout { ms: 5 })));
    }
}

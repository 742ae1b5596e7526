//! Reading skills: each file is checked against its listing before it is
//! handed over, by the built-in checks or by a checker from the options.

use crate::client::testing::{legacy_peer, Answer, Seen, World};
use crate::client::{Client, ClientOptions, EraChoice, RequestOptions, SkillChecker};
use crate::error::Error;
use crate::protocol::skills::SkillFile;
use futures::future::LocalBoxFuture;
use serde_json::{json, Map, Value};
use std::{cell::RefCell, rc::Rc};

const SKILL_MD: &str = "---\nname: notes\ndescription: Release notes\n---\n# Notes\n";
const TEMPLATE: &str = "## Added\n";

/// A server whose `resources/read` answers each uri with `files`' text.
fn connect(files: Vec<(&'static str, &'static str)>, options: ClientOptions) -> (World, Client) {
    let mut w = World::new(move |s: &Seen| {
        if s.method() != "resources/read" {
            return legacy_peer(s, &json!({"resources": {}}));
        }
        let uri = s.params()["uri"].as_str().unwrap_or_default().to_owned();
        let text = files.iter().find(|(u, _)| *u == uri).map_or("", |(_, t)| t);
        Answer::Result(json!({"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}))
    });
    let client = w.connect(ClientOptions { era: EraChoice::Legacy, ..options }).unwrap();
    (w, client)
}

/// The skill as `skills/list` gives it, its sizes and digests taken from `listed`.
fn skill(listed: &[(&str, &str)]) -> Value {
    let resources: Vec<Value> = listed.iter().map(|(uri, text)| file_entry(uri, text)).collect();
    json!({
        "uri": "skill://notes/SKILL.md",
        "frontmatter": {"name": "notes", "description": "Release notes"},
        "resources": resources,
    })
}

#[cfg(feature = "skills")]
fn file_entry(uri: &str, text: &str) -> Value {
    json!({"uri": uri, "size": text.len(), "digest": format!("sha256:{}", crate::protocol::sha256::sha256_hex(text.as_bytes()))})
}

#[cfg(not(feature = "skills"))]
fn file_entry(uri: &str, text: &str) -> Value {
    json!({"uri": uri, "size": text.len()})
}

fn read_skill(w: &mut World, client: &Client, skill: Value) -> Result<crate::client::LoadedSkill, Error> {
    let c = client.clone();
    w.run(async move { c.read_skill(skill, &RequestOptions::default()).await })
}

fn read_file(w: &mut World, client: &Client, skill: Value, uri: &'static str) -> Result<crate::client::Reply, Error> {
    let c = client.clone();
    w.run(async move { c.read_skill_file(&skill, uri, &RequestOptions::default()).await })
}

#[cfg(feature = "skills")]
#[test]
fn the_built_in_checks_hand_over_a_matching_skill_and_refuse_a_changed_one() {
    let listed = [("skill://notes/SKILL.md", SKILL_MD), ("skill://notes/template.md", TEMPLATE)];
    let (mut w, client) = connect(listed.to_vec(), ClientOptions::default());
    let loaded = read_skill(&mut w, &client, skill(&listed)).unwrap();
    assert_eq!(loaded.frontmatter.get("name"), Some(&json!("notes")));
    assert_eq!(loaded.body, "# Notes\n");
    assert!(read_file(&mut w, &client, skill(&listed), "skill://notes/template.md").is_ok());
    let unlisted = read_file(&mut w, &client, skill(&listed), "skill://notes/other.md").unwrap_err();
    assert_eq!(unlisted.kind(), "invalid-argument");

    // Same sizes, other bytes.
    let served = [
        ("skill://notes/SKILL.md", "---\nname: notez\ndescription: Release notes\n---\n# Notes\n"),
        ("skill://notes/template.md", "## Adder\n"),
    ];
    let (mut w, client) = connect(served.to_vec(), ClientOptions::default());
    let refused = read_skill(&mut w, &client, skill(&listed)).unwrap_err();
    assert_eq!(refused.kind(), "invalid-result");
    assert!(refused.to_string().contains("digest"), "{refused}");
    let refused = read_file(&mut w, &client, skill(&listed), "skill://notes/template.md").unwrap_err();
    assert_eq!(refused.kind(), "invalid-result");
}

/// A checker that records what it was asked, accepts a `SKILL.md` that
/// begins with `---`, and refuses every other file.
struct Recording(Rc<RefCell<Vec<String>>>);

impl SkillChecker for Recording {
    fn check_skill(&self, skill: &Value, text: &str) -> LocalBoxFuture<'static, Result<Result<SkillFile, String>, Error>> {
        self.0.borrow_mut().push(format!("skill {}", skill["uri"].as_str().unwrap_or_default()));
        let verdict = match text.starts_with("---") {
            true => Ok(SkillFile { frontmatter: Map::from_iter([("checked".to_owned(), json!(true))]), body: "checked body".into() }),
            false => Err("no frontmatter".to_owned()),
        };
        Box::pin(futures::future::ready(Ok(verdict)))
    }

    fn check_file(&self, listed: &Value, bytes: &[u8]) -> LocalBoxFuture<'static, Result<Result<(), String>, Error>> {
        self.0.borrow_mut().push(format!("file {} {}", listed["uri"].as_str().unwrap_or_default(), bytes.len()));
        Box::pin(futures::future::ready(Ok(Err("refused by the test's checker".to_owned()))))
    }
}

#[test]
fn a_skill_checker_from_the_options_replaces_the_built_in_one_in_any_build() {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let listed = [("skill://notes/SKILL.md", SKILL_MD), ("skill://notes/template.md", TEMPLATE)];
    let options = ClientOptions { skill_checker: Some(Rc::new(Recording(asked.clone()))), ..ClientOptions::default() };
    let (mut w, client) = connect(listed.to_vec(), options);

    let loaded = read_skill(&mut w, &client, skill(&listed)).unwrap();
    assert_eq!((loaded.frontmatter.get("checked"), loaded.body.as_str()), (Some(&json!(true)), "checked body"));
    assert_eq!(loaded.text, SKILL_MD, "the text is handed over as the server sent it");
    let refused = read_file(&mut w, &client, skill(&listed), "skill://notes/template.md").unwrap_err();
    assert_eq!(refused.kind(), "invalid-result");
    assert!(refused.to_string().contains("refused by the test's checker"), "{refused}");
    assert_eq!(*asked.borrow(), ["skill skill://notes/SKILL.md".to_owned(), format!("file skill://notes/template.md {}", TEMPLATE.len())]);
}

#[cfg(not(feature = "skills"))]
#[test]
fn without_the_checks_or_a_checker_a_skill_is_not_handed_over() {
    let listed = [("skill://notes/SKILL.md", SKILL_MD)];
    let (mut w, client) = connect(listed.to_vec(), ClientOptions::default());
    assert_eq!(read_skill(&mut w, &client, skill(&listed)).unwrap_err().kind(), "unsupported");
    assert_eq!(read_file(&mut w, &client, skill(&listed), "skill://notes/SKILL.md").unwrap_err().kind(), "unsupported");
    assert!(!w.server.methods().iter().any(|m| m == "resources/read"), "neither reads what nothing could check");
}

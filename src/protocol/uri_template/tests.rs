use super::*;

/// The variables of RFC 6570 section 3.2.
fn rfc_value(name: &str) -> Option<TemplateValue> {
    let s = |v: &str| Some(TemplateValue::String(v.into()));
    let list = |v: &[&str]| Some(TemplateValue::List(v.iter().map(|x| x.to_string()).collect()));
    match name {
        "count" => list(&["one", "two", "three"]),
        "dom" => list(&["example", "com"]),
        "dub" => s("me/too"),
        "hello" => s("Hello World!"),
        "half" => s("50%"),
        "var" => s("value"),
        "who" => s("fred"),
        "base" => s("http://example.com/home/"),
        "path" => s("/foo/bar"),
        "list" => list(&["red", "green", "blue"]),
        "keys" => Some(TemplateValue::Map(vec![("semi".into(), ";".into()), ("dot".into(), ".".into()), ("comma".into(), ",".into())])),
        "v" => s("6"),
        "x" => s("1024"),
        "y" => s("768"),
        "empty" => s(""),
        "empty_keys" => Some(TemplateValue::Map(vec![])),
        _ => None,
    }
}

const RFC_EXAMPLES: &[(&str, &str)] = &[
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("{half}", "50%25"),
    ("O{empty}X", "OX"),
    ("O{undef}X", "OX"),
    ("{x,y}", "1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("?{x,empty}", "?1024,"),
    ("?{x,undef}", "?1024"),
    ("?{undef,y}", "?768"),
    ("{var:3}", "val"),
    ("{var:30}", "value"),
    ("{list}", "red,green,blue"),
    ("{list*}", "red,green,blue"),
    ("{keys}", "semi,%3B,dot,.,comma,%2C"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+half}", "50%25"),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
    ("{+base}index", "http://example.com/home/index"),
    ("O{+empty}X", "OX"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("up{+path}{var}/here", "up/foo/barvalue/here"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+list}", "red,green,blue"),
    ("{+list*}", "red,green,blue"),
    ("{+keys}", "semi,;,dot,.,comma,,"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    ("{#var}", "#value"),
    ("{#hello}", "#Hello%20World!"),
    ("{#half}", "#50%25"),
    ("foo{#empty}", "foo#"),
    ("foo{#undef}", "foo"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("{#path:6}/here", "#/foo/b/here"),
    ("{#list}", "#red,green,blue"),
    ("{#list*}", "#red,green,blue"),
    ("{#keys}", "#semi,;,dot,.,comma,,"),
    ("{#keys*}", "#semi=;,dot=.,comma=,"),
    ("X{.var}", "X.value"),
    ("X{.x,y}", "X.1024.768"),
    ("{.who}", ".fred"),
    ("{.who,who}", ".fred.fred"),
    ("{.half,who}", ".50%25.fred"),
    ("www{.dom*}", "www.example.com"),
    ("X{.var:3}", "X.val"),
    ("X{.list}", "X.red,green,blue"),
    ("X{.list*}", "X.red.green.blue"),
    ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
    ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
    ("X{.empty_keys}", "X"),
    ("X{.empty_keys*}", "X"),
    ("{/who}", "/fred"),
    ("{/who,who}", "/fred/fred"),
    ("{/half,who}", "/50%25/fred"),
    ("{/who,dub}", "/fred/me%2Ftoo"),
    ("{/var}", "/value"),
    ("{/var,empty}", "/value/"),
    ("{/var,undef}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{/var:1,var}", "/v/value"),
    ("{/list}", "/red,green,blue"),
    ("{/list*}", "/red/green/blue"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
    ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
    ("{;who}", ";who=fred"),
    ("{;half}", ";half=50%25"),
    ("{;empty}", ";empty"),
    ("{;v,empty,who}", ";v=6;empty;who=fred"),
    ("{;v,bar,who}", ";v=6;who=fred"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{;x,y,undef}", ";x=1024;y=768"),
    ("{;hello:5}", ";hello=Hello"),
    ("{;list}", ";list=red,green,blue"),
    ("{;list*}", ";list=red;list=green;list=blue"),
    ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ("{?who}", "?who=fred"),
    ("{?half}", "?half=50%25"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("{?x,y,undef}", "?x=1024&y=768"),
    ("{?var:3}", "?var=val"),
    ("{?list}", "?list=red,green,blue"),
    ("{?list*}", "?list=red&list=green&list=blue"),
    ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    ("{&who}", "&who=fred"),
    ("{&half}", "&half=50%25"),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
    ("{&var:3}", "&var=val"),
    ("{&list}", "&list=red,green,blue"),
    ("{&list*}", "&list=red&list=green&list=blue"),
    ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
    ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
];

#[test]
fn expands_every_rfc_6570_example() {
    for (template, expected) in RFC_EXAMPLES {
        let parsed = UriTemplate::parse(template).unwrap_or_else(|e| panic!("{template}: {e}"));
        assert_eq!(parsed.expand(&rfc_value), *expected, "{template}");
    }
}

#[test]
fn utf8_is_percent_encoded_per_byte() {
    let t = UriTemplate::parse("{word}").unwrap();
    assert_eq!(t.expand(&|_| Some(TemplateValue::String("é🦀".into()))), "%C3%A9%F0%9F%A6%80");
}

#[test]
fn bad_templates_are_errors() {
    for bad in ["{", "{}", "{var", "x}", "{=x}", "{var:0}", "{var:10000}", "{a b}", "{a,,b}"] {
        assert!(UriTemplate::parse(bad).is_err(), "{bad}");
    }
}

fn matched(template: &str, uri: &str) -> Option<Vec<(String, TemplateValue)>> {
    UriTemplate::parse(template).unwrap().matches(uri, DEFAULT_MATCH_STEPS).unwrap().map(|m| m.into_iter().collect())
}

fn text(v: &str) -> TemplateValue {
    TemplateValue::String(v.into())
}

#[test]
fn matches_uris_back_to_variables() {
    assert_eq!(
        matched("demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/42"),
        Some(vec![("resourceId".into(), text("42"))])
    );
    assert_eq!(matched("demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/42"), None);
    // A simple expression does not swallow a path separator.
    assert_eq!(
        matched("file:///{dir}/{name}", "file:///docs/a%20b.txt"),
        Some(vec![("dir".into(), text("docs")), ("name".into(), text("a b.txt"))])
    );
    assert_eq!(matched("file:///{name}", "file:///docs/readme"), None);
    assert_eq!(matched("file://{+path}", "file:///home/ada/notes.md"), Some(vec![("path".into(), text("/home/ada/notes.md"))]));
    assert_eq!(
        matched("/search{?q,lang}", "/search?q=mcp%20wasm&lang=en"),
        Some(vec![("lang".into(), text("en")), ("q".into(), text("mcp wasm"))])
    );
    assert_eq!(
        matched("/items{/ids*}", "/items/1/2/3"),
        Some(vec![("ids".into(), TemplateValue::List(vec!["1".into(), "2".into(), "3".into()]))])
    );
    assert_eq!(matched("/x{.ext}", "/x.json"), Some(vec![("ext".into(), text("json"))]));
    assert_eq!(matched("/x/{id}", "/x/"), Some(vec![]));
}

#[test]
fn expansion_and_matching_round_trip() {
    let t = UriTemplate::parse("weather://{city}/forecast{?days,units}").unwrap();
    let value = |name: &str| match name {
        "city" => Some(text("São Paulo")),
        "days" => Some(text("3")),
        _ => None,
    };
    let uri = t.expand(&value);
    assert_eq!(uri, "weather://S%C3%A3o%20Paulo/forecast?days=3");
    assert_eq!(
        t.matches(&uri, DEFAULT_MATCH_STEPS).unwrap().unwrap().into_iter().collect::<Vec<_>>(),
        vec![("city".into(), text("São Paulo")), ("days".into(), text("3"))]
    );
}

/// Eight adjacent reserved expressions and a literal that never comes: every
/// split of the URI among them would be tried, O(n^8).
#[test]
fn a_backtracking_template_runs_out_of_steps() {
    let t = UriTemplate::parse("x:{+a}{+b}{+c}{+d}{+e}{+f}{+g}{+h}!").unwrap();
    let uri = format!("x:{}", "a/".repeat(200));
    let started = std::time::Instant::now();
    assert_eq!(t.matches(&uri, DEFAULT_MATCH_STEPS), Err(MatchTooCostly { steps: DEFAULT_MATCH_STEPS }));
    assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    // The same template still matches what it can, cheaply.
    assert!(t.matches("x:a!", DEFAULT_MATCH_STEPS).unwrap().is_some());
}

/// Matching goes a call deeper for each part: a server's template cannot have more parts than
/// the stack holds, and one at the bound matches within the steps.
#[test]
fn a_template_has_at_most_max_parts() {
    let at_bound = "{a}".repeat(super::MAX_PARTS);
    let template = UriTemplate::parse(&at_bound).unwrap();
    assert!(template.matches("xyz", DEFAULT_MATCH_STEPS).is_ok());
    for over in [format!("{at_bound}!"), "{a}".repeat(50_000), "x{a}".repeat(super::MAX_PARTS / 2 + 1)] {
        let error = UriTemplate::parse(&over).unwrap_err();
        assert!(error.to_string().contains("more than 64"), "{error}");
    }
}

/// A long literal is encoded once, not at each candidate split of the expression before it.
#[test]
fn literals_expand_and_match_as_written_encoded() {
    let t = UriTemplate::parse("a b/{x}/é{y}").unwrap();
    let lookup = |name: &str| Some(TemplateValue::String(name.into()));
    assert_eq!(t.expand(&lookup), "a%20b/x/%C3%A9y");
    assert_eq!(matched("a b/{x}/é{y}", "a%20b/1/%C3%A92"), Some(vec![("x".into(), text("1")), ("y".into(), text("2"))]));
}

use super::*;
use serde_json::json;

#[test]
fn challenges() {
    let c = parse_challenge(
        r#"Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:write""#,
    )
    .unwrap();
    assert_eq!(c.resource_metadata(), Some("https://a.example/.well-known/oauth-protected-resource/mcp"));
    assert_eq!(c.scope(), Some("mcp:read mcp:write"));
    let c = parse_challenge(r#"Basic realm="x", Bearer error="insufficient_scope", scope="a, b", error_description="say \"hi\"""#).unwrap();
    assert_eq!((c.error(), c.scope()), (Some("insufficient_scope"), Some("a, b")));
    assert_eq!(c.params.get("error_description").map(String::as_str), Some(r#"say "hi""#));
    assert_eq!(parse_challenge("Bearer").unwrap(), Challenge { scheme: "bearer".into(), ..Challenge::default() });
    assert!(parse_challenge("Basic realm=\"x\"").is_none());
    let c = parse_challenge("Bearer scope=plain, Basic realm=x").unwrap();
    assert_eq!(c.scope(), Some("plain"));
    // A scheme's name inside another scheme's quoted value is no challenge.
    assert!(parse_challenge(r#"Basic realm="Bearer of news""#).is_none());
}

#[test]
fn dpop_challenges_and_several_schemes() {
    let c =
        parse_challenge(r#"DPoP error="use_dpop_nonce", resource_metadata="http://h/.well-known/oauth-protected-resource/mcp""#).unwrap();
    assert_eq!((c.scheme.as_str(), c.error()), ("dpop", Some("use_dpop_nonce")));
    assert_eq!(c.resource_metadata(), Some("http://h/.well-known/oauth-protected-resource/mcp"));
    let c = parse_challenge(r#"Bearer scope="a", DPoP algs="ES256", resource_metadata="http://h/prm""#).unwrap();
    assert_eq!((c.scheme.as_str(), c.scope(), c.resource_metadata()), ("bearer", Some("a"), Some("http://h/prm")));
    let all = parse_challenges("Negotiate abc123==, Bearer realm=x");
    assert_eq!(all.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(), ["negotiate", "bearer"]);
}

#[test]
fn discovery_urls_in_the_specs_order() {
    assert_eq!(
        resource_metadata_urls("http://localhost:3000/mcp", None),
        ["http://localhost:3000/.well-known/oauth-protected-resource/mcp", "http://localhost:3000/.well-known/oauth-protected-resource"]
    );
    let challenge = parse_challenge(r#"Bearer resource_metadata="http://h/custom/metadata.json""#).unwrap();
    assert_eq!(resource_metadata_urls("http://h/mcp", Some(&challenge)), ["http://h/custom/metadata.json"]);
    assert_eq!(
        authorization_server_metadata_urls("http://h:1/tenant1"),
        [
            "http://h:1/.well-known/oauth-authorization-server/tenant1",
            "http://h:1/.well-known/openid-configuration/tenant1",
            "http://h:1/tenant1/.well-known/openid-configuration"
        ]
    );
    assert_eq!(
        authorization_server_metadata_urls("http://h/"),
        ["http://h/.well-known/oauth-authorization-server", "http://h/.well-known/openid-configuration"]
    );
}

#[test]
fn resources_issuers_and_pkce() {
    assert_eq!(canonical_resource("HTTP://Example.COM/mcp/#frag"), "http://example.com/mcp");
    // Found by fuzzing: a `?` before `://` was taken for the query, so the
    // result grew each time it was canonicalised again.
    assert_eq!(canonical_resource("?://"), "?://");
    assert_eq!(canonical_resource("a?b://Host/p/?q=1"), "a?b://host/p?q=1");
    assert_eq!(canonical_resource(&canonical_resource("a?b://Host/p/?q=1")), "a?b://host/p?q=1");
    assert!(resource_matches("http://localhost:3000/mcp", "http://localhost:3000/mcp"));
    assert!(resource_matches("http://localhost:3000", "http://localhost:3000/mcp"));
    assert!(!resource_matches("http://evil.example/mcp", "http://localhost:3000/mcp"));
    let metadata = json!({"issuer": "http://h", "code_challenge_methods_supported": ["S256"]});
    assert!(check_authorization_server(&metadata, "http://h", true).is_ok());
    assert!(check_authorization_server(&metadata, "http://other", true).is_err());
    assert!(check_authorization_server(&json!({"issuer": "http://h"}), "http://h", true).is_err());
    assert!(check_authorization_server(&json!({"issuer": "http://h", "code_challenge_methods_supported": ["plain"]}), "http://h", true)
        .is_err());
}

#[test]
fn scopes() {
    assert_eq!(select_scope(Some("a b"), Some(&json!(["x"])), false).as_deref(), Some("a b"));
    assert_eq!(select_scope(None, Some(&json!(["x", "y"])), false).as_deref(), Some("x y"));
    assert_eq!(select_scope(None, None, true), None);
    assert_eq!(select_scope(Some("a"), None, true).as_deref(), Some("a offline_access"));
    assert_eq!(scope_union(Some("mcp:basic"), Some("mcp:basic mcp:write")).as_deref(), Some("mcp:basic mcp:write"));
    assert_eq!(scope_union(None, None), None);
    // 60,000 distinct scopes, as a 256 KiB reply holds: the first 256 are kept, each looked for
    // among at most 255 others, not among every one kept before it.
    let many: String = (0..60_000).map(|i| format!("s{i} ")).collect();
    let union = scope_union(Some("a"), Some(&many)).unwrap();
    assert_eq!(union.split(' ').count(), MAX_SCOPES);
    assert!(union.starts_with("a s0 s1 "), "{union}");
}

#[test]
fn client_authentication() {
    let supported = json!(["client_secret_post", "client_secret_basic"]);
    assert_eq!(choose_client_auth(None, Some(&supported), true), ClientAuth::Post);
    assert_eq!(choose_client_auth(Some("client_secret_basic"), Some(&supported), true), ClientAuth::Basic);
    assert_eq!(choose_client_auth(None, Some(&supported), false), ClientAuth::None);
    assert_eq!(choose_client_auth(None, None, true), ClientAuth::Basic);
}

#[test]
fn forms_and_callbacks() {
    assert_eq!(form_encode(&[("redirect_uri", "http://l/cb?x=1"), ("scope", "a b")]), "redirect_uri=http%3A%2F%2Fl%2Fcb%3Fx%3D1&scope=a+b");
    assert_eq!(form_decode("a=1+2&b=%2F&c"), [("a".into(), "1 2".into()), ("b".into(), "/".into()), ("c".into(), String::new())]);
    let ok = check_callback("http://l/cb?code=c1&state=s&iss=http%3A%2F%2Fas", "s", "http://as", true);
    assert_eq!(ok, Ok(Callback { code: "c1".into() }));
    assert!(check_callback("http://l/cb?code=c1&state=other", "s", "http://as", false).is_err());
    assert!(check_callback("http://l/cb?code=c1&state=s", "s", "http://as", true).is_err());
    let forged = check_callback("http://l/cb?error=access_denied&state=s&iss=http%3A%2F%2Fevil", "s", "http://as", false).unwrap_err();
    assert!(!forged.contains("access_denied"), "{forged}");
    assert!(check_callback("http://l/cb?error=access_denied&state=s", "s", "http://as", false).unwrap_err().contains("access_denied"));
}

#[test]
fn base64_both_alphabets() {
    // RFC 7636 appendix B: the verifier's challenge.
    assert_eq!(base64url(&[0xfb, 0xff, 0xbf]), "-_-_");
    assert_eq!(base64url(b"ab"), "YWI");
    assert_eq!(base64(b"ab"), "YWI=");
    assert_eq!(base64(b"client:secret"), "Y2xpZW50OnNlY3JldA==");
}

#[test]
fn pem_and_jwt() {
    assert_eq!(base64_decode("Y2xpZW50OnNlY3JldA=="), Some(b"client:secret".to_vec()));
    assert_eq!(base64_decode("YWI"), Some(b"ab".to_vec()));
    assert_eq!(base64_decode("*"), None);
    let pem = "-----BEGIN PRIVATE KEY-----\nYWJj\nZGVm\n-----END PRIVATE KEY-----\n";
    assert_eq!(pem_body(pem), Some(b"abcdef".to_vec()));
    let input = jwt_signing_input("ES256", "c1", "http://as", "j", 100);
    let (header, claims) = input.split_once('.').unwrap();
    let claims: Value = serde_json::from_slice(&base64_decode(claims).unwrap()).unwrap();
    assert_eq!(claims, json!({"iss": "c1", "sub": "c1", "aud": "http://as", "jti": "j", "iat": 100, "exp": 400}));
    assert_eq!(serde_json::from_slice::<Value>(&base64_decode(header).unwrap()).unwrap(), json!({"alg": "ES256", "typ": "JWT"}));
}

#[test]
fn redirect_uris_are_https_or_loopback() {
    for good in [
        "https://app.example/cb",
        "http://localhost/cb",
        "http://localhost:3000/cb",
        "http://127.0.0.1:38061/callback.html",
        "http://[::1]:8080/cb",
        "HTTPS://App.Example/cb?x=1",
        "http://user@localhost:3000/cb",
        "http://localhost\\@app.example/cb",
    ] {
        assert!(redirect_uri_allowed(good), "{good}");
    }
    for bad in [
        "http://app.example/cb",
        "http://localhost.evil.example/cb",
        "http://127.0.0.1.evil.example/cb",
        "https://app.example/cb#frag",
        "javascript:alert(1)",
        "https:///cb",
        "/callback",
        // Found by fuzzing: userinfo is not the host.
        "http://localhost:1@app.example/cb",
        "http://127.0.0.1@app.example/cb",
        "http://[::1]@",
        "http://[::1]:80@app.example/cb",
        "http://app.example\\@localhost/cb",
        "https://user@/cb",
    ] {
        assert!(!redirect_uri_allowed(bad), "{bad}");
    }
}

#[test]
fn endpoints_are_https_or_loopback() {
    assert!(endpoint_allowed("https://as.example/authorize") && endpoint_allowed("http://127.0.0.1:38060/token"));
    for bad in [
        "javascript:alert(document.domain)//",
        "data:text/html,<script>1</script>",
        "http://as.example/authorize",
        "//as.example/a",
        "https://as.example/a\nb",
        "https://as.example/a b",
        "https://as.example/\r",
        "https://as.example/\u{7f}",
    ] {
        assert!(!endpoint_allowed(bad), "{bad}");
    }
}

#[test]
fn access_tokens_that_a_header_can_carry() {
    for token in ["mF_9.B5f-4.1JqM", "a+b/c~d==", "2YotnFZFEjr1zCsicMWpAA"] {
        assert!(access_token_usable(token), "{token}");
    }
    for token in ["", "a\nb", "a\rb", "a b", "a\0b", "caf\u{e9}", "\u{1f600}"] {
        assert!(!access_token_usable(token), "{token:?}");
    }
}

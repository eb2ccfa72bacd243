//! Cross-site requests (issue 9, section 2): what a browser sends on another site's behalf is
//! refused, the site's own page and bots are served, planted tokens are refused and replaced,
//! the cookie is `__Host-` and `Secure` over HTTPS, and every response carries the security
//! headers. The same attacks in a real browser: crates/cli/tests/browser_attacks.rs.

use crate::common::*;
use serde_json::json;
use server::SiteOptions;
use server::client::ApiClient;
use server::options::PublicUrl;

/// What a browser sends from the page at `origin` with the victim's cookie.
fn browser<'a>(
    host: &'a str,
    origin: &'a str,
    cookie: &'a str,
    content_type: &'a str,
) -> Vec<(&'static str, &'a str)> {
    vec![
        ("host", host),
        ("origin", origin),
        ("cookie", cookie),
        ("content-type", content_type),
    ]
}

/// A victim with a local game: its client, token and game id.
async fn victim(srv: &TestServer) -> (ApiClient, String, String) {
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let token = c.token().expect("token").to_string();
    (c, token, g["id"].as_str().expect("id").to_string())
}

#[tokio::test]
async fn cross_origin_forms_cannot_resign_rematch_or_move() {
    let srv = TestServer::start(&sqlite_url("csrf-forms")).await;
    let (mut me, token, id) = victim(&srv).await;
    let host = srv.addr.to_string();
    let own = format!("http://{host}");
    let cookie = format!("icebound_player={token}");
    let mut page = srv.client();
    // The issue's probe: a form on another origin of the same site, the cookie attached.
    // Every state change of a game, those of the game page (abort, takeback) included.
    let changes = ["resign", "abort", "takeback"];
    for (origin, ct) in [
        (
            "http://evil.example.test",
            "application/x-www-form-urlencoded",
        ),
        ("http://evil.example.test", "application/json"),
        ("null", "text/plain"),
    ] {
        for change in changes {
            let a = page
                .send_with_headers(
                    "POST",
                    &format!("/api/games/{id}/{change}"),
                    &browser(&host, origin, &cookie, ct),
                    Some(b"x=1".to_vec()),
                )
                .await
                .expect("request");
            assert_eq!(a.status, 403, "{change} {origin} {ct}: {}", a.text);
            assert_eq!(a.body["error"]["code"], "cross_origin", "{}", a.text);
        }
    }
    // A browser that sends Sec-Fetch-Site but no Origin, and a request with the cookie alone.
    for headers in [
        vec![
            ("cookie", cookie.as_str()),
            ("sec-fetch-site", "same-site"),
            ("content-type", "application/json"),
        ],
        vec![
            ("cookie", cookie.as_str()),
            ("content-type", "application/json"),
        ],
    ] {
        let a = page
            .send_with_headers(
                "POST",
                &format!("/api/games/{id}/moves"),
                &headers,
                Some(br#"{"move":"c3-d4","ply":0}"#.to_vec()),
            )
            .await
            .expect("request");
        assert_eq!(a.status, 403, "{headers:?}: {}", a.text);
        assert_eq!(a.body["error"]["code"], "cross_origin");
    }
    // The site's own page, same cookie, but a form's content type: 415.
    for ct in [
        "application/x-www-form-urlencoded",
        "text/plain",
        "multipart/form-data; boundary=x",
    ] {
        for change in changes {
            let a = page
                .send_with_headers(
                    "POST",
                    &format!("/api/games/{id}/{change}"),
                    &browser(&host, &own, &cookie, ct),
                    Some(br#"{"action":"offer"}"#.to_vec()),
                )
                .await
                .expect("request");
            assert_eq!(a.status, 415, "{change} {ct}: {}", a.text);
            assert_eq!(a.body["error"]["code"], "unsupported_media_type");
        }
    }
    let view = me.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(
        view.body["status"], "ongoing",
        "nothing resigned or aborted the game"
    );
    assert_eq!(view.body["ply"], 0, "nothing moved");

    // The page itself (its Origin, JSON) plays and resigns; so does a bot with its header.
    let a = page
        .send_with_headers(
            "POST",
            &format!("/api/games/{id}/moves"),
            &browser(&host, &own, &cookie, "application/json"),
            Some(br#"{"move":"c3-d4","ply":0}"#.to_vec()),
        )
        .await
        .expect("request");
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["you"], "both");
    // A second move: before it, a resignation aborts the game, and an aborted game has no
    // rematch.
    let a = page
        .send_with_headers(
            "POST",
            &format!("/api/games/{id}/moves"),
            &browser(&host, &own, &cookie, "application/json"),
            Some(br#"{"move":"h6-g5","ply":1}"#.to_vec()),
        )
        .await
        .expect("request");
    assert_eq!(a.status, 200, "{}", a.text);
    let a = page
        .send_with_headers(
            "POST",
            &format!("/api/games/{id}/resign"),
            &[
                ("cookie", cookie.as_str()),
                ("sec-fetch-site", "same-origin"),
                ("content-type", "application/json"),
            ],
            Some(b"{}".to_vec()),
        )
        .await
        .expect("request");
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["status"], "finished");

    // Rematch of the finished game: refused from another origin, created by the bot.
    let a = page
        .send_with_headers(
            "POST",
            &format!("/api/games/{id}/rematch"),
            &browser(
                &host,
                "http://evil.example.test",
                &cookie,
                "application/json",
            ),
            Some(b"{}".to_vec()),
        )
        .await
        .expect("request");
    assert_eq!(a.status, 403, "{}", a.text);
    let view = me.get(&format!("/api/games/{id}")).await.expect("get");
    assert!(view.body["rematch"].is_null(), "no rematch was created");
    let a = me
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await
        .expect("rematch");
    assert_eq!(a.status, 201, "{}", a.text);
    // A bot's request without a content type is refused too (docs/api.md: send {}).
    let a = me
        .send("POST", &format!("/api/games/{id}/rematch"), None)
        .await
        .expect("request");
    assert_eq!(a.status, 415, "{}", a.text);
    srv.stop().await;
}

#[tokio::test]
async fn websocket_upgrade_checks_origin() {
    let srv = TestServer::start(&sqlite_url("csrf-ws")).await;
    let (mut me, token, id) = victim(&srv).await;
    let host = srv.addr.to_string();
    let cookie = format!("icebound_player={token}");
    let c = srv.client();
    // Another origin with the victim's cookie: refused before the upgrade.
    let refused = c
        .ws_with_headers(
            &id,
            &[("origin", "http://evil.example.test"), ("cookie", &cookie)],
        )
        .await;
    let Err(err) = refused else {
        panic!("a WebSocket from another origin was accepted")
    };
    let err = err.to_string();
    assert!(err.contains("403"), "{err}");
    // The cookie without any Origin (not a browser, not a bot either): refused.
    let Err(err) = c.ws_with_headers(&id, &[("cookie", &cookie)]).await else {
        panic!("a WebSocket with only the cookie and no Origin was accepted")
    };
    let err = err.to_string();
    assert!(err.contains("403"), "{err}");
    let view = me.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.body["ply"], 0);
    // The site's own page plays over its socket.
    let own = format!("http://{host}");
    let mut ws = c
        .ws_with_headers(&id, &[("origin", own.as_str()), ("cookie", &cookie)])
        .await
        .expect("same-origin socket");
    let first = wait_state(&mut ws, |_| true).await;
    assert_eq!(first["you"], "both");
    server::client::send_json(&mut ws, &json!({"type": "move", "move": "c3-d4", "ply": 0}))
        .await
        .expect("send");
    wait_state(&mut ws, |g| g["ply"] == 1).await;
    // A bot's socket (header, no Origin) and a watcher's (no token at all) are served.
    let mut bot = me.ws(&id).await.expect("bot socket");
    assert_eq!(wait_state(&mut bot, |_| true).await["you"], "both");
    let mut watcher = c.ws_with_headers(&id, &[]).await.expect("watcher socket");
    assert!(wait_state(&mut watcher, |_| true).await["you"].is_null());
    srv.stop().await;
}

#[tokio::test]
async fn planted_tokens_are_refused_and_replaced() {
    let srv = TestServer::start(&sqlite_url("csrf-toss")).await;
    let host = srv.addr.to_string();
    let own = format!("http://{host}");
    // A made-up token planted for the whole site (cookie tossing): not used, replaced.
    let made_up = "ATTACKERmadeUpToken0123456789abc";
    let planted = format!("icebound_player={made_up}");
    let mut victim = srv.client();
    let a = victim
        .send_with_headers(
            "POST",
            "/api/games",
            &browser(&host, &own, &planted, "application/json"),
            Some(br#"{"variant":"antarctos","opponent":"local"}"#.to_vec()),
        )
        .await
        .expect("create");
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.body["id"].as_str().expect("id").to_string();
    let set = a.headers["set-cookie"]
        .to_str()
        .expect("cookie")
        .to_string();
    let fresh = victim.token().expect("a new token was issued").to_string();
    assert_ne!(fresh, made_up);
    assert!(
        set.starts_with(&format!("icebound_player={fresh};")),
        "{set}"
    );
    assert!(srv.site.token_keys().issued(&fresh));
    // The game is the victim's new token's, and the planted one cannot even be presented.
    let mine = ApiClient::with_token(srv.addr, &fresh)
        .get(&format!("/api/games/{id}"))
        .await
        .expect("get");
    assert_eq!(mine.body["you"], "both");
    let attacker = ApiClient::with_token(srv.addr, made_up)
        .get(&format!("/api/games/{id}"))
        .await
        .expect("get");
    assert_eq!(attacker.status, 401, "{}", attacker.text);
    assert_eq!(attacker.body["error"]["code"], "bad_token");

    // A token the server issued to the attacker, planted beside the victim's own: refused, so
    // the victim's next game cannot go to the attacker.
    let attacker_token = srv.site.token_keys().issue().expose().to_string();
    let both = format!("icebound_player={attacker_token}; icebound_player={fresh}");
    let a = victim
        .send_with_headers(
            "POST",
            "/api/games",
            &browser(&host, &own, &both, "application/json"),
            Some(br#"{"variant":"antarctos","opponent":"local"}"#.to_vec()),
        )
        .await
        .expect("create");
    assert_eq!(a.status, 403, "{}", a.text);
    assert_eq!(a.body["error"]["code"], "cookie_conflict");
    let theirs = ApiClient::with_token(srv.addr, &attacker_token)
        .get("/api/my-games")
        .await
        .expect("my games");
    assert_eq!(theirs.body, json!([]), "the attacker got no game");
    srv.stop().await;
}

#[tokio::test]
async fn https_public_url_gives_a_host_only_secure_cookie() {
    let options = SiteOptions {
        public_url: Some(PublicUrl::parse("https://play.example.test").expect("url")),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("csrf-https"), options).await;
    let mut c = srv.client();
    let a = c.get("/api/my-games").await.expect("my games");
    let cookie = a.headers["set-cookie"]
        .to_str()
        .expect("cookie")
        .to_string();
    let token = c.token().expect("token").to_string();
    assert!(
        cookie.starts_with(&format!("__Host-icebound_player={token};")),
        "{cookie}"
    );
    for part in ["; Path=/", "; Secure", "; HttpOnly", "; SameSite=Lax"] {
        assert!(cookie.contains(part), "{part} in {cookie}");
    }
    assert!(!cookie.to_ascii_lowercase().contains("domain="), "{cookie}");
    assert_eq!(a.headers["strict-transport-security"], "max-age=31536000");
    // Over HTTPS the plain cookie is not read (another host of the domain could set it).
    let host = srv.addr.to_string();
    let mut page = srv.client();
    let plain = format!("icebound_player={token}");
    let a = page
        .send_with_headers(
            "POST",
            "/api/games",
            &browser(
                &host,
                "https://play.example.test",
                &plain,
                "application/json",
            ),
            Some(br#"{"variant":"antarctos","opponent":"local"}"#.to_vec()),
        )
        .await
        .expect("create");
    assert_eq!(a.status, 201, "{}", a.text);
    assert_ne!(
        page.token(),
        Some(token.as_str()),
        "a new token, not the plain cookie's"
    );
    // Only the public origin's pages count, whatever the Host header says.
    let host_cookie = format!("__Host-icebound_player={token}");
    let a = page
        .send_with_headers(
            "POST",
            "/api/games",
            &browser(
                &host,
                &format!("http://{host}"),
                &host_cookie,
                "application/json",
            ),
            Some(br#"{"variant":"antarctos","opponent":"local"}"#.to_vec()),
        )
        .await
        .expect("create");
    assert_eq!(a.status, 403, "{}", a.text);
    srv.stop().await;

    // Behind a trusted proxy, X-Forwarded-Proto: https does the same without a public URL.
    let options = SiteOptions {
        trust_proxy: true,
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("csrf-proxy"), options).await;
    let a = srv
        .client()
        .send_with_headers(
            "GET",
            "/api/my-games",
            &[("x-forwarded-proto", "https")],
            None,
        )
        .await
        .expect("my games");
    let cookie = a.headers["set-cookie"].to_str().expect("cookie");
    assert!(
        cookie.starts_with("__Host-icebound_player=") && cookie.contains("; Secure"),
        "{cookie}"
    );
    let a = srv.client().get("/api/my-games").await.expect("my games");
    let cookie = a.headers["set-cookie"].to_str().expect("cookie");
    assert!(
        cookie.starts_with("icebound_player=") && !cookie.contains("Secure"),
        "{cookie}"
    );
    srv.stop().await;
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let srv = TestServer::start(&sqlite_url("headers")).await;
    let mut c = srv.client();
    let g = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "friend"}),
    )
    .await;
    let invite = g["invite_url"].as_str().expect("invite").to_string();
    let id = g["id"].as_str().expect("id").to_string();
    let mut answers = Vec::new();
    for path in [
        "/",
        invite.as_str(),
        "/assets/icons/icon.svg",
        "/sw.js",
        "/assets/nothing.js",
        "/api/stats",
        "/api/games/nosuchgame",
        "/api/nothing",
    ] {
        answers.push((path.to_string(), c.get(path).await.expect("get")));
    }
    answers.push((
        "record".into(),
        c.get(&format!("/api/games/{id}/record"))
            .await
            .expect("record"),
    ));
    answers.push((
        "415".into(),
        c.send_with_headers(
            "POST",
            &format!("/api/games/{id}/resign"),
            &[("content-type", "text/plain")],
            Some(b"{}".to_vec()),
        )
        .await
        .expect("415"),
    ));
    for (path, a) in &answers {
        let csp = a.headers["content-security-policy"].to_str().expect("csp");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(a.headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(a.headers["referrer-policy"], "no-referrer", "{path}");
        if path.starts_with("/api/") || path == "record" || path == "415" {
            // Per-player answers (a creator's view carries the invitation) are never cached.
            let cc = a
                .headers
                .get("cache-control")
                .map(|v| v.to_str().unwrap_or(""));
            assert_eq!(cc, Some("private, no-store"), "{path}");
        }
        assert!(
            !a.headers.contains_key("strict-transport-security"),
            "{path}: no HSTS over plain HTTP"
        );
    }
    srv.stop().await;
}

//! Accounts (issue 13): register, log in and out, change the password; a browser's anonymous
//! games become its account's; a wrong name and a wrong password answer alike; log-ins are
//! rate-limited.

use crate::common::*;
use serde_json::{Value, json};
use server::SiteOptions;
use server::client::ApiClient;
use server::options::RateLimits;

async fn post(c: &mut ApiClient, path: &str, body: Value) -> server::client::Answer {
    c.post(path, body).await.expect("post")
}

async fn me(c: &mut ApiClient) -> Value {
    let a = c.get("/api/me").await.expect("me");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body["username"].clone()
}

async fn my_game_ids(c: &mut ApiClient) -> Vec<String> {
    let a = c.get("/api/my-games").await.expect("my games");
    assert_eq!(a.status, 200, "{}", a.text);
    a.body
        .as_array()
        .map(|g| {
            g.iter()
                .filter_map(|g| g["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

async fn accounts_flow(url: &str) {
    // Many log-ins from one address: the limit has its own test.
    let options = SiteOptions {
        rate_limits: RateLimits {
            login: None,
            ..RateLimits::default()
        },
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(url, options).await;
    // Names of this run's own (a PostgreSQL database outlives the run).
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() % 1_000_000_000)
        .unwrap_or(0);
    let name = format!("Ann_{n}");
    let mut browser = srv.client();
    assert_eq!(me(&mut browser).await, Value::Null, "anonymous at first");
    // An anonymous game, then registration: the game becomes the account's.
    let g = create(
        &mut browser,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let r = post(
        &mut browser,
        "/api/accounts",
        json!({"username": name, "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body, json!({"username": name}));
    assert!(browser.session().is_some(), "the session cookie is set");
    assert_eq!(me(&mut browser).await, name.as_str());
    assert_eq!(my_game_ids(&mut browser).await, vec![id.clone()]);
    // The account plays its seats.
    play(&mut browser, &id, "c3-d4").await;

    // Names are unique without regard to case; bad names and short passwords are 400.
    let mut other = srv.client();
    assert_error(
        &post(
            &mut other,
            "/api/accounts",
            json!({"username": name.to_lowercase(), "password": "12345678"}),
        )
        .await,
        409,
        "conflict",
    );
    for (name, pw) in [
        ("an", "12345678"),
        ("ann bob", "12345678"),
        ("bob", "1234567"),
    ] {
        assert_error(
            &post(
                &mut other,
                "/api/accounts",
                json!({"username": name, "password": pw}),
            )
            .await,
            400,
            "bad_request",
        );
    }
    // A logged-in browser cannot register another account over its own.
    assert_error(
        &post(
            &mut browser,
            "/api/accounts",
            json!({"username": format!("{name}x"), "password": "12345678"}),
        )
        .await,
        409,
        "conflict",
    );

    // Another browser logs in and is the same player: same games, same seats.
    let wrong_name = post(
        &mut other,
        "/api/session",
        json!({"username": "nobody", "password": "correct horse"}),
    )
    .await;
    let wrong_pw = post(
        &mut other,
        "/api/session",
        json!({"username": name, "password": "wrong horse"}),
    )
    .await;
    assert_error(&wrong_name, 401, "bad_credentials");
    assert_eq!(
        wrong_name.body, wrong_pw.body,
        "a wrong name and a wrong password answer alike"
    );
    assert_eq!(my_game_ids(&mut other).await, Vec::<String>::new());
    let r = post(
        &mut other,
        "/api/session",
        json!({"username": name.to_uppercase(), "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body, json!({"username": name}), "the name as registered");
    assert_eq!(my_game_ids(&mut other).await, vec![id.clone()]);
    play(&mut other, &id, "f6-e5").await;

    // A new password ends the other sessions, not this one.
    assert_error(
        &post(
            &mut other,
            "/api/me/password",
            json!({"old_password": "wrong horse", "new_password": "battery staple"}),
        )
        .await,
        401,
        "bad_credentials",
    );
    let r = post(
        &mut other,
        "/api/me/password",
        json!({"old_password": "correct horse", "new_password": "battery staple"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(me(&mut other).await, name.as_str());
    assert_eq!(
        me(&mut browser).await,
        Value::Null,
        "the first browser's session ended"
    );
    assert_error(
        &post(
            &mut browser,
            "/api/me/password",
            json!({"old_password": "x", "new_password": "yyyyyyyy"}),
        )
        .await,
        401,
        "not_logged_in",
    );
    assert_error(
        &post(
            &mut other,
            "/api/session",
            json!({"username": name, "password": "correct horse"}),
        )
        .await,
        401,
        "bad_credentials",
    );

    // Log-out: anonymous again, the account's games are not this browser's any more.
    let out = other
        .send("DELETE", "/api/session", Some(&json!({})))
        .await
        .expect("delete");
    assert_eq!(out.status, 200, "{}", out.text);
    assert!(other.session().is_none(), "the cookie is removed");
    assert_eq!(me(&mut other).await, Value::Null);
    assert_eq!(my_game_ids(&mut other).await, Vec::<String>::new());
    let back = post(
        &mut other,
        "/api/session",
        json!({"username": name.to_lowercase(), "password": "battery staple"}),
    )
    .await;
    assert_eq!(back.status, 200, "{}", back.text);
    assert_eq!(my_game_ids(&mut other).await, vec![id]);
    srv.stop().await;
}

both_databases! {
    async fn register_log_in_log_out_and_change_the_password(url: &str) {
        accounts_flow(url).await;
    }
}

#[tokio::test]
async fn log_ins_are_rate_limited() {
    let srv = TestServer::start(&sqlite_url("accounts_rate")).await;
    let mut c = srv.client();
    let mut limited = None;
    for i in 0..8 {
        let a = post(
            &mut c,
            "/api/session",
            json!({"username": "nobody", "password": "12345678"}),
        )
        .await;
        if a.status == 429 {
            limited = Some(i);
            break;
        }
        assert_error(&a, 401, "bad_credentials");
    }
    assert_eq!(limited, Some(5), "five at once, then 429");
    srv.stop().await;
}

#[tokio::test]
async fn an_ended_log_in_ends_its_sockets_and_a_planted_session_cookie_is_refused() {
    let options = SiteOptions {
        rate_limits: RateLimits {
            login: None,
            ..RateLimits::default()
        },
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("accounts_ws"), options).await;
    let mut c = srv.client();
    let r = post(
        &mut c,
        "/api/accounts",
        json!({"username": "wsuser", "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let session = c.session().expect("session").to_string();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    // A socket opened by the logged-in browser (its cookie, a page's Origin).
    let origin = format!("http://{}", srv.addr);
    let cookie = format!("icebound_session={session}");
    let mut ws = c
        .ws_with_headers(&id, &[("cookie", &cookie), ("origin", &origin)])
        .await
        .expect("ws");
    let first = wait_state(&mut ws, |_| true).await;
    assert_eq!(first["you"], "both", "{first}");
    server::client::send_json(&mut ws, &json!({"type": "move", "move": "c3-d4", "ply": 0}))
        .await
        .expect("send");
    wait_state(&mut ws, |g| g["ply"] == 1).await;
    // Log-out elsewhere (the same session): the socket is closed at once with 1008 (round 3:
    // it no longer waits for its next message), and a move sent meanwhile is not played.
    let out = c
        .send("DELETE", "/api/session", Some(&json!({})))
        .await
        .expect("delete");
    assert_eq!(out.status, 200, "{}", out.text);
    let _ = server::client::send_json(&mut ws, &json!({"type": "move", "move": "f6-e5", "ply": 1}))
        .await;
    let close = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::Message;
        while let Some(msg) = ws.next().await {
            match msg {
                Ok(Message::Close(Some(f))) => return (u16::from(f.code), f.reason.to_string()),
                Ok(Message::Text(t)) => assert!(!t.contains("\"ply\":2"), "{t}"),
                Ok(_) => {}
                Err(e) => panic!("no close frame: {e}"),
            }
        }
        panic!("no close frame");
    })
    .await
    .expect("a close frame within 5 s");
    assert_eq!(close.0, 1008, "{close:?}");
    let game = c.get(&format!("/api/games/{id}")).await.expect("get").body;
    assert_eq!(game["ply"], 1, "no move after the log-out");

    // Two different session cookies (one planted by a sibling host): refused, never the first.
    let back = post(
        &mut c,
        "/api/session",
        json!({"username": "wsuser", "password": "correct horse"}),
    )
    .await;
    assert_eq!(back.status, 200, "{}", back.text);
    let mine = c.session().expect("session").to_string();
    let planted = format!(
        "icebound_session={}; icebound_session={mine}",
        "A".repeat(43)
    );
    let a = c
        .send_with_headers("GET", "/api/me", &[("cookie", &planted)], None)
        .await
        .expect("get");
    assert_error(&a, 403, "cookie_conflict");
    srv.stop().await;
}

#[tokio::test]
async fn password_changes_count_against_the_log_in_limit() {
    let srv = TestServer::start(&sqlite_url("accounts_pw_rate")).await;
    let mut c = srv.client();
    let r = post(
        &mut c,
        "/api/accounts",
        json!({"username": "pwuser", "password": "correct horse"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let a = post(
            &mut c,
            "/api/me/password",
            json!({"old_password": "guess guess", "new_password": "whatever1"}),
        )
        .await;
        statuses.push(a.status);
    }
    assert!(
        statuses.contains(&429),
        "guessing the old password is limited: {statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 401 || *s == 429),
        "{statuses:?}"
    );
    srv.stop().await;
}

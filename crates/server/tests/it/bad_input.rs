//! Bad input over HTTP and WebSocket: clear JSON errors with their codes, no panic, and the game
//! unchanged afterwards.

use std::time::Duration;

use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use server::client::send_json;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let srv = TestServer::start(&sqlite_url("bad")).await;
    let mut c = srv.client();
    let cases: Vec<(Option<Vec<u8>>, u16, &str)> = vec![
        (Some(b"{not json".to_vec()), 400, "bad_request"),
        (Some(b"[]".to_vec()), 400, "bad_request"),
        (
            Some(br#"{"variant":"antarctos"}"#.to_vec()),
            400,
            "bad_request",
        ),
        (
            Some(br#"{"variant":"go","opponent":"local"}"#.to_vec()),
            400,
            "bad_request",
        ),
        (
            Some(br#"{"variant":"antarctos","opponent":"cat"}"#.to_vec()),
            400,
            "bad_request",
        ),
        (
            Some(br#"{"variant":"antarctos","opponent":"engine"}"#.to_vec()),
            400,
            "bad_request",
        ),
        (
            Some(br#"{"variant":"antarctos","opponent":"engine","level":9}"#.to_vec()),
            400,
            "bad_request",
        ),
        (
            Some(br#"{"variant":"antarctos","opponent":"friend","level":2}"#.to_vec()),
            400,
            "bad_request",
        ),
        (
            Some(br#"{"variant":"antarctos","opponent":"local","color":"green"}"#.to_vec()),
            400,
            "bad_request",
        ),
        (
            Some(br#"{"variant":"antarctos","opponent":"local","extra":1}"#.to_vec()),
            400,
            "bad_request",
        ),
        // A18: a man on a light square.
        (
            Some(br#"{"variant":"antarctos","opponent":"local","fen":"W:Wa2:Bc7"}"#.to_vec()),
            400,
            "bad_request",
        ),
        // A18: `W:W:B` is already over (total freeze).
        (
            Some(br#"{"variant":"antarctos","opponent":"local","fen":"W:W:Bc7"}"#.to_vec()),
            400,
            "bad_request",
        ),
    ];
    for (body, status, code) in cases {
        let shown = String::from_utf8_lossy(body.as_deref().unwrap_or_default()).into_owned();
        let a = c
            .send_raw("POST", "/api/games", body)
            .await
            .expect("request");
        assert_eq!(a.status, status, "{shown}: {}", a.text);
        assert_eq!(a.body["error"]["code"], code, "{shown}: {}", a.text);
    }
    let long_fen = format!("W:W{}:Bc7", "a1,".repeat(200));
    let a = c
        .post(
            "/api/games",
            json!({"variant": "antarctos", "opponent": "local", "fen": long_fen}),
        )
        .await
        .expect("request");
    assert_error(&a, 413, "too_large");
    let huge = vec![b' '; 100_000];
    let a = c
        .send_raw("POST", "/api/games", Some(huge))
        .await
        .expect("request");
    assert_error(&a, 413, "too_large");
    let a = c.get("/api/games/nosuchgame").await.expect("request");
    assert_error(&a, 404, "not_found");
    let a = c.get("/api/games/..%2F..%2Fetc").await.expect("request");
    assert_error(&a, 404, "not_found");
    let a = c.get("/api/nothing/here").await.expect("request");
    assert_error(&a, 404, "not_found");
    // The message names the path as sent, `/api` prefix included.
    assert_eq!(
        a.body["error"]["message"], "no API endpoint /api/nothing/here",
        "{}",
        a.text
    );
    let a = c.send("DELETE", "/api/games", None).await.expect("request");
    assert_eq!(a.status, 405);
    assert_eq!(a.body["error"]["code"], "bad_request", "{}", a.text);
    assert_eq!(
        a.body["error"]["message"], "DELETE is not allowed on /api/games",
        "{}",
        a.text
    );
    let a = c.get("/api/games/nosuchgame/ws").await.expect("request");
    assert!(a.status == 400 || a.status == 404, "{}", a.text);
    // Pages: any non-API path is the single page.
    let p = c.get("/game/abc").await.expect("page");
    assert_eq!(p.status, 200);
    assert!(p.text.to_ascii_lowercase().contains("<!doctype html"));
    srv.stop().await;
}

#[tokio::test]
async fn bad_moves_leave_the_game_unchanged() {
    let srv = TestServer::start(&sqlite_url("badmoves")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/moves");
    let a = c
        .post(&path, json!({"move": "c3-e5", "ply": 0}))
        .await
        .expect("move");
    assert_error(&a, 422, "illegal_move");
    assert!(
        a.body["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("c3-e5")
    );
    // The fault as data, for pages in other languages (docs/api.md, "Errors").
    assert_eq!(
        a.body["error"]["move"],
        json!({"text": "c3-e5", "kind": "no_match", "candidates": [],
               "reason": {"code": "nothing_to_jump", "squares": ["d4"]}})
    );
    let a = c
        .post(&path, json!({"move": "zz9", "ply": 0}))
        .await
        .expect("move");
    assert_error(&a, 422, "illegal_move");
    assert_eq!(a.body["error"]["move"]["kind"], "unreadable");
    let a = c
        .post(&path, json!({"move": "", "ply": 0}))
        .await
        .expect("move");
    assert_error(&a, 400, "bad_request");
    let a = c
        .post(&path, json!({"move": "x".repeat(500), "ply": 0}))
        .await
        .expect("move");
    assert_error(&a, 413, "too_large");
    let a = c.post(&path, json!({"move": 42})).await.expect("move");
    assert_error(&a, 400, "bad_request");
    // Issue 9: `ply` is required, so that a resent move is never played twice.
    let a = c.post(&path, json!({"move": "c3-d4"})).await.expect("move");
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("ply"), "{}", a.text);
    let a = c
        .post(&path, json!({"move": "c3-d4", "ply": 5}))
        .await
        .expect("move");
    assert_error(&a, 409, "conflict");
    let a = c
        .post(&path, json!({"move": "c3-d4", "ply": -1}))
        .await
        .expect("move");
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("ply"), "{}", a.text);
    // Idempotent retry: the same move for the same ply is answered with the game.
    let ok = c
        .post(&path, json!({"move": "c3-d4", "ply": 0}))
        .await
        .expect("move");
    assert_eq!(ok.status, 200);
    let retry = c
        .post(&path, json!({"move": "c3-d4", "ply": 0}))
        .await
        .expect("move");
    assert_eq!(retry.status, 200, "{}", retry.text);
    assert_eq!(retry.body["ply"], 1);
    let other = c
        .post(&path, json!({"move": "e3-f4", "ply": 0}))
        .await
        .expect("move");
    assert_error(&other, 409, "conflict");
    let view = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.body["ply"], 1);
    assert_eq!(view.body["moves"].as_array().map(Vec::len), Some(1));

    // A17: start and end of a jump that two sequences share is ambiguous (a loop around four
    // ice cubes, either way round).
    let g = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "local", "fen": "W:Wc1:Bh8:Ib2,b4,d2,d4"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let a = c
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "c1xc1", "ply": 0}),
        )
        .await
        .expect("move");
    assert_error(&a, 422, "ambiguous_move");
    assert_eq!(a.body["error"]["move"]["kind"], "ambiguous");
    let mut named: Vec<&str> = a.body["error"]["move"]["candidates"]
        .as_array()
        .map(|c| c.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    named.sort_unstable();
    assert_eq!(named, ["c1xa3xc5xe3xc1", "c1xe3xc5xa3xc1"], "{}", a.text);
    srv.stop().await;
}

#[tokio::test]
async fn bad_websocket_messages_get_errors_and_huge_ones_close() {
    let srv = TestServer::start(&sqlite_url("badws")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = c.ws(&id).await.expect("ws");
    wait_state(&mut ws, |_| true).await;
    ws.send(Message::Text("{oops".into())).await.expect("send");
    assert_eq!(wait_error(&mut ws).await["code"], "bad_request");
    send_json(&mut ws, &json!({"type": "fly"}))
        .await
        .expect("send");
    assert_eq!(wait_error(&mut ws).await["code"], "bad_request");
    send_json(&mut ws, &json!({"type": "move", "move": "c3-e5", "ply": 0}))
        .await
        .expect("send");
    assert_eq!(wait_error(&mut ws).await["code"], "illegal_move");
    send_json(&mut ws, &json!({"type": "move", "move": "c3-d4"}))
        .await
        .expect("send");
    let missing = wait_error(&mut ws).await;
    assert_eq!(missing["code"], "bad_request");
    assert!(
        missing["message"]
            .as_str()
            .is_some_and(|m| m.contains("ply"))
    );
    send_json(
        &mut ws,
        &json!({"type": "move", "move": "c3-d4", "ply": -3}),
    )
    .await
    .expect("send");
    assert_eq!(wait_error(&mut ws).await["code"], "bad_request");
    send_json(&mut ws, &json!({"type": "draw", "action": "offer"}))
        .await
        .expect("send");
    assert_eq!(wait_error(&mut ws).await["code"], "bad_request");
    ws.send(Message::Binary(vec![1u8, 2, 3].into()))
        .await
        .expect("send");
    assert_eq!(wait_error(&mut ws).await["code"], "bad_request");
    // A field no message has is refused by name, also on a message with no fields (which
    // would otherwise resign with a typo'd field).
    for (msg, field) in [
        (json!({"type": "resign", "confirm": false}), "confirm"),
        (json!({"type": "ping", "n": 1}), "`n`"),
        (
            json!({"type": "move", "move": "c3-d4", "ply": 0, "pley": 0}),
            "pley",
        ),
    ] {
        send_json(&mut ws, &msg).await.expect("send");
        let e = wait_error(&mut ws).await;
        assert_eq!(e["code"], "bad_request", "{msg}");
        assert!(
            e["message"].as_str().is_some_and(|m| m.contains(field)),
            "{msg}: {e}"
        );
    }
    send_json(&mut ws, &json!({"type": "ping"}))
        .await
        .expect("send");
    let pong = tokio::time::timeout(Duration::from_secs(5), server::client::next_json(&mut ws))
        .await
        .expect("pong in time");
    assert_eq!(pong.expect("open")["type"], "pong");
    // A move over the socket is stored and broadcast.
    send_json(&mut ws, &json!({"type": "move", "move": "c3-d4", "ply": 0}))
        .await
        .expect("send");
    let s = wait_state(&mut ws, |g| g["ply"] == 1).await;
    assert_eq!(s["moves"][0]["text"], "c3-d4");

    // A watcher's socket cannot move.
    let mut eve = srv.client();
    eve.get("/api/stats").await.expect("token");
    let mut ews = eve.ws(&id).await.expect("ws");
    wait_state(&mut ews, |_| true).await;
    send_json(
        &mut ews,
        &json!({"type": "move", "move": "f6-e5", "ply": 1}),
    )
    .await
    .expect("send");
    assert_eq!(wait_error(&mut ews).await["code"], "not_a_player");
    send_json(&mut ews, &json!({"type": "resign"}))
        .await
        .expect("send");
    assert_eq!(wait_error(&mut ews).await["code"], "not_a_player");

    // Over 4 KiB: the server closes the connection with 1009 (message too big).
    let big = format!("{{\"type\":\"move\",\"move\":\"{}\"}}", "a".repeat(10_000));
    let _ = ews.send(Message::Text(big.into())).await;
    let close = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ews.next().await {
                Some(Ok(Message::Close(frame))) => return frame,
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await
    .expect("closed in time")
    .expect("a close frame");
    assert_eq!(u16::from(close.code), 1009, "{close:?}");
    assert!(close.reason.contains("4096"), "{close:?}");
    // Far over the limit (beyond what the transport reads): the same 1009 close frame, not a
    // dropped connection, and the game unharmed.
    let mut ws2 = c.ws(&id).await.expect("ws");
    wait_state(&mut ws2, |_| true).await;
    let _ = ws2.send(Message::Text("x".repeat(200_000).into())).await;
    let close = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws2.next().await {
                Some(Ok(Message::Close(frame))) => return frame,
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await
    .expect("closed in time")
    .expect("a close frame for 200,000 bytes");
    assert_eq!(u16::from(close.code), 1009, "{close:?}");
    // The game is unharmed and still served.
    let view = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.body["ply"], 1);
    srv.stop().await;
}

/// A message is a JSON object: serde reads an internally tagged enum from an array too (its tag
/// first, then the fields by position), so `["resign"]` resigned and `["move", "c3-d4", 0]`
/// moved, with no field names to check. Such a message is refused and the game unchanged.
#[tokio::test]
async fn a_websocket_message_that_is_an_array_is_refused() {
    let srv = TestServer::start(&sqlite_url("badwsarray")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = c.ws(&id).await.expect("ws");
    wait_state(&mut ws, |_| true).await;
    for text in [r#"["move", "c3-d4", 0]"#, r#"["resign"]"#, r#" ["abort"]"#] {
        ws.send(Message::Text(text.into())).await.expect("send");
        let e = wait_error(&mut ws).await;
        assert_eq!(e["code"], "bad_request", "{text}: {e}");
    }
    let view = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.body["status"], "ongoing", "{}", view.text);
    assert_eq!(view.body["ply"], 0, "{}", view.text);
    srv.stop().await;
}

/// A rematch's body may be empty, so it is read as bytes; its errors are still the API's: an
/// array is refused (serde would read it by position), an oversized body is a JSON 413.
#[tokio::test]
async fn a_rematch_body_gets_the_errors_of_the_other_bodies() {
    let srv = TestServer::start(&sqlite_url("badrematch")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/rematch");
    for body in [&b"[\"accept\"]"[..], b"  []", b"{not json"] {
        let a = c
            .send_raw("POST", &path, Some(body.to_vec()))
            .await
            .expect("request");
        assert_error(&a, 400, "bad_request");
    }
    let huge = format!("{{\"action\":\"{}\"}}", "a".repeat(100_000));
    let a = c
        .send_raw("POST", &path, Some(huge.into_bytes()))
        .await
        .expect("request");
    assert_error(&a, 413, "too_large");
    // An empty body is an offer: refused here only because the game is not over.
    let a = c
        .send_raw("POST", &path, Some(Vec::new()))
        .await
        .expect("request");
    assert_error(&a, 409, "game_over");
    let view = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.body["status"], "ongoing", "{}", view.text);
    assert!(view.body["rematch"].is_null(), "{}", view.text);
    srv.stop().await;
}

#[tokio::test]
async fn many_connections_at_once_are_served() {
    // 300 clients of one game, all from one address: the per-address caps are not what this
    // tests (tests/limits.rs does).
    let options = server::SiteOptions {
        rate_limits: server::options::RateLimits::off(),
        connections: server::options::ConnectionLimits {
            per_address: None,
            ..Default::default()
        },
        ..Default::default()
    };
    let srv = TestServer::start_with(&sqlite_url("many"), options).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut sockets = Vec::new();
    for _ in 0..200 {
        sockets.push(srv.client().ws(&id).await.expect("ws"));
    }
    let mut gets = Vec::new();
    for _ in 0..100 {
        let mut w = srv.client();
        let path = format!("/api/games/{id}");
        gets.push(tokio::spawn(
            async move { w.get(&path).await.map(|a| a.status) },
        ));
    }
    for h in gets {
        assert_eq!(h.await.expect("task").expect("request"), 200);
    }
    play(&mut c, &id, "c3-d4").await;
    for ws in &mut sockets {
        wait_state(ws, |g| g["ply"] == 1).await;
    }
    srv.stop().await;
}

/// A client's text frame (opcode 1, final, masked as RFC 6455 section 5.3 requires) carrying
/// `payload` as is, valid UTF-8 or not.
fn raw_text_frame(payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126, "short frames only");
    let mask = [0x37u8, 0xfa, 0x21, 0x3d];
    let mut frame = vec![0x81, 0x80 | payload.len() as u8];
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf8_is_closed_with_1007() {
    use tokio::io::AsyncWriteExt;
    let srv = TestServer::start(&sqlite_url("badutf8")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = c.ws(&id).await.expect("ws");
    wait_state(&mut ws, |_| true).await;
    // tungstenite sends only valid text: the frame is written on the TCP stream by hand.
    let frame = raw_text_frame(b"{\"type\":\"ping\xff\xfe\"}");
    match ws.get_mut() {
        tokio_tungstenite::MaybeTlsStream::Plain(tcp) => {
            tcp.write_all(&frame).await.expect("write the frame")
        }
        _ => panic!("a plain TCP stream"),
    }
    let close = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame,
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await
    .expect("closed in time")
    .expect("a close frame, not a dropped connection");
    assert_eq!(u16::from(close.code), 1007, "{close:?}");
    assert!(close.reason.contains("UTF-8"), "{close:?}");
    // The game is unharmed and still served.
    let view = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.body["ply"], 0);
    srv.stop().await;
}

/// A path whose id is no text (bad percent-encoding) names nothing: 404 `not_found` in the
/// API's JSON, as an unknown id. A hostile tester's `GET /api/games/%ff%fe` got axum's
/// plain-text 400 "Invalid URL: Invalid UTF-8 in `id`" (every error is JSON, docs/api.md);
/// `/api/players/%ff` already answered JSON.
#[tokio::test]
async fn a_path_id_that_is_not_text_is_a_json_not_found() {
    let srv = TestServer::start(&sqlite_url("bad-path")).await;
    let mut c = srv.client();
    let gets = [
        "/api/games/%ff%fe",
        "/api/games/%ff/record",
        "/api/games/%c3%28/review",
        "/api/games/%ff/ws",
    ];
    for path in gets {
        let a = c.get(path).await.expect("request");
        assert_error(&a, 404, "not_found");
    }
    let posts = [
        ("/api/games/%ff/moves", json!({"move": "c3-d4", "ply": 0})),
        ("/api/games/%ff/resign", json!({})),
        ("/api/join/%ff", json!({})),
        ("/api/seeks/%ff/accept", json!({})),
        ("/api/challenges/%ff/decline", json!({})),
    ];
    for (path, body) in posts {
        let a = c.post(path, body).await.expect("request");
        assert_error(&a, 404, "not_found");
    }
    srv.stop().await;
}

/// A request body is a JSON object: an array (which serde would read into a struct by
/// position) is refused on every route, before anything is stored or played.
#[tokio::test]
async fn positional_json_arrays_are_refused_on_every_body() {
    let srv = TestServer::start(&sqlite_url("positional")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let cases = [
        (
            "/api/games/upload".to_string(),
            json!(["antarctos", ["c3-d4"], 5, "white", "0-1"]),
        ),
        ("/api/games".to_string(), json!(["antarctos", "local"])),
        (format!("/api/games/{id}/moves"), json!(["c3-d4", 0])),
        (
            "/api/accounts".to_string(),
            json!(["somebody", "password1"]),
        ),
        ("/api/positions".to_string(), json!(["antarctos"])),
        ("/api/games/upload".to_string(), json!("antarctos")),
        ("/api/games".to_string(), json!(null)),
    ];
    for (path, body) in cases {
        let a = c.post(&path, body.clone()).await.expect("request");
        assert_error(&a, 400, "bad_request");
        assert!(
            a.body["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("a JSON object"),
            "{path} {body}: {}",
            a.text
        );
    }
    // Nothing was played, created or uploaded.
    let view = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.body["ply"], 0, "{}", view.text);
    let mine = c.get("/api/my-games").await.expect("my games");
    assert_eq!(mine.status, 200);
    assert_eq!(mine.body.as_array().map(Vec::len), Some(1), "{}", mine.text);
    // An object after white space is still an object; its errors keep their wording.
    let a = c
        .send_raw(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(b" \n\t{\"move\": \"c3-d4\", \"ply\": 0}".to_vec()),
        )
        .await
        .expect("move");
    assert_eq!(a.status, 200, "{}", a.text);
    let a = c
        .send_raw(
            "POST",
            "/api/games",
            Some(br#"{"variant": 7, "opponent": "local"}"#.to_vec()),
        )
        .await
        .expect("create");
    assert_error(&a, 400, "bad_request");
    assert!(a.text.contains("variant"), "{}", a.text);
    srv.stop().await;
}

//! Slow and idle clients (issue 9, section 4), in-process with short limits set for each test:
//! header, body and keep-alive timeouts; WebSocket ping/pong with a dead-peer timeout; caps on
//! connections per client address and overall (503, or the oldest idle connection closed);
//! per-client rate limits on game creation, joins and game-id lookups (429). Another client is
//! another loopback address (127.0.0.2). The descriptor limit is tested on the real binary:
//! crates/cli/tests/serve_limits.rs.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use crate::common::*;
use futures_util::StreamExt;
use serde_json::json;
use server::SiteOptions;
use server::client::ApiClient;
use server::options::{ConnectionLimits, Rate, RateLimits, Timeouts};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

fn other_address() -> IpAddr {
    "127.0.0.2".parse().expect("ip")
}

fn short_timeouts() -> Timeouts {
    Timeouts {
        header: Duration::from_millis(400),
        body: Duration::from_millis(400),
        keep_alive: Duration::from_millis(800),
        ws_ping: Duration::from_millis(200),
        ws_dead: Duration::from_millis(700),
    }
}

/// Reads until the server closes the connection (or `limit` passes): what arrived, and when
/// the close came.
async fn until_closed(s: &mut TcpStream, limit: Duration) -> (Vec<u8>, Option<Duration>) {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let left = limit.saturating_sub(start.elapsed());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (got, Some(start.elapsed())),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => return (got, None),
        }
    }
}

#[tokio::test]
async fn silent_slow_and_idle_clients_are_closed() {
    let options = SiteOptions {
        timeouts: short_timeouts(),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("timeouts"), options).await;
    // A socket that never speaks.
    let mut silent = TcpStream::connect(srv.addr).await.expect("connect");
    let (_, closed) = until_closed(&mut silent, Duration::from_secs(10)).await;
    assert!(closed.is_some(), "a silent socket is closed");
    // A request line and then a header every 100 ms, never finished (slowloris): closed
    // although bytes keep coming.
    let mut slow = TcpStream::connect(srv.addr).await.expect("connect");
    slow.write_all(b"GET /api/stats HTTP/1.1\r\n")
        .await
        .expect("write");
    let start = Instant::now();
    let mut cut = false;
    for i in 0..100 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if slow
            .write_all(format!("x-slow-{i}: 1\r\n").as_bytes())
            .await
            .is_err()
        {
            cut = true;
            break;
        }
        let mut b = [0u8; 1];
        if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_millis(1), slow.read(&mut b)).await {
            cut = true;
            break;
        }
    }
    assert!(cut, "a head sent a header at a time is cut off");
    assert!(
        start.elapsed() < Duration::from_secs(9),
        "{:?}",
        start.elapsed()
    );
    // A body that stops short: 408 with a JSON error.
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id");
    let token = c.token().expect("token");
    let mut half = TcpStream::connect(srv.addr).await.expect("connect");
    let head = format!(
        "POST /api/games/{id}/moves HTTP/1.1\r\nhost: x\r\nx-icebound-player: {token}\r\n\
         content-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"move\":"
    );
    half.write_all(head.as_bytes()).await.expect("write");
    let (answer, _) = until_closed(&mut half, Duration::from_secs(10)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""code":"timeout""#), "{answer}");
    // A kept-alive connection: served, then closed once idle past the keep-alive time.
    let mut kept = TcpStream::connect(srv.addr).await.expect("connect");
    kept.write_all(b"GET /api/stats HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .expect("write");
    let (answer, closed) = until_closed(&mut kept, Duration::from_secs(10)).await;
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    assert!(closed.is_some(), "an idle kept-alive connection is closed");
    // Meanwhile the server serves everyone else.
    assert_eq!(
        c.get(&format!("/api/games/{id}"))
            .await
            .expect("get")
            .status,
        200
    );
    srv.stop().await;
}

#[tokio::test]
async fn a_dead_websocket_peer_is_closed_a_live_one_stays() {
    let options = SiteOptions {
        timeouts: short_timeouts(),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("wsdead"), options).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut dead = srv.client().ws(&id).await.expect("ws");
    let mut live = srv.client().ws(&id).await.expect("ws");
    wait_state(&mut dead, |_| true).await;
    wait_state(&mut live, |_| true).await;
    // The live client reads (its library answers pings); the dead one does not read at all.
    let reader = tokio::spawn(async move {
        let mut pings = 0;
        let deadline = Instant::now() + Duration::from_millis(2500);
        while Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_millis(100), live.next()).await {
                Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
                Ok(Some(Ok(_))) | Err(_) => {}
                Ok(None) | Ok(Some(Err(_))) => return (pings, None),
            }
        }
        (pings, Some(live))
    });
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let mut saw_ping = false;
    let mut close = None;
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(5), dead.next()).await {
        match msg {
            Ok(Message::Ping(_)) => saw_ping = true,
            Ok(Message::Close(frame)) => {
                close = frame;
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    assert!(saw_ping, "the server pinged the silent peer");
    let close = close.expect("a close frame");
    assert_eq!(u16::from(close.code), 1001, "{close:?}");
    let (pings, live) = reader.await.expect("reader");
    assert!(pings >= 2, "the live client was pinged ({pings})");
    let mut live = live.expect("the live client's socket is still open");
    play(&mut c, &id, "c3-d4").await;
    wait_state(&mut live, |g| g["ply"] == 1).await;
    srv.stop().await;
}

#[tokio::test]
async fn connection_caps_answer_503_or_close_the_oldest_idle() {
    let options = SiteOptions {
        connections: ConnectionLimits {
            total: Some(5),
            per_address: Some(3),
            ..ConnectionLimits::default()
        },
        rate_limits: RateLimits::off(),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("caps"), options).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    // (The client closed its connection; let the server see it go.)
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Three live sockets from one address: its fourth connection is refused with a 503 (a
    // WebSocket is never shed).
    let mut sockets = Vec::new();
    for _ in 0..3 {
        sockets.push(c.ws(&id).await.expect("ws"));
    }
    let refused = c.get("/api/stats").await.expect("answered");
    assert_eq!(refused.status, 503, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "too_many");
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("your address has 3 connections"),
        "{}",
        refused.text
    );
    // Another address is served, up to the overall cap of 5.
    let other = ApiClient::new(srv.addr).from_local(other_address());
    let mut other_socket = other.ws(&id).await.expect("ws from 127.0.0.2");
    wait_state(&mut other_socket, |_| true).await;
    let mut other_http = ApiClient::new(srv.addr).from_local(other_address());
    assert_eq!(other_http.get("/api/stats").await.expect("get").status, 200);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut busy = Vec::new();
    busy.push(other.ws(&id).await.expect("fifth"));
    let a = ApiClient::new(srv.addr)
        .from_local("127.0.0.3".parse().expect("ip"))
        .get("/api/stats")
        .await
        .expect("answered");
    assert_eq!(a.status, 503, "{}", a.text);
    assert!(
        a.text.contains("maximum of 5 open connections"),
        "{}",
        a.text
    );
    drop(busy);
    drop(sockets);
    srv.stop().await;
}

#[tokio::test]
async fn idle_connections_give_way_to_new_ones_at_a_cap() {
    let options = SiteOptions {
        connections: ConnectionLimits {
            total: None,
            per_address: Some(3),
            ..ConnectionLimits::default()
        },
        rate_limits: RateLimits::off(),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("shed"), options).await;
    // Three silent sockets fill the address's cap ...
    let mut silent = Vec::new();
    for _ in 0..3 {
        silent.push(TcpStream::connect(srv.addr).await.expect("connect"));
    }
    tokio::time::sleep(Duration::from_millis(700)).await;
    // ... and a real request from that address is still served: the oldest idle socket goes.
    let mut c = srv.client();
    let a = c.get("/api/stats").await.expect("get");
    assert_eq!(a.status, 200, "{}", a.text);
    let (_, closed) = until_closed(&mut silent[0], Duration::from_secs(5)).await;
    assert!(closed.is_some(), "the oldest silent socket was closed");
    srv.stop().await;
}

#[tokio::test]
async fn rate_limits_per_client_answer_429() {
    let hour = Duration::from_secs(3600);
    let options = SiteOptions {
        rate_limits: RateLimits {
            create: Some(Rate {
                burst: 3,
                period: hour,
            }),
            join: Some(Rate {
                burst: 2,
                period: hour,
            }),
            lookup: Some(Rate {
                burst: 5,
                period: hour,
            }),
            analysis: Some(Rate {
                burst: 2,
                period: hour,
            }),
            login: None,
            records_bytes: None,
        },
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("rates"), options).await;
    let mut me = srv.client();
    let new_game = json!({"variant": "antarctos", "opponent": "friend"});
    let mut invites = Vec::new();
    for _ in 0..3 {
        let g = create(&mut me, new_game.clone()).await;
        invites.push(
            g["invite_url"]
                .as_str()
                .expect("invite")
                .replace("/join/", ""),
        );
    }
    let a = me.post("/api/games", new_game.clone()).await.expect("post");
    assert_eq!(a.status, 429, "{}", a.text);
    assert_eq!(a.body["error"]["code"], "rate_limited");
    // A whole second at least (governor rounds down: "0" sent a bot straight back).
    let retry: u64 = a
        .headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    assert!(retry >= 1, "{:?}", a.headers);
    // The limit is per client: another address creates its games.
    let mut other = ApiClient::new(srv.addr).from_local(other_address());
    let g = create(&mut other, new_game.clone()).await;
    let id = g["id"].as_str().expect("id").to_string();
    // Joins: two, then 429 (a wrong invitation counts too).
    let mut friend = ApiClient::new(srv.addr).from_local("127.0.0.3".parse().expect("ip"));
    let j = friend
        .post(&format!("/api/join/{}", invites[0]), json!({}))
        .await
        .expect("join");
    assert_eq!(j.status, 200, "{}", j.text);
    let j = friend
        .post("/api/join/0123456789abcdef", json!({}))
        .await
        .expect("join");
    assert_eq!(j.status, 404, "{}", j.text);
    let j = friend
        .post(&format!("/api/join/{}", invites[1]), json!({}))
        .await
        .expect("join");
    assert_eq!(j.status, 429, "{}", j.text);
    // Lookups of game ids: five, then 429, for ids that exist or not.
    let mut guesser = ApiClient::new(srv.addr).from_local("127.0.0.4".parse().expect("ip"));
    for i in 0..5 {
        let a = guesser
            .get(&format!("/api/games/guess{i:03}"))
            .await
            .expect("get");
        assert_eq!(a.status, 404, "{}", a.text);
    }
    let a = guesser.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(a.status, 429, "{}", a.text);
    let ws = guesser.ws(&id).await;
    let Err(err) = ws else {
        panic!("a WebSocket over the limit was accepted")
    };
    assert!(err.to_string().contains("429"), "{err}");
    // The game's own players, from their addresses, are unaffected.
    assert_eq!(
        other
            .get(&format!("/api/games/{id}"))
            .await
            .expect("get")
            .status,
        200
    );
    // Analyses: two, then 429 (the engine's time is the scarce thing).
    let mut analyst = ApiClient::new(srv.addr).from_local("127.0.0.5".parse().expect("ip"));
    let quick = json!({"variant": "antarctos", "fen": "W:Wc3:Bf6", "movetime_ms": 1});
    for _ in 0..2 {
        let a = analyst
            .post("/api/analysis", quick.clone())
            .await
            .expect("post");
        assert_eq!(a.status, 200, "{}", a.text);
    }
    let a = analyst.post("/api/analysis", quick).await.expect("post");
    assert_eq!(a.status, 429, "{}", a.text);
    assert_eq!(a.body["error"]["code"], "rate_limited");
    srv.stop().await;
}

/// The issue's probe: id guesses per second from one client, with the default limits. Prints
/// the figures; asserts only what the token bucket allows whatever the machine's speed.
#[tokio::test]
async fn id_guessing_is_held_to_the_lookup_rate() {
    let srv = TestServer::start(&sqlite_url("guess")).await;
    let rate = SiteOptions::default()
        .rate_limits
        .lookup
        .expect("a lookup limit");
    let mut guesser = srv.client();
    let seconds = 2.0;
    let start = Instant::now();
    let (mut answered, mut limited, mut sent) = (0u32, 0u32, 0u32);
    while start.elapsed().as_secs_f64() < seconds {
        let a = guesser
            .get(&format!("/api/games/g{sent:07}"))
            .await
            .expect("get");
        sent += 1;
        match a.status {
            404 => answered += 1,
            429 => limited += 1,
            other => panic!("unexpected {other}: {}", a.text),
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "id guesses: {sent} sent in {elapsed:.2} s ({:.0}/s), {answered} looked up ({:.0}/s), \
         {limited} refused with 429",
        f64::from(sent) / elapsed,
        f64::from(answered) / elapsed
    );
    let allowed = f64::from(rate.burst) + elapsed / rate.period.as_secs_f64() + 1.0;
    assert!(
        f64::from(answered) <= allowed,
        "{answered} lookups answered, the bucket allows {allowed:.0}"
    );
    srv.stop().await;
}

/// Watchers filling a game's cap of sockets do not lock its players out (a hostile tester held
/// 500 watcher sockets on a game, and both players' own sockets were refused with 503): the
/// players have a reserve above the watchers' cap.
#[tokio::test]
async fn watchers_at_a_games_cap_leave_room_for_its_players() {
    let options = SiteOptions {
        connections: ConnectionLimits {
            per_address: None,
            ..ConnectionLimits::default()
        },
        rate_limits: RateLimits::off(),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(&sqlite_url("ws-squat"), options).await;
    let mut white = srv.client();
    let mut black = srv.client();
    let g = create_and_join(
        &mut white,
        &mut black,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let watcher = ApiClient::new(srv.addr);
    let mut watchers = Vec::new();
    for _ in 0..site::play::MAX_WS_PER_GAME {
        watchers.push(watcher.ws(&id).await.expect("a watcher's socket"));
    }
    let refused = watcher.ws(&id).await;
    assert!(refused.is_err(), "a watcher past the cap is refused");
    for player in [&white, &black] {
        let mut ws = player
            .ws(&id)
            .await
            .expect("a player's socket past the watchers' cap");
        first_state(&mut ws).await;
        watchers.push(ws);
    }
    drop(watchers);
    srv.stop().await;
}

/// Sends a POST head declaring `length` bytes and no body: the answer, and how long it took.
async fn declared(srv: &TestServer, path: &str, token: &str, length: u64) -> (String, Duration) {
    let mut s = TcpStream::connect(srv.addr).await.expect("connect");
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\nx-icebound-player: {token}\r\n\
         content-type: application/json\r\ncontent-length: {length}\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.expect("write");
    let start = Instant::now();
    let (answer, _) = until_closed(&mut s, Duration::from_secs(15)).await;
    (
        String::from_utf8_lossy(&answer).into_owned(),
        start.elapsed(),
    )
}

/// A declared `Content-Length` over the route's body limit is 413 `too_large` at once, before
/// any of the body is read (not 408 when the body timeout passes); the records routes' larger
/// limit is theirs.
#[tokio::test]
async fn a_declared_length_over_the_limit_is_413_at_once() {
    let srv = TestServer::start(&sqlite_url("declared")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let token = c.token().expect("token").to_string();
    let huge = 99_999_999_999;
    let over_records = site_http::routes::RECORDS_BODY_LIMIT as u64 + 1;
    let over_body = site_http::routes::BODY_LIMIT as u64 + 1;
    for (path, length) in [
        (format!("/api/games/{id}/moves"), huge),
        ("/api/games/upload".to_string(), huge),
        ("/api/games".to_string(), over_body),
        (format!("/api/games/{id}/rematch"), huge),
        ("/api/import".to_string(), over_records),
        ("/api/records/read".to_string(), over_records),
    ] {
        let (answer, took) = declared(&srv, &path, &token, length).await;
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert!(answer.contains(r#""code":"too_large""#), "{path}: {answer}");
        assert!(took < Duration::from_secs(2), "{path}: {took:?}");
    }
    // Within the records limit, /api/import waits for its body (the default 10 s timeout):
    // cut short here, it has not been refused after a second.
    let mut s = TcpStream::connect(srv.addr).await.expect("connect");
    let head = format!(
        "POST /api/import HTTP/1.1\r\nhost: x\r\nx-icebound-player: {token}\r\n\
         content-type: application/json\r\ncontent-length: {over_body}\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.expect("write");
    let (answer, closed) = until_closed(&mut s, Duration::from_secs(1)).await;
    assert!(closed.is_none() && answer.is_empty(), "{answer:?}");
    srv.stop().await;
}

//! Web Push (issue 38), checked with an independent receiver: a push service here records what
//! the site sends, and `push/receiver.py` (Python's http_ece, `.ci/setup-push.sh`) decrypts it
//! with the browser's keys and checks the VAPID signature. A correspondence move is pushed to
//! the player to move, once, though two processes push; a subscription the push service says
//! is gone (410) is dropped; bad subscriptions are refused naming the field; the key is made
//! once and shared.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};

use crate::common::lobby::{account, first_legal, get, post};
use crate::common::*;

/// One request the push service received.
#[derive(Debug, Clone)]
struct Received {
    path: String,
    headers: HeaderMap,
    body: Vec<u8>,
}

type Log = Arc<Mutex<Vec<Received>>>;

async fn receive(
    State(log): State<Log>,
    Path((kind, name)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    log.lock().unwrap().push(Received {
        path: format!("/{kind}/{name}"),
        headers,
        body: body.to_vec(),
    });
    if kind == "gone" {
        StatusCode::GONE
    } else {
        StatusCode::CREATED
    }
}

/// A push service on a loopback port: 201 under `/ok/...`, 410 under `/gone/...`.
async fn push_service() -> (String, Log) {
    let log: Log = Arc::default();
    let app = axum::Router::new()
        .route("/{kind}/{name}", axum::routing::post(receive))
        .with_state(log.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (origin, log)
}

/// The receiver's python, or `None` (skipped; a failure under CI).
fn python() -> Option<String> {
    match std::env::var("ICEBOUND_TEST_PUSH_PYTHON") {
        Ok(p) if !p.is_empty() => Some(p),
        _ => {
            test_support::services::missing("ICEBOUND_TEST_PUSH_PYTHON", ".ci/setup-push.sh");
            None
        }
    }
}

fn receiver(python: &str, args: &[&str]) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/push/receiver.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .args(args)
        .output()
        .expect("the receiver runs");
    assert!(
        out.status.success(),
        "receiver {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the receiver prints JSON")
}

async fn start_push(url: &str) -> TestServer {
    TestServer::start_with(
        url,
        server::SiteOptions {
            rate_limits: server::options::RateLimits::off(),
            services: server::ServiceOptions {
                push_allow_insecure: true,
                ..server::ServiceOptions::default()
            },
            ..server::SiteOptions::default()
        },
    )
    .await
}

async fn wait_for(log: &Log, path: &str, n: usize) -> Vec<Received> {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let got: Vec<Received> = log
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect();
        if got.len() >= n {
            return got;
        }
        assert!(Instant::now() < end, "{path}: {n} pushes not within 10 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_correspondence_move_is_pushed_once_and_decrypts() {
    let Some(python) = python() else { return };
    let (origin, log) = push_service().await;
    let url = sqlite_url("push");
    let a = start_push(&url).await;
    let b = start_push(&url).await;
    // The key is made once: both processes give the same.
    let mut anyone = a.client();
    let key = get(&mut anyone, "/api/push/key").await.body["vapid_public_key"]
        .as_str()
        .expect("a key")
        .to_string();
    let mut at_b = b.client();
    assert_eq!(
        get(&mut at_b, "/api/push/key").await.body["vapid_public_key"],
        key.as_str()
    );
    let (mut w, _) = account(&a, "pw").await;
    let (mut bl, _) = account(&a, "pb").await;
    let browser = receiver(&python, &["keys"]);
    let other = receiver(&python, &["keys"]);
    let subscribe = |endpoint: String, k: &Value| {
        json!({"endpoint": endpoint, "expirationTime": null,
               "keys": {"p256dh": k["p256dh"], "auth": k["auth"]}})
    };
    for (endpoint, k) in [
        (format!("{origin}/ok/black"), &browser),
        (format!("{origin}/gone/black"), &other),
    ] {
        let r = post(&mut bl, "/api/push/subscriptions", subscribe(endpoint, k)).await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    let g = create_and_join(
        &mut w,
        &mut bl,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mv = first_legal(&mut w, &id).await;
    play(&mut w, &id, &mv).await;
    let got = wait_for(&log, "/ok/black", 1).await;
    let r = &got[0];
    assert_eq!(r.headers["content-encoding"], "aes128gcm");
    assert_eq!(r.headers["ttl"], "43200");
    // RFC 8291 section 4: one record, and the header's record size `rs` greater than it (it
    // was equal).
    let rs = u32::from_be_bytes(r.body[16..20].try_into().unwrap()) as usize;
    let record = r.body.len() - 21 - usize::from(r.body[20]);
    assert!(
        rs > record,
        "rs {rs} is not above the record's {record} bytes"
    );
    let body = temp_dir("push-body").join("body");
    std::fs::write(&body, &r.body).unwrap();
    let authorization = r.headers["authorization"].to_str().unwrap();
    let opened = receiver(
        &python,
        &[
            "open",
            browser["private"].as_str().unwrap(),
            browser["auth"].as_str().unwrap(),
            body.to_str().unwrap(),
            authorization,
            &key,
            &origin,
        ],
    );
    let message = &opened["message"];
    assert_eq!(message["kind"], "your_move", "{opened}");
    assert_eq!(message["game"], id.as_str());
    assert_eq!(message["url"], format!("/game/{id}"));
    assert_eq!(r.headers["topic"], message["id"].as_str().unwrap());
    // The push service said the other browser is gone: it is dropped (checked below).
    wait_for(&log, "/gone/black", 1).await;
    // Both processes push: after more than a poll of process B, still one message each.
    tokio::time::sleep(site::notifications::push::POLL + Duration::from_secs(1)).await;
    let mut sent: Vec<String> = log.lock().unwrap().iter().map(|r| r.path.clone()).collect();
    sent.sort();
    assert_eq!(
        sent,
        vec!["/gone/black", "/ok/black"],
        "once to each, though two processes push"
    );
    // A second move goes to the browser left, not to the gone one.
    let mv = first_legal(&mut bl, &id).await;
    play(&mut bl, &id, &mv).await;
    let mv = first_legal(&mut w, &id).await;
    play(&mut w, &id, &mv).await;
    wait_for(&log, "/ok/black", 2).await;
    assert_eq!(
        log.lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == "/gone/black")
            .count(),
        1,
        "the gone subscription was dropped"
    );
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn bad_subscriptions_are_refused_naming_the_field() {
    let srv = TestServer::start(&sqlite_url("push-bad")).await;
    let (mut c, name) = account(&srv, "pbad").await;
    let good_key =
        "BJbRkO7P1GlMHarkVQ1WfsDYu8137Y37wsc6GT_cWQkuQIOiJLRFdEUDKWpnYYrMEgsgqyG5tM03-lhF9xvKyIM";
    let good_auth = "ahC_tWxZXAev1bHFFHtiKQ";
    let body = |endpoint: &str, p256dh: &str, auth: &str| json!({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}});
    for (b, says) in [
        (
            body("http://push.example.com/x", good_key, good_auth),
            "https only",
        ),
        (
            body("https://127.0.0.1/x", good_key, good_auth),
            "private or local",
        ),
        (
            body("https://10.1.2.3/x", good_key, good_auth),
            "private or local",
        ),
        (
            body("https://localhost/x", good_key, good_auth),
            "private or local",
        ),
        (
            body("https://[::1]/x", good_key, good_auth),
            "private or local",
        ),
        (
            body("not a url", good_key, good_auth),
            "endpoint: not a URL",
        ),
    ]
    .into_iter()
    .chain(
        // Taken before (testers): names of this machine, addresses that are not public in
        // other spellings, and ports other than 443.
        [
            "https://localhost./x",
            "https://push.localhost/x",
            "https://[::7f00:1]",
            "https://[::ffff:127.0.0.1]/x",
            "https://[64:ff9b::7f00:1]/",
            "https://[2002:7f00:1::1]/",
            "https://0.1.2.3/",
            "https://[fec0::1]/",
            "https://224.0.0.1/",
            "https://198.18.0.1/",
            "https://100.64.0.1/",
            "https://169.254.169.254/",
        ]
        .map(|e| (body(e, good_key, good_auth), "private or local")),
    )
    .chain([(
        body("https://fcm.googleapis.com:6379/", good_key, good_auth),
        "endpoint: port 6379",
    )])
    .chain([
        (
            body("https://push.example.com/x", "AAAA", good_auth),
            "keys.p256dh",
        ),
        (
            body("https://push.example.com/x", "@@", good_auth),
            "keys.p256dh",
        ),
        (
            body("https://push.example.com/x", good_key, "c2hvcnQ"),
            "keys.auth: 5 bytes",
        ),
        (json!({"endpoint": "https://push.example.com/x"}), "keys"),
        (
            json!({"endpoint": "https://push.example.com/x", "keys": {"p256dh": good_key, "auth": good_auth}, "extra": 1}),
            "extra",
        ),
    ]) {
        let r = post(&mut c, "/api/push/subscriptions", b.clone()).await;
        assert_eq!(r.status, 400, "{b}: {}", r.text);
        let message = r.body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{b}: {message}");
    }
    // A public https endpoint is taken; deleting it needs its owner.
    let ok = body("https://push.example.com/abc", good_key, good_auth);
    assert_eq!(
        post(&mut c, "/api/push/subscriptions", ok).await.status,
        201
    );
    let (mut other, _) = account(&srv, "poth").await;
    let gone = json!({"endpoint": "https://push.example.com/abc"});
    let d = other
        .send("DELETE", "/api/push/subscriptions", Some(&gone))
        .await
        .unwrap();
    assert_eq!(d.status, 204);
    let store = srv.site.service().store();
    let (_, _, owner) = store.account_player(&name).await.unwrap().unwrap();
    assert_eq!(
        store.push_subscriptions(&owner).await.unwrap().len(),
        1,
        "another player cannot remove it"
    );
    let d = c
        .send("DELETE", "/api/push/subscriptions", Some(&gone))
        .await
        .unwrap();
    assert_eq!(d.status, 204);
    assert!(store.push_subscriptions(&owner).await.unwrap().is_empty());
    srv.stop().await;
}

#[tokio::test]
async fn an_endpoint_whose_name_resolves_to_a_local_address_is_not_sent_to() {
    // Without --push-allow-insecure. A name that passed the subscription's check may resolve
    // to a private address when the push is sent (a DNS name of the attacker's, rebinding):
    // stored here directly, as `localhost`, which every /etc/hosts resolves to 127.0.0.1.
    // Likewise a row stored before the port rule.
    let srv = TestServer::start_with(
        &sqlite_url("push-resolve"),
        server::SiteOptions {
            rate_limits: server::options::RateLimits::off(),
            ..server::SiteOptions::default()
        },
    )
    .await;
    let (mut w, _) = account(&srv, "prw").await;
    let (mut bl, name) = account(&srv, "prb").await;
    let store = srv.site.service().store();
    let (_, _, owner) = store.account_player(&name).await.unwrap().unwrap();
    let keys = json!({"p256dh": "BJbRkO7P1GlMHarkVQ1WfsDYu8137Y37wsc6GT_cWQkuQIOiJLRFdEUDKWpnYYrMEgsgqyG5tM03-lhF9xvKyIM",
                      "auth": "ahC_tWxZXAev1bHFFHtiKQ"});
    for endpoint in [
        "https://localhost/ok/resolved",
        "https://fcm.googleapis.com:6379/old",
    ] {
        store
            .add_push_subscription(
                &site_store::PushSubscriptionRow {
                    endpoint: endpoint.into(),
                    owner: owner.clone(),
                    p256dh: keys["p256dh"].as_str().unwrap().into(),
                    auth: keys["auth"].as_str().unwrap().into(),
                    created_at: site_store::now_ms(),
                },
                10,
            )
            .await
            .unwrap();
    }
    // The subscription's own check refuses such names.
    let r = post(
        &mut bl,
        "/api/push/subscriptions",
        json!({"endpoint": "https://localhost./ok/x", "keys": keys}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);
    let g = create_and_join(
        &mut w,
        &mut bl,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mv = first_legal(&mut w, &id).await;
    play(&mut w, &id, &mv).await;
    // Both are dropped when the push is tried (a push that merely fails keeps its row).
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let left: Vec<String> = store
            .push_subscriptions(&owner)
            .await
            .unwrap()
            .into_iter()
            .map(|s| s.endpoint)
            .collect();
        if left.is_empty() {
            break;
        }
        assert!(
            Instant::now() < end,
            "not dropped within 10 s: {left:?} (resolved to 127.0.0.1, or port 6379)"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    srv.stop().await;
}

#[tokio::test]
async fn unsubscribing_matches_the_endpoint_however_it_is_spelled() {
    // The endpoint is stored normalised; DELETE compared the raw text (204, the row stayed).
    let srv = start_push(&sqlite_url("push-unsub")).await;
    let (mut c, name) = account(&srv, "puns").await;
    let keys = json!({"p256dh": "BJbRkO7P1GlMHarkVQ1WfsDYu8137Y37wsc6GT_cWQkuQIOiJLRFdEUDKWpnYYrMEgsgqyG5tM03-lhF9xvKyIM",
                      "auth": "ahC_tWxZXAev1bHFFHtiKQ"});
    let raw = "http://LOCALHOST:80/Push/X";
    let r = post(
        &mut c,
        "/api/push/subscriptions",
        json!({"endpoint": raw, "keys": keys}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let store = srv.site.service().store();
    let (_, _, owner) = store.account_player(&name).await.unwrap().unwrap();
    let stored: Vec<String> = store
        .push_subscriptions(&owner)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.endpoint)
        .collect();
    assert_eq!(stored, vec!["http://localhost/Push/X"]);
    let d = c
        .send(
            "DELETE",
            "/api/push/subscriptions",
            Some(&json!({"endpoint": raw})),
        )
        .await
        .unwrap();
    assert_eq!(d.status, 204);
    assert!(
        store.push_subscriptions(&owner).await.unwrap().is_empty(),
        "the subscription at {raw} is removed"
    );
    let d = c
        .send(
            "DELETE",
            "/api/push/subscriptions",
            Some(&json!({"endpoint": "not a url"})),
        )
        .await
        .unwrap();
    assert_eq!(d.status, 400, "{}", d.text);
    assert!(d.text.contains("endpoint: not a URL"), "{}", d.text);
    srv.stop().await;
}

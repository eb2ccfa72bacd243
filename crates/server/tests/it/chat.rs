//! Chat (issue 41, site::chat) through the real server and its sockets: a game's players'
//! room reaches the two players alone and the watchers' room everyone; messages are stored
//! and come back after a reconnect; text is limited (length, control and direction
//! characters), sending is limited per author; free text needs an account 10 minutes old
//! with a finished game (canned phrases do not); chat off hides and refuses all; a block
//! keeps the blocked player's messages from the blocker without telling; a mute refuses; a
//! reported message reaches the moderators' list; the lobby and tournaments have rooms too.

use std::time::Duration;

use crate::common::lobby::{account, first_legal, get, post, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::{ApiClient, EventStream, WsStream, next_json, send_json};

/// Free text is allowed at once (the 10-minute rule has its own test).
fn no_min_age(srv: &TestServer) {
    srv.site.services().chat.set_min_account_age(0);
}

/// A friend game between `a` (white) and `b`, unlimited; its id.
pub(crate) async fn game(a: &mut ApiClient, b: &mut ApiClient) -> String {
    let g = create_and_join(
        a,
        b,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    g["id"].as_str().expect("id").to_string()
}

/// `a` and `b` play two moves each and `a` resigns: both have a (real) finished game.
pub(crate) async fn season(a: &mut ApiClient, b: &mut ApiClient) {
    let id = game(a, b).await;
    for _ in 0..2 {
        let mv = first_legal(a, &id).await;
        play(a, &id, &mv).await;
        let mv = first_legal(b, &id).await;
        play(b, &id, &mv).await;
    }
    let r = post(a, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

/// A socket on game `id`, past its first state.
async fn socket(c: &ApiClient, id: &str) -> WsStream {
    let mut ws = c.ws_as_browser(id).await.expect("socket");
    first_state(&mut ws).await;
    ws
}

async fn say(ws: &mut WsStream, msg: Value) {
    send_json(ws, &msg).await.expect("send");
}

/// The next chat message on `ws` (10 s at most), skipping states.
async fn next_chat(ws: &mut WsStream) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let msg = next_json(ws).await.expect("socket open");
            match msg["type"].as_str() {
                Some("chat") => return msg["message"].clone(),
                Some("error") => panic!("an error where a chat message was awaited: {msg}"),
                _ => {}
            }
        }
    })
    .await
    .expect("a chat message within 10 s")
}

/// The next error on `ws`, which must come before any chat message.
async fn next_error(ws: &mut WsStream) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let msg = next_json(ws).await.expect("socket open");
            match msg["type"].as_str() {
                Some("error") => return msg["error"].clone(),
                Some("chat") => panic!("a chat message where an error was awaited: {msg}"),
                _ => {}
            }
        }
    })
    .await
    .expect("an error within 10 s")
}

fn texts(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|m| {
            m["text"]
                .as_str()
                .or(m["phrase"].as_str())
                .expect("text or phrase")
                .to_string()
        })
        .collect()
}

/// Ann and Bob (seasoned) in a game, Cat (an account) watching; each with a socket.
struct Table {
    srv: TestServer,
    ann: ApiClient,
    ann_name: String,
    bob: ApiClient,
    bob_name: String,
    cat: ApiClient,
    cat_name: String,
    id: String,
    ann_ws: WsStream,
    bob_ws: WsStream,
    cat_ws: WsStream,
}

async fn table(url: &str) -> Table {
    let srv = start(url).await;
    no_min_age(&srv);
    let (mut ann, ann_name) = account(&srv, "cann").await;
    let (mut bob, bob_name) = account(&srv, "cbob").await;
    let (mut cat, cat_name) = account(&srv, "ccat").await;
    season(&mut ann, &mut bob).await;
    season(&mut cat, &mut bob).await;
    let id = game(&mut ann, &mut bob).await;
    let ann_ws = socket(&ann, &id).await;
    let bob_ws = socket(&bob, &id).await;
    let cat_ws = socket(&cat, &id).await;
    Table {
        srv,
        ann,
        ann_name,
        bob,
        bob_name,
        cat,
        cat_name,
        id,
        ann_ws,
        bob_ws,
        cat_ws,
    }
}

async fn rooms_and_history(url: &str) {
    let mut t = table(url).await;
    // The players' room: both players, not the watcher.
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": "hi <b>bob</b> https://x.example"}),
    )
    .await;
    let m = next_chat(&mut t.bob_ws).await;
    assert_eq!(m["room"], "players", "{m}");
    assert_eq!(m["author"], t.ann_name.as_str(), "{m}");
    // Links and markup stay text, as sent.
    assert_eq!(m["text"], "hi <b>bob</b> https://x.example", "{m}");
    assert!(m["id"].is_string(), "{m}");
    let m = next_chat(&mut t.ann_ws).await;
    assert_eq!(m["room"], "players", "{m}");
    // The watchers' room: the watchers. The watcher's first chat message is this one, so the
    // players' message never reached them.
    say(
        &mut t.cat_ws,
        json!({"type": "chat", "room": "watchers", "text": "nice game"}),
    )
    .await;
    let m = next_chat(&mut t.cat_ws).await;
    assert_eq!(m["room"], "watchers", "{m}");
    assert_eq!(m["text"], "nice game", "{m}");
    let watched_id = m["id"].as_str().expect("id").to_string();
    // While the game goes on the players neither write in the watchers' room...
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "watchers", "text": "hi watchers"}),
    )
    .await;
    let e = next_error(&mut t.ann_ws).await;
    assert_eq!(e["code"], "watchers_closed", "{e}");
    // ... nor read it (nor report what they cannot see).
    let r = post(
        &mut t.bob,
        "/api/reports",
        json!({"username": t.cat_name, "reason": "abuse", "message": watched_id}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    // A canned phrase goes as its code. It is the players' next chat message: the watcher's
    // never reached them.
    say(
        &mut t.bob_ws,
        json!({"type": "chat", "room": "players", "phrase": "good_luck"}),
    )
    .await;
    let m = next_chat(&mut t.ann_ws).await;
    assert_eq!(m["phrase"], "good_luck", "{m}");
    assert!(m.get("text").is_none(), "{m}");
    assert_eq!(next_chat(&mut t.bob_ws).await["phrase"], "good_luck");
    // The watcher may not write in the players' room.
    say(
        &mut t.cat_ws,
        json!({"type": "chat", "room": "players", "text": "psst"}),
    )
    .await;
    assert_eq!(next_error(&mut t.cat_ws).await["code"], "not_a_player");
    // Bad messages: unknown room, no content, both, unknown phrase, unknown field, no room.
    for (bad, says) in [
        (
            json!({"type": "chat", "room": "kitchen", "text": "x"}),
            "room",
        ),
        (json!({"type": "chat", "room": "players"}), "text"),
        (
            json!({"type": "chat", "room": "players", "text": "x", "phrase": "thanks"}),
            "text",
        ),
        (
            json!({"type": "chat", "room": "players", "phrase": "hello"}),
            "phrase",
        ),
        (
            json!({"type": "chat", "room": "players", "text": "x", "colour": "red"}),
            "colour",
        ),
        (json!({"type": "chat", "text": "x"}), "room"),
    ] {
        say(&mut t.ann_ws, bad.clone()).await;
        let e = next_error(&mut t.ann_ws).await;
        assert_eq!(e["code"], "bad_request", "{bad}: {e}");
        assert!(
            e["message"].as_str().is_some_and(|m| m.contains(says)),
            "{bad}: {e}"
        );
    }
    // Stored: a new socket and the history give them back; the players' room to the players.
    drop(t.bob_ws);
    let mut bob_ws = socket(&t.bob, &t.id).await;
    let h = get(&mut t.bob, &format!("/api/games/{}/chat", t.id))
        .await
        .body;
    assert_eq!(
        texts(&h["players"]),
        ["hi <b>bob</b> https://x.example", "good_luck"],
        "{h}"
    );
    // The watchers' room is closed to the players during the game.
    assert_eq!(texts(&h["watchers"]), Vec::<String>::new(), "{h}");
    assert_eq!(h["watchers_hidden"], true, "{h}");
    assert_eq!(h["chat_off"], false, "{h}");
    let h = get(&mut t.cat, &format!("/api/games/{}/chat", t.id))
        .await
        .body;
    assert!(h.get("players").is_none(), "{h}");
    assert!(h.get("watchers_hidden").is_none(), "{h}");
    assert_eq!(texts(&h["watchers"]), ["nice game"], "{h}");
    // Anyone reads the watchers' room, an anonymous browser too.
    let mut anon = t.srv.client();
    let h = get(&mut anon, &format!("/api/games/{}/chat", t.id))
        .await
        .body;
    assert!(h.get("players").is_none(), "{h}");
    assert_eq!(texts(&h["watchers"]), ["nice game"], "{h}");
    let r = anon.get("/api/games/nosuchgame/chat").await.expect("get");
    assert_error(&r, 404, "not_found");
    // Once the game is over the players read the watchers' room and write in it.
    let r = post(
        &mut t.ann,
        &format!("/api/games/{}/resign", t.id),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let h = get(&mut t.bob, &format!("/api/games/{}/chat", t.id))
        .await
        .body;
    assert_eq!(texts(&h["watchers"]), ["nice game"], "{h}");
    assert!(h.get("watchers_hidden").is_none(), "{h}");
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "watchers", "phrase": "good_game"}),
    )
    .await;
    assert_eq!(next_chat(&mut t.cat_ws).await["phrase"], "good_game");
    assert_eq!(next_chat(&mut bob_ws).await["phrase"], "good_game");
    assert_eq!(next_chat(&mut t.ann_ws).await["phrase"], "good_game");
    let _ = &t.bob_name;
    t.srv.stop().await;
}

async fn limits(url: &str) {
    let mut t = table(url).await;
    let long = "é".repeat(141);
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": long}),
    )
    .await;
    let e = next_error(&mut t.ann_ws).await;
    assert_eq!(e["code"], "too_large", "{e}");
    for bad in [
        "a\u{0}b",
        "right\u{202E}txt.exe",
        "two\nlines",
        "\u{2067}x",
        "   ",
    ] {
        say(
            &mut t.ann_ws,
            json!({"type": "chat", "room": "players", "text": bad}),
        )
        .await;
        let e = next_error(&mut t.ann_ws).await;
        assert_eq!(e["code"], "bad_request", "{bad:?}: {e}");
    }
    // 140 characters pass.
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": "é".repeat(140)}),
    )
    .await;
    assert_eq!(
        next_chat(&mut t.bob_ws).await["text"]
            .as_str()
            .map(|s| s.chars().count()),
        Some(140)
    );
    next_chat(&mut t.ann_ws).await;
    // The rate: 5 in 10 s (the one above counts), then refused with a clear error.
    for i in 0..4 {
        say(
            &mut t.ann_ws,
            json!({"type": "chat", "room": "players", "text": format!("m{i}")}),
        )
        .await;
        assert_eq!(next_chat(&mut t.ann_ws).await["text"], format!("m{i}"));
    }
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "phrase": "thanks"}),
    )
    .await;
    let e = next_error(&mut t.ann_ws).await;
    assert_eq!(e["code"], "rate_limited", "{e}");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("wait")),
        "{e}"
    );
    // Bob is not slowed by Ann.
    say(
        &mut t.bob_ws,
        json!({"type": "chat", "room": "players", "text": "ok"}),
    )
    .await;
    // Bob's socket got Ann's four messages (not the refused one), then his own.
    let mut got = Vec::new();
    for _ in 0..5 {
        got.push(next_chat(&mut t.bob_ws).await["text"].clone());
    }
    assert_eq!(
        got,
        [
            json!("m0"),
            json!("m1"),
            json!("m2"),
            json!("m3"),
            json!("ok")
        ]
    );
    t.srv.stop().await;
}

async fn new_accounts(url: &str) {
    let srv = start(url).await;
    let (mut ann, _) = account(&srv, "nann").await;
    let (mut bob, _) = account(&srv, "nbob").await;
    season(&mut ann, &mut bob).await;
    let id = game(&mut ann, &mut bob).await;
    let mut ws = socket(&ann, &id).await;
    // A new account (the default 10 minutes): canned phrases only.
    say(
        &mut ws,
        json!({"type": "chat", "room": "players", "text": "hello"}),
    )
    .await;
    let e = next_error(&mut ws).await;
    assert_eq!(e["code"], "chat_not_allowed", "{e}");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("new")),
        "{e}"
    );
    say(
        &mut ws,
        json!({"type": "chat", "room": "players", "phrase": "have_fun"}),
    )
    .await;
    assert_eq!(next_chat(&mut ws).await["phrase"], "have_fun");
    // Old enough but no finished game: canned phrases only.
    no_min_age(&srv);
    let (mut cat, _) = account(&srv, "ncat").await;
    let (mut dan, _) = account(&srv, "ndan").await;
    let g = game(&mut cat, &mut dan).await;
    let mut cws = socket(&cat, &g).await;
    say(
        &mut cws,
        json!({"type": "chat", "room": "players", "text": "hello"}),
    )
    .await;
    let e = next_error(&mut cws).await;
    assert_eq!(e["code"], "chat_not_allowed", "{e}");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("finish")),
        "{e}"
    );
    // With the finished game, free text passes.
    say(
        &mut ws,
        json!({"type": "chat", "room": "players", "text": "hello"}),
    )
    .await;
    assert_eq!(next_chat(&mut ws).await["text"], "hello");
    // Anonymous players: canned phrases in their own game; an anonymous watcher nothing.
    let mut x = srv.client();
    let mut y = srv.client();
    let g = game(&mut x, &mut y).await;
    let mut xws = socket(&x, &g).await;
    say(
        &mut xws,
        json!({"type": "chat", "room": "players", "phrase": "good_game"}),
    )
    .await;
    let m = next_chat(&mut xws).await;
    assert_eq!(m["phrase"], "good_game");
    assert!(m["author"].is_null(), "{m}");
    say(
        &mut xws,
        json!({"type": "chat", "room": "players", "text": "hi"}),
    )
    .await;
    assert_eq!(next_error(&mut xws).await["code"], "chat_not_allowed");
    let z = srv.client();
    let mut zws = socket(&z, &g).await;
    say(
        &mut zws,
        json!({"type": "chat", "room": "watchers", "phrase": "thanks"}),
    )
    .await;
    assert_eq!(next_error(&mut zws).await["code"], "not_logged_in");
    // Nor an anonymous player in its game's watchers' room once it ended: a line without an
    // author nobody could block or report (the third hostile round's finding 13).
    let over = post(&mut x, &format!("/api/games/{g}/resign"), json!({})).await;
    assert_eq!(over.status, 200, "{}", over.text);
    say(
        &mut xws,
        json!({"type": "chat", "room": "watchers", "phrase": "good_game"}),
    )
    .await;
    assert_eq!(next_error(&mut xws).await["code"], "not_logged_in");
    let _ = (&mut cat, &mut dan);
    srv.stop().await;
}

async fn chat_off(url: &str) {
    let mut t = table(url).await;
    let r = t
        .bob
        .send("PUT", "/api/me/chat", Some(&json!({"chat_off": true})))
        .await
        .expect("put");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(get(&mut t.bob, "/api/me/chat").await.body["chat_off"], true);
    // Bob sends none.
    say(
        &mut t.bob_ws,
        json!({"type": "chat", "room": "players", "phrase": "thanks"}),
    )
    .await;
    assert_eq!(next_error(&mut t.bob_ws).await["code"], "chat_off");
    // Bob sees none: not live, not in the history.
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": "while off"}),
    )
    .await;
    next_chat(&mut t.ann_ws).await;
    let h = get(&mut t.bob, &format!("/api/games/{}/chat", t.id))
        .await
        .body;
    assert_eq!(h["chat_off"], true, "{h}");
    assert_eq!(h["players"], json!([]), "{h}");
    // On again: the next message Bob's socket gets is the one after.
    let r = t
        .bob
        .send("PUT", "/api/me/chat", Some(&json!({"chat_off": false})))
        .await
        .expect("put");
    assert_eq!(r.status, 200, "{}", r.text);
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": "back on"}),
    )
    .await;
    assert_eq!(next_chat(&mut t.bob_ws).await["text"], "back on");
    // The setting is an account's; a body it does not know is refused.
    let mut anon = t.srv.client();
    let r = anon
        .send("PUT", "/api/me/chat", Some(&json!({"chat_off": true})))
        .await
        .expect("put");
    assert_error(&r, 401, "not_logged_in");
    let r = t
        .bob
        .send("PUT", "/api/me/chat", Some(&json!({"chat_off": "yes"})))
        .await
        .expect("put");
    assert_error(&r, 400, "bad_request");
    t.srv.stop().await;
}

async fn blocks_and_reports(url: &str) {
    let mut t = table(url).await;
    let (mut modr, modr_name) = account(&t.srv, "cmod").await;
    crate::common::lobby::make_mod(&t.srv, &modr_name).await;
    // Before the block, Ann's message reaches Bob.
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": "you are bad"}),
    )
    .await;
    let reported = next_chat(&mut t.bob_ws).await;
    next_chat(&mut t.ann_ws).await;
    let reported_id = reported["id"].as_str().expect("id").to_string();
    // The watcher cannot report a players' room message (not theirs to see): 404.
    let r = post(
        &mut t.cat,
        "/api/reports",
        json!({"username": t.ann_name, "reason": "abuse", "message": reported_id}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    // A message of someone else than the reported player: 400.
    let r = post(
        &mut t.ann,
        "/api/reports",
        json!({"username": t.bob_name, "reason": "abuse", "message": reported_id}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    let r = post(
        &mut t.bob,
        "/api/reports",
        json!({"username": t.ann_name, "reason": "abuse", "message": "nosuchmessage1"}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    // Bob reports it: the moderators' list shows its text.
    let r = post(
        &mut t.bob,
        "/api/reports",
        json!({"username": t.ann_name, "reason": "abuse", "message": reported_id}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    // The reporter's own answer never carries the room around the message.
    assert!(r.body["message"].get("around").is_none(), "{}", r.text);
    let report_id = r.body["id"].clone();
    let list = get(&mut modr, "/api/mod/reports").await.body;
    let report = list
        .as_array()
        .expect("reports")
        .iter()
        .find(|x| x["id"] == r.body["id"])
        .cloned()
        .expect("the report is listed");
    assert_eq!(report["message"]["text"], "you are bad", "{report}");
    assert_eq!(report["message"]["id"], reported_id.as_str(), "{report}");
    // Bob blocks Ann: her messages no longer reach him, live or stored; she is not told.
    let r = post(
        &mut t.bob,
        &format!("/api/players/{}/block", t.ann_name),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text);
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": "still there?"}),
    )
    .await;
    assert_eq!(next_chat(&mut t.ann_ws).await["text"], "still there?");
    say(
        &mut t.bob_ws,
        json!({"type": "chat", "room": "players", "text": "from bob"}),
    )
    .await;
    // Bob's next message is his own: Ann's never came.
    assert_eq!(next_chat(&mut t.bob_ws).await["text"], "from bob");
    assert_eq!(next_chat(&mut t.ann_ws).await["text"], "from bob");
    let h = get(&mut t.bob, &format!("/api/games/{}/chat", t.id))
        .await
        .body;
    assert_eq!(texts(&h["players"]), ["from bob"], "{h}");
    let h = get(&mut t.ann, &format!("/api/games/{}/chat", t.id))
        .await
        .body;
    assert_eq!(
        texts(&h["players"]),
        ["you are bad", "still there?", "from bob"],
        "{h}"
    );
    // The moderators read the room around the reported message (browser finding 14), with
    // its authors.
    let list = get(&mut modr, "/api/mod/reports").await.body;
    let report = list
        .as_array()
        .expect("reports")
        .iter()
        .find(|x| x["id"] == report_id)
        .cloned()
        .expect("the report is listed");
    let around = report["message"]["around"].as_array().expect("around");
    let lines: Vec<(&str, &str, bool)> = around
        .iter()
        .map(|m| {
            (
                m["author"].as_str().unwrap_or("-"),
                m["text"].as_str().unwrap_or("-"),
                m["reported"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            (t.ann_name.as_str(), "you are bad", true),
            (t.ann_name.as_str(), "still there?", false),
            (t.bob_name.as_str(), "from bob", false),
        ],
        "{report}"
    );
    // Bob can no longer report what he cannot see.
    let r = post(
        &mut t.bob,
        "/api/reports",
        json!({"username": t.ann_name, "reason": "other", "message": reported_id}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    // Mute: Ann's chat is refused until it ends, canned phrases too.
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{}/mute", t.ann_name),
        json!({"minutes": 10, "reason": "insults"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "phrase": "good_game"}),
    )
    .await;
    let e = next_error(&mut t.ann_ws).await;
    assert_eq!(e["code"], "muted", "{e}");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("minutes")),
        "{e}"
    );
    let r = post(&mut t.ann, "/api/lobby/chat", json!({"text": "hi all"})).await;
    assert_error(&r, 403, "muted");
    t.srv.stop().await;
}

/// Reads stream events until a `chat` one (10 s at most).
async fn next_stream_chat(events: &mut EventStream) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let (name, data) = events.next_event().await.expect("the stream stays open");
            if name == "chat" {
                return data;
            }
        }
    })
    .await
    .expect("a chat event within 10 s")
}

async fn lobby_and_tournament(url: &str) {
    let srv = start(url).await;
    no_min_age(&srv);
    let (mut ann, ann_name) = account(&srv, "lcann").await;
    let (mut bob, _) = account(&srv, "lcbob").await;
    let (mut cat, _) = account(&srv, "lccat").await;
    season(&mut ann, &mut bob).await;
    let (_, mut bob_events) = bob.events("/api/lobby").await.expect("stream");
    let (_, mut cat_events) = cat.events("/api/lobby").await.expect("stream");
    // Cat blocks Ann; Ann writes in the lobby.
    let r = post(
        &mut cat,
        &format!("/api/players/{ann_name}/block"),
        json!({}),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text);
    let r = post(
        &mut ann,
        "/api/lobby/chat",
        json!({"text": "anyone for a game?"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["room"], "lobby", "{}", r.text);
    let m = next_stream_chat(&mut bob_events).await;
    assert_eq!(m["text"], "anyone for a game?", "{m}");
    assert_eq!(m["author"], ann_name.as_str(), "{m}");
    let r = post(&mut bob, "/api/lobby/chat", json!({"phrase": "have_fun"})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    // Cat's first chat event is Bob's: Ann's never reached her.
    assert_eq!(
        next_stream_chat(&mut cat_events).await["phrase"],
        "have_fun"
    );
    let h = get(&mut cat, "/api/lobby/chat").await.body;
    assert_eq!(texts(&h["messages"]), ["have_fun"], "{h}");
    let h = get(&mut bob, "/api/lobby/chat").await.body;
    assert_eq!(
        texts(&h["messages"]),
        ["anyone for a game?", "have_fun"],
        "{h}"
    );
    // Bob has no finished game... he has one (seasoned): a new account without one has not.
    let (mut dan, _) = account(&srv, "lcdan").await;
    let r = post(&mut dan, "/api/lobby/chat", json!({"text": "hi"})).await;
    assert_error(&r, 403, "chat_not_allowed");
    let mut anon = srv.client();
    let r = post(&mut anon, "/api/lobby/chat", json!({"phrase": "thanks"})).await;
    assert_error(&r, 401, "not_logged_in");
    let r = post(
        &mut ann,
        "/api/lobby/chat",
        json!({"text": "x", "room": "players"}),
    )
    .await;
    assert_error(&r, 400, "bad_request");
    // A tournament's room: entrants and watchers, on the tournament's stream.
    let t = post(
        &mut cat,
        "/api/tournaments",
        json!({"kind": "arena", "variant": "antarctos", "time_control": crate::common::lobby::realtime(60, 0), "minutes": 10}),
    )
    .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let tid = t.body["id"].as_str().expect("id").to_string();
    let (status, mut watch) = bob
        .events(&format!("/api/tournaments/{tid}/stream"))
        .await
        .expect("stream");
    assert_eq!(status, 200);
    let r = post(
        &mut ann,
        &format!("/api/tournaments/{tid}/chat"),
        json!({"phrase": "good_luck"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let m = next_stream_chat(&mut watch).await;
    assert_eq!(m["phrase"], "good_luck", "{m}");
    assert_eq!(m["room"], "tournament", "{m}");
    let h = get(&mut anon, &format!("/api/tournaments/{tid}/chat"))
        .await
        .body;
    assert_eq!(texts(&h["messages"]), ["good_luck"], "{h}");
    let r = post(
        &mut ann,
        "/api/tournaments/nosuchevent/chat",
        json!({"phrase": "good_luck"}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    srv.stop().await;
}

/// Hostile finding 8: a watcher floods refused chat frames; the socket's own rate answers
/// `rate_limited` without reading the store, then closes it with 1008; the server answers.
async fn refused_frames(url: &str) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let mut t = table(url).await;
    let frame = json!({"type": "chat", "room": "players", "text": "x"}).to_string();
    for _ in 0..200 {
        // The server may close before the last ones: a failed send is the expected end.
        if t.cat_ws
            .send(Message::Text(frame.clone().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let (mut refused, mut limited) = (0, 0);
    let close = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(msg) = t.cat_ws.next().await {
            match msg {
                Ok(Message::Text(text)) => {
                    let v: Value = serde_json::from_str(text.as_str()).expect("json");
                    match v["error"]["code"].as_str() {
                        Some("not_a_player") => refused += 1,
                        Some("rate_limited") => limited += 1,
                        _ => {}
                    }
                }
                Ok(Message::Close(frame)) => return frame,
                Ok(_) => {}
                Err(e) => panic!("the socket broke without a close frame: {e}"),
            }
        }
        None
    })
    .await
    .expect("the socket closes within 20 s")
    .expect("a close frame with a code");
    assert_eq!(u16::from(close.code), 1008, "{close:?}");
    assert!(
        (1..=22).contains(&refused),
        "refused by the chat: {refused}"
    );
    assert!((1..40).contains(&limited), "refused by the rate: {limited}");
    // The server stays responsive, and the players' chat works.
    get(&mut t.cat, &format!("/api/games/{}", t.id)).await;
    say(
        &mut t.ann_ws,
        json!({"type": "chat", "room": "players", "text": "still here"}),
    )
    .await;
    assert_eq!(next_chat(&mut t.bob_ws).await["text"], "still here");
    t.srv.stop().await;
}

both_databases! {
    async fn refused_chat_frames_are_rate_limited_per_socket_and_close_it(url: &str) {
        refused_frames(url).await;
    }
}

both_databases! {
    async fn game_rooms_are_private_stored_and_returned(url: &str) {
        rooms_and_history(url).await;
    }
}

both_databases! {
    async fn chat_text_and_rate_are_limited(url: &str) {
        limits(url).await;
    }
}

both_databases! {
    async fn new_accounts_and_anonymous_players_send_canned_phrases_only(url: &str) {
        new_accounts(url).await;
    }
}

both_databases! {
    async fn chat_off_hides_and_refuses_all(url: &str) {
        chat_off(url).await;
    }
}

both_databases! {
    async fn blocked_players_are_not_delivered_muted_refused_and_reports_reach_moderators(url: &str) {
        blocks_and_reports(url).await;
    }
}

both_databases! {
    async fn the_lobby_and_tournaments_have_rooms(url: &str) {
        lobby_and_tournament(url).await;
    }
}

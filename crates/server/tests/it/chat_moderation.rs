//! The hostile round's findings 7 and 2 (issue 41) through the real server: a moderator
//! removes a chat message (gone from the histories, a removal event to the open pages, in
//! the mod log); a closed account's messages are hidden and its events not yet started
//! canceled; a muted account names no event; a moderator renames an event to its default
//! name.

use std::time::Duration;

use crate::chat::{game, season};
use crate::common::lobby::{account, get, make_mod, post, realtime, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::{EventStream, WsStream, next_json, send_json};

/// The next stream event named `want` (10 s at most), skipping the others.
async fn next_named(events: &mut EventStream, want: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let (name, data) = events.next_event().await.expect("the stream stays open");
            if name == want {
                return data;
            }
        }
    })
    .await
    .expect("the event within 10 s")
}

/// The next socket message of type `want` (10 s at most), skipping states.
async fn next_typed(ws: &mut WsStream, want: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let msg = next_json(ws).await.expect("socket open");
            if msg["type"] == want {
                return msg;
            }
        }
    })
    .await
    .expect("the message within 10 s")
}

fn texts(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .filter_map(|m| m["text"].as_str().map(str::to_string))
        .collect()
}

async fn removal(url: &str) {
    let srv = start(url).await;
    srv.site.services().chat.set_min_account_age(0);
    let (mut ann, ann_name) = account(&srv, "rmann").await;
    let (mut bob, _) = account(&srv, "rmbob").await;
    let (mut cat, _) = account(&srv, "rmcat").await;
    let (mut modr, mod_name) = account(&srv, "rmmod").await;
    make_mod(&srv, &mod_name).await;
    season(&mut ann, &mut bob).await;
    season(&mut cat, &mut bob).await;
    // The lobby: a message, live on Bob's stream, then removed.
    let (_, mut bob_events) = bob.events("/api/lobby").await.expect("stream");
    let r = post(&mut ann, "/api/lobby/chat", json!({"text": "a slur"})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let slur = r.body["id"].as_str().expect("id").to_string();
    assert_eq!(
        next_named(&mut bob_events, "chat").await["id"],
        slur.as_str()
    );
    // Not a moderator; no reason; a bad id.
    let path = format!("/api/mod/chat/{slur}/remove");
    let r = post(&mut bob, &path, json!({"reason": "x"})).await;
    assert_error(&r, 403, "not_moderator");
    let r = post(&mut modr, &path, json!({"reason": " "})).await;
    assert_error(&r, 400, "bad_request");
    let r = post(&mut modr, &path, json!({})).await;
    assert_error(&r, 400, "bad_request");
    let r = post(&mut modr, &path, json!({"reason": "slur"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body, json!({"id": slur, "room": "lobby"}));
    let e = next_named(&mut bob_events, "chat_removed").await;
    assert_eq!(e["id"], slur.as_str(), "{e}");
    let h = get(&mut bob, "/api/lobby/chat").await.body;
    assert_eq!(texts(&h["messages"]), Vec::<String>::new(), "{h}");
    // Once: a second removal finds nothing.
    let r = post(&mut modr, &path, json!({"reason": "again"})).await;
    assert_error(&r, 404, "not_found");
    let r = post(
        &mut modr,
        "/api/mod/chat/nosuchmessage/remove",
        json!({"reason": "x"}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    // A game's watchers' room: the watcher's socket drops it; the history has it no more.
    let id = game(&mut ann, &mut bob).await;
    let mut cat_ws = cat.ws_as_browser(&id).await.expect("socket");
    send_json(
        &mut cat_ws,
        &json!({"type": "chat", "room": "watchers", "text": "their address is ..."}),
    )
    .await
    .expect("send");
    let m = next_typed(&mut cat_ws, "chat").await;
    let dox = m["message"]["id"].as_str().expect("id").to_string();
    let r = post(
        &mut modr,
        &format!("/api/mod/chat/{dox}/remove"),
        json!({"reason": "doxxing"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["room"], "watchers", "{}", r.text);
    let m = next_typed(&mut cat_ws, "chat_removed").await;
    assert_eq!(m["message"]["id"], dox.as_str(), "{m}");
    let mut anon = srv.client();
    let h = get(&mut anon, &format!("/api/games/{id}/chat")).await.body;
    assert_eq!(texts(&h["watchers"]), Vec::<String>::new(), "{h}");
    // The mod log has both removals.
    let log = get(&mut modr, "/api/mod/log").await.body;
    let removals = log
        .as_array()
        .expect("lines")
        .iter()
        .filter(|l| l["action"] == "remove_chat")
        .count();
    assert_eq!(removals, 2, "{log}");
    // Closing an account hides all its messages, and cancels its events not yet started.
    let r = post(&mut ann, "/api/lobby/chat", json!({"text": "hello all"})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let t = post(
        &mut ann,
        "/api/tournaments",
        json!({"kind": "arena", "variant": "antarctos", "minutes": 30,
               "time_control": realtime(180, 2), "name": "bob cheats - ask the mods"}),
    )
    .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let tid = t.body["id"].as_str().expect("id").to_string();
    let r = post(
        &mut ann,
        &format!("/api/tournaments/{tid}/chat"),
        json!({"text": "in the event"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let h = get(&mut anon, "/api/lobby/chat").await.body;
    assert_eq!(texts(&h["messages"]), ["hello all"], "{h}");
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{ann_name}/close"),
        json!({"reason": "troll"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let h = get(&mut anon, "/api/lobby/chat").await.body;
    assert_eq!(texts(&h["messages"]), Vec::<String>::new(), "{h}");
    let h = get(&mut anon, &format!("/api/tournaments/{tid}/chat"))
        .await
        .body;
    assert_eq!(texts(&h["messages"]), Vec::<String>::new(), "{h}");
    let t = get(&mut anon, &format!("/api/tournaments/{tid}"))
        .await
        .body;
    assert_eq!(t["status"], "canceled", "{t}");
    srv.stop().await;
}

async fn names(url: &str) {
    let srv = start(url).await;
    let (mut mal, mal_name) = account(&srv, "tnmal").await;
    let (mut eve, _) = account(&srv, "tneve").await;
    let (mut modr, mod_name) = account(&srv, "tnmod").await;
    make_mod(&srv, &mod_name).await;
    let body = |name: Option<&str>| {
        let mut b = json!({"kind": "arena", "variant": "antarctos", "minutes": 30,
                           "time_control": realtime(180, 2)});
        if let Some(n) = name {
            b["name"] = json!(n);
        }
        b
    };
    let r = post(
        &mut modr,
        &format!("/api/mod/players/{mal_name}/mute"),
        json!({"minutes": 60, "reason": "abuse"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Muted: no name of one's own; the default name still.
    let r = post(
        &mut mal,
        "/api/tournaments",
        body(Some("carol is a CHEATER - report her")),
    )
    .await;
    assert_error(&r, 403, "muted");
    assert!(r.text.contains("name"), "{}", r.text);
    let r = post(&mut mal, "/api/tournaments", body(None)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let t = get(
        &mut eve,
        &format!("/api/tournaments/{}", r.body["id"].as_str().expect("id")),
    )
    .await
    .body;
    assert_eq!(t["name"], "Antarctos 3+2 arena", "{t}");
    // A moderator renames an abusive name to the default one; logged.
    let r = post(&mut eve, "/api/tournaments", body(Some("alice cheats"))).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let tid = r.body["id"].as_str().expect("id").to_string();
    let path = format!("/api/mod/tournaments/{tid}/rename");
    let r = post(&mut eve, &path, json!({"reason": "x"})).await;
    assert_error(&r, 403, "not_moderator");
    let r = post(&mut modr, &path, json!({})).await;
    assert_error(&r, 400, "bad_request");
    let r = post(
        &mut modr,
        "/api/mod/tournaments/nosuchevent/rename",
        json!({"reason": "x"}),
    )
    .await;
    assert_error(&r, 404, "not_found");
    let r = post(&mut modr, &path, json!({"reason": "accuses a player"})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["name"], "Antarctos 3+2 arena", "{}", r.text);
    let t = get(&mut eve, &format!("/api/tournaments/{tid}")).await.body;
    assert_eq!(t["name"], "Antarctos 3+2 arena", "{t}");
    let log = get(&mut modr, "/api/mod/log").await.body;
    let line = log
        .as_array()
        .expect("lines")
        .iter()
        .find(|l| l["action"] == "rename_tournament")
        .cloned()
        .expect("the rename is logged");
    assert_eq!(line["target"], tid.as_str(), "{line}");
    assert!(
        line["details"]
            .as_str()
            .is_some_and(|d| d.contains("alice cheats")),
        "{line}"
    );
    srv.stop().await;
}

both_databases! {
    async fn a_moderator_removes_chat_messages_and_a_close_hides_an_accounts(url: &str) {
        removal(url).await;
    }
}

both_databases! {
    async fn muted_accounts_name_no_event_and_moderators_rename_events(url: &str) {
        names(url).await;
    }
}

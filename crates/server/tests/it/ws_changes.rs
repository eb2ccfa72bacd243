//! Issue 12: `GET /api/games/{id}/ws?moves=changes` sends each state with only the moves the
//! socket has not sent yet (`moves_from`), so a state's size does not grow with the game. A
//! client that keeps the list as docs/api.md says must hold, after every state, exactly the
//! game's moves; after a takeback the state is whole again.

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use server::client::{ApiClient, WsStream, next_json};

/// A client of a `moves=changes` socket, keeping the list as docs/api.md says.
struct Held {
    ws: WsStream,
    moves: Vec<Value>,
    /// `moves_from` of every state read (`None`: a whole state).
    froms: Vec<Option<u64>>,
}

impl Held {
    async fn open(c: &ApiClient, id: &str) -> Held {
        let ws = c.ws_query(id, "moves=changes").await.expect("ws");
        let mut held = Held {
            ws,
            moves: Vec::new(),
            froms: Vec::new(),
        };
        let first = held.next_state().await;
        assert_eq!(held.froms, [None], "the first state is whole: {first}");
        held
    }

    /// The next state, applied to the kept list; returns its game (with the whole list).
    async fn next_state(&mut self) -> Value {
        let msg = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let m = next_json(&mut self.ws).await.expect("websocket open");
                assert_ne!(m["type"], "error", "{m}");
                if m["type"] == "state" {
                    return m;
                }
            }
        })
        .await
        .expect("a state within 10 s");
        let tail = msg["game"]["moves"].as_array().expect("moves").clone();
        match msg.get("moves_from") {
            None => {
                self.froms.push(None);
                self.moves = tail;
            }
            Some(n) => {
                let n = n.as_u64().expect("moves_from is a number");
                assert!(
                    n as usize <= self.moves.len(),
                    "moves_from {n} past the {} moves sent: {msg}",
                    self.moves.len()
                );
                self.froms.push(Some(n));
                self.moves.truncate(n as usize);
                self.moves.extend(tail);
            }
        }
        let mut game = msg["game"].clone();
        game["moves"] = Value::Array(self.moves.clone());
        game
    }

    /// Reads states until one of `ply` with `pred` true; asserts its moves are the game's.
    async fn until(&mut self, c: &mut ApiClient, id: &str, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let game = self.next_state().await;
            if pred(&game) {
                let stored = c.get(&format!("/api/games/{id}")).await.expect("get").body;
                assert_eq!(
                    game["moves"], stored["moves"],
                    "the kept list is the game's (states read: {:?})",
                    self.froms
                );
                assert_eq!(game["ply"], stored["ply"]);
                return game;
            }
        }
    }
}

/// The side to move (`white` or `black`) plays the game's first legal move.
async fn play_first_legal(white: &mut ApiClient, black: &mut ApiClient, id: &str) {
    let view = white
        .get(&format!("/api/games/{id}"))
        .await
        .expect("get")
        .body;
    let mv = view["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    let mover = if view["turn"] == "white" {
        white
    } else {
        black
    };
    play(mover, id, &mv).await;
}

fn ply_is(n: u64) -> impl Fn(&Value) -> bool {
    move |g| g["ply"].as_u64() == Some(n)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changes_socket_keeps_the_moves_through_moves_and_takebacks() {
    let srv = TestServer::start(&sqlite_url("ws-changes")).await;
    let mut a = srv.client();
    let mut b = srv.client();
    let g = create_and_join(
        &mut a,
        &mut b,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut mine = Held::open(&a, &id).await;
    let mut theirs = Held::open(&b, &id).await;
    let mut watcher = Held::open(&srv.client(), &id).await;
    // A socket of whole states, beside them, is unchanged.
    let mut whole = srv.client().ws(&id).await.expect("ws");
    first_state(&mut whole).await;

    for ply in 1..=5u64 {
        play_first_legal(&mut a, &mut b, &id).await;
        for held in [&mut mine, &mut theirs, &mut watcher] {
            let game = held.until(&mut a, &id, ply_is(ply)).await;
            assert_eq!(game["moves"].as_array().map(Vec::len), Some(ply as usize));
            assert_eq!(
                held.froms.last(),
                Some(&Some(ply - 1)),
                "a move's state carries that move alone"
            );
        }
        let w = wait_state(&mut whole, |g| g["ply"].as_u64() == Some(ply)).await;
        assert!(
            w.get("moves_from").is_none()
                && w["moves"].as_array().map(Vec::len) == Some(ply as usize),
            "moves=all (the default) sends the whole list"
        );
    }

    // An offer changes no move: an empty tail from the end.
    let offered = a
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"action": "offer"}),
        )
        .await
        .expect("request");
    assert_eq!(offered.status, 200, "{}", offered.text);
    let game = watcher
        .until(&mut a, &id, |g| g["takeback_offer"].is_string())
        .await;
    assert_eq!(game["ply"], 5);
    assert_eq!(watcher.froms.last(), Some(&Some(5)));

    // A takeback cuts the list: the next state is whole.
    let accepted = b
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"action": "accept"}),
        )
        .await
        .expect("request");
    assert_eq!(accepted.status, 200, "{}", accepted.text);
    let back = accepted.body["ply"].as_u64().expect("ply");
    assert!(back < 5, "a move was taken back: {}", accepted.text);
    for held in [&mut mine, &mut theirs, &mut watcher] {
        held.until(&mut a, &id, ply_is(back)).await;
        assert_eq!(
            held.froms.last(),
            Some(&None),
            "the state after a takeback is whole"
        );
    }

    // And the moves after it are sent alone again.
    play_first_legal(&mut a, &mut b, &id).await;
    for held in [&mut mine, &mut theirs, &mut watcher] {
        held.until(&mut a, &id, ply_is(back + 1)).await;
        assert_eq!(held.froms.last(), Some(&Some(back)));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_moves_itself_gets_its_move_alone() {
    let srv = TestServer::start(&sqlite_url("ws-changes-own")).await;
    let mut me = srv.client();
    let g = create(&mut me, json!({"variant": "iceage", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut held = Held::open(&me, &id).await;
    let mut game = g;
    for ply in 0..4u64 {
        let mv = game["legal"][0]["id"]
            .as_str()
            .expect("a legal move")
            .to_string();
        server::client::send_json(
            &mut held.ws,
            &json!({"type": "move", "move": mv, "ply": ply}),
        )
        .await
        .expect("send");
        game = held.until(&mut me, &id, ply_is(ply + 1)).await;
        assert_eq!(held.froms.last(), Some(&Some(ply)));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_query_it_does_not_know_is_refused_by_name() {
    let srv = TestServer::start(&sqlite_url("ws-changes-query")).await;
    let mut me = srv.client();
    let g = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    for (query, named) in [("moves=some", "moves=\\\"some\\\""), ("after=3", "after")] {
        let a = me
            .get(&format!("/api/games/{id}/ws?{query}"))
            .await
            .expect("request");
        assert_error(&a, 400, "bad_request");
        assert!(a.text.contains(named), "{query}: {}", a.text);
        assert!(
            me.ws_query(&id, query).await.is_err(),
            "{query} opened a socket"
        );
    }
    for query in ["moves=all", "moves=changes"] {
        let mut ws = me.ws_query(&id, query).await.expect("ws");
        let first = first_state(&mut ws).await;
        assert_eq!(first["id"], id.as_str());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_answer_carries_the_move_alone_for_a_client_that_holds_the_version_before() {
    let srv = TestServer::start(&sqlite_url("move-answer-changes")).await;
    let mut me = srv.client();
    let g = create(
        &mut me,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/moves");
    let mut held: Vec<Value> = Vec::new();
    let mut game = g;
    for _ in 0..6 {
        let mv = game["legal"][0]["id"]
            .as_str()
            .expect("a legal move")
            .to_string();
        let body = json!({"move": mv, "ply": game["ply"], "version": game["version"]});
        let a = me.post(&path, body.clone()).await.expect("request");
        assert_eq!(a.status, 200, "{}", a.text);
        let from = a.body["moves_from"].as_u64().expect("moves_from") as usize;
        assert_eq!(from, held.len(), "{}", a.text);
        let tail = a.body["moves"].as_array().expect("moves");
        assert_eq!(tail.len(), 1, "the move alone: {}", a.text);
        held.extend(tail.iter().cloned());
        let stored = me.get(&format!("/api/games/{id}")).await.expect("get").body;
        assert_eq!(Value::Array(held.clone()), stored["moves"]);
        // Every other field is the game's as GET shows it.
        let mut whole = a.body.clone();
        whole.as_object_mut().expect("object").remove("moves_from");
        whole["moves"] = stored["moves"].clone();
        assert_eq!(whole, stored);
        // The same move sent again (a retry) is answered whole: nothing changed.
        let again = me.post(&path, body).await.expect("request");
        assert_eq!(again.status, 200, "{}", again.text);
        assert!(again.body.get("moves_from").is_none(), "{}", again.text);
        assert_eq!(again.body["moves"], stored["moves"]);
        game = stored;
    }
    // Without `version`, or with another one, the answer is whole.
    for version in [Value::Null, json!(1), json!(i64::MAX)] {
        let mv = game["legal"][0]["id"]
            .as_str()
            .expect("a legal move")
            .to_string();
        let mut body = json!({"move": mv, "ply": game["ply"]});
        if !version.is_null() {
            body["version"] = version;
        }
        let a = me.post(&path, body).await.expect("request");
        assert_eq!(a.status, 200, "{}", a.text);
        assert!(a.body.get("moves_from").is_none(), "{}", a.text);
        let len = a.body["moves"].as_array().map(Vec::len);
        assert_eq!(len, a.body["ply"].as_u64().map(|p| p as usize));
        game = a.body;
    }
}

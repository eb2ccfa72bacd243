//! Storage: games survive a crash and a restart (SQLite always, PostgreSQL when
//! ICEBOUND_TEST_POSTGRES_URL is set, and required under CI=true); a move is stored once per
//! ply; engine games where the engine is to move get their move after a restart.

use crate::common::*;
use game::Color;
use serde_json::{Value, json};
use server::client::ApiClient;
use site_store::{MoveRow, Store, StoreError};

/// Plays up to `n` moves (the first legal one each time) in a local game; returns the
/// acknowledged move texts.
async fn play_some(
    srv: &TestServer,
    c: &mut server::client::ApiClient,
    id: &str,
    n: usize,
) -> Vec<String> {
    let _ = srv;
    let mut acked = Vec::new();
    let mut view = c.get(&format!("/api/games/{id}")).await.expect("get").body;
    for _ in 0..n {
        let Some(mv) = view["legal"]
            .get(0)
            .and_then(|m| m["id"].as_str())
            .map(str::to_string)
        else {
            break;
        };
        view = play(c, id, &mv).await;
        acked.push(
            view["moves"]
                .as_array()
                .expect("moves")
                .last()
                .expect("move")["text"]
                .as_str()
                .expect("text")
                .to_string(),
        );
    }
    acked
}

fn texts(view: &Value) -> Vec<String> {
    view["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

async fn crash_and_restart(url: &str) {
    let srv = TestServer::start(url).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let friend = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let fid = friend["id"].as_str().expect("id").to_string();
    let acked = play_some(&srv, &mut c, &id, 12).await;
    assert!(acked.len() >= 4, "some moves were played");
    srv.crash().await;

    let srv = TestServer::start(url).await;
    c.set_addr(srv.addr);
    let mut same = srv.client();
    // The same browser (same cookie) still holds its seats.
    let view = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(view.status, 200, "{}", view.text);
    assert_eq!(
        texts(&view.body),
        acked,
        "every acknowledged move is there, in order"
    );
    assert_eq!(view.body["you"], "both");
    assert_eq!(view.body["ply"], acked.len());
    let fv = c.get(&format!("/api/games/{fid}")).await.expect("get");
    assert!(
        fv.body["invite_url"].as_str().is_some(),
        "the invitation survives"
    );
    // Play goes on from the stored position.
    let more = play_some(&srv, &mut c, &id, 2).await;
    let after = same.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(texts(&after.body).len(), acked.len() + more.len());
    assert_eq!(after.body["you"], Value::Null, "a new browser is a watcher");
    srv.stop().await;
}

both_databases! {
    async fn games_survive_a_crash(url: &str) {
        crash_and_restart(url).await;
    }
}

fn rand_suffix() -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000)
        .unwrap_or(0);
    format!("{n}")
}

async fn engine_resumes(url: &str) {
    let store = Store::open(url).await.expect("open");
    let id = format!("er{}", rand_suffix());
    store
        .insert_game(&engine_white_row(&id))
        .await
        .expect("insert");
    store.close().await;
    // A server that starts on this database gives the engine its move.
    let srv = TestServer::start(url).await;
    let mut w = srv.client();
    let mut ws = w.ws(&id).await.expect("ws");
    let moved = wait_state(&mut ws, |g| g["ply"] == 1).await;
    assert_eq!(moved["moves"][0]["color"], "white");
    assert_eq!(moved["turn"], "black");
    let v = w.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(v.body["ply"], 1);
    srv.stop().await;
}

both_databases! {
    async fn engine_moves_after_restart(url: &str) {
        engine_resumes(url).await;
    }
}

async fn two_processes_on_one_database(url: &str) {
    // Two servers on one database, as behind a load balancer: each checks the stored version
    // before acting, so a server whose copy of a game is stale reloads it first.
    let a = TestServer::start(url).await;
    let b = TestServer::start(url).await;
    let mut ca = a.client();
    let g = create(
        &mut ca,
        json!({"variant": "antarctos", "opponent": "local"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut cb = ca.clone();
    cb.set_addr(b.addr);
    assert_eq!(
        cb.get(&format!("/api/games/{id}")).await.expect("get").body["ply"],
        0
    );
    play(&mut ca, &id, "c3-d4").await;
    let ok = play(&mut cb, &id, "f6-e5").await;
    assert_eq!(texts(&ok), ["c3-d4", "f6-e5"]);
    let ok = play(&mut ca, &id, "d4xf6").await;
    assert_eq!(texts(&ok), ["c3-d4", "f6-e5", "d4xf6"]);
    let back = ca.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(back.status, 200);
    a.stop().await;
    b.stop().await;
}

both_databases! {
    async fn two_processes_on_one_database(url: &str) {
        two_processes_on_one_database(url).await;
    }
}

/// `offerer` offers a takeback in game `id` and `accepter` accepts it; asserts 200 for both.
async fn take_back(offerer: &mut ApiClient, accepter: &mut ApiClient, id: &str) {
    for (c, action) in [(offerer, "offer"), (accepter, "accept")] {
        let answer = c
            .post(
                &format!("/api/games/{id}/takeback"),
                json!({"action": action}),
            )
            .await
            .expect("post");
        assert_eq!(answer.status, 200, "takeback {action}: {}", answer.text);
    }
}

/// Two servers on one database without Redis (issue 12, found by a hostile tester): B holds a
/// game in memory at ply 3 when a takeback through A stores it back at ply 2. A new socket on B
/// must start from the stored game, and White sending the taken-back move again through B is
/// a new move to store, not a retry to answer from B's stale copy (it had answered 200 and
/// stored nothing: an acknowledged move lost).
async fn a_retry_through_a_stale_server_is_checked_against_the_store(url: &str) {
    let a = TestServer::start(url).await;
    let b = TestServer::start(url).await;
    let mut white = a.client();
    let mut black = a.client();
    let g = create_and_join(
        &mut white,
        &mut black,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut white_at_b = ApiClient::with_token(b.addr, white.token().expect("token"));
    for (c, mv, ply) in [(&mut white, "c3-d4", 0), (&mut black, "f6-g5", 1)] {
        let answer = c
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "ply": ply}),
            )
            .await
            .expect("post");
        assert_eq!(answer.status, 200, "{mv}: {}", answer.text);
    }
    let through_b = white_at_b
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "g3-h4", "ply": 2}),
        )
        .await
        .expect("post");
    assert_eq!(through_b.status, 200, "{}", through_b.text);
    take_back(&mut white, &mut black, &id).await;
    assert_eq!(
        white
            .get(&format!("/api/games/{id}"))
            .await
            .expect("get")
            .body["ply"],
        2
    );
    let again = white_at_b
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "g3-h4", "ply": 2}),
        )
        .await
        .expect("post");
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body["ply"], 3, "{}", again.text);
    let stored = a
        .site
        .service()
        .store()
        .load_game(&id)
        .await
        .expect("load")
        .expect("game");
    assert_eq!(stored.0.ply, 3, "the answered move is stored");
    assert_eq!(
        stored.1.last().map(|m| m.move_id.as_str()),
        Some("g3-h4"),
        "the answered move is the stored one"
    );
    // Taken back once more through A, while B holds ply 3 again.
    take_back(&mut white, &mut black, &id).await;
    // A new socket on B: its first state is the stored one, not B's copy at ply 3.
    let mut ws = white_at_b.ws(&id).await.expect("socket on B");
    let first = first_state(&mut ws).await;
    assert_eq!(first["ply"], 2, "the first state is the stored game");
    drop(ws);
    a.stop().await;
    b.stop().await;
}

both_databases! {
    async fn a_retry_through_a_stale_server_is_checked_against_the_store(url: &str) {
        a_retry_through_a_stale_server_is_checked_against_the_store(url).await;
    }
}

#[tokio::test]
async fn racing_moves_for_one_ply_store_exactly_one() {
    let srv = TestServer::start(&sqlite_url("race")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mut tasks = Vec::new();
    for mv in [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
    ] {
        let mut cc = c.clone();
        let path = format!("/api/games/{id}/moves");
        tasks.push(tokio::spawn(async move {
            cc.post(&path, json!({"move": mv, "ply": 0}))
                .await
                .map(|a| a.status)
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.expect("task").expect("request"));
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 409),
        "{statuses:?}"
    );
    let v = c.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(v.body["ply"], 1);
    srv.stop().await;
}

/// Group commit (issue 12): 120 games, each sent two different first moves at the same
/// instant. Exactly one of each pair is stored and acknowledged, the other refused as stale
/// (rolled back alone: its batch still commits), and the moves went into fewer transactions
/// than there were moves.
async fn moves_sent_together_commit_together(url: &str) {
    let store = Store::open(url).await.expect("open");
    let games = 120;
    let ids: Vec<String> = (0..games)
        .map(|i| format!("gc{i}x{}", rand_suffix()))
        .collect();
    for id in &ids {
        store
            .insert_game(&engine_white_row(id))
            .await
            .expect("insert");
    }
    let (transactions_before, _) = store.commit_counts();
    let mut tasks = Vec::new();
    for id in &ids {
        for text in ["c3-d4", "e3-f4"] {
            let store = store.clone();
            let mut next = engine_white_row(id);
            next.ply = 1;
            next.turn = Color::Black;
            next.version = 2;
            let mv = MoveRow {
                ply: 1,
                move_id: text.into(),
                move_text: text.into(),
                fen: "x".into(),
                event: None,
                created_at: 2,
            };
            tasks.push(tokio::spawn(async move {
                (next.id.clone(), text, store.save_move(&next, &mv).await)
            }));
        }
    }
    let mut stored = std::collections::HashMap::new();
    let mut stale = 0;
    for t in tasks {
        let (id, text, result) = t.await.expect("task");
        match result {
            Ok(()) => assert!(stored.insert(id, text).is_none(), "two moves acknowledged"),
            Err(StoreError::Stale { .. }) => stale += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(stored.len(), games, "one move of each game acknowledged");
    assert_eq!(stale, games, "the other refused as stale");
    for id in &ids {
        let (row, moves) = store.load_game(id).await.expect("load").expect("exists");
        assert_eq!((row.ply, row.version), (1, 2));
        assert_eq!(moves.len(), 1, "{id}");
        assert_eq!(
            moves[0].move_text, stored[id],
            "the acknowledged move is the stored one"
        );
    }
    let (transactions, moves) = store.commit_counts();
    let transactions = transactions - transactions_before;
    eprintln!("{moves} moves in {transactions} transactions");
    assert!(
        transactions < 2 * games as u64,
        "{transactions} transactions for {} moves: no group commit",
        2 * games
    );
    store.close().await;
}

both_databases! {
    multi_thread; async fn moves_sent_together_commit_together(url: &str) {
        moves_sent_together_commit_together(url).await;
    }
}

/// Two servers on one database, without Redis (issue 12): each judges a move against its game
/// in memory first, so the other's move has made that copy stale. The move must still be
/// judged against the stored game: accepted when right, refused when stale for real.
async fn moves_through_two_servers_on_one_database(url: &str) {
    let a = TestServer::start(url).await;
    let b = TestServer::start(url).await;
    let mut white = a.client();
    let mut black = b.client();
    let g = create_and_join(
        &mut white,
        &mut black,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    // Both servers now hold the game in memory at ply 0. White moves through A, Black at once
    // through B (B's copy is at ply 0 still), and so on, each through its own server.
    let mut white_at_a = ApiClient::with_token(a.addr, white.token().expect("token"));
    let mut black_at_b = ApiClient::with_token(b.addr, black.token().expect("token"));
    let line = ["c3-d4", "f6-g5", "g3-h4", "g5-f4", "e3xg5"];
    for (ply, mv) in line.iter().enumerate() {
        let c = if ply % 2 == 0 {
            &mut white_at_a
        } else {
            &mut black_at_b
        };
        let answer = c
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": mv, "ply": ply}),
            )
            .await
            .expect("post");
        assert_eq!(answer.status, 200, "ply {ply} {mv}: {}", answer.text);
        assert_eq!(answer.body["ply"], ply + 1, "{}", answer.text);
    }
    // A move for a ply already played is refused by either server, whatever its memory held.
    let late = white_at_a
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "a3-b4", "ply": 3}),
        )
        .await
        .expect("post");
    assert_error(&late, 409, "conflict");
    // Black's turn at ply 5; A last saw ply 5 (its own move), B ply 4.
    let not_yours = white_at_a
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "h6xf4", "ply": 5}),
        )
        .await
        .expect("post");
    assert_error(&not_yours, 409, "not_your_turn");
    let stored = a
        .site
        .service()
        .store()
        .load_game(&id)
        .await
        .expect("load")
        .expect("game");
    assert_eq!(stored.1.len(), 5, "each move stored once");
    a.stop().await;
    b.stop().await;
}

both_databases! {
    multi_thread; async fn moves_through_two_servers_on_one_database(url: &str) {
        moves_through_two_servers_on_one_database(url).await;
    }
}

// The store's lease and probe tests, which need no server, are in crates/site-store/tests/it.

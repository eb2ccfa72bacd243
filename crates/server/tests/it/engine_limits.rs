//! Issue 9, section 6: one player may hold at most `MAX_ENGINE_GAMES` unfinished games against
//! the engine; another (new or rematch) is refused with `too_many_engine_games`, which says
//! what to do. Other players and games without an engine are not affected.

use crate::common::*;
use serde_json::json;
use site::play::MAX_ENGINE_GAMES;

#[tokio::test]
async fn a_player_holds_at_most_max_engine_games_unfinished() {
    let srv = TestServer::start(&sqlite_url("engine-cap")).await;
    let mut me = srv.client();
    // White moves first: the engines wait, so the test spends no search time.
    let engine =
        json!({"variant": "antarctos", "opponent": "engine", "level": 1, "color": "white"});
    let mut ids = Vec::new();
    for _ in 0..MAX_ENGINE_GAMES {
        let g = create(&mut me, engine.clone()).await;
        ids.push(g["id"].as_str().expect("id").to_string());
    }
    let refused = me
        .post("/api/games", engine.clone())
        .await
        .expect("request");
    assert_error(&refused, 409, "too_many_engine_games");
    let message = refused.body["error"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains(&format!("at most {MAX_ENGINE_GAMES}")) && message.contains("resign"),
        "{message}"
    );
    // Games without an engine, and other players, are not limited.
    create(&mut me, json!({"variant": "iceage", "opponent": "local"})).await;
    let mut other = srv.client();
    create(&mut other, engine.clone()).await;

    // A finished game no longer counts; its rematch is a new engine game and counts again.
    // (Resigned after the engine's first reply: before a game's second move a resignation
    // aborts it, and an aborted game has no rematch.)
    two_plies(&mut me, &ids[0]).await;
    two_plies(&mut me, &ids[1]).await;
    let resigned = me
        .post(&format!("/api/games/{}/resign", ids[0]), json!({}))
        .await
        .expect("resign");
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let rematch = me
        .post(&format!("/api/games/{}/rematch", ids[0]), json!({}))
        .await
        .expect("rematch");
    assert_eq!(rematch.status, 201, "{}", rematch.text);
    let again = me
        .post(&format!("/api/games/{}/resign", ids[1]), json!({}))
        .await
        .expect("resign");
    assert_eq!(again.status, 200, "{}", again.text);
    create(&mut me, engine.clone()).await;
    let refused = me
        .post(&format!("/api/games/{}/rematch", ids[1]), json!({}))
        .await
        .expect("rematch");
    assert_error(&refused, 409, "too_many_engine_games");
    srv.stop().await;
}

/// Plays the player's first legal move in engine game `id` and waits for the engine's reply.
async fn two_plies(me: &mut server::client::ApiClient, id: &str) {
    let view = me.get(&format!("/api/games/{id}")).await.expect("game");
    let mv = view.body["legal"][0]["text"]
        .as_str()
        .expect("a legal move")
        .to_string();
    play(me, id, &mv).await;
    for _ in 0..200 {
        let view = me.get(&format!("/api/games/{id}")).await.expect("game");
        if view.body["ply"].as_i64() >= Some(2) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the engine did not reply within 10 s in {id}");
}

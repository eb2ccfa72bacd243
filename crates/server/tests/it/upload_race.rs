//! Uploads (`POST /api/games/upload`, issue 42) sent while other writes run, on SQLite and,
//! when set, PostgreSQL: every one is stored. On SQLite an upload that looked for its key
//! before writing failed at once with "database is locked" (a 500) whenever another write was
//! under way (6 of 8 uploads sent at once, in a fresh tester's run); the store now writes first.

use crate::common::*;
use antarctos::Antarctos;
use game::Variant;
use serde_json::json;
use server::SiteOptions;
use server::client::ApiClient;
use server::options::RateLimits;

/// Uploads at once per round, one per level (each a different game, so each is stored).
const UPLOADS: u8 = 8;
/// Rounds, each with as many local games made and played at the same time.
const ROUNDS: usize = 3;

/// The first `plies` moves of a game where each side plays its first legal move by text.
fn opening(plies: usize) -> Vec<String> {
    let mut pos = Antarctos::start_position();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let mut legal: Vec<_> = Antarctos::legal_moves(&pos)
            .into_iter()
            .map(|mv| (Antarctos::move_text(&pos, &mv), mv))
            .collect();
        legal.sort_by(|a, b| a.0.cmp(&b.0));
        let (text, mv) = legal.swap_remove(0);
        pos = Antarctos::play(&pos, &mv).expect("a legal move plays");
        moves.push(text);
    }
    moves
}

async fn uploads_beside_other_writes(url: &str) {
    let options = SiteOptions {
        rate_limits: RateLimits::off(),
        ..SiteOptions::default()
    };
    let srv = TestServer::start_with(url, options).await;
    let mut first = srv.client();
    let mine = first.get("/api/my-games").await.expect("my games");
    assert_eq!(mine.status, 200, "{}", mine.text);
    let token = first.token().expect("a player token").to_string();

    let mut stored = Vec::new();
    for round in 0..ROUNDS {
        let mut tasks = Vec::new();
        for level in 1..=UPLOADS {
            let mut c = ApiClient::with_token(srv.addr, &token);
            // Each round's games are longer by a ply: an unfinished game the uploader
            // resigned, White's on even rounds, Black's on odd ones.
            let white = round % 2 == 0;
            let body = json!({
                "variant": "antarctos", "moves": opening(2 + round), "level": level,
                "color": if white { "white" } else { "black" },
                "result": if white { "0-1" } else { "1-0" },
            });
            tasks.push(tokio::spawn(async move {
                let a = c.post("/api/games/upload", body).await.expect("upload");
                (level, a)
            }));
            let mut other = ApiClient::with_token(srv.addr, &token);
            tasks.push(tokio::spawn(async move {
                let g = create(
                    &mut other,
                    json!({"variant": "antarctos", "opponent": "local"}),
                )
                .await;
                let id = g["id"].as_str().expect("an id").to_string();
                let a = other
                    .post(
                        &format!("/api/games/{id}/moves"),
                        json!({"move": "c3-d4", "ply": 0}),
                    )
                    .await
                    .expect("a move");
                (0, a)
            }));
        }
        for task in tasks {
            let (level, a) = task.await.expect("a task");
            if level == 0 {
                assert_eq!(a.status, 200, "a move beside the uploads: {}", a.text);
            } else {
                assert_eq!(a.status, 201, "round {round}, level {level}: {}", a.text);
                stored.push(a.body["id"].as_str().expect("an id").to_string());
            }
        }
    }
    stored.sort();
    stored.dedup();
    assert_eq!(
        stored.len(),
        ROUNDS * usize::from(UPLOADS),
        "one game per upload"
    );
    srv.stop().await;
}

both_databases! {
    async fn uploads_are_stored_beside_other_writes(url: &str) {
        uploads_beside_other_writes(url).await;
    }
}

//! Boosting (issue 41, store::ratings): two accounts play rated games and resign to each
//! other at once, in turn (so that neither reaches the sandbagging hold of 4 quick losses:
//! `sandbag.rs`). Their first 5 rated games of a day count; the sixth ends unrated, and its
//! view says why (`"unrated": "pair_limit"`), to both players.

use crate::common::lobby::{account, first_legal, get, post, seek, start};
use crate::common::*;
use serde_json::{Value, json};

async fn boosting_pair(url: &str) {
    let srv = start(url).await;
    let (mut ann, _) = account(&srv, "ann").await;
    let (mut bob, bob_name) = account(&srv, "bob").await;
    let mut counted = Vec::new();
    for round in 0..6 {
        // Ann seeks as White, Bob accepts, each plays a move, Bob resigns (Ann in odd rounds).
        let id = seek(
            &mut ann,
            json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 1},
                   "rated": true, "color": "white"}),
        )
        .await;
        let g = post(&mut bob, &format!("/api/seeks/{id}/accept"), json!({})).await;
        assert_eq!(g.status, 201, "{}", g.text);
        let game = g.body["id"].as_str().expect("id").to_string();
        let first = first_legal(&mut ann, &game).await;
        play(&mut ann, &game, &first).await;
        let reply = first_legal(&mut bob, &game).await;
        play(&mut bob, &game, &reply).await;
        let (loser, winner) = if round % 2 == 0 {
            (&mut bob, &mut ann)
        } else {
            (&mut ann, &mut bob)
        };
        let over = post(loser, &format!("/api/games/{game}/resign"), json!({})).await;
        assert_eq!(over.status, 200, "round {round}: {}", over.text);
        assert_eq!(over.body["rated"], true);
        // Both players see the same end (the loser's answer, the winner's read).
        let seen = get(winner, &format!("/api/games/{game}")).await.body;
        for view in [&over.body, &seen] {
            assert_eq!(
                view["ratings"].is_null(),
                round >= 5,
                "round {round}: {view}"
            );
            let unrated = if round >= 5 {
                json!("pair_limit")
            } else {
                Value::Null
            };
            assert_eq!(view["unrated"], unrated, "round {round}: {view}");
        }
        counted.push(!over.body["ratings"].is_null());
    }
    assert_eq!(counted, [true, true, true, true, true, false]);
    // Bob's rating counts 5 games.
    let profile = get(&mut ann, &format!("/api/players/{bob_name}"))
        .await
        .body;
    let games = profile["ratings"]["antarctos"]["correspondence"]["games"].clone();
    assert_eq!(games, 5, "{profile}");
    srv.stop().await;
}

both_databases! {
    async fn a_boosting_pair_counts_five_rated_games_a_day(url: &str) {
        boosting_pair(url).await;
    }
}

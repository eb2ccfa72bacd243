//! Sandbagging (issue 41, store::sandbag): a player who resigns rated games quickly to one
//! opponent is warned once at the 3rd quick loss, and from the 4th their rated games against
//! that opponent change no ratings; an honest series of long games never triggers it. A loss
//! on the board counts as a resignation does, and games of one pair in several rating pools
//! ending at once are counted one after another (issue 41's hostile round, findings 9, 10, 16).

use crate::common::lobby::{account, first_legal, get, post, seek, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

/// A rated correspondence game: `white` seeks, `black` accepts; its id.
async fn rated_game(white: &mut ApiClient, black: &mut ApiClient) -> String {
    let id = seek(
        white,
        json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 1},
               "rated": true, "color": "white"}),
    )
    .await;
    let g = post(black, &format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    g.body["id"].as_str().expect("id").to_string()
}

/// Plays first legal moves, `white` and `black` in turn, until `plies` are played or the game
/// ends; whether it still goes on.
async fn moves(white: &mut ApiClient, black: &mut ApiClient, game: &str, plies: i64) -> bool {
    loop {
        let v = get(white, &format!("/api/games/{game}")).await.body;
        if v["status"] != "ongoing" {
            return false;
        }
        let ply = v["ply"].as_i64().expect("ply");
        if ply >= plies {
            return true;
        }
        let c = if ply % 2 == 0 {
            &mut *white
        } else {
            &mut *black
        };
        let mv = first_legal(c, game).await;
        play(c, game, &mv).await;
    }
}

/// The `sandbag_warning` notifications of `c`.
async fn warnings(c: &mut ApiClient) -> Vec<Value> {
    let a = get(c, "/api/notifications").await;
    a.body["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|n| n["kind"] == "sandbag_warning")
        .cloned()
        .collect()
}

/// `name`'s Antarctos correspondence rating: `(rating, games)`.
async fn rating(c: &mut ApiClient, name: &str) -> (Value, Value) {
    let p = get(c, &format!("/api/players/{name}")).await.body;
    let r = &p["ratings"]["antarctos"]["correspondence"];
    (r["rating"].clone(), r["games"].clone())
}

async fn quick_resigner(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "ann").await;
    let (mut bob, bob_name) = account(&srv, "bob").await;
    let mut unrated = Vec::new();
    for round in 0..5 {
        let game = rated_game(&mut ann, &mut bob).await;
        assert!(moves(&mut ann, &mut bob, &game, 2).await);
        let before = (
            rating(&mut ann, &ann_name).await,
            rating(&mut bob, &bob_name).await,
        );
        let over = post(&mut bob, &format!("/api/games/{game}/resign"), json!({})).await;
        assert_eq!(over.status, 200, "round {round}: {}", over.text);
        let seen = get(&mut ann, &format!("/api/games/{game}")).await.body;
        assert_eq!(seen["unrated"], over.body["unrated"], "round {round}");
        unrated.push(over.body["unrated"].clone());
        // The warning comes with the 3rd quick loss, once.
        let warned = warnings(&mut bob).await;
        assert_eq!(
            warned.len(),
            usize::from(round >= 2),
            "round {round}: {warned:?}"
        );
        if round == 2 {
            assert_eq!(warned[0]["game"], json!(game));
            assert_eq!(warned[0]["by"], json!(ann_name));
        }
        assert!(
            warnings(&mut ann).await.is_empty(),
            "the winner is not warned"
        );
        let after = (
            rating(&mut ann, &ann_name).await,
            rating(&mut bob, &bob_name).await,
        );
        if round >= 3 {
            assert!(
                over.body["ratings"].is_null(),
                "round {round}: {}",
                over.text
            );
            assert_eq!(before, after, "round {round}: no rating changes");
        } else {
            assert!(
                !over.body["ratings"].is_null(),
                "round {round}: {}",
                over.text
            );
        }
    }
    let sandbag = json!("sandbag");
    assert_eq!(
        unrated,
        [
            Value::Null,
            Value::Null,
            Value::Null,
            sandbag.clone(),
            sandbag
        ]
    );
    assert_eq!(rating(&mut ann, &bob_name).await.1, 3);
    // Held against Ann, Bob still plays rated games with others, and Ann with others.
    let (mut cid, _) = account(&srv, "cid").await;
    let game = rated_game(&mut bob, &mut cid).await;
    assert!(moves(&mut bob, &mut cid, &game, 2).await);
    let over = post(&mut cid, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(over.status, 200, "{}", over.text);
    assert!(!over.body["ratings"].is_null(), "{}", over.text);
    srv.stop().await;
}

/// A loss on the board in 11 plies, as the hostile round found it: White breaks through.
pub(crate) const BREAKTHROUGH_11: [&str; 11] = [
    "c3-d4", "f6-e5", "d4xf6", "e7xg5", "a3-b4", "d6xf4", "g3xe5", "b6-c5", "b4xd6", "f8-e7",
    "d6xf8",
];

/// Plays [`BREAKTHROUGH_11`] in Antarctos game `game`; the view after the last ply.
pub(crate) async fn hand_over_a_breakthrough(
    white: &mut ApiClient,
    black: &mut ApiClient,
    game: &str,
) -> Value {
    let mut last = Value::Null;
    for (ply, mv) in BREAKTHROUGH_11.iter().enumerate() {
        let c = if ply % 2 == 0 {
            &mut *white
        } else {
            &mut *black
        };
        last = play(c, game, mv).await;
    }
    last
}

async fn board_loser(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "ann").await;
    let (mut bob, bob_name) = account(&srv, "bob").await;
    let mut unrated = Vec::new();
    for round in 0..5 {
        // Ann white, Bob black: Bob lets Ann through.
        let game = rated_game(&mut ann, &mut bob).await;
        hand_over_a_breakthrough(&mut ann, &mut bob, &game).await;
        let v = get(&mut bob, &format!("/api/games/{game}")).await.body;
        assert_eq!(v["status"], "finished", "round {round}: {v}");
        assert_eq!(v["result"]["reason"], "breakthrough", "round {round}: {v}");
        assert_eq!(v["ply"], 11, "round {round}: {v}");
        unrated.push(v["unrated"].clone());
        assert_eq!(
            warnings(&mut bob).await.len(),
            usize::from(round >= 2),
            "round {round}: the warning comes with the 3rd quick loss"
        );
    }
    let sandbag = json!("sandbag");
    assert_eq!(
        unrated,
        [
            Value::Null,
            Value::Null,
            Value::Null,
            sandbag.clone(),
            sandbag
        ]
    );
    assert_eq!(rating(&mut ann, &bob_name).await.1, 3);
    assert_eq!(rating(&mut bob, &ann_name).await.1, 3);
    srv.stop().await;
}

/// Four rated games of one pair, one per rating pool, brought to ply 2; the loser's client
/// resigns them all at once. Whatever the order, the 4th quick loss is held and one warning
/// is made.
async fn pools_at_once(url: &str) {
    let srv = start(url).await;
    let (mut ann, _) = account(&srv, "ann").await;
    let (mut bob, _) = account(&srv, "bob").await;
    let realtime = json!({"kind": "realtime", "initial_s": 300, "increment_s": 0});
    let corr = json!({"kind": "correspondence", "days": 3});
    let mut games = Vec::new();
    for variant in ["antarctos", "iceage"] {
        for tc in [&realtime, &corr] {
            let g = create_and_join(
                &mut ann,
                &mut bob,
                json!({"variant": variant, "opponent": "friend", "color": "white",
                       "rated": true, "time_control": tc}),
            )
            .await;
            let id = g["id"].as_str().expect("id").to_string();
            assert!(moves(&mut ann, &mut bob, &id, 2).await);
            games.push(id);
        }
    }
    let resign = |id: String| {
        let mut c = bob.clone();
        async move {
            let a = post(&mut c, &format!("/api/games/{id}/resign"), json!({})).await;
            assert_eq!(a.status, 200, "{}", a.text);
            a.body["unrated"].clone()
        }
    };
    let mut it = games.into_iter();
    let (a, b, c, d) = tokio::join!(
        resign(it.next().expect("1")),
        resign(it.next().expect("2")),
        resign(it.next().expect("3")),
        resign(it.next().expect("4"))
    );
    let held = [a, b, c, d]
        .iter()
        .filter(|u| **u == json!("sandbag"))
        .count();
    assert_eq!(held, 1, "the 4th quick loss of the pair, in whatever pool");
    assert_eq!(warnings(&mut bob).await.len(), 1, "one warning");
    srv.stop().await;
}

async fn honest_series(url: &str) {
    let srv = start(url).await;
    let (mut ann, _) = account(&srv, "ann").await;
    let (mut bob, bob_name) = account(&srv, "bob").await;
    let mut played = 0;
    for round in 0..5 {
        let game = rated_game(&mut ann, &mut bob).await;
        if moves(&mut ann, &mut bob, &game, 20).await {
            let over = post(&mut bob, &format!("/api/games/{game}/resign"), json!({})).await;
            assert_eq!(over.status, 200, "round {round}: {}", over.text);
        }
        let v = get(&mut bob, &format!("/api/games/{game}")).await.body;
        assert_eq!(v["status"], "finished", "round {round}: {v}");
        assert!(v["unrated"].is_null(), "round {round}: {v}");
        assert!(!v["ratings"].is_null(), "round {round}: {v}");
        played += 1;
    }
    assert!(warnings(&mut bob).await.is_empty());
    assert!(warnings(&mut ann).await.is_empty());
    assert_eq!(rating(&mut ann, &bob_name).await.1, played);
    srv.stop().await;
}

both_databases! {
    async fn quick_resignations_warn_once_then_stop_counting(url: &str) {
        quick_resigner(url).await;
    }
}

both_databases! {
    async fn an_honest_series_of_long_games_is_never_held(url: &str) {
        honest_series(url).await;
    }
}

both_databases! {
    async fn quick_losses_on_the_board_count_as_resignations_do(url: &str) {
        board_loser(url).await;
    }
}

both_databases! {
    async fn one_pairs_games_in_four_pools_ending_at_once_are_counted_in_turn(url: &str) {
        pools_at_once(url).await;
    }
}

//! The "Also" items of issue 41 on the server: the lobby's seeks carry the seeker's rating
//! (provisional marked), a seek may take a rating range (shown to and accepted by only
//! accounts rated within it; never by an anonymous player), and the game view carries each
//! account's rating beside its name while the game is played.

use crate::common::lobby::{account, first_legal, get, listed, post, seek, start};
use crate::common::*;
use serde_json::{Value, json};

fn corr(extra: Value) -> Value {
    let mut body = json!({"variant": "antarctos",
        "time_control": {"kind": "correspondence", "days": 2}, "rated": true, "color": "white"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    body
}

async fn seeks_and_games_carry_ratings(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "ann").await;
    let (mut bob, bob_name) = account(&srv, "bob").await;
    let mut anon = srv.client();

    // A seek without a range: every player sees the seeker's rating, a new one provisional.
    let open = seek(&mut ann, corr(json!({}))).await;
    let seen = listed(&mut bob, &open).await.expect("bob sees ann's seek");
    assert_eq!(
        seen["rating"],
        json!({"rating": 1500, "provisional": true}),
        "{seen}"
    );
    assert_eq!(seen["rating_range"], Value::Null, "{seen}");
    let seen = listed(&mut anon, &open)
        .await
        .expect("an anonymous player sees it");
    assert_eq!(seen["rating"]["rating"], 1500, "{seen}");

    // A range that holds 1500: Bob sees and may accept it, the anonymous player neither.
    let within = seek(&mut ann, corr(json!({"rating_range": [1400, 1600]}))).await;
    let seen = listed(&mut bob, &within).await.expect("bob is within");
    assert_eq!(seen["rating_range"], json!([1400, 1600]), "{seen}");
    assert!(listed(&mut anon, &within).await.is_none());
    let refused = post(&mut anon, &format!("/api/seeks/{within}/accept"), json!({})).await;
    assert_eq!(refused.status, 404, "{}", refused.text);
    // The seeker sees its own seek, whatever the range.
    let above = seek(&mut ann, corr(json!({"rating_range": [1600, 1800]}))).await;
    assert!(listed(&mut ann, &above).await.is_some());
    assert!(listed(&mut bob, &above).await.is_none());
    let refused = post(&mut bob, &format!("/api/seeks/{above}/accept"), json!({})).await;
    assert_error(&refused, 404, "not_found");

    // Quick pairing does not pair Bob with the seek above his rating: he gets a seek of his
    // own (the other two of Ann's are for other terms).
    let quick = post(
        &mut bob,
        "/api/seeks/quick",
        json!({"variant": "antarctos", "rated": true,
               "time_control": {"kind": "correspondence", "days": 2}}),
    )
    .await;
    assert_eq!(quick.status, 201, "{}", quick.text);
    // Ann's seeks are older and match: the first one in range (the open one) is taken.
    let game = quick.body["game"]["id"]
        .as_str()
        .expect("paired")
        .to_string();
    let g = get(&mut bob, &format!("/api/games/{game}")).await.body;
    for side in ["white", "black"] {
        assert_eq!(
            g[side]["rating"],
            json!({"rating": 1500, "provisional": true}),
            "{side}: {g}"
        );
    }
    assert!(listed(&mut bob, &above).await.is_none(), "still hidden");

    // Ann wins the game: her next seek and game show her new rating.
    // Each side moves first (a game resigned before both moved is aborted, unrated).
    let g = get(&mut ann, &format!("/api/games/{game}")).await.body;
    let (mut first_mover, mut second) = if g["white"]["username"] == ann_name.as_str() {
        (ann, bob)
    } else {
        (bob, ann)
    };
    let first = first_legal(&mut first_mover, &game).await;
    play(&mut first_mover, &game, &first).await;
    let reply = first_legal(&mut second, &game).await;
    play(&mut second, &game, &reply).await;
    let (mut ann, mut bob) = if g["white"]["username"] == ann_name.as_str() {
        (first_mover, second)
    } else {
        (second, first_mover)
    };
    let over = post(&mut bob, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(over.status, 200, "{}", over.text);
    let after = over.body["ratings"]["white"]["after"]
        .as_i64()
        .or_else(|| over.body["ratings"]["black"]["after"].as_i64());
    let ann_after = ["white", "black"]
        .iter()
        .find(|s| over.body[**s]["username"] == ann_name.as_str())
        .map(|s| over.body["ratings"][*s]["after"].as_i64().expect("after"))
        .expect("ann played");
    assert!(after.is_some() && ann_after > 1500, "{}", over.body);
    let again = seek(&mut ann, corr(json!({"color": "black"}))).await;
    let seen = listed(&mut bob, &again).await.expect("listed");
    assert_eq!(seen["rating"]["rating"], ann_after, "{seen}");
    assert_eq!(seen["rating"]["provisional"], true, "{seen}");
    let g = post(&mut bob, &format!("/api/seeks/{again}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.body["black"]["username"], ann_name.as_str());
    assert_eq!(g.body["black"]["rating"]["rating"], ann_after, "{}", g.body);
    assert_eq!(g.body["white"]["username"], bob_name.as_str());
    assert!(g.body["white"]["rating"]["rating"].as_i64() < Some(1500));
    // An unlimited game has no rating to show.
    let casual = seek(
        &mut ann,
        json!({"variant": "antarctos", "time_control": {"kind": "unlimited"}}),
    )
    .await;
    let seen = listed(&mut bob, &casual).await.expect("listed");
    assert_eq!(seen["rating"], Value::Null, "{seen}");
    srv.stop().await;
}

both_databases! {
    async fn seeks_and_games_carry_ratings_and_ranges(url: &str) {
        seeks_and_games_carry_ratings(url).await;
    }
}

#[tokio::test]
async fn a_bad_rating_range_is_refused_clearly() {
    let srv = start(&sqlite_url("also-range")).await;
    let (mut ann, _) = account(&srv, "ann").await;
    let mut anon = srv.client();
    for (body, code, words) in [
        (
            corr(json!({"rating_range": [1800, 1400]})),
            400,
            "comes first",
        ),
        (
            corr(json!({"rating_range": [-5, 1400]})),
            400,
            "out of bounds",
        ),
        (
            corr(json!({"rating_range": [1400, 9000]})),
            400,
            "out of bounds",
        ),
        (corr(json!({"rating_range": [1400]})), 400, "rating_range"),
        (corr(json!({"rating_range": "wide"})), 400, "rating_range"),
        (
            json!({"variant": "antarctos", "time_control": {"kind": "unlimited"},
                   "rating_range": [1400, 1600]}),
            400,
            "unlimited",
        ),
    ] {
        let a = post(&mut ann, "/api/seeks", body.clone()).await;
        assert_eq!(a.status, code, "{body}: {}", a.text);
        assert!(a.text.contains(words), "{body}: {}", a.text);
    }
    let body = json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 2},
                      "rating_range": [1400, 1600]});
    let a = post(&mut anon, "/api/seeks", body).await;
    assert_error(&a, 401, "not_logged_in");
    srv.stop().await;
}

//! Watch (issue 41, `GET /api/tv`): of the games in progress, the rated game of the highest
//! mean rating is shown; when it ends the next one is, a casual game only after the rated
//! ones, and none once all ended; a correspondence or unlimited game is never shown, however
//! high its players' ratings, nor a game of a marked account. SQLite only: on a shared PostgreSQL database another test's
//! games in progress would compete.

use crate::common::lobby::{account, first_legal, get, make_mod, post, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

/// A real-time friend game (30 minutes) `white` (creator) against `black` with two plies
/// played; its id.
async fn begun(white: &mut ApiClient, black: &mut ApiClient, rated: bool) -> String {
    begun_with(
        white,
        black,
        rated,
        json!({"kind": "realtime", "initial_s": 1800, "increment_s": 0}),
    )
    .await
}

/// A friend game of `time_control` with two plies played; its id.
async fn begun_with(
    white: &mut ApiClient,
    black: &mut ApiClient,
    rated: bool,
    time_control: Value,
) -> String {
    let mut body = json!({"variant": "antarctos", "opponent": "friend", "color": "white",
                          "rated": rated});
    if !time_control.is_null() {
        body["time_control"] = time_control;
    }
    let g = create_and_join(white, black, body).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mv = first_legal(white, &id).await;
    play(white, &id, &mv).await;
    let mv = first_legal(black, &id).await;
    play(black, &id, &mv).await;
    id
}

async fn resign(c: &mut ApiClient, id: &str) {
    let a = post(c, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(a.status, 200, "{}", a.text);
}

async fn tv(c: &mut ApiClient) -> Value {
    get(c, "/api/tv").await.body
}

#[tokio::test]
async fn tv_follows_the_highest_rated_game_and_switches_when_it_ends() {
    let srv = start(&sqlite_url("tv")).await;
    let (mut ann, an) = account(&srv, "ann").await;
    let (mut bob, bn) = account(&srv, "bob").await;
    let (mut cat, cn) = account(&srv, "cat").await;
    let (mut dan, dn) = account(&srv, "dan").await;
    assert_eq!(tv(&mut ann).await["game"], Value::Null);
    // Ann beats Bob in a rated game: Ann over 1500, Bob under.
    let first = begun(&mut ann, &mut bob, true).await;
    resign(&mut bob, &first).await;
    // In progress: Ann - Cat (rated, mean over 1500), Bob - Dan (rated, under 1500), and a
    // casual game Cat - Dan (1500 both: a higher mean than Bob - Dan, but casual).
    let casual = begun(&mut cat, &mut dan, false).await;
    let high = begun(&mut ann, &mut cat, true).await;
    let low = begun(&mut bob, &mut dan, true).await;
    // A rated correspondence game and an unlimited one of Ann (the highest rating) are
    // never shown: they may wait for days.
    let slow = begun_with(
        &mut ann,
        &mut dan,
        true,
        json!({"kind": "correspondence", "days": 2}),
    )
    .await;
    let unlimited = begun_with(&mut ann, &mut bob, false, Value::Null).await;
    let now = tv(&mut ann).await;
    assert_eq!(now["game"], high.as_str(), "{now}");
    assert_eq!(now["white"], an.as_str());
    assert_eq!(now["black"], cn.as_str());
    assert_eq!(now["rated"], true);
    let (wr, br) = (
        now["ratings"]["white"].as_i64().expect("white rating"),
        now["ratings"]["black"].as_i64().expect("black rating"),
    );
    assert!(wr > 1500 && br == 1500, "{now}");
    // Anyone may ask, logged in or not.
    let mut stranger = srv.client();
    assert_eq!(tv(&mut stranger).await["game"], high.as_str());
    // It ends: the next rated game, then the casual one, then none.
    resign(&mut cat, &high).await;
    let now = tv(&mut ann).await;
    assert_eq!(now["game"], low.as_str(), "{now}");
    assert_eq!(
        (now["white"].as_str(), now["black"].as_str()),
        (Some(bn.as_str()), Some(dn.as_str()))
    );
    assert!(
        now["ratings"]["white"].as_i64().expect("rating") < 1500,
        "{now}"
    );
    resign(&mut dan, &low).await;
    assert_eq!(tv(&mut ann).await["game"], casual.as_str());
    assert_eq!(
        get(&mut ann, "/api/tv?variant=antarctos").await.body["game"],
        casual.as_str()
    );
    assert_eq!(
        get(&mut ann, "/api/tv?variant=iceage").await.body["game"],
        Value::Null
    );
    resign(&mut cat, &casual).await;
    // Only the correspondence and unlimited games are left in progress: none is shown.
    let now = tv(&mut ann).await;
    assert_eq!(now["game"], Value::Null, "{now}");
    resign(&mut ann, &slow).await;
    resign(&mut ann, &unlimited).await;
    for bad in ["/api/tv?variant=chess", "/api/tv?speed=fast"] {
        let a = stranger.get(bad).await.expect("request");
        assert_error(&a, 400, "bad_request");
    }
    srv.stop().await;
}

#[tokio::test]
async fn tv_never_features_a_marked_account() {
    let srv = start(&sqlite_url("tv_marked")).await;
    let (mut ann, _) = account(&srv, "ann").await;
    let (mut bob, _) = account(&srv, "bob").await;
    let (mut cat, _) = account(&srv, "cat").await;
    let (mut dan, dn) = account(&srv, "dan").await;
    let (mut keeper, kn) = account(&srv, "keeper").await;
    make_mod(&srv, &kn).await;
    let older = begun(&mut ann, &mut bob, true).await;
    // Of equal ratings the newest is shown: Cat - Dan.
    let newer = begun(&mut cat, &mut dan, true).await;
    assert_eq!(tv(&mut ann).await["game"], newer.as_str());
    let r = post(
        &mut keeper,
        &format!("/api/mod/players/{dn}/mark"),
        json!({"mark": "cheater", "reason": "engine"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(tv(&mut ann).await["game"], older.as_str());
    resign(&mut bob, &older).await;
    // Only the marked account's game is left: none is shown.
    assert_eq!(tv(&mut ann).await["game"], Value::Null);
    resign(&mut cat, &newer).await;
    srv.stop().await;
}

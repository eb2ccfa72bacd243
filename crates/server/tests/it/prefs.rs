//! Issue 41's "Also" on the server: preferences stored per account (`GET`/`PUT
//! /api/me/prefs`, strict: an unknown field or a bad value is a 400 naming it), and the
//! profile's bio, country and recent activity (`PUT /api/me/profile`, `GET
//! /api/players/{name}`), on SQLite and PostgreSQL.

use crate::common::lobby::{account, first_legal, get, make_mod, post, seek, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::{Answer, ApiClient};

async fn put(c: &mut ApiClient, path: &str, body: Value) -> Answer {
    c.send("PUT", path, Some(&body)).await.expect("put")
}

async fn prefs_are_kept_per_account(url: &str) {
    let srv = start(url).await;
    let (mut ann, _) = account(&srv, "ann").await;
    let (mut bob, _) = account(&srv, "bob").await;
    let mut anon = srv.client();

    // Anonymous: 401 both ways (the browser keeps its own).
    let a = anon.get("/api/me/prefs").await.expect("get");
    assert_error(&a, 401, "not_logged_in");
    let a = put(&mut anon, "/api/me/prefs", json!({"zen": true})).await;
    assert_error(&a, 401, "not_logged_in");

    // Unset: the defaults.
    let defaults = json!({"mode": "system", "antarctos_board": "frost",
        "antarctos_pieces": "bone", "iceage_board": "glacier", "iceage_pieces": "cburnett",
        "volume": 70, "sound_set": "standard", "confirm_move": false, "zen": false});
    assert_eq!(get(&mut ann, "/api/me/prefs").await.body, defaults);

    // A partial PUT changes its fields and answers the whole; a later one keeps them.
    let a = put(
        &mut ann,
        "/api/me/prefs",
        json!({"zen": true, "antarctos_board": "abyss", "mode": "dark"}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["zen"], true);
    assert_eq!(a.body["iceage_board"], "glacier");
    let a = put(
        &mut ann,
        "/api/me/prefs",
        json!({"volume": 0, "confirm_move": true, "iceage_pieces": "frost",
               "sound_set": "quiet", "iceage_board": "green", "antarctos_pieces": "flat"}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    let kept = get(&mut ann, "/api/me/prefs").await.body;
    assert_eq!(
        kept,
        json!({"mode": "dark", "antarctos_board": "abyss", "antarctos_pieces": "flat",
            "iceage_board": "green", "iceage_pieces": "frost", "volume": 0,
            "sound_set": "quiet", "confirm_move": true, "zen": true})
    );
    // Another account's are its own.
    assert_eq!(get(&mut bob, "/api/me/prefs").await.body, defaults);

    // Strict: each bad body is a 400 naming the field, and changes nothing.
    for (body, words) in [
        (json!({"colour": "red"}), "unknown field 'colour'"),
        (json!({"zen": true, "sounds": 3}), "unknown field 'sounds'"),
        (json!({"mode": "sepia"}), "mode:"),
        (json!({"antarctos_board": "glacier"}), "antarctos_board:"),
        (json!({"iceage_pieces": 3}), "iceage_pieces:"),
        (json!({"volume": 101}), "volume:"),
        (json!({"volume": -1}), "volume:"),
        (json!({"volume": 50.5}), "volume:"),
        (json!({"volume": "50"}), "volume:"),
        (json!({"zen": "yes"}), "zen:"),
        (json!({"confirm_move": null}), "confirm_move:"),
        (json!([1, 2]), "JSON object"),
    ] {
        let a = put(&mut ann, "/api/me/prefs", body.clone()).await;
        assert_error(&a, 400, "bad_request");
        assert!(a.text.contains(words), "{body}: {}", a.text);
    }
    assert_eq!(get(&mut ann, "/api/me/prefs").await.body, kept);
    // A query on the GET is refused, not ignored.
    let a = ann.get("/api/me/prefs?zen=1").await.expect("get");
    assert_eq!(a.status, 400, "{}", a.text);
    srv.stop().await;
}

#[tokio::test]
async fn prefs_are_kept_per_account_sqlite() {
    prefs_are_kept_per_account(&sqlite_url("prefs")).await;
}

#[tokio::test]
async fn prefs_are_kept_per_account_postgres() {
    let Some(pg) = test_support::store::postgres_url() else {
        return;
    };
    prefs_are_kept_per_account(&pg).await;
}

async fn profiles_show_bio_country_and_activity(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "ann").await;
    let (mut bob, bob_name) = account(&srv, "bob").await;
    let mut anon = srv.client();

    // Before: no bio, no country, no activity.
    let p = get(&mut anon, &format!("/api/players/{ann_name}"))
        .await
        .body;
    assert_eq!(p["bio"], Value::Null, "{p}");
    assert_eq!(p["country"], Value::Null, "{p}");
    assert_eq!(
        p["activity"],
        json!({"games": [], "tournaments": [], "puzzles": {"attempted": 0, "solved": 0},
               "follows": []}),
        "{p}"
    );

    // A bio is text: markup is kept as characters, never read; a country code in any case.
    let bio = "Ice <b>lover</b> & \"Antarctos\" fan\nsecond line";
    let a = put(
        &mut ann,
        "/api/me/profile",
        json!({"bio": format!("  {bio} "), "country": "tr"}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body, json!({"bio": bio, "country": "TR"}));
    let p = get(&mut bob, &format!("/api/players/{ann_name}"))
        .await
        .body;
    assert_eq!(p["bio"], bio, "{p}");
    assert_eq!(p["country"], "TR", "{p}");

    // Refused, naming the field; nothing changes.
    for (body, words) in [
        (json!({"bio": "a\u{202E}b"}), "bio: the character U+202E"),
        (json!({"bio": "nul\u{0}here"}), "bio: the character U+0000"),
        (json!({"bio": "x".repeat(401)}), "bio: 401 characters"),
        (json!({"bio": "l\n".repeat(9)}), "bio: at most 8 lines"),
        (json!({"country": "XX"}), "country: 'XX'"),
        (json!({"country": "FRA"}), "country: 'FRA'"),
        (json!({"country": 33}), "country"),
        (json!({"website": "x"}), "website"),
    ] {
        let a = put(&mut ann, "/api/me/profile", body.clone()).await;
        assert_error(&a, 400, "bad_request");
        assert!(a.text.contains(words), "{body}: {}", a.text);
    }
    let a = put(&mut anon, "/api/me/profile", json!({"bio": "hi"})).await;
    assert_error(&a, 401, "not_logged_in");
    let p = get(&mut anon, &format!("/api/players/{ann_name}"))
        .await
        .body;
    assert_eq!(
        (p["bio"].as_str(), p["country"].as_str()),
        (Some(bio), Some("TR"))
    );
    // 400 characters exactly are kept; the empty text removes the country only.
    let a = put(
        &mut ann,
        "/api/me/profile",
        json!({"bio": "é".repeat(400), "country": ""}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body, json!({"bio": "é".repeat(400), "country": null}));

    // Activity: a follow, then a finished game with its result.
    let f = post(
        &mut ann,
        &format!("/api/players/{bob_name}/follow"),
        json!({}),
    )
    .await;
    assert!(f.status < 300, "{}", f.text);
    let open = seek(
        &mut ann,
        json!({"variant": "antarctos", "rated": true, "color": "white",
               "time_control": {"kind": "correspondence", "days": 2}}),
    )
    .await;
    let g = post(&mut bob, &format!("/api/seeks/{open}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    let game = g.body["id"].as_str().expect("game id").to_string();
    let mv = first_legal(&mut ann, &game).await;
    play(&mut ann, &game, &mv).await;
    let mv = first_legal(&mut bob, &game).await;
    play(&mut bob, &game, &mv).await;
    let over = post(&mut bob, &format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(over.status, 200, "{}", over.text);

    let p = get(&mut anon, &format!("/api/players/{ann_name}"))
        .await
        .body;
    let act = &p["activity"];
    assert_eq!(act["follows"][0]["username"], bob_name.as_str(), "{act}");
    assert_eq!(act["games"][0]["id"], game.as_str(), "{act}");
    assert_eq!(act["games"][0]["outcome"], "win", "{act}");
    assert_eq!(act["games"][0]["opponent"]["username"], bob_name.as_str());
    let p = get(&mut anon, &format!("/api/players/{bob_name}"))
        .await
        .body;
    assert_eq!(p["activity"]["games"][0]["outcome"], "loss", "{p}");
    assert_eq!(p["activity"]["follows"], json!([]), "{p}");
    srv.stop().await;
}

#[tokio::test]
async fn profiles_show_bio_country_and_activity_sqlite() {
    profiles_show_bio_country_and_activity(&sqlite_url("profile")).await;
}

#[tokio::test]
async fn profiles_show_bio_country_and_activity_postgres() {
    let Some(pg) = test_support::store::postgres_url() else {
        return;
    };
    profiles_show_bio_country_and_activity(&pg).await;
}

/// A bio is public text a moderator silences as chat (the third hostile round's finding 3):
/// chat's drawing rules, no new bio while muted, none shown while muted or once closed.
async fn bios_follow_chat_rules_and_moderators(url: &str) {
    let srv = start(url).await;
    let (mut ann, ann_name) = account(&srv, "ann").await;
    let (mut keeper, keeper_name) = account(&srv, "keeper").await;
    make_mod(&srv, &keeper_name).await;
    let mut anon = srv.client();
    let zalgo = format!("gg a{} carol", "\u{0300}".repeat(360));
    for (bio, words) in [
        (zalgo.as_str(), "bio: more than 4 combining marks"),
        ("\u{200B}\u{3164}", "bio: the message shows nothing"),
        ("x\u{E0041}", "bio: the tag character U+E0041"),
    ] {
        let a = put(&mut ann, "/api/me/profile", json!({"bio": bio})).await;
        assert_error(&a, 400, "bad_request");
        assert!(a.text.contains(words), "{bio:?}: {}", a.text);
    }
    let a = put(&mut ann, "/api/me/profile", json!({"bio": "carol cheats"})).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let bio = |p: Value| p["bio"].clone();
    let path = format!("/api/players/{ann_name}");
    assert_eq!(bio(get(&mut anon, &path).await.body), "carol cheats");
    let r = post(
        &mut keeper,
        &format!("/api/mod/players/{ann_name}/mute"),
        json!({"reason": "abuse", "minutes": 60}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(bio(get(&mut anon, &path).await.body), Value::Null);
    let a = put(&mut ann, "/api/me/profile", json!({"bio": "still talking"})).await;
    assert_error(&a, 403, "muted");
    assert!(a.text.contains("no new bio"), "{}", a.text);
    // Removing it is always allowed.
    let a = put(&mut ann, "/api/me/profile", json!({"bio": ""})).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let a = put(&mut ann, "/api/me/profile", json!({"country": "FR"})).await;
    assert_eq!(a.status, 200, "{}", a.text);
    // Unmuted, a bio again; a close hides it.
    let r = post(
        &mut keeper,
        &format!("/api/mod/players/{ann_name}/unmute"),
        json!({"reason": "over"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let a = put(&mut ann, "/api/me/profile", json!({"bio": "carol cheats"})).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(bio(get(&mut anon, &path).await.body), "carol cheats");
    let r = post(
        &mut keeper,
        &format!("/api/mod/players/{ann_name}/close"),
        json!({"reason": "troll"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(bio(get(&mut anon, &path).await.body), Value::Null);
    srv.stop().await;
}

both_databases! {
    async fn bios_follow_chat_rules_and_moderators_silence_them(url: &str) {
        bios_follow_chat_rules_and_moderators(url).await;
    }
}

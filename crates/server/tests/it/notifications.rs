//! Notifications (issue 38): "your move" and "game over" of correspondence games (none for
//! real-time ones), a challenge received and accepted, a seek accepted, read marks (only one's
//! own), the 100 kept, the low-time reminders (once, with two processes looking at once), and
//! the live count over server-sent events, woken at once in this process and, through Redis,
//! in another. On SQLite, and on PostgreSQL when `ICEBOUND_TEST_POSTGRES_URL` is set.

use std::time::Duration;

use crate::common::lobby::{account, first_legal, get, post, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;
use site_model::notifications::NotificationKind;
use site_store::NewNotification;

fn correspondence(days: i64) -> Value {
    json!({"kind": "correspondence", "days": days})
}

/// Plays the first legal move of game `id` (Ice Age Chess starts with ice at random).
async fn play_any(c: &mut ApiClient, id: &str) {
    let mv = first_legal(c, id).await;
    play(c, id, &mv).await;
}

/// `c`'s notifications: `(unread, items)`.
async fn notes(c: &mut ApiClient) -> (i64, Vec<Value>) {
    let a = get(c, "/api/notifications").await;
    let unread = a.body["unread"].as_i64().expect("unread");
    (unread, a.body["items"].as_array().expect("items").clone())
}

/// The items of kind `kind`.
fn of_kind<'a>(items: &'a [Value], kind: &str) -> Vec<&'a Value> {
    items.iter().filter(|n| n["kind"] == kind).collect()
}

/// A correspondence (or `control`) friend game between two accounts; the creator is White.
async fn account_game(
    srv: &TestServer,
    control: Value,
) -> (ApiClient, String, ApiClient, String, String) {
    let (mut w, wname) = account(srv, "nw").await;
    let (mut b, bname) = account(srv, "nb").await;
    let g = create_and_join(
        &mut w,
        &mut b,
        json!({"variant": "iceage", "opponent": "friend", "color": "white", "time_control": control}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    (w, wname, b, bname, id)
}

async fn turns_and_ends(url: &str) {
    let srv = start(url).await;
    let (mut w, wname, mut b, bname, id) = account_game(&srv, correspondence(3)).await;
    assert_eq!(notes(&mut w).await.0, 0);
    assert_eq!(notes(&mut b).await.0, 0);
    play_any(&mut w, &id).await;
    let (unread, items) = notes(&mut b).await;
    assert_eq!(unread, 1, "{items:?}");
    let n = &items[0];
    assert_eq!(n["kind"], "your_move");
    assert_eq!(n["game"], id.as_str());
    assert_eq!(n["by"], wname.as_str());
    assert_eq!(n["read"], false);
    assert!(n["text"].as_str().unwrap().contains(&wname), "{n}");
    assert!(n["at"].as_i64().unwrap() > 0);
    assert_eq!(n["id"].as_str().unwrap().len(), 16);
    assert_eq!(notes(&mut w).await.0, 0, "the mover is not told");
    play_any(&mut b, &id).await;
    play_any(&mut w, &id).await;
    let (_, items) = notes(&mut b).await;
    assert_eq!(
        of_kind(&items, "your_move").len(),
        2,
        "one per turn: {items:?}"
    );
    let (_, items) = notes(&mut w).await;
    assert_eq!(of_kind(&items, "your_move").len(), 1);
    // Black resigns: both are told, each with its own outcome.
    let r = post(&mut b, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (_, items) = notes(&mut w).await;
    let over = of_kind(&items, "game_over");
    assert_eq!(over.len(), 1, "{items:?}");
    assert!(
        over[0]["text"].as_str().unwrap().contains("you won"),
        "{}",
        over[0]
    );
    assert_eq!(over[0]["by"], bname.as_str());
    let (_, items) = notes(&mut b).await;
    let over = of_kind(&items, "game_over");
    assert_eq!(over.len(), 1);
    assert!(over[0]["text"].as_str().unwrap().contains("you lost"));
    // A real-time game notifies nothing, move by move or at its end.
    let (mut rw, _, mut rb, _, rid) = account_game(
        &srv,
        json!({"kind": "realtime", "initial_s": 300, "increment_s": 0}),
    )
    .await;
    play_any(&mut rw, &rid).await;
    play_any(&mut rb, &rid).await;
    let r = post(&mut rb, &format!("/api/games/{rid}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(notes(&mut rw).await, (0, vec![]));
    assert_eq!(notes(&mut rb).await, (0, vec![]));
    srv.stop().await;
}

#[tokio::test]
async fn correspondence_turns_and_ends_notify_sqlite() {
    turns_and_ends(&sqlite_url("notify-turns")).await;
}

#[tokio::test]
async fn correspondence_turns_and_ends_notify_postgres() {
    let Some(pg) = test_support::store::postgres_url() else {
        return;
    };
    turns_and_ends(&pg).await;
}

#[tokio::test]
async fn read_marks_touch_only_ones_own() {
    let srv = start(&sqlite_url("notify-read")).await;
    let (mut w, _, mut b, _, id) = account_game(&srv, correspondence(2)).await;
    play_any(&mut w, &id).await;
    play_any(&mut b, &id).await;
    play_any(&mut w, &id).await;
    let (unread, items) = notes(&mut b).await;
    assert_eq!(unread, 2);
    let theirs: Vec<String> = items
        .iter()
        .map(|n| n["id"].as_str().unwrap().to_string())
        .collect();
    // White names Black's ids: nothing of Black's changes, and no error tells them apart.
    let r = post(&mut w, "/api/notifications/read", json!({"ids": theirs})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["unread"], 1, "White's own stays unread");
    assert_eq!(notes(&mut b).await.0, 2);
    // Black marks one, then all.
    let r = post(
        &mut b,
        "/api/notifications/read",
        json!({"ids": [theirs[0]]}),
    )
    .await;
    assert_eq!(r.body["unread"], 1, "{}", r.text);
    let (_, items) = notes(&mut b).await;
    assert_eq!(items[0]["read"], true);
    assert_eq!(items[1]["read"], false);
    let r = post(&mut b, "/api/notifications/read", json!({"all": true})).await;
    assert_eq!(r.body["unread"], 0, "{}", r.text);
    // Bad bodies say what is wrong.
    let too_many: Vec<String> = (0..101).map(|i| format!("x{i}")).collect();
    for (body, says) in [
        (json!({}), "send"),
        (json!({"all": false}), "all"),
        (json!({"all": true, "ids": []}), "not both"),
        (json!({"ids": ["ok", "no-pe"]}), "ids[1]"),
        (json!({"ids": too_many}), "at most 100"),
        (json!({"ids": "abc"}), "ids"),
        (json!({"every": true}), "every"),
    ] {
        let r = post(&mut b, "/api/notifications/read", body.clone()).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        let message = r.body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{body}: {message}");
    }
    srv.stop().await;
}

#[tokio::test]
async fn challenges_and_seeks_notify_their_owners() {
    let srv = start(&sqlite_url("notify-lobby")).await;
    let (mut a, aname) = account(&srv, "ca").await;
    let (mut b, bname) = account(&srv, "cb").await;
    let c = post(
        &mut a,
        "/api/challenges",
        json!({"username": bname, "variant": "antarctos", "time_control": correspondence(3), "color": "white"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let challenge = c.body["id"].as_str().unwrap().to_string();
    let (unread, items) = notes(&mut b).await;
    assert_eq!(unread, 1);
    assert_eq!(items[0]["kind"], "challenge");
    assert_eq!(items[0]["by"], aname.as_str());
    assert!(items[0].get("game").is_none(), "no game yet: {}", items[0]);
    let g = post(
        &mut b,
        &format!("/api/challenges/{challenge}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let game = g.body["id"].as_str().unwrap();
    let (_, items) = notes(&mut a).await;
    let accepted = of_kind(&items, "challenge_accepted");
    assert_eq!(accepted.len(), 1, "{items:?}");
    assert_eq!(accepted[0]["game"], game);
    assert!(
        accepted[0]["text"].as_str().unwrap().contains("your move"),
        "White, the challenger, moves first: {}",
        accepted[0]
    );
    // A seek accepted tells its owner.
    let s = post(
        &mut a,
        "/api/seeks",
        json!({"variant": "iceage", "time_control": correspondence(5), "color": "black"}),
    )
    .await;
    assert_eq!(s.status, 201, "{}", s.text);
    let seek = s.body["id"].as_str().unwrap();
    let g = post(&mut b, &format!("/api/seeks/{seek}/accept"), json!({})).await;
    assert_eq!(g.status, 201, "{}", g.text);
    let (_, items) = notes(&mut a).await;
    let accepted = of_kind(&items, "seek_accepted");
    assert_eq!(accepted.len(), 1, "{items:?}");
    assert_eq!(accepted[0]["by"], bname.as_str());
    assert!(!accepted[0]["text"].as_str().unwrap().contains("your move"));
    // A declined challenge's notification is read too.
    let c = post(
        &mut a,
        "/api/challenges",
        json!({"username": bname, "variant": "iceage", "time_control": correspondence(7)}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    assert_eq!(notes(&mut b).await.0, 1);
    let id = c.body["id"].as_str().unwrap();
    let d = post(&mut b, &format!("/api/challenges/{id}/decline"), json!({})).await;
    assert_eq!(d.status, 204, "{}", d.text);
    assert_eq!(notes(&mut b).await.0, 0);
    // A withdrawn one's is read too, and a loop of challenges and withdrawals stops at the
    // fifth in ten minutes (each notifies and may push): it buries nothing.
    let mut refused = None;
    for i in 0..6 {
        let c = post(
            &mut a,
            "/api/challenges",
            json!({"username": bname, "variant": "iceage", "time_control": correspondence(7)}),
        )
        .await;
        if c.status != 201 {
            refused = Some((i, c.status));
            break;
        }
        let id = c.body["id"].as_str().unwrap();
        let r = crate::common::lobby::delete(&mut a, &format!("/api/challenges/{id}")).await;
        assert_eq!(r.status, 204, "{}", r.text);
        assert_eq!(notes(&mut b).await.0, 0, "withdrawn: read");
    }
    // Two challenges of a to b came before the loop.
    assert_eq!(refused, Some((3, 429)));
    srv.stop().await;
}

#[tokio::test]
async fn only_the_newest_hundred_are_kept() {
    let srv = start(&sqlite_url("notify-keep")).await;
    let (mut a, name) = account(&srv, "keep").await;
    let store = srv.site.service().store().clone();
    let (_, _, owner) = store
        .account_player(&name)
        .await
        .unwrap()
        .expect("the account");
    // Not challenges: those of the last 10 minutes stay for the per-player challenge limit
    // (`lobby_pairing.rs parallel_challenges_to_one_player_stop_at_five`).
    for i in 0..105 {
        let note = NewNotification {
            owner: owner.clone(),
            tournament: None,
            kind: NotificationKind::ChallengeAccepted,
            game: None,
            by: None,
            text: format!("note {i}"),
            event_key: format!("test:{i}"),
        };
        assert_eq!(
            store
                .insert_notifications(std::slice::from_ref(&note))
                .await
                .unwrap(),
            1
        );
        // The same event again makes nothing.
        assert_eq!(store.insert_notifications(&[note]).await.unwrap(), 0);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let (unread, items) = notes(&mut a).await;
    assert_eq!((unread, items.len()), (100, 100));
    assert_eq!(items[0]["text"], "note 104", "newest first");
    assert_eq!(items[99]["text"], "note 5", "the five oldest are gone");
    srv.stop().await;
}

/// A server on `url` whose game clocks read `time`, and on the bus at `redis` when given.
async fn start_timed(
    url: &str,
    time: &site_model::time::WallTime,
    redis: Option<&test_support::redis::Redis>,
) -> TestServer {
    let srv = TestServer::start_with(
        url,
        server::SiteOptions {
            services: server::ServiceOptions {
                time: time.clone(),
                redis: redis.map(|r| r.url()),
                ..server::ServiceOptions::default()
            },
            ..server::SiteOptions::default()
        },
    )
    .await;
    // The streams look only when woken: what arrives was woken, not polled.
    srv.site
        .services()
        .notifications
        .set_poll(Duration::from_secs(600));
    srv
}

#[tokio::test]
async fn low_time_reminders_come_once_at_24_hours_and_at_one_hour() {
    let url = sqlite_url("notify-low");
    let time = site_model::time::WallTime::system();
    let a = start_timed(&url, &time, None).await;
    let b = start_timed(&url, &time, None).await;
    let (mut w, _, mut b_player, _, id) = account_game(&a, correspondence(3)).await;
    play_any(&mut w, &id).await;
    let remind = || async {
        let now = time.now_ms();
        let (x, y) = tokio::join!(
            a.site.services().notifications.remind(now),
            b.site.services().notifications.remind(now)
        );
        x.expect("remind") + y.expect("remind")
    };
    assert_eq!(remind().await, 0, "three days left: nothing due");
    // Two days and a minute later: under 24 h left. Both processes look at once: one reminder.
    time.advance(Duration::from_secs(48 * 3600 + 60));
    assert_eq!(remind().await, 1);
    assert_eq!(remind().await, 0, "not twice");
    let (_, items) = notes(&mut b_player).await;
    let low = of_kind(&items, "low_time");
    assert_eq!(low.len(), 1, "{items:?}");
    assert!(
        low[0]["text"].as_str().unwrap().contains("24 hours"),
        "{}",
        low[0]
    );
    assert_eq!(low[0]["game"], id.as_str());
    // Under an hour left: the second reminder, once.
    time.advance(Duration::from_secs(23 * 3600));
    assert_eq!(remind().await, 1);
    assert_eq!(remind().await, 0);
    let (_, items) = notes(&mut b_player).await;
    assert_eq!(of_kind(&items, "low_time").len(), 2);
    assert!(items[0]["text"].as_str().unwrap().contains("an hour"));
    // White, not to move, was reminded of nothing.
    let (_, items) = notes(&mut w).await;
    assert!(of_kind(&items, "low_time").is_empty(), "{items:?}");
    a.stop().await;
    b.stop().await;
}

/// Reads `notify` events until one satisfies `pred` (10 s at most).
async fn wait_notify(
    events: &mut server::client::EventStream,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let (name, data) = events.next_event().await.expect("the stream stays open");
            assert_eq!(name, "notify");
            if pred(&data) {
                return data;
            }
        }
    })
    .await
    .expect("the notify event arrives within 10 s")
}

async fn open_stream(c: &ApiClient) -> server::client::EventStream {
    let (status, events) = c.events("/api/notifications/stream").await.expect("stream");
    assert_eq!(status, 200);
    events
}

#[tokio::test]
async fn the_live_count_follows_moves_and_read_marks() {
    let time = site_model::time::WallTime::system();
    let srv = start_timed(&sqlite_url("notify-live"), &time, None).await;
    let (mut w, wname, mut b, _, id) = account_game(&srv, correspondence(3)).await;
    let mut events = open_stream(&b).await;
    let first = wait_notify(&mut events, |_| true).await;
    assert_eq!(first, json!({"unread": 0, "latest": null}));
    play_any(&mut w, &id).await;
    let v = wait_notify(&mut events, |v| v["unread"] == 1).await;
    assert_eq!(v["latest"]["kind"], "your_move");
    assert_eq!(v["latest"]["by"], wname.as_str());
    let r = post(&mut b, "/api/notifications/read", json!({"all": true})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = wait_notify(&mut events, |v| v["unread"] == 0).await;
    assert_eq!(v["latest"]["read"], true);
    srv.stop().await;
}

#[tokio::test]
async fn a_notification_made_in_one_process_reaches_a_stream_in_another() {
    let Some(binary) = test_support::services::redis_server() else {
        return;
    };
    let redis = test_support::redis::Redis::start(binary);
    let url = sqlite_url("notify-bus");
    let time = site_model::time::WallTime::system();
    let a = start_timed(&url, &time, Some(&redis)).await;
    let b = start_timed(&url, &time, Some(&redis)).await;
    for srv in [&a, &b] {
        let end = std::time::Instant::now() + Duration::from_secs(10);
        while srv.site.service().bus().map(|x| x.is_up()) != Some(true) {
            assert!(std::time::Instant::now() < end, "the bus is up within 10 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let (mut w, _, b_player, _, id) = account_game(&a, correspondence(3)).await;
    // Black's page is served by B; White plays through A.
    let mut at_b = b_player.clone();
    at_b.set_addr(b.addr);
    let mut events = open_stream(&at_b).await;
    wait_notify(&mut events, |v| v["unread"] == 0).await;
    play_any(&mut w, &id).await;
    let v = wait_notify(&mut events, |v| v["unread"] == 1).await;
    assert_eq!(v["latest"]["game"], id.as_str());
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn my_games_put_the_games_waiting_for_a_move_first_least_time_first() {
    let srv = start(&sqlite_url("notify-my")).await;
    let (mut a, _) = account(&srv, "my").await;
    let (mut b, _) = account(&srv, "mo").await;
    let game = |days: i64, color: &str| {
        json!({"variant": "antarctos", "opponent": "friend", "color": color,
               "time_control": correspondence(days)})
    };
    // Three days, A to move; two days, B to move; one day, A to move (least time left).
    let slow = create_and_join(&mut a, &mut b, game(3, "white")).await;
    let theirs = create_and_join(&mut a, &mut b, game(2, "black")).await;
    let urgent = create_and_join(&mut a, &mut b, game(1, "white")).await;
    let ids: Vec<String> = get(&mut a, "/api/my-games")
        .await
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    let id = |g: &Value| g["id"].as_str().unwrap().to_string();
    assert_eq!(ids, vec![id(&urgent), id(&slow), id(&theirs)]);
    srv.stop().await;
}

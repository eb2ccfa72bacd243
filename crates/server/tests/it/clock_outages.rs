//! Clocks through an outage: time the database or the whole site was down is given back to
//! the running clocks once, before any move is charged, and a takeback or a rematch made
//! meanwhile is charged none of it.

use std::time::Duration;

use crate::clocks::{friend_game, get, ms, wait_for};
use crate::common::*;
use serde_json::json;

#[tokio::test]
async fn a_database_outage_is_given_back_to_the_running_clocks_once() {
    use sqlx::Connection;
    let url = sqlite_url("clock-db-outage");
    let srv = TestServer::start(&url).await;
    let control = json!({"kind": "realtime", "initial_s": 15, "increment_s": 0});
    let (mut a, mut b, id) = friend_game(&srv, "antarctos", control, "white").await;
    play(&mut a, &id, "c3-d4").await;
    play(&mut b, &id, "f6-g5").await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    sqlx::any::install_default_drivers();
    let mut blocker = sqlx::AnyConnection::connect(&url).await.expect("connect");
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut blocker)
        .await
        .expect("lock the file");
    // White's 13.5 s run out during the outage; the sweeper's flag waits for the lock.
    tokio::time::sleep(Duration::from_secs(20)).await;
    sqlx::query("ROLLBACK")
        .execute(&mut blocker)
        .await
        .expect("unlock");
    drop(blocker);
    let mut watcher = srv.client();
    let g = wait_for(&mut watcher, &id, 15, |g| {
        g["status"] != "ongoing" || ms(g, "white") > 8_000
    })
    .await;
    assert_eq!(g["status"], "ongoing", "not flagged after the outage: {g}");
    assert_eq!(g["clock"]["running"], "white");
    assert!(
        ms(&g, "white") <= 16_000,
        "the outage was given back once, not twice: {g}"
    );
    // The clock runs again from there: White still loses on time without a move.
    let g = wait_for(&mut watcher, &id, 25, |g| g["status"] != "ongoing").await;
    assert_eq!(g["result"]["reason"], "time forfeit", "{g}");
    srv.stop().await;
}

/// The whole site down for 10 s (every process): nobody could move, so the running clocks
/// get that time back at the restart instead of flagging.
#[tokio::test]
async fn a_site_outage_is_given_back_to_the_running_clocks() {
    let url = sqlite_url("clock-outage");
    let srv = TestServer::start(&url).await;
    let control = json!({"kind": "realtime", "initial_s": 15, "increment_s": 0});
    let (mut a, mut b, id) = friend_game(&srv, "antarctos", control, "white").await;
    play(&mut a, &id, "c3-d4").await;
    play(&mut b, &id, "f6-g5").await;
    // Let the sweeper hold its lease, then crash and stay down past the outage threshold.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    srv.crash().await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    let srv = TestServer::start(&url).await;
    let mut watcher = srv.client();
    let g = wait_for(&mut watcher, &id, 5, |g| ms(g, "white") > 10_000).await;
    assert_eq!(g["status"], "ongoing", "not flagged after the outage: {g}");
    assert_eq!(g["clock"]["running"], "white");
    srv.stop().await;
}

/// Stages an outage on the database at `url` as another process would leave it: its lease to
/// give the outage back held for a minute, and the sweeper's lease lapsed 20 s ago. Returns the
/// connection and when the sweeper's lease expired (Unix ms).
pub(crate) async fn outage_being_given_back(url: &str) -> (sqlx::AnyConnection, i64) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let mut db = sqlx::AnyConnection::connect(url).await.expect("connect");
    let now = unix_ms();
    sqlx::query(
        "INSERT INTO leases (name, holder, expires_at) VALUES ('timeouts:credit', 'elsewhere', $1) \
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at",
    )
    .bind(now + 60_000)
    .execute(&mut db)
    .await
    .expect("hold the giving-back lease");
    let expired = now - 20_000;
    sqlx::query("UPDATE leases SET expires_at = $1 WHERE name = 'timeouts'")
        .bind(expired)
        .execute(&mut db)
        .await
        .expect("lapse the sweeper's lease");
    // A real lapse comes after seconds without renewals; this one is written at once, so the
    // server's shared reading of the lease (timeouts::SweeperLease) is let go stale first.
    tokio::time::sleep(site::timeouts::LEASE_READ_FRESH).await;
    (db, expired)
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as i64
}

/// The database back after an outage, the outage not yet given back (here: its giving-back
/// held up by another process's lease, as when that process died while giving it): a move
/// then would be charged the whole outage and start the opponent's clock, which the giving-back
/// then froze for the whole outage (a hostile tester: a move 0.3 s after PostgreSQL came back
/// from 20 s charged White 27.8 s and left Black's 120 s clock standing still for 22 s). Such a
/// move is refused (503, try again) until the outage is given back; a clock started meanwhile
/// (a join) ran none of it: its game takes moves at once, and its wait is not frozen.
#[tokio::test]
async fn no_move_before_an_outage_is_given_back_and_a_clock_started_meanwhile_is_not_given_it_all()
{
    let url = sqlite_url("clock-owed-move");
    let srv = TestServer::start(&url).await;
    let control = json!({"kind": "realtime", "initial_s": 60, "increment_s": 0});
    let (mut a, mut b, id) = friend_game(&srv, "antarctos", control.clone(), "white").await;
    play(&mut a, &id, "c3-d4").await;
    play(&mut b, &id, "f6-g5").await;
    // A second game whose friend joins during the lapse.
    let mut c = srv.client();
    let mut d = srv.client();
    let g2 = create(
        &mut c,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white", "time_control": control}),
    )
    .await;
    let id2 = g2["id"].as_str().expect("id").to_string();
    let invite = g2["invite_url"].as_str().expect("invite").to_string();
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    // Another process gives the outage back (its lease held), and the sweeper's lease
    // lapsed 20 s ago: nobody renewed it for 25 s.
    let (mut db, _) = outage_being_given_back(&url).await;

    let view = get(&mut a, &id).await;
    let mv = view["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    let body = json!({"move": mv, "ply": view["ply"]});
    let refused = a
        .post(&format!("/api/games/{id}/moves"), body.clone())
        .await
        .expect("request");
    assert_eq!(
        refused.status, 503,
        "no move while the outage is owed: {}",
        refused.text
    );
    // Its own code, so that a page (and the sweeper) can tell it from a full server.
    assert_eq!(
        refused.body["error"]["code"], "clocks_owed",
        "the refusal names the owed clocks: {}",
        refused.text
    );
    let joined = d
        .post(&format!("/api{invite}"), json!({}))
        .await
        .expect("request");
    assert_eq!(joined.status, 200, "join: {}", joined.text);
    // Its clock started after the outage and ran none of it: its game takes a move at once,
    // not after every other clock has had its share, while game 1 still waits.
    let g = get(&mut c, &id2).await;
    let first = g["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    let moved = c
        .post(
            &format!("/api/games/{id2}/moves"),
            json!({"move": first, "ply": 0}),
        )
        .await
        .expect("request");
    assert_eq!(
        moved.status, 200,
        "a clock started meanwhile: {}",
        moved.text
    );
    let still = a
        .post(&format!("/api/games/{id}/moves"), body.clone())
        .await
        .expect("request");
    assert_eq!(still.status, 503, "game 1 still waits: {}", still.text);

    // The other process goes away: this one gives the outage back within a second or two.
    wait_given_back(&mut db).await;
    drop(db);
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    let g = get(&mut c, &id2).await;
    assert_eq!(g["clock"]["running"], "black", "{g}");
    // Before the first moves the main clocks stand: the first-move wait is what runs.
    let wait = g["clock"]["first_move_ms"].as_i64().expect("first_move_ms");
    assert!(
        wait <= 28_500,
        "a wait started after the outage runs again 2 s after the giving-back, not frozen \
         for the whole outage: {g}"
    );
    // The move, sent again, is played.
    let played = a
        .post(&format!("/api/games/{id}/moves"), body)
        .await
        .expect("request");
    assert_eq!(played.status, 200, "{}", played.text);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let g = get(&mut a, &id).await;
    assert!(ms(&g, "black") <= 59_000, "Black's clock runs: {g}");
    srv.stop().await;
}

/// The give-back of an outage goes game by game, one write each (a hostile tester: 600
/// running clocks took 2 s on SQLite), and moves were refused until the last game had it: a
/// clock given back early ran all that time while its player's move was refused (503), time
/// stolen from it, and a giver that took over from a dead one gave that time back again,
/// though the game could be played. A game whose clock was given back takes moves at once,
/// charged from the give-back, and the same outage is not given to it twice; the others wait.
#[tokio::test]
async fn a_game_given_its_outage_back_takes_moves_while_the_others_wait_and_is_not_given_it_twice()
{
    let url = sqlite_url("clock-given-back-early");
    let srv = TestServer::start(&url).await;
    let control = json!({"kind": "realtime", "initial_s": 60, "increment_s": 0});
    let (mut a, mut b, given) = friend_game(&srv, "antarctos", control.clone(), "white").await;
    play(&mut a, &given, "c3-d4").await;
    play(&mut b, &given, "f6-g5").await;
    let (mut c, mut d, waiting) = friend_game(&srv, "antarctos", control, "white").await;
    play(&mut c, &waiting, "c3-d4").await;
    play(&mut d, &waiting, "f6-g5").await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    // The sweeper's lease lapsed 20 s ago; another process is giving the outage back (its
    // lease held): it has given it to the first game, not yet to the second.
    let (db, expired) = outage_being_given_back(&url).await;
    let from = expired - site::timeouts::LEASE_MS;
    let service = srv.site.service();
    service
        .credit_clock(&given, from, unix_ms())
        .await
        .expect("give the first game its outage back");

    // The first game is played at once, the second still waits.
    let view = get(&mut a, &given).await;
    let white_left = ms(&view, "white");
    let played = a
        .post(
            &format!("/api/games/{given}/moves"),
            json!({"move": view["legal"][0]["id"], "ply": view["ply"]}),
        )
        .await
        .expect("request");
    assert_eq!(
        played.status, 200,
        "a game given its outage back takes moves: {}",
        played.text
    );
    assert!(
        ms(&played.body, "white") >= white_left - 300,
        "charged from the give-back, not the outage: {}",
        played.text
    );
    let view = get(&mut c, &waiting).await;
    let refused = c
        .post(
            &format!("/api/games/{waiting}/moves"),
            json!({"move": view["legal"][0]["id"], "ply": view["ply"]}),
        )
        .await
        .expect("request");
    assert_eq!(refused.status, 503, "{}", refused.text);
    assert_eq!(
        refused.body["error"]["code"], "clocks_owed",
        "{}",
        refused.text
    );

    // Black's clock runs from White's move; another giver (this one died) gives the same
    // outage again: Black, who could move all along, gets nothing.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    service
        .credit_clock(&given, from, unix_ms())
        .await
        .expect("give again");
    let g = get(&mut b, &given).await;
    assert!(
        ms(&g, "black") <= 59_000,
        "the same outage is not given twice: {g}"
    );
    drop(db);
    srv.stop().await;
}

/// Waits until this process has given the staged outage back (the sweeper's lease renewed).
async fn wait_given_back(db: &mut sqlx::AnyConnection) {
    sqlx::query("DELETE FROM leases WHERE name = 'timeouts:credit'")
        .execute(&mut *db)
        .await
        .expect("release");
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let expires: i64 = sqlx::Row::get(
            &sqlx::query("SELECT expires_at FROM leases WHERE name = 'timeouts'")
                .fetch_one(&mut *db)
                .await
                .expect("lease"),
            0,
        );
        if expires > unix_ms() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the outage was never given back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A takeback restarts the clock (the running side is charged up to now, the side to move
/// after it starts now). Done while an outage was owed to the clock, it charged the running
/// side the outage, and the give-back then gave nothing (the clock had restarted after the
/// outage began): a hostile tester. Like a move, a takeback waits (503 `clocks_owed`) until
/// the clock has had the outage back.
#[tokio::test]
async fn a_takeback_waits_for_an_owed_outage_and_charges_none_of_it() {
    let url = sqlite_url("clock-owed-takeback");
    let srv = TestServer::start(&url).await;
    let control = json!({"kind": "realtime", "initial_s": 60, "increment_s": 0});
    let (mut a, mut b, id) = friend_game(&srv, "antarctos", control, "white").await;
    play(&mut a, &id, "c3-d4").await;
    play(&mut b, &id, "f6-g5").await;
    play(&mut a, &id, "g3-h4").await;
    // Black's clock runs; the outage "began" before it did (the staged lease lapsed 20 s
    // ago), so all of Black's time since is owed back to it.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    let (mut db, _) = outage_being_given_back(&url).await;
    let offered = a
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"action": "offer"}),
        )
        .await
        .expect("request");
    assert_eq!(offered.status, 200, "{}", offered.text);
    let accepted = b
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"action": "accept"}),
        )
        .await
        .expect("request");
    assert_eq!(
        accepted.status, 503,
        "no takeback while the outage is owed: {}",
        accepted.text
    );
    assert_eq!(
        accepted.body["error"]["code"], "clocks_owed",
        "{}",
        accepted.text
    );
    wait_given_back(&mut db).await;
    drop(db);
    let g = get(&mut a, &id).await;
    assert!(
        ms(&g, "black") >= 59_000,
        "Black is charged none of the outage: {g}"
    );
    srv.stop().await;
}

/// A rematch created while an outage is being given back starts its clock then, like a join
/// or a lobby game: it ran none of the outage, so its game takes moves at once.
#[tokio::test]
async fn a_rematch_started_while_an_outage_is_given_back_takes_moves_at_once() {
    let url = sqlite_url("clock-owed-rematch");
    let srv = TestServer::start(&url).await;
    let control = json!({"kind": "realtime", "initial_s": 60, "increment_s": 0});
    let (mut a, mut b, id) = friend_game(&srv, "antarctos", control, "white").await;
    play(&mut a, &id, "c3-d4").await;
    play(&mut b, &id, "f6-g5").await;
    let resigned = a
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await
        .expect("request");
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let (mut db, _) = outage_being_given_back(&url).await;
    let offered = a
        .post(
            &format!("/api/games/{id}/rematch"),
            json!({"action": "offer"}),
        )
        .await
        .expect("request");
    assert_eq!(offered.status, 200, "{}", offered.text);
    let accepted = b
        .post(
            &format!("/api/games/{id}/rematch"),
            json!({"action": "accept"}),
        )
        .await
        .expect("request");
    assert_eq!(accepted.status, 201, "{}", accepted.text);
    let id2 = accepted.body["id"].as_str().expect("id").to_string();
    // Colours swapped: b is White in the rematch.
    let g = get(&mut b, &id2).await;
    let first = g["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    let moved = b
        .post(
            &format!("/api/games/{id2}/moves"),
            json!({"move": first, "ply": 0}),
        )
        .await
        .expect("request");
    assert_eq!(
        moved.status, 200,
        "a clock started meanwhile takes moves: {}",
        moved.text
    );
    wait_given_back(&mut db).await;
    srv.stop().await;
}

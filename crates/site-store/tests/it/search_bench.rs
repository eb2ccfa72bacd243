//! Game search on 1,000,000 games (issue 41; docs/performance.md, "Game search"): fills a
//! SQLite database in one statement per table (a recursive `WITH`, one transaction), then
//! prints the time of typical searches and SQLite's `EXPLAIN QUERY PLAN` of each. Ignored: it
//! writes about 0.5 GB and takes a minute or two; run it by hand:
//!
//! `cargo test -p site-store --test it --release -- --ignored --nocapture search_on_a_million_games`
//!
//! It asserts what the plans use (the search indexes), never a time: a slow machine passes.
//! Outside the bench, `search_plans_use_the_indexes` checks the plans on a small database
//! and the heavy player's first page exactly.

use std::time::Instant;

use site_model::search::{ResultFilter, SpeedFilter};
use site_model::secrets::TokenHash;
use site_model::state::GameKind;
use site_store::{GameFilter, Store};
use sqlx::Connection;
use test_support::store::sqlite_url;

/// Accounts of the bench; account 0 is a heavy player (White in a tenth of all games).
const ACCOUNTS: i64 = 10_000;
/// Unix ms of the first game (2024-01-01); one game a minute after it.
const START_MS: i64 = 1_704_067_200_000;

/// `games` games and [`ACCOUNTS`] accounts, `p{n}` with seat hash `h{n}`: a tenth of the games
/// anonymous (no names, seats `a{i}`), about 4% unfinished, results, games, speeds and rating
/// spread evenly.
async fn fill(url: &str, games: i64) {
    let mut conn = sqlx::AnyConnection::connect(url).await.expect("connect");
    let mut tx = conn.begin().await.expect("begin");
    sqlx::query(&format!(
        "INSERT INTO accounts (id, username, username_key, password_hash, created_at, player_hash) \
         WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {}) \
         SELECT 'acc' || i, 'p' || i, 'p' || i, 'x', 0, 'h' || i FROM n",
        ACCOUNTS - 1
    ))
    .execute(&mut *tx)
    .await
    .expect("accounts");
    // White: account 0 in every tenth game, else spread; Black: another spread, never White.
    sqlx::query(&format!(
        "INSERT INTO games (id, variant, start_fen, white_kind, white_token, white_name, \
         black_kind, black_token, black_name, status, result, winner, reason, ply, turn, \
         version, created_at, updated_at, rated, speed) \
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {games}), \
         s(i, w, b, anon) AS (SELECT i, \
           CASE WHEN i % 10 = 0 THEN 0 ELSE (i * 7919) % {ACCOUNTS} END, \
           (i * 104729 + 1) % {ACCOUNTS}, i % 10 = 5 FROM n), \
         t(i, w, b, anon) AS (SELECT i, w, CASE WHEN b = w THEN (b + 1) % {ACCOUNTS} ELSE b END, \
           anon FROM s) \
         SELECT printf('g%07d', i), CASE i % 2 WHEN 0 THEN 'antarctos' ELSE 'iceage' END, 'start', \
           'human', CASE WHEN anon THEN 'aw' || i ELSE 'h' || w END, \
           CASE WHEN anon THEN NULL ELSE 'p' || w END, \
           'human', CASE WHEN anon THEN 'ab' || i ELSE 'h' || b END, \
           CASE WHEN anon THEN NULL ELSE 'p' || b END, \
           CASE WHEN i % 25 = 7 THEN 'ongoing' ELSE 'finished' END, \
           CASE i % 3 WHEN 0 THEN '1-0' WHEN 1 THEN '0-1' ELSE '1/2-1/2' END, \
           CASE i % 3 WHEN 0 THEN 'white' WHEN 1 THEN 'black' ELSE NULL END, \
           'resignation', 40, 'white', 1, {START_MS} + i * 60000, {START_MS} + i * 60000 + 600000, \
           (i / 2) % 2, CASE i % 3 WHEN 0 THEN 'realtime' WHEN 1 THEN 'correspondence' ELSE NULL END \
         FROM t"
    ))
    .execute(&mut *tx)
    .await
    .expect("games");
    tx.commit().await.expect("commit");
    conn.close().await.expect("close");
}

fn hash(n: i64) -> Option<TokenHash> {
    Some(TokenHash::from_stored(format!("h{n}")))
}

/// The typical searches, named.
fn searches() -> Vec<(&'static str, GameFilter, i64)> {
    let day = 86_400_000;
    vec![
        (
            "player (about 200 games)",
            GameFilter {
                player: hash(1234),
                ..Default::default()
            },
            0,
        ),
        (
            "player (heavy: 100,000+ games)",
            GameFilter {
                player: hash(0),
                ..Default::default()
            },
            0,
        ),
        (
            "player + opponent",
            GameFilter {
                player: hash(0),
                opponent: hash(1),
                ..Default::default()
            },
            0,
        ),
        (
            "player + game + result",
            GameFilter {
                player: hash(0),
                variant: Some(GameKind::Antarctos),
                result: Some(ResultFilter::Loss),
                ..Default::default()
            },
            0,
        ),
        (
            "player + rated + speed",
            GameFilter {
                player: hash(1234),
                rated: Some(true),
                speed: Some(SpeedFilter::Correspondence),
                ..Default::default()
            },
            0,
        ),
        (
            "date range (one day, all players)",
            GameFilter {
                from_ms: Some(START_MS + 300 * day),
                until_ms: Some(START_MS + 301 * day),
                ..Default::default()
            },
            0,
        ),
        (
            "player + date range (one month)",
            GameFilter {
                player: hash(0),
                from_ms: Some(START_MS + 300 * day),
                until_ms: Some(START_MS + 330 * day),
                ..Default::default()
            },
            0,
        ),
        ("no filter, newest", GameFilter::default(), 0),
        (
            "no filter, result = draw, game",
            GameFilter {
                result: Some(ResultFilter::Draw),
                variant: Some(GameKind::IceAge),
                ..Default::default()
            },
            0,
        ),
        (
            "player (heavy), page 50",
            GameFilter {
                player: hash(0),
                ..Default::default()
            },
            49 * 30,
        ),
        ("no filter, page 50", GameFilter::default(), 49 * 30),
    ]
}

/// Whether a plan reads the games through one of the search indexes (never a full scan).
fn uses_indexes(plan: &[String]) -> bool {
    plan.iter().any(|l| l.contains("games_search_"))
        && !plan
            .iter()
            .any(|l| l.starts_with("SCAN games") && !l.contains("INDEX"))
}

#[tokio::test]
#[ignore = "fills 1,000,000 games (about 0.5 GB, a minute or two); run by hand"]
async fn search_on_a_million_games() {
    let url = sqlite_url("search_bench");
    let store = Store::open(&url).await.expect("store");
    let t = Instant::now();
    fill(&url, 1_000_000).await;
    println!(
        "filled 1,000,000 games in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    for (name, filter, offset) in searches() {
        // The first run reads the pages from disk; the median of the next five is shown too.
        let t = Instant::now();
        let page = store
            .search_games(&filter, offset, 30)
            .await
            .expect("search");
        let cold = t.elapsed();
        let mut warm = Vec::new();
        for _ in 0..5 {
            let t = Instant::now();
            store
                .search_games(&filter, offset, 30)
                .await
                .expect("search");
            warm.push(t.elapsed());
        }
        warm.sort();
        let plan = store
            .explain_game_search(&filter, offset, 30)
            .await
            .expect("plan");
        println!(
            "{name}: {} games, next {}; first {:.2} ms, median {:.2} ms\n  plan: {}",
            page.games.len(),
            page.next,
            cold.as_secs_f64() * 1e3,
            warm[2].as_secs_f64() * 1e3,
            plan.join(" | ")
        );
        assert!(uses_indexes(&plan), "{name}: {plan:?}");
    }
}

/// The plans of the typical searches name the search indexes (no full scan), on a small
/// database: what keeps search fast on a large one.
#[tokio::test]
async fn search_plans_use_the_indexes() {
    let url = sqlite_url("search_plans");
    let store = Store::open(&url).await.expect("store");
    fill(&url, 2_000).await;
    for (name, filter, offset) in searches() {
        let plan = store
            .explain_game_search(&filter, offset, 30)
            .await
            .expect("plan");
        assert!(uses_indexes(&plan), "{name}: {plan:?}");
        let page = store
            .search_games(&filter, offset, 30)
            .await
            .expect("search");
        for pair in page.games.windows(2) {
            assert!(
                (pair[0].created_at, &pair[0].id) > (pair[1].created_at, &pair[1].id),
                "{name}: newest first"
            );
        }
    }
    // The heavy player's games, exactly: the finished tenth of the games, newest first.
    let page = store
        .search_games(
            &GameFilter {
                player: hash(0),
                ..Default::default()
            },
            0,
            30,
        )
        .await
        .expect("search");
    let want: Vec<String> = (1..=2000)
        .rev()
        .filter(|i| i % 10 == 0 && i % 25 != 7)
        .take(30)
        .map(|i| format!("g{i:07}"))
        .collect();
    let got: Vec<String> = page.games.iter().map(|g| g.id.clone()).collect();
    assert_eq!(got, want);
    assert!(page.next);
}

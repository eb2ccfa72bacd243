//! The engine lab in the database: `lab_runs` rows round-trip (SQLite always, PostgreSQL when
//! ICEBOUND_TEST_POSTGRES_URL is set), come back newest first per variant and kind, and show in
//! `GET /api/stats` next to the site's figures.

use std::collections::BTreeMap;

use crate::common::*;
use site_model::state::GameKind;
use site_store::{LabKind, LabRun, MatchFigures, SprtFigures, Store};

fn selfplay_row(id: &str, variant: GameKind, finished_at: i64) -> LabRun {
    LabRun {
        id: id.to_string(),
        variant,
        kind: LabKind::Selfplay,
        setting: "level=2".into(),
        // Past i64::MAX: the seed is stored as text so every u64 comes back.
        seed: u64::MAX - 7,
        random_plies: 2,
        max_plies: 1000,
        games: 1000,
        white_wins: 512,
        black_wins: 470,
        draws: 15,
        capped: 3,
        end_reasons: BTreeMap::from([
            ("breakthrough".to_string(), 980),
            ("no moves".to_string(), 17),
            ("ply cap".to_string(), 3),
        ]),
        mean_plies: Some(41.375),
        longest_plies: 1000,
        white_score: Some(0.52),
        white_lower: Some(0.489),
        white_upper: Some(0.551),
        match_figures: None,
        duration_ms: 123_456,
        version: "icebound 0.1.0".into(),
        finished_at,
    }
}

fn match_row(id: &str, variant: GameKind, finished_at: i64) -> LabRun {
    LabRun {
        kind: LabKind::Match,
        setting: "level=3".into(),
        seed: 9,
        games: 40,
        white_wins: 20,
        black_wins: 18,
        draws: 2,
        capped: 0,
        match_figures: Some(MatchFigures {
            setting_b: "nodes=2000,seed=7".into(),
            a_wins: 25,
            a_draws: 2,
            a_losses: 13,
            elo: Some(105.3),
            elo_error: Some(88.25),
            sprt: Some(SprtFigures {
                params: "elo0=0,elo1=10,alpha=0.05,beta=0.05".into(),
                verdict: "H1".into(),
                llr: 2.97,
            }),
        }),
        ..selfplay_row(id, variant, finished_at)
    }
}

/// Inserts runs of two variants and both kinds, reads them back field for field.
async fn round_trip(store: &Store, variant: GameKind) {
    let other = match variant {
        GameKind::Antarctos => GameKind::IceAge,
        GameKind::IceAge => GameKind::Antarctos,
    };
    let old = selfplay_row(&format!("{variant}-s1"), variant, 1_000);
    let new = selfplay_row(&format!("{variant}-s2"), variant, 2_000);
    let mut empty = selfplay_row(&format!("{variant}-s0"), variant, 500);
    // A run with no finished game: no score, no interval, no mean.
    empty.games = 0;
    empty.white_wins = 0;
    empty.black_wins = 0;
    empty.draws = 0;
    empty.capped = 0;
    empty.end_reasons.clear();
    empty.mean_plies = None;
    empty.white_score = None;
    empty.white_lower = None;
    empty.white_upper = None;
    let mut unbounded = match_row(&format!("{variant}-m1"), variant, 1_500);
    if let Some(m) = unbounded.match_figures.as_mut() {
        // A 100 % score: Elo is infinite, stored as absent; no SPRT asked for.
        m.elo = Some(f64::INFINITY);
        m.elo_error = None;
        m.sprt = None;
    }
    let decided = match_row(&format!("{variant}-m2"), variant, 1_800);
    let elsewhere = selfplay_row(&format!("{variant}-x1"), other, 3_000);
    for run in [&old, &new, &empty, &unbounded, &decided, &elsewhere] {
        store.insert_lab_run(run).await.expect("insert lab run");
    }

    let selfplay = store
        .lab_runs(variant, LabKind::Selfplay, 20)
        .await
        .expect("read self-play runs");
    assert_eq!(selfplay, vec![new.clone(), old.clone(), empty.clone()]);
    let newest = store
        .lab_runs(variant, LabKind::Selfplay, 1)
        .await
        .expect("read newest");
    assert_eq!(newest, vec![new.clone()]);

    let matches = store
        .lab_runs(variant, LabKind::Match, 20)
        .await
        .expect("read matches");
    if let Some(m) = unbounded.match_figures.as_mut() {
        m.elo = None;
    }
    assert_eq!(matches, vec![decided, unbounded]);

    let other_runs = store
        .lab_runs(other, LabKind::Selfplay, 20)
        .await
        .expect("read other variant");
    assert_eq!(other_runs, vec![elsewhere]);
    assert!(
        store
            .lab_runs(other, LabKind::Match, 20)
            .await
            .expect("read other matches")
            .is_empty()
    );
}

#[tokio::test]
async fn sqlite_lab_runs_round_trip() {
    let url = sqlite_url("lab-runs");
    let store = Store::open(&url).await.expect("open");
    round_trip(&store, GameKind::Antarctos).await;
    store.close().await;
    // Opened again (the migrations already done), the runs are still there.
    let store = Store::open(&url).await.expect("reopen");
    let runs = store
        .lab_runs(GameKind::Antarctos, LabKind::Selfplay, 20)
        .await
        .expect("read after reopen");
    assert_eq!(runs.len(), 3);
    store.close().await;
}

#[tokio::test]
async fn postgres_lab_runs_round_trip() {
    if let Some(url) = postgres_url() {
        let store = Store::open(&url).await.expect("open postgres");
        // A database of its own (`postgres_url`): no other test's runs are read back.
        round_trip(&store, GameKind::IceAge).await;
        store.close().await;
    }
}

#[tokio::test]
async fn stats_api_shows_stored_lab_runs_next_to_site_figures() {
    let url = sqlite_url("lab-stats");
    let srv = TestServer::start(&url).await;
    let mut c = srv.client();
    let before = c.get("/api/stats").await.expect("stats").body;
    assert_eq!(before["antarctos"]["selfplay"], serde_json::json!([]));
    assert_eq!(before["iceage"]["matches"], serde_json::json!([]));

    let store = srv.site.service().store();
    for i in 0..25 {
        let run = selfplay_row(&format!("s{i:02}"), GameKind::Antarctos, 10_000 + i);
        store.insert_lab_run(&run).await.expect("insert");
    }
    let m = match_row("m1", GameKind::IceAge, 5_000);
    store.insert_lab_run(&m).await.expect("insert match");

    let stats = c.get("/api/stats").await.expect("stats").body;
    // The site's figures are unchanged.
    assert_eq!(stats["antarctos"]["total"], 0);
    assert_eq!(stats["antarctos"]["white_pct"], 0.0);
    let runs = stats["antarctos"]["selfplay"].as_array().expect("array");
    assert_eq!(runs.len(), 20, "at most 20 runs per variant and kind");
    assert_eq!(runs[0]["id"], "s24", "newest first");
    assert_eq!(runs[19]["id"], "s05");
    let r = &runs[0];
    assert_eq!(r["kind"], "selfplay");
    assert_eq!(r["setting"], "level=2");
    assert_eq!(r["games"], 1000);
    assert_eq!(r["white_wins"], 512);
    assert_eq!(r["white_pct"], 51.2);
    assert_eq!(r["black_pct"], 47.0);
    assert_eq!(r["draws_pct"], 1.5);
    assert_eq!(r["capped_pct"], 0.3);
    assert_eq!(r["end_reasons"]["ply cap"], 3);
    assert_eq!(r["mean_plies"], 41.375);
    assert_eq!(r["white_lower"], 0.489);
    assert_eq!(r["seed"], (u64::MAX - 7).to_string());
    assert_eq!(r["match"], serde_json::Value::Null);
    assert_eq!(stats["antarctos"]["matches"], serde_json::json!([]));
    assert_eq!(stats["iceage"]["selfplay"], serde_json::json!([]));
    let mr = &stats["iceage"]["matches"][0];
    assert_eq!(mr["setting"], "level=3");
    assert_eq!(mr["match"]["setting_b"], "nodes=2000,seed=7");
    assert_eq!(mr["match"]["a_wins"], 25);
    assert_eq!(mr["match"]["elo"], 105.3);
    assert_eq!(mr["match"]["elo_error"], 88.25);
    assert_eq!(mr["match"]["sprt"]["verdict"], "H1");
    srv.stop().await;
}

#[tokio::test]
async fn an_unreadable_row_is_left_out_not_fatal() {
    let url = sqlite_url("lab-bad-row");
    let store = Store::open(&url).await.expect("open");
    store
        .insert_lab_run(&selfplay_row("good", GameKind::Antarctos, 1_000))
        .await
        .expect("insert");
    store
        .insert_lab_run(&selfplay_row("bad", GameKind::Antarctos, 2_000))
        .await
        .expect("insert");
    store
        .insert_lab_run(&selfplay_row("odd", GameKind::Antarctos, 3_000))
        .await
        .expect("insert");
    store.close().await;
    // Damage one row by hand, as an editor or a newer version might.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.expect("raw pool");
    sqlx::query("UPDATE lab_runs SET end_reasons = 'not json' WHERE id = 'bad'")
        .execute(&pool)
        .await
        .expect("damage");
    // A game this binary does not know (a newer version's, or a typo).
    sqlx::query("UPDATE lab_runs SET variant = 'chess' WHERE id = 'odd'")
        .execute(&pool)
        .await
        .expect("damage the variant");
    pool.close().await;
    let store = Store::open(&url).await.expect("reopen");
    let runs = store
        .lab_runs(GameKind::Antarctos, LabKind::Selfplay, 20)
        .await
        .expect("the readable rows");
    let ids: Vec<&str> = runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["good"]);
    store.close().await;
}

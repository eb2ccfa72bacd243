//! Storage faults (issue 9, section 1) on SQLite: a full disk, a file made read-only (writes
//! through open descriptors fail: I/O errors), and uploads on a full disk; PostgreSQL's own
//! faults are in `storage_faults_postgres`. Whatever fails, no move is answered 200 unless it
//! is in the database (checked at once through a connection of the test's own), every failure
//! is a 500, moves work again once the fault is gone (without a restart), and after a crash and
//! a restart every acknowledged move is there.
//!
//! The SQLite "full disk" is made portably with `PRAGMA max_page_count`, and for real on a
//! 4 MiB tmpfs when the test runs as root (a fresh site's database, with its 835 shipped
//! puzzles and their write-ahead log, outgrew 1 MiB; the disk is filled to the brim anyway); a read-only file with `chattr +i` (root). Those two
//! print why they did not run elsewhere, and fail under `CI=true`, which runs as root.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use crate::common::disk::{Tmpfs, fill_disk, is_root, skip};
use crate::common::*;
use serde_json::{Value, json};
use server::StoreOptions;
use server::client::ApiClient;
use sqlx::{AnyConnection, Connection, Row};
use tokio::sync::Mutex;

/// Games played one move at a time, each acknowledged move remembered and checked.
pub(crate) struct Table {
    pub(crate) c: ApiClient,
    /// `(id, acknowledged move texts)`.
    pub(crate) games: Vec<(String, Vec<String>)>,
    pub(crate) reader: AnyConnection,
    /// The database the reader reads, to reconnect after a database restart.
    pub(crate) url: String,
}

/// What a round of moves got.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) acked: usize,
    pub(crate) failed: usize,
}

/// A new local game, or `None` when storage failed (a 500 `internal`, as while the database
/// restarts): nothing else is allowed.
async fn try_new_game(c: &mut ApiClient, i: usize) -> Option<String> {
    let variant = if i % 3 == 2 { "iceage" } else { "antarctos" };
    let a = c
        .post(
            "/api/games",
            json!({"variant": variant, "opponent": "local"}),
        )
        .await
        .expect("request");
    if a.status == 500 {
        assert_error(&a, 500, "internal");
        eprintln!("create failed: {}", a.text);
        return None;
    }
    assert_eq!(a.status, 201, "create: {}", a.text);
    Some(a.body["id"].as_str().expect("id").to_string())
}

async fn new_game(c: &mut ApiClient, i: usize) -> String {
    try_new_game(c, i)
        .await
        .expect("a game is created with no fault")
}

impl Table {
    /// Three local games (two Antarctos, one Ice Age Chess) and a reader of `url`.
    pub(crate) async fn new(srv: &TestServer, url: &str) -> Table {
        let mut c = srv.client();
        let mut games = Vec::new();
        for i in 0..3 {
            games.push((new_game(&mut c, i).await, Vec::new()));
        }
        sqlx::any::install_default_drivers();
        let reader = AnyConnection::connect(url).await.expect("reader connects");
        Table {
            c,
            games,
            reader,
            url: url.to_string(),
        }
    }

    /// Plays `n` moves, one at a time, round robin. Each answer must be 200 or a 500
    /// `internal`; each 200 is checked in the database at once.
    pub(crate) async fn play(&mut self, n: usize) -> Tally {
        let mut tally = Tally::default();
        for k in 0..n {
            let i = k % self.games.len();
            let id = self.games[i].0.clone();
            let got = self.c.get(&format!("/api/games/{id}")).await.expect("get");
            if got.status == 500 {
                assert_error(&got, 500, "internal");
                eprintln!("read of {id} failed: {}", got.text);
                tally.failed += 1;
                continue;
            }
            assert_eq!(got.status, 200, "{}", got.text);
            let view = got.body;
            let Some(mv) = view["legal"][0]["id"].as_str() else {
                // Finished: go on with a new game (its creation may fail as a move may).
                match try_new_game(&mut self.c, i).await {
                    Some(new) => self.games[i] = (new, Vec::new()),
                    None => tally.failed += 1,
                }
                continue;
            };
            let a = self
                .c
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({"move": mv, "ply": view["ply"]}),
                )
                .await
                .expect("request");
            if a.status == 200 {
                let text = last_text(&a.body);
                self.games[i].1.push(text);
                self.check(i).await;
                tally.acked += 1;
            } else {
                assert_error(&a, 500, "internal");
                eprintln!("move of {id} failed: {}", a.text);
                tally.failed += 1;
            }
        }
        tally
    }

    /// Game `i` as stored holds exactly its acknowledged moves.
    pub(crate) async fn check(&mut self, i: usize) {
        // The restart may end the reader's connection between a ping and the reads (57P01,
        // "terminating connection due to administrator command"): read again on a new one.
        let mut tries = 0;
        let (ply, stored) = loop {
            match self.read_game(i).await {
                Ok(found) => break found,
                Err(e) if tries < 50 => {
                    tries += 1;
                    eprintln!("reading the game again after: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    self.reconnect_reader().await;
                }
                Err(e) => panic!("game row: {e}"),
            }
        };
        let (id, acked) = &self.games[i];
        assert_eq!(
            stored, *acked,
            "game {id}: the stored moves are the acknowledged ones"
        );
        assert_eq!(ply, acked.len() as i64, "game {id}: stored ply");
    }

    /// Game `i`'s stored ply and move texts, read through the test's own connection.
    pub(crate) async fn read_game(&mut self, i: usize) -> Result<(i64, Vec<String>), sqlx::Error> {
        let id = &self.games[i].0;
        let ply: i64 = sqlx::query("SELECT ply FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&mut self.reader)
            .await?
            .try_get("ply")?;
        let rows = sqlx::query("SELECT move_text FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&mut self.reader)
            .await?;
        let stored = rows
            .iter()
            .map(|r| r.try_get("move_text"))
            .collect::<Result<Vec<String>, _>>()?;
        Ok((ply, stored))
    }

    pub(crate) async fn reconnect_reader(&mut self) {
        for _ in 0..300 {
            if let Ok(conn) = AnyConnection::connect(&self.url).await {
                self.reader = conn;
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the database did not come back within 30 s");
    }

    pub(crate) async fn check_all(&mut self) {
        for i in 0..self.games.len() {
            self.check(i).await;
        }
    }

    /// After a restart on `srv`, every acknowledged move is shown, in order.
    pub(crate) async fn check_served(&mut self, srv: &TestServer) {
        self.c.set_addr(srv.addr);
        for (id, acked) in &self.games {
            let v = self.c.get(&format!("/api/games/{id}")).await.expect("get");
            assert_eq!(v.status, 200, "{}", v.text);
            let texts: Vec<&str> = v.body["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .filter_map(|m| m["text"].as_str())
                .collect();
            assert_eq!(texts, *acked, "game {id} after the restart");
        }
    }
}

pub(crate) fn last_text(view: &Value) -> String {
    view["moves"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["text"].as_str())
        .expect("the move")
        .to_string()
}

/// The default site with storage `options` and no per-address rate limits (one client plays
/// hundreds of moves a second here; the limits are tested in limits.rs).
pub(crate) fn with_store(options: &StoreOptions) -> server::SiteOptions {
    server::SiteOptions {
        services: server::ServiceOptions {
            store: options.clone(),
            ..server::ServiceOptions::default()
        },
        rate_limits: server::options::RateLimits::off(),
        ..server::SiteOptions::default()
    }
}

/// The common course of a fault: play, fault, play (some 500s, no false 200), end the fault,
/// play (all 200 without a restart), crash, restart, check, play.
async fn through_fault<F, G>(url: &str, options: &StoreOptions, fault: F, heal: G)
where
    F: AsyncFnOnce(),
    G: AsyncFnOnce(),
{
    let srv = TestServer::start_with(url, with_store(options)).await;
    let mut table = Table::new(&srv, url).await;
    let before = table.play(6).await;
    assert_eq!(before.failed, 0, "no fault yet: {before:?}");

    fault().await;
    let during = table.play(30).await;
    eprintln!("during the fault: {during:?}");
    assert!(during.failed > 0, "the fault made no move fail: {during:?}");
    table.check_all().await;

    heal().await;
    let after = table.play(12).await;
    assert_eq!(
        after.failed, 0,
        "moves work again once the fault is gone, without a restart"
    );
    assert_eq!(after.acked, 12);

    srv.crash().await;
    let srv = TestServer::start_with(url, with_store(options)).await;
    table.check_served(&srv).await;
    table.check_all().await;
    let again = table.play(3).await;
    assert_eq!(again.failed, 0, "moves after the restart");
    srv.stop().await;
}

/// Runs `sql` with `arg` until the database is full.
async fn fill(conn: &mut AnyConnection, sql: &str, arg: i64) {
    loop {
        match sqlx::query(sql).bind(arg).execute(&mut *conn).await {
            Ok(_) => {}
            Err(e) if is_full(&e) => return,
            Err(e) => panic!("filling: {e}"),
        }
    }
}

fn is_full(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|code| code == "13")
}

#[tokio::test]
async fn sqlite_full_database_acknowledges_nothing_and_recovers() {
    let url = sqlite_url("full");
    // 150 pages of 4 KiB: the schema (27 migrations; 100 pages no longer held it and a few
    // moves) and a few hundred moves, then the filler fills it.
    let options = StoreOptions {
        sqlite_max_pages: Some(150),
    };
    let filler: Arc<Mutex<Option<AnyConnection>>> = Arc::default();
    let (filled, freed) = (filler.clone(), filler);
    let filler_url = url.clone();
    through_fault(
        &url,
        &options,
        async move || {
            let mut conn = AnyConnection::connect(&filler_url).await.expect("filler");
            sqlx::query("PRAGMA max_page_count = 150")
                .execute(&mut conn)
                .await
                .expect("pragma");
            sqlx::query("CREATE TABLE filler (b BLOB)")
                .execute(&mut conn)
                .await
                .expect("filler table");
            // Large rows, then smaller ones: the file is full to the last few hundred bytes.
            for size in [3000i64, 300, 30] {
                fill(
                    &mut conn,
                    "INSERT INTO filler (b) VALUES (randomblob($1))",
                    size,
                )
                .await;
            }
            // The last page of the moves table has room too: fill it with moves of a game
            // that is no real game, so that the next real move needs a new page.
            sqlx::query(
                "INSERT INTO games (id, variant, start_fen, white_kind, black_kind, status, \
                 ply, turn, version, created_at, updated_at) \
                 VALUES ('zzfiller', 'antarctos', '-', 'open', 'open', 'finished', 0, \
                 'white', 1, 0, 0)",
            )
            .execute(&mut conn)
            .await
            .expect("filler game");
            fill(
                &mut conn,
                "INSERT INTO moves (game_id, ply, move_id, move_text, fen, created_at) \
                 SELECT 'zzfiller', COALESCE(MAX(ply), 0) + 1, 'm', 'm', \
                 substr(hex(randomblob($1)), 1, 8), 0 FROM moves WHERE game_id = 'zzfiller'",
                4,
            )
            .await;
            *filled.lock().await = Some(conn);
        },
        async move || {
            let mut guard = freed.lock().await;
            let conn = guard.as_mut().expect("filled");
            sqlx::query("DELETE FROM filler")
                .execute(conn)
                .await
                .expect("room again");
        },
    )
    .await;
}

#[tokio::test]
async fn sqlite_on_a_full_tmpfs_acknowledges_nothing_and_recovers() {
    let mnt = match Tmpfs::mount("tmpfs", "4m") {
        Ok(mnt) => mnt,
        Err(reason) => return skip(&reason),
    };
    let url = format!("sqlite://{}?mode=rwc", mnt.0.join("full.db").display());
    let filler = mnt.0.join("filler");
    let fill_path = filler.clone();
    through_fault(
        &url,
        &StoreOptions::default(),
        async move || fill_disk(&fill_path, 48 * 1024),
        async move || std::fs::remove_file(&filler).expect("room again"),
    )
    .await;
}

/// Files made immutable (`chattr +i`: no write even through descriptors already open, even
/// by root), made writable again when dropped.
struct Immutable(Vec<PathBuf>);

impl Immutable {
    fn set(files: &[PathBuf], on: bool) -> Result<(), String> {
        let flag = if on { "+i" } else { "-i" };
        let out = Command::new("chattr")
            .arg(flag)
            .args(files)
            .output()
            .map_err(|e| format!("chattr: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
        }
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Self::set(&self.0, false);
    }
}

#[tokio::test]
async fn sqlite_read_only_file_acknowledges_nothing_and_recovers() {
    if !is_root() {
        return skip("chattr +i needs root (chmod does not reach files a server has open)");
    }
    let url = sqlite_url("readonly");
    let db = PathBuf::from(
        url.trim_start_matches("sqlite://")
            .trim_end_matches("?mode=rwc"),
    );
    let probe = db.with_file_name("probe");
    std::fs::write(&probe, b"x").expect("probe file");
    if let Err(e) = Immutable::set(std::slice::from_ref(&probe), true) {
        return skip(&format!("chattr +i does not work here: {e}"));
    }
    drop(Immutable(vec![probe]));
    let files = vec![db.clone(), PathBuf::from(format!("{}-wal", db.display()))];
    let held: Arc<Mutex<Option<Immutable>>> = Arc::default();
    let (set, unset) = (held.clone(), held);
    through_fault(
        &url,
        &StoreOptions::default(),
        async move || {
            Immutable::set(&files, true).unwrap_or_else(|e| panic!("chattr +i: {e}"));
            *set.lock().await = Some(Immutable(files));
        },
        async move || drop(unset.lock().await.take()),
    )
    .await;
}

/// SQLite opens a file it cannot write read-only, silently, and such a connection stays
/// read-only after the file is fixed. Here the pool's connections are all opened while the
/// file is immutable (the writes fail and close theirs; reads open new ones and keep them
/// idle), then the file is fixed: the next move must be stored, not fail on two read-only
/// connections in a row (once about one run in twenty of the test above, under load).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_connections_opened_while_read_only_are_not_handed_out_after_the_fix() {
    if !is_root() {
        return skip("chattr +i needs root (chmod does not reach files a server has open)");
    }
    let url = sqlite_url("readonly-pool");
    let db = PathBuf::from(
        url.trim_start_matches("sqlite://")
            .trim_end_matches("?mode=rwc"),
    );
    let store = site_store::Store::open(&url).await.expect("open");
    let ids: Vec<String> = (0..8).map(|i| format!("ro{i}pool")).collect();
    for id in &ids {
        store
            .insert_game(&engine_white_row(id))
            .await
            .expect("insert");
    }
    let files = vec![db.clone(), PathBuf::from(format!("{}-wal", db.display()))];
    Immutable::set(&files, true).unwrap_or_else(|e| panic!("chattr +i: {e}"));
    let fixed = Immutable(files);
    let first_move = |id: &str| {
        let mut next = engine_white_row(id);
        next.ply = 1;
        next.turn = game::Color::Black;
        next.version = 2;
        let mv = site_store::MoveRow {
            ply: 1,
            move_id: "c3-d4".into(),
            move_text: "c3-d4".into(),
            fen: "x".into(),
            event: None,
            created_at: 2,
        };
        (next, mv)
    };
    for round in 0..3 {
        let writes: Vec<_> = ids
            .iter()
            .map(|id| {
                let (store, (next, mv)) = (store.clone(), first_move(id));
                tokio::spawn(async move { store.save_move(&next, &mv).await })
            })
            .collect();
        for w in writes {
            assert!(
                w.await.expect("task").is_err(),
                "round {round}: a write to an immutable file was acknowledged"
            );
        }
        let reads: Vec<_> = ids
            .iter()
            .map(|id| {
                let (store, id) = (store.clone(), id.clone());
                tokio::spawn(async move { store.load_game(&id).await })
            })
            .collect();
        for r in reads {
            r.await
                .expect("task")
                .expect("a read works on a read-only file");
        }
    }
    drop(fixed);
    for id in &ids {
        let (next, mv) = first_move(id);
        store
            .save_move(&next, &mv)
            .await
            .unwrap_or_else(|e| panic!("{id}: the move after the fix failed: {e}"));
        let (row, moves) = store.load_game(id).await.expect("load").expect("exists");
        assert_eq!((row.ply, moves.len()), (1, 1), "{id}");
    }
    store.close().await;
}

/// Uploads on a full disk (a real 4 MiB tmpfs, root only): each is a 500 whose advice is for
/// an upload (no game to reload; a failed commit says sending it again is safe), and once there
/// is room the same uploads are stored.
#[tokio::test]
async fn uploads_on_a_full_disk_advise_sending_them_again() {
    let mnt = match Tmpfs::mount("fullupload", "4m") {
        Ok(mnt) => mnt,
        Err(reason) => return skip(&reason),
    };
    let url = format!("sqlite://{}?mode=rwc", mnt.0.join("up.db").display());
    let filler = mnt.0.join("filler");
    let srv = TestServer::start_with(&url, with_store(&StoreOptions::default())).await;
    let mut c = srv.client();
    // Uploads resigned after two moves, each its own game (level, colour and variant differ).
    let bodies: Vec<Value> = (1..=8)
        .flat_map(|level| {
            [
                ("antarctos", ["c3-d4", "f6-g5"], "white", "0-1"),
                ("antarctos", ["a3-b4", "b6-a5"], "black", "1-0"),
            ]
            .map(|(variant, moves, color, result)| {
                json!({"variant": variant, "moves": moves, "level": level,
                       "color": color, "result": result})
            })
        })
        .collect();
    let first = c
        .post("/api/games/upload", bodies[0].clone())
        .await
        .expect("upload");
    assert_eq!(first.status, 201, "{}", first.text);
    fill_disk(&filler, 0);
    let mut failed = Vec::new();
    for body in &bodies[1..] {
        let a = c
            .post("/api/games/upload", body.clone())
            .await
            .expect("upload");
        if a.status == 500 {
            let message = a.body["error"]["message"]
                .as_str()
                .unwrap_or("")
                .to_string();
            assert!(!message.contains("reload the game"), "{message}");
            assert!(
                !message.contains("not acknowledged") || message.contains("upload again is safe"),
                "{message}"
            );
            failed.push((body.clone(), message));
        } else {
            assert!(a.status == 201 || a.status == 200, "{}", a.text);
        }
    }
    eprintln!(
        "on the full disk: {} of {} uploads failed",
        failed.len(),
        bodies.len() - 1
    );
    for (_, message) in failed.iter().take(3) {
        eprintln!("  {message}");
    }
    assert!(!failed.is_empty(), "the full disk made no upload fail");
    std::fs::remove_file(&filler).expect("room again");
    for (body, _) in &failed {
        let a = c
            .post("/api/games/upload", body.clone())
            .await
            .expect("upload");
        assert!(a.status == 201 || a.status == 200, "{}", a.text);
    }
    srv.stop().await;
}

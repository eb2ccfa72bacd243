//! Issue 44: a move's write names only the columns a move changes (`store/move_update.rs`),
//! and never drops a change: a move that also changed a seat, or that ends the game, is
//! written whole, and a stale one is refused with nothing written.

use game::{Color, EndReason, RecordResult};
use site_model::state::GameStatus;
use site_store::{GameRow, MoveRow, Store, StoreError};
use test_support::both_databases;
use test_support::store::engine_white_row;

fn mv(ply: i64, text: &str) -> MoveRow {
    MoveRow {
        ply,
        move_id: text.into(),
        move_text: text.into(),
        fen: format!("fen after {ply}"),
        event: None,
        created_at: 100 + ply,
    }
}

/// `row` after one more move by the side to move, at `now`.
fn after_move(row: &GameRow, now: i64) -> GameRow {
    let mut next = row.clone();
    next.ply += 1;
    next.version += 1;
    next.turn = !row.turn;
    next.updated_at = now;
    next
}

async fn assert_stored(store: &Store, want: &GameRow, moves: usize) {
    let (back, stored) = store
        .load_game(&want.id)
        .await
        .expect("load")
        .expect("exists");
    assert_eq!(&back, want, "the row as written");
    assert_eq!(stored.len(), moves);
}

async fn a_moves_write_keeps_every_change(url: &str) {
    let store = Store::open(url).await.expect("open");
    let suffix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000)
        .unwrap_or(0);
    let row = engine_white_row(&format!("mu{suffix}"));
    store.insert_game(&row).await.expect("insert");

    // A plain move, with a draw offer standing after it: the narrow write.
    let mut one = after_move(&row, 10);
    one.draw_offer = Some(Color::White);
    store
        .save_move(&one, &mv(1, "c3-d4"))
        .await
        .expect("move 1");
    assert_stored(&store, &one, 1).await;

    // A move whose row also changed a seat's name: written whole, the name kept.
    let mut two = after_move(&one, 20);
    two.draw_offer = None;
    two.black.name = Some("Ann2".into());
    store
        .save_move(&two, &mv(2, "f6-g5"))
        .await
        .expect("move 2");
    assert_stored(&store, &two, 2).await;

    // A stale move (written from the row before move 2): refused, nothing written.
    let stale = store
        .save_move(&after_move(&one, 30), &mv(2, "b6-a5"))
        .await;
    assert!(matches!(stale, Err(StoreError::Stale { .. })), "{stale:?}");
    assert_stored(&store, &two, 2).await;

    // A move that ends the game: its result is stored.
    let mut three = after_move(&two, 40);
    three.status = GameStatus::Finished;
    three.result = Some(RecordResult::WhiteWins);
    three.winner = Some(Color::White);
    three.reason = Some(EndReason::Breakthrough);
    store
        .save_move(&three, &mv(3, "d4-e5"))
        .await
        .expect("move 3");
    assert_stored(&store, &three, 3).await;
    store.close().await;
}

both_databases! {
    async fn a_moves_write_keeps_every_change(url: &str) {
        a_moves_write_keeps_every_change(url).await;
    }
}

/// The narrow write is the one taken: a trigger counts the UPDATEs that name the indexed
/// `white_token` or `status` in SET (SQLite's `UPDATE OF` fires on a named column, changed or
/// not, as its index entries are rewritten). A move in play names neither; a move that ends
/// the game does.
#[tokio::test]
async fn a_move_in_play_names_no_indexed_column_but_the_deadline() {
    let url = test_support::store::sqlite_url("move-update-narrow");
    let store = Store::open(&url).await.expect("open");
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.expect("raw pool");
    for sql in [
        "CREATE TABLE wide_writes (id TEXT)",
        "CREATE TRIGGER count_wide AFTER UPDATE OF white_token, status ON games \
         BEGIN INSERT INTO wide_writes VALUES (NEW.id); END",
    ] {
        sqlx::query(sql).execute(&pool).await.expect(sql);
    }
    let wide = || async {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM wide_writes")
            .fetch_one(&pool)
            .await
            .expect("count");
        n
    };
    let row = engine_white_row("narrow01");
    store.insert_game(&row).await.expect("insert");
    let mut at = row.clone();
    for ply in 1..=4 {
        at = after_move(&at, 10 * ply);
        store.save_move(&at, &mv(ply, "m")).await.expect("move");
    }
    assert_eq!(wide().await, 0, "four moves in play, no wide write");
    let mut last = after_move(&at, 100);
    last.status = GameStatus::Finished;
    last.result = Some(RecordResult::Draw);
    last.reason = Some(EndReason::Breakthrough);
    store
        .save_move(&last, &mv(5, "m"))
        .await
        .expect("last move");
    assert_eq!(
        wide().await,
        1,
        "the move that ends the game writes the row whole"
    );
    assert_stored(&store, &last, 5).await;
    pool.close().await;
    store.close().await;
}

//! Writes and reads against one database: a stale write of a ply is refused, and a game's row
//! and moves load from one snapshot while another store appends (moved from the server's tests:
//! they need no server).

use game::Color;
use site_model::state::SeatKind;
use site_store::{MoveRow, Store, StoreError};
use test_support::both_databases;
use test_support::store::engine_white_row;

async fn store_checks_ply_and_version(url: &str) {
    let store = Store::open(url).await.expect("open");
    let id = format!("st{}", std::process::id() % 100_000);
    let id = format!("{id}{}", rand_suffix());
    let row = engine_white_row(&id);
    store.insert_game(&row).await.expect("insert");
    let mv = |ply: i64, text: &str| MoveRow {
        ply,
        move_id: text.into(),
        move_text: text.into(),
        fen: "x".into(),
        event: None,
        created_at: 2,
    };
    let mut next = row.clone();
    next.ply = 1;
    next.turn = Color::Black;
    next.version = 2;
    store
        .save_move(&next, &mv(1, "c3-d4"))
        .await
        .expect("first write");
    // A second writer that read the same row (ply 0, version 1) loses.
    let stale = store.save_move(&next, &mv(1, "e3-f4")).await;
    assert!(matches!(stale, Err(StoreError::Stale { .. })), "{stale:?}");
    let (back, moves) = store.load_game(&id).await.expect("load").expect("exists");
    assert_eq!(back.ply, 1);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].move_text, "c3-d4");
    store.close().await;
}

both_databases! {
    async fn store_refuses_a_second_write_of_a_ply(url: &str) {
        store_checks_ply_and_version(url).await;
    }
}

/// Issue 9, section 5: a game's row and its moves come from one snapshot, even while another
/// process appends moves. Two stores (two pools, as two servers) on one database: one appends
/// moves as fast as it can, the other loads the game again and again. For comparison, the same
/// reader also reads row and moves in two statements without a transaction (the old way) and
/// prints how often those disagree.
async fn loads_are_consistent_while_another_store_writes(url: &str) {
    use sqlx::{AnyConnection, Connection, Row};
    let writer = Store::open(url).await.expect("writer");
    let reader = Store::open(url).await.expect("reader");
    let id = format!("cr{}", rand_suffix());
    let mut row = engine_white_row(&id);
    row.white.kind = SeatKind::Human;
    row.white.level = None;
    writer.insert_game(&row).await.expect("insert");
    let plies = 400i64;
    let write = tokio::spawn(async move {
        for ply in 1..=plies {
            row.ply = ply;
            row.version += 1;
            row.turn = if ply % 2 == 1 {
                Color::Black
            } else {
                Color::White
            };
            let mv = MoveRow {
                ply,
                move_id: format!("m{ply}"),
                move_text: format!("m{ply}"),
                fen: format!("f{ply}"),
                event: None,
                created_at: ply,
            };
            writer.save_move(&row, &mv).await.expect("write");
        }
        writer.close().await;
    });
    let mut naive = AnyConnection::connect(url).await.expect("naive reader");
    let (mut loads, mut naive_reads, mut naive_torn) = (0, 0, 0);
    loop {
        let (game, moves) = reader.load_game(&id).await.expect("load").expect("game");
        loads += 1;
        assert_eq!(
            moves.len() as i64,
            game.ply,
            "load {loads}: the row says ply {} but {} moves were read",
            game.ply,
            moves.len()
        );
        assert!(moves.iter().enumerate().all(|(i, m)| m.ply == i as i64 + 1));
        let ply: i64 = sqlx::query("SELECT ply FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&mut naive)
            .await
            .expect("naive row")
            .try_get("ply")
            .expect("ply");
        let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM moves WHERE game_id = $1")
            .bind(&id)
            .fetch_one(&mut naive)
            .await
            .expect("naive moves")
            .try_get("n")
            .expect("n");
        naive_reads += 1;
        naive_torn += usize::from(n != ply);
        if game.ply == plies {
            break;
        }
    }
    write.await.expect("writer");
    eprintln!(
        "{loads} snapshot loads, none torn; {naive_torn} of {naive_reads} two-statement reads \
         disagreed"
    );
    reader.close().await;
}

both_databases! {
    multi_thread; async fn loads_are_consistent_while_another_store_writes(url: &str) {
        loads_are_consistent_while_another_store_writes(url).await;
    }
}

/// A suffix of this run's own for game ids (a PostgreSQL database outlives the run).
fn rand_suffix() -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000)
        .unwrap_or(0);
    format!("{n}")
}

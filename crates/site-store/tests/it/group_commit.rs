//! Issue 44: new games and state changes are group-committed with the moves. A burst of new
//! games, sent at once, is stored whole in fewer transactions than games; of two state changes
//! of one game made from the same version, one is stored and the other refused as stale alone,
//! while the rest of its batch commits.

use site_store::{Store, StoreError};
use test_support::both_databases;
use test_support::store::engine_white_row;

async fn new_games_and_state_changes_commit_together(url: &str) {
    let store = Store::open(url).await.expect("open");
    let games = 150;
    let suffix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() % 1_000_000_000)
        .unwrap_or(0);
    let ids: Vec<String> = (0..games).map(|i| format!("gn{i}x{suffix}")).collect();
    let (before, _) = store.commit_counts();
    let inserts: Vec<_> = ids
        .iter()
        .map(|id| {
            let store = store.clone();
            let row = engine_white_row(id);
            tokio::spawn(async move { store.insert_game(&row).await })
        })
        .collect();
    for t in inserts {
        t.await.expect("task").expect("a new game is stored");
    }
    let (after_inserts, moves) = store.commit_counts();
    let transactions = after_inserts - before;
    eprintln!("{games} new games in {transactions} transactions");
    assert!(
        transactions < games as u64,
        "{transactions} transactions for {games} new games: no group commit"
    );
    assert_eq!(moves, 0, "new games are no moves");
    // Two different changes of each game from version 1: one wins.
    let mut changes = Vec::new();
    for id in &ids {
        for offer in [game::Color::White, game::Color::Black] {
            let store = store.clone();
            let mut next = engine_white_row(id);
            next.version = 2;
            next.draw_offer = Some(offer);
            changes.push(tokio::spawn(async move {
                (next.id.clone(), offer, store.save_state(&next).await)
            }));
        }
    }
    let mut stored = std::collections::HashMap::new();
    let mut stale = 0;
    for t in changes {
        let (id, offer, result) = t.await.expect("task");
        match result {
            Ok(()) => assert!(stored.insert(id, offer).is_none(), "two changes stored"),
            Err(StoreError::Stale { .. }) => stale += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!((stored.len(), stale), (games, games));
    for id in &ids {
        let (row, moves) = store.load_game(id).await.expect("load").expect("exists");
        assert_eq!(row.version, 2, "{id}");
        assert_eq!(
            row.draw_offer,
            Some(stored[id]),
            "the acknowledged change is stored"
        );
        assert!(moves.is_empty());
    }
    store.close().await;
}

both_databases! {
    multi_thread; async fn new_games_and_state_changes_commit_together(url: &str) {
        new_games_and_state_changes_commit_together(url).await;
    }
}

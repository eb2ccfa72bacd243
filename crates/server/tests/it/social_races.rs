//! Issue 41, hostile findings 4 and 5 of round 6: a block or a moderator's close landing at
//! the same moment as the other player's challenges or seeks, through two processes on one
//! database. Before, the block and the closed account were read before the insert's
//! transaction: a block left 1-5 of the blocked player's challenges in the blocker's bell
//! (8 of 8 trials on SQLite), and a close left open challenges and seeks of the closed
//! account that could be accepted (4 of 6 trials).

use crate::common::lobby::{account, get, make_mod, post, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

const TRIALS: usize = 6;

/// The store's accept of a seek and its rematch read blocks and closed accounts inside their
/// own transactions (under both players' lobby locks), not only the site's checks before them:
/// hostile findings 1-3 of round 7 made a game after a block or a close that committed between
/// the two (a seek accept, quick pairing, a rematch). Here the block and the close are stored
/// after the site's checks would have passed, by calling the store directly.
async fn accepts_check_in_the_transaction(url: &str) {
    let srv = start(url).await;
    let store = srv.site.services().play.store().clone();
    let (mut ann, ann_name) = account(&srv, "txa").await;
    let (_bob, bob_name) = account(&srv, "txb").await;
    let (moderator, mod_name) = account(&srv, "txmod").await;
    make_mod(&srv, &mod_name).await;
    let seek = post(
        &mut ann,
        "/api/seeks",
        json!({"variant": "antarctos", "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    assert_eq!(seek.status, 201, "{}", seek.text);
    let seek_id = seek.body["id"].as_str().expect("id").to_string();
    let who = |name: String| {
        let store = store.clone();
        async move {
            store
                .account_player(&name)
                .await
                .expect("read")
                .expect("account")
        }
    };
    let (ann_id, _, ann_hash) = who(ann_name.clone()).await;
    let (bob_id, _, bob_hash) = who(bob_name.clone()).await;
    let game = test_support::store::engine_white_row("txgame01");
    // Ann blocks Bob: Bob's accept of her seek makes no game.
    assert!(store.block(&ann_id, &bob_id, 1).await.expect("block"));
    let outcome = store
        .accept_seek(&seek_id, &bob_hash, &game, None)
        .await
        .expect("accept");
    assert_eq!(outcome, site_store::AcceptOutcome::Blocked);
    // Nor a rematch, either way round.
    for (a, b, want) in [
        (&bob_hash, &ann_hash, site_store::Between::BBlocksA),
        (&ann_hash, &bob_hash, site_store::Between::ABlocksB),
    ] {
        let r = store
            .insert_rematch(&game, &game, Some((a.as_str(), b.as_str())))
            .await
            .expect("rematch");
        assert_eq!(r, Err(want));
    }
    // Unblocked, then Bob's account closed: his accept makes no game either.
    assert!(store.unblock(&ann_id, &bob_id).await.expect("unblock"));
    let mut m = moderator;
    let r = post(
        &mut m,
        &format!("/api/mod/players/{bob_name}/close"),
        json!({"reason": "closed"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let outcome = store
        .accept_seek(&seek_id, &bob_hash, &game, None)
        .await
        .expect("accept");
    assert_eq!(outcome, site_store::AcceptOutcome::AcceptorClosed);
    let r = store
        .insert_rematch(&game, &game, Some((bob_hash.as_str(), ann_hash.as_str())))
        .await
        .expect("rematch");
    assert_eq!(r, Err(site_store::Between::AClosed));
    // The seek is still Ann's, open.
    let open = get(&mut ann, "/api/seeks").await.body;
    assert!(
        open.as_array()
            .expect("seeks")
            .iter()
            .any(|s| s["id"] == seek_id.as_str()),
        "{open}"
    );
    srv.stop().await;
}

fn challenge_to(name: &str) -> Value {
    json!({"username": name, "variant": "antarctos",
           "time_control": {"kind": "correspondence", "days": 3}, "rated": false})
}

/// `n` challenges from `c` to `name` at once, each on its own task.
fn challenges(c: &ApiClient, name: &str, n: usize) -> Vec<tokio::task::JoinHandle<u16>> {
    (0..n)
        .map(|_| {
            let (mut c, body) = (c.clone(), challenge_to(name));
            tokio::spawn(async move { post(&mut c, "/api/challenges", body).await.status })
        })
        .collect()
}

/// The challenge notifications in `c`'s bell that name `by`.
async fn challenge_notes_by(c: &mut ApiClient, by: &str) -> Vec<Value> {
    let notes = get(c, "/api/notifications").await.body;
    notes["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|n| n["kind"] == "challenge" && n["by"] == by)
        .cloned()
        .collect()
}

async fn block_race(url: &str) {
    let srv = start(url).await;
    let other = start(url).await;
    for trial in 0..TRIALS {
        let (mut ann, ann_name) = account(&srv, &format!("br{trial}a")).await;
        let (bob, bob_name) = account(&other, &format!("br{trial}b")).await;
        let sent = challenges(&bob, &ann_name, 5);
        let block = {
            let (mut ann, path) = (ann.clone(), format!("/api/players/{bob_name}/block"));
            tokio::spawn(async move { post(&mut ann, &path, json!({})).await })
        };
        let block = block.await.expect("block");
        assert_eq!(block.status, 204, "{}", block.text);
        let mut statuses = Vec::new();
        for t in sent {
            statuses.push(t.await.expect("challenge"));
        }
        assert!(
            statuses.iter().all(|s| *s == 201 || *s == 403),
            "{statuses:?}"
        );
        let left = challenge_notes_by(&mut ann, &bob_name).await;
        assert!(
            left.is_empty(),
            "trial {trial}: the blocker's bell kept {} challenges of the blocked player \
             (answers {statuses:?}): {left:?}",
            left.len()
        );
        // A challenge after the block is refused as by a player who takes none.
        let mut bob = bob;
        let r = post(&mut bob, "/api/challenges", challenge_to(&ann_name)).await;
        assert_error(&r, 403, "not_accepted");
    }
    other.stop().await;
    srv.stop().await;
}

async fn close_race(url: &str) {
    let srv = start(url).await;
    let other = start(url).await;
    let (moderator, mod_name) = account(&srv, "crmod").await;
    make_mod(&srv, &mod_name).await;
    for trial in 0..TRIALS {
        let (mut ann, ann_name) = account(&srv, &format!("cr{trial}a")).await;
        let (bob, bob_name) = account(&other, &format!("cr{trial}b")).await;
        let sent = challenges(&bob, &ann_name, 5);
        let seeks: Vec<_> = (0..3)
            .map(|_| {
                let mut c = bob.clone();
                tokio::spawn(async move {
                    post(
                        &mut c,
                        "/api/seeks",
                        json!({"variant": "antarctos",
                               "time_control": {"kind": "correspondence", "days": 3}}),
                    )
                    .await
                    .status
                })
            })
            .collect();
        let close = {
            let (mut m, path) = (
                moderator.clone(),
                format!("/api/mod/players/{bob_name}/close"),
            );
            tokio::spawn(async move { post(&mut m, &path, json!({"reason": "race"})).await })
        };
        let close = close.await.expect("close");
        assert_eq!(close.status, 200, "{}", close.text);
        let mut statuses = Vec::new();
        for t in sent.into_iter().chain(seeks) {
            statuses.push(t.await.expect("request"));
        }
        let open = get(&mut ann, "/api/challenges").await.body;
        let from_bob: Vec<&Value> = open["incoming"]
            .as_array()
            .expect("incoming")
            .iter()
            .filter(|c| c["challenger"] == bob_name.as_str())
            .collect();
        assert!(
            from_bob.is_empty(),
            "trial {trial}: open challenges of a closed account (answers {statuses:?}): \
             {from_bob:?}"
        );
        let lobby = get(&mut ann, "/api/seeks").await.body;
        let seeks_left: Vec<&Value> = lobby
            .as_array()
            .expect("seeks")
            .iter()
            .filter(|s| s["username"] == bob_name.as_str())
            .collect();
        assert!(
            seeks_left.is_empty(),
            "trial {trial}: seeks of a closed account (answers {statuses:?}): {seeks_left:?}"
        );
        let left = challenge_notes_by(&mut ann, &bob_name).await;
        assert!(
            left.is_empty(),
            "trial {trial}: the bell kept challenges of a closed account: {left:?}"
        );
    }
    other.stop().await;
    srv.stop().await;
}

both_databases! {
    multi_thread;
    async fn a_block_at_the_same_moment_as_challenges_leaves_none_in_the_bell(url: &str) {
        block_race(url).await;
    }
}

both_databases! {
    multi_thread;
    async fn a_close_at_the_same_moment_as_challenges_and_seeks_leaves_none(url: &str) {
        close_race(url).await;
    }
}

both_databases! {
    async fn a_seek_accept_and_a_rematch_read_blocks_and_closes_in_their_transaction(url: &str) {
        accepts_check_in_the_transaction(url).await;
    }
}

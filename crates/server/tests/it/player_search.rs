//! The player search (`GET /api/players/search?q=`, browser finding 3): open accounts by the
//! start of their name in any case, at most 10, closed accounts left out; a query too short,
//! with a character no name has, missing, or with another parameter is a 400 naming it.

use crate::common::lobby::{account, get, post, start};
use crate::common::*;
use serde_json::json;

/// The names `q` finds.
async fn found(c: &mut server::client::ApiClient, q: &str) -> Vec<String> {
    let a = get(c, &format!("/api/players/search?q={q}")).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.body["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["username"].as_str().expect("username").to_string())
        .collect()
}

/// Asserts a 400 whose message begins with `name`.
fn names(a: &server::client::Answer, name: &str) {
    assert_error(a, 400, "bad_request");
    let m = a.body["error"]["message"].as_str().unwrap_or_default();
    assert!(m.starts_with(name), "the message names {name}: {}", a.text);
}

async fn search(url: &str) {
    let srv = start(url).await;
    // A prefix of its own: names are made of it and a number (common::lobby::name).
    let (mut ann, ann_name) = account(&srv, "Psq").await;
    let mut others = Vec::new();
    for _ in 0..11 {
        others.push(account(&srv, "psq").await.1);
    }
    let (_, other) = account(&srv, "zsq").await;
    // Any case; at most 10, in name order.
    let list = found(&mut ann, "pSQ").await;
    assert_eq!(list.len(), 10, "{list:?}");
    let mut sorted = list.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(list, sorted, "in name order");
    assert!(list.iter().all(|n| n.to_lowercase().starts_with("psq")));
    assert_eq!(found(&mut ann, &other).await, vec![other.clone()]);
    assert_eq!(found(&mut ann, &ann_name).await, vec![ann_name.clone()]);
    // A closed account is not found.
    let store = srv.site.services().play.store().clone();
    let (mut moe, moe_name) = account(&srv, "msq").await;
    assert!(
        site::social::moderation::set_moderator(&store, &moe_name, true)
            .await
            .expect("grant")
    );
    let a = post(
        &mut moe,
        &format!("/api/mod/players/{other}/close"),
        json!({"reason": "test"}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert!(found(&mut ann, &other).await.is_empty());
    // Bad queries, each named.
    for (path, name) in [
        ("/api/players/search?q=p", "q"),
        ("/api/players/search?q=", "q"),
        ("/api/players/search", "q"),
        ("/api/players/search?q=bad%20name", "q"),
        ("/api/players/search?q=abcdefghijklmnopqrstu", "q"),
        ("/api/players/search?q=ps&q=pq", "q"),
        ("/api/players/search?q=ps&limit=3", "limit"),
    ] {
        let a = ann.get(path).await.expect("request");
        names(&a, name);
    }
    // Anonymous readers search too.
    let mut guest = server::client::ApiClient::new(srv.addr);
    assert_eq!(found(&mut guest, &ann_name).await, vec![ann_name]);
    srv.stop().await;
}

both_databases! {
    async fn players_are_found_by_the_start_of_their_name(url: &str) {
        search(url).await;
    }
}

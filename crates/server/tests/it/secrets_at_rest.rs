//! Secrets at rest (issue 9, section 3): the database keeps only SHA-256 hashes of player tokens
//! and invitations, its SQLite file (and `-wal`, `-shm`) is readable by its owner only, and the
//! schema migration converts a database written before, with its players keeping their seats.

use crate::common::*;
use serde_json::json;
use server::client::ApiClient;
use site_model::secrets::{PlayerToken, invite_hash};
use sqlx::{Connection, Row, SqliteConnection};

fn file_of(url: &str) -> String {
    url.trim_start_matches("sqlite://")
        .split('?')
        .next()
        .expect("path")
        .to_string()
}

/// Every text value of the `games` table, column by column.
async fn stored_texts(url: &str) -> Vec<String> {
    let mut db = SqliteConnection::connect(url).await.expect("open the file");
    let rows = sqlx::query("SELECT * FROM games")
        .fetch_all(&mut db)
        .await
        .expect("games");
    let mut out = Vec::new();
    for r in &rows {
        for i in 0..r.len() {
            if let Ok(Some(s)) = r.try_get::<Option<String>, _>(i) {
                out.push(s);
            }
        }
    }
    out
}

#[tokio::test]
async fn the_database_keeps_only_hashes_of_tokens_and_invitations() {
    let url = sqlite_url("hashes");
    let srv = TestServer::start(&url).await;
    let mut alice = srv.client();
    let mut bob = srv.client();
    let g = create(
        &mut alice,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    let link = g["invite_url"].as_str().expect("invitation").to_string();
    let invite = link.trim_start_matches("/join/").to_string();
    assert_eq!(invite.len(), 32, "{link}");
    let joined = bob
        .post(&format!("/api/join/{invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(joined.status, 200, "{}", joined.text);
    let a = alice.token().expect("token").to_string();
    let b = bob.token().expect("token").to_string();
    let texts = stored_texts(&url).await;
    for secret in [&a, &b, &invite] {
        assert!(
            !texts.iter().any(|t| t.contains(secret.as_str())),
            "{secret} is stored in plain text"
        );
    }
    let hash_of = |t: &str| {
        PlayerToken::try_from(t)
            .expect("token")
            .hash()
            .into_string()
    };
    for hash in [hash_of(&a), hash_of(&b), invite_hash(&invite)] {
        assert!(texts.contains(&hash), "the hash {hash} is stored");
    }
    // The seats still answer to the tokens, and the creator alone saw the invitation.
    let seen = bob.get(&format!("/api/games/{id}")).await.expect("get");
    assert_eq!(seen.body["you"], "black");
    assert!(seen.body["invite_url"].is_null());
    srv.stop().await;
}

#[cfg(unix)]
#[tokio::test]
async fn the_sqlite_file_and_its_wal_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &str| {
        std::fs::metadata(p)
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    // Created by the server: 0600, and SQLite gives -wal and -shm the database file's mode.
    let url = sqlite_url("private");
    let srv = TestServer::start(&url).await;
    let mut c = srv.client();
    create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let file = file_of(&url);
    for f in [file.clone(), format!("{file}-wal"), format!("{file}-shm")] {
        assert_eq!(mode(&f), 0o600, "{f}");
    }
    srv.stop().await;
    // A file made world-readable by an older version is made private when opened.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let srv = TestServer::start(&url).await;
    assert_eq!(mode(&file), 0o600);
    srv.stop().await;
}

#[tokio::test]
async fn migration_converts_an_older_database_and_players_keep_their_seats() {
    let url = sqlite_url("migrate");
    // A database as the schema before secrets at rest left it: games with plain tokens and a
    // plain invitation, schema version 2. Made from today's schema by undoing migration 3.
    schema_before_secrets_at_rest(&url).await;
    let old_white = "OldWhiteToken0123456789abcdefXYZ";
    let old_black = "OldBlackToken0123456789abcdefXYZ";
    let old_creator = "OldCreatorTokenAbcdefghijklmnop1";
    let old_invite = "OldInvitation012345678901";
    let mut db = SqliteConnection::connect(&url).await.expect("open");
    let insert = "INSERT INTO games (id, variant, start_fen, white_kind, white_token, black_kind, \
         black_token, invite, status, ply, turn, version, created_at, updated_at) VALUES \
         ($1, 'antarctos', $2, $3, $4, $5, $6, $7, 'ongoing', 0, 'white', 1, 1, 1)";
    let start = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
    for (id, wk, wt, bk, bt, inv) in [
        (
            "oldgame1",
            "human",
            Some(old_white),
            "human",
            Some(old_black),
            None,
        ),
        (
            "oldgame2",
            "human",
            Some(old_creator),
            "open",
            None,
            Some(old_invite),
        ),
    ] {
        sqlx::query(insert)
            .bind(id)
            .bind(start)
            .bind(wk)
            .bind(wt)
            .bind(bk)
            .bind(bt)
            .bind(inv)
            .execute(&mut db)
            .await
            .expect("old row");
    }
    db.close().await.expect("close");

    let srv = TestServer::start(&url).await;
    let texts = stored_texts(&url).await;
    for secret in [old_white, old_black, old_creator, old_invite] {
        assert!(
            !texts.iter().any(|t| t.contains(secret)),
            "{secret} left in plain text"
        );
    }
    // Existing players keep their seats with the tokens their browsers hold.
    let mut white = ApiClient::with_token(srv.addr, old_white);
    let g = white.get("/api/games/oldgame1").await.expect("get");
    assert_eq!(g.body["you"], "white", "{}", g.text);
    let moved = white
        .post(
            "/api/games/oldgame1/moves",
            json!({"move": "c3-d4", "ply": 0}),
        )
        .await
        .expect("move");
    assert_eq!(moved.status, 200, "{}", moved.text);
    let mut black = ApiClient::with_token(srv.addr, old_black);
    let mine = black.get("/api/my-games").await.expect("my games");
    assert_eq!(mine.body[0]["id"], "oldgame1", "{}", mine.text);
    assert_eq!(mine.body[0]["your_turn"], true);
    // The invitation sent before the upgrade still works.
    let mut friend = srv.client();
    let joined = friend
        .post(&format!("/api/join/{old_invite}"), json!({}))
        .await
        .expect("join");
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.body["you"], "black");
    // An unsigned token that held no seat before the upgrade is not one the server issued.
    let stranger = ApiClient::with_token(srv.addr, "NeverIssuedToken0123456789abcdef")
        .get("/api/my-games")
        .await
        .expect("get");
    assert_eq!(stranger.status, 401, "{}", stranger.text);
    srv.stop().await;
    // Opening again migrates nothing twice: the seats still answer.
    let srv = TestServer::start(&url).await;
    let g = ApiClient::with_token(srv.addr, old_white)
        .get("/api/games/oldgame1")
        .await
        .expect("get");
    assert_eq!(g.body["you"], "white");
    srv.stop().await;
}

/// Creates today's schema at `url`, then removes what migration 3 (secrets at rest) added, as a
/// database of the version before it looks.
async fn schema_before_secrets_at_rest(url: &str) {
    let store = server::Store::open(url).await.expect("create");
    store.close().await;
    let mut db = SqliteConnection::connect(url).await.expect("open");
    for sql in [
        "DROP TABLE site_secrets",
        "DROP TABLE legacy_players",
        "DELETE FROM icebound_schema WHERE version = 3",
    ] {
        sqlx::query(sql).execute(&mut db).await.expect(sql);
    }
    db.close().await.expect("close");
}

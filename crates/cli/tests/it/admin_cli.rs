//! `icebound admin grant-mod USER` / `revoke-mod USER` (issue 41): on the database of a running
//! site, the account becomes a moderator (its `/api/mod/log` opens and shows the grant), then
//! is one no longer; an unknown name fails with a clear error.

use serde_json::json;
use server::client::ApiClient;

use crate::common;
use common::icebound;
use common::serve::*;

#[tokio::test]
async fn grant_mod_makes_a_moderator_and_revoke_takes_it_back() {
    let dir_tmp = temp_dir("admin-cli");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir_tmp.path().join("site.db").display()
    );
    let addr = free_addr();
    let mut child = start(&url, addr, &["--no-rate-limits"]);
    wait_ready(&mut child, addr).await;
    let mut c = ApiClient::new(addr);
    let r = c
        .post(
            "/api/accounts",
            json!({"username": "mira_keeper", "password": "correct horse"}),
        )
        .await
        .expect("register");
    assert_eq!(r.status, 201, "{}", r.text);
    let r = c.get("/api/mod/log").await.expect("get");
    assert_eq!(r.status, 403, "{}", r.text);
    let run = |args: Vec<String>| {
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            icebound(&args)
        })
    };
    let args = |cmd: &str, user: &str| {
        vec![
            "admin".into(),
            cmd.into(),
            user.into(),
            "--database".into(),
            url.clone(),
        ]
    };
    let (ok, out, err) = run(args("grant-mod", "Mira_Keeper")).await.expect("ran");
    assert!(ok, "{out}{err}");
    assert_eq!(out.trim(), "Mira_Keeper is now a moderator");
    let r = c.get("/api/mod/log").await.expect("get");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body[0]["action"], "grant_mod", "{}", r.text);
    assert_eq!(r.body[0]["moderator"], "cli", "{}", r.text);
    let (ok, out, err) = run(args("revoke-mod", "mira_keeper")).await.expect("ran");
    assert!(ok, "{out}{err}");
    let r = c.get("/api/mod/log").await.expect("get");
    assert_eq!(r.status, 403, "{}", r.text);
    let (ok, _, err) = run(args("grant-mod", "nobody_at_all")).await.expect("ran");
    assert!(!ok);
    assert!(err.contains("no account is named 'nobody_at_all'"), "{err}");
    drop(child);
}

/// A mistyped `--database` names no file: a clear error, and no new database file.
#[tokio::test]
async fn grant_mod_with_a_mistyped_database_makes_no_file() {
    let dir_tmp = temp_dir("admin-typo");
    let typo = dir_tmp.path().join("typo.db");
    for database in [
        format!("sqlite://{}?mode=rwc", typo.display()),
        typo.display().to_string(),
    ] {
        let (ok, out, err) = tokio::task::spawn_blocking(move || {
            icebound(&["admin", "grant-mod", "alice", "--database", &database])
        })
        .await
        .expect("ran");
        assert!(!ok, "{out}");
        assert!(err.contains("no database file at"), "{err}");
        assert!(!typo.exists(), "{} was made", typo.display());
    }
}

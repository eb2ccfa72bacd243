//! A file-size limit on the real binary (`prlimit --fsize`, as systemd `LimitFSIZE=`): a write
//! past it raises SIGXFSZ, which would kill the server mid-request. The server handles the
//! signal, so the write fails (EFBIG) and the request gets the usual storage error while the
//! process keeps serving.

use crate::common;
use std::process::{Command, Stdio};

use serde_json::json;
use server::client::ApiClient;
use test_support::{Spawned, free_addr, temp_dir};

fn have_prlimit() -> bool {
    Command::new("prlimit")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[tokio::test]
async fn a_file_size_limit_is_a_storage_error_not_a_dead_server() {
    if !have_prlimit() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI must run this test: prlimit is missing"
        );
        eprintln!("skipped: no prlimit");
        return;
    }
    let dir_tmp = temp_dir("fsize");
    let dir = dir_tmp.path();
    let addr = free_addr();
    let url = format!("sqlite://{}?mode=rwc", dir.join("fsize.db").display());
    let child = Command::new("prlimit")
        .arg("--fsize=1200000")
        .arg(common::bin().path())
        .args(["serve", "--no-rate-limits", "--addr", &addr.to_string()])
        .args(["--database", &url])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("prlimit starts");
    let mut server = Spawned::new(child);
    common::serve::wait_ready(&mut server, addr).await;
    let mut c = ApiClient::new(addr);
    // Local games played move by move until a write crosses the limit.
    let mut failure = None;
    let mut acked = 0;
    'games: for i in 0..400 {
        let variant = if i % 2 == 0 { "antarctos" } else { "iceage" };
        let g = c
            .post(
                "/api/games",
                json!({"variant": variant, "opponent": "local"}),
            )
            .await
            .expect("create");
        if g.status == 500 {
            failure = Some(g);
            break;
        }
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.body["id"].as_str().expect("id").to_string();
        let mut view = g.body;
        for _ in 0..60 {
            let Some(mv) = view["legal"][0]["text"].as_str().map(str::to_string) else {
                continue 'games;
            };
            let a = c
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({"move": mv, "ply": view["ply"]}),
                )
                .await
                .expect("the server answers");
            if a.status == 500 {
                failure = Some(a);
                break 'games;
            }
            assert_eq!(a.status, 200, "{}", a.text);
            acked += 1;
            view = a.body;
        }
    }
    let failure = failure.expect("a write crossed the 1.2 MB file-size limit");
    eprintln!("first storage error after {acked} moves: {}", failure.text);
    assert_eq!(
        failure.body["error"]["code"], "internal",
        "{}",
        failure.text
    );
    assert!(
        failure.body["error"]["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("storage failure"),
        "{}",
        failure.text
    );
    // Still alive, and it says it is not healthy.
    assert!(
        server.try_wait().expect("status").is_none(),
        "the server died"
    );
    let health = c.get("/healthz").await.expect("healthz answers");
    assert_eq!(health.status, 503, "{}", health.text);
    assert_eq!(
        c.get("/api/stats").await.expect("stats answers").status,
        200
    );
    assert!(
        server.try_wait().expect("status").is_none(),
        "the server died"
    );
}

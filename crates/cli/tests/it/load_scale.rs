//! `icebound load` at scale (issue 44), against a real `icebound serve` on SQLite: played from
//! several client processes (`--processes`), whose figures are merged into one summary, with
//! the moves over the players' WebSockets (`--moves socket`), and with the server's memory
//! read by the command itself (`--server-pid`).

use crate::common;

use common::serve::*;

/// The summary's fields, `name value` pairs, of the line starting with `first`.
fn fields_of(stdout: &str, first: &str) -> Vec<(String, String)> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(first))
        .unwrap_or_else(|| panic!("no line starting {first:?}:\n{stdout}"));
    let words: Vec<&str> = line.split(' ').collect();
    words
        .chunks(2)
        .map(|c| (c[0].to_string(), c.get(1).unwrap_or(&"").to_string()))
        .collect()
}

fn value(fields: &[(String, String)], name: &str) -> f64 {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no {name} in {fields:?}"))
        .1
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_client_processes_play_one_run_over_sockets_and_the_memory_is_reported() {
    let dir = temp_dir("load-processes");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("site.db").display());
    let addr = free_addr();
    let args = ["--no-rate-limits", "--max-connections-per-address", "0"];
    let mut server = start(&url, addr, &args);
    wait_ready(&mut server, addr).await;
    let pid = server.id().to_string();
    let addr = addr.to_string();
    let out = tokio::task::spawn_blocking(move || {
        common::bin()
            .command()
            .args(["load", "--addr", &addr, "--games", "7", "--think-ms", "30"])
            .args(["--seconds", "4", "--processes", "3", "--server-pid", &pid])
            .args(["--moves", "socket"])
            .output()
            .expect("run icebound load")
    })
    .await
    .expect("load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // One summary for all seven games, from three processes, none failed.
    assert!(
        stdout.contains(
            "games 7 at once on 1 process(es) from 3 client processes, think 30 ms, moves over socket:"
        ),
        "{stdout}"
    );
    // Each of the seven tables played at least its first game (a finished game is replaced).
    let played: u64 = stdout
        .split("moves over socket: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of games played:\n{stdout}"));
    assert!(played >= 7, "{stdout}");
    assert!(stdout.contains(", 0 games failed"), "{stdout}");
    assert!(
        !stdout.contains("load_worker"),
        "the workers' lines are read, not shown"
    );
    let last = fields_of(stdout.lines().last().unwrap_or_default(), "moves_per_s");
    let names: Vec<&str> = last.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["moves_per_s", "median_ms", "p99_ms", "max_ms", "lost"],
        "{stdout}"
    );
    assert_eq!(value(&last, "lost"), 0.0, "{stdout}");
    assert!(value(&last, "moves_per_s") > 0.0, "{stdout}");
    assert!(
        value(&last, "p99_ms") >= value(&last, "median_ms"),
        "{stdout}"
    );
    // The server's memory, read from its /proc status by the command.
    let memory = fields_of(&stdout, "memory_idle_mb");
    let idle = value(&memory, "memory_idle_mb");
    let peak = value(&memory, "memory_peak_mb");
    assert!(idle > 1.0, "{stdout}");
    assert!(peak >= idle, "{stdout}");
    assert!(value(&memory, "kb_per_game_peak") >= 0.0, "{stdout}");
    // Where in the run: the moves sent in the first 10 s, and the memory while they played.
    assert!(
        stdout.contains("latency_by_10s_ms: 0 s n "),
        "the first window's moves: {stdout}"
    );
    let play = fields_of(&stdout, "memory_play_mb");
    assert!(value(&play, "memory_play_mb") >= idle * 0.5, "{stdout}");
    assert!(
        stdout.contains("memory_by_10s_mb (largest sample): 0 s "),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("server pid {}: idle ", server.id())),
        "{stdout}"
    );
}

#[test]
fn a_server_pid_that_is_not_there_is_refused_before_the_run() {
    let (ok, stdout, stderr) = common::icebound(&[
        "load",
        "--addr",
        "127.0.0.1:9",
        "--games",
        "1",
        "--seconds",
        "1",
        "--server-pid",
        "4294967295",
    ]);
    assert!(!ok, "{stdout}");
    assert!(stderr.contains("--server-pid 4294967295"), "{stderr}");
}

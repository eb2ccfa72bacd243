//! The Bot API with a client others wrote (issue 44): berserk, lichess's own Python client,
//! plays as a bot through `tests/clients/berserk_bot.py` with nothing changed but its base URL.
//! It challenges the person twice (`challenges.create`, whose unused fields are nulls) and
//! withdraws one (`challenges.cancel`); the person declines the other and berserk hears it.
//! It accepts two challenges from its event stream and plays both games through berserk's bot
//! calls: an Antarctos game played to its end, an Ice Age Chess game the person resigns; and
//! berserk reads the site's refusals as lichess's. Skipped with a message unless
//! `ICEBOUND_TEST_BERSERK_PYTHON` names a Python with berserk (`.ci/setup-berserk.sh`).

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::bot_api::{start, token};
use crate::common::lobby::{account, first_legal, post, realtime};
use crate::common::tournaments::sqlite;
use crate::common::*;
use serde_json::{Value, json};

/// The person's challenge to `bot` (the person's `color`); the game's id once the bot has
/// accepted it (the challenge's id).
async fn challenge(
    human: &mut server::client::ApiClient,
    bot: &str,
    variant: &str,
    color: &str,
) -> String {
    let c = post(
        human,
        "/api/challenges",
        json!({"username": bot, "variant": variant, "time_control": realtime(180, 0),
               "color": color}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let id = c.body["id"].as_str().unwrap().to_string();
    for _ in 0..300 {
        let g = human.get(&format!("/api/games/{id}")).await.unwrap();
        if g.status == 200 {
            return id;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("berserk never accepted challenge {id}");
}

/// Plays `side` in game `id` by its first legal moves until the game ends or `plies` are
/// played (then the person resigns); the game's last view.
async fn play_out(
    human: &mut server::client::ApiClient,
    id: &str,
    side: &str,
    plies: Option<i64>,
) -> Value {
    for _ in 0..6000 {
        let g = human.get(&format!("/api/games/{id}")).await.unwrap().body;
        if g["status"] != "ongoing" {
            return g;
        }
        if plies.is_some_and(|p| g["ply"].as_i64().unwrap() >= p) {
            let r = post(human, &format!("/api/games/{id}/resign"), json!({})).await;
            assert_eq!(r.status, 200, "{}", r.text);
            continue;
        }
        if g["turn"] == side {
            let mv = first_legal(human, id).await;
            play(human, id, &mv).await;
        } else {
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    panic!("game {id} did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn berserk_plays_as_a_bot() {
    let Some(python) = std::env::var_os("ICEBOUND_TEST_BERSERK_PYTHON") else {
        eprintln!(
            "skipped: ICEBOUND_TEST_BERSERK_PYTHON is not set (.ci/setup-berserk.sh makes a \
             venv with berserk, lichess's Python client)"
        );
        return;
    };
    let srv = start(&sqlite("bot-berserk")).await;
    let (mut human, hname) = account(&srv, "hum").await;
    let (mut owner, bname) = account(&srv, "bot").await;
    let token = token(&mut owner, json!(["bot:play"])).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients/berserk_bot.py");
    let mut child = tokio::process::Command::new(python)
        .arg(script)
        .args(["--url", &format!("http://{}", srv.addr)])
        .args(["--token", &token, "--games", "2", "--opponent", &hname])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the berserk bot starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(60), lines.next_line())
            .await
            .expect("the berserk bot speaks within 60 s")
            .expect("its output")
            .expect("a line before it ends");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let ready = next().await;
    assert_eq!(ready["ready"], bname.to_lowercase(), "{ready}");
    // berserk's two challenges: the withdrawn one is gone, the person declines the other.
    let made = next().await;
    let made = made["challenged"].as_array().expect("challenged").clone();
    let list = human.get("/api/challenges").await.unwrap();
    let incoming: Vec<&Value> = list.body["incoming"].as_array().unwrap().iter().collect();
    assert_eq!(incoming.len(), 1, "{}", list.text);
    assert_eq!(incoming[0]["id"], made[1], "{}", list.text);
    assert_eq!(incoming[0]["bot"], true, "{}", list.text);

    let first = challenge(&mut human, &bname, "antarctos", "white").await;
    let end = play_out(&mut human, &first, "white", None).await;
    // Declined once berserk's event stream is surely open (it accepted the first game there):
    // lichess tells a decline to the streams open at the time.
    let id = made[1].as_str().unwrap();
    let d = post(
        &mut human,
        &format!("/api/challenges/{id}/decline"),
        json!({}),
    )
    .await;
    assert_eq!(d.status, 204, "{}", d.text);
    let second = challenge(&mut human, &bname, "iceage", "black").await;
    let resigned = play_out(&mut human, &second, "black", Some(6)).await;
    assert_eq!(resigned["result"]["winner"], "white", "{resigned}");

    let out = next().await;
    assert_eq!(out["account"]["title"], "BOT", "{out}");
    let games = out["games"].as_array().expect("games");
    assert_eq!(games.len(), 2, "{out}");
    // berserk matched each game by the challenge's id and saw it to its end.
    assert_eq!(games[0]["id"], first.as_str(), "{out}");
    assert_ne!(games[0]["status"], "started", "{out}");
    assert_eq!(games[0]["plies"], end["ply"], "{out} / {end}");
    assert_eq!(games[0]["full"]["variant"], "antarctos");
    assert_eq!(games[0]["full"]["createdAt"], true);
    assert_eq!(games[1]["id"], second.as_str(), "{out}");
    assert_eq!(games[1]["status"], "resign", "{out}");
    assert_eq!(games[1]["winner"], "white", "{out}");
    assert!(games[1]["plies"].as_i64().unwrap() >= 6, "{out}");
    // berserk's ResponseError carries the site's words and code (lichess's error shape).
    assert_eq!(out["declined"], json!([made[1]]), "{out}");
    let refusals = out["refusals"].as_array().expect("refusals");
    let of = |call: &str| {
        refusals
            .iter()
            .find(|r| r["call"] == call)
            .unwrap_or_else(|| panic!("no refusal of {call}: {out}"))
            .clone()
    };
    let mv = of("make_move");
    assert_eq!(mv["status"], 400, "{mv}");
    assert!(
        mv["code"] == "illegal_move" || mv["code"] == "not_your_turn",
        "{mv}"
    );
    assert!(mv["error"].as_str().is_some_and(|e| !e.is_empty()), "{mv}");
    let chat = of("post_message");
    assert_eq!(chat["status"], 403, "{chat}");
    assert_eq!(chat["code"], "chat_not_allowed", "{chat}");
    assert!(chat["error"].is_string(), "{chat}");
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

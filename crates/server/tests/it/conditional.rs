//! Conditional premoves (issue 38): a line entered on the opponent's turn is played the moment
//! the opponent's move matches, through whichever process took that move, and goes on with the
//! rest of the line; a move that does not match drops it, and so does a takeback; only its
//! author sees it; the answered "your move" is read; bad lines are refused naming the move.

use serde_json::{Value, json};
use server::client::ApiClient;

use crate::common::lobby::{account, first_legal, get, post, start};
use crate::common::*;

/// `n` moves of Antarctos from the start, each the first legal one (a one-screen game).
async fn line_of(srv: &TestServer, n: usize) -> Vec<String> {
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut moves = Vec::new();
    for _ in 0..n {
        let mv = first_legal(&mut c, &id).await;
        play(&mut c, &id, &mv).await;
        moves.push(mv);
    }
    moves
}

async fn conditional(c: &mut ApiClient, id: &str) -> Value {
    get(c, &format!("/api/games/{id}/conditional")).await.body
}

async fn put(c: &mut ApiClient, id: &str, moves: &[String]) -> server::client::Answer {
    c.send(
        "PUT",
        &format!("/api/games/{id}/conditional"),
        Some(&json!({ "moves": moves })),
    )
    .await
    .expect("put")
}

async fn game(c: &mut ApiClient, id: &str) -> Value {
    get(c, &format!("/api/games/{id}")).await.body
}

/// A correspondence Antarctos game: White `w`, Black `b`.
async fn corr(srv: &TestServer) -> (ApiClient, ApiClient, String) {
    let (mut w, _) = account(srv, "cw").await;
    let (mut b, _) = account(srv, "cb").await;
    let g = create_and_join(
        &mut w,
        &mut b,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    (w, b, g["id"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn a_line_is_played_at_once_through_any_process_and_goes_on() {
    let url = sqlite_url("conditional");
    let one = start(&url).await;
    let two = start(&url).await;
    let line = line_of(&one, 4).await;
    let (mut w, mut b, id) = corr(&one).await;
    // Black enters the line on White's turn, through process one.
    let r = put(&mut b, &id, &line).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["after_ply"], 0);
    assert_eq!(r.body["moves"].as_array().unwrap().len(), 4);
    assert_eq!(
        conditional(&mut b, &id).await["moves"][1]["text"],
        line[1].as_str()
    );
    assert_eq!(
        conditional(&mut w, &id).await,
        Value::Null,
        "only its author sees it"
    );
    // White plays the expected move through process two: Black's reply comes at once.
    w.set_addr(two.addr);
    let v = play(&mut w, &id, &line[0]).await;
    assert_eq!(v["ply"], 2, "the reply was played at once: {v}");
    assert_eq!(v["moves"][1]["text"], line[1].as_str());
    assert_eq!(v["turn"], "white");
    // The rest of the line stands, and plays too.
    let rest = conditional(&mut b, &id).await;
    assert_eq!(rest["after_ply"], 2);
    assert_eq!(rest["moves"].as_array().unwrap().len(), 2);
    let v = play(&mut w, &id, &line[2]).await;
    assert_eq!(v["ply"], 4);
    assert_eq!(v["moves"][3]["text"], line[3].as_str());
    assert_eq!(
        conditional(&mut b, &id).await,
        Value::Null,
        "the line is used up"
    );
    // Black's "your move" notifications were answered: read. White was told of each reply.
    let notes = get(&mut b, "/api/notifications").await.body;
    assert_eq!(notes["unread"], 0, "{notes}");
    let notes = get(&mut w, "/api/notifications").await.body;
    assert_eq!(notes["unread"], 2, "{notes}");
    one.stop().await;
    two.stop().await;
}

#[tokio::test]
async fn a_move_off_the_line_drops_it() {
    let srv = start(&sqlite_url("conditional-off")).await;
    let line = line_of(&srv, 2).await;
    let (mut w, mut b, id) = corr(&srv).await;
    assert_eq!(put(&mut b, &id, &line).await.status, 200);
    // White plays something else.
    let legal = game(&mut w, &id).await["legal"].clone();
    let other = legal
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .find(|t| *t != line[0])
        .expect("another move");
    let v = play(&mut w, &id, &other).await;
    assert_eq!(v["ply"], 1, "no reply: {v}");
    assert_eq!(
        conditional(&mut b, &id).await,
        Value::Null,
        "the line is dropped"
    );
    // Black may cancel (nothing left) and enter one again on White's next turn only.
    let d = b
        .send(
            "DELETE",
            &format!("/api/games/{id}/conditional"),
            Some(&json!({})),
        )
        .await
        .unwrap();
    assert_eq!(d.status, 204);
    srv.stop().await;
}

/// A hostile tester: a line is keyed by its ply, so one kept across a takeback fired on moves
/// played after it, from another position. The takeback drops it.
#[tokio::test]
async fn a_takeback_drops_the_line() {
    let srv = start(&sqlite_url("conditional-takeback")).await;
    let (mut w, mut b) = (srv.client(), srv.client());
    let g = create_and_join(
        &mut w,
        &mut b,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    play(&mut w, id, "c3-d4").await;
    let r = put(&mut w, id, &["h6-g5".into(), "e3-f4".into()]).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["after_ply"], 1);
    let takeback = |action: &str| json!({"action": action, "ply": 1});
    let r = post(
        &mut w,
        &format!("/api/games/{id}/takeback"),
        takeback("offer"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = post(
        &mut b,
        &format!("/api/games/{id}/takeback"),
        takeback("accept"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["ply"], 0, "{}", r.text);
    assert_eq!(conditional(&mut w, id).await, Value::Null);
    play(&mut w, id, "a3-b4").await;
    let v = play(&mut b, id, "h6-g5").await;
    assert_eq!(v["ply"], 2, "no reply was played for White: {v}");
    assert_eq!(v["turn"], "white");
    assert_eq!(conditional(&mut w, id).await, Value::Null);
    srv.stop().await;
}

#[tokio::test]
async fn bad_lines_are_refused_naming_the_move() {
    let srv = start(&sqlite_url("conditional-bad")).await;
    let line = line_of(&srv, 4).await;
    let (mut w, mut b, id) = corr(&srv).await;
    // On one's own turn.
    assert_error(&put(&mut w, &id, &line).await, 409, "conflict");
    // Odd, empty, too long.
    let r = put(&mut b, &id, &line[..3]).await;
    assert_error(&r, 400, "bad_request");
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("3 moves")
    );
    assert_error(&put(&mut b, &id, &[]).await, 400, "bad_request");
    let long: Vec<String> = std::iter::repeat_n(line[0].clone(), 22).collect();
    assert_error(&put(&mut b, &id, &long).await, 400, "bad_request");
    // An illegal second move is named.
    let mut bad = line.clone();
    bad[1] = "a1-h8".into();
    let r = put(&mut b, &id, &bad).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("move 2 of the line:"),
        "{}",
        r.text
    );
    // A watcher has no line.
    let mut watcher = srv.client();
    assert_error(&put(&mut watcher, &id, &line).await, 403, "not_a_player");
    let r = watcher
        .get(&format!("/api/games/{id}/conditional"))
        .await
        .unwrap();
    assert_error(&r, 403, "not_a_player");
    // A real-time game takes none.
    let (mut rw, _) = account(&srv, "rw").await;
    let (mut rb, _) = account(&srv, "rb").await;
    let g = create_and_join(
        &mut rw,
        &mut rb,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": {"kind": "realtime", "initial_s": 300, "increment_s": 0}}),
    )
    .await;
    let rid = g["id"].as_str().unwrap();
    let r = put(&mut rb, rid, &line[..2]).await;
    assert_error(&r, 400, "bad_request");
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("correspondence")
    );
    srv.stop().await;
}

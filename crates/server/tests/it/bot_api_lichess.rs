//! The Bot API as lichess's clients use it beyond a plain game (issue 44, the bot client's
//! findings, docs/testers/2026-12-07-issue44-botclient-1.md): the game has its challenge's id;
//! lichess's error shape; challenges listed, cancelled and declined as events; draw offers
//! with a move; abort; chat; a bot's dropped game stream makes it gone; the streams of a
//! revoked token end, and so do the game streams at a graceful stop; the BOT mark on the game.

use std::time::Duration;

use crate::bot_api::{Bot, Lines, start, state_with, token};
use crate::common::lobby::{account, first_legal, post, realtime};
use crate::common::*;
use serde_json::{Value, json};

both_databases! {
    multi_thread;
    async fn lichess_clients_find_their_ways(url: &str) {
        lichess_ways(url).await;
    }
}

both_databases! {
    multi_thread;
    async fn a_graceful_stop_ends_the_game_streams(url: &str) {
        graceful_stop(url).await;
    }
}

both_databases! {
    multi_thread;
    async fn the_token_cap_holds_at_once_and_odd_requests_get_lichess_errors(url: &str) {
        caps_and_odd_requests(url).await;
    }
}

/// A person's challenge to `bot_name` (the person's `color`), accepted by `bot` through the
/// event stream: the game's id, which is the challenge's.
pub(crate) async fn challenged_game(
    human: &mut server::client::ApiClient,
    bot: &Bot,
    events: &mut Lines,
    bot_name: &str,
    variant: &str,
    color: &str,
) -> String {
    let c = post(
        human,
        "/api/challenges",
        json!({"username": bot_name, "variant": variant, "time_control": realtime(300, 0),
               "color": color}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let cid = c.body["id"].as_str().unwrap().to_string();
    let e = events.until("challenge").await;
    assert_eq!(e["challenge"]["id"], cid.as_str(), "{e}");
    let r = bot.post(&format!("/api/challenge/{cid}/accept")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let start = events.until("gameStart").await;
    // lichess's clients match the game to their challenge by id (finding 3).
    assert_eq!(start["game"]["id"], cid.as_str(), "{start}");
    assert_eq!(
        start["game"]["status"],
        json!({"id": 20, "name": "started"})
    );
    cid
}

/// A new `bot:play` token of `owner`, with its id.
async fn token_with_id(owner: &mut server::client::ApiClient) -> (String, String) {
    let a = post(owner, "/api/tokens", json!({"scopes": ["bot:play"]})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    (
        a.body["token"].as_str().unwrap().to_string(),
        a.body["id"].as_str().unwrap().to_string(),
    )
}

/// `game`'s next line within 15 s: `None` once the answer ended.
async fn next_line(game: &mut Lines) -> Option<String> {
    tokio::time::timeout(Duration::from_secs(15), game.line())
        .await
        .expect("a line or the end within 15 s")
}

/// Lines until the answer ends (15 s at most each): it must end.
async fn until_end(lines: &mut Lines, what: &str) {
    for _ in 0..20 {
        if next_line(lines).await.is_none() {
            return;
        }
    }
    panic!("{what} did not end");
}

/// Reads game `id` as `c` until `pred` holds (10 s at most).
async fn game_until(
    c: &mut server::client::ApiClient,
    id: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..100 {
        let g = c.get(&format!("/api/games/{id}")).await.unwrap();
        if pred(&g.body) {
            return g.body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} never came to the expected state");
}

async fn lichess_ways(url: &str) {
    let srv = start(url).await;
    srv.site.services().chat.set_min_account_age(0);
    let (mut human, hname) = account(&srv, "hum").await;
    let (mut owner, bname) = account(&srv, "bot").await;
    let (text, token_id) = token_with_id(&mut owner).await;
    let bot = Bot::new(&srv, &text);
    let mut events = bot.stream("/api/stream/event").await;

    // A challenge, listed, then withdrawn by its challenger: challengeCanceled (finding 5).
    let c = post(
        &mut human,
        "/api/challenges",
        json!({"username": bname, "variant": "antarctos", "time_control": realtime(180, 0)}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let cid = c.body["id"].as_str().unwrap().to_string();
    let e = events.until("challenge").await;
    let ch = &e["challenge"];
    assert_eq!(ch["id"], cid.as_str());
    assert_eq!(ch["direction"], "in", "{ch}");
    assert_eq!(
        ch["finalColor"],
        Value::Null,
        "random until the game starts: {ch}"
    );
    assert_eq!(
        ch["url"],
        format!("http://{}/lobby#{cid}", srv.addr).as_str(),
        "an absolute url (finding 6)"
    );
    // The person's own list marks the BOT.
    let mine = human.get("/api/challenges").await.unwrap();
    assert_eq!(mine.body["outgoing"][0]["bot"], true, "{}", mine.text);
    let listed = bot.get("/api/challenge").await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.body["in"][0]["id"], cid.as_str(), "{}", listed.body);
    assert_eq!(listed.body["out"], json!([]));
    // A DELETE needs no body (finding 7).
    let gone = human
        .send("DELETE", &format!("/api/challenges/{cid}"), None)
        .await
        .unwrap();
    assert_eq!(gone.status, 204, "{}", gone.text);
    let e = events.until("challengeCanceled").await;
    assert_eq!(e["challenge"]["id"], cid.as_str(), "{e}");
    assert_eq!(e["challenge"]["status"], "canceled");

    // The bot's own challenge, declined by the person: challengeDeclined.
    let out = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/challenge/{hname}"),
            Some("variant=antarctos&clock.limit=180&clock.increment=0&color=black"),
        )
        .await;
    assert_eq!(out.status, 200, "{}", out.body);
    assert_eq!(out.body["finalColor"], "black");
    assert_eq!(out.body["direction"], "out");
    let oid = out.body["id"].as_str().unwrap();
    let d = post(
        &mut human,
        &format!("/api/challenges/{oid}/decline"),
        json!({}),
    )
    .await;
    assert_eq!(d.status, 204, "{}", d.text);
    let e = events.until("challengeDeclined").await;
    assert_eq!(e["challenge"]["id"], oid, "{e}");
    assert_eq!(e["challenge"]["declineReasonKey"], "generic");

    // An Ice Age Chess game: the game has the challenge's id, the page marks the BOT.
    let id = challenged_game(&mut human, &bot, &mut events, &bname, "iceage", "white").await;
    let page = human.get(&format!("/api/games/{id}")).await.unwrap();
    assert_eq!(page.body["black"]["bot"], true, "{}", page.text);
    assert_eq!(page.body["white"].get("bot"), None, "{}", page.text);
    let mut game = bot.stream(&format!("/api/bot/game/stream/{id}")).await;
    let full = game.event().await;
    assert!(full["createdAt"].as_i64().is_some_and(|t| t > 0), "{full}");
    // The move and a draw offer with it (finding 5: the offer was dropped).
    let mv = first_legal(&mut human, &id).await;
    play(&mut human, &id, &mv).await;
    state_with(&mut game, 1).await;
    let legal = bot.get(&format!("/api/games/{id}")).await;
    let reply = legal.body["legal"][0]["id"].as_str().unwrap().to_string();
    let r = bot
        .post(&format!(
            "/api/bot/game/{id}/move/{reply}?offeringDraw=true"
        ))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mut s = state_with(&mut game, 2).await;
    // The move's state, then the offer's (two changes, two lines).
    while s["bdraw"] != true {
        s = game.until("gameState").await;
        assert_eq!(s["moves"].as_str().unwrap().split(' ').count(), 2, "{s}");
    }
    let bad = bot
        .post(&format!(
            "/api/bot/game/{id}/move/{reply}?offeringDraw=maybe"
        ))
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    // Too late to abort after both have moved: lichess's error shape says why.
    let late = bot.post(&format!("/api/bot/game/{id}/abort")).await;
    assert!(late.status >= 400, "{}", late.body);
    assert!(
        late.body["error"].is_string() && late.body["code"].is_string(),
        "{}",
        late.body
    );
    // A new account's free text is refused by the site's chat rules, in lichess's shape.
    let said = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/bot/game/{id}/chat"),
            Some("room=player&text=good%20luck"),
        )
        .await;
    assert_eq!(said.status, 403, "{}", said.body);
    assert_eq!(said.body["code"], "chat_not_allowed", "{}", said.body);
    let room = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/bot/game/{id}/chat"),
            Some("room=lobby&text=hi"),
        )
        .await;
    assert_eq!(room.status, 400, "{}", room.body);
    // The bot's game stream drops: it is gone, and the person may claim after the wait
    // (finding 9); a new stream ends the mark.
    drop(game);
    let g = game_until(&mut human, &id, |g| g["gone"]["side"] == "black").await;
    assert!(g["gone"]["claim_at_ms"].as_i64().is_some(), "{g}");
    let mut game = bot.stream(&format!("/api/bot/game/stream/{id}")).await;
    game.event().await;
    game_until(&mut human, &id, |g| g["gone"].is_null()).await;
    // Two more plies (a game of 4 counts for chat), then the person resigns: the bot has
    // finished a game.
    let mv = first_legal(&mut human, &id).await;
    play(&mut human, &id, &mv).await;
    let legal = bot.get(&format!("/api/games/{id}")).await;
    let reply = legal.body["legal"][0]["id"].as_str().unwrap().to_string();
    let r = bot.post(&format!("/api/bot/game/{id}/move/{reply}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post(&mut human, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    until_end(&mut game, "the finished game's stream").await;
    events.until("gameFinish").await;
    // A BOT answers challenges, not rematch offers (browser round 5: the offer waited for
    // ever): the person's page offers none, and an offer is refused.
    let page = human.get(&format!("/api/games/{id}")).await.unwrap();
    let actions = page.body["actions"].as_array().unwrap();
    assert!(!actions.iter().any(|a| a == "rematch"), "{}", page.text);
    let r = post(
        &mut human,
        &format!("/api/games/{id}/rematch"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text);

    // Antarctos has no draws: the offer is refused and the move not played; abort at once.
    let id = challenged_game(&mut human, &bot, &mut events, &bname, "antarctos", "black").await;
    let legal = bot.get(&format!("/api/games/{id}")).await;
    let first = legal.body["legal"][0]["id"].as_str().unwrap().to_string();
    let r = bot
        .post(&format!(
            "/api/bot/game/{id}/move/{first}?offeringDraw=true"
        ))
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body["error"].as_str().unwrap().contains("A15"),
        "{}",
        r.body
    );
    let g = bot.get(&format!("/api/games/{id}")).await;
    assert_eq!(g.body["ply"], 0, "nothing was played: {}", g.body);
    let r = bot.post(&format!("/api/bot/game/{id}/abort")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let g = bot.get(&format!("/api/games/{id}")).await;
    assert_eq!(g.body["status"], "aborted", "{}", g.body);

    // A third game: chat reaches the person now; then the token is revoked (a DELETE with no
    // body) and its streams end (finding 2).
    let id = challenged_game(&mut human, &bot, &mut events, &bname, "iceage", "white").await;
    let mut game = bot.stream(&format!("/api/bot/game/stream/{id}")).await;
    game.event().await;
    let said = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/bot/game/{id}/chat"),
            Some("room=player&text=good%20luck"),
        )
        .await;
    assert_eq!(said.status, 200, "{}", said.body);
    let chat = human.get(&format!("/api/games/{id}/chat")).await.unwrap();
    assert!(chat.text.contains("good luck"), "{}", chat.text);
    let r = owner
        .send("DELETE", &format!("/api/tokens/{token_id}"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text);
    until_end(&mut game, "the revoked token's game stream").await;
    until_end(&mut events, "the revoked token's event stream").await;
    let r = bot.get("/api/account").await;
    assert_eq!(r.status, 401, "{}", r.body);
}

async fn graceful_stop(url: &str) {
    let srv = start(url).await;
    let (mut human, _) = account(&srv, "hum").await;
    let (mut owner, bname) = account(&srv, "bot").await;
    let bot = Bot::new(&srv, &token(&mut owner, json!(["bot:play"])).await);
    let mut events = bot.stream("/api/stream/event").await;
    let id = challenged_game(&mut human, &bot, &mut events, &bname, "antarctos", "white").await;
    let mut game = bot.stream(&format!("/api/bot/game/stream/{id}")).await;
    assert_eq!(game.event().await["type"], "gameFull");
    // Finding 1: the game stream kept the old process serving keep-alives and no moves.
    let stop = tokio::spawn(srv.stop());
    until_end(&mut game, "the game stream at a graceful stop").await;
    until_end(&mut events, "the event stream at a graceful stop").await;
    tokio::time::timeout(Duration::from_secs(15), stop)
        .await
        .expect("the server stops")
        .unwrap();
}

/// Hostile round 5: 30 token requests at once made 30 tokens (F1); a `challenge:read` token
/// could not list challenges (F3); an oversized form was a plain-text 413 (F4); a 405 and an
/// empty bearer token were in the wrong shape or code (F5).
async fn caps_and_odd_requests(url: &str) {
    let srv = start(url).await;
    let (mut owner, _) = account(&srv, "bot").await;
    let (human, hname) = account(&srv, "hum").await;
    let _ = human;
    let mut tasks = Vec::new();
    for _ in 0..30 {
        let mut c = owner.clone();
        tasks.push(tokio::spawn(async move {
            c.post("/api/tokens", json!({"scopes": ["bot:play"]}))
                .await
                .expect("request")
                .status
        }));
    }
    let mut made = 0;
    for t in tasks {
        match t.await.unwrap() {
            201 => made += 1,
            409 => {}
            other => panic!("a token request answered {other}"),
        }
    }
    assert_eq!(made, 20, "the cap is 20 tokens");
    let list = owner.get("/api/tokens").await.unwrap();
    assert_eq!(
        list.body.as_array().map(Vec::len),
        Some(20),
        "{}",
        list.text
    );
    for t in list.body.as_array().unwrap() {
        let id = t["id"].as_str().unwrap();
        let r = owner
            .send("DELETE", &format!("/api/tokens/{id}"), None)
            .await
            .unwrap();
        assert_eq!(r.status, 204, "{}", r.text);
    }
    // challenge:read lists challenges (not more).
    let reader = Bot::new(&srv, &token(&mut owner, json!(["challenge:read"])).await);
    let r = reader.get("/api/challenge").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body, json!({"in": [], "out": []}));
    let r = reader
        .send(
            reqwest::Method::POST,
            &format!("/api/challenge/{hname}"),
            Some("variant=antarctos"),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.body["code"], "missing_scope");
    // An oversized form: 413 in lichess's shape.
    let bot = Bot::new(&srv, &token(&mut owner, json!(["bot:play"])).await);
    let big = format!("variant=antarctos&message={}", "x".repeat(20_000));
    let r = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/challenge/{hname}"),
            Some(&big),
        )
        .await;
    assert_eq!(r.status, 413, "{}", r.body);
    assert_eq!(r.body["code"], "too_large", "{}", r.body);
    assert!(r.body["error"].is_string(), "{}", r.body);
    // A wrong method on a Bot API path: 405 in lichess's shape.
    let r = bot.get(&format!("/api/challenge/{hname}")).await;
    assert_eq!(r.status, 405, "{}", r.body);
    assert!(r.body["error"].is_string(), "{}", r.body);
    // An empty bearer token is a bad one.
    let r = Bot::new(&srv, "").get("/api/stream/event").await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.body["code"], "bad_token", "{}", r.body);
}

//! The Bot API (issue 44, docs/bot-api.md) through the real server on SQLite: a bot written
//! here (reqwest, `Authorization: Bearer`) gets a token, is challenged by a person, accepts,
//! streams its events and its game, plays legal moves until the person resigns, and loses
//! nothing when its event stream reconnects mid-game; an idle stream keeps alive; tokens'
//! refusals (bad, revoked, without the scope), and a BOT account's in the lobby.

use std::time::Duration;

use crate::common::lobby::{account, post, realtime};
use crate::common::tournaments::sqlite;
use crate::common::*;
use serde_json::{Value, json};
use server::SiteOptions;
use server::options::RateLimits;

/// A server on `url` without rate limits.
pub(crate) async fn start(url: &str) -> TestServer {
    TestServer::start_with(
        url,
        SiteOptions {
            rate_limits: RateLimits::off(),
            ..SiteOptions::default()
        },
    )
    .await
}

/// A bot: an HTTP client that sends its token as `Authorization: Bearer`.
pub(crate) struct Bot {
    http: reqwest::Client,
    base: String,
    token: String,
}

/// A status and the JSON of the body (`null` when it is none).
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Value,
}

impl Bot {
    pub(crate) fn new(srv: &TestServer, token: &str) -> Bot {
        Bot {
            http: reqwest::Client::new(),
            base: format!("http://{}", srv.addr),
            token: token.to_string(),
        }
    }

    pub(crate) async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        form: Option<&str>,
    ) -> Reply {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(f) = form {
            req = req
                .header("content-type", "application/x-www-form-urlencoded")
                .body(f.to_string());
        }
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let text = res.text().await.expect("body");
        Reply {
            status,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
        }
    }

    pub(crate) async fn get(&self, path: &str) -> Reply {
        self.send(reqwest::Method::GET, path, None).await
    }

    pub(crate) async fn post(&self, path: &str) -> Reply {
        self.send(reqwest::Method::POST, path, None).await
    }

    /// Opens an NDJSON stream; asserts 200 and its content type.
    pub(crate) async fn stream(&self, path: &str) -> Lines {
        let res = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .expect("stream");
        assert_eq!(res.status().as_u16(), 200, "{path}");
        assert_eq!(
            res.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        Lines {
            res,
            buf: Vec::new(),
        }
    }
}

/// The lines of an NDJSON answer.
pub(crate) struct Lines {
    res: reqwest::Response,
    buf: Vec<u8>,
}

impl Lines {
    /// The next line (empty for a keep-alive); `None` once the answer ends.
    pub(crate) async fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8_lossy(&line[..i]).into_owned());
            }
            let chunk = self.res.chunk().await.expect("read")?;
            self.buf.extend_from_slice(&chunk);
        }
    }

    /// The next JSON object, skipping keep-alives (15 s at most).
    pub(crate) async fn event(&mut self) -> Value {
        tokio::time::timeout(Duration::from_secs(15), async {
            loop {
                let line = self.line().await.expect("the stream stays open");
                if !line.is_empty() {
                    return serde_json::from_str(&line).expect("a JSON line");
                }
            }
        })
        .await
        .expect("an event within 15 s")
    }

    /// Objects until one of type `kind` (15 s at most each).
    pub(crate) async fn until(&mut self, kind: &str) -> Value {
        loop {
            let e = self.event().await;
            if e["type"] == kind {
                return e;
            }
        }
    }
}

/// A token with `scopes` for the logged-in browser `c`; asserts 201.
pub(crate) async fn token(c: &mut server::client::ApiClient, scopes: Value) -> String {
    let a = post(c, "/api/tokens", json!({ "scopes": scopes })).await;
    assert_eq!(a.status, 201, "{}", a.text);
    a.body["token"].as_str().expect("token").to_string()
}

/// The bot's move: the first legal move of game `id`, in its machine form (UCI), played.
pub(crate) async fn bot_move(bot: &Bot, id: &str) -> String {
    let g = bot.get(&format!("/api/games/{id}")).await;
    assert_eq!(g.status, 200);
    let mv = g.body["legal"][0]["id"]
        .as_str()
        .expect("a legal move")
        .to_string();
    let r = bot.post(&format!("/api/bot/game/{id}/move/{mv}")).await;
    assert_eq!(r.status, 200, "{mv}: {}", r.body);
    assert_eq!(r.body, json!({"ok": true}));
    mv
}

/// `gameState` lines until one has `n` moves.
pub(crate) async fn state_with(game: &mut Lines, n: usize) -> Value {
    loop {
        let s = game.until("gameState").await;
        let moves = s["moves"].as_str().unwrap();
        if moves.split_whitespace().count() >= n {
            return s;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bot_plays_a_challenged_game_and_reconnects() {
    bot_game(&sqlite("bot-game")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bot_plays_a_challenged_game_and_reconnects_postgres() {
    let Some(pg) = test_support::store::postgres_url() else {
        return;
    };
    bot_game(&pg).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tokens_scopes_and_bot_refusals() {
    refusals(&sqlite("bot-refusals")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tokens_scopes_and_bot_refusals_postgres() {
    let Some(pg) = test_support::store::postgres_url() else {
        return;
    };
    refusals(&pg).await;
}

async fn bot_game(url: &str) {
    let srv = start(url).await;
    let (mut human, hname) = account(&srv, "hum").await;
    let (mut owner, bname) = account(&srv, "bot").await;
    let bot = Bot::new(&srv, &token(&mut owner, json!(["bot:play"])).await);
    // The account is a BOT account for good, and says so.
    let p = owner.get(&format!("/api/players/{bname}")).await.unwrap();
    assert_eq!(p.body["title"], "BOT", "{}", p.text);
    let me = bot.get("/api/account").await;
    assert_eq!(me.body["title"], "BOT");
    assert_eq!(me.body["username"], bname.as_str());
    let mut events = bot.stream("/api/stream/event").await;
    // A person challenges it to a rated game.
    let c = post(
        &mut human,
        "/api/challenges",
        json!({"username": bname, "variant": "iceage", "time_control": realtime(300, 2),
               "rated": true, "color": "white"}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let e = events.until("challenge").await;
    let ch = &e["challenge"];
    assert_eq!(ch["challenger"]["name"], hname.as_str(), "{e}");
    assert_eq!(ch["destUser"]["title"], "BOT");
    assert_eq!(ch["variant"]["key"], "iceage");
    assert_eq!(ch["rated"], true);
    assert_eq!(ch["speed"], "blitz");
    assert_eq!(
        ch["timeControl"],
        json!({"type": "clock", "limit": 300, "increment": 2, "show": "5+2"})
    );
    assert_eq!(ch["color"], "white");
    let cid = ch["id"].as_str().unwrap().to_string();
    let r = bot.post(&format!("/api/challenge/{cid}/accept")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let start = events.until("gameStart").await;
    let id = start["game"]["gameId"].as_str().unwrap().to_string();
    assert_eq!(start["game"]["color"], "black", "{start}");
    assert_eq!(start["game"]["opponent"]["username"], hname.as_str());
    assert_eq!(start["game"]["isMyTurn"], false);
    // Not its turn: 400, saying so.
    let early = bot.post(&format!("/api/bot/game/{id}/move/e7e5")).await;
    assert_eq!(early.status, 400, "{}", early.body);
    // lichess's shape: the message as `error`, the code beside it.
    assert_eq!(early.body["code"], "not_your_turn", "{}", early.body);
    assert!(
        early.body["error"]
            .as_str()
            .is_some_and(|m| m.contains("not your turn")),
        "{}",
        early.body
    );
    let mut game = bot.stream(&format!("/api/bot/game/stream/{id}")).await;
    let full = game.event().await;
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["variant"]["key"], "iceage");
    assert_eq!(full["rated"], true);
    assert_eq!(full["white"]["name"], hname.as_str());
    assert_eq!(full["black"]["title"], "BOT");
    assert_eq!(
        full["clock"],
        json!({"initial": 300_000, "increment": 2_000})
    );
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["status"], "started");
    let mut played = Vec::new();
    for round in 0..4 {
        let mv = crate::common::lobby::first_legal(&mut human, &id).await;
        play(&mut human, &id, &mv).await;
        let s = state_with(&mut game, 2 * round + 1).await;
        assert!(
            s["wtime"].as_i64().unwrap() > 0 && s["winc"] == 2_000,
            "{s}"
        );
        if round == 0 {
            // An illegal move: 400 naming it.
            let bad = bot.post(&format!("/api/bot/game/{id}/move/a1a8")).await;
            assert_eq!(bad.status, 400, "{}", bad.body);
            assert_eq!(bad.body["code"], "illegal_move");
        }
        played.push(bot_move(&bot, &id).await);
        let s = state_with(&mut game, 2 * round + 2).await;
        assert_eq!(
            s["moves"].as_str().unwrap().split(' ').nth(2 * round + 1),
            Some(played[round].as_str()),
            "{s}"
        );
        if round == 1 {
            // The event stream drops and comes back: the game in progress is sent again.
            drop(events);
            events = bot.stream("/api/stream/event").await;
            let again = events.until("gameStart").await;
            assert_eq!(again["game"]["gameId"], id.as_str());
            assert_eq!(again["game"]["isMyTurn"], false);
        }
    }
    // The person resigns: the last state, then the stream ends; the event stream says so.
    let r = post(&mut human, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let last = game.until("gameState").await;
    assert_eq!(last["status"], "resign", "{last}");
    assert_eq!(last["winner"], "black");
    let end = tokio::time::timeout(Duration::from_secs(15), game.line())
        .await
        .expect("the stream ends");
    assert_eq!(end, None);
    let fin = events.until("gameFinish").await;
    assert_eq!(fin["game"]["gameId"], id.as_str());
    assert_eq!(fin["game"]["winner"], "black");
    let over = bot.post(&format!("/api/bot/game/{id}/move/e7e5")).await;
    assert_eq!(over.status, 400);
    assert_eq!(over.body["code"], "game_over");
    // An idle event stream sends a keep-alive newline.
    let idle = tokio::time::timeout(Duration::from_secs(15), async {
        loop {
            if events.line().await.expect("open").is_empty() {
                return;
            }
        }
    })
    .await;
    assert!(idle.is_ok(), "a keep-alive newline within 15 s");
}

async fn refusals(url: &str) {
    let srv = start(url).await;
    let (mut human, hname) = account(&srv, "hum").await;
    let (mut owner, bname) = account(&srv, "bot").await;
    // Only a log-in makes tokens; unknown scopes are named.
    let anon = post(
        &mut srv.client(),
        "/api/tokens",
        json!({"scopes": ["bot:play"]}),
    )
    .await;
    assert_error(&anon, 401, "not_logged_in");
    let bad = post(
        &mut owner,
        "/api/tokens",
        json!({"scopes": ["bot:play", "email:read"]}),
    )
    .await;
    assert_error(&bad, 400, "bad_request");
    assert!(bad.text.contains("email:read"), "{}", bad.text);
    // A token without bot:play: 403 on the Bot API; the account is no BOT yet.
    let reader = Bot::new(&srv, &token(&mut owner, json!(["challenge:read"])).await);
    for path in ["/api/stream/event", "/api/bot/game/stream/abcdefgh"] {
        let r = reader.get(path).await;
        assert_eq!(r.status, 403, "{path}: {}", r.body);
        assert_eq!(r.body["code"], "missing_scope");
    }
    let p = owner.get(&format!("/api/players/{bname}")).await.unwrap();
    assert_eq!(p.body.get("title"), None, "{}", p.text);
    // Unknown and malformed tokens: 401.
    for t in ["ibt_0123456789abcdefghijABCDEFGHIJ01", "nonsense"] {
        let r = Bot::new(&srv, t).get("/api/stream/event").await;
        assert_eq!(r.status, 401, "{t}: {}", r.body);
        assert_eq!(r.body["code"], "bad_token");
        assert!(r.body["error"].is_string(), "{}", r.body);
    }
    let bot = Bot::new(&srv, &token(&mut owner, json!(["bot:play"])).await);
    // A token cannot make tokens, nor act outside the Bot API and the reads.
    let r = bot.post("/api/tokens").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.body["error"]["code"], "missing_scope");
    // The BOT account is refused in the lobby (its browser's session too).
    let seek = post(
        &mut owner,
        "/api/seeks",
        json!({"variant": "iceage", "time_control": realtime(300, 0), "rated": false}),
    )
    .await;
    assert_error(&seek, 403, "bot_account");
    let quick = post(
        &mut owner,
        "/api/seeks/quick",
        json!({"variant": "iceage", "time_control": realtime(300, 0), "rated": false}),
    )
    .await;
    assert_error(&quick, 403, "bot_account");
    // It challenges a person unrated (lichess's form), never rated.
    let rated = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/challenge/{hname}"),
            Some("variant=antarctos&rated=true&clock.limit=180&clock.increment=0"),
        )
        .await;
    assert_eq!(rated.status, 403, "{}", rated.body);
    assert_eq!(rated.body["code"], "bot_account");
    let unrated = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/challenge/{hname}"),
            Some("variant=antarctos&clock.limit=180&clock.increment=0&color=white"),
        )
        .await;
    assert_eq!(unrated.status, 200, "{}", unrated.body);
    assert_eq!(unrated.body["challenger"]["title"], "BOT");
    assert_eq!(unrated.body["variant"]["key"], "antarctos");
    let bad_variant = bot
        .send(
            reqwest::Method::POST,
            &format!("/api/challenge/{hname}"),
            Some("variant=chess"),
        )
        .await;
    assert_eq!(bad_variant.status, 400);
    // The person declines by the site's own API; the bot's own decline of a person's.
    let cid = unrated.body["id"].as_str().unwrap();
    let d = post(
        &mut human,
        &format!("/api/challenges/{cid}/decline"),
        json!({}),
    )
    .await;
    assert_eq!(d.status, 204, "{}", d.text);
    let c = post(
        &mut human,
        "/api/challenges",
        json!({"username": bname, "variant": "antarctos", "time_control": realtime(180, 0)}),
    )
    .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let cid = c.body["id"].as_str().unwrap();
    let r = bot.post(&format!("/api/challenge/{cid}/decline")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Listing and revoking: the revoked token no longer works.
    let list = owner.get("/api/tokens").await.unwrap();
    assert_eq!(list.body.as_array().map(Vec::len), Some(2), "{}", list.text);
    assert!(!list.text.contains(&bot.token));
    for t in list.body.as_array().unwrap() {
        let id = t["id"].as_str().unwrap();
        let r = owner
            .send("DELETE", &format!("/api/tokens/{id}"), Some(&json!({})))
            .await
            .unwrap();
        assert_eq!(r.status, 204, "{}", r.text);
    }
    let r = bot.get("/api/stream/event").await;
    assert_eq!(r.status, 401);
    // Still a BOT account after its tokens are gone.
    let p = owner.get(&format!("/api/players/{bname}")).await.unwrap();
    assert_eq!(p.body["title"], "BOT");
}

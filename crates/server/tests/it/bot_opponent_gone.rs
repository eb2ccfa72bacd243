//! The Bot API and a gone opponent (issue 44, issue 38's presence): when the person a bot
//! plays closes its last page, the bot's game stream says `opponentGone` with the seconds to
//! its claim, `gone` false when the person is back, and 0 once the claim is open; the bot
//! claims the win with `POST /api/bot/game/{id}/claim-victory` (400 `conflict` before the wait, as
//! lichess refuses an early claim); a draw is never claimed in Antarctos (A15).

use std::time::Duration;

use crate::bot_api::{Bot, bot_move, token};
use crate::bot_api_lichess::challenged_game;
use crate::clocks::moved_time;
use crate::common::lobby::{account, first_legal};
use crate::common::*;
use serde_json::json;
use server::options::RateLimits;

#[tokio::test(flavor = "multi_thread")]
async fn a_bot_is_told_its_opponent_is_gone_and_claims_the_win() {
    let (time, mut options) = moved_time();
    options.rate_limits = RateLimits::off();
    let srv = TestServer::start_with(&sqlite_url("bot-gone"), options).await;
    let (mut human, _) = account(&srv, "hg").await;
    let (mut owner, bname) = account(&srv, "bg").await;
    let text = token(&mut owner, json!(["bot:play"])).await;
    let bot = Bot::new(&srv, &text);
    let mut events = bot.stream("/api/stream/event").await;
    let id = challenged_game(&mut human, &bot, &mut events, &bname, "antarctos", "white").await;
    let mut game = bot.stream(&format!("/api/bot/game/stream/{id}")).await;
    assert_eq!(game.event().await["type"], "gameFull");
    let mv = first_legal(&mut human, &id).await;
    play(&mut human, &id, &mv).await;
    bot_move(&bot, &id).await;

    // The person's page (its log-in's socket) opens and closes (a tab closed): gone, 10 s to the claim.
    let mut page = human.ws_as_browser(&id).await.expect("ws");
    first_state(&mut page).await;
    page.close(None).await.expect("close");
    let gone = game.until("opponentGone").await;
    assert_eq!(gone["gone"], true, "{gone}");
    let secs = gone["claimWinInSeconds"].as_i64().expect("seconds");
    assert!((1..=10).contains(&secs), "{gone}");
    let early = bot.post(&format!("/api/bot/game/{id}/claim-victory")).await;
    assert_eq!(early.status, 400, "{}", early.body);
    assert_eq!(early.body["code"], "conflict", "{}", early.body);
    // Antarctos has no draws (A15): neither the bot nor a person claims one (a tester's
    // claimed draw ended an Antarctos game 1/2-1/2, rated).
    let draw = bot.post(&format!("/api/bot/game/{id}/claim-draw")).await;
    assert_eq!(draw.status, 400, "{}", draw.body);
    assert!(
        draw.body["error"].as_str().unwrap().contains("A15"),
        "{}",
        draw.body
    );
    let draw = human
        .post(&format!("/api/games/{id}/claim"), json!({"action": "draw"}))
        .await
        .unwrap();
    assert_eq!(draw.status, 400, "{}", draw.text);

    // Back: gone false.
    let mut page = human.ws_as_browser(&id).await.expect("ws");
    first_state(&mut page).await;
    let back = game.until("opponentGone").await;
    assert_eq!(back, json!({"type": "opponentGone", "gone": false}));

    // Gone again, and the wait passes: the 0 s line, then the claim wins the game.
    page.close(None).await.expect("close");
    let gone = game.until("opponentGone").await;
    assert_eq!(gone["gone"], true, "{gone}");
    time.advance(Duration::from_secs(11));
    let open = game.until("opponentGone").await;
    assert_eq!(
        open,
        json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": 0})
    );
    let draw = bot.post(&format!("/api/bot/game/{id}/claim-draw")).await;
    assert_eq!(
        draw.status, 400,
        "a draw is refused once the claim is open too: {}",
        draw.body
    );
    let claimed = bot.post(&format!("/api/bot/game/{id}/claim-victory")).await;
    assert_eq!(claimed.status, 200, "{}", claimed.body);
    let end = game.until("gameState").await;
    assert_eq!(end["status"], "timeout", "{end}");
    assert_eq!(end["winner"], "black", "{end}");
    let finished = events.until("gameFinish").await;
    assert_eq!(finished["game"]["id"], id.as_str(), "{finished}");
}

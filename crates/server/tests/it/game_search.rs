//! Game search (issue 41, `GET /api/games/search`): three accounts play finished games of
//! known players, games, results, speeds and rating; each filter returns exactly the
//! expected games, newest first; unfinished and anonymous games are never found; 31 games
//! page as 30 + 1 with `next`; each bad parameter is a 400 naming it.

use crate::common::lobby::{account, first_legal, get, post, realtime, start};
use crate::common::*;
use serde_json::{Value, json};
use server::client::ApiClient;

/// How a test game ends.
#[derive(Clone, Copy)]
enum End {
    WhiteWins,
    BlackWins,
    Draw,
}

/// A friend game `white` (creator) against `black`, two plies played, then ended as `end`
/// (a resignation, or an agreed draw); its id.
async fn finished(white: &mut ApiClient, black: &mut ApiClient, body: Value, end: End) -> String {
    let mut body = body;
    body["opponent"] = json!("friend");
    body["color"] = json!("white");
    let g = create_and_join(white, black, body).await;
    let id = g["id"].as_str().expect("id").to_string();
    let mv = first_legal(white, &id).await;
    play(white, &id, &mv).await;
    let mv = first_legal(black, &id).await;
    play(black, &id, &mv).await;
    let path = |what: &str| format!("/api/games/{id}/{what}");
    let last = match end {
        End::WhiteWins => post(black, &path("resign"), json!({})).await,
        End::BlackWins => post(white, &path("resign"), json!({})).await,
        End::Draw => {
            let a = post(white, &path("draw"), json!({"action": "offer"})).await;
            assert_eq!(a.status, 200, "{}", a.text);
            post(black, &path("draw"), json!({"action": "accept"})).await
        }
    };
    assert_eq!(last.status, 200, "{}", last.text);
    assert_eq!(last.body["status"], "finished", "{}", last.text);
    id
}

/// The ids a search finds (asserts 200), and its `next`.
async fn ids(c: &mut ApiClient, query: &str) -> (Vec<String>, bool) {
    let a = get(c, &format!("/api/games/search?{query}")).await;
    let games = a.body["games"].as_array().expect("games").clone();
    let ids = games
        .iter()
        .map(|g| g["id"].as_str().expect("id").to_string())
        .collect();
    (ids, a.body["next"].as_bool().expect("next"))
}

/// `YYYY-MM-DD` (UTC) of Unix ms `ms` (H. Hinnant's `civil_from_days`).
fn day_of(ms: i64) -> String {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

async fn search_filters(url: &str) {
    let srv = start(url).await;
    let (mut ann, an) = account(&srv, "ann").await;
    let (mut bob, bn) = account(&srv, "bob").await;
    let (mut cat, cn) = account(&srv, "cat").await;
    let corr = json!({"kind": "correspondence", "days": 1});
    let g1 = finished(
        &mut ann,
        &mut bob,
        json!({"variant": "antarctos", "time_control": corr, "rated": true}),
        End::WhiteWins,
    )
    .await;
    let g2 = finished(&mut bob, &mut ann, json!({"variant": "iceage"}), End::Draw).await;
    let g3 = finished(
        &mut cat,
        &mut ann,
        json!({"variant": "antarctos", "time_control": realtime(300, 3)}),
        End::WhiteWins,
    )
    .await;
    // Not found: a game that goes on, and a finished game of two anonymous players.
    let ongoing = create_and_join(
        &mut ann,
        &mut cat,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white"}),
    )
    .await["id"]
        .as_str()
        .expect("id")
        .to_string();
    let (mut anon1, mut anon2) = (srv.client(), srv.client());
    let anon = finished(
        &mut anon1,
        &mut anon2,
        json!({"variant": "antarctos"}),
        End::BlackWins,
    )
    .await;

    let all = vec![g3.clone(), g2.clone(), g1.clone()];
    let cases: Vec<(String, Vec<&String>)> = vec![
        (format!("player={an}"), vec![&g3, &g2, &g1]),
        (format!("player={}", an.to_uppercase()), vec![&g3, &g2, &g1]),
        (format!("player={an}&opponent={bn}"), vec![&g2, &g1]),
        (format!("player={bn}&opponent={an}"), vec![&g2, &g1]),
        (format!("player={an}&opponent={cn}"), vec![&g3]),
        (format!("player={an}&result=win"), vec![&g1]),
        (format!("player={an}&result=loss"), vec![&g3]),
        (format!("player={an}&result=draw"), vec![&g2]),
        (format!("player={an}&result=white"), vec![&g3, &g1]),
        (format!("player={bn}&result=loss"), vec![&g1]),
        (format!("player={cn}&result=win"), vec![&g3]),
        (format!("player={an}&variant=iceage"), vec![&g2]),
        (
            format!("player={an}&variant=antarctos&result=loss"),
            vec![&g3],
        ),
        (format!("player={an}&rated=true"), vec![&g1]),
        (format!("player={an}&rated=false"), vec![&g3, &g2]),
        (format!("player={an}&speed=realtime"), vec![&g3]),
        (format!("player={an}&speed=correspondence"), vec![&g1]),
        (format!("player={an}&speed=unlimited"), vec![&g2]),
        (format!("player={an}&page=2"), vec![]),
        (format!("player={an}&variant=&result="), vec![&g3, &g2, &g1]),
    ];
    for (query, want) in &cases {
        let (found, next) = ids(&mut ann, query).await;
        let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        assert_eq!(found, want, "{query}");
        assert!(!next, "{query}");
    }
    // The date range, from the games' own day (UTC).
    let a = get(&mut ann, &format!("/api/games/search?player={an}")).await;
    let created = a.body["games"][0]["created_at"]
        .as_i64()
        .expect("created_at");
    let games = a.body["games"].as_array().unwrap();
    assert_eq!(games[0]["white"]["username"], cn.as_str(), "{}", a.text);
    assert_eq!(games[0]["black"]["username"], an.as_str());
    assert_eq!(games[0]["winner"], "white");
    assert_eq!(games[0]["speed"], "realtime");
    assert_eq!(games[2]["rated"], true);
    assert_eq!(games[1]["winner"], Value::Null);
    let today = day_of(created);
    let yesterday = day_of(created - 86_400_000);
    let tomorrow = day_of(created + 86_400_000);
    for (query, want) in [
        (format!("player={an}&from={today}&to={today}"), all.clone()),
        (format!("player={an}&from={yesterday}"), all.clone()),
        (format!("player={an}&to={yesterday}"), vec![]),
        (format!("player={an}&from={tomorrow}"), vec![]),
    ] {
        assert_eq!(ids(&mut ann, &query).await.0, want, "{query}");
    }
    // Without a player: the games of accounts only, by colour. Another test's games share a
    // PostgreSQL database, so there the expected ones are checked among the newest.
    let (white_wins, _) = ids(&mut ann, &format!("result=white&from={today}")).await;
    let (draws, _) = ids(
        &mut ann,
        &format!("result=draw&variant=iceage&from={today}"),
    )
    .await;
    let (black_wins, _) = ids(&mut ann, &format!("result=black&from={today}")).await;
    if url.starts_with("sqlite") {
        assert_eq!(white_wins, [g3.clone(), g1.clone()]);
        assert_eq!(draws, std::slice::from_ref(&g2));
        assert!(black_wins.is_empty(), "{black_wins:?}");
    } else {
        assert!(white_wins.contains(&g3) && white_wins.contains(&g1));
        assert!(draws.contains(&g2));
    }
    for found in [&white_wins, &draws, &black_wins] {
        assert!(
            !found.contains(&anon) && !found.contains(&ongoing),
            "{found:?}"
        );
    }
    srv.stop().await;
}

async fn search_pages(url: &str) {
    let srv = start(url).await;
    let (mut dan, dn) = account(&srv, "dan").await;
    let (mut eve, _) = account(&srv, "eve").await;
    let mut made = Vec::new();
    for i in 0..31 {
        let (w, b) = if i % 2 == 0 {
            (&mut dan, &mut eve)
        } else {
            (&mut eve, &mut dan)
        };
        made.push(finished(w, b, json!({"variant": "antarctos"}), End::WhiteWins).await);
    }
    made.reverse();
    let (first, next) = ids(&mut dan, &format!("player={dn}")).await;
    assert_eq!(first.len(), 30);
    assert!(next, "31 games: a second page");
    let (second, next) = ids(&mut dan, &format!("player={dn}&page=2")).await;
    assert_eq!(second.len(), 1);
    assert!(!next);
    let pages: Vec<String> = first.into_iter().chain(second).collect();
    assert_eq!(pages, made, "newest first, each game once");
    // A walk by cursor: games that finish between two pages neither repeat nor shift it.
    let a = get(&mut dan, &format!("/api/games/search?player={dn}")).await;
    let cursor = a.body["cursor"].as_str().expect("a cursor").to_string();
    let newer = finished(
        &mut dan,
        &mut eve,
        json!({"variant": "antarctos"}),
        End::WhiteWins,
    )
    .await;
    let (rest, next) = ids(&mut dan, &format!("player={dn}&after={cursor}")).await;
    assert_eq!(
        rest,
        made[30..],
        "the page after the cursor: the oldest game alone"
    );
    assert!(!next);
    let a = get(
        &mut dan,
        &format!("/api/games/search?player={dn}&after={cursor}"),
    )
    .await;
    assert!(
        a.body["cursor"].is_null(),
        "no next page, no cursor: {}",
        a.text
    );
    let (top, _) = ids(&mut dan, &format!("player={dn}")).await;
    assert_eq!(top[0], newer, "a fresh walk sees the new game first");
    // Without a player, a cursor bounds the walk the same way.
    let (none, _) = ids(&mut dan, "after=0.x").await;
    assert!(none.is_empty(), "nothing starts before 1970");
    // Dan won the games where he had White: 16 of the 31, and the newer one.
    let (won, next) = ids(&mut dan, &format!("player={dn}&result=win")).await;
    assert_eq!(won.len(), 17);
    assert!(!next);
    srv.stop().await;
}

async fn search_refuses_bad_parameters(url: &str) {
    let srv = start(url).await;
    let mut c = srv.client();
    for (query, field) in [
        ("variant=chess", "variant:"),
        ("result=won", "result:"),
        ("result=win", "result:"),
        ("rated=yes", "rated:"),
        ("speed=blitz", "speed:"),
        ("from=2024-02-30", "from:"),
        ("to=2024-1-1", "to:"),
        ("from=2024-03-02&to=2024-03-01", "to:"),
        ("page=0", "page:"),
        ("rated=1", "rated:"),
        ("after=yesterday", "after:"),
        ("after=5.abc&page=2", "after:"),
        ("page=x", "page:"),
        ("opponent=bob", "opponent:"),
        ("color=white", "color: unknown parameter"),
        ("page=1&page=2", "page: given twice"),
        ("player=%FF", "player:"),
    ] {
        let a = c
            .get(&format!("/api/games/search?{query}"))
            .await
            .expect("request");
        assert_error(&a, 400, "bad_request");
        let message = a.body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.starts_with(field), "{query}: {message}");
    }
    let a = c
        .get("/api/games/search?player=nobody_here_at_all")
        .await
        .expect("request");
    assert_error(&a, 404, "not_found");
    assert!(a.text.contains("player:"), "{}", a.text);
    srv.stop().await;
}

both_databases! {
    async fn search_finds_exactly_the_games_each_filter_names(url: &str) {
        search_filters(url).await;
    }
}

both_databases! {
    async fn search_pages_thirty_games_at_a_time(url: &str) {
        search_pages(url).await;
    }
}

both_databases! {
    async fn search_names_each_bad_parameter(url: &str) {
        search_refuses_bad_parameters(url).await;
    }
}

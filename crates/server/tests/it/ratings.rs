//! Ratings, profiles and leaderboards (issue 13) over the HTTP API, on SQLite and, when
//! `ICEBOUND_TEST_POSTGRES_URL` is set, on PostgreSQL: rated friend games between two accounts
//! (ended by resignation and by a move), the change in GameView, the profile, its history and
//! game list, the leaderboard, the rated games' statistics; an aborted and a casual game change
//! nothing; a game ended twice at once (on two servers sharing the database) is rated once.

use crate::common::*;
use serde_json::{Value, json};
use server::SiteOptions;
use server::client::ApiClient;
use server::options::RateLimits;

fn options() -> SiteOptions {
    // Many games and log-ins from one address: the limits have their own tests.
    SiteOptions {
        rate_limits: RateLimits::off(),
        ..SiteOptions::default()
    }
}

async fn get(c: &mut ApiClient, path: &str) -> Value {
    let a = c.get(path).await.expect("get");
    assert_eq!(a.status, 200, "{path}: {}", a.text);
    a.body
}

async fn post(c: &mut ApiClient, path: &str) -> server::client::Answer {
    c.post(path, json!({})).await.expect("post")
}

/// A real-time 5+3 friend game: `white` creates it (rated or not, from `fen` when given),
/// `black` joins by the invitation. Returns its id.
async fn friend_game(
    white: &mut ApiClient,
    black: &mut ApiClient,
    rated: bool,
    fen: Option<&str>,
) -> String {
    let mut body = json!({"variant": "antarctos", "opponent": "friend", "color": "white",
        "time_control": {"kind": "realtime", "initial_s": 300, "increment_s": 3},
        "rated": rated});
    if let Some(fen) = fen {
        body["fen"] = json!(fen);
    }
    let g = create_and_join(white, black, body).await;
    g["id"].as_str().expect("id").to_string()
}

/// Each side plays its first legal move.
async fn two_moves(white: &mut ApiClient, black: &mut ApiClient, id: &str) {
    for c in [white, black] {
        let g = get(c, &format!("/api/games/{id}")).await;
        let mv = g["legal"][0]["id"]
            .as_str()
            .expect("a legal move")
            .to_string();
        play(c, id, &mv).await;
    }
}

async fn player(c: &mut ApiClient, name: &str) -> Value {
    get(c, &format!("/api/players/{name}")).await
}

fn realtime(p: &Value) -> &Value {
    &p["ratings"]["antarctos"]["realtime"]
}

async fn rated_stats(c: &mut ApiClient, query: &str) -> Value {
    get(c, &format!("/api/stats/rated{query}")).await["antarctos"].clone()
}

async fn ratings_flow(url: &str) {
    let srv = TestServer::start_with(url, options()).await;
    let (ann_name, bob_name) = (unique("ann_"), unique("bob_"));
    let mut ann = register(&srv, &ann_name).await;
    let mut bob = register(&srv, &bob_name).await;
    let mut watcher = srv.client();
    let stats_before = rated_stats(&mut watcher, "").await;
    let band_before = rated_stats(&mut watcher, "?min=1400&max=1600").await;
    let all_before = get(&mut watcher, "/api/stats").await["antarctos"]["total"].clone();

    // A new player: the start values, provisional, no games.
    let p = player(&mut watcher, &ann_name).await;
    assert_eq!(p["username"], ann_name.as_str());
    assert_eq!(
        *realtime(&p),
        json!({"rating": 1500, "rd": 350.0, "volatility": 0.06, "games": 0, "provisional": true})
    );
    assert_eq!(
        p["games"],
        json!({"total": 0, "wins": 0, "losses": 0, "draws": 0})
    );

    // A rated game, resigned by Black: both ratings move, in opposite directions.
    let id = friend_game(&mut ann, &mut bob, true, None).await;
    // Both names are shown from the start, to the players and to anyone watching.
    let seen = get(&mut watcher, &format!("/api/games/{id}")).await;
    assert_eq!(seen["white"]["username"], ann_name.as_str(), "{seen}");
    assert_eq!(seen["black"]["username"], bob_name.as_str(), "{seen}");
    let g = get(&mut ann, &format!("/api/games/{id}")).await;
    assert_eq!(g["ratings"], Value::Null, "not rated before it ends");
    two_moves(&mut ann, &mut bob, &id).await;
    let r = post(&mut bob, &format!("/api/games/{id}/resign")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["ratings"]["white"]["diff"], 162, "{}", r.text);
    let g = get(&mut watcher, &format!("/api/games/{id}")).await;
    assert_eq!(
        g["ratings"],
        json!({
            "white": {"username": ann_name, "before": 1500, "after": 1662, "diff": 162,
                      "provisional": true},
            "black": {"username": bob_name, "before": 1500, "after": 1338, "diff": -162,
                      "provisional": true}
        })
    );
    let p = player(&mut watcher, &ann_name).await;
    assert_eq!(realtime(&p)["rating"], 1662);
    assert_eq!(realtime(&p)["games"], 1);
    assert_eq!(realtime(&p)["provisional"], true);
    assert_eq!(p["ratings"]["antarctos"]["correspondence"]["games"], 0);
    assert_eq!(p["ratings"]["iceage"]["realtime"]["games"], 0);
    assert_eq!(
        p["games"],
        json!({"total": 1, "wins": 1, "losses": 0, "draws": 0})
    );
    // Any case finds the player.
    let p = player(&mut watcher, &bob_name.to_uppercase()).await;
    assert_eq!(p["username"], bob_name.as_str());
    assert_eq!(realtime(&p)["rating"], 1338);
    assert_eq!(p["games"]["losses"], 1);
    let h = get(&mut watcher, &format!("/api/players/{ann_name}/history")).await;
    let points = h["antarctos"]["realtime"].as_array().expect("points");
    assert_eq!(points.len(), 1, "{h}");
    assert_eq!(points[0]["game"], id.as_str());
    assert_eq!(points[0]["rating"], 1662);
    assert_eq!(h["iceage"]["correspondence"], json!([]));
    let list = get(&mut watcher, &format!("/api/players/{bob_name}/games")).await;
    assert_eq!(list["page"], 1);
    assert_eq!(list["more"], false);
    let line = &list["games"][0];
    assert_eq!(line["id"], id.as_str());
    assert_eq!(line["color"], "black");
    assert_eq!(line["outcome"], "loss");
    assert_eq!(line["rating_diff"], -162);
    assert_eq!(line["speed"], "realtime");
    assert_eq!(
        line["opponent"],
        json!({"kind": "human", "username": ann_name})
    );
    let none = get(
        &mut watcher,
        &format!("/api/players/{bob_name}/games?variant=iceage"),
    )
    .await;
    assert_eq!(none["games"], json!([]));

    // A game played from the start to its real end by a move (each side plays its first
    // legal move; Antarctos always ends, A15): rated too. Rated games never start from a
    // set-up position.
    let id2 = friend_game(&mut bob, &mut ann, true, None).await;
    let mut end = get(&mut bob, &format!("/api/games/{id2}")).await;
    while end["status"] == "ongoing" {
        let mover = if end["turn"] == "white" {
            &mut bob
        } else {
            &mut ann
        };
        let mv = end["legal"][0]["id"]
            .as_str()
            .expect("a legal move")
            .to_string();
        end = play(mover, &id2, &mv).await;
    }
    assert_eq!(end["status"], "finished", "{end}");
    let reason = end["result"]["reason"].as_str().expect("reason");
    assert!(
        ["breakthrough", "total freeze", "no moves"].contains(&reason),
        "ended by a move: {reason}"
    );
    let winner = end["result"]["winner"]
        .as_str()
        .expect("a winner (A15)")
        .to_string();
    let loser = if winner == "white" { "black" } else { "white" };
    assert!(
        end["ratings"][winner.as_str()]["diff"]
            .as_i64()
            .expect("diff")
            > 0
    );
    assert!(end["ratings"][loser]["diff"].as_i64().expect("diff") < 0);
    // Bob (White here) comes from his loss of the first game.
    assert_eq!(end["ratings"]["white"]["before"], 1338);
    let bob_won = winner == "white";
    let p = player(&mut watcher, &bob_name).await;
    assert_eq!(realtime(&p)["games"], 2);
    assert_eq!(p["games"]["wins"], i64::from(bob_won));

    // An aborted rated game and a casual game change nothing.
    let before = player(&mut watcher, &ann_name).await;
    let id3 = friend_game(&mut ann, &mut bob, true, None).await;
    let a = post(&mut ann, &format!("/api/games/{id3}/abort")).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["status"], "aborted");
    assert_eq!(a.body["ratings"], Value::Null);
    let id4 = friend_game(&mut ann, &mut bob, false, None).await;
    two_moves(&mut ann, &mut bob, &id4).await;
    let r = post(&mut bob, &format!("/api/games/{id4}/resign")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["ratings"], Value::Null);
    let after = player(&mut watcher, &ann_name).await;
    assert_eq!(after["ratings"], before["ratings"]);
    // The casual game counts as a win, not as a rated game; the aborted one not at all.
    assert_eq!(after["games"]["total"], 3);
    assert_eq!(after["games"]["wins"], 2 + i64::from(!bob_won));

    // The statistics' rated table counts the two rated games only; the first was played at a
    // mean rating of 1500, the second at 1500 too ((1662 + 1338) / 2).
    let stats = rated_stats(&mut watcher, "").await;
    let delta =
        |s: &Value, b: &Value, k: &str| s[k].as_i64().unwrap_or(0) - b[k].as_i64().unwrap_or(0);
    assert_eq!(delta(&stats, &stats_before, "total"), 2, "{stats}");
    assert_eq!(
        delta(&stats, &stats_before, "white"),
        1 + i64::from(bob_won)
    );
    assert_eq!(delta(&stats, &stats_before, "black"), i64::from(!bob_won));
    let band = rated_stats(&mut watcher, "?min=1400&max=1600").await;
    assert_eq!(delta(&band, &band_before, "total"), 2, "{band}");
    let all_after = get(&mut watcher, "/api/stats").await["antarctos"]["total"].clone();
    assert_eq!(
        all_after.as_i64().unwrap_or(0) - all_before.as_i64().unwrap_or(0),
        3,
        "every finished game counts in the site's table"
    );
    srv.stop().await;
}

/// Two resignations at once, on two servers sharing the database: one ends the game, and it
/// is rated once.
async fn rated_once(url: &str) {
    let srv = TestServer::start_with(url, options()).await;
    let other = TestServer::start_with(url, options()).await;
    let (ann_name, bob_name) = (unique("cat_"), unique("dan_"));
    let mut ann = register(&srv, &ann_name).await;
    let mut bob = register(&srv, &bob_name).await;
    for round in 0..3 {
        let id = friend_game(&mut ann, &mut bob, true, None).await;
        two_moves(&mut ann, &mut bob, &id).await;
        let mut bob_there = bob.clone();
        bob_there.set_addr(other.addr);
        let path = format!("/api/games/{id}/resign");
        let (a, b) = tokio::join!(ann.post(&path, json!({})), bob_there.post(&path, json!({})));
        let (a, b) = (a.expect("ann resigns"), b.expect("bob resigns"));
        let won: Vec<u16> = [a.status, b.status]
            .into_iter()
            .filter(|s| *s == 200)
            .collect();
        assert_eq!(
            won.len(),
            1,
            "one resignation ends it: {} / {}",
            a.text,
            b.text
        );
        let p = player(&mut ann, &ann_name).await;
        assert_eq!(realtime(&p)["games"], round + 1, "{p}");
        let h = get(&mut ann, &format!("/api/players/{bob_name}/history")).await;
        assert_eq!(
            h["antarctos"]["realtime"].as_array().map(Vec::len),
            Some(round as usize + 1)
        );
        // Both servers show the same change.
        let here = get(&mut ann, &format!("/api/games/{id}")).await;
        let there = get(&mut bob_there, &format!("/api/games/{id}")).await;
        assert!(here["ratings"].is_object(), "{here}");
        assert_eq!(here["ratings"], there["ratings"]);
    }
    other.stop().await;
    srv.stop().await;
}

/// Enough games for both players' deviation to fall under 110: the leaderboard lists them,
/// without "?", best first.
async fn leaderboard(url: &str) {
    let srv = TestServer::start_with(url, options()).await;
    let eve_name = unique("eve_");
    let mut eve = register(&srv, &eve_name).await;
    // Rated games between the same two accounts count 5 a day (issue 41): Eve meets 8.
    let mut rivals = Vec::new();
    for r in 0..8 {
        rivals.push(register(&srv, &unique(&format!("riv{r}_"))).await);
    }
    let mut watcher = srv.client();
    let board = get(&mut watcher, "/api/leaderboard/antarctos").await;
    let listed = |b: &Value, name: &str| {
        b["realtime"]
            .as_array()
            .is_some_and(|l| l.iter().any(|x| x["username"] == name))
    };
    assert!(!listed(&board, &eve_name));
    let mut games = 0;
    // A Glicko-2 deviation of 350 falls under 110 after about 17 games between two new
    // players.
    while realtime(&player(&mut watcher, &eve_name).await)["provisional"] == true {
        games += 1;
        assert!(games <= 40, "the deviation never fell under 110");
        let fay = &mut rivals[(games as usize - 1) % 8];
        let id = friend_game(&mut eve, fay, true, None).await;
        two_moves(&mut eve, fay, &id).await;
        // Antarctos has no draws (A15): the players win in turn. Eve's losses come after 20
        // plies: 8 quick rated losses (under 20 plies) in a day would stop her games counting
        // (issue 41, sandbagging); her 8 rivals each lose fewer than the 4 quick losses to one
        // opponent that hold a pair.
        if games % 2 == 0 {
            for ply in 2..20 {
                let g = get(&mut eve, &format!("/api/games/{id}")).await;
                if g["status"] != "ongoing" {
                    break;
                }
                let c = if ply % 2 == 0 { &mut eve } else { &mut *fay };
                let mv = g["legal"][0]["id"]
                    .as_str()
                    .expect("a legal move")
                    .to_string();
                play(c, &id, &mv).await;
            }
        }
        if get(&mut eve, &format!("/api/games/{id}")).await["status"] != "ongoing" {
            continue;
        }
        let loser = if games % 2 == 1 { fay } else { &mut eve };
        let r = post(loser, &format!("/api/games/{id}/resign")).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let eve_p = player(&mut watcher, &eve_name).await;
    assert!(realtime(&eve_p)["rd"].as_f64().expect("rd") < 110.0);
    let board = get(&mut watcher, "/api/leaderboard/antarctos").await;
    assert_eq!(board["variant"], "antarctos");
    let lines = board["realtime"].as_array().expect("realtime");
    let eve_line = lines
        .iter()
        .find(|l| l["username"] == eve_name.as_str())
        .expect("eve is listed");
    assert_eq!(eve_line["rating"], realtime(&eve_p)["rating"]);
    assert_eq!(eve_line["games"], games);
    let ranks: Vec<i64> = lines.iter().filter_map(|l| l["rank"].as_i64()).collect();
    assert_eq!(ranks, (1..=lines.len() as i64).collect::<Vec<_>>());
    let ratings: Vec<i64> = lines.iter().filter_map(|l| l["rating"].as_i64()).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");
    assert!(lines.len() <= 50);
    let ice = get(&mut watcher, "/api/leaderboard/iceage").await;
    assert!(!listed(&ice, &eve_name));
    // Paging: 20 games a page.
    let page2 = get(
        &mut watcher,
        &format!("/api/players/{eve_name}/games?variant=antarctos&page=2"),
    )
    .await;
    assert_eq!(page2["page"], 2);
    let first = get(&mut watcher, &format!("/api/players/{eve_name}/games")).await;
    assert_eq!(
        first["games"].as_array().map(Vec::len),
        Some(games.min(20) as usize)
    );
    assert_eq!(first["more"], games > 20);
    // A marked account leaves the leaderboard (issue 41).
    let mod_name = unique("lbmod_");
    let mut modr = register(&srv, &mod_name).await;
    crate::common::lobby::make_mod(&srv, &mod_name).await;
    let r = modr
        .post(
            &format!("/api/mod/players/{eve_name}/mark"),
            json!({"mark": "cheater", "reason": "engine"}),
        )
        .await
        .expect("mark");
    assert_eq!(r.status, 200, "{}", r.text);
    let board = get(&mut watcher, "/api/leaderboard/antarctos").await;
    assert!(!listed(&board, &eve_name), "{board}");
    srv.stop().await;
}

both_databases! {
    async fn rated_games_move_both_ratings(url: &str) {
        ratings_flow(url).await;
    }
}

both_databases! {
    async fn a_game_ended_twice_at_once_is_rated_once(url: &str) {
        rated_once(url).await;
    }
}

both_databases! {
    async fn the_leaderboard_lists_settled_ratings(url: &str) {
        leaderboard(url).await;
    }
}

#[tokio::test]
async fn bad_input_is_a_clear_400_or_404() {
    let srv = TestServer::start_with(&sqlite_url("ratings-bad"), options()).await;
    let mut c = srv.client();
    let name = unique("gil_");
    register(&srv, &name).await;
    for (path, status, code) in [
        ("/api/players/nobody_here".to_string(), 404, "not_found"),
        ("/api/players/%00%ff".to_string(), 404, "not_found"),
        (
            format!("/api/players/{}", "x".repeat(300)),
            404,
            "not_found",
        ),
        (
            "/api/players/nobody_here/games".to_string(),
            404,
            "not_found",
        ),
        (
            "/api/players/nobody_here/history".to_string(),
            404,
            "not_found",
        ),
        (
            format!("/api/players/{name}/games?variant=chess"),
            400,
            "bad_request",
        ),
        (
            format!("/api/players/{name}/games?page=0"),
            400,
            "bad_request",
        ),
        (
            format!("/api/players/{name}/games?page=x"),
            400,
            "bad_request",
        ),
        (
            format!("/api/players/{name}/games?page=99999999999999999999"),
            400,
            "bad_request",
        ),
        ("/api/leaderboard/chess".to_string(), 404, "not_found"),
        ("/api/stats/rated?min=abc".to_string(), 400, "bad_request"),
        (
            "/api/stats/rated?min=1600&max=1400".to_string(),
            400,
            "bad_request",
        ),
        ("/api/stats/rated?max=-5".to_string(), 400, "bad_request"),
        ("/api/stats/rated?min=%ff".to_string(), 400, "bad_request"),
    ] {
        let a = c.get(&path).await.expect("get");
        assert_error(&a, status, code);
    }
    let ok = c
        .get(&format!("/api/players/{name}/games?variant=iceage&page=3"))
        .await
        .expect("get");
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(ok.body, json!({"page": 3, "more": false, "games": []}));
    srv.stop().await;
}

//! Profiles, leaderboards and the rated games' statistics (issue 13): what
//! `GET /api/players/{username}`, `/api/players/{username}/history`,
//! `/api/players/{username}/games`, `/api/leaderboard/{variant}` and `/api/stats/rated` answer
//! (docs/api.md, "Players and ratings"). Ratings are Glicko-2 (`site_model::ratings`).

use std::collections::BTreeMap;

use game::Color;
use serde::Serialize;

use crate::player_games::game_line;
pub use crate::player_games::{OpponentView, PlayerGameView};
use crate::view::VariantStats;
use site_model::clock::Speed;
use site_model::error::{ErrorCode, SiteError};
use site_model::ratings::{PROVISIONAL_RD, Rating};
use site_model::secrets::TokenHash;
use site_model::state::GameKind;
use site_store::{PlayerRecord, ProfileAccount, Store, now_ms};

/// Games per page of a profile's game list.
pub const GAMES_PER_PAGE: i64 = 20;
/// Highest page number of a profile's game list (20,000 games).
pub const MAX_PAGE: i64 = 1000;
/// Lines per speed class of a leaderboard.
pub const LEADERBOARD_SIZE: i64 = 50;
/// A leaderboard lists players with a rated game in this many last days.
pub const LEADERBOARD_DAYS: i64 = 30;
/// Points of rating history a profile sends (the newest).
pub const HISTORY_POINTS: i64 = 5000;
const SPEEDS: [Speed; 2] = [Speed::Realtime, Speed::Correspondence];

/// One rating as sent: `{"rating": 1512, "rd": 87.3, "volatility": 0.059998, "games": 12,
/// "provisional": false}` (rating rounded; RD to one decimal).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingView {
    /// Rounded rating.
    pub rating: i64,
    /// Rating deviation, one decimal.
    pub rd: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
    /// RD over 110: shown as `1500?`.
    pub provisional: bool,
}

impl RatingView {
    fn new(r: Rating, games: i64) -> RatingView {
        RatingView {
            rating: r.rating.round() as i64,
            rd: (r.rd * 10.0).round() / 10.0,
            volatility: r.volatility,
            games,
            provisional: r.provisional(),
        }
    }
}

/// A player's finished games counted: `{"total", "wins", "losses", "draws"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RecordView {
    /// Finished games (two different players, aborted games left out).
    pub total: i64,
    /// Won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
    /// Drawn.
    pub draws: i64,
}

impl From<PlayerRecord> for RecordView {
    fn from(r: PlayerRecord) -> Self {
        RecordView {
            total: r.total,
            wins: r.wins,
            losses: r.losses,
            draws: r.draws,
        }
    }
}

/// `GET /api/players/{username}`: `{"username", "ratings": {"antarctos": {"realtime": RatingView,
/// "correspondence": RatingView}, "iceage": {...}}, "games": RecordView, "bio": "..." | null,
/// "country": "TR" | null, "activity": ActivityView}`. A game and speed without a rated game
/// shows the start values (1500, 350, 0.06, 0 games, provisional).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerView {
    /// The name as registered.
    pub username: String,
    /// `"BOT"` for a BOT account (issue 44, as lichess's `title`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<&'static str>,
    /// Per game, per speed class.
    pub ratings: BTreeMap<&'static str, BTreeMap<&'static str, RatingView>>,
    /// Finished games counted.
    pub games: RecordView,
    /// The player's bio, plain text (issue 41).
    pub bio: Option<String>,
    /// Their ISO 3166-1 alpha-2 country code.
    pub country: Option<String>,
    /// Recent games, tournaments, puzzles and follows.
    pub activity: crate::profile::ActivityView,
}

/// One point of a rating history: `{"game", "rating", "rd", "at"}` (Unix ms of the game's end).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryPoint {
    /// The rated game.
    pub game: String,
    /// Rating after it, rounded.
    pub rating: i64,
    /// RD after it, one decimal.
    pub rd: f64,
    /// Unix milliseconds.
    pub at: i64,
}

/// A page of a profile's game list: `{"page", "more", "games": [PlayerGameView]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerGamesView {
    /// The page number (from 1).
    pub page: i64,
    /// Whether a next page has games.
    pub more: bool,
    /// The games, most recently changed first.
    pub games: Vec<PlayerGameView>,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardLine {
    /// 1 for the best.
    pub rank: usize,
    /// The account's name.
    pub username: String,
    /// Rounded rating.
    pub rating: i64,
    /// RD, one decimal (under 110).
    pub rd: f64,
    /// Rated games played.
    pub games: i64,
}

/// `GET /api/leaderboard/{variant}`: `{"variant", "realtime": [BoardLine], "correspondence":
/// [BoardLine]}`, at most 50 lines each.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeaderboardView {
    /// The game.
    pub variant: GameKind,
    /// Real-time ratings.
    pub realtime: Vec<BoardLine>,
    /// Correspondence ratings.
    pub correspondence: Vec<BoardLine>,
}

fn no_player(name: &str) -> SiteError {
    SiteError::new(
        ErrorCode::NotFound,
        format!("no player named '{}'", game::excerpt(name)),
    )
}

/// The account named `name` (any case); 404 `not_found` otherwise.
async fn account(store: &Store, name: &str) -> Result<ProfileAccount, SiteError> {
    if !crate::accounts::valid_username(name) {
        return Err(no_player(name));
    }
    store
        .profile_account(name)
        .await?
        .ok_or_else(|| no_player(name))
}

/// The players' service: profiles, rating histories, game lists, leaderboards and the rated
/// games' statistics, read from the site's store (what site-http's player routes call).
#[derive(Debug, Clone)]
pub struct Players {
    store: Store,
}

impl Players {
    /// The service over `store`.
    pub fn new(store: Store) -> Players {
        Players { store }
    }

    /// `GET /api/players/{username}`; 404 for an unknown name.
    pub async fn player(&self, name: &str) -> Result<PlayerView, SiteError> {
        player(&self.store, name).await
    }

    /// `GET /api/players/{username}/history`: per game and speed, oldest first.
    pub async fn history(
        &self,
        name: &str,
    ) -> Result<BTreeMap<&'static str, BTreeMap<&'static str, Vec<HistoryPoint>>>, SiteError> {
        history(&self.store, name).await
    }

    /// `GET /api/players/{username}/games?variant=&page=` (the query's texts, parsed here:
    /// 400 when bad).
    pub async fn games(
        &self,
        name: &str,
        variant: Option<&str>,
        page: Option<&str>,
    ) -> Result<PlayerGamesView, SiteError> {
        games(&self.store, name, variant, page).await
    }

    /// `GET /api/leaderboard/{variant}`; 404 for an unknown game.
    pub async fn leaderboard(&self, variant: &str) -> Result<LeaderboardView, SiteError> {
        leaderboard(&self.store, variant).await
    }

    /// `GET /api/stats/rated?min=&max=` (the band's ends as texts, parsed here: 400 when bad).
    pub async fn rated_stats(
        &self,
        min: Option<&str>,
        max: Option<&str>,
    ) -> Result<serde_json::Value, SiteError> {
        rated_stats(&self.store, min, max).await
    }
}

/// Reads a game name (`antarctos`, `iceage`); 400 otherwise.
pub fn parse_variant(text: &str) -> Result<GameKind, SiteError> {
    GameKind::parse(text).ok_or_else(|| {
        SiteError::bad_request(format!(
            "unknown variant '{}' (antarctos or iceage)",
            game::excerpt(text)
        ))
    })
}

/// `GET /api/players/{username}`.
async fn player(store: &Store, name: &str) -> Result<PlayerView, SiteError> {
    let acc = account(store, name).await?;
    let rows = store.ratings_of(&acc.id).await?;
    let mut ratings = BTreeMap::new();
    for variant in GameKind::ALL {
        let mut by_speed = BTreeMap::new();
        for speed in SPEEDS {
            let view = rows
                .iter()
                .find(|r| r.variant == variant && r.speed == speed)
                .map_or_else(
                    || RatingView::new(Rating::default(), 0),
                    |r| RatingView::new(r.rating, r.games),
                );
            by_speed.insert(speed.as_str(), view);
        }
        ratings.insert(variant.as_str(), by_speed);
    }
    let games = match &acc.player_hash {
        Some(h) => store.player_record(h).await?,
        None => PlayerRecord::default(),
    };
    let activity = crate::profile::activity(store, &acc).await?;
    let bio = acc.public_bio(now_ms()).map(str::to_owned);
    Ok(PlayerView {
        title: acc.bot.then_some("BOT"),
        username: acc.username,
        ratings,
        games: games.into(),
        bio,
        country: acc.country,
        activity,
    })
}

/// `GET /api/players/{username}/history`: `{"antarctos": {"realtime": [HistoryPoint],
/// "correspondence": [...]}, "iceage": {...}}`, oldest first.
async fn history(
    store: &Store,
    name: &str,
) -> Result<BTreeMap<&'static str, BTreeMap<&'static str, Vec<HistoryPoint>>>, SiteError> {
    let acc = account(store, name).await?;
    let rows = store.rating_history(&acc.id, HISTORY_POINTS).await?;
    let mut out = BTreeMap::new();
    for variant in GameKind::ALL {
        let mut by_speed = BTreeMap::new();
        for speed in SPEEDS {
            let points = rows
                .iter()
                .filter(|r| r.variant == variant && r.speed == speed)
                .map(|r| HistoryPoint {
                    game: r.game_id.clone(),
                    rating: r.rating.round() as i64,
                    rd: (r.rd * 10.0).round() / 10.0,
                    at: r.at,
                })
                .collect::<Vec<_>>();
            by_speed.insert(speed.as_str(), points);
        }
        out.insert(variant.as_str(), by_speed);
    }
    Ok(out)
}

/// Reads `page` (1 to [`MAX_PAGE`], 1 when absent); 400 otherwise.
pub fn parse_page(text: Option<&str>) -> Result<i64, SiteError> {
    let Some(text) = text else { return Ok(1) };
    match text.parse::<i64>() {
        Ok(n) if (1..=MAX_PAGE).contains(&n) => Ok(n),
        _ => Err(SiteError::bad_request(format!(
            "page '{}' is not a number from 1 to {MAX_PAGE}",
            game::excerpt(text)
        ))),
    }
}

/// `GET /api/players/{username}/games?variant=&page=`.
async fn games(
    store: &Store,
    name: &str,
    variant: Option<&str>,
    page: Option<&str>,
) -> Result<PlayerGamesView, SiteError> {
    let variant = match variant {
        None | Some("") | Some("all") => None,
        Some(v) => Some(parse_variant(v)?),
    };
    let page = parse_page(page)?;
    let acc = account(store, name).await?;
    let Some(hash) = acc.player_hash else {
        return Ok(PlayerGamesView {
            page,
            more: false,
            games: Vec::new(),
        });
    };
    let found = store
        .player_games(&hash, variant, page - 1, GAMES_PER_PAGE)
        .await?;
    let mut others: Vec<String> = found
        .rows
        .iter()
        .flat_map(|r| [r.white.token.clone(), r.black.token.clone()])
        .flatten()
        .filter(|t| *t != hash)
        .map(TokenHash::into_string)
        .collect();
    others.sort();
    others.dedup();
    let names = store.usernames_of(&others).await?;
    Ok(PlayerGamesView {
        page,
        more: found.more,
        games: found
            .rows
            .iter()
            .map(|r| game_line(r, &hash, &names))
            .collect(),
    })
}

/// `GET /api/leaderboard/{variant}`; 404 for an unknown game.
async fn leaderboard(store: &Store, variant: &str) -> Result<LeaderboardView, SiteError> {
    let variant = GameKind::parse(variant).ok_or_else(|| {
        SiteError::new(
            ErrorCode::NotFound,
            format!(
                "no leaderboard for '{}' (antarctos or iceage)",
                game::excerpt(variant)
            ),
        )
    })?;
    let since = now_ms() - LEADERBOARD_DAYS * 86_400_000;
    let mut lists = Vec::with_capacity(2);
    for speed in SPEEDS {
        let rows = store
            .leaderboard(variant, speed, PROVISIONAL_RD, since, LEADERBOARD_SIZE)
            .await?;
        lists.push(
            rows.into_iter()
                .enumerate()
                .map(|(i, r)| BoardLine {
                    rank: i + 1,
                    username: r.username,
                    rating: r.rating.rating.round() as i64,
                    rd: (r.rating.rd * 10.0).round() / 10.0,
                    games: r.games,
                })
                .collect::<Vec<_>>(),
        );
    }
    let correspondence = lists.pop().unwrap_or_default();
    let realtime = lists.pop().unwrap_or_default();
    Ok(LeaderboardView {
        variant,
        realtime,
        correspondence,
    })
}

/// Reads a rating band's end (`min`, `max`: 0 to 4000); 400 otherwise.
fn parse_band_end(name: &str, text: Option<&str>) -> Result<Option<i64>, SiteError> {
    match text {
        None | Some("") => Ok(None),
        Some(t) => match t.parse::<i64>() {
            Ok(n) if (0..=4000).contains(&n) => Ok(Some(n)),
            _ => Err(SiteError::bad_request(format!(
                "{name} '{}' is not a rating from 0 to 4000",
                game::excerpt(t)
            ))),
        },
    }
}

/// `GET /api/stats/rated?min=&max=`: rated games (two accounts, rated by the site) per game,
/// White / Black / draws with percentages, of the games whose players' mean rating before the
/// game is at least `min` and under `max`: `{"min", "max", "antarctos": VariantStats,
/// "iceage": VariantStats}`.
async fn rated_stats(
    store: &Store,
    min: Option<&str>,
    max: Option<&str>,
) -> Result<serde_json::Value, SiteError> {
    let min = parse_band_end("min", min)?;
    let max = parse_band_end("max", max)?;
    if let (Some(a), Some(b)) = (min, max)
        && a >= b
    {
        return Err(SiteError::bad_request(format!(
            "the rating band {a}-{b} is empty: min must be under max"
        )));
    }
    let rows = store.rated_stats(min, max).await?;
    let mut out = serde_json::Map::new();
    out.insert("min".into(), serde_json::json!(min));
    out.insert("max".into(), serde_json::json!(max));
    for variant in GameKind::ALL {
        let count = |w: Option<Color>| {
            rows.iter()
                .filter(|r| r.variant == variant && r.winner == w)
                .map(|r| r.count)
                .sum::<i64>()
        };
        let s = VariantStats::new(
            count(Some(Color::White)),
            count(Some(Color::Black)),
            count(None),
        );
        out.insert(
            variant.to_string(),
            serde_json::to_value(s).unwrap_or_default(),
        );
    }
    Ok(serde_json::Value::Object(out))
}

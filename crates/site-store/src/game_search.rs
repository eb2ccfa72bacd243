//! Game search (issue 41, `GET /api/games/search`): the finished games of accounts, by
//! player, opponent, game, result, rated or not, speed and date range, newest first, a page
//! at a time.
//!
//! Why it stays fast on 1,000,000 games (docs/performance.md, "Game search"): migration 30's
//! indexes `(white_token, status, created_at, id)`, `(black_token, status, created_at, id)`
//! and `(status, created_at, id)`. A player's games are two index ranges, one per colour,
//! each already in the page's order: `UNION ALL` merges them and stops after the page
//! (SQLite's MERGE, PostgreSQL's Merge Append), so a page costs its offset plus its rows,
//! never a sort of all the player's games. Without a player, the walk is the
//! `(status, created_at, id)` index, newest first, the date range a range of it; the other
//! filters are checked on the rows walked.

use game::{Color, EndReason};
use site_model::search::{ResultFilter, SearchCursor, SpeedFilter};
use site_model::secrets::TokenHash;
use site_model::state::{GameKind, Level, SeatKind};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::games::{parse_column, parse_optional};
use super::{Store, StoreError};

/// What to search for, checked (site's `game_search` builds it): the player and opponent as
/// their accounts' seat hashes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Games where this seat hash played (either colour).
    pub player: Option<TokenHash>,
    /// Games against this seat hash (needs `player`; ignored without it).
    pub opponent: Option<TokenHash>,
    /// One game only.
    pub variant: Option<GameKind>,
    /// The result; `Win`/`Loss` need `player` (without one they match nothing).
    pub result: Option<ResultFilter>,
    /// Played rated (`true`) or casual (`false`).
    pub rated: Option<bool>,
    /// The clock's speed class.
    pub speed: Option<SpeedFilter>,
    /// Started at or after this Unix ms.
    pub from_ms: Option<i64>,
    /// Started before this Unix ms.
    pub until_ms: Option<i64>,
    /// Only games after this one in the search's order (the next page of a walk).
    pub after: Option<SearchCursor>,
}

/// One seat of a found game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSeat {
    /// Human or engine.
    pub kind: SeatKind,
    /// The account's name when it sat down logged in.
    pub name: Option<String>,
    /// An engine's level.
    pub level: Option<Level>,
}

/// One found game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundGame {
    /// The game's id.
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// White's seat.
    pub white: FoundSeat,
    /// Black's seat.
    pub black: FoundSeat,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub reason: Option<EndReason>,
    /// Played rated.
    pub rated: bool,
    /// `realtime`, `correspondence` or `unlimited`.
    pub speed: SpeedFilter,
    /// Plies played.
    pub plies: i64,
    /// Unix ms of its start.
    pub created_at: i64,
    /// Unix ms of its end (its last change).
    pub ended_at: i64,
}

/// One page of found games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundPage {
    /// The games, newest first.
    pub games: Vec<FoundGame>,
    /// Whether a next page has games.
    pub next: bool,
}

const FOUND_COLUMNS: &str = "id, variant, white_kind, white_level, white_name, black_kind, \
     black_level, black_name, winner, reason, rated, speed, ply, created_at, updated_at";

/// A value bound to a `$n` of the query.
enum Bind {
    Text(String),
    Int(i64),
}

/// The query text and its values, built once per search.
struct Query {
    text: String,
    binds: Vec<Bind>,
}

impl Query {
    /// `$n` for `value`, bound in order.
    fn bind(&mut self, value: Bind) -> String {
        self.binds.push(value);
        format!("${}", self.binds.len())
    }
}

/// The filters both colours' branches share: game, rated, speed, dates.
fn common(f: &GameFilter, q: &mut Query) -> String {
    let mut out = String::new();
    if let Some(v) = f.variant {
        let p = q.bind(Bind::Text(v.as_str().into()));
        out.push_str(&format!(" AND variant = {p}"));
    }
    if let Some(r) = f.rated {
        let p = q.bind(Bind::Int(r.into()));
        out.push_str(&format!(" AND rated = {p}"));
    }
    match f.speed {
        Some(SpeedFilter::Unlimited) => out.push_str(" AND speed IS NULL"),
        Some(s) => {
            let p = q.bind(Bind::Text(s.as_str().into()));
            out.push_str(&format!(" AND speed = {p}"));
        }
        None => {}
    }
    if let Some(ms) = f.from_ms {
        let p = q.bind(Bind::Int(ms));
        out.push_str(&format!(" AND created_at >= {p}"));
    }
    if let Some(ms) = f.until_ms {
        let p = q.bind(Bind::Int(ms));
        out.push_str(&format!(" AND created_at < {p}"));
    }
    if let Some(c) = &f.after {
        // The `<=` keeps a range of the indexes' `created_at`; the `OR` breaks the tie by id.
        let at = q.bind(Bind::Int(c.created_at));
        let id = q.bind(Bind::Text(c.id.clone()));
        out.push_str(&format!(
            " AND created_at <= {at} AND (created_at < {at} OR id < {id})"
        ));
    }
    out
}

/// The result's condition when the searched player holds `side` (`None`: no player).
fn result_sql(result: Option<ResultFilter>, side: Option<Color>) -> &'static str {
    match (result, side) {
        (None, _) => "",
        (Some(ResultFilter::Draw), _) => " AND winner IS NULL",
        (Some(ResultFilter::White), _) => " AND winner = 'white'",
        (Some(ResultFilter::Black), _) => " AND winner = 'black'",
        (Some(ResultFilter::Win), Some(Color::White))
        | (Some(ResultFilter::Loss), Some(Color::Black)) => " AND winner = 'white'",
        (Some(ResultFilter::Win), Some(Color::Black))
        | (Some(ResultFilter::Loss), Some(Color::White)) => " AND winner = 'black'",
        (Some(ResultFilter::Win | ResultFilter::Loss), None) => " AND 1 = 0",
    }
}

/// The search's SQL for `filter`, `limit` rows from `offset`.
fn build(filter: &GameFilter, offset: i64, limit: i64) -> Query {
    let mut q = Query {
        text: String::new(),
        binds: Vec::new(),
    };
    const ORDER: &str = " ORDER BY created_at DESC, id DESC";
    match &filter.player {
        Some(player) => {
            let me = q.bind(Bind::Text(player.as_str().into()));
            let them = filter
                .opponent
                .as_ref()
                .map(|o| q.bind(Bind::Text(o.as_str().into())));
            let shared = common(filter, &mut q);
            let branch = |side: Color| {
                let (mine, theirs) = match side {
                    Color::White => ("white_token", "black_token"),
                    Color::Black => ("black_token", "white_token"),
                };
                // A game on one screen (both seats the player's) is no one's game here.
                let other = match &them {
                    Some(t) => format!("{theirs} = {t}"),
                    None => format!("COALESCE({theirs}, '') <> {me}"),
                };
                format!(
                    "SELECT {FOUND_COLUMNS} FROM games WHERE status = 'finished' AND \
                     {mine} = {me} AND {other}{shared}{}",
                    result_sql(filter.result, Some(side))
                )
            };
            q.text = format!(
                "{} UNION ALL {}{ORDER}",
                branch(Color::White),
                branch(Color::Black)
            );
        }
        None => {
            let shared = common(filter, &mut q);
            q.text = format!(
                "SELECT {FOUND_COLUMNS} FROM games WHERE status = 'finished' AND \
                 (white_name IS NOT NULL OR black_name IS NOT NULL){shared}{}{ORDER}",
                result_sql(filter.result, None)
            );
        }
    }
    let l = q.bind(Bind::Int(limit));
    let o = q.bind(Bind::Int(offset));
    q.text.push_str(&format!(" LIMIT {l} OFFSET {o}"));
    q
}

fn seat(row: &AnyRow, side: &str) -> Result<FoundSeat, sqlx::Error> {
    let level: Option<i64> = row.try_get(format!("{side}_level").as_str())?;
    Ok(FoundSeat {
        kind: parse_column(row, &format!("{side}_kind"), SeatKind::parse)?,
        name: row.try_get(format!("{side}_name").as_str())?,
        level: level.and_then(Level::new),
    })
}

fn found(row: &AnyRow) -> Result<FoundGame, sqlx::Error> {
    let rated: i64 = row.try_get("rated")?;
    Ok(FoundGame {
        id: row.try_get("id")?,
        variant: parse_column(row, "variant", GameKind::parse)?,
        white: seat(row, "white")?,
        black: seat(row, "black")?,
        winner: parse_optional(row, "winner", Color::parse)?,
        reason: parse_optional(row, "reason", EndReason::parse)?,
        rated: rated != 0,
        speed: parse_optional(row, "speed", SpeedFilter::parse)?.unwrap_or(SpeedFilter::Unlimited),
        plies: row.try_get("ply")?,
        created_at: row.try_get("created_at")?,
        ended_at: row.try_get("updated_at")?,
    })
}

impl Store {
    /// The finished games matching `filter`, newest first: `per_page` of them from the
    /// `offset`-th, and whether more follow (one row more is read to know).
    pub async fn search_games(
        &self,
        filter: &GameFilter,
        offset: i64,
        per_page: i64,
    ) -> Result<FoundPage, StoreError> {
        let query = build(filter, offset, per_page + 1);
        self.run(|mut conn| {
            let query = &query;
            Box::pin(async move {
                let result = async {
                    let mut sql = sqlx::query(&query.text);
                    for b in &query.binds {
                        sql = match b {
                            Bind::Text(t) => sql.bind(t.as_str()),
                            Bind::Int(i) => sql.bind(*i),
                        };
                    }
                    let rows = sql.fetch_all(conn.raw()).await?;
                    let mut games = rows.iter().map(found).collect::<Result<Vec<_>, _>>()?;
                    let next = games.len() as i64 > per_page;
                    games.truncate(per_page.max(0) as usize);
                    Ok(FoundPage { games, next })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// SQLite's `EXPLAIN QUERY PLAN` of [`Store::search_games`]'s query, one line per step
    /// (what docs/performance.md shows and a test checks for the indexes); empty on
    /// PostgreSQL, whose plans read differently.
    pub async fn explain_game_search(
        &self,
        filter: &GameFilter,
        offset: i64,
        per_page: i64,
    ) -> Result<Vec<String>, StoreError> {
        if !self.is_sqlite() {
            return Ok(Vec::new());
        }
        let query = build(filter, offset, per_page + 1);
        self.run(|mut conn| {
            let query = &query;
            Box::pin(async move {
                let result = async {
                    // EXPLAIN opens no read transaction, so it plans with the schema this
                    // connection last read: one opened before migration 30 would not know the
                    // search indexes (a real query notices the change and prepares again).
                    // A read of the schema first brings it up to date.
                    sqlx::query("SELECT count(*) FROM sqlite_master")
                        .fetch_one(conn.raw())
                        .await?;
                    let text = format!("EXPLAIN QUERY PLAN {}", query.text);
                    let mut sql = sqlx::query(&text);
                    for b in &query.binds {
                        sql = match b {
                            Bind::Text(t) => sql.bind(t.as_str()),
                            Bind::Int(i) => sql.bind(*i),
                        };
                    }
                    let rows = sql.fetch_all(conn.raw()).await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get::<String, _>("detail"))
                        .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

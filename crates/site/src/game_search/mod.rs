//! Game search (issue 41): `GET /api/games/search` finds finished games of accounts by
//! player, opponent, game, result, rated or not, speed and date range, a page at a time
//! (docs/api.md, "Game search"). The query is checked once ([`request`]); the store walks its
//! indexes (`site_store::game_search`, docs/performance.md).

pub mod request;

use game::{Color, EndReason};
use serde::Serialize;

use site_model::error::{ErrorCode, SiteError};
use site_model::search::{SearchCursor, SpeedFilter};
use site_model::state::{GameKind, SeatKind};
use site_store::{FoundGame, FoundSeat, GameFilter, Store};

pub use request::{SearchInput, SearchParams};

/// Games per page.
pub const PER_PAGE: i64 = 30;

/// One seat of a found game: `{"kind", "username"?, "level"?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatLine {
    /// `human` or `engine`.
    pub kind: SeatKind,
    /// The account's name (an anonymous player has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// An engine's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<i64>,
}

/// One found game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameLine {
    /// The game's id (its page is `/game/{id}`).
    pub id: String,
    /// `antarctos` or `iceage`.
    pub variant: GameKind,
    /// White.
    pub white: SeatLine,
    /// Black.
    pub black: SeatLine,
    /// `white`, `black`, or `null` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub reason: Option<EndReason>,
    /// Played rated.
    pub rated: bool,
    /// `realtime`, `correspondence` or `unlimited`.
    pub speed: SpeedFilter,
    /// Plies played.
    pub plies: i64,
    /// Unix ms of the start.
    pub created_at: i64,
    /// Unix ms of the end.
    pub ended_at: i64,
}

/// `GET /api/games/search`'s answer: `{"page", "per_page", "next", "cursor", "games":
/// [GameLine]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchView {
    /// The page (from 1).
    pub page: i64,
    /// Games per page.
    pub per_page: i64,
    /// Whether page `page + 1` has games.
    pub next: bool,
    /// With `next`: the `after` of the next page, `<created_at>.<id>` of this page's last game
    /// (a walk by cursor sees no game twice while games finish); `null` without a next page.
    pub cursor: Option<String>,
    /// The games, newest first.
    pub games: Vec<GameLine>,
}

fn seat_line(s: FoundSeat) -> SeatLine {
    SeatLine {
        kind: s.kind,
        username: s.name,
        level: s.level.map(i64::from),
    }
}

fn line(g: FoundGame) -> GameLine {
    GameLine {
        id: g.id,
        variant: g.variant,
        white: seat_line(g.white),
        black: seat_line(g.black),
        winner: g.winner,
        reason: g.reason,
        rated: g.rated,
        speed: g.speed,
        plies: g.plies,
        created_at: g.created_at,
        ended_at: g.ended_at,
    }
}

/// The game search service.
#[derive(Clone)]
pub struct GameSearch {
    store: Store,
}

impl GameSearch {
    /// The service over `store`.
    pub fn new(store: Store) -> GameSearch {
        GameSearch { store }
    }

    /// One page of games matching `input`. 404 naming the field when `player` or `opponent`
    /// names no account; 503 on a storage outage.
    pub async fn search(&self, input: SearchInput) -> Result<SearchView, SiteError> {
        let mut filter = GameFilter {
            variant: input.variant,
            result: input.result,
            rated: input.rated,
            speed: input.speed,
            from_ms: input.from_ms,
            until_ms: input.until_ms,
            after: input.after.clone(),
            ..GameFilter::default()
        };
        let empty = SearchView {
            page: input.page,
            per_page: PER_PAGE,
            next: false,
            cursor: None,
            games: Vec::new(),
        };
        for (label, name, slot) in [
            ("player", &input.player, &mut filter.player),
            ("opponent", &input.opponent, &mut filter.opponent),
        ] {
            let Some(name) = name else { continue };
            let account = self.store.profile_account(name).await?.ok_or_else(|| {
                SiteError::new(
                    ErrorCode::NotFound,
                    format!("{label}: no account named '{}'", game::excerpt(name)),
                )
            })?;
            // An account that never sat at a board has no seat hash, and no games.
            let Some(hash) = account.player_hash else {
                return Ok(empty);
            };
            *slot = Some(hash);
        }
        let page = self
            .store
            .search_games(&filter, (input.page - 1) * PER_PAGE, PER_PAGE)
            .await?;
        let cursor = page.games.last().filter(|_| page.next).map(|g| {
            SearchCursor {
                created_at: g.created_at,
                id: g.id.clone(),
            }
            .to_string()
        });
        Ok(SearchView {
            next: page.next,
            cursor,
            games: page.games.into_iter().map(line).collect(),
            ..empty
        })
    }
}

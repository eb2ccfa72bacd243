//! The tournaments' JSON views (docs/api.md, "Tournaments").

use std::collections::HashMap;

use serde::Serialize;

use site_model::clock::TimeControl;
use site_model::state::GameKind;
use site_model::tournament::{Conditions, PairingResult, TournamentKind, TournamentStatus};
use site_store::{EntryRow, PairingRow, TournamentRow};

use super::standings::{StandingView, standings};

/// One pairing (`pairings` of `GET /api/tournaments/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairingView {
    /// The round (an arena's wave), 1-based.
    pub round: i64,
    /// The board in its round.
    pub board: i64,
    /// White's name (a bye's player).
    pub white: String,
    /// Black's name; `null` for a bye.
    pub black: Option<String>,
    /// The game's id; `null` for a bye or a forfeit without a game.
    pub game: Option<String>,
    /// `white`, `black`, `draw`, `white_forfeit`, `black_forfeit`, `double_forfeit`, `bye`;
    /// `null` while the game goes on.
    pub result: Option<PairingResult>,
    /// Unix ms of the result (`null` while the game goes on): an arena game that ended after
    /// the arena's `ends_at` counts for nobody.
    pub ended_at: Option<i64>,
    /// Berserk sides (arena).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub berserk_white: bool,
    /// Berserk sides (arena).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub berserk_black: bool,
}

/// What the asking account is in the event (`me`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MeView {
    /// Entered and not withdrawn.
    pub joined: bool,
    /// Withdrew.
    pub withdrawn: bool,
    /// A paused arena player.
    pub paused: bool,
    /// The account's game in progress in this event while it runs: "your game is ready".
    pub game: Option<String>,
    /// The account created the event (it may start it early).
    pub creator: bool,
}

/// `GET /api/tournaments/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// `arena`, `swiss`, `round_robin`.
    pub kind: TournamentKind,
    /// `created`, `started`, `finished`, `canceled`.
    pub status: TournamentStatus,
    /// Its name.
    pub name: String,
    /// The game.
    pub variant: GameKind,
    /// The games' control.
    pub time_control: TimeControl,
    /// Rated games.
    pub rated: bool,
    /// Unix ms of the (planned) start.
    pub starts_at: i64,
    /// Unix ms of the real start.
    pub started_at: Option<i64>,
    /// Unix ms of an arena's end.
    pub ends_at: Option<i64>,
    /// Unix ms of the end.
    pub finished_at: Option<i64>,
    /// An arena's minutes.
    pub minutes: Option<i64>,
    /// Rounds (Swiss; a round robin's once started).
    pub rounds: Option<i64>,
    /// The last round paired (an arena's wave count).
    pub round: i64,
    /// A double round robin.
    pub double: bool,
    /// Minimum players.
    pub min_players: i64,
    /// Maximum players.
    pub max_players: i64,
    /// Entry conditions.
    pub conditions: Conditions,
    /// Players entered and not withdrawn.
    pub players: usize,
    /// A scheduled event (made by the site).
    pub scheduled: bool,
    /// Changes so far: a stream sends the view again when it moves.
    pub version: i64,
    /// The standings.
    pub standings: Vec<StandingView>,
    /// Every pairing, by round and board.
    pub pairings: Vec<PairingView>,
    /// A finished event's first three names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub podium: Option<Vec<String>>,
    /// The asking account's place in it (`null` when anonymous).
    pub me: Option<MeView>,
}

/// One line of `GET /api/tournaments`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TournamentSummary {
    /// Its id.
    pub id: String,
    /// The kind.
    pub kind: TournamentKind,
    /// The status.
    pub status: TournamentStatus,
    /// Its name.
    pub name: String,
    /// The game.
    pub variant: GameKind,
    /// The control.
    pub time_control: TimeControl,
    /// Rated.
    pub rated: bool,
    /// Unix ms of the (planned) start.
    pub starts_at: i64,
    /// Unix ms of an arena's end.
    pub ends_at: Option<i64>,
    /// An arena's minutes.
    pub minutes: Option<i64>,
    /// Rounds.
    pub rounds: Option<i64>,
    /// A scheduled event.
    pub scheduled: bool,
    /// Players entered and not withdrawn (in the lists; absent in a profile's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<i64>,
    /// A finished event's winners (first place; several when tied on every tie-break).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub winners: Vec<String>,
}

impl TournamentSummary {
    /// The summary of `t`.
    pub fn of(t: &TournamentRow) -> TournamentSummary {
        TournamentSummary {
            id: t.id.clone(),
            kind: t.kind,
            status: t.status,
            name: t.name.clone(),
            variant: t.variant,
            time_control: t.control,
            rated: t.rated,
            starts_at: t.starts_at,
            ends_at: t.ends_at,
            minutes: t.minutes,
            rounds: t.rounds,
            scheduled: t.schedule_key.is_some(),
            players: None,
            winners: t.winners.clone(),
        }
    }
}

/// One event of a player's profile (`GET /api/players/{username}/tournaments`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerTournament {
    /// The event.
    #[serde(flatten)]
    pub tournament: TournamentSummary,
    /// The player's place once it is finished.
    pub place: Option<u32>,
}

/// The view of `t` for nobody in particular (`me` is `None`; [`TournamentView::for_account`]
/// fills it).
pub fn build(t: &TournamentRow, entries: &[EntryRow], pairings: &[PairingRow]) -> TournamentView {
    let names: HashMap<&str, &str> = entries
        .iter()
        .map(|e| (e.account_id.as_str(), e.username.as_str()))
        .collect();
    let name = |id: &str| {
        names
            .get(id)
            .map_or_else(|| id.to_string(), |n| n.to_string())
    };
    let standings = standings(t, entries, pairings);
    let podium = (t.status == TournamentStatus::Finished).then(|| {
        standings
            .iter()
            .take(3)
            .map(|s| s.username.clone())
            .collect()
    });
    TournamentView {
        id: t.id.clone(),
        kind: t.kind,
        status: t.status,
        name: t.name.clone(),
        variant: t.variant,
        time_control: t.control,
        rated: t.rated,
        starts_at: t.starts_at,
        started_at: t.started_at,
        ends_at: t.ends_at,
        finished_at: t.finished_at,
        minutes: t.minutes,
        rounds: t.rounds,
        round: t.round,
        double: t.double,
        min_players: t.min_players,
        max_players: t.max_players,
        conditions: t.conditions,
        players: entries.iter().filter(|e| e.withdrawn_at.is_none()).count(),
        scheduled: t.schedule_key.is_some(),
        version: t.version,
        standings,
        pairings: pairings
            .iter()
            .map(|p| PairingView {
                round: p.round,
                board: p.board,
                white: name(&p.white),
                black: p.black.as_deref().map(name),
                game: p.game_id.clone(),
                result: p.result,
                ended_at: p.ended_at,
                berserk_white: p.berserk_white,
                berserk_black: p.berserk_black,
            })
            .collect(),
        podium,
        me: None,
    }
}

/// What `account` is in event `t`.
pub fn me(
    t: &TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
    account: &str,
) -> MeView {
    let entry = entries.iter().find(|e| e.account_id == account);
    MeView {
        joined: entry.is_some_and(|e| e.withdrawn_at.is_none()),
        withdrawn: entry.is_some_and(|e| e.withdrawn_at.is_some()),
        paused: entry.is_some_and(|e| e.paused),
        // Only while the event runs: a game still going on after an arena's end counts for
        // nobody, and is no "game ready" call.
        game: pairings
            .iter()
            .filter(|_| t.status == TournamentStatus::Started)
            .filter(|p| p.result.is_none() && p.game_id.is_some())
            .filter(|p| p.white == account || p.black.as_deref() == Some(account))
            .min_by_key(|p| (p.round, p.board))
            .and_then(|p| p.game_id.clone()),
        creator: t.created_by.as_deref() == Some(account),
    }
}

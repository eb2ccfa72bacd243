//! One game in memory, generic over [`game::Variant`]: the positions, the moves and the rules
//! that check them, behind the object-safe [`LiveGame`] so the site holds both games alike.
//! The server never takes a position from a client: every move is parsed and checked here,
//! against the positions replayed from the stored moves.

use engine::{EngineConfig, StopFlag};
use game::{Color, MoveTextFault, MoveTextKind, Outcome, Record, RecordResult, Variant};
use iceage::IceAge;
use serde::Serialize;

use crate::engine_memory;
use crate::view::{GameView, GoneView, LegalView, MoveView, ResultView, SeatView};
use game::result_words;
use site_model::error::{ErrorCode, MoveFault, ReasonView, SiteError};
use site_model::json_list::{GrowingList, JsonList};
use site_model::state::{GameKind, GameStatus, SeatKind};
use site_model::time::WallTime;
use site_store::{GameRow, MoveRow, now_ms};

mod variant;
pub use variant::{MoveFacts, SiteVariant};

/// Longest move text accepted (bytes).
pub const MAX_MOVE_TEXT: usize = 128;
/// Longest position text accepted (bytes).
pub const MAX_FEN_TEXT: usize = 256;

/// A checked move, not yet stored: [`LiveGame::commit_move`] applies it once the store has it.
pub struct PreparedMove {
    /// The row to store.
    pub row: MoveRow,
    /// The side that moved.
    pub mover: Color,
    /// The side to move after it.
    pub turn: Color,
    /// The rules' outcome after it, if the game is over.
    pub outcome: Option<Outcome>,
    /// The network lag its client claimed, ms (real-time clocks forgive it within the
    /// player's quota: `site_model::clock::lag`); `None`: none claimed.
    pub lag_ms: Option<i64>,
    facts: MoveFacts,
    ply: PreparedPly,
}

/// The move of a [`PreparedMove`] and the position after it, of either game.
pub enum PreparedPly {
    /// An Antarctos move and position.
    Antarctos(Box<(antarctos::Move, antarctos::Position)>),
    /// An Ice Age Chess move and position.
    IceAge(Box<(iceage::Move, iceage::Position)>),
}

/// An engine search of one position, run by the engine queue with its stop flag: the move id
/// found, `None` when the game is over.
pub type EngineJob = Box<dyn FnOnce(StopFlag) -> Option<String> + Send>;

/// A game in memory, whatever the variant.
pub trait LiveGame: Send + Sync {
    /// The stored state.
    fn row(&self) -> &GameRow;
    /// Replaces the stored state (after the store accepted it).
    fn set_row(&mut self, row: GameRow);
    /// The game as a watcher sees it (`you` and `invite_url` unset).
    fn view(&self) -> GameView;
    /// Parses `text` against the current position and checks it is legal.
    fn prepare_move(&self, text: &str) -> Result<PreparedMove, SiteError>;
    /// Whether `text` (in any accepted form) is the last move played, read in the position it
    /// was played from: a client's retry of a stored move (docs/api.md, moves).
    fn is_last_move(&self, text: &str) -> bool;
    /// Reads `texts` as moves played one after another from the current position: each one's
    /// `(id, text)` as stored. 400 or 422 naming the first bad one, counted from 1 (`move 3 of
    /// the line: ...`), or one after the game would be over.
    fn read_line(&self, texts: &[String]) -> Result<Vec<(String, String)>, SiteError>;
    /// The id of the last move played, if any.
    fn last_move_id(&self) -> Option<String>;
    /// Applies a move prepared on this very position, with the row as stored after it.
    fn commit_move(&mut self, prepared: PreparedMove, row: GameRow);
    /// Forgets the moves after ply `to_ply`, with the row as stored after the takeback.
    fn take_back(&mut self, to_ply: i64, row: GameRow);
    /// Called on a game just read again from the store with the copy it replaces: when its
    /// moves begin with all of `old`'s, they keep `old`'s history, so that the sockets that
    /// hold `old`'s moves are sent only the new ones (`JsonList::history`).
    fn continue_history(&mut self, old: &dyn LiveGame);
    /// The moves as the views share them.
    fn move_list(&self) -> JsonList<MoveView>;
    /// A search of the current position for an engine, controlled through the given stop
    /// flag (the engine queue's): returns the move id.
    fn engine_job(&self, config: EngineConfig) -> EngineJob;
    /// The PDN/PGN record.
    fn record(&self) -> String;
    /// The move ids played so far, in order: two equal lines mean the same position reached
    /// the same way (an engine's search of one is valid for the other).
    fn line(&self) -> Vec<String>;
}

struct Game<V: SiteVariant> {
    row: GameRow,
    positions: Vec<V::Position>,
    moves: Vec<V::Move>,
    /// Shared with the views handed out, each move serialised once (`json_list`).
    views: GrowingList<MoveView>,
    legal: JsonList<LegalView>,
    /// What the clock's view reads.
    time: WallTime,
}

/// Square index 0..64 (a1 = 0) to its name.
pub fn square_name(sq: u8) -> String {
    square_str(sq).to_string()
}

/// The 64 squares' names, a1 = 0 to h8 = 63.
const SQUARE_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// [`square_name`] without an allocation; `??` off the board.
pub fn square_str(sq: u8) -> &'static str {
    SQUARE_NAMES.get(usize::from(sq)).copied().unwrap_or("??")
}

fn path_of<V: Variant>(mv: &V::Move) -> Vec<String> {
    V::move_path(mv).into_iter().map(square_name).collect()
}

/// A [`LegalView`] as written: the same JSON, the squares' names borrowed.
#[derive(Serialize)]
struct LegalJson {
    id: String,
    text: String,
    path: Vec<&'static str>,
}

/// A rules error on move text as `ambiguous_move` (several moves match, A17 / C13) or
/// `illegal_move` (anything else), by the error's kind, with its message naming the text and
/// the fault as data ([`MoveFault`]) for pages in other languages. Shared by the moves route
/// and the upload's replay (`upload`), so that every `illegal_move` carries its `move`.
pub(crate) fn move_error(
    text: &str,
    kind: MoveTextKind,
    candidates: &[String],
    reason: Option<&game::MoveHint>,
    message: String,
) -> SiteError {
    let (code, kind_name) = match kind {
        MoveTextKind::Ambiguous => (ErrorCode::AmbiguousMove, "ambiguous"),
        MoveTextKind::Unreadable => (ErrorCode::IllegalMove, "unreadable"),
        MoveTextKind::NoMatch => (ErrorCode::IllegalMove, "no_match"),
    };
    // The rules crates quote a long text as its excerpt.
    let message = if message.contains(text) || message.contains(&game::excerpt(text)) {
        message
    } else {
        format!("'{}': {message}", game::excerpt(text))
    };
    let mut error = SiteError::new(code, message);
    error.move_fault = Some(Box::new(MoveFault {
        text: text.to_string(),
        kind: kind_name,
        candidates: candidates.to_vec(),
        reason: reason.map(|r| ReasonView {
            code: r.code,
            squares: r.squares.clone(),
        }),
    }));
    error
}

/// The move `mv` of `pos`, stored as `row`, as the API shows it.
fn move_view<V: SiteVariant>(
    pos: &V::Position,
    mv: &V::Move,
    row: MoveRow,
    facts: MoveFacts,
) -> MoveView {
    MoveView {
        ply: row.ply,
        number: V::fullmove_number(pos),
        color: V::side_to_move(pos),
        text: row.move_text,
        id: row.move_id,
        path: path_of::<V>(mv),
        fen: row.fen,
        event: row.event,
        captured: facts.captured,
        melted: facts.melted,
        ice_age: facts.ice_age,
    }
}

impl<V: SiteVariant> Game<V> {
    fn load(row: GameRow, stored: &[MoveRow], time: WallTime) -> Result<Self, String> {
        let start = V::parse_position(&row.start_fen)
            .map_err(|e| format!("game {}: stored start position: {e}", row.id))?;
        let mut game = Game::<V> {
            row,
            positions: vec![start],
            moves: Vec::new(),
            views: GrowingList::new(),
            legal: JsonList::default(),
            time,
        };
        for m in stored {
            let pos = game.current().clone();
            let mv = V::parse_move(&pos, &m.move_id)
                .map_err(|e| format!("game {} ply {}: stored move: {e}", game.row.id, m.ply))?;
            let next = V::play(&pos, &mv)
                .map_err(|e| format!("game {} ply {}: stored move: {e}", game.row.id, m.ply))?;
            game.views
                .push(move_view::<V>(&pos, &mv, m.clone(), V::facts(&pos, &mv)));
            game.moves.push(mv);
            game.positions.push(next);
        }
        game.refresh_legal();
        Ok(game)
    }

    fn current(&self) -> &V::Position {
        // Never empty: the start position is pushed first.
        &self.positions[self.positions.len() - 1]
    }

    fn refresh_legal(&mut self) {
        let pos = self.current();
        // Written as JSON at once: the site only sends the legal moves (as text on every
        // state), so they are not kept as views too.
        let legal: Vec<LegalJson> = if self.row.status == GameStatus::Ongoing {
            let moves = V::legal_moves(pos);
            let texts = V::move_texts(pos, &moves);
            moves
                .iter()
                .zip(texts)
                .map(|(mv, text)| LegalJson {
                    id: V::move_id(pos, mv),
                    text,
                    path: V::move_path(mv).into_iter().map(square_str).collect(),
                })
                .collect()
        } else {
            // The engine seats' searchers kept over the game (level 8) are no longer needed.
            engine_memory::release(&self.row.id);
            Vec::new()
        };
        self.legal = JsonList::from_json(&legal);
    }
}

impl<V: SiteVariant> LiveGame for Game<V> {
    fn row(&self) -> &GameRow {
        &self.row
    }

    fn set_row(&mut self, row: GameRow) {
        let status_changed = row.status != self.row.status;
        self.row = row;
        if status_changed {
            self.refresh_legal();
        }
    }

    fn view(&self) -> GameView {
        let r = &self.row;
        let ongoing = r.status == GameStatus::Ongoing;
        GameView {
            id: r.id.clone(),
            variant: r.variant,
            title: V::TITLE.to_string(),
            you: None,
            white: SeatView::from(&r.white),
            black: SeatView::from(&r.black),
            status: r.status,
            fen: V::position_text(self.current()),
            start_fen: r.start_fen.clone(),
            turn: r.turn,
            ply: r.ply,
            moves: self.views.list(),
            legal: self.legal.clone(),
            draw_offer: r.draw_offer,
            result: result_view(r),
            invite_url: None,
            rematch_of: r.rematch_of.clone(),
            tournament: r.tournament.clone(),
            rematch: r.rematch.clone(),
            engine_thinking: r.engine_to_move().is_some(),
            version: r.version,
            actions: Vec::new(),
            takeback_offer: r.takeback_offer,
            rematch_offer: r.rematch_offer,
            notice: r.notice.filter(|n| n.version == r.version),
            capture_compulsory: ongoing && V::capture_compulsory(self.current()),
            ice_age_in: if ongoing {
                V::ice_age_in(self.current())
            } else {
                None
            },
            // Not while the game goes on: the engine would play for whoever asked.
            analysis_url: (!ongoing).then(|| format!("/analysis/game/{}", r.id)),
            clock: r.clock.map(|c| c.view(self.time.now_ms())),
            rated: r.rated,
            ratings: r.ratings.clone(),
            unrated: r.unrated,
            offline: r.upload_key.is_some(),
            gone: r.gone.filter(|_| ongoing).and_then(|g| {
                let expected = r.clock?.control().expected_s()?;
                Some(GoneView {
                    side: g.side,
                    since_ms: g.since_ms,
                    claim_at_ms: g.claim_at_ms(expected),
                })
            }),
        }
    }

    fn prepare_move(&self, text: &str) -> Result<PreparedMove, SiteError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SiteError::bad_request("the move text is empty"));
        }
        if text.len() > MAX_MOVE_TEXT {
            return Err(SiteError::new(
                ErrorCode::TooLarge,
                format!(
                    "move text of {} bytes (at most {MAX_MOVE_TEXT})",
                    text.len()
                ),
            ));
        }
        let pos = self.current();
        let mv = V::parse_move(pos, text)
            .map_err(|e| move_error(text, e.kind(), e.candidates(), e.hint(), e.to_string()))?;
        let next = V::play(pos, &mv)
            .map_err(|e| move_error(text, MoveTextKind::NoMatch, &[], None, e.to_string()))?;
        let row = MoveRow {
            ply: self.row.ply + 1,
            move_id: V::move_id(pos, &mv),
            move_text: V::move_text(pos, &mv),
            fen: V::position_text(&next),
            event: V::event(pos, &mv),
            created_at: now_ms(),
        };
        Ok(PreparedMove {
            row,
            mover: V::side_to_move(pos),
            turn: V::side_to_move(&next),
            outcome: V::outcome(&next),
            lag_ms: None,
            facts: V::facts(pos, &mv),
            ply: V::wrap_ply(mv, next),
        })
    }

    fn read_line(&self, texts: &[String]) -> Result<Vec<(String, String)>, SiteError> {
        let mut pos = self.current().clone();
        let mut line = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            let at = |mut e: SiteError| {
                // Counted from 1, as a player counts the moves of the line.
                e.message = format!("move {} of the line: {}", i + 1, e.message);
                e
            };
            let text = text.trim();
            if text.is_empty() || text.len() > MAX_MOVE_TEXT {
                return Err(at(SiteError::bad_request(format!(
                    "a move text is 1 to {MAX_MOVE_TEXT} bytes"
                ))));
            }
            if V::outcome(&pos).is_some() {
                return Err(at(SiteError::bad_request(
                    "the game is over before this move",
                )));
            }
            let mv = V::parse_move(&pos, text).map_err(|e| {
                at(move_error(
                    text,
                    e.kind(),
                    e.candidates(),
                    e.hint(),
                    e.to_string(),
                ))
            })?;
            let next = V::play(&pos, &mv).map_err(|e| {
                at(move_error(
                    text,
                    MoveTextKind::NoMatch,
                    &[],
                    None,
                    e.to_string(),
                ))
            })?;
            line.push((V::move_id(&pos, &mv), V::move_text(&pos, &mv)));
            pos = next;
        }
        Ok(line)
    }

    fn last_move_id(&self) -> Option<String> {
        self.views.items().last().map(|v| v.id.clone())
    }

    fn is_last_move(&self, text: &str) -> bool {
        let text = text.trim();
        let (Some(last), Some(before)) = (
            self.moves.last(),
            self.positions
                .len()
                .checked_sub(2)
                .map(|i| &self.positions[i]),
        ) else {
            return false;
        };
        text.len() <= MAX_MOVE_TEXT
            && V::parse_move(before, text)
                .is_ok_and(|mv| V::move_id(before, &mv) == V::move_id(before, last))
    }

    fn commit_move(&mut self, prepared: PreparedMove, row: GameRow) {
        let Some((mv, next)) = V::unwrap_ply(prepared.ply) else {
            // A move prepared by another variant's game: a programming error; keep the game.
            tracing::error!(game = %row.id, "prepared move of the wrong variant ignored");
            return;
        };
        let view = move_view::<V>(self.current(), &mv, prepared.row, prepared.facts);
        self.views.push(view);
        self.moves.push(mv);
        self.positions.push(next);
        self.row = row;
        self.refresh_legal();
    }

    fn take_back(&mut self, to_ply: i64, row: GameRow) {
        let keep = usize::try_from(to_ply).unwrap_or(0).min(self.moves.len());
        self.moves.truncate(keep);
        self.views.truncate(keep);
        self.positions.truncate(keep + 1);
        self.row = row;
        self.refresh_legal();
    }

    fn continue_history(&mut self, old: &dyn LiveGame) {
        self.views.continue_history(&old.move_list());
    }

    fn move_list(&self) -> JsonList<MoveView> {
        self.views.list()
    }

    fn engine_job(&self, mut config: EngineConfig) -> EngineJob {
        let pos = self.current().clone();
        let game = self.row.id.clone();
        Box::new(move |stop| {
            config.stop = Some(stop);
            engine_memory::choose::<V>(&game, &pos, &config).map(|mv| V::move_id(&pos, &mv))
        })
    }

    fn line(&self) -> Vec<String> {
        self.views.items().iter().map(|v| v.id.clone()).collect()
    }

    fn record(&self) -> String {
        let r = &self.row;
        let mut rec = Record::<V>::new(self.positions[0].clone());
        rec.set_tag("Event", format!("icebound game {}", r.id));
        rec.set_tag("Site", "icebound");
        rec.set_tag("Date", pgn_date(r.created_at));
        rec.set_tag("White", player_name(&r.white));
        rec.set_tag("Black", player_name(&r.black));
        rec.result = match (r.status, r.winner) {
            (GameStatus::Finished, Some(Color::White)) => RecordResult::WhiteWins,
            (GameStatus::Finished, Some(Color::Black)) => RecordResult::BlackWins,
            (GameStatus::Finished, None) => RecordResult::Draw,
            (GameStatus::Ongoing | GameStatus::Aborted, _) => RecordResult::Unknown,
        };
        rec.set_tag("Result", rec.result.as_str());
        // C14: [Termination] names the way it ended.
        if V::NAME == IceAge::NAME
            && let Some(reason) = r.reason
        {
            rec.set_tag("Termination", reason.as_str());
        }
        rec.moves = self.moves.clone();
        V::write_record(&rec)
    }
}

fn player_name(seat: &site_store::SeatRow) -> String {
    match (seat.kind, seat.level) {
        (SeatKind::Engine, Some(level)) => format!("icebound engine level {level}"),
        (SeatKind::Open, _) => "?".into(),
        // An account's seat is named by its account (a tournament's games download as
        // one file: the names say who played).
        _ => seat.name.clone().unwrap_or_else(|| "Human".into()),
    }
}

/// `YYYY.MM.DD` (PGN/PDN `[Date]`) of Unix milliseconds, in UTC.
pub fn pgn_date(ms: i64) -> String {
    // Days to civil date (Howard Hinnant's algorithm).
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The result of a finished game row.
pub fn result_view(r: &GameRow) -> Option<ResultView> {
    if r.status != GameStatus::Finished {
        return None;
    }
    let reason = r.reason?;
    Some(ResultView {
        result: r.result.unwrap_or(RecordResult::Unknown),
        winner: r.winner,
        reason,
        words: result_words(r.winner, reason),
    })
}

/// Rebuilds a stored game in memory, replaying its moves.
/// Its clock's view reads `time`.
pub fn load(row: GameRow, moves: &[MoveRow], time: WallTime) -> Result<Box<dyn LiveGame>, String> {
    games::with_game!(row.variant, G => Ok(Box::new(Game::<G>::load(row, moves, time)?)))
}

fn check_start<V: Variant>(fen: Option<&str>) -> Result<(String, Color), SiteError> {
    let pos = match fen {
        None => V::start_position(),
        Some(text) => {
            if text.len() > MAX_FEN_TEXT {
                return Err(SiteError::new(
                    ErrorCode::TooLarge,
                    format!("fen of {} bytes (at most {MAX_FEN_TEXT})", text.len()),
                ));
            }
            V::parse_position(text.trim()).map_err(|e| SiteError::bad_position(text, &e))?
        }
    };
    if let Some(outcome) = V::outcome(&pos) {
        return Err(SiteError::bad_request(format!(
            "the start position is already finished ({outcome})"
        )));
    }
    Ok((V::position_text(&pos), V::side_to_move(&pos)))
}

/// Validates a new game's start: the canonical position text and the side to move.
pub fn start_of(variant: GameKind, fen: Option<&str>) -> Result<(String, Color), SiteError> {
    games::with_game!(variant, G => check_start::<G>(fen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_from_a1() {
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(7), "h1");
        assert_eq!(square_name(63), "h8");
        assert_eq!(square_name(27), "d4");
    }

    #[test]
    fn dates_in_pgn_form() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_796_083_200_000), "2026.12.01");
    }
}

//! One position of either game and the engine's state for it ([`Session`]): the position,
//! the moves played, the board's view, the search and the engine as a player, the solver.

use std::time::Duration;

use antarctos::Antarctos;
use engine::search::StopFlag;
use engine::{EngineConfig, GamePlayer, Limits, Searcher};
use game::{Outcome, Variant};
use iceage::IceAge;
use serde::Serialize;

use crate::board::{self, BoardView};
use crate::search::{
    IterationInfo, SearchInfo, SearchParams, SolveInfo, check_search, fresh_searcher, run_search,
    solve_info,
};
use crate::{Game, MAX_SOLVE_PLIES, to_json};

/// A position of either game.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Current {
    Antarctos(<Antarctos as Variant>::Position),
    Iceage(<IceAge as Variant>::Position),
}

/// Runs a generic body with `V` the game of a [`Current`] and `$pos` its position.
macro_rules! with_game {
    ($current:expr, $v:ident, $pos:ident => $body:expr) => {
        match $current {
            Current::Antarctos($pos) => {
                type $v = Antarctos;
                $body
            }
            Current::Iceage($pos) => {
                type $v = IceAge;
                $body
            }
        }
    };
}

/// The position as the page shows it: [`Session::position`]'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionInfo {
    /// `antarctos` or `iceage`.
    pub variant: Game,
    /// The position in the game's text (Antarctos `W:W...:B...:I...`, Ice Age Chess FEN).
    pub fen: String,
    /// `white` or `black`.
    pub side_to_move: &'static str,
    /// The result when the game is over (`0-1 black wins (breakthrough)`), else `null`.
    pub outcome: Option<String>,
    /// Every legal move in canonical text, sorted; empty when the game is over.
    pub legal_moves: Vec<String>,
}

/// A searcher kept between searches ([`SearchParams::keep_table`]).
enum Kept {
    Antarctos(Searcher<Antarctos>, usize),
    Iceage(Searcher<IceAge>, usize),
}

/// The engine as a player of the game at one level ([`Session::choose_move`]).
enum Player {
    Antarctos(GamePlayer<Antarctos>),
    Iceage(GamePlayer<IceAge>),
}

/// One position of either game and the engine's state for it. Every method that can fail
/// returns a message for the user, never panics.
pub struct Session {
    current: Current,
    kept: Option<Kept>,
    player: Option<Player>,
}

impl Default for Session {
    /// The start position of Antarctos.
    fn default() -> Self {
        Session {
            current: Current::Antarctos(Antarctos::start_position()),
            kept: None,
            player: None,
        }
    }
}

impl Session {
    /// A session at the start position of Antarctos.
    pub fn new() -> Session {
        Session::default()
    }

    /// Sets the position: `fen` in the game's text, or empty for its start position.
    ///
    /// # Errors
    /// An unknown variant name, or the game's own message for text that is not a position
    /// (what and where). The previous position stays.
    pub fn set_position(&mut self, variant: &str, fen: &str) -> Result<PositionInfo, String> {
        let game = Game::parse(variant)?;
        let fen = fen.trim();
        if game != self.game() {
            self.player = None;
            self.kept = None;
        }
        self.current = match game {
            Game::Antarctos => Current::Antarctos(parse_position::<Antarctos>(fen)?),
            Game::Iceage => Current::Iceage(parse_position::<IceAge>(fen)?),
        };
        Ok(self.position())
    }

    /// The position, its side to move, outcome and legal moves.
    pub fn position(&self) -> PositionInfo {
        let game = self.game();
        with_game!(&self.current, V, pos => info::<V>(game, pos))
    }

    /// The position as the page's board shows it: every legal move with its squares and the
    /// position after it, the result, and the game's facts (the shape of the server's
    /// `POST /api/positions` answer).
    pub fn board_view(&self) -> BoardView {
        with_game!(&self.current, V, pos => board::board_view::<V>(pos))
    }

    /// The game of the position.
    pub fn game(&self) -> Game {
        match self.current {
            Current::Antarctos(_) => Game::Antarctos,
            Current::Iceage(_) => Game::Iceage,
        }
    }

    /// Every legal move in canonical text, sorted (what `icebound moves` prints).
    pub fn legal_moves(&self) -> Vec<String> {
        with_game!(&self.current, V, pos => game::sorted_move_texts::<V>(pos))
    }

    /// Plays `moves`, separated by spaces, from the position (any move text the game reads:
    /// `c7-b6`, `a7xc1`, `e4`, `e2e4`). All or nothing: on an error the position stays.
    ///
    /// # Errors
    /// `move <n> '<text>': <why>` for the first move that does not read as a legal move (the
    /// game's message lists the candidates or the legal moves), or that comes after the end of
    /// the game.
    pub fn play(&mut self, moves: &str) -> Result<PositionInfo, String> {
        let next = with_game!(&self.current, V, pos => {
            play_moves::<V>(pos, moves).map(V::wrap)
        })?;
        self.current = next;
        Ok(self.position())
    }

    /// Searches the position within `params` on one thread, calling `on_iteration` after
    /// each completed iteration (deepest last); when it returns `true` the search stops and
    /// returns its best so far. `stop` is asked every 1,024 nodes (see the module doc).
    ///
    /// # Errors
    /// A limit out of range (depth 1 to [`MAX_DEPTH`], nodes and time at least 1, hash 1 to
    /// [`MAX_HASH_MIB`]) or a table that cannot be allocated. A finished game is no error:
    /// the result has no best move.
    pub fn search(
        &mut self,
        params: &SearchParams,
        stop: &StopFlag,
        on_iteration: impl FnMut(&IterationInfo) -> bool,
    ) -> Result<SearchInfo, String> {
        let hash = check_search(params)?;
        let limits = Limits {
            depth: params.depth,
            nodes: params.nodes,
            movetime: params.movetime_ms.map(Duration::from_millis),
            stop: Some(stop.clone()),
        };
        let kept = if params.keep_table {
            self.kept.take()
        } else {
            self.kept = None;
            None
        };
        let (info, searcher) = match (&self.current, kept) {
            (Current::Antarctos(pos), kept) => {
                let searcher = match kept {
                    Some(Kept::Antarctos(s, h)) if h == hash => s,
                    _ => fresh_searcher::<Antarctos>(hash)?,
                };
                let (info, s) = run_search::<Antarctos>(searcher, pos, &limits, on_iteration);
                (info, Kept::Antarctos(s, hash))
            }
            (Current::Iceage(pos), kept) => {
                let searcher = match kept {
                    Some(Kept::Iceage(s, h)) if h == hash => s,
                    _ => fresh_searcher::<IceAge>(hash)?,
                };
                let (info, s) = run_search::<IceAge>(searcher, pos, &limits, on_iteration);
                (info, Kept::Iceage(s, hash))
            }
        };
        if params.keep_table {
            self.kept = Some(searcher);
        }
        Ok(info)
    }

    /// The engine's move at strength `level` (1-8, the site's levels: `engine::level`) in the
    /// position, as the site's computer opponent chooses it (`seed` varies the levels that
    /// randomise; level 8 keeps its table from one call to the next while the game stays the
    /// same, as the server's level 8 does over a game). `None` when the game is over. Level
    /// 8's budget may take seconds; `stop` ends it with the best move so far.
    ///
    /// # Errors
    /// A level outside 1 to 8.
    pub fn choose_move(
        &mut self,
        level: u32,
        seed: u64,
        stop: &StopFlag,
    ) -> Result<Option<String>, String> {
        let Some(level) =
            engine::level::Level::new(i64::from(level)).map(engine::level::Level::get)
        else {
            return Err(format!(
                "level must be {} to {}, not {level}",
                engine::level::MIN_LEVEL,
                engine::level::MAX_LEVEL
            ));
        };
        let mut config = EngineConfig::level(level);
        config.seed = seed;
        config.keep_table = level == engine::level::MAX_LEVEL;
        config.stop = Some(stop.clone());
        let player = self.player.take();
        let (mv, player) = match &self.current {
            Current::Antarctos(pos) => {
                let mut p = match player {
                    Some(Player::Antarctos(p)) => p,
                    _ => GamePlayer::default(),
                };
                let mv = p
                    .choose(pos, &config)
                    .map(|m| Antarctos::move_text(pos, &m));
                (mv, Player::Antarctos(p))
            }
            Current::Iceage(pos) => {
                let mut p = match player {
                    Some(Player::Iceage(p)) => p,
                    _ => GamePlayer::default(),
                };
                let mv = p.choose(pos, &config).map(|m| IceAge::move_text(pos, &m));
                (mv, Player::Iceage(p))
            }
        };
        self.player = Some(player);
        Ok(mv)
    }

    /// Proves a forced win or loss for the side to move within `max_plies` plies with the
    /// exact solver (`engine::solve`, 16 MiB of table, one thread), giving up after
    /// `movetime_ms` milliseconds if set, or when `stop` says so.
    ///
    /// # Errors
    /// `max_plies` not 1 to [`MAX_SOLVE_PLIES`], or a time of 0.
    pub fn solve(
        &self,
        max_plies: u32,
        movetime_ms: Option<u64>,
        stop: &StopFlag,
    ) -> Result<SolveInfo, String> {
        if !(1..=MAX_SOLVE_PLIES).contains(&max_plies) {
            return Err(format!(
                "max plies must be 1 to {MAX_SOLVE_PLIES}, not {max_plies}"
            ));
        }
        if movetime_ms == Some(0) {
            return Err("the time limit must be at least 1 millisecond".into());
        }
        let deadline =
            movetime_ms.map(|ms| engine::clock::Instant::now() + Duration::from_millis(ms));
        Ok(with_game!(&self.current, V, pos => {
            let solution = engine::solve::solve_stoppable::<V>(pos, max_plies, deadline, Some(stop.clone()));
            solve_info::<V>(pos, &solution)
        }))
    }
}

fn parse_position<V: Variant>(fen: &str) -> Result<V::Position, String> {
    if fen.is_empty() {
        Ok(V::start_position())
    } else {
        V::parse_position(fen).map_err(|e| position_error(&e))
    }
}

/// A refused position's error text: JSON `{"message": "...", "position": {"code", "args"}}`,
/// the rules crate's words and its fault as data (`game::PositionFault`, the server's
/// `error.position`), so a page words it in its own language as it does the server's.
fn position_error<E: std::fmt::Display + game::PositionFault>(e: &E) -> String {
    #[derive(Serialize)]
    struct Fault {
        code: &'static str,
        args: Vec<String>,
    }
    #[derive(Serialize)]
    struct Refused {
        message: String,
        position: Fault,
    }
    let hint = e.hint();
    to_json(&Refused {
        message: e.to_string(),
        position: Fault {
            code: hint.code,
            args: hint.args,
        },
    })
}

/// A game's position as a [`Current`].
trait Wrap: Variant {
    fn wrap(pos: Self::Position) -> Current;
}

impl Wrap for Antarctos {
    fn wrap(pos: Self::Position) -> Current {
        Current::Antarctos(pos)
    }
}

impl Wrap for IceAge {
    fn wrap(pos: Self::Position) -> Current {
        Current::Iceage(pos)
    }
}

fn info<V: Variant>(variant: Game, pos: &V::Position) -> PositionInfo {
    PositionInfo {
        variant,
        fen: V::position_text(pos),
        side_to_move: match V::side_to_move(pos) {
            game::Color::White => "white",
            game::Color::Black => "black",
        },
        outcome: V::outcome(pos).map(|o: Outcome| o.to_string()),
        legal_moves: game::sorted_move_texts::<V>(pos),
    }
}

fn play_moves<V: Variant>(start: &V::Position, moves: &str) -> Result<V::Position, String> {
    let mut pos = start.clone();
    for (i, text) in moves.split_whitespace().enumerate() {
        let n = i + 1;
        let shown = game::excerpt(text);
        if let Some(outcome) = V::outcome(&pos) {
            return Err(format!("move {n} '{shown}': the game is over ({outcome})"));
        }
        let mv = V::parse_move(&pos, text).map_err(|e| format!("move {n} '{shown}': {e}"))?;
        pos = V::play(&pos, &mv).map_err(|e| format!("move {n} '{shown}': {e}"))?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DEFAULT_HASH_MIB;

    fn session(variant: &str, fen: &str) -> Session {
        let mut s = Session::new();
        s.set_position(variant, fen).expect("a valid position");
        s
    }

    #[test]
    fn a_fresh_search_is_reproducible_and_a_kept_table_is_kept() {
        let mut s = session("iceage", "");
        let params = SearchParams {
            nodes: Some(20_000),
            ..SearchParams::default()
        };
        let stop = StopFlag::new();
        let a = s.search(&params, &stop, |_| false).expect("a search");
        let b = s.search(&params, &stop, |_| false).expect("a search");
        assert_eq!((&a.best, a.score, a.nodes), (&b.best, b.score, b.nodes));
        assert!(s.kept.is_none());
        let keep = SearchParams {
            keep_table: true,
            depth: Some(4),
            ..SearchParams::default()
        };
        s.search(&keep, &stop, |_| false).expect("a search");
        assert!(matches!(s.kept, Some(Kept::Iceage(_, DEFAULT_HASH_MIB))));
    }
}

//! The engine of both games for the browser: a WebAssembly module with plain `extern "C"`
//! exports (no wasm-bindgen), loaded by `web/wasm/icebound-engine.mjs`, built by
//! `scripts/build-wasm.sh`.
//!
//! This file is the host-independent part, compiled natively too: a [`Session`] holds one
//! position of either game and answers with JSON text (legal moves, moves played, a search
//! with an iteration callback, the exact solver). The exports and the host's imports are in
//! `wasm.rs`, compiled for `wasm32-unknown-unknown` only; its module doc gives the ABI.
//!
//! Stopping: the search and the solver ask a [`StopFlag`] at each check (every 1,024 nodes of
//! the search, every 4,096 of the solver). In the browser that flag polls the host's
//! `should_stop` import, which reads a stop cell the page shares with the Web Worker
//! (a `SharedArrayBuffer`), and the iteration callback may ask to stop too
//! ([`Session::search`]). docs/performance.md ("The engine in the browser") says how a page
//! without a shared buffer stops a search.
//!
//! Determinism: one thread, and a fresh transposition table per search unless
//! [`SearchParams::keep_table`]; a depth or node limit then gives the same nodes and the
//! same move as `icebound analyze --threads 1 --hash <the same size>`.

use std::time::Duration;

use antarctos::Antarctos;
use engine::score::ScoreText;
use engine::search::{MAX_PLY, StopFlag};
use engine::solve::{Proof, Solution};
use engine::tt::Table;
use engine::{EngineConfig, EngineVariant, GamePlayer, Iteration, Limits, SearchResult, Searcher};
use game::{Outcome, Variant};
use iceage::IceAge;
use serde::Serialize;

mod board;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod wasm;

pub use board::{BoardView, FrozenInfo, IceAgeInfo, NextMove, ResultInfo};

/// Transposition table size of a search when none is asked for, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// Largest transposition table a search may ask for, in MiB (a 32-bit module has 4 GiB).
pub const MAX_HASH_MIB: usize = 1024;
/// Deepest search iteration, in plies.
pub const MAX_DEPTH: u32 = MAX_PLY - 1;
/// Longest proof the solver looks for, in plies.
pub const MAX_SOLVE_PLIES: u32 = MAX_PLY - 2;

/// The games, by the names `--variant` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    /// Antarctos (icebound checkers), `antarctos`.
    Antarctos,
    /// Ice Age Chess, `iceage`.
    Iceage,
}

impl Game {
    /// The game named `name` (`antarctos` or `iceage`).
    ///
    /// # Errors
    /// A message naming both games for any other text.
    pub fn parse(name: &str) -> Result<Game, String> {
        match name.trim() {
            "antarctos" => Ok(Game::Antarctos),
            "iceage" => Ok(Game::Iceage),
            other => Err(format!(
                "unknown variant '{}': antarctos or iceage",
                game::excerpt(other)
            )),
        }
    }
}

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

/// Limits and settings of [`Session::search`]. At least one of depth, nodes and time should
/// be set; with none the search runs until stopped (or [`MAX_DEPTH`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchParams {
    /// Deepest iteration, 1 to [`MAX_DEPTH`] plies.
    pub depth: Option<u32>,
    /// Node budget, at least 1.
    pub nodes: Option<u64>,
    /// Time budget in milliseconds, at least 1 (the host's clock).
    pub movetime_ms: Option<u64>,
    /// Transposition table in MiB, 1 to [`MAX_HASH_MIB`]; `None` for [`DEFAULT_HASH_MIB`].
    pub hash_mib: Option<usize>,
    /// Keep the table (and history) of the previous search of the same game and size, as an
    /// analysis board does between positions; `false` gives the reproducible fresh search.
    pub keep_table: bool,
}

/// One completed iteration, as the iteration callback receives it (JSON fields as named
/// here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IterationInfo {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Score from the side to move: centi-units, or near ±1,000,000 for a proven result.
    pub score: i32,
    /// The score as the CLI prints it: `35`, `win 3` or `loss 4` (plies to the end).
    pub score_text: String,
    /// Nodes since the search started.
    pub nodes: u64,
    /// Milliseconds since the search started (the host's clock).
    pub time_ms: u64,
    /// Principal variation in canonical move texts, best move first.
    pub pv: Vec<String>,
}

/// The result of [`Session::search`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchInfo {
    /// The best move in canonical text; `null` only when the game is over.
    pub best: Option<String>,
    /// Its score, as in [`IterationInfo::score`].
    pub score: i32,
    /// As in [`IterationInfo::score_text`].
    pub score_text: String,
    /// Deepest completed iteration (0 when stopped during the first).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds the search took (the host's clock).
    pub time_ms: u64,
    /// Principal variation, best move first.
    pub pv: Vec<String>,
    /// True when the stop flag (the host or the callback) ended the search.
    pub stopped: bool,
}

/// The result of [`Session::solve`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SolveInfo {
    /// `win` or `loss` (for the side to move) or `unknown`.
    pub result: &'static str,
    /// Plies to the end of a win or loss; for `unknown`, the plies searched in full.
    pub plies: u32,
    /// The main line in canonical move texts (empty for `unknown`).
    pub line: Vec<String>,
    /// The line with move numbers, as `icebound solve` prints it
    /// (`win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#`).
    pub text: String,
    /// Positions visited.
    pub nodes: u64,
    /// True when the time limit or the stop flag ended the solver first.
    pub stopped: bool,
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
        level: u8,
        seed: u64,
        stop: &StopFlag,
    ) -> Result<Option<String>, String> {
        if !(engine::level::MIN_LEVEL..=engine::level::MAX_LEVEL).contains(&level) {
            return Err(format!(
                "level must be {} to {}, not {level}",
                engine::level::MIN_LEVEL,
                engine::level::MAX_LEVEL
            ));
        }
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

/// Checks the search parameters; returns the table size.
fn check_search(params: &SearchParams) -> Result<usize, String> {
    if let Some(depth) = params.depth
        && !(1..=MAX_DEPTH).contains(&depth)
    {
        return Err(format!("depth must be 1 to {MAX_DEPTH}, not {depth}"));
    }
    if params.nodes == Some(0) {
        return Err("the node limit must be at least 1".into());
    }
    if params.movetime_ms == Some(0) {
        return Err("the time limit must be at least 1 millisecond".into());
    }
    let hash = params.hash_mib.unwrap_or(DEFAULT_HASH_MIB);
    if !(1..=MAX_HASH_MIB).contains(&hash) {
        return Err(format!(
            "the table size must be 1 to {MAX_HASH_MIB} MiB, not {hash}"
        ));
    }
    Ok(hash)
}

fn fresh_searcher<V: EngineVariant>(hash_mib: usize) -> Result<Searcher<V>, String> {
    let table = Table::try_new(hash_mib)
        .map_err(|e| format!("cannot allocate a transposition table of {} MiB", e.mib))?;
    Ok(Searcher::with_table(std::sync::Arc::new(table), 1))
}

fn run_search<V: EngineVariant>(
    mut searcher: Searcher<V>,
    pos: &V::Position,
    limits: &Limits,
    mut on_iteration: impl FnMut(&IterationInfo) -> bool,
) -> (SearchInfo, Searcher<V>) {
    let stop = limits.stop.clone();
    let result: SearchResult<V> = searcher.search(pos, limits, |it: &Iteration<V>| {
        let info = IterationInfo {
            depth: it.depth,
            score: it.score,
            score_text: ScoreText(it.score).to_string(),
            nodes: it.nodes,
            time_ms: it.elapsed.as_millis() as u64,
            pv: game::line_move_texts::<V>(pos, &it.pv),
        };
        if on_iteration(&info)
            && let Some(stop) = &stop
        {
            stop.stop();
        }
    });
    let info = SearchInfo {
        best: result.best.as_ref().map(|m| V::move_text(pos, m)),
        score: result.score,
        score_text: ScoreText(result.score).to_string(),
        depth: result.depth,
        nodes: result.nodes,
        time_ms: result.elapsed.as_millis() as u64,
        pv: game::line_move_texts::<V>(pos, &result.pv),
        stopped: stop.as_ref().is_some_and(StopFlag::is_stopped),
    };
    (info, searcher)
}

fn solve_info<V: Variant>(pos: &V::Position, solution: &Solution<V>) -> SolveInfo {
    let (result, plies, line) = match &solution.proof {
        Proof::Win { plies, line } => ("win", *plies, game::line_move_texts::<V>(pos, line)),
        Proof::Loss { plies, line } => ("loss", *plies, game::line_move_texts::<V>(pos, line)),
        Proof::Unknown { max_plies } => ("unknown", *max_plies, Vec::new()),
    };
    SolveInfo {
        result,
        plies,
        line,
        text: engine::solve::proof_text::<V>(pos, &solution.proof),
        nodes: solution.nodes,
        stopped: solution.stopped,
    }
}

/// `value` as JSON text (the exports' answers).
pub fn to_json<T: Serialize>(value: &T) -> String {
    // Serialising these plain structs cannot fail (no maps with non-string keys, no I/O).
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE_1: &str = "B:Wa5,d2,d4:Ba7,c7";

    fn session(variant: &str, fen: &str) -> Session {
        let mut s = Session::new();
        s.set_position(variant, fen).expect("a valid position");
        s
    }

    #[test]
    fn position_moves_and_play_of_both_games() {
        let mut s = session("antarctos", EXAMPLE_1);
        let info = s.position();
        assert_eq!(info.variant, Game::Antarctos);
        assert_eq!(info.side_to_move, "black");
        assert_eq!(info.legal_moves, ["a7-b6", "c7-b6", "c7-d6"]);
        assert_eq!(s.legal_moves(), info.legal_moves);
        let end = s.play("c7-b6 a5xc7 a7xc1").expect("the seed's line");
        assert_eq!(end.fen, "W:Wc7:Bc1:Id2,d4");
        assert_eq!(
            end.outcome.as_deref(),
            Some("0-1 black wins (breakthrough)")
        );
        assert!(end.legal_moves.is_empty());

        let mut s = session("iceage", "");
        assert_eq!(s.game(), Game::Iceage);
        assert_eq!(s.legal_moves().len(), s.position().legal_moves.len());
        let after = s.play("hxg3").expect("a legal first move");
        assert_eq!(after.side_to_move, "black");
        assert_eq!(
            to_json(&after.variant),
            "\"iceage\"",
            "the JSON names the game as --variant does"
        );
    }

    #[test]
    fn bad_input_is_an_error_and_changes_nothing() {
        let mut s = session("antarctos", EXAMPLE_1);
        let before = s.position();
        for (variant, fen) in [("chess", ""), ("antarctos", "W:Wz9"), ("iceage", "8/8 w")] {
            let e = s.set_position(variant, fen).expect_err("refused");
            assert!(!e.is_empty());
        }
        // A refused position carries the rules' fault as data, as the server's error does.
        let e = s
            .set_position("iceage", "7k/8/8/8/8/8/8/K6P w - - 0 1")
            .expect_err("a pawn on h1");
        let v: serde_json::Value = serde_json::from_str(&e).expect("JSON");
        assert_eq!(v["position"]["code"], "pawn_on_back_rank", "{e}");
        assert_eq!(v["position"]["args"][0], "h1", "{e}");
        assert!(
            v["message"].as_str().is_some_and(|m| m.contains("h1")),
            "{e}"
        );
        let e = s
            .play("c7-b6 c7-d6")
            .expect_err("the second move is not legal");
        assert!(e.starts_with("move 2 'c7-d6'"), "{e}");
        let e = s
            .play("c7-b6 a5xc7 a7xc1 c1-d2")
            .expect_err("after the end");
        assert!(e.contains("the game is over"), "{e}");
        assert_eq!(s.position(), before, "all or nothing");

        let stop = StopFlag::new();
        for params in [
            SearchParams {
                depth: Some(0),
                ..SearchParams::default()
            },
            SearchParams {
                depth: Some(MAX_DEPTH + 1),
                ..SearchParams::default()
            },
            SearchParams {
                nodes: Some(0),
                ..SearchParams::default()
            },
            SearchParams {
                movetime_ms: Some(0),
                ..SearchParams::default()
            },
            SearchParams {
                hash_mib: Some(MAX_HASH_MIB + 1),
                ..SearchParams::default()
            },
        ] {
            assert!(s.search(&params, &stop, |_| false).is_err(), "{params:?}");
        }
        assert!(s.solve(0, None, &stop).is_err());
        assert!(s.solve(MAX_SOLVE_PLIES + 1, None, &stop).is_err());
        assert!(s.solve(5, Some(0), &stop).is_err());
    }

    #[test]
    fn search_reports_iterations_and_stops_when_the_callback_asks() {
        let mut s = session("antarctos", EXAMPLE_1);
        let mut depths = Vec::new();
        let params = SearchParams {
            depth: Some(6),
            ..SearchParams::default()
        };
        let r = s
            .search(&params, &StopFlag::new(), |it| {
                depths.push(it.depth);
                false
            })
            .expect("a search");
        assert_eq!(r.best.as_deref(), Some("c7-b6"));
        assert_eq!(r.score_text, "win 3");
        assert_eq!(r.pv, ["c7-b6", "a5xc7", "a7xc5xe3xc1"]);
        assert_eq!(depths.last(), Some(&r.depth));
        assert!(!r.stopped);

        let mut s = session("iceage", "");
        let params = SearchParams {
            depth: Some(40),
            ..SearchParams::default()
        };
        let r = s
            .search(&params, &StopFlag::new(), |it| it.depth >= 2)
            .expect("a search");
        assert!(r.stopped);
        assert!((2..=3).contains(&r.depth), "{r:?}");
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

    #[test]
    fn choose_move_plays_every_level_and_refuses_others() {
        let stop = StopFlag::new();
        let mut s = session("antarctos", EXAMPLE_1);
        assert_eq!(
            s.choose_move(8, 1, &stop).expect("a level").as_deref(),
            Some("c7-b6")
        );
        let mut s = session("iceage", "");
        for level in 1..=3 {
            let mv = s
                .choose_move(level, 7, &stop)
                .expect("a level")
                .expect("a move");
            assert!(s.legal_moves().contains(&mv), "{mv}");
        }
        assert!(s.choose_move(0, 1, &stop).is_err());
        assert!(s.choose_move(9, 1, &stop).is_err());
        let mut over = session("antarctos", "W:Wc7:Bc1:Id2,d4");
        assert_eq!(over.choose_move(1, 1, &stop), Ok(None));
    }

    #[test]
    fn solve_proves_example_1_and_reports_unknown_beyond_its_reach() {
        let s = session("antarctos", EXAMPLE_1);
        let p = s.solve(20, None, &StopFlag::new()).expect("a proof");
        assert_eq!(p.result, "win");
        assert_eq!(p.plies, 3);
        assert_eq!(p.line, ["c7-b6", "a5xc7", "a7xc5xe3xc1"]);
        assert_eq!(p.text, "win in 3 plies: 1... c7-b6 2. a5xc7 a7xc5xe3xc1#");

        let s = session("antarctos", "");
        let p = s.solve(4, None, &StopFlag::new()).expect("an answer");
        assert_eq!((p.result, p.plies, p.stopped), ("unknown", 4, false));
        assert!(p.line.is_empty());
    }
}

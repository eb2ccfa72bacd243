//! One lab game: a seeded random opening, then two engine settings move in turn until the
//! rules end the game or a ply cap does; the game comes back as a tagged record.

use game::{Record, RecordResult, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::openings::{Opening, choose_opening, choose_opening_judged};
use crate::seeds::game_seed;
use crate::stats::GameEnd;
use engine::{EngineConfig, EngineVariant, GamePlayer};

/// What moves for an engine setting in a lab game, with what each side keeps from its one
/// move to its next over one game ([`Chooser::Side`], made afresh for every game).
pub trait Chooser<V: Variant> {
    /// What one side keeps over one game.
    type Side: Default;
    /// The move of `config` in `pos` (a legal one), or `None` when it has none.
    fn choose(
        &self,
        side: &mut Self::Side,
        pos: &V::Position,
        config: &EngineConfig,
    ) -> Option<V::Move>;

    /// The opening of a pair with seed `seed` ([`crate::openings::choose_opening`]): by
    /// default the random one, unjudged, whatever `max_score` says, for a game with no
    /// judge; the engine's chooser judges it.
    fn opening(
        &self,
        start: &V::Position,
        plies: u32,
        seed: u64,
        max_score: Option<i32>,
    ) -> Opening<V> {
        let _ = max_score;
        choose_opening_judged::<V>(start, plies, seed, None, |_| 0)
    }
}

/// Any function of the position and the setting is a chooser that keeps nothing.
impl<V, F> Chooser<V> for F
where
    V: Variant,
    F: Fn(&V::Position, &EngineConfig) -> Option<V::Move>,
{
    type Side = ();
    fn choose(&self, _: &mut (), pos: &V::Position, config: &EngineConfig) -> Option<V::Move> {
        self(pos, config)
    }
}

/// The engine, one [`GamePlayer`] per side and game: a fresh search per move, or one table
/// kept over the game under the setting `table=game` ([`EngineConfig::keep_table`]).
pub struct EngineChooser;

impl<V: EngineVariant> Chooser<V> for EngineChooser {
    type Side = GamePlayer<V>;
    fn choose(
        &self,
        side: &mut GamePlayer<V>,
        pos: &V::Position,
        config: &EngineConfig,
    ) -> Option<V::Move> {
        side.choose(pos, config)
    }

    fn opening(
        &self,
        start: &V::Position,
        plies: u32,
        seed: u64,
        max_score: Option<i32>,
    ) -> Opening<V> {
        choose_opening::<V>(start, plies, seed, max_score)
    }
}

/// Default safety cap on the plies of one lab game. Antarctos cannot draw (A15) and its
/// games are bounded well below this; Ice Age Chess ends by the fifty-move rule (C10); a
/// game that still reaches the cap is reported as capped, not as a draw.
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// `plies` random legal moves from `start` (fewer if the game ends first), drawn with a
/// ChaCha8 generator seeded by `seed`; the moves and the position after them.
pub fn random_opening<V: Variant>(
    start: &V::Position,
    plies: u32,
    seed: u64,
) -> (Vec<V::Move>, V::Position) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..plies {
        if V::outcome(&pos).is_some() {
            break;
        }
        V::legal_moves_into(&pos, &mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal.swap_remove(rng.random_range(0..legal.len()));
        pos = V::play_unchecked(&pos, &mv);
        moves.push(mv);
    }
    (moves, pos)
}

/// One finished (or capped) lab game.
#[derive(Debug, Clone)]
pub struct PlayedGame<V: Variant> {
    /// The game as a record: start position, every move (random opening plies included),
    /// result; tags are left to the caller.
    pub record: Record<V>,
    /// How it ended.
    pub end: GameEnd,
    /// Its length in plies.
    pub plies: u32,
}

/// Plays one game from `start`: first the `opening` moves, then `white` and `black` move
/// by `chooser` (each side with its own [`Chooser::Side`]), until the rules end the game or `max_plies` plies have been played. The
/// engine seed of ply `p` is derived from the setting's own seed, `seed` and `p`.
///
/// A chooser that returns `None` (or an illegal move) in a position the rules call
/// unfinished ends the game as capped rather than inventing a result; it is never
/// expected to happen.
pub fn play_game<V, C>(
    start: &V::Position,
    opening: &[V::Move],
    white: &EngineConfig,
    black: &EngineConfig,
    seed: u64,
    max_plies: u32,
    chooser: &C,
) -> PlayedGame<V>
where
    V: Variant,
    C: Chooser<V>,
{
    let mut sides = [C::Side::default(), C::Side::default()];
    let mut record = Record::new(start.clone());
    let mut pos = start.clone();
    for mv in opening {
        match V::play(&pos, mv) {
            Ok(next) => {
                pos = next;
                record.moves.push(mv.clone());
            }
            Err(_) => break,
        }
    }
    let end = loop {
        if let Some(outcome) = V::outcome(&pos) {
            break GameEnd::Finished(outcome);
        }
        let ply = record.moves.len() as u32;
        if ply >= max_plies {
            break GameEnd::PlyCap;
        }
        let (base, side) = if V::side_to_move(&pos) == game::Color::White {
            (white, &mut sides[0])
        } else {
            (black, &mut sides[1])
        };
        let config = EngineConfig {
            seed: game_seed(base.seed ^ seed, u64::from(ply)),
            ..base.clone()
        };
        let Some(mv) = chooser.choose(side, &pos, &config) else {
            break GameEnd::PlyCap;
        };
        match V::play(&pos, &mv) {
            Ok(next) => {
                pos = next;
                record.moves.push(mv);
            }
            Err(_) => break GameEnd::PlyCap,
        }
    };
    record.result = match end {
        GameEnd::Finished(o) => RecordResult::from_outcome(Some(o)),
        GameEnd::PlyCap => RecordResult::Unknown,
    };
    let plies = record.moves.len() as u32;
    PlayedGame { record, end, plies }
}

/// Sets the tags of a lab game's record.
pub(crate) fn tag_record<V: Variant>(
    game: &mut PlayedGame<V>,
    event: &str,
    round: u32,
    white: &str,
    black: &str,
    random_plies: u32,
) {
    let r = &mut game.record;
    r.set_tag("Event", event);
    r.set_tag("Site", "icebound lab");
    r.set_tag("Date", "????.??.??");
    r.set_tag("Round", round.to_string());
    r.set_tag("White", white);
    r.set_tag("Black", black);
    r.set_tag("Result", r.result.as_str());
    let termination = match game.end {
        GameEnd::Finished(o) => o.reason().as_str().to_string(),
        GameEnd::PlyCap => format!("unterminated: ply cap {} reached", game.plies),
    };
    r.set_tag("Termination", termination);
    if random_plies > 0 {
        r.set_tag("Opening", format!("{random_plies} random plies"));
    }
}

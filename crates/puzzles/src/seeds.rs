//! The seeds' three worked Antarctos examples ("Black begins and wins", "White begins and
//! wins" twice; the Russian rules text, "ОСНОВНЫЕ МЕХАНИКИ ИГРЫ НА ПРИМЕРАХ"), which issue
//! 39 makes Antarctos puzzles 1-3, each with the seed's own explanation, in English, as its
//! hint.
//!
//! Their ids are `seed-1` to `seed-3` ([`is_seed_id`]) instead of a puzzle key. Every rule
//! of the crate doc holds for them ([`crate::verify_line`] proves them; example 3's capture
//! is not the only legal move), so they need no exception.

use antarctos::Antarctos;
use game::Variant;

use crate::file::{Row, START_RATING, line_texts};
use crate::themes::Themed;

/// One worked example: its position, its line in the game's move text and its hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedExample {
    /// The position (Antarctos FEN), the winner to move.
    pub fen: &'static str,
    /// Both sides' moves to the end of the game, space-separated, as the seed gives them.
    pub moves: &'static str,
    /// The seed's explanation, in English.
    pub hint: &'static str,
}

/// The three examples, in the seed's order.
pub const SEED_EXAMPLES: [SeedExample; 3] = [
    SeedExample {
        fen: "B:Wa5,d2,d4:Ba7,c7",
        moves: "c7-b6 a5xc7 a7xc5xe3xc1",
        hint: "Black begins and wins. White must capture, and the captured black man is not \
               removed: it is turned over and becomes ice. Then Black jumps the frozen man and \
               two white men, reaching White's last row.",
    },
    SeedExample {
        fen: "W:Wb4,e3,f2:Bc7,d6:Ic3",
        moves: "b4-c5 d6xb4xd2xf4 f2xd4xb6xd8",
        hint: "White begins and wins. Black captures two white men and the ice; White wins by \
               reaching Black's last row with the capture in reply.",
    },
    SeedExample {
        fen: "W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3",
        moves: "h2xf4xd6xb4",
        hint: "White begins and wins. White cannot reach f8: starting across the ice and \
               reaching d6, it must capture the enemy man, not the ice. But that is enough: \
               Black has no move left.",
    },
];

/// Whether `id` is a seed example's id (`seed-1` to `seed-3`).
pub fn is_seed_id(id: &str) -> bool {
    matches!(id, "seed-1" | "seed-2" | "seed-3")
}

/// The three examples as puzzle-file rows: ids `seed-1` to `seed-3`, their themes read off
/// their lines, rated [`START_RATING`], no game, the seed's hint.
///
/// # Panics
/// Never: the texts are constants checked by the crate's tests.
pub fn seed_rows() -> Vec<Row> {
    SEED_EXAMPLES
        .iter()
        .enumerate()
        .map(|(i, ex)| {
            let start = Antarctos::parse_position(ex.fen).expect("a valid seed position");
            let mut pos = start.clone();
            let mut line = Vec::new();
            for text in ex.moves.split_whitespace() {
                let mv = Antarctos::parse_move(&pos, text).expect("a legal seed move");
                pos = Antarctos::play_unchecked(&pos, &mv);
                line.push(mv);
            }
            let themes = Antarctos::themes(&start, &line)
                .iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(" ");
            Row {
                id: format!("seed-{}", i + 1),
                variant: Antarctos::NAME.to_string(),
                fen: Antarctos::position_text(&start),
                moves: line_texts::<Antarctos>(&start, &line).join(" "),
                length: (line.len() as u32).div_ceil(2),
                themes,
                rating: START_RATING,
                game: String::new(),
                ply: 0,
                seen: String::new(),
                hint: ex.hint.to_string(),
            }
        })
        .collect()
}

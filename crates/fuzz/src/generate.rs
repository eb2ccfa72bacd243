//! Generators of valid inputs: random legal games with tags, comments, NAGs and nested
//! variations. Written by the records writer they seed the PGN and PDN targets, and they
//! are the round-trip property of `tests/it/round_trip.rs`.

use game::records::RecordRules;
use game::{Line, MoveNotes, Node, Record, RecordResult, Variant};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Words of generated comments and tag values: quotes, backslashes, braces, semicolons,
/// brackets and non-ASCII letters, which the writer must escape or route around.
const WORDS: &[&str] = &[
    "ice",
    "the",
    "knight",
    "Иванов",
    "Müller",
    "漢字",
    "a\"b",
    "\\",
    "\"]",
    "{",
    "}",
    "}{",
    ";",
    "(",
    ")",
    "[",
    "]",
    "%",
    "$5",
    "1-0",
    "*",
    "e4",
    "c3-d4",
    "!?",
    "½",
    "🧊",
    "x\\\"y",
    "end\\",
];

/// A random word list joined by single spaces (comments are read with their spaces
/// collapsed, so generated ones are already collapsed).
pub fn random_text(rng: &mut ChaCha8Rng, max_words: usize) -> String {
    let n = rng.random_range(0..=max_words);
    (0..n)
        .map(|_| WORDS[rng.random_range(0..WORDS.len())])
        .collect::<Vec<_>>()
        .join(" ")
}

/// A position reached by up to `max_plies` random legal moves from the start, read back
/// through its own text (so that it is a position a file can give).
pub fn random_position<V: Variant>(rng: &mut ChaCha8Rng, max_plies: usize) -> V::Position {
    let mut pos = V::start_position();
    for _ in 0..rng.random_range(0..=max_plies) {
        let moves = V::legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos = V::play_unchecked(&pos, &moves[rng.random_range(0..moves.len())]);
    }
    V::parse_position(&V::position_text(&pos)).unwrap_or_else(|_| V::start_position())
}

/// Random notes for a move played from `pos`: NAGs, comments, and variations (to `depth`
/// levels) from `pos`.
fn random_notes<V: Variant>(
    rng: &mut ChaCha8Rng,
    pos: &V::Position,
    depth: u32,
) -> MoveNotes<V::Move> {
    let mut notes = MoveNotes::default();
    if rng.random_range(0..4) == 0 {
        notes.nags = (0..rng.random_range(1..3)).map(|_| rng.random()).collect();
    }
    if rng.random_range(0..4) == 0 {
        notes.comments = (0..rng.random_range(1..3))
            .map(|_| random_text(rng, 6))
            .collect();
    }
    if depth > 0 && rng.random_range(0..6) == 0 {
        for _ in 0..rng.random_range(1..3) {
            notes
                .variations
                .push(random_line::<V>(rng, pos, 5, depth - 1));
        }
    }
    notes
}

/// A random line of up to `max` moves from `pos`, with notes.
pub fn random_line<V: Variant>(
    rng: &mut ChaCha8Rng,
    pos: &V::Position,
    max: usize,
    depth: u32,
) -> Line<V::Move> {
    let mut line = Line::default();
    if rng.random_range(0..6) == 0 {
        line.comments.push(random_text(rng, 4));
    }
    let mut pos = pos.clone();
    for _ in 0..rng.random_range(1..=max.max(1)) {
        let moves = V::legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())].clone();
        let notes = random_notes::<V>(rng, &pos, depth);
        pos = V::play_unchecked(&pos, &mv);
        line.nodes.push(Node { mv, notes });
    }
    line
}

/// A random legal game with the format's roster, extra tags, a preface comment, and the
/// notes of [`random_line`].
pub fn random_record<V: RecordRules>(rng: &mut ChaCha8Rng) -> Record<V> {
    let start = if rng.random_range(0..2) == 0 {
        V::start_position()
    } else {
        random_position::<V>(rng, 40)
    };
    let mut record = Record::<V>::new(start.clone());
    for (name, _) in V::FORMAT.roster {
        record.set_tag(name, random_text(rng, 3));
    }
    for name in ["Annotator", "Opening", "X_1"] {
        if rng.random_range(0..2) == 0 {
            record.set_tag(name, random_text(rng, 3));
        }
    }
    let mut line = random_line::<V>(rng, &start, 60, 2);
    if rng.random_range(0..3) == 0 {
        line.comments.push(random_text(rng, 5));
    }
    record.set_main_line(line);
    // A draw only where the game has them (Antarctos has none, A15: its reader reads a
    // claimed draw as unknown).
    let results: &[RecordResult] = if V::DRAWS {
        &[
            RecordResult::WhiteWins,
            RecordResult::BlackWins,
            RecordResult::Draw,
            RecordResult::Unknown,
        ]
    } else {
        &[
            RecordResult::WhiteWins,
            RecordResult::BlackWins,
            RecordResult::Unknown,
        ]
    };
    record.result = results[rng.random_range(0..results.len())];
    record
}

//! [`Record`]: one game of a record file as values (tags, start, moves, result), with the
//! commentary around its moves as a tree ([`Line`], [`Node`], [`MoveNotes`]).

use std::fmt;

use crate::{Color, Outcome, Variant};

/// The result written in a record's `[Result]` tag and after its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl RecordResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`: what the writer writes.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordResult::WhiteWins => "1-0",
            RecordResult::BlackWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unknown => "*",
        }
    }

    /// Reads the four forms above, `½-½`, PDN's `2-0`, `0-2`, `1-1` (FMJD PDN 3.0
    /// scores a win 2 points), and the colon forms of Russian draughts records (`1:0`,
    /// `0:1`, `1/2:1/2`, `½:½`); `None` for anything else.
    ///
    /// ```
    /// use game::RecordResult;
    /// assert_eq!(RecordResult::parse("2-0"), Some(RecordResult::WhiteWins));
    /// assert_eq!(RecordResult::parse("½-½"), Some(RecordResult::Draw));
    /// assert_eq!(RecordResult::parse("0:1"), Some(RecordResult::BlackWins));
    /// assert_eq!(RecordResult::parse("3-0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<RecordResult> {
        match text.trim() {
            "1-0" | "2-0" | "1:0" => Some(RecordResult::WhiteWins),
            "0-1" | "0-2" | "0:1" => Some(RecordResult::BlackWins),
            "1/2-1/2" | "1-1" | "½-½" | "1/2:1/2" | "½:½" => Some(RecordResult::Draw),
            "*" => Some(RecordResult::Unknown),
            _ => None,
        }
    }

    /// The result of a finished game (`Unknown` for `None`).
    pub fn from_outcome(outcome: Option<Outcome>) -> RecordResult {
        match outcome.map(Outcome::winner) {
            None => RecordResult::Unknown,
            Some(Some(Color::White)) => RecordResult::WhiteWins,
            Some(Some(Color::Black)) => RecordResult::BlackWins,
            Some(None) => RecordResult::Draw,
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a record says around one move: its NAGs (`$1` or `!`), the comments that follow it,
/// and the variations that replace it (each played from the position before the move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveNotes<M> {
    /// Numeric annotation glyphs in the order written (`!` is 1, `?` 2, `!!` 3, `??` 4,
    /// `!?` 5, `?!` 6, `$n` is n).
    pub nags: Vec<u8>,
    /// The comments after the move, their whitespace collapsed to single spaces.
    pub comments: Vec<String>,
    /// Alternatives to the move, in the order written.
    pub variations: Vec<Line<M>>,
}

impl<M> Default for MoveNotes<M> {
    fn default() -> Self {
        MoveNotes {
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

impl<M> MoveNotes<M> {
    /// True when there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comments.is_empty() && self.variations.is_empty()
    }
}

/// One move of a [`Line`] with its notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node<M> {
    /// The move, legal in the position the line reached before it.
    pub mv: M,
    /// Its NAGs, comments and variations.
    pub notes: MoveNotes<M>,
}

/// A sequence of moves with their commentary: a game's main line ([`Record::main_line`]) or
/// a variation. This is the move tree the analysis board reads and writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<M> {
    /// Comments before the first move (`( {why} 1... Nc6 )`).
    pub comments: Vec<String>,
    /// The moves in order.
    pub nodes: Vec<Node<M>>,
}

impl<M> Default for Line<M> {
    fn default() -> Self {
        Line {
            comments: Vec::new(),
            nodes: Vec::new(),
        }
    }
}

impl<M> Line<M> {
    /// The moves of the line, without notes.
    pub fn moves(&self) -> impl Iterator<Item = &M> {
        self.nodes.iter().map(|n| &n.mv)
    }
}

/// One game of a record file (PDN for Antarctos, PGN for Ice Age Chess) as values: every
/// move of `moves` is legal in turn from `start`, and so is every move of every variation
/// from the position it branches from.
///
/// The commentary lives beside the main line: `comments` before the first move, and
/// `notes[i]` (NAGs, comments, variations) for `moves[i]`; `notes` may be shorter than
/// `moves` when the last moves have none. [`Record::main_line`] and
/// [`Record::set_main_line`] give the same content as one tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<V: Variant> {
    /// Tag pairs in file order (`Event`, `Site`, ...). The reader leaves out the tags the
    /// writer derives (`Result`, `FEN`, `SetUp`, and the game's own `Variant` / `GameType`
    /// tag); the writer adds them and ignores them here.
    pub tags: Vec<(String, String)>,
    /// Position before the first move.
    pub start: V::Position,
    /// The main line's moves, in order.
    pub moves: Vec<V::Move>,
    /// Result as written in the record (`*` while the game goes on).
    pub result: RecordResult,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// Notes of the main line's moves: `notes[i]` belongs to `moves[i]`; never longer than
    /// `moves`, and a reader never leaves an empty one at its end.
    pub notes: Vec<MoveNotes<V::Move>>,
}

impl<V: Variant> Record<V> {
    /// A record with no tags, no moves and no comments from `start`, result `*`.
    pub fn new(start: V::Position) -> Self {
        Record {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: RecordResult::Unknown,
            comments: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The value of tag `name` (exact, case-sensitive match), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an existing value in place or appending.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The notes of main-line move `index`, if it has any.
    pub fn notes_of(&self, index: usize) -> Option<&MoveNotes<V::Move>> {
        self.notes.get(index).filter(|n| !n.is_empty())
    }

    /// The notes of main-line move `index`, created empty when absent (`notes` grows to
    /// `index + 1` entries).
    pub fn notes_mut(&mut self, index: usize) -> &mut MoveNotes<V::Move> {
        if self.notes.len() <= index {
            self.notes.resize_with(index + 1, MoveNotes::default);
        }
        &mut self.notes[index]
    }

    /// The main line with its commentary as one tree (cloned).
    pub fn main_line(&self) -> Line<V::Move> {
        Line {
            comments: self.comments.clone(),
            nodes: self
                .moves
                .iter()
                .enumerate()
                .map(|(i, mv)| Node {
                    mv: mv.clone(),
                    notes: self.notes.get(i).cloned().unwrap_or_default(),
                })
                .collect(),
        }
    }

    /// Replaces the moves and commentary with `line` (empty trailing notes dropped).
    pub fn set_main_line(&mut self, line: Line<V::Move>) {
        self.comments = line.comments;
        self.moves = Vec::with_capacity(line.nodes.len());
        self.notes = Vec::with_capacity(line.nodes.len());
        for node in line.nodes {
            self.moves.push(node.mv);
            self.notes.push(node.notes);
        }
        self.trim_notes();
    }

    /// Drops empty notes at the end of `notes` and any beyond `moves`.
    pub fn trim_notes(&mut self) {
        self.notes.truncate(self.moves.len());
        while self.notes.last().is_some_and(MoveNotes::is_empty) {
            self.notes.pop();
        }
    }

    /// Replays the moves from `start`; the final position. Errors name the first illegal
    /// move (1-based ply).
    pub fn final_position(&self) -> Result<V::Position, (usize, V::IllegalMove)> {
        let mut pos = self.start.clone();
        for (i, mv) in self.moves.iter().enumerate() {
            pos = V::play(&pos, mv).map_err(|e| (i + 1, e))?;
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_parse() {
        assert_eq!(RecordResult::parse("2-0"), Some(RecordResult::WhiteWins));
        assert_eq!(RecordResult::parse("1/2-1/2"), Some(RecordResult::Draw));
        assert_eq!(RecordResult::parse("3-0"), None);
        // Russian draughts records write results with a colon (Games::Checkers's data).
        assert_eq!(RecordResult::parse("1:0"), Some(RecordResult::WhiteWins));
        assert_eq!(RecordResult::parse("1/2:1/2"), Some(RecordResult::Draw));
        assert_eq!(RecordResult::parse("1:1"), None);
        for r in [
            RecordResult::WhiteWins,
            RecordResult::BlackWins,
            RecordResult::Draw,
            RecordResult::Unknown,
        ] {
            assert_eq!(RecordResult::parse(r.as_str()), Some(r));
        }
    }
}

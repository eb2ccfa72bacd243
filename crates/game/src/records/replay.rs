//! Games as written to [`Record`]s: the game's tags are read first, then the start
//! position, then every move of the main line and of its variations is read and played by
//! the rules. The main line must be legal (else the game is an error naming the move, or,
//! read up to a bad move, the game stops before it);
//! a variation is cut at its first illegal move (with a warning); a comment never refuses a
//! game.

use super::games::{RawGame, RawLine};
use super::{Reading, RecordRules};
use crate::{Color, Line, MoveNotes, Node, Record, RecordError, RecordResult, RecordWarning};

/// Tags the reader leaves out of [`Record::tags`] besides the game tag: the writer derives
/// them.
const DERIVED: [&str; 3] = ["Result", "FEN", "SetUp"];

/// Replays every game of `raw` into `reading`.
pub(crate) fn replay_all<V: RecordRules>(
    raw: Vec<RawGame>,
    reading: &mut Reading<V>,
    up_to_bad_move: bool,
) {
    for (i, game) in raw.into_iter().enumerate() {
        let number = i + 1;
        for (line, message) in &game.warnings {
            reading.warnings.push(RecordWarning {
                game: Some(number),
                line: *line,
                message: message.clone(),
            });
        }
        let mut replay = Replay::<V> {
            game: number,
            warnings: Vec::new(),
            up_to_bad_move,
            cut: None,
            _variant: std::marker::PhantomData,
        };
        let record = replay.game(game);
        reading.warnings.append(&mut replay.warnings);
        reading.cut.extend(replay.cut);
        reading.games.push(record);
    }
}

struct Replay<V> {
    game: usize,
    warnings: Vec<RecordWarning>,
    /// Keep a game up to a bad main-line move ([`super::read_up_to_bad_move`]).
    up_to_bad_move: bool,
    /// Where this game stopped, when it did.
    cut: Option<super::BadMove>,
    _variant: std::marker::PhantomData<V>,
}

/// A move that failed, as words and the line it is on.
struct MoveFailure {
    line: usize,
    message: String,
}

impl<V: RecordRules> Replay<V> {
    fn warn(&mut self, line: Option<usize>, message: String) {
        self.warnings.push(RecordWarning {
            game: Some(self.game),
            line,
            message,
        });
    }

    fn error(&self, line: Option<usize>, message: String) -> RecordError {
        RecordError {
            game: self.game,
            move_number: None,
            side: None,
            line,
            message,
        }
    }

    fn game(&mut self, raw: RawGame) -> Result<Record<V>, RecordError> {
        let all: Vec<(String, String)> = raw
            .tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();
        if let Err((index, message)) = V::check_game_tags(&all) {
            let line = index
                .and_then(|i| raw.tags.get(i))
                .map_or(raw.line, |t| t.line);
            return Err(self.error(Some(line), message));
        }
        let mut start = V::start_position();
        if let Some(fen) = raw.tags.iter().find(|t| t.name == "FEN") {
            start = V::read_position(&fen.value).map_err(|e| {
                self.error(
                    Some(fen.line),
                    format!("FEN tag \"{}\": {e}", crate::excerpt(&fen.value)),
                )
            })?;
        }
        if let Some(e) = &raw.error {
            // A syntax error rejects the game whatever its moves; its move is counted
            // from the start.
            let location = e.plies.map(|plies| {
                let index = plies + usize::from(V::side_to_move(&start) == Color::Black);
                let number = V::fullmove_number(&start).saturating_add((index / 2) as u32);
                let side = if index % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                (number, side)
            });
            return Err(RecordError {
                game: self.game,
                move_number: location.map(|l| l.0),
                side: location.map(|l| l.1),
                line: Some(e.line),
                message: e.message.clone(),
            });
        }
        let game_tag = V::FORMAT.game_tag.0;
        let tag_result = raw
            .tags
            .iter()
            .find(|t| t.name == "Result")
            .map(|t| (RecordResult::parse(&t.value), t));
        let tags = raw
            .tags
            .iter()
            .filter(|t| !DERIVED.contains(&t.name.as_str()) && t.name != game_tag)
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();

        let mut record = Record::<V>::new(start.clone());
        record.tags = tags;
        record.comments = raw.main.comments.clone();
        let mut pos = start;
        for (ply, node) in raw.main.nodes.iter().enumerate() {
            let number = V::fullmove_number(&pos);
            let side = V::side_to_move(&pos);
            let played = self.play(&pos, &node.text, node.line).map_err(|f| {
                // A chess record gets past its first moves when they are knight moves
                // (`1. Nf3 d5`: Nf3 takes the ice of f3 in Ice Age Chess), so the hint goes
                // with any move while none before it was written as a capture.
                let opening = raw.main.nodes[..ply]
                    .iter()
                    .all(|n| !n.text.contains(['x', 'X', ':']));
                let hint = opening.then(|| V::first_move_hint(&all)).flatten();
                RecordError {
                    game: self.game,
                    move_number: Some(number),
                    side: Some(side),
                    line: Some(f.line),
                    message: match hint {
                        Some(hint) => format!("{}; {hint}", f.message),
                        None => f.message,
                    },
                }
            });
            let (mv, next) = match played {
                Ok(played) => played,
                Err(error) if self.up_to_bad_move && ply > 0 => {
                    let left_out = raw.main.nodes.len() - ply;
                    let dots = if side == Color::Black { "..." } else { "" };
                    let why = format!(
                        "'{}' (move {number}{dots}) cannot be played: {}; {left_out} move(s) left out",
                        crate::excerpt(&node.text),
                        error.message
                    );
                    // A comment holds no braces (the writer's comment ends at one).
                    let mark = format!("Imported up to here: {why}").replace(['{', '}'], "'");
                    if let Some(notes) = record.notes.last_mut() {
                        notes.comments.push(mark);
                    }
                    self.warn(
                        error.line,
                        format!("the game is opened up to its last good move: {why}"),
                    );
                    self.cut = Some(super::BadMove {
                        kept: ply,
                        text: node.text.clone(),
                        left_out,
                        error,
                    });
                    record.trim_notes();
                    record.result = RecordResult::Unknown;
                    return Ok(record);
                }
                Err(error) => return Err(error),
            };
            let notes = self.notes(&pos, &mv, node);
            record.moves.push(mv);
            record.notes.push(notes);
            pos = next;
        }
        record.trim_notes();

        record.result = match (raw.result, tag_result) {
            (Some((marker, _)), Some((Some(tag), t))) if tag != marker => {
                self.warn(
                    Some(t.line),
                    format!(
                        "the [Result \"{}\"] tag and the result marker {marker} disagree: the marker is kept",
                        t.value
                    ),
                );
                marker
            }
            (Some((marker, _)), _) => marker,
            (None, Some((Some(tag), _))) => tag,
            (None, _) => RecordResult::Unknown,
        };
        if !V::DRAWS && record.result == RecordResult::Draw {
            let line = raw
                .result
                .map(|(_, l)| l)
                .or_else(|| tag_result.as_ref().map(|(_, t)| t.line));
            self.warn(
                line,
                format!(
                    "{} has no draws: the result 1/2-1/2 is read as unknown (*)",
                    V::TITLE
                ),
            );
            record.result = RecordResult::Unknown;
        }
        if let Some(outcome) = V::outcome(&pos) {
            let reached = RecordResult::from_outcome(Some(outcome));
            if record.result != RecordResult::Unknown && record.result != reached {
                let line = raw.result.map(|(_, l)| l);
                self.warn(
                    line,
                    format!(
                        "the result {} disagrees with the final position ({outcome})",
                        record.result
                    ),
                );
            }
        }
        Ok(record)
    }

    /// Reads and plays one move word.
    fn play(
        &mut self,
        pos: &V::Position,
        text: &str,
        line: usize,
    ) -> Result<(V::Move, V::Position), MoveFailure> {
        let shown = crate::excerpt(text);
        if let Some(outcome) = V::outcome(pos) {
            return Err(MoveFailure {
                line,
                message: format!("'{shown}': the game is already over ({outcome})"),
            });
        }
        let mv = V::read_move(pos, text).map_err(|e| MoveFailure {
            line,
            message: format!("{e} ({})", crate::legal_moves_hint::<V>(pos)),
        })?;
        let next = V::play(pos, &mv).map_err(|e| MoveFailure {
            line,
            message: format!("'{shown}': {e}"),
        })?;
        Ok((mv, next))
    }

    /// The notes of a move played from `pos`: NAGs, the comments that are not its own note
    /// restated, and its variations replayed from `pos`.
    fn notes(
        &mut self,
        pos: &V::Position,
        mv: &V::Move,
        node: &super::games::RawNode,
    ) -> MoveNotes<V::Move> {
        let mut notes = MoveNotes {
            nags: node.nags.clone(),
            ..MoveNotes::default()
        };
        for comment in &node.comments {
            match V::check_note(pos, mv, comment) {
                super::NoteCheck::Same => {}
                super::NoteCheck::Prose => notes.comments.push(comment.clone()),
                super::NoteCheck::Differs(why) => {
                    self.warn(
                        Some(node.line),
                        format!(
                            "'{}' is followed by {{{}}}, but {why}; the comment is kept as written",
                            crate::excerpt(&node.text),
                            crate::excerpt(comment)
                        ),
                    );
                    notes.comments.push(comment.clone());
                }
            }
        }
        for variation in &node.variations {
            let line = self.variation(pos, variation);
            // A variation cut at its first move is left out whole (its warning says so), not
            // kept as an empty line a reader would take for `()`.
            if !line.nodes.is_empty() || variation.nodes.is_empty() {
                notes.variations.push(line);
            }
        }
        notes
    }

    /// A variation from `pos`, cut at its first move that cannot be played.
    fn variation(&mut self, pos: &V::Position, raw: &RawLine) -> Line<V::Move> {
        let mut line = Line {
            comments: raw.comments.clone(),
            nodes: Vec::with_capacity(raw.nodes.len()),
        };
        let mut pos = pos.clone();
        for node in &raw.nodes {
            match self.play(&pos, &node.text, node.line) {
                Ok((mv, next)) => {
                    let notes = self.notes(&pos, &mv, node);
                    line.nodes.push(Node { mv, notes });
                    pos = next;
                }
                Err(f) => {
                    let left = raw.nodes.len() - line.nodes.len();
                    self.warn(
                        Some(f.line),
                        format!(
                            "the variation opened on line {} is cut here, {left} move(s) left out: {}",
                            raw.line, f.message
                        ),
                    );
                    break;
                }
            }
        }
        line
    }
}

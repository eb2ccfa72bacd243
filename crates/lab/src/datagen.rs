//! Tuning data from self-play: the quiet positions of finished games, each labelled with
//! its game's result, one line per position (`<position text>;<result>`, the result from
//! White's side: `1`, `0.5`, `0`), the format [`crate::tune::read_data`] reads.
//!
//! A position is kept when it is past the game's opening plies, its side to move is not in
//! check, it may stand pat ([`engine::EngineVariant::may_stand_pat`]: no compulsory
//! capture, no Ice Age due) and the move played from it was not tactical: the static
//! evaluation is meant to judge quiet positions, the search resolves the rest. Games cut by
//! the ply cap have no result and give nothing.

use engine::EngineVariant;
use game::Color;

use crate::games::PlayedGame;
use crate::stats::GameEnd;

/// The tuning lines of one game: its quiet positions from ply `skip` on.
pub fn game_positions<V: EngineVariant>(game: &PlayedGame<V>, skip: u32) -> Vec<String> {
    let GameEnd::Finished(outcome) = game.end else {
        return Vec::new();
    };
    let result = match outcome.winner() {
        Some(Color::White) => "1",
        Some(Color::Black) => "0",
        None => "0.5",
    };
    let mut out = Vec::new();
    let mut pos = game.record.start.clone();
    let mut moves = Vec::new();
    for (ply, mv) in game.record.moves.iter().enumerate() {
        if ply as u32 >= skip && !V::in_check(&pos) && !V::is_tactical(&pos, mv) {
            V::legal_moves_into(&pos, &mut moves);
            if V::may_stand_pat(&pos, &moves) {
                out.push(format!("{};{result}", V::position_text(&pos)));
            }
        }
        pos = V::play_unchecked(&pos, mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use antarctos::Antarctos;
    use game::{EndReason, Outcome, Record, Variant};

    #[test]
    fn quiet_positions_of_a_finished_game_with_its_result() {
        // 1. c3-d4 f6-e5 2. d4xf6 (a capture: the position before it is not quiet, and
        // the one after it has a compulsory recapture) e7xg5 3. g3-h4.
        let start = Antarctos::start_position();
        let mut record = Record::<Antarctos>::new(start.clone());
        let mut pos = start;
        for text in ["c3-d4", "f6-e5", "d4xf6", "e7xg5", "g3-h4"] {
            let mv = Antarctos::parse_move(&pos, text).expect("legal");
            pos = Antarctos::play(&pos, &mv).expect("legal");
            record.moves.push(mv);
        }
        let game = PlayedGame {
            record,
            end: GameEnd::Finished(Outcome::Win {
                winner: game::Color::Black,
                reason: EndReason::Breakthrough,
            }),
            plies: 5,
        };
        let lines = game_positions(&game, 0);
        // Plies 0 and 1 are quiet; ply 2 (before d4xf6) has a capture to make, ply 3
        // (before e7xg5) too; ply 4 is quiet.
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.ends_with(";0")));
        assert_eq!(game_positions(&game, 2).len(), 1);
        let capped = PlayedGame {
            end: GameEnd::PlyCap,
            ..game
        };
        assert!(game_positions(&capped, 0).is_empty());
    }
}

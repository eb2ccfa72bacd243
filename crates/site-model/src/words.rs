//! How a game ended, in a sentence for people ("White wins by breakthrough", "Black's king
//! froze in the Ice Age"), from the winner and the reason.

use game::{Color, EndReason};

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The sentence for a finished game: `winner` is `None` for a draw.
pub fn result_words(winner: Option<Color>, reason: EndReason) -> String {
    match (winner, reason) {
        (Some(w), EndReason::Breakthrough) => format!("{} wins by breakthrough", side(w)),
        (Some(w), EndReason::TotalFreeze) => {
            format!("{} wins: every {} man is frozen", side(w), side(!w))
        }
        (Some(w), EndReason::NoMoves) => {
            format!("{} wins: {} has no legal turn", side(w), side(!w))
        }
        (Some(w), EndReason::Checkmate) => format!("{} wins by checkmate", side(w)),
        (Some(w), EndReason::FrozenKing) => format!("{}'s king froze in the Ice Age", side(!w)),
        (Some(w), EndReason::Resignation) => format!("{} resigned", side(!w)),
        (Some(w), EndReason::TimeForfeit) => format!("{} wins on time", side(w)),
        (Some(w), EndReason::Abandoned) => format!("{} wins: {} left the game", side(w), side(!w)),
        (Some(w), other) => format!("{} wins ({})", side(w), other),
        (None, EndReason::BothKingsFrozen) => "Draw: both kings froze in the Ice Age".into(),
        (None, EndReason::Stalemate) => "Draw by stalemate".into(),
        (None, EndReason::FiftyMoveRule) => "Draw by the fifty-move rule".into(),
        (None, EndReason::Agreement) => "Draw by agreement".into(),
        (None, other) => format!("Draw ({other})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_for_each_ending() {
        assert_eq!(
            result_words(Some(Color::White), EndReason::Breakthrough),
            "White wins by breakthrough"
        );
        assert_eq!(
            result_words(Some(Color::White), EndReason::FrozenKing),
            "Black's king froze in the Ice Age"
        );
        assert_eq!(
            result_words(Some(Color::Black), EndReason::TotalFreeze),
            "Black wins: every White man is frozen"
        );
        assert_eq!(
            result_words(Some(Color::Black), EndReason::Resignation),
            "White resigned"
        );
        assert_eq!(
            result_words(None, EndReason::Agreement),
            "Draw by agreement"
        );
        assert_eq!(
            result_words(None, EndReason::BothKingsFrozen),
            "Draw: both kings froze in the Ice Age"
        );
    }
}

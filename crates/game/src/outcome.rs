use std::fmt;

use crate::Color;

/// How a game ended. The rules crates produce the over-the-board reasons; the site adds
/// the ones that come from players (resignation, agreement, time, abandonment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Antarctos A12: a man ended its turn on its goal row.
    Breakthrough,
    /// Antarctos A13: the side to move has no living men left.
    TotalFreeze,
    /// Antarctos A14: the side to move has no legal turn (it loses).
    NoMoves,
    /// Ice Age Chess C10: checkmate.
    Checkmate,
    /// Ice Age Chess C7: one king was frozen by the Ice Age (its side loses).
    FrozenKing,
    /// Ice Age Chess C7: both kings were frozen by the same Ice Age (draw).
    BothKingsFrozen,
    /// Ice Age Chess C10: stalemate (draw).
    Stalemate,
    /// Ice Age Chess C10: 100 half-moves without a pawn move, a piece capture or a freeze.
    FiftyMoveRule,
    /// A player resigned.
    Resignation,
    /// Both players agreed to a draw.
    Agreement,
    /// A player ran out of time (the site's clocks, issue 13).
    TimeForfeit,
    /// A player left the game.
    Abandoned,
}

impl EndReason {
    /// Every reason, in declaration order.
    pub const ALL: [EndReason; 12] = [
        EndReason::Breakthrough,
        EndReason::TotalFreeze,
        EndReason::NoMoves,
        EndReason::Checkmate,
        EndReason::FrozenKing,
        EndReason::BothKingsFrozen,
        EndReason::Stalemate,
        EndReason::FiftyMoveRule,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::TimeForfeit,
        EndReason::Abandoned,
    ];

    /// The reason in lower-case words, as the CLI prints it: `breakthrough`, `total freeze`,
    /// `no moves`, `checkmate`, `frozen king`, `both kings frozen`, `stalemate`,
    /// `fifty-move rule`, `resignation`, `agreement`, `time forfeit`, `abandoned`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Breakthrough => "breakthrough",
            EndReason::TotalFreeze => "total freeze",
            EndReason::NoMoves => "no moves",
            EndReason::Checkmate => "checkmate",
            EndReason::FrozenKing => "frozen king",
            EndReason::BothKingsFrozen => "both kings frozen",
            EndReason::Stalemate => "stalemate",
            EndReason::FiftyMoveRule => "fifty-move rule",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::TimeForfeit => "time forfeit",
            EndReason::Abandoned => "abandoned",
        }
    }

    /// Inverse of [`EndReason::as_str`]; `None` for any other text.
    /// `timeout`, the name before the site had clocks, reads as `time forfeit`.
    pub fn parse(text: &str) -> Option<EndReason> {
        if text == "timeout" {
            return Some(EndReason::TimeForfeit);
        }
        EndReason::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a game: a winner and a reason, or a draw and a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won.
    Win { winner: Color, reason: EndReason },
    /// Nobody won.
    Draw { reason: EndReason },
}

impl Outcome {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Why the game ended.
    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// The PGN/PDN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// The CLI's form: `1-0 white wins (breakthrough)`, `1/2-1/2 draw (stalemate)`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                write!(f, "{} {} wins ({})", self.result_text(), winner, reason)
            }
            Outcome::Draw { reason } => write!(f, "{} draw ({})", self.result_text(), reason),
        }
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// How a game ended, in an English sentence for people ("White wins by breakthrough",
/// "Black's king froze in the Ice Age"): `winner` is `None` for a draw. One text for the
/// site's answers and the engine in the browser (issue 42), so a result reads the same
/// whichever judged it. Pages word results in their own language from `winner` and `reason`.
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
        (None, EndReason::Abandoned) => "Draw: a player left the game".into(),
        (None, other) => format!("Draw ({other})"),
    }
}

impl Outcome {
    /// [`result_words`] of this outcome.
    pub fn words(self) -> String {
        result_words(self.winner(), self.reason())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_text_matches_cli_contract() {
        let w = Outcome::Win {
            winner: Color::White,
            reason: EndReason::Breakthrough,
        };
        assert_eq!(w.to_string(), "1-0 white wins (breakthrough)");
        let b = Outcome::Win {
            winner: Color::Black,
            reason: EndReason::TotalFreeze,
        };
        assert_eq!(b.to_string(), "0-1 black wins (total freeze)");
        let d = Outcome::Draw {
            reason: EndReason::BothKingsFrozen,
        };
        assert_eq!(d.to_string(), "1/2-1/2 draw (both kings frozen)");
    }

    #[test]
    fn reason_text_round_trips() {
        for r in EndReason::ALL {
            assert_eq!(EndReason::parse(r.as_str()), Some(r));
        }
        assert_eq!(EndReason::parse("bogus"), None);
    }

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
            result_words(Some(Color::White), EndReason::Abandoned),
            "White wins: Black left the game"
        );
        assert_eq!(
            result_words(None, EndReason::Abandoned),
            "Draw: a player left the game"
        );
        assert_eq!(
            result_words(None, EndReason::BothKingsFrozen),
            "Draw: both kings froze in the Ice Age"
        );
    }
}

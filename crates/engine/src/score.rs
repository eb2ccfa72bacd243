//! Search scores: centi-units from the side to move's point of view, and exact win/loss
//! scores that carry the distance to the end of the game in plies (mate-distance style).

use std::fmt;

/// A win found at ply 0 (the game is already won): no real score reaches it.
pub const WIN: i32 = 30_000;
/// Every score at or above this is a proven win, at or below its negation a proven loss:
/// leaves room for games of up to 1,000 plies.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// Larger than any score: the initial alpha-beta window.
pub const INFINITY: i32 = WIN + 1;
/// A draw (stalemate, fifty-move rule, both kings frozen).
pub const DRAW: i32 = 0;

/// The score of a won game `plies` plies from the root (side to move wins).
pub fn win_in(plies: u32) -> i32 {
    WIN - plies as i32
}

/// The score of a lost game `plies` plies from the root (side to move loses).
pub fn loss_in(plies: u32) -> i32 {
    -win_in(plies)
}

/// True for a proven win or loss.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_BOUND
}

/// Converts a score relative to the root into one relative to the node at `ply` (for
/// storing in a transposition table, whose entries are shared by nodes at any ply).
pub fn to_table(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`to_table`].
pub fn from_table(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as the CLI prints it: `win <plies>`, `loss <plies>` or centi-units (`-35`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreText(pub i32);

impl fmt::Display for ScoreText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        if s >= WIN_BOUND {
            write!(f, "win {}", WIN - s)
        } else if s <= -WIN_BOUND {
            write!(f, "loss {}", WIN + s)
        } else {
            write!(f, "{s}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_round_trip_keeps_distance() {
        let s = win_in(7);
        assert_eq!(from_table(to_table(s, 3), 3), s);
        // Stored at ply 3 and read at ply 5: the win is two plies further from the root.
        assert_eq!(from_table(to_table(s, 3), 5), win_in(9));
        assert_eq!(from_table(to_table(loss_in(4), 1), 1), loss_in(4));
        assert_eq!(to_table(55, 9), 55);
    }

    #[test]
    fn score_text() {
        assert_eq!(ScoreText(win_in(3)).to_string(), "win 3");
        assert_eq!(ScoreText(loss_in(2)).to_string(), "loss 2");
        assert_eq!(ScoreText(-35).to_string(), "-35");
    }
}

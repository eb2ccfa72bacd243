//! A review's values and its answer: each position's evaluation ([`Eval`]), the marks of the
//! moves that lost winning chances ([`marks`]), each side's [`Summary`], and the
//! [`ReviewView`] of a stored row.
//!
//! Marks follow lichess (lila's `Advice`): a move that lowers the mover's winning chances,
//! `2 / (1 + exp(-0.00368208 · cp)) - 1` in -1..1, by at least 0.1 is an inaccuracy, 0.2 a
//! mistake, 0.3 a blunder, unless it was the engine's own choice; the better move is the
//! engine's best in the position before.

use game::{Color, RecordResult};
use serde::{Deserialize, Serialize};

use site_model::error::{ErrorCode, SiteError};
use site_model::state::ReviewStatus;
use site_store::ReviewRow;

/// A position's evaluation from White's point of view: `{"cp": n}` (centi-units; a man or a
/// pawn is about 100), `{"mate": n}` (a proven win in `|n|` plies, for White when `n > 0`,
/// for Black when `n < 0`) or `{"end": "1-0" | "0-1" | "1/2-1/2"}` (the game is over there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhiteScore {
    /// Centi-units for White.
    Cp(i32),
    /// Plies to a proven win: White's when positive, Black's when negative.
    Mate(i32),
    /// The result of a finished position.
    End(String),
}

impl WhiteScore {
    /// White's winning chances in -1..1 (lichess's curve for centi-units; ±1 for a proven
    /// result; 0 for a draw).
    pub fn chances(&self) -> f64 {
        match self {
            WhiteScore::Cp(cp) => 2.0 / (1.0 + (-0.003_682_08 * f64::from(*cp)).exp()) - 1.0,
            WhiteScore::Mate(n) => f64::from(n.signum()),
            WhiteScore::End(r) => match RecordResult::parse(r) {
                Some(RecordResult::WhiteWins) => 1.0,
                Some(RecordResult::BlackWins) => -1.0,
                _ => 0.0,
            },
        }
    }
}

/// One analysed position of the game's main line (stored as JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Eval {
    /// 0 for the start position, n after the n-th move.
    pub ply: usize,
    /// The side to move.
    pub turn: Color,
    /// The move that led here (none at the start), canonical.
    pub played: Option<String>,
    /// The evaluation.
    pub score: WhiteScore,
    /// The engine's best move here, canonical (none when the game is over here).
    pub best: Option<String>,
    /// Its principal variation, at most 8 moves.
    pub pv: Vec<String>,
    /// Depth reached.
    pub depth: u32,
}

/// How bad a move was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// Winning chances down by 0.1 or more.
    Inaccuracy,
    /// By 0.2 or more.
    Mistake,
    /// By 0.3 or more.
    Blunder,
}

/// A marked move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// The ply of the move (1 = the first move).
    pub ply: usize,
    /// Who played it.
    pub color: Color,
    /// How bad.
    pub kind: MarkKind,
    /// The move played.
    pub played: String,
    /// The engine's move in the position before.
    pub better: String,
    /// The mover's winning percentage lost (lichess's win %, `50 + 50 · chances`), in points
    /// (5 to 100).
    pub loss: u32,
}

/// One side's marks counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SideSummary {
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
}

/// Both sides' marks counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// White's.
    pub white: SideSummary,
    /// Black's.
    pub black: SideSummary,
}

/// The answer of the review routes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReviewView {
    /// `running`, `done` or `failed` (asking again restarts a failed one).
    pub status: ReviewStatus,
    /// Positions analysed.
    pub done: i64,
    /// Positions to analyse (moves + 1).
    pub total: i64,
    /// Nodes searched per position.
    pub nodes: i64,
    /// The evaluations so far, from the start position on.
    pub evals: Vec<Eval>,
    /// The marked moves among those analysed on both sides.
    pub marks: Vec<Mark>,
    /// The marks counted per side.
    pub summary: Summary,
}

/// The marks of `evals` (see the module doc).
pub fn marks(evals: &[Eval]) -> Vec<Mark> {
    let mut out = Vec::new();
    for pair in evals.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let (Some(played), Some(better)) = (&after.played, &before.best) else {
            continue;
        };
        if played == better {
            continue;
        }
        let sign = if before.turn == Color::White {
            1.0
        } else {
            -1.0
        };
        let drop = sign * (before.score.chances() - after.score.chances());
        let kind = if drop >= 0.3 {
            MarkKind::Blunder
        } else if drop >= 0.2 {
            MarkKind::Mistake
        } else if drop >= 0.1 {
            MarkKind::Inaccuracy
        } else {
            continue;
        };
        out.push(Mark {
            ply: after.ply,
            color: before.turn,
            kind,
            played: played.clone(),
            better: better.clone(),
            loss: (drop * 50.0).round() as u32,
        });
    }
    out
}

fn summary(marks: &[Mark]) -> Summary {
    let mut s = Summary::default();
    for m in marks {
        let side = match m.color {
            Color::White => &mut s.white,
            Color::Black => &mut s.black,
        };
        match m.kind {
            MarkKind::Inaccuracy => side.inaccuracies += 1,
            MarkKind::Mistake => side.mistakes += 1,
            MarkKind::Blunder => side.blunders += 1,
        }
    }
    s
}

pub(super) fn evals_of(row: &ReviewRow) -> Result<Vec<Eval>, SiteError> {
    serde_json::from_str(&row.evals).map_err(|e| {
        tracing::error!(review = %row.subject, error = %e, "a stored review does not read back");
        SiteError::new(
            ErrorCode::Internal,
            "the stored analysis cannot be read back",
        )
    })
}

pub(super) fn view_of(row: &ReviewRow) -> Result<ReviewView, SiteError> {
    let evals = evals_of(row)?;
    let marks = marks(&evals);
    Ok(ReviewView {
        status: row.status,
        done: row.done,
        total: row.total,
        nodes: row.nodes,
        summary: summary(&marks),
        evals,
        marks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(ply: usize, turn: Color, played: Option<&str>, score: WhiteScore, best: &str) -> Eval {
        Eval {
            ply,
            turn,
            played: played.map(str::to_string),
            score,
            best: Some(best.to_string()),
            pv: vec![best.to_string()],
            depth: 5,
        }
    }

    #[test]
    fn chances_follow_lichess_curve() {
        assert!(WhiteScore::Cp(0).chances().abs() < 1e-9);
        let c = WhiteScore::Cp(300).chances();
        assert!((c - 0.5031).abs() < 1e-3, "{c}");
        assert!((WhiteScore::Cp(-300).chances() + c).abs() < 1e-9);
        assert_eq!(WhiteScore::Mate(-5).chances(), -1.0);
        assert_eq!(WhiteScore::End("1-0".into()).chances(), 1.0);
        assert_eq!(WhiteScore::End("1/2-1/2".into()).chances(), 0.0);
    }

    #[test]
    fn drops_in_winning_chances_mark_moves() {
        use Color::{Black, White};
        let evals = vec![
            eval(0, White, None, WhiteScore::Cp(20), "e4"),
            // White's d4 instead of e4: tiny loss, no mark.
            eval(1, Black, Some("d4"), WhiteScore::Cp(10), "d5"),
            // Black's f6, from White +0.10 to +3.00: Black's chances fall by 0.48, a blunder.
            eval(2, White, Some("f6"), WhiteScore::Cp(300), "e4"),
            // White's engine move: never marked, whatever the scores say.
            eval(3, Black, Some("e4"), WhiteScore::Cp(0), "g5"),
            // Black's h5 lets White mate: a blunder, the better move g5.
            eval(4, White, Some("h5"), WhiteScore::Mate(3), "Qh5+"),
            // White's Qh4 throws the mate away for +1.50: 1 - 0.27 = 0.73.
            eval(5, Black, Some("Qh4"), WhiteScore::Cp(150), "a6"),
        ];
        let m = marks(&evals);
        let got: Vec<(usize, Color, MarkKind, &str)> = m
            .iter()
            .map(|m| (m.ply, m.color, m.kind, m.better.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (2, Black, MarkKind::Blunder, "d5"),
                (4, Black, MarkKind::Blunder, "g5"),
                (5, White, MarkKind::Blunder, "Qh5+"),
            ]
        );
        assert_eq!(m[0].loss, 24);
        let s = summary(&m);
        assert_eq!((s.white.blunders, s.black.blunders), (1, 2));
    }

    #[test]
    fn a_smaller_drop_is_an_inaccuracy_or_a_mistake() {
        use Color::{Black, White};
        let step = |cp_after: i32| {
            marks(&[
                eval(0, White, None, WhiteScore::Cp(0), "e4"),
                eval(1, Black, Some("a3"), WhiteScore::Cp(cp_after), "e5"),
            ])
            .first()
            .map(|m| m.kind)
        };
        assert_eq!(step(-40), None);
        assert_eq!(step(-60), Some(MarkKind::Inaccuracy));
        assert_eq!(step(-120), Some(MarkKind::Mistake));
        assert_eq!(step(-200), Some(MarkKind::Blunder));
    }
}

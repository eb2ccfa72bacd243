//! Themes, read off a puzzle's line (issue 39), never typed in. Several may hold at once.
//!
//! Antarctos: an ice jump, an ice springboard (one turn that jumps ice and captures), a
//! breakthrough (won on the goal row, A12), a sacrifice, a forced capture (the defender must
//! capture, A9), a backward capture (A6). Ice Age Chess: mate, a king frozen by the Ice Age
//! (C7), Ice Age timing (an Ice Age falls inside the line, C5), an ice capture (C3), a
//! sacrifice.

use std::fmt;
use std::str::FromStr;

use antarctos::{Antarctos, Square as ManSquare};
use game::{Color, EndReason, Outcome, Variant};
use iceage::{Capture, IceAge};
use shakmaty::Role;

/// A puzzle's theme. Its name (`ice_jump` ...) is what the site and the API show and take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// Antarctos: a winner's turn jumps ice (A7).
    IceJump,
    /// Antarctos: a winner's turn jumps ice and captures: the ice is a springboard.
    IceSpringboard,
    /// Antarctos: the game is won by a man reaching its goal row (A12).
    Breakthrough,
    /// The winner's material falls below where it started, after a defender's move, and
    /// the line still wins.
    Sacrifice,
    /// Antarctos: the defender must capture (A9) somewhere on the line.
    ForcedCapture,
    /// Antarctos: a winner's capture jumps backward (A6).
    BackwardCapture,
    /// Ice Age Chess: the line ends in checkmate.
    Mate,
    /// Ice Age Chess: the line ends with the defender's king frozen by an Ice Age (C7).
    FrozenKing,
    /// Ice Age Chess: an Ice Age falls inside the line (C5): the count of Black's moves
    /// matters.
    IceAgeTiming,
    /// Ice Age Chess: a winner's move captures ice (C3).
    IceCapture,
}

impl Theme {
    /// Every theme, in a fixed order.
    pub const ALL: [Theme; 10] = [
        Theme::IceJump,
        Theme::IceSpringboard,
        Theme::Breakthrough,
        Theme::Sacrifice,
        Theme::ForcedCapture,
        Theme::BackwardCapture,
        Theme::Mate,
        Theme::FrozenKing,
        Theme::IceAgeTiming,
        Theme::IceCapture,
    ];

    /// The name: `ice_jump`, `ice_springboard`, `breakthrough`, `sacrifice`,
    /// `forced_capture`, `backward_capture`, `mate`, `frozen_king`, `ice_age_timing`,
    /// `ice_capture`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::IceJump => "ice_jump",
            Theme::IceSpringboard => "ice_springboard",
            Theme::Breakthrough => "breakthrough",
            Theme::Sacrifice => "sacrifice",
            Theme::ForcedCapture => "forced_capture",
            Theme::BackwardCapture => "backward_capture",
            Theme::Mate => "mate",
            Theme::FrozenKing => "frozen_king",
            Theme::IceAgeTiming => "ice_age_timing",
            Theme::IceCapture => "ice_capture",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no theme; its message quotes the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown theme '{0}'")]
pub struct UnknownTheme(pub String);

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Theme, UnknownTheme> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| UnknownTheme(s.to_string()))
    }
}

/// A game whose puzzles get themes.
pub trait Themed: Variant {
    /// The themes this game's puzzles may have.
    const THEMES: &'static [Theme];

    /// The themes of the line `line` (both sides' moves, legal, to the end of the game)
    /// from `start`, in [`Theme::ALL`]'s order.
    fn themes(start: &Self::Position, line: &[Self::Move]) -> Vec<Theme>;

    /// The side's material: what a sacrifice gives up.
    fn material(pos: &Self::Position, side: Color) -> i32;
}

/// The positions of `line` from `start`, `start` first.
fn positions<V: Variant>(start: &V::Position, line: &[V::Move]) -> Vec<V::Position> {
    let mut out = vec![start.clone()];
    for mv in line {
        let next = V::play_unchecked(out.last().expect("one"), mv);
        out.push(next);
    }
    out
}

/// Sacrifice: after a defender's move the winner's material lead is below the start's.
fn sacrifice<V: Themed>(positions: &[V::Position]) -> bool {
    let winner = V::side_to_move(&positions[0]);
    let lead = |p: &V::Position| V::material(p, winner) - V::material(p, !winner);
    let start = lead(&positions[0]);
    positions.iter().skip(2).step_by(2).any(|p| lead(p) < start)
}

fn end_reason<V: Variant>(last: &V::Position) -> Option<EndReason> {
    match V::outcome(last) {
        Some(Outcome::Win { reason, .. }) => Some(reason),
        _ => None,
    }
}

fn sorted(mut themes: Vec<Theme>) -> Vec<Theme> {
    themes.sort();
    themes.dedup();
    themes
}

impl Themed for Antarctos {
    const THEMES: &'static [Theme] = &[
        Theme::IceJump,
        Theme::IceSpringboard,
        Theme::Breakthrough,
        Theme::Sacrifice,
        Theme::ForcedCapture,
        Theme::BackwardCapture,
    ];

    fn themes(start: &antarctos::Position, line: &[antarctos::Move]) -> Vec<Theme> {
        let positions = positions::<Antarctos>(start, line);
        let mut themes = Vec::new();
        for (i, mv) in line.iter().enumerate() {
            let pos = &positions[i];
            if i % 2 == 0 {
                let ice = !mv.ice_jumped().is_empty();
                let captures = !mv.captured().is_empty();
                if ice {
                    themes.push(Theme::IceJump);
                }
                if ice && captures {
                    themes.push(Theme::IceSpringboard);
                }
                if captures && captures_backward(mv, pos.side_to_move()) {
                    themes.push(Theme::BackwardCapture);
                }
            } else if pos.must_capture() {
                themes.push(Theme::ForcedCapture);
            }
        }
        if end_reason::<Antarctos>(positions.last().expect("one")) == Some(EndReason::Breakthrough)
        {
            themes.push(Theme::Breakthrough);
        }
        if sacrifice::<Antarctos>(&positions) {
            themes.push(Theme::Sacrifice);
        }
        sorted(themes)
    }

    fn material(pos: &antarctos::Position, side: Color) -> i32 {
        pos.men(side).len() as i32
    }
}

/// True when one of the jumps of `mv` that captures a living man goes backward for `mover`
/// (towards its own home row, A4, A6).
fn captures_backward(mv: &antarctos::Move, mover: Color) -> bool {
    let path: Vec<ManSquare> = mv.path().collect();
    path.windows(2).any(|w| {
        let (a, b) = (w[0], w[1]);
        let over = ManSquare::new((a.file() + b.file()) / 2, (a.rank() + b.rank()) / 2);
        let backward = match mover {
            Color::White => b.rank() < a.rank(),
            Color::Black => b.rank() > a.rank(),
        };
        backward && over.is_some_and(|sq| mv.captured().contains(sq))
    })
}

impl Themed for IceAge {
    const THEMES: &'static [Theme] = &[
        Theme::Mate,
        Theme::FrozenKing,
        Theme::IceAgeTiming,
        Theme::IceCapture,
        Theme::Sacrifice,
    ];

    fn themes(start: &iceage::Position, line: &[iceage::Move]) -> Vec<Theme> {
        let positions = positions::<IceAge>(start, line);
        let mut themes = Vec::new();
        for (i, mv) in line.iter().enumerate() {
            let pos = &positions[i];
            if i % 2 == 0 && mv.capture == Capture::Ice {
                themes.push(Theme::IceCapture);
            }
            if pos.ice_age_due() {
                themes.push(Theme::IceAgeTiming);
            }
        }
        match end_reason::<IceAge>(positions.last().expect("one")) {
            Some(EndReason::Checkmate) => themes.push(Theme::Mate),
            Some(EndReason::FrozenKing) => themes.push(Theme::FrozenKing),
            _ => {}
        }
        if sacrifice::<IceAge>(&positions) {
            themes.push(Theme::Sacrifice);
        }
        sorted(themes)
    }

    fn material(pos: &iceage::Position, side: Color) -> i32 {
        let board = pos.board();
        let own = board.by_color(iceage_color(side));
        [
            (Role::Pawn, 1),
            (Role::Knight, 3),
            (Role::Bishop, 3),
            (Role::Rook, 5),
            (Role::Queen, 9),
        ]
        .into_iter()
        .map(|(role, value)| (board.by_role(role) & own).count() as i32 * value)
        .sum()
    }
}

fn iceage_color(c: Color) -> shakmaty::Color {
    match c {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    }
}

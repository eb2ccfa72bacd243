use std::fmt;
use std::ops::Not;

/// A side. White moves first in both games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White,
    /// The side that moves second.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// `"white"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Index 0 for White, 1 for Black (for tables indexed by colour).
    pub fn index(self) -> usize {
        self as usize
    }

    /// `White` for `true`.
    pub fn from_white(white: bool) -> Color {
        if white { Color::White } else { Color::Black }
    }

    /// Reads `white`/`black`/`w`/`b`, any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Some(Color::White),
            "black" | "b" => Some(Color::Black),
            _ => None,
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

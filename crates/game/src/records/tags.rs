//! What the tags that name a game (`[Variant]` in PGN, `[GameType]` in PDN) say, so that
//! each game's reader refuses a game of another variant by name instead of failing on its
//! moves.

/// The game a `[Variant]` or `[GameType]` value names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaggedGame {
    /// Ice Age Chess (`Ice Age`, `Ice Age Chess`, `iceage`, any case).
    IceAgeChess,
    /// Antarctos.
    Antarctos,
    /// Another chess game, by its name (`standard chess`, `Chess960` ...).
    OtherChess(&'static str),
    /// A draughts game of the FMJD GameType table, by name; with its type number.
    Draughts(&'static str, u32),
    /// A value this table does not know.
    Unknown,
}

impl TaggedGame {
    /// `an Ice Age Chess game`, `a standard chess game`, `a Russian draughts game`, or
    /// `a "value" game`.
    pub fn describe(self, value: &str) -> String {
        match self {
            TaggedGame::IceAgeChess => "an Ice Age Chess game".into(),
            TaggedGame::Antarctos => "an Antarctos game".into(),
            TaggedGame::OtherChess(name) | TaggedGame::Draughts(name, _) => {
                let article =
                    if name.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
                        "an"
                    } else {
                        "a"
                    };
                format!("{article} {name} game")
            }
            TaggedGame::Unknown => format!("a \"{}\" game", crate::excerpt(value)),
        }
    }
}

/// The value compared without case, spaces, `-` and `_`.
fn key(value: &str) -> String {
    value
        .chars()
        .filter(|c| !(super::is_space(*c) || matches!(c, '-' | '_')))
        .flat_map(char::to_lowercase)
        .collect()
}

/// What a PGN `[Variant]` value names (the names lichess and pychess write).
///
/// ```
/// use game::records::{TaggedGame, variant_tag};
/// assert_eq!(variant_tag("Ice Age"), TaggedGame::IceAgeChess);
/// assert_eq!(variant_tag("ICEAGE"), TaggedGame::IceAgeChess);
/// assert_eq!(variant_tag("From Position"), TaggedGame::OtherChess("standard chess"));
/// ```
pub fn variant_tag(value: &str) -> TaggedGame {
    match key(value).as_str() {
        "iceage" | "iceagechess" => TaggedGame::IceAgeChess,
        "antarctos" => TaggedGame::Antarctos,
        "standard" | "chess" | "normal" | "fromposition" => {
            TaggedGame::OtherChess("standard chess")
        }
        "chess960" | "fischerandom" | "fischerrandom" | "freestyle" => {
            TaggedGame::OtherChess("Chess960")
        }
        "crazyhouse" => TaggedGame::OtherChess("Crazyhouse"),
        "antichess" | "giveaway" | "suicide" => TaggedGame::OtherChess("Antichess"),
        "atomic" => TaggedGame::OtherChess("Atomic chess"),
        "horde" => TaggedGame::OtherChess("Horde chess"),
        "kingofthehill" | "koth" => TaggedGame::OtherChess("King of the Hill chess"),
        "racingkings" => TaggedGame::OtherChess("Racing Kings chess"),
        "threecheck" | "3check" => TaggedGame::OtherChess("Three-check chess"),
        "russian" | "russiandraughts" => TaggedGame::Draughts("Russian draughts", 25),
        _ => TaggedGame::Unknown,
    }
}

/// What a PDN `[GameType]` value names: its first field is the FMJD type number (`20` is
/// international draughts, `25` Russian draughts, `0` chess) or our own `Antarctos`.
///
/// ```
/// use game::records::{TaggedGame, game_type_tag};
/// assert_eq!(game_type_tag("25,W,8,8,A0,0"), TaggedGame::Draughts("Russian draughts", 25));
/// assert_eq!(game_type_tag("antarctos"), TaggedGame::Antarctos);
/// assert_eq!(game_type_tag("20").describe("20"), "an international draughts (10x10) game");
/// ```
pub fn game_type_tag(value: &str) -> TaggedGame {
    let first = value.split(',').next().unwrap_or("").trim();
    let Ok(number) = first.parse::<u32>() else {
        return match variant_tag(first) {
            TaggedGame::Unknown => TaggedGame::Unknown,
            known => known,
        };
    };
    let name = match number {
        0 => return TaggedGame::OtherChess("chess"),
        1 => return TaggedGame::OtherChess("Chinese chess"),
        20 => "international draughts (10x10)",
        21 => "English draughts (checkers)",
        22 => "Italian draughts",
        23 => "American pool checkers",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        30 => "Turkish draughts",
        31 => "Thai draughts",
        40 => "Frisian draughts",
        41 => "Spantsiretti draughts",
        50 => "Othello",
        _ => return TaggedGame::Unknown,
    };
    TaggedGame::Draughts(name, number)
}

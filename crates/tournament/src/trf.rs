//! The FIDE Tournament Report File, TRF-16 (FIDE Technical Commission, "TRF16" agreed
//! general data exchange format): reading and writing the lines this crate needs.
//!
//! Lines read: `012` (the name), `XXR` (rounds planned, from JaVaFo's TRF(x)), `XXC`
//! (`white1`/`black1`: the colour of TPN 1 in round 1) and `001` (a player). Other lines are
//! skipped. Lines may end in `\n`, `\r\n` or `\r` alone (bbpPairings' generator writes `\r`).
//!
//! A `001` line, columns 1-based as in the format: 1-3 `001`, 5-8 the TPN, 10 sex, 11-13
//! title, 15-47 name, 49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84
//! points, 86-89 rank, then one field of 8 columns per round, starting at column 92 and every
//! 10 columns: 4 columns of opponent TPN (`0000` for none), a space, the colour (`w`, `b` or
//! `-`), a space and the result code ([`GameResult::code`]). The writer leaves sex, title,
//! federation, id and birth date blank.

use std::fmt::Write as _;

use crate::record::{Colour, GameResult, PlayerRecord, Points, RoundEntry, Tournament, Tpn};

/// A fault in a TRF file, with its place (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("TRF line {line}, column {column}: {kind}")]
pub struct TrfError {
    /// The line, 1-based.
    pub line: usize,
    /// The column, 1-based (characters).
    pub column: usize,
    /// What is wrong.
    pub kind: TrfErrorKind,
}

/// What is wrong in a TRF file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfErrorKind {
    /// A field that must be a number is not one.
    #[error("{field} must be a number, not {text:?}")]
    Number {
        /// The field's name.
        field: &'static str,
        /// What stands there.
        text: String,
    },
    /// A colour other than `w`, `b` or `-`.
    #[error("the colour must be w, b or -, not {0:?}")]
    Colour(char),
    /// A result letter that TRF-16 does not have.
    #[error("unknown result code {0:?}")]
    Result(char),
    /// A game (an opponent other than 0000) without a colour.
    #[error("a game against {0} needs a colour")]
    GameWithoutColour(Tpn),
    /// A `001` line too short to hold its TPN.
    #[error("the player line is too short")]
    ShortLine,
    /// Two `001` lines with the same TPN.
    #[error("TPN {0} appears twice")]
    DuplicateTpn(Tpn),
    /// The TPNs are not 1, 2, .., n.
    #[error("TPN {0} is missing: the TPNs must run from 1 to the number of players")]
    MissingTpn(Tpn),
    /// An opponent TPN that no player has.
    #[error("opponent {0} is not a player")]
    UnknownOpponent(Tpn),
    /// `XXC` with a word other than `white1` or `black1`.
    #[error("XXC must say white1 or black1, not {0:?}")]
    InitialColour(String),
}

fn err(line: usize, column: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, column, kind }
}

/// Reads a TRF-16 file's text.
///
/// Errors: a [`TrfError`] naming the line and column of the first fault: a field that is not
/// a number, an unknown colour or result code, a duplicate or missing TPN, an unknown
/// opponent, a game without colour.
pub fn read(text: &str) -> Result<Tournament, TrfError> {
    let mut t = Tournament {
        name: String::new(),
        rounds_planned: 0,
        initial_colour: None,
        players: Vec::new(),
    };
    for (number, raw) in split_lines(text) {
        read_line(&mut t, raw, number)?;
    }
    let lines: Vec<usize> = player_lines(text);
    let mut seen = std::collections::BTreeSet::new();
    for (p, line) in t.players.iter().zip(&lines) {
        if !seen.insert(p.tpn) {
            return Err(err(*line, 5, TrfErrorKind::DuplicateTpn(p.tpn)));
        }
    }
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by_key(|&i| t.players[i].tpn);
    let players: Vec<PlayerRecord> = order.iter().map(|&i| t.players[i].clone()).collect();
    for (i, p) in players.iter().enumerate() {
        if p.tpn != i as Tpn + 1 {
            let line = lines[order[i]];
            return Err(err(line, 5, TrfErrorKind::MissingTpn(i as Tpn + 1)));
        }
    }
    let n = players.len() as Tpn;
    for (i, p) in players.iter().enumerate() {
        for (r, e) in p.rounds.iter().enumerate() {
            if let Some(o) = e.opponent
                && o > n
            {
                return Err(err(
                    lines[order[i]],
                    92 + 10 * r,
                    TrfErrorKind::UnknownOpponent(o),
                ));
            }
        }
    }
    t.players = players;
    Ok(t)
}

/// The lines of a text split at `\n`, `\r\n` or `\r`, with their 1-based numbers.
fn split_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    let mut n = 0;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        n += 1;
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let mut next = end;
        if rest[end..].starts_with("\r\n") {
            next += 2;
        } else if end < rest.len() {
            next += 1;
        }
        rest = &rest[next..];
        Some((n, line))
    })
}

/// The line number of each `001` line, in file order.
fn player_lines(text: &str) -> Vec<usize> {
    split_lines(text)
        .filter(|(_, l)| l.starts_with("001"))
        .map(|(n, _)| n)
        .collect()
}

fn read_line(t: &mut Tournament, raw: &str, line: usize) -> Result<(), TrfError> {
    let chars: Vec<char> = raw.chars().collect();
    let field = |from: usize, to: usize| -> String {
        // 1-based inclusive columns.
        chars
            .iter()
            .skip(from - 1)
            .take(to + 1 - from)
            .collect::<String>()
    };
    let code = field(1, 3);
    match code.as_str() {
        "012" => t.name = field(5, chars.len().max(5)).trim().to_string(),
        "XXR" => {
            let text = field(4, chars.len().max(4));
            t.rounds_planned = text.trim().parse().map_err(|_| {
                err(
                    line,
                    5,
                    TrfErrorKind::Number {
                        field: "rounds",
                        text: text.trim().to_string(),
                    },
                )
            })?;
        }
        "XXC" => {
            let words = field(4, chars.len().max(4));
            for w in words.split_whitespace() {
                match w {
                    "white1" => t.initial_colour = Some(Colour::White),
                    "black1" => t.initial_colour = Some(Colour::Black),
                    "rank" => {}
                    other => {
                        return Err(err(line, 5, TrfErrorKind::InitialColour(other.into())));
                    }
                }
            }
        }
        "001" => t.players.push(read_player(&chars, line)?),
        _ => {}
    }
    Ok(())
}

fn number<T: std::str::FromStr>(
    chars: &[char],
    line: usize,
    from: usize,
    to: usize,
    name: &'static str,
) -> Result<Option<T>, TrfError> {
    let text: String = chars.iter().skip(from - 1).take(to + 1 - from).collect();
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let column = from + text.len() - text.trim_start().len();
    trimmed.parse().map(Some).map_err(|_| {
        err(
            line,
            column,
            TrfErrorKind::Number {
                field: name,
                text: trimmed.to_string(),
            },
        )
    })
}

fn read_player(chars: &[char], line: usize) -> Result<PlayerRecord, TrfError> {
    if chars.len() < 8 {
        return Err(err(line, chars.len() + 1, TrfErrorKind::ShortLine));
    }
    let tpn: Tpn =
        number(chars, line, 5, 8, "TPN")?.ok_or(err(line, 5, TrfErrorKind::ShortLine))?;
    let name: String = chars.iter().skip(14).take(33).collect();
    let rating: u16 = number(chars, line, 49, 52, "rating")?.unwrap_or(0);
    let stated_points = read_points(chars, line)?;
    let rank: u32 = number(chars, line, 86, 89, "rank")?.unwrap_or(0);
    let mut rounds = Vec::new();
    let mut start = 92;
    while chars.len() >= start {
        let blank = chars.iter().skip(start - 1).take(8).all(|c| *c == ' ');
        let later = chars.iter().skip(start - 1 + 8).any(|c| *c != ' ');
        if blank {
            if !later {
                break;
            }
            rounds.push(RoundEntry::bye(GameResult::ZeroBye));
            start += 10;
            continue;
        }
        let opponent: Tpn = number(chars, line, start, start + 3, "opponent")?.unwrap_or(0);
        let colour_char = chars.get(start + 4).copied().unwrap_or(' ');
        let colour = match colour_char {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            '-' | ' ' => None,
            other => return Err(err(line, start + 5, TrfErrorKind::Colour(other))),
        };
        let result_char = chars.get(start + 6).copied().unwrap_or(' ');
        let result = GameResult::from_code(result_char).ok_or(err(
            line,
            start + 7,
            TrfErrorKind::Result(result_char),
        ))?;
        let entry = if opponent == 0 {
            RoundEntry::bye(result)
        } else {
            let colour = colour.ok_or(err(
                line,
                start + 5,
                TrfErrorKind::GameWithoutColour(opponent),
            ))?;
            RoundEntry::game(opponent, colour, result)
        };
        rounds.push(entry);
        start += 10;
    }
    Ok(PlayerRecord {
        tpn,
        name: name.trim().to_string(),
        rating,
        stated_points,
        rank,
        rounds,
    })
}

fn read_points(chars: &[char], line: usize) -> Result<Option<Points>, TrfError> {
    let text: String = chars.iter().skip(80).take(4).collect();
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let bad = || {
        err(
            line,
            81,
            TrfErrorKind::Number {
                field: "points",
                text: trimmed.to_string(),
            },
        )
    };
    let (whole, frac) = trimmed.split_once('.').unwrap_or((trimmed, "0"));
    let whole: u32 = whole.parse().map_err(|_| bad())?;
    let half = match frac {
        "0" | "" => 0,
        "5" => 1,
        _ => return Err(bad()),
    };
    Ok(Some(Points(whole * 2 + half)))
}

/// Writes a tournament as TRF-16: `012`, `XXR` (when planned rounds are known), `XXC` (when
/// the initial colour is known), then one `001` line per player with the points computed
/// from the results. Names longer than 33 characters are cut.
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", t.name);
    for p in &t.players {
        let name: String = p.name.chars().take(33).collect();
        let _ = write!(
            out,
            "001 {:>4}      {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            p.tpn,
            name,
            if p.rating == 0 {
                String::new()
            } else {
                p.rating.to_string()
            },
            "",
            "",
            "",
            p.points().to_string(),
            if p.rank == 0 {
                String::new()
            } else {
                p.rank.to_string()
            },
        );
        for e in &p.rounds {
            let colour = match e.colour {
                Some(Colour::White) => 'w',
                Some(Colour::Black) => 'b',
                None => '-',
            };
            let opponent = match e.opponent {
                Some(o) => format!("{o:>4}"),
                None => "0000".to_string(),
            };
            let _ = write!(out, "  {opponent} {colour} {}", e.result.code());
        }
        let _ = writeln!(out);
    }
    if t.rounds_planned > 0 {
        let _ = writeln!(out, "XXR {}", t.rounds_planned);
    }
    match t.initial_colour {
        Some(Colour::White) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    out
}

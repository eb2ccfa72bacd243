//! `icebound play`: a game against the engine in the terminal. The board is drawn with
//! coordinates from the human's side (ice as `*`); the prompt takes every accepted move
//! form of the game, plus `moves`, `help` and `quit`. End of input leaves the game cleanly.

use std::io::{BufRead, Write};

use clap::Args;
use engine::{EngineConfig, EngineVariant, GamePlayer};
use game::{Color, EndReason, Outcome, Variant};

use crate::analyze_cmd::check_threads;
use crate::rules_cmds::position;
use games::{GameKind, with_game};

#[derive(Args)]
pub struct PlayArgs {
    #[arg(long)]
    pub variant: GameKind,
    /// Engine strength, 1 (beginner) to 8 (full strength; it keeps its search table from
    /// move to move, as the site's level 8 does).
    #[arg(long, default_value_t = 4)]
    pub level: u8,
    /// Your side: `white` or `black`.
    #[arg(long, default_value = "white")]
    pub color: String,
    /// Start position text; the game's start position when absent.
    #[arg(long)]
    pub fen: Option<String>,
    /// Seed of the engine's choices (random when absent).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Search threads of the engine (1 to 256; Lazy SMP). Levels 5-8 search a node budget
    /// shared by the threads; more threads fill it sooner.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

pub fn play(args: PlayArgs) -> Result<(), String> {
    if engine::level::Level::new(i64::from(args.level)).is_none() {
        return Err(format!("--level must be 1 to 8, not {}", args.level));
    }
    check_threads(args.threads)?;
    let human = Color::parse(&args.color)
        .ok_or_else(|| format!("--color must be white or black, not '{}'", args.color))?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    with_game!(args.variant, V => run::<V>(&args, human, &mut input, &mut out))
}

fn run<V: EngineVariant>(
    args: &PlayArgs,
    human: Color,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| format!("cannot write to the terminal: {e}");
    let mut pos = position::<V>(args.fen.as_deref())?;
    if let Some(outcome) = V::outcome(&pos) {
        return Err(format!("the game is over in this position: {outcome}"));
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    writeln!(
        out,
        "{} against the engine (level {}); you play {}. Type a move, 'moves', 'help' or 'quit'.",
        V::TITLE,
        args.level,
        human
    )
    .map_err(io)?;
    let mut bytes = Vec::new();
    // Level 8 keeps its search over the game, as the site's level 8 does.
    let mut engine = GamePlayer::<V>::default();
    loop {
        for row in board_lines::<V>(&pos, human) {
            writeln!(out, "{row}").map_err(io)?;
        }
        if let Some(outcome) = V::outcome(&pos) {
            writeln!(out, "{}", result_in_words(outcome)).map_err(io)?;
            return Ok(());
        }
        let side = V::side_to_move(&pos);
        let number = V::fullmove_number(&pos);
        let dots = if side == Color::White { "." } else { "..." };
        if side != human {
            let config = EngineConfig {
                seed: seed ^ u64::from(number) ^ (side.index() as u64) << 32,
                threads: args.threads,
                keep_table: args.level == engine::level::MAX_LEVEL,
                ..EngineConfig::level(args.level)
            };
            let mv = engine
                .choose(&pos, &config)
                .ok_or_else(|| "the engine found no move in a game that goes on".to_string())?;
            writeln!(
                out,
                "engine plays {number}{dots} {}",
                V::move_text(&pos, &mv)
            )
            .map_err(io)?;
            pos = V::play(&pos, &mv).map_err(|e| format!("engine move rejected: {e}"))?;
            continue;
        }
        loop {
            write!(out, "{number}{dots} your move ({side})> ").map_err(io)?;
            out.flush().map_err(io)?;
            bytes.clear();
            // Bytes, not `read_line`: a line that is no UTF-8 is a bad move, not the end.
            let read = input
                .read_until(b'\n', &mut bytes)
                .map_err(|e| format!("cannot read the terminal: {e}"))?;
            if read == 0 {
                writeln!(out, "\nend of input: game left unfinished").map_err(io)?;
                return Ok(());
            }
            let line = String::from_utf8_lossy(&bytes);
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "exit" | "resign" => {
                    writeln!(out, "you resigned: {} wins", capital(!human)).map_err(io)?;
                    return Ok(());
                }
                "help" => {
                    writeln!(out, "{}", help::<V>()).map_err(io)?;
                    continue;
                }
                "moves" => {
                    let texts = game::sorted_move_texts::<V>(&pos);
                    writeln!(out, "legal moves: {}", texts.join(" ")).map_err(io)?;
                    continue;
                }
                _ => {}
            }
            match V::parse_move(&pos, text) {
                Ok(mv) => match V::play(&pos, &mv) {
                    Ok(next) => {
                        writeln!(out, "you play {number}{dots} {}", V::move_text(&pos, &mv))
                            .map_err(io)?;
                        pos = next;
                        break;
                    }
                    Err(e) => writeln!(out, "illegal move '{text}': {e}").map_err(io)?,
                },
                // Quoted as an excerpt: a huge line is not echoed back whole.
                Err(e) => {
                    writeln!(out, "not a legal move: '{}': {e}", game::excerpt(text)).map_err(io)?
                }
            }
        }
    }
}

fn help<V: Variant>() -> &'static str {
    if V::NAME == "antarctos" {
        "moves: c3-d4 or c3d4 or cd4 (simple move), d6xb4xd2 or d6:b4:d2 (jump sequence, every \
         landing square), a7xc1 (start and end when only one sequence matches); 'moves' lists \
         the legal turns, 'quit' resigns"
    } else {
        "moves: SAN (e4, Nxf3, hxg3 to take ice, O-O, e8=Q) or UCI (e2e4, e7e8q); 'moves' lists \
         the legal moves, 'quit' resigns"
    }
}

fn capital(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The result as a sentence: `White wins by breakthrough`,
/// `Black wins: White's king froze in the Ice Age`.
pub fn result_in_words(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            let w = capital(winner);
            let l = capital(!winner);
            match reason {
                EndReason::Breakthrough => format!("{w} wins by breakthrough"),
                EndReason::TotalFreeze => format!("{w} wins: every {l} man is frozen"),
                EndReason::NoMoves => format!("{w} wins: {l} has no legal move"),
                EndReason::Checkmate => format!("{w} wins by checkmate"),
                EndReason::FrozenKing => format!("{w} wins: {l}'s king froze in the Ice Age"),
                other => format!("{w} wins ({other})"),
            }
        }
        Outcome::Draw { reason } => match reason {
            EndReason::BothKingsFrozen => "Draw: both kings froze in the Ice Age".to_string(),
            EndReason::Stalemate => "Draw by stalemate".to_string(),
            EndReason::FiftyMoveRule => "Draw by the fifty-move rule".to_string(),
            other => format!("Draw ({other})"),
        },
    }
}

/// The board from `viewer`'s side, read off the canonical position text: ranks with their
/// numbers, files below. Antarctos: `w`/`b` men, `*` ice, `.` empty dark square, blank
/// light square. Ice Age Chess: FEN letters, `*` ice, `.` empty.
fn board_lines<V: Variant>(pos: &V::Position, viewer: Color) -> Vec<String> {
    let text = V::position_text(pos);
    let grid = if V::NAME == "antarctos" {
        antarctos_grid(&text)
    } else {
        chess_grid(&text)
    };
    let ranks: Vec<usize> = if viewer == Color::White {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let files: Vec<usize> = if viewer == Color::White {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let mut lines = Vec::with_capacity(10);
    for &r in &ranks {
        let cells: Vec<String> = files.iter().map(|&f| grid[r][f].to_string()).collect();
        lines.push(format!("{} | {}", r + 1, cells.join(" ")));
    }
    lines.push("    ---------------".to_string());
    let letters: Vec<String> = files
        .iter()
        .map(|&f| ((b'a' + f as u8) as char).to_string())
        .collect();
    lines.push(format!("    {}", letters.join(" ")));
    lines.push(format!("position {text}"));
    lines
}

fn square_index(name: &str) -> Option<(usize, usize)> {
    let b = name.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase().checked_sub(b'a')? as usize;
    let r = b[1].checked_sub(b'1')? as usize;
    (f < 8 && r < 8).then_some((r, f))
}

fn antarctos_grid(text: &str) -> [[char; 8]; 8] {
    let mut grid = [[' '; 8]; 8];
    for (r, row) in grid.iter_mut().enumerate() {
        for (f, cell) in row.iter_mut().enumerate() {
            if (r + f) % 2 == 0 {
                *cell = '.';
            }
        }
    }
    for field in text.split(':').skip(1) {
        let mut chars = field.chars();
        let mark = match chars.next() {
            Some('W') => 'w',
            Some('B') => 'b',
            Some('I') => '*',
            _ => continue,
        };
        for sq in chars.as_str().split(',').filter(|s| !s.is_empty()) {
            if let Some((r, f)) = square_index(sq) {
                grid[r][f] = mark;
            }
        }
    }
    grid
}

fn chess_grid(text: &str) -> [[char; 8]; 8] {
    let mut grid = [['.'; 8]; 8];
    let board = text.split_whitespace().next().unwrap_or("");
    for (i, rank_text) in board.split('/').take(8).enumerate() {
        let r = 7 - i;
        let mut f = 0;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                f += d as usize;
            } else {
                if f < 8 {
                    grid[r][f] = c;
                }
                f += 1;
            }
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_read_position_text() {
        let g = antarctos_grid("W:Wb4,e3,f2:Bc7,d6:Ic3");
        assert_eq!(g[3][1], 'w');
        assert_eq!(g[6][2], 'b');
        assert_eq!(g[2][2], '*');
        assert_eq!(g[0][1], ' ');
        assert_eq!(g[0][0], '.');
        let c =
            chess_grid("rnbqkbnr/pppppppp/********/8/8/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(c[0][4], 'K');
        assert_eq!(c[5][3], '*');
        assert_eq!(c[4][3], '.');
        assert_eq!(c[7][0], 'r');
    }

    #[test]
    fn results_in_words() {
        let o = Outcome::Win {
            winner: Color::Black,
            reason: EndReason::FrozenKing,
        };
        assert_eq!(
            result_in_words(o),
            "Black wins: White's king froze in the Ice Age"
        );
        let o = Outcome::Win {
            winner: Color::White,
            reason: EndReason::Breakthrough,
        };
        assert_eq!(result_in_words(o), "White wins by breakthrough");
    }
}

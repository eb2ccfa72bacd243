//! Differential test: a second, deliberately simple turn generator written straight from
//! the rule text (8x8 arrays, recursion, no bitboards) must agree with the crate's on
//! every legal turn (as square lists), on the position each turn leads to, and on the
//! outcome, over 10,000 random reachable positions and 3,000 random set-up ones; the fast
//! perft is checked against the generic one on every 25th position.

use std::collections::BTreeSet;

use antarctos::{Antarctos, Piece, Position, Square, fen};
use game::{Color, EndReason, Outcome, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Man(Color),
    Ice,
}

/// `cells[file][rank]`, file 0 = a, rank 0 = rank 1.
type Cells = [[Cell; 8]; 8];

const DIAGONALS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn cells_of(p: &Position) -> Cells {
    let mut cells = [[Cell::Empty; 8]; 8];
    for s in Square::ALL {
        cells[s.file() as usize][s.rank() as usize] = match p.piece_at(s) {
            None => Cell::Empty,
            Some(Piece::Man(c)) => Cell::Man(c),
            Some(Piece::Ice) => Cell::Ice,
        };
    }
    cells
}

/// Position text of `cells` with `side` to move, written by hand (A18 order).
fn text_of(cells: &Cells, side: Color) -> String {
    let mut fields = [String::new(), String::new(), String::new()];
    for r in 0..8 {
        for f in 0..8 {
            let k = match cells[f as usize][r as usize] {
                Cell::Man(Color::White) => 0,
                Cell::Man(Color::Black) => 1,
                Cell::Ice => 2,
                Cell::Empty => continue,
            };
            if !fields[k].is_empty() {
                fields[k].push(',');
            }
            fields[k].push_str(&name(f, r));
        }
    }
    let side = if side == Color::White { "W" } else { "B" };
    let mut s = format!("{side}:W{}:B{}", fields[0], fields[1]);
    if !fields[2].is_empty() {
        s.push_str(&format!(":I{}", fields[2]));
    }
    s
}

fn goal_rank(c: Color) -> i32 {
    if c == Color::White { 7 } else { 0 }
}

/// The simple generator's verdict: turns as (square list, resulting position text).
struct Simple {
    turns: BTreeSet<(String, String)>,
    outcome: Option<Outcome>,
}

fn simple(cells: &Cells, side: Color) -> Simple {
    let mover = !side;
    let has_man = |c: Color| cells.iter().flatten().any(|x| *x == Cell::Man(c));
    // A12, A13 first: no turns in a finished game.
    if (0..8).any(|f| cells[f][goal_rank(mover) as usize] == Cell::Man(mover)) {
        return Simple {
            turns: BTreeSet::new(),
            outcome: Some(Outcome::Win {
                winner: mover,
                reason: EndReason::Breakthrough,
            }),
        };
    }
    if !has_man(side) {
        return Simple {
            turns: BTreeSet::new(),
            outcome: Some(Outcome::Win {
                winner: mover,
                reason: EndReason::TotalFreeze,
            }),
        };
    }
    let get = |cs: &Cells, f: i32, r: i32| cs[f as usize][r as usize];
    let can_capture = |f: i32, r: i32| {
        DIAGONALS.iter().any(|&(df, dr)| {
            on_board(f + 2 * df, r + 2 * dr)
                && get(cells, f + df, r + dr) == Cell::Man(!side)
                && get(cells, f + 2 * df, r + 2 * dr) == Cell::Empty
        })
    };
    let can_jump_ice = |f: i32, r: i32| {
        DIAGONALS.iter().any(|&(df, dr)| {
            on_board(f + 2 * df, r + 2 * dr)
                && get(cells, f + df, r + dr) == Cell::Ice
                && get(cells, f + 2 * df, r + 2 * dr) == Cell::Empty
        })
    };
    let men: Vec<(i32, i32)> = (0..8)
        .flat_map(|f| (0..8).map(move |r| (f, r)))
        .filter(|&(f, r)| get(cells, f, r) == Cell::Man(side))
        .collect();
    let mut turns = BTreeSet::new();
    let any_capture = men.iter().any(|&(f, r)| can_capture(f, r));
    for &(f, r) in &men {
        let mut start = *cells;
        start[f as usize][r as usize] = Cell::Empty; // A11
        if any_capture {
            if can_capture(f, r) {
                jump(
                    &start,
                    side,
                    (f, r),
                    &mut vec![(f, r)],
                    &mut Vec::new(),
                    &mut turns,
                );
            }
            continue;
        }
        // A5: one step forward onto an empty square.
        let dr = if side == Color::White { 1 } else { -1 };
        for df in [-1, 1] {
            if on_board(f + df, r + dr) && get(cells, f + df, r + dr) == Cell::Empty {
                let mut after = start;
                after[(f + df) as usize][(r + dr) as usize] = Cell::Man(side);
                turns.insert((
                    format!("{} {}", name(f, r), name(f + df, r + dr)),
                    text_of(&after, !side),
                ));
            }
        }
        // A9: starting on ice is allowed when nobody can capture.
        if can_jump_ice(f, r) {
            jump(
                &start,
                side,
                (f, r),
                &mut vec![(f, r)],
                &mut Vec::new(),
                &mut turns,
            );
        }
    }
    let outcome = turns.is_empty().then_some(Outcome::Win {
        winner: mover,
        reason: EndReason::NoMoves,
    });
    Simple { turns, outcome }
}

/// A10 from square `at`: capture a man not captured yet if possible, else jump ice if
/// possible, else the turn ends (when at least one jump was made). `cells` has the mover
/// lifted off the board, captured men still standing, jumped ice removed.
fn jump(
    cells: &Cells,
    side: Color,
    at: (i32, i32),
    path: &mut Vec<(i32, i32)>,
    captured: &mut Vec<(i32, i32)>,
    out: &mut BTreeSet<(String, String)>,
) {
    let (f, r) = at;
    let mut moved = false;
    for (df, dr) in DIAGONALS {
        let (mf, mr, lf, lr) = (f + df, r + dr, f + 2 * df, r + 2 * dr);
        if on_board(lf, lr)
            && cells[mf as usize][mr as usize] == Cell::Man(!side)
            && !captured.contains(&(mf, mr))
            && cells[lf as usize][lr as usize] == Cell::Empty
        {
            moved = true;
            path.push((lf, lr));
            captured.push((mf, mr));
            jump(cells, side, (lf, lr), path, captured, out);
            captured.pop();
            path.pop();
        }
    }
    if moved {
        return;
    }
    for (df, dr) in DIAGONALS {
        let (mf, mr, lf, lr) = (f + df, r + dr, f + 2 * df, r + 2 * dr);
        if on_board(lf, lr)
            && cells[mf as usize][mr as usize] == Cell::Ice
            && cells[lf as usize][lr as usize] == Cell::Empty
        {
            moved = true;
            let mut melted = *cells;
            melted[mf as usize][mr as usize] = Cell::Empty; // A7
            path.push((lf, lr));
            jump(&melted, side, (lf, lr), path, captured, out);
            path.pop();
        }
    }
    if moved || path.len() < 2 {
        return;
    }
    let mut after = *cells;
    for &(cf, cr) in captured.iter() {
        after[cf as usize][cr as usize] = Cell::Ice; // A8
    }
    after[f as usize][r as usize] = Cell::Man(side);
    let squares: Vec<String> = path.iter().map(|&(f, r)| name(f, r)).collect();
    out.insert((squares.join(" "), text_of(&after, !side)));
}

/// The crate's verdict in the same shape.
fn fast(p: &Position) -> Simple {
    let turns = Antarctos::legal_moves(p)
        .iter()
        .map(|m| {
            let squares: Vec<String> = m.path().map(|s| s.to_string()).collect();
            let after = Antarctos::play(p, m).expect("generated turns are legal");
            (squares.join(" "), fen::write(&after))
        })
        .collect();
    Simple {
        turns,
        outcome: p.outcome(),
    }
}

#[derive(Default)]
struct Seen {
    positions: usize,
    with_ice: usize,
    with_multi_jump: usize,
    with_long_jump: usize,
    with_ice_jump_start: usize,
    finished: usize,
}

fn compare(p: &Position, seen: &mut Seen) {
    let want = simple(&cells_of(p), p.side_to_move());
    let got = fast(p);
    let text = fen::write(p);
    assert_eq!(text_of(&cells_of(p), p.side_to_move()), text);
    if got.turns != want.turns {
        let only_fast: Vec<_> = got.turns.difference(&want.turns).collect();
        let only_simple: Vec<_> = want.turns.difference(&got.turns).collect();
        panic!("{text}: only fast {only_fast:?}, only simple {only_simple:?}");
    }
    assert_eq!(got.outcome, want.outcome, "{text}");
    assert_eq!(
        Antarctos::perft(p, 1),
        want.turns.len() as u64,
        "bulk count {text}"
    );
    // The fast perft builds children from the generator's bitboards: check them against
    // play + legal_moves (the generic perft) now and then.
    if seen.positions.is_multiple_of(25) {
        assert_eq!(
            Antarctos::perft(p, 3),
            game::perft::<Antarctos>(p, 3),
            "perft 3 {text}"
        );
    }
    seen.positions += 1;
    seen.with_ice += usize::from(!p.ice().is_empty());
    let longest = want
        .turns
        .iter()
        .map(|(s, _)| s.split(' ').count())
        .max()
        .unwrap_or(0);
    seen.with_multi_jump += usize::from(longest >= 3);
    seen.with_long_jump += usize::from(longest >= 5);
    seen.with_ice_jump_start += usize::from(
        Antarctos::legal_moves(p)
            .iter()
            .any(|m| m.is_jump() && m.captured().is_empty() && !m.ice_jumped().is_empty()),
    );
    seen.finished += usize::from(want.outcome.is_some());
}

#[test]
fn fast_generator_agrees_with_simple_one_on_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut seen = Seen::default();
    while seen.positions < 10_000 {
        let mut p = Position::start();
        loop {
            compare(&p, &mut seen);
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer jumps now and then, so that games grow ice and long sequences.
            let jumps: Vec<_> = moves.iter().filter(|m| m.is_jump()).collect();
            let mv = if !jumps.is_empty() && rng.random_bool(0.5) {
                *jumps[rng.random_range(0..jumps.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            p = p.play(&mv).expect("legal");
        }
    }
    eprintln!(
        "random games: {} positions, {} with ice, {} with a 2+ jump turn, {} with a 4+ jump \
         turn, {} with an ice-jump start, {} finished",
        seen.positions,
        seen.with_ice,
        seen.with_multi_jump,
        seen.with_long_jump,
        seen.with_ice_jump_start,
        seen.finished
    );
    assert!(seen.with_ice >= 5_000, "too few positions with ice");
    assert!(seen.with_multi_jump >= 300, "too few multi-jump positions");
    assert!(seen.with_long_jump >= 30, "too few 4+ jump sequences");
    assert!(seen.with_ice_jump_start >= 500, "too few ice-jump starts");
    assert!(seen.finished >= 100, "too few finished games");
}

#[test]
fn fast_generator_agrees_with_simple_one_on_random_setups() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut seen = Seen::default();
    let mut tried = 0;
    while seen.positions < 3_000 {
        tried += 1;
        let side = if rng.random_bool(0.5) {
            Color::White
        } else {
            Color::Black
        };
        let (mut w, mut b) = (0, 0);
        let mut text = [String::new(), String::new(), String::new()];
        // Half the set-ups fill one rank parity (where jumped men stand) and leave the
        // other (where jumpers land) mostly empty: that breeds long jump sequences.
        let lattice = rng.random_bool(0.5);
        let parity = rng.random_range(0..2u8);
        for s in Square::ALL {
            let mut roll = rng.random_range(0..100);
            if lattice {
                roll = if s.rank() % 2 == parity {
                    if roll < 6 {
                        roll
                    } else {
                        rng.random_range(18..60)
                    }
                } else if roll < 30 {
                    rng.random_range(0..18)
                } else {
                    99
                };
            }
            let k = if roll < 18 && w < 12 {
                w += 1;
                0
            } else if roll < 36 && b < 12 {
                b += 1;
                1
            } else if roll < 60 {
                2
            } else {
                continue;
            };
            if !text[k].is_empty() {
                text[k].push(',');
            }
            text[k].push_str(&s.to_string());
        }
        let side_char = if side == Color::White { 'W' } else { 'B' };
        let fen_text = format!("{side_char}:W{}:B{}:I{}", text[0], text[1], text[2]);
        // Set-ups with the side to move on its goal row are rightly refused (A18).
        if let Ok(p) = Antarctos::parse_position(&fen_text) {
            compare(&p, &mut seen);
        }
    }
    eprintln!(
        "random set-ups: {} positions of {tried}, {} with a 2+ jump turn, {} with a 4+ jump turn",
        seen.positions, seen.with_multi_jump, seen.with_long_jump
    );
    assert!(seen.with_multi_jump >= 500, "too few multi-jump positions");
    assert!(seen.with_long_jump >= 200, "too few long jump sequences");
}

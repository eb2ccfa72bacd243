//! A deliberately simple second implementation of the rules (C1-C12), written from the spec
//! text only: a 64-cell array, pseudo-legal moves filtered by "is my king attacked", and its
//! own Ice Age. It reads and writes FEN text itself. Slow and obvious on purpose.
#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Ice,
    /// (white, lower-case role letter)
    Piece(bool, char),
}

#[derive(Clone, Debug)]
pub struct Simple {
    pub cells: [Cell; 64],
    pub white: bool,
    /// K, Q, k, q
    pub castle: [bool; 4],
    pub ep: Option<usize>,
    pub half: u32,
    pub full: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SMove {
    pub from: usize,
    pub to: usize,
    pub promo: Option<char>,
    pub ep: bool,
    pub castle: bool,
}

fn name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

impl SMove {
    pub fn uci(&self) -> String {
        let mut s = format!("{}{}", name(self.from), name(self.to));
        if let Some(p) = self.promo {
            s.push(p);
        }
        s
    }
}

fn at(file: i32, rank: i32) -> Option<usize> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as usize)
    } else {
        None
    }
}

fn fr(sq: usize) -> (i32, i32) {
    ((sq % 8) as i32, (sq / 8) as i32)
}

const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Simple {
    pub fn from_fen(text: &str) -> Simple {
        let f: Vec<&str> = text.split_whitespace().collect();
        let mut cells = [Cell::Empty; 64];
        for (i, row) in f[0].split('/').enumerate() {
            let rank = 7 - i;
            let mut file = 0;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file += d as usize;
                } else {
                    cells[rank * 8 + file] = if ch == '*' {
                        Cell::Ice
                    } else {
                        Cell::Piece(ch.is_ascii_uppercase(), ch.to_ascii_lowercase())
                    };
                    file += 1;
                }
            }
        }
        let c = f[2];
        let ep = if f[3] == "-" {
            None
        } else {
            let b = f[3].as_bytes();
            Some(((b[1] - b'1') * 8 + (b[0] - b'a')) as usize)
        };
        Simple {
            cells,
            white: f[1] == "w",
            castle: [
                c.contains('K'),
                c.contains('Q'),
                c.contains('k'),
                c.contains('q'),
            ],
            ep,
            half: f[4].parse().expect("half"),
            full: f[5].parse().expect("full"),
        }
    }

    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut run = 0;
            for file in 0..8 {
                match self.cells[rank * 8 + file] {
                    Cell::Empty => run += 1,
                    other => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        s.push(match other {
                            Cell::Ice => '*',
                            Cell::Piece(true, r) => r.to_ascii_uppercase(),
                            Cell::Piece(false, r) => r,
                            Cell::Empty => unreachable!(),
                        });
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.white { " w " } else { " b " });
        let mut c = String::new();
        for (i, ch) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            if self.castle[i] {
                c.push(ch);
            }
        }
        if c.is_empty() {
            c.push('-');
        }
        s.push_str(&c);
        s.push(' ');
        s.push_str(&self.ep.map_or("-".to_string(), name));
        s.push_str(&format!(" {} {}", self.half, self.full));
        s
    }

    fn king(&self, white: bool) -> Option<usize> {
        (0..64).find(|&i| self.cells[i] == Cell::Piece(white, 'k'))
    }

    /// Is `sq` attacked by a piece of colour `by_white`? Ice never attacks (C3) and blocks (C2).
    pub fn attacked(&self, sq: usize, by_white: bool) -> bool {
        let (f, r) = fr(sq);
        let is = |file: i32, rank: i32, roles: &str| -> bool {
            match at(file, rank).map(|i| self.cells[i]) {
                Some(Cell::Piece(w, role)) => w == by_white && roles.contains(role),
                _ => false,
            }
        };
        let pawn_rank = if by_white { r - 1 } else { r + 1 };
        if is(f - 1, pawn_rank, "p") || is(f + 1, pawn_rank, "p") {
            return true;
        }
        if KNIGHT.iter().any(|&(df, dr)| is(f + df, r + dr, "n")) {
            return true;
        }
        if KING.iter().any(|&(df, dr)| is(f + df, r + dr, "k")) {
            return true;
        }
        for (dirs, roles) in [(ROOK_DIRS, "rq"), (BISHOP_DIRS, "bq")] {
            for (df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(i) = at(x, y) {
                    match self.cells[i] {
                        Cell::Empty => {}
                        Cell::Ice => break,
                        Cell::Piece(w, role) => {
                            if w == by_white && roles.contains(role) {
                                return true;
                            }
                            break;
                        }
                    }
                    x += df;
                    y += dr;
                }
            }
        }
        false
    }

    fn pseudo(&self) -> Vec<SMove> {
        let me = self.white;
        let mut out = Vec::new();
        let mut add = |from: usize, to: usize, promo_rank: bool, ep: bool, castle: bool| {
            if promo_rank {
                for p in ['q', 'r', 'b', 'n'] {
                    out.push(SMove {
                        from,
                        to,
                        promo: Some(p),
                        ep,
                        castle,
                    });
                }
            } else {
                out.push(SMove {
                    from,
                    to,
                    promo: None,
                    ep,
                    castle,
                });
            }
        };
        // May a piece of ours end on `i`? Empty, ice or an enemy piece.
        let target = |i: usize| match self.cells[i] {
            Cell::Piece(w, _) => w != me,
            _ => true,
        };
        for from in 0..64 {
            let Cell::Piece(w, role) = self.cells[from] else {
                continue;
            };
            if w != me {
                continue;
            }
            let (f, r) = fr(from);
            match role {
                'p' => {
                    let dir = if me { 1 } else { -1 };
                    let last = if me { 7 } else { 0 };
                    let start = if me { 1 } else { 6 };
                    if let Some(one) = at(f, r + dir)
                        && self.cells[one] == Cell::Empty
                    {
                        add(from, one, r + dir == last, false, false);
                        if r == start
                            && let Some(two) = at(f, r + 2 * dir)
                            && self.cells[two] == Cell::Empty
                        {
                            add(from, two, false, false, false);
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = at(f + df, r + dir) {
                            match self.cells[t] {
                                Cell::Ice => add(from, t, r + dir == last, false, false),
                                Cell::Piece(w2, _) if w2 != me => {
                                    add(from, t, r + dir == last, false, false)
                                }
                                Cell::Empty if self.ep == Some(t) => {
                                    add(from, t, false, true, false)
                                }
                                _ => {}
                            }
                        }
                    }
                }
                'n' | 'k' => {
                    let steps = if role == 'n' { KNIGHT } else { KING };
                    for (df, dr) in steps {
                        if let Some(t) = at(f + df, r + dr)
                            && target(t)
                        {
                            add(from, t, false, false, false);
                        }
                    }
                }
                _ => {
                    let mut dirs = Vec::new();
                    if role == 'r' || role == 'q' {
                        dirs.extend(ROOK_DIRS);
                    }
                    if role == 'b' || role == 'q' {
                        dirs.extend(BISHOP_DIRS);
                    }
                    for (df, dr) in dirs {
                        let (mut x, mut y) = (f + df, r + dr);
                        while let Some(t) = at(x, y) {
                            if self.cells[t] == Cell::Empty {
                                add(from, t, false, false, false);
                            } else {
                                if target(t) {
                                    add(from, t, false, false, false);
                                }
                                break;
                            }
                            x += df;
                            y += dr;
                        }
                    }
                }
            }
        }
        // Castling: rights, empty squares between (no ice, C2), king not in check and not
        // crossing or landing on an attacked square.
        let base = if me { 0 } else { 56 };
        let idx = if me { 0 } else { 2 };
        if self.cells[base + 4] == Cell::Piece(me, 'k') {
            if self.castle[idx]
                && self.cells[base + 7] == Cell::Piece(me, 'r')
                && self.cells[base + 5] == Cell::Empty
                && self.cells[base + 6] == Cell::Empty
                && ![4, 5, 6].iter().any(|&d| self.attacked(base + d, !me))
            {
                add(base + 4, base + 6, false, false, true);
            }
            if self.castle[idx + 1]
                && self.cells[base] == Cell::Piece(me, 'r')
                && (1..4).all(|d| self.cells[base + d] == Cell::Empty)
                && ![4, 3, 2].iter().any(|&d| self.attacked(base + d, !me))
            {
                add(base + 4, base + 2, false, false, true);
            }
        }
        out
    }

    /// The position after `m`, before checking legality and before any Ice Age.
    fn make(&self, m: &SMove) -> Simple {
        let mut s = self.clone();
        let me = self.white;
        let moving = s.cells[m.from];
        let Cell::Piece(_, role) = moving else {
            panic!("no piece on {}", name(m.from));
        };
        s.half += 1;
        if matches!(s.cells[m.to], Cell::Piece(..)) || m.ep {
            s.half = 0;
        }
        if role == 'p' {
            s.half = 0;
        }
        if m.ep {
            let victim = if me { m.to - 8 } else { m.to + 8 };
            s.cells[victim] = Cell::Empty;
        }
        s.cells[m.from] = Cell::Empty;
        s.cells[m.to] = match m.promo {
            Some(p) => Cell::Piece(me, p),
            None => moving,
        };
        if m.castle {
            let (rf, rt) = if m.to > m.from {
                (m.from + 3, m.from + 1)
            } else {
                (m.from - 4, m.from - 1)
            };
            s.cells[rt] = s.cells[rf];
            s.cells[rf] = Cell::Empty;
        }
        s.ep = None;
        if role == 'p' && m.from.abs_diff(m.to) == 16 {
            let (f, r) = fr(m.to);
            let beside = [at(f - 1, r), at(f + 1, r)];
            if beside
                .iter()
                .flatten()
                .any(|&i| s.cells[i] == Cell::Piece(!me, 'p'))
            {
                s.ep = Some((m.from + m.to) / 2);
            }
        }
        s
    }

    /// The en-passant square stays only when an en-passant capture onto it is legal (the
    /// rule of C1 in `docs/rules/iceage.md`).
    fn keep_legal_en_passant(&mut self) {
        let me = self.white;
        let legal = self.pseudo().iter().filter(|m| m.ep).any(|m| {
            let after = self.make(m);
            after.king(me).is_some_and(|k| !after.attacked(k, !me))
        });
        if !legal {
            self.ep = None;
        }
    }

    fn normalise_castling(&mut self) {
        let need = [(4, 7, true), (4, 0, true), (60, 63, false), (60, 56, false)];
        for (i, (k, r, w)) in need.into_iter().enumerate() {
            if self.cells[k] != Cell::Piece(w, 'k') || self.cells[r] != Cell::Piece(w, 'r') {
                self.castle[i] = false;
            }
        }
    }

    /// The Ice Age of C6, judged on `self` as a whole.
    pub fn ice_age(&mut self) -> usize {
        let piece = |c: Cell| matches!(c, Cell::Piece(..));
        let mut freeze = Vec::new();
        let mut fill = Vec::new();
        for i in 0..64 {
            let (f, r) = fr(i);
            if piece(self.cells[i]) {
                let lonely = KING
                    .iter()
                    .all(|&(df, dr)| at(f + df, r + dr).is_none_or(|j| !piece(self.cells[j])));
                if lonely {
                    freeze.push(i);
                }
            } else if self.cells[i] == Cell::Empty {
                let closed = ROOK_DIRS
                    .iter()
                    .all(|&(df, dr)| at(f + df, r + dr).is_none_or(|j| piece(self.cells[j])));
                if !closed {
                    fill.push(i);
                }
            }
        }
        for &i in freeze.iter().chain(fill.iter()) {
            self.cells[i] = Cell::Ice;
        }
        if !freeze.is_empty() {
            self.half = 0;
        }
        if let Some(ep) = self.ep
            && self.cells[ep] == Cell::Ice
        {
            self.ep = None;
        }
        freeze.len()
    }

    /// Legal moves with their resulting positions (Ice Age applied), ignoring the
    /// fifty-move rule; none when a king is missing.
    pub fn board_moves(&self) -> Vec<(SMove, Simple)> {
        let me = self.white;
        if self.king(true).is_none() || self.king(false).is_none() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for m in self.pseudo() {
            let mut s = self.make(&m);
            let Some(k) = s.king(me) else { continue };
            if s.attacked(k, !me) {
                continue;
            }
            if !me {
                if self.full.is_multiple_of(20) {
                    s.ice_age();
                }
                s.full += 1;
            }
            s.white = !me;
            s.normalise_castling();
            s.keep_legal_en_passant();
            out.push((m, s));
        }
        out
    }

    pub fn in_check(&self) -> bool {
        self.king(self.white)
            .is_some_and(|k| self.attacked(k, !self.white))
    }

    /// Legal moves, none when the game is over (the fifty-move rule included).
    pub fn legal(&self) -> Vec<(SMove, Simple)> {
        let moves = self.board_moves();
        if self.half >= 100 && !(moves.is_empty() && self.in_check()) {
            return Vec::new();
        }
        moves
    }

    /// `1-0`/`0-1`/`1/2-1/2` with the reason, or `None`.
    pub fn outcome(&self) -> Option<String> {
        match (self.king(true).is_some(), self.king(false).is_some()) {
            (false, false) => return Some("1/2-1/2 draw (both kings frozen)".into()),
            (true, false) => return Some("1-0 white wins (frozen king)".into()),
            (false, true) => return Some("0-1 black wins (frozen king)".into()),
            _ => {}
        }
        if self.board_moves().is_empty() {
            if self.in_check() {
                return Some(if self.white {
                    "0-1 black wins (checkmate)".into()
                } else {
                    "1-0 white wins (checkmate)".into()
                });
            }
            return Some("1/2-1/2 draw (stalemate)".into());
        }
        if self.half >= 100 {
            return Some("1/2-1/2 draw (fifty-move rule)".into());
        }
        None
    }
}

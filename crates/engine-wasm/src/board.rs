//! A position as the page's board needs it, in the shape of the server's `POST /api/positions`
//! answer (`crates/site/src/positions.rs`, `PositionView` in web/src/api.ts): every legal move
//! with its machine id, squares and the position after it, the result, and the game's own
//! facts. With it the analysis board and the offline game walk a game with no server at all.

use antarctos::Antarctos;
use game::{Color, Outcome, Variant};
use iceage::IceAge;
use serde::Serialize;

use crate::Game;

/// One legal move and where it leads (the server's `NextView`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextMove {
    /// Machine form (`c3-d4`, `e2e4`).
    pub id: String,
    /// Canonical notation (A16, C13).
    pub text: String,
    /// Every square visited, from the start square (`a1` to `h8`).
    pub path: Vec<String>,
    /// The position after the move, canonical.
    pub fen: String,
    /// Ice Age Chess: the Ice Age the move brings (`Ice Age: Rh1 frozen`), else `null`.
    pub event: Option<String>,
}

/// How a finished position ended (the server's `ResultView`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResultInfo {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// `white`, `black`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// The stable reason code (`breakthrough`, `checkmate`, `frozen king`, ...).
    pub reason: &'static str,
    /// The CLI's English line (`0-1 black wins (breakthrough)`); the page words it itself.
    pub words: String,
}

/// A position for the board: [`crate::Session::board_view`]'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// `antarctos` or `iceage`.
    pub variant: Game,
    /// The position, canonical.
    pub fen: String,
    /// `white` or `black`.
    pub turn: &'static str,
    /// The move number of the side to move.
    pub number: u32,
    /// Every legal move, in the rules crate's order; empty when the game is over.
    pub legal: Vec<NextMove>,
    /// The result when the game is over, else `null`.
    pub result: Option<ResultInfo>,
    /// Antarctos: every legal turn starts with a capture (A9).
    pub capture_compulsory: bool,
    /// Ice Age Chess: Black moves until the next Ice Age, counting the one that brings it
    /// (C5); `null` in Antarctos.
    pub ice_age_in: Option<u32>,
}

/// The facts one game adds to the common ones.
pub(crate) trait BoardFacts: Variant {
    /// The game's name.
    const GAME: Game;
    /// What the move did besides moving, as a note.
    fn event(_pos: &Self::Position, _mv: &Self::Move) -> Option<String> {
        None
    }
    /// Whether a capture is compulsory.
    fn capture_compulsory(_pos: &Self::Position) -> bool {
        false
    }
    /// Black moves until the next Ice Age.
    fn ice_age_in(_pos: &Self::Position) -> Option<u32> {
        None
    }
}

impl BoardFacts for Antarctos {
    const GAME: Game = Game::Antarctos;
    fn capture_compulsory(pos: &Self::Position) -> bool {
        pos.must_capture()
    }
}

impl BoardFacts for IceAge {
    const GAME: Game = Game::Iceage;
    fn event(pos: &Self::Position, mv: &Self::Move) -> Option<String> {
        iceage::ice_age_comment(pos, mv)
    }
    fn ice_age_in(pos: &Self::Position) -> Option<u32> {
        // plies_to_ice_age counts White's moves too (2k+1 with Black to move, 2k+2 with
        // White to move, for k more Black moves before the one that brings it).
        Some(pos.plies_to_ice_age().div_ceil(2))
    }
}

/// The 64 squares' names, a1 = 0 to h8 = 63, as the server names them.
fn square_name(sq: u8) -> String {
    let file = char::from(b'a' + sq % 8);
    let rank = char::from(b'1' + sq / 8);
    if sq < 64 {
        format!("{file}{rank}")
    } else {
        "??".to_string()
    }
}

const fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn result_info(o: Outcome) -> ResultInfo {
    ResultInfo {
        result: o.result_text(),
        winner: o.winner().map(color_name),
        reason: o.reason().as_str(),
        words: o.to_string(),
    }
}

/// The board's view of `pos`.
pub(crate) fn board_view<V: BoardFacts>(pos: &V::Position) -> BoardView {
    let result = V::outcome(pos).map(result_info);
    let legal = if result.is_some() {
        Vec::new()
    } else {
        V::legal_moves(pos)
            .iter()
            .map(|mv| NextMove {
                id: V::move_id(pos, mv),
                text: V::move_text(pos, mv),
                path: V::move_path(mv).into_iter().map(square_name).collect(),
                fen: V::position_text(&V::play_unchecked(pos, mv)),
                event: V::event(pos, mv),
            })
            .collect()
    };
    BoardView {
        variant: V::GAME,
        fen: V::position_text(pos),
        turn: color_name(V::side_to_move(pos)),
        number: V::fullmove_number(pos),
        legal,
        result,
        capture_compulsory: V::capture_compulsory(pos),
        ice_age_in: V::ice_age_in(pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_as_the_server_names_them() {
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(7), "h1");
        assert_eq!(square_name(63), "h8");
        assert_eq!(square_name(64), "??");
    }

    #[test]
    fn example_1_has_its_moves_with_squares_and_a_finished_position_its_result() {
        let pos = Antarctos::parse_position("B:Wa5,d2,d4:Ba7,c7").expect("a position");
        let v = board_view::<Antarctos>(&pos);
        assert_eq!(
            (v.turn, v.variant, v.result.as_ref()),
            ("black", Game::Antarctos, None)
        );
        let b6 = v.legal.iter().find(|m| m.text == "c7-b6").expect("c7-b6");
        assert_eq!(b6.path, ["c7", "b6"]);
        assert!(b6.fen.starts_with("W:"), "{}", b6.fen);

        let over = Antarctos::parse_position("W:Wc7:Bc1:Id2,d4").expect("a position");
        let v = board_view::<Antarctos>(&over);
        let r = v.result.expect("a result");
        assert!(v.legal.is_empty());
        assert_eq!(
            (r.result, r.winner, r.reason),
            ("0-1", Some("black"), "breakthrough")
        );
    }

    #[test]
    fn ice_age_chess_counts_to_its_ice_age() {
        let v = board_view::<IceAge>(&IceAge::start_position());
        assert_eq!(
            v.legal.len(),
            game::sorted_move_texts::<IceAge>(&IceAge::start_position()).len()
        );
        assert_eq!(v.ice_age_in, Some(20));
        let ids: Vec<_> = v
            .legal
            .iter()
            .map(|m| (m.id.as_str(), m.path.join("-")))
            .collect();
        assert!(
            ids.iter().any(|(id, p)| *id == "g1f3" && p == "g1-f3"),
            "{ids:?}"
        );
    }
}

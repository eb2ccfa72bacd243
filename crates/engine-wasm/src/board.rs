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
    /// Ice Age Chess: what the Ice Age this move brings does, as the server's `ice_age`
    /// (`IceAgeView` in crates/site/src/view.rs); sent only for such a move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ice_age: Option<IceAgeInfo>,
}

/// What one Ice Age does (C5-C7), in the server's shape (`IceAgeView`): squares named `a1` to
/// `h8`. The facts are the rules crate's ([`iceage::facts`]); this names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IceAgeInfo {
    /// The isolated pieces that froze (C6), by square name.
    pub frozen: Vec<FrozenInfo>,
    /// The empty squares that received ice (frozen squares not repeated), a1, b1, ... h8.
    pub filled: Vec<String>,
    /// The empty squares left empty: closed on all four orthogonal sides (C6).
    pub closed: Vec<String>,
    /// The position right after the move, before the Ice Age: the one it was judged on.
    pub before_fen: String,
    /// Kings that froze (C7: one loses, two draw): `white`, `black`.
    pub kings_frozen: Vec<Color>,
}

/// A piece that froze in an Ice Age (the server's `FrozenView`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FrozenInfo {
    /// Its square.
    pub square: String,
    /// Its colour.
    pub color: Color,
    /// Its role as FEN's lower-case letter: `k`, `q`, `r`, `b`, `n`, `p`.
    pub role: String,
}

impl From<iceage::IceAgeFacts> for IceAgeInfo {
    fn from(facts: iceage::IceAgeFacts) -> Self {
        IceAgeInfo {
            frozen: facts
                .frozen
                .iter()
                .map(|(sq, piece)| FrozenInfo {
                    square: sq.to_string(),
                    color: iceage::to_game_color(piece.color),
                    role: piece.role.char().to_string(),
                })
                .collect(),
            filled: names(facts.filled),
            closed: names(facts.closed),
            before_fen: IceAge::position_text(&facts.before),
            kings_frozen: facts.kings_frozen,
        }
    }
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
    /// The result in an English sentence, the same as the server's (`game::result_words`:
    /// "Black wins: every White man is frozen"); pages word it themselves from `winner` and
    /// `reason`.
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
    /// What the Ice Age the move brings does.
    fn ice_age(_pos: &Self::Position, _mv: &Self::Move) -> Option<IceAgeInfo> {
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
    fn ice_age(pos: &Self::Position, mv: &Self::Move) -> Option<IceAgeInfo> {
        iceage::facts::ice_age_facts(pos, mv).map(IceAgeInfo::from)
    }
    fn ice_age_in(pos: &Self::Position) -> Option<u32> {
        Some(iceage::facts::black_moves_to_ice_age(pos))
    }
}

/// The names of `squares`, in their order.
fn names<S: ToString>(squares: impl IntoIterator<Item = S>) -> Vec<String> {
    squares.into_iter().map(|sq| sq.to_string()).collect()
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
        words: o.words(),
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
                ice_age: V::ice_age(pos, mv),
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

    #[test]
    fn an_ice_age_move_carries_the_servers_ice_age_facts_byte_for_byte() {
        // The same text as the server's (crates/server/tests/it/json_shape.rs): both kings
        // freeze (C7) and a1, closed by a2, b1 and the edges, stays empty (C6).
        let pos = IceAge::parse_position("4k3/8/8/8/8/8/P7/1N2K2R b K - 0 20").expect("a position");
        let v = board_view::<IceAge>(&pos);
        let kd8 = v.legal.iter().find(|m| m.id == "e8d8").expect("Kd8");
        let want = concat!(
            r#"{"id":"e8d8","text":"Kd8","path":["e8","d8"],"#,
            r#""fen":"********/********/********/********/********/********/P*******/1N****** w - - 0 21","#,
            r#""event":"Ice Age: Kd8, Ke1, Rh1 frozen","ice_age":{"frozen":[{"square":"d8","#,
            r#""color":"black","role":"k"},{"square":"e1","color":"white","role":"k"},{"square":"h1","#,
            r#""color":"white","role":"r"}],"filled":["c1","d1","f1","g1","b2","c2","d2","e2","f2","#,
            r#""g2","h2","a3","b3","c3","d3","e3","f3","g3","h3","a4","b4","c4","d4","e4","f4","g4","#,
            r#""h4","a5","b5","c5","d5","e5","f5","g5","h5","a6","b6","c6","d6","e6","f6","g6","h6","#,
            r#""a7","b7","c7","d7","e7","f7","g7","h7","a8","b8","c8","e8","f8","g8","h8"],"#,
            r#""closed":["a1"],"before_fen":"3k4/8/8/8/8/8/P7/1N2K2R w K - 1 21","#,
            r#""kings_frozen":["black","white"]}}"#,
        );
        assert_eq!(crate::to_json(kd8), want);
        // A move that brings no Ice Age sends no `ice_age` at all, as the server.
        let start = board_view::<IceAge>(&IceAge::start_position());
        assert!(start.legal.iter().all(|m| m.ice_age.is_none()));
        assert!(!crate::to_json(&start.legal[0]).contains("ice_age"));
    }
}

//! Ice cases beyond the decision tests: ice in the middle of pins, checks and en passant.

use crate::common;

use common::{pos, uci_moves};

fn from(p: &iceage::Position, sq: &str) -> Vec<String> {
    uci_moves(p)
        .into_iter()
        .filter(|m| m.starts_with(sq))
        .collect()
}

#[test]
fn c2_bishop_and_queen_stop_at_ice() {
    let p = pos("4k3/8/8/8/3*4/8/1B6/4K2Q w - - 0 1");
    assert_eq!(from(&p, "b2"), ["b2a1", "b2a3", "b2c1", "b2c3", "b2d4"]);
    let p = pos("4k3/8/8/8/8/8/6**/4K1*Q w - - 0 1");
    assert_eq!(from(&p, "h1"), ["h1g1", "h1g2", "h1h2"]);
}

#[test]
fn c2_ice_between_king_and_slider_is_no_pin_and_no_check() {
    // The bishop d2 would be pinned by the rook d8, but ice on d5 shields it.
    let p = pos("3rk3/8/8/3*4/8/8/3B4/3K4 w - - 0 1");
    assert!(!p.is_check());
    assert!(from(&p, "d2").contains(&"d2c3".to_string()));
    // Without the ice it is pinned along the file: no diagonal moves.
    let p = pos("3rk3/8/8/8/8/8/3B4/3K4 w - - 0 1");
    assert!(from(&p, "d2").is_empty());
    // Ice between a queen and the king: no check.
    let p = pos("4k3/8/8/8/q7/1*6/8/3K4 w - - 0 1");
    assert!(!p.is_check());
}

#[test]
fn c3_en_passant_discovered_check_edge_case() {
    // Taking en passant would clear the fifth rank between the king a5 and the rook h5.
    let p = pos("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1");
    assert!(!uci_moves(&p).contains(&"b5c6".to_string()));
    // With ice on the rank the capture is fine.
    let p = pos("4k3/8/8/KPp2*1r/8/8/8/8 w - c6 0 1");
    assert!(uci_moves(&p).contains(&"b5c6".to_string()));
}

#[test]
fn c3_king_may_capture_ice_next_to_the_enemy_king_only_if_safe() {
    // The ice on d2, e2, f2 is next to the black king e3: none may be taken.
    let p = pos("8/8/8/8/8/4k3/3***2/4K3 w - - 0 1");
    assert_eq!(from(&p, "e1"), ["e1d1", "e1f1"]);
}

#[test]
fn c3_pawn_captures_ice_and_promotes_and_double_step_stops_at_ice() {
    let p = pos("4k2*/6P1/8/8/8/8/8/4K3 w - - 0 1");
    let promos = from(&p, "g7");
    assert!(promos.contains(&"g7h8q".to_string()) && promos.contains(&"g7g8n".to_string()));
    let p = pos("4k3/3p4/3*4/8/8/8/8/4K3 b - - 0 1");
    assert!(from(&p, "d7").is_empty());
}

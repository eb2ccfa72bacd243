//! Numeric draughts squares and the PDN `[FEN]` tag, translated to the algebraic squares and
//! position text of A1/A18.
//!
//! Russian and English draughts records number the 32 dark squares of the 8x8 board 1..32
//! from Black's back row: 1 = b8, 2 = d8, 3 = f8, 4 = h8, 5 = a7, ..., 29 = a1, ..., 32 = g1
//! (so White's start squares are 21..32, Black's 1..12, as in A3). International (10x10)
//! records number 1..50: a number above 32 cannot be a square of this board.

/// The algebraic name (`b8`) of 8x8 square number `n`; an error text for any other number.
pub(crate) fn numeric_to_algebraic(n: u32) -> Result<String, String> {
    match n {
        1..=32 => {
            let row = (n - 1) / 4; // 0 = rank 8
            let rank = 8 - row;
            let k = (n - 1) % 4;
            // Rank 8, 6, 4, 2 start at file b; rank 7, 5, 3, 1 at file a (A1: a1 is dark).
            let file = if rank.is_multiple_of(2) {
                2 * k + 1
            } else {
                2 * k
            };
            Ok(format!("{}{}", char::from(b'a' + file as u8), rank))
        }
        33..=50 => Err(format!(
            "square {n} is not of an 8x8 board (numbers 1-32 there; up to 50 is 10x10 international numbering)"
        )),
        _ => Err(format!(
            "square {n} is not a draughts square number (1-32 on an 8x8 board)"
        )),
    }
}

/// Translates a PDN FEN tag value into A18 position text. Accepts the standard form
/// (`W:W21,22,...:B1,2,...`, numeric squares in any order, ranges `1-12`, a trailing `.`)
/// and the A18 algebraic form with an optional `:I` ice field. Kings (`K15`) do not exist
/// in Antarctos (A2), and the side `?` is not a position: both are errors.
pub(crate) fn fen_to_position_text(value: &str) -> Result<String, String> {
    let text = value.trim();
    let text = text.strip_suffix('.').unwrap_or(text).trim();
    let mut fields = text.split(':');
    let side = match fields.next().map(str::trim) {
        Some(s) if s.eq_ignore_ascii_case("w") => "W",
        Some(s) if s.eq_ignore_ascii_case("b") => "B",
        Some(s) => {
            return Err(format!(
                "side to move '{s}' is not W or B (an Antarctos position needs one)"
            ));
        }
        None => return Err("empty FEN".into()),
    };
    let mut lists: [Option<Vec<String>>; 3] = [None, None, None];
    for field in fields {
        let field = field.trim();
        let Some(kind) = field.chars().next() else {
            return Err("empty field between ':'".into());
        };
        let slot = match kind.to_ascii_uppercase() {
            'W' => 0,
            'B' => 1,
            'I' => 2,
            _ => {
                return Err(format!(
                    "field '{field}' is not a W, B or I list of squares"
                ));
            }
        };
        if lists[slot].is_some() {
            return Err(format!("field {kind} appears twice"));
        }
        let mut squares = Vec::new();
        for item in field[1..]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            squares.extend(fen_item(item)?);
        }
        lists[slot] = Some(squares);
    }
    let [white, black, ice] = lists;
    let mut out = format!(
        "{side}:W{}:B{}",
        white.unwrap_or_default().join(","),
        black.unwrap_or_default().join(",")
    );
    if let Some(ice) = ice {
        out.push_str(":I");
        out.push_str(&ice.join(","));
    }
    Ok(out)
}

/// One item of a FEN square list: `22`, `1-12`, `c3`; `K15` is refused.
fn fen_item(item: &str) -> Result<Vec<String>, String> {
    if item.starts_with(['K', 'k']) && item[1..].bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!(
            "'{item}' is a king: there are no kings in Antarctos (A2)"
        ));
    }
    if item.bytes().all(|c| c.is_ascii_digit()) {
        let n: u32 = item.parse().map_err(|_| format!("bad square '{item}'"))?;
        return Ok(vec![numeric_to_algebraic(n)?]);
    }
    if let Some((a, b)) = item.split_once('-')
        && let (Ok(a), Ok(b)) = (a.trim().parse::<u32>(), b.trim().parse::<u32>())
    {
        if a > b {
            return Err(format!("range '{item}' runs backwards"));
        }
        return (a..=b).map(numeric_to_algebraic).collect();
    }
    // Algebraic (A18): the position parser judges it.
    Ok(vec![item.to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_a3_start() {
        let white: Vec<String> = (21..=32)
            .map(|n| numeric_to_algebraic(n).unwrap())
            .collect();
        assert_eq!(
            white,
            [
                "a3", "c3", "e3", "g3", "b2", "d2", "f2", "h2", "a1", "c1", "e1", "g1"
            ]
        );
        let black: Vec<String> = (1..=12).map(|n| numeric_to_algebraic(n).unwrap()).collect();
        assert_eq!(
            black,
            [
                "b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7", "b6", "d6", "f6", "h6"
            ]
        );
        // The classic opening move 22-18 is c3-d4.
        assert_eq!(numeric_to_algebraic(22).unwrap(), "c3");
        assert_eq!(numeric_to_algebraic(18).unwrap(), "d4");
    }

    #[test]
    fn ten_by_ten_numbers_are_named() {
        let e = numeric_to_algebraic(35).unwrap_err();
        assert!(e.contains("not of an 8x8 board"), "{e}");
        assert!(numeric_to_algebraic(0).is_err());
        assert!(numeric_to_algebraic(51).is_err());
    }

    #[test]
    fn standard_fen_out_of_order_with_trailing_dot() {
        let t = fen_to_position_text(
            "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.",
        )
        .unwrap();
        assert_eq!(
            t,
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        );
        assert_eq!(fen_to_position_text("B:W1-2:B30").unwrap(), "B:Wb8,d8:Bc1");
    }

    #[test]
    fn algebraic_fen_with_ice_passes_through() {
        assert_eq!(
            fen_to_position_text("W:Wb4,e3,f2:Bc7,d6:Ic3").unwrap(),
            "W:Wb4,e3,f2:Bc7,d6:Ic3"
        );
        assert_eq!(fen_to_position_text("W:W:Bc7").unwrap(), "W:W:Bc7");
    }

    #[test]
    fn kings_unknown_side_and_10x10_are_refused() {
        assert!(
            fen_to_position_text("W:W31,29,K15:B14")
                .unwrap_err()
                .contains("king")
        );
        assert!(
            fen_to_position_text("?:W29:B22")
                .unwrap_err()
                .contains("'?'")
        );
        assert!(
            fen_to_position_text("W:W31-50:B1-20")
                .unwrap_err()
                .contains("not of an 8x8 board")
        );
    }
}

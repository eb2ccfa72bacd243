use game::{PositionFault, PositionHint};

/// The hint of the error `parse` gives for `text`.
fn hint(text: &str) -> PositionHint {
    super::parse(text).expect_err(text).hint()
}

/// One unit test per code: the position text, the code, its args.
macro_rules! code {
    ($name:ident, $text:expr, $code:literal, [$($arg:literal),*]) => {
        #[test]
        fn $name() {
            let args: Vec<String> = vec![$($arg.to_string()),*];
            assert_eq!(hint($text), PositionHint { code: $code, args });
        }
    };
}

code!(c12_empty, " ", "empty", []);
code!(c12_field_count, "8/8/8/8/8/8/8/K1k5", "field_count", ["1"]);
code!(c12_rank_count, "8/8/8/8/8/8/K1k5 w", "rank_count", ["7"]);
code!(
    c12_rank_length,
    "8/8/8/8/8/8/8/K1k4 w",
    "rank_length",
    ["1", "7"]
);
code!(
    c12_unknown_letter,
    "8/8/8/8/8/8/8/K1x5 w",
    "unknown_letter",
    ["x", "1"]
);
code!(
    c12_too_many_kings,
    "8/8/8/8/8/8/8/K1k2K2 w",
    "too_many_kings",
    ["white", "2"]
);
code!(
    c12_pawn_on_back_rank,
    "P7/8/8/8/8/8/8/K1k5 w",
    "pawn_on_back_rank",
    ["a8"]
);
code!(c12_bad_turn, "8/8/8/8/8/8/8/K1k5 x", "bad_turn", ["x"]);
code!(
    c12_opposite_check,
    "k7/8/8/8/8/8/8/R3K3 w",
    "opposite_check",
    ["black"]
);
code!(
    c12_bad_castling,
    "8/8/8/8/8/8/8/K1k5 w xK",
    "bad_castling",
    ["xK"]
);
code!(
    c1_castling_without_king_and_rook,
    "8/8/8/8/8/8/8/K1k5 w K",
    "castling_without_king_and_rook",
    ["K", "e1", "h1"]
);
code!(
    c12_bad_en_passant,
    "4k3/8/8/8/8/8/8/4K3 w - z9",
    "bad_en_passant",
    ["z9"]
);
code!(
    c1_en_passant_rank,
    "4k3/8/8/8/8/8/8/4K3 w - e3",
    "en_passant_rank",
    ["e3", "6"]
);
code!(
    c1_en_passant_occupied,
    "4k3/8/4p3/8/8/8/8/4K3 w - e6",
    "en_passant_occupied",
    ["e6"]
);
code!(
    c1_en_passant_start_occupied,
    "4k3/4p3/8/4p3/8/8/8/4K3 w - e6",
    "en_passant_start_occupied",
    ["e6", "e7"]
);
code!(
    c1_en_passant_no_pawn,
    "4k3/8/8/8/8/8/8/4K3 b - d3",
    "en_passant_no_pawn",
    ["d3", "d4"]
);
code!(
    c12_bad_halfmoves,
    "4k3/8/8/8/8/8/8/4K3 w - - x",
    "bad_halfmoves",
    ["x"]
);
code!(
    c12_bad_fullmoves,
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1x",
    "bad_fullmoves",
    ["1x"]
);
code!(
    c12_fullmove_too_large,
    "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999",
    "fullmove_too_large",
    ["99999999999", "4294967295"]
);
code!(
    c12_fullmove_zero,
    "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
    "fullmove_zero",
    []
);

#[test]
fn c12_every_code_is_tested_once() {
    let tested = include_str!("tests.rs").matches("\ncode!(").count();
    // One per code of `PositionFault::hint` (its doc table).
    let listed = include_str!("mod.rs").matches("\n    /// | `").count();
    assert_eq!(tested, listed);
}

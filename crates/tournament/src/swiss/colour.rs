//! Colour preferences (FIDE handbook C.04.3, A.6) and the allocation of colours to a pair
//! (C.04.3, E.1-E.5).

use crate::record::Colour;

/// How strongly a player wants a colour (A.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// A.6.c: colour difference 0; the other colour than last time.
    Mild,
    /// A.6.b: colour difference +1 (Black) or -1 (White).
    Strong,
    /// A.6.a: colour difference above +1 or below -1, or the same colour in the two latest
    /// games played.
    Absolute,
}

/// A colour preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Preference {
    /// The colour wanted.
    pub colour: Colour,
    /// How strongly.
    pub strength: Strength,
}

/// The colour difference (whites minus blacks) of the colours of the games played.
pub fn colour_difference(played: &[Colour]) -> i32 {
    played
        .iter()
        .map(|c| match c {
            Colour::White => 1,
            Colour::Black => -1,
        })
        .sum()
}

/// The preference of a player who had the colours `played` (games played only, oldest
/// first); `None` before the first game played (A.6.d).
pub fn preference(played: &[Colour]) -> Option<Preference> {
    let last = *played.last()?;
    let cd = colour_difference(played);
    let two_same = played.len() >= 2 && played[played.len() - 2] == last;
    let (colour, strength) = if cd > 1 {
        (Colour::Black, Strength::Absolute)
    } else if cd < -1 {
        (Colour::White, Strength::Absolute)
    } else if two_same {
        (last.opposite(), Strength::Absolute)
    } else if cd == 1 {
        (Colour::Black, Strength::Strong)
    } else if cd == -1 {
        (Colour::White, Strength::Strong)
    } else {
        (last.opposite(), Strength::Mild)
    };
    Some(Preference { colour, strength })
}

/// What the allocation needs of one player of a pair.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The pairing number whose parity E.5 looks at ([`super::SwissPlayer::pairing_number`]).
    pub pairing_number: u32,
    /// The colours by round (`None`: no game played that round), oldest first.
    pub by_round: &'a [Option<Colour>],
    /// The preference.
    pub preference: Option<Preference>,
    /// The colour difference.
    pub difference: i32,
}

/// The colour of `higher` (the higher ranked of the pair, A.2) by E.1-E.5; the other player
/// has the other colour. `initial` is the colour that odd TPNs get by E.5.
pub fn allocate(higher: &Side<'_>, lower: &Side<'_>, initial: Colour) -> Colour {
    match (higher.preference, lower.preference) {
        // E.1: both preferences granted when they differ or one has none.
        (Some(h), Some(l)) if h.colour != l.colour => return h.colour,
        (Some(h), None) => return h.colour,
        (None, Some(l)) => return l.colour.opposite(),
        (Some(h), Some(l)) => {
            // E.2: the stronger preference; two absolute ones: the wider colour difference.
            if h.strength != l.strength {
                return if h.strength > l.strength {
                    h.colour
                } else {
                    h.colour.opposite()
                };
            }
            if h.strength == Strength::Absolute && higher.difference.abs() != lower.difference.abs()
            {
                return if higher.difference.abs() > lower.difference.abs() {
                    h.colour
                } else {
                    h.colour.opposite()
                };
            }
        }
        (None, None) => {}
    }
    // E.3: alternate from the most recent time in which they had different colours: the
    // games played of each, aligned from the latest (unplayed rounds skipped, C.04.2.D.5).
    let h_played = higher.by_round.iter().rev().flatten();
    let l_played = lower.by_round.iter().rev().flatten();
    for (h, l) in h_played.zip(l_played) {
        if h != l {
            return h.opposite();
        }
    }
    // E.4: the higher ranked player's preference.
    if let Some(h) = higher.preference {
        return h.colour;
    }
    // E.5: an odd pairing number: the initial colour.
    if higher.pairing_number % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}

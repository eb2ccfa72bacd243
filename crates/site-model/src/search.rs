//! Game search's plain values (issue 41, `GET /api/games/search`): the result and speed
//! filters, and the calendar day (`YYYY-MM-DD`, UTC) its date range is given in.

game::text_enum! {
    /// The `result` filter. `win`, `loss` are from the searched player's side (they need a
    /// `player`); `white`, `black` name the winning colour; `draw` is a draw either way.
    pub enum ResultFilter ("result") {
        /// The player won.
        Win = "win",
        /// The player lost.
        Loss = "loss",
        /// Drawn.
        Draw = "draw",
        /// White won.
        White = "white",
        /// Black won.
        Black = "black",
    }
}

game::text_enum! {
    /// The `speed` filter: the clock's speed class (`clock::Speed`), or no clock.
    pub enum SpeedFilter ("speed") {
        /// A real-time clock.
        Realtime = "realtime",
        /// A correspondence clock.
        Correspondence = "correspondence",
        /// No clock (the `speed` column is NULL).
        Unlimited = "unlimited",
    }
}

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

/// The Unix ms of midnight UTC starting day `text` (`YYYY-MM-DD`, years 1970 to 9999);
/// `None` for any other text or a day that does not exist (`2025-02-30`).
pub fn day_start_ms(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = &text[r];
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())
            .flatten()
    };
    let (y, m, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if y < 1970 || d < 1 || d > days_in {
        return None;
    }
    Some(days_from_civil(y, m, d) * DAY_MS)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_read_exactly() {
        assert_eq!(day_start_ms("1970-01-01"), Some(0));
        assert_eq!(day_start_ms("1970-01-02"), Some(DAY_MS));
        // 2024-02-29 00:00 UTC = 1709164800 s.
        assert_eq!(day_start_ms("2024-02-29"), Some(1_709_164_800_000));
        assert_eq!(day_start_ms("2000-03-01"), Some(951_868_800_000));
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-00-10",
            "2024-1-01",
            "24-01-01",
            "",
            "2024/01/01",
            "2024-01-32",
            "+024-01-01",
            "1969-12-31",
            "2024-01-0a",
        ] {
            assert_eq!(day_start_ms(bad), None, "{bad}");
        }
    }
}

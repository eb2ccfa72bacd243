//! Game search's plain values (issue 41, `GET /api/games/search`): the result and speed
//! filters, the calendar day (`YYYY-MM-DD`, UTC) its date range is given in, and the cursor
//! that walks its pages.

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

/// Where a walk of search pages stands: the last game of the page read (its start, Unix ms,
/// and its id), so the next page begins strictly after it in the order "newest start first,
/// then highest id". Unlike a page number it does not shift when games finish during the walk
/// (issue 41's clients round, finding 1). Text form `<created_at>.<id>`, e.g.
/// `1796000000000.k3J9xQ2a`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchCursor {
    /// The last game's start, Unix ms.
    pub created_at: i64,
    /// The last game's id (ASCII letters and digits, at most 32).
    pub id: String,
}

impl SearchCursor {
    /// Reads the text form; `None` for anything else.
    pub fn parse(text: &str) -> Option<SearchCursor> {
        let (ms, id) = text.split_once('.')?;
        let created_at = ms.parse::<i64>().ok().filter(|ms| *ms >= 0)?;
        let id_ok = (1..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric());
        (id_ok && ms.bytes().all(|b| b.is_ascii_digit())).then(|| SearchCursor {
            created_at,
            id: id.to_string(),
        })
    }
}

impl std::fmt::Display for SearchCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.created_at, self.id)
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
    fn a_cursor_reads_back_what_it_writes_and_nothing_else() {
        let c = SearchCursor {
            created_at: 1_796_000_000_000,
            id: "k3J9xQ2a".into(),
        };
        assert_eq!(c.to_string(), "1796000000000.k3J9xQ2a");
        assert_eq!(SearchCursor::parse(&c.to_string()), Some(c));
        for bad in [
            "",
            "1796000000000",
            "1796000000000.",
            ".k3J9xQ2a",
            "-5.k3J9xQ2a",
            "+5.k3J9xQ2a",
            "17x.k3J9xQ2a",
            "1.k3J9-xQ2a",
            "1.a.b",
            "99999999999999999999.a",
        ] {
            assert_eq!(SearchCursor::parse(bad), None, "{bad}");
        }
    }

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

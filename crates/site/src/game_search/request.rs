//! `GET /api/games/search`'s query, as sent ([`SearchParams`], every field text, unknown
//! fields refused by serde) and as checked ([`SearchInput`], by `TryFrom` at the edge): each
//! bad field is named in its 400.

use serde::Deserialize;

use site_model::error::SiteError;
use site_model::search::{DAY_MS, ResultFilter, SearchCursor, SpeedFilter, day_start_ms};
use site_model::state::GameKind;

/// Highest page number (with [`super::PER_PAGE`] games a page: 30,000 games).
pub const MAX_PAGE: i64 = 1000;
/// Longest account name looked up (longer names name no account).
const MAX_NAME_CHARS: usize = 64;

/// The query as sent: `player`, `opponent`, `variant`, `result`, `rated`, `speed`, `from`,
/// `to`, `page`, `after`, each optional; an empty value counts as absent (a form's empty field).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// An account's name.
    pub player: Option<String>,
    /// The opponent's account name (needs `player`).
    pub opponent: Option<String>,
    /// `antarctos` or `iceage`.
    pub variant: Option<String>,
    /// `win`, `loss` (need `player`), `draw`, `white`, `black`.
    pub result: Option<String>,
    /// `true` or `false`.
    pub rated: Option<String>,
    /// `realtime`, `correspondence` or `unlimited`.
    pub speed: Option<String>,
    /// First day, `YYYY-MM-DD` (UTC).
    pub from: Option<String>,
    /// Last day, `YYYY-MM-DD` (UTC), included.
    pub to: Option<String>,
    /// Page from 1 (default 1).
    pub page: Option<String>,
    /// A cursor, `<created_at>.<id>`: the games after that one (a previous answer's `cursor`).
    pub after: Option<String>,
}

/// A checked search: what `GameSearch::search` runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchInput {
    /// The player's account name, as typed.
    pub player: Option<String>,
    /// The opponent's account name.
    pub opponent: Option<String>,
    /// The game.
    pub variant: Option<GameKind>,
    /// The result.
    pub result: Option<ResultFilter>,
    /// Rated or casual.
    pub rated: Option<bool>,
    /// The speed class.
    pub speed: Option<SpeedFilter>,
    /// Unix ms of the first day's start.
    pub from_ms: Option<i64>,
    /// Unix ms of the end of the last day (exclusive).
    pub until_ms: Option<i64>,
    /// Page from 1.
    pub page: i64,
    /// The games after this one (instead of a page number).
    pub after: Option<SearchCursor>,
}

fn field(name: &str, message: impl std::fmt::Display) -> SiteError {
    SiteError::bad_request(format!("{name}: {message}"))
}

/// The value of a field, trimmed; `None` when absent or blank.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn name(label: &str, value: &Option<String>) -> Result<Option<String>, SiteError> {
    match given(value) {
        Some(v) if v.chars().count() > MAX_NAME_CHARS => Err(field(
            label,
            format!("a name is at most {MAX_NAME_CHARS} characters"),
        )),
        v => Ok(v.map(str::to_string)),
    }
}

fn one_of<T>(
    label: &str,
    value: &Option<String>,
    parse: impl Fn(&str) -> Option<T>,
    words: &str,
) -> Result<Option<T>, SiteError> {
    given(value)
        .map(|v| {
            parse(v).ok_or_else(|| {
                field(
                    label,
                    format!("unknown value '{}' ({words})", game::excerpt(v)),
                )
            })
        })
        .transpose()
}

fn day(label: &str, value: &Option<String>) -> Result<Option<i64>, SiteError> {
    one_of(label, value, day_start_ms, "a day as YYYY-MM-DD")
}

impl TryFrom<SearchParams> for SearchInput {
    type Error = SiteError;

    /// Checks the fields in the query's order; the first bad one is the error.
    fn try_from(p: SearchParams) -> Result<SearchInput, SiteError> {
        let player = name("player", &p.player)?;
        let opponent = name("opponent", &p.opponent)?;
        if opponent.is_some() && player.is_none() {
            return Err(field("opponent", "an opponent needs a player"));
        }
        let variant = one_of(
            "variant",
            &p.variant,
            GameKind::parse,
            "antarctos or iceage",
        )?;
        let result = one_of(
            "result",
            &p.result,
            ResultFilter::parse,
            "win, loss, draw, white or black",
        )?;
        if matches!(result, Some(ResultFilter::Win | ResultFilter::Loss)) && player.is_none() {
            return Err(field(
                "result",
                "win and loss need a player (or: white, black, draw)",
            ));
        }
        let rated = one_of(
            "rated",
            &p.rated,
            |v| match v {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            "true or false",
        )?;
        let speed = one_of(
            "speed",
            &p.speed,
            SpeedFilter::parse,
            "realtime, correspondence or unlimited",
        )?;
        let from_ms = day("from", &p.from)?;
        let until_ms = day("to", &p.to)?.map(|ms| ms + DAY_MS);
        if let (Some(f), Some(u)) = (from_ms, until_ms)
            && u <= f
        {
            return Err(field("to", "the last day is before the first ('from')"));
        }
        let page = match given(&p.page) {
            None => 1,
            Some(v) => match v.parse::<i64>() {
                Ok(n) if (1..=MAX_PAGE).contains(&n) => n,
                _ => {
                    return Err(field(
                        "page",
                        format!(
                            "'{}' is not a number from 1 to {MAX_PAGE}",
                            game::excerpt(v)
                        ),
                    ));
                }
            },
        };
        let after = one_of(
            "after",
            &p.after,
            SearchCursor::parse,
            "a previous answer's cursor, <created_at>.<id>",
        )?;
        if after.is_some() && page != 1 {
            return Err(field(
                "after",
                "give either a cursor ('after') or a page number, not both",
            ));
        }
        Ok(SearchInput {
            player,
            opponent,
            variant,
            result,
            rated,
            speed,
            from_ms,
            until_ms,
            page,
            after,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> Result<SearchInput, SiteError> {
        let mut p = SearchParams::default();
        for (k, v) in pairs {
            let v = Some(v.to_string());
            match *k {
                "player" => p.player = v,
                "opponent" => p.opponent = v,
                "variant" => p.variant = v,
                "result" => p.result = v,
                "rated" => p.rated = v,
                "speed" => p.speed = v,
                "from" => p.from = v,
                "to" => p.to = v,
                "page" => p.page = v,
                "after" => p.after = v,
                _ => unreachable!(),
            }
        }
        SearchInput::try_from(p)
    }

    #[test]
    fn each_bad_field_is_named() {
        for (pairs, name) in [
            (&[("variant", "chess")][..], "variant:"),
            (&[("result", "won")][..], "result:"),
            (&[("result", "win")][..], "result:"),
            (&[("rated", "yes")][..], "rated:"),
            (&[("rated", "1")][..], "rated:"),
            (&[("after", "yesterday")][..], "after:"),
            (&[("after", "5.abc"), ("page", "2")][..], "after:"),
            (&[("speed", "blitz")][..], "speed:"),
            (&[("from", "2024-02-30")][..], "from:"),
            (&[("to", "yesterday")][..], "to:"),
            (&[("from", "2024-03-02"), ("to", "2024-03-01")][..], "to:"),
            (&[("page", "0")][..], "page:"),
            (&[("page", "1001")][..], "page:"),
            (&[("opponent", "bob")][..], "opponent:"),
        ] {
            let e = parse(pairs).expect_err(name);
            assert!(e.message.starts_with(name), "{pairs:?}: {}", e.message);
            assert_eq!(e.code.status(), 400);
        }
    }

    #[test]
    fn a_good_query_is_read_once() {
        let input = parse(&[
            ("player", " alice "),
            ("opponent", "bob"),
            ("variant", "iceage"),
            ("result", "loss"),
            ("rated", "true"),
            ("speed", "unlimited"),
            ("from", "2024-03-01"),
            ("to", "2024-03-01"),
            ("page", "3"),
            ("opponent", "bob"),
        ])
        .unwrap();
        assert_eq!(input.player.as_deref(), Some("alice"));
        assert_eq!(input.variant, Some(GameKind::IceAge));
        assert_eq!(input.result, Some(ResultFilter::Loss));
        assert_eq!(input.rated, Some(true));
        assert_eq!(input.speed, Some(SpeedFilter::Unlimited));
        assert_eq!(input.until_ms.unwrap() - input.from_ms.unwrap(), DAY_MS);
        assert_eq!(input.page, 3);
        assert_eq!(
            parse(&[("player", "")]).unwrap(),
            SearchInput {
                page: 1,
                ..Default::default()
            }
        );
    }
}

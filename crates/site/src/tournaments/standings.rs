//! The standings, computed from the stored pairings each time (never kept as running totals,
//! so a result counts exactly once): arena scoring (`tournament::arena`), and for Swiss and
//! round robin the FIDE tie-breaks (`tournament::tiebreak`) over the event as a
//! `tournament::Tournament`, which is also what the next Swiss round is paired from and what
//! the TRF-16 export writes.

use std::collections::HashMap;

use serde::Serialize;

use site_model::state::GameKind;
use site_model::tournament::{PairingResult, TournamentKind};
use site_store::{EntryRow, PairingRow, TournamentRow};
use tournament::arena::{self, ArenaGame, Outcome, ScoringRules};
use tournament::{Colour, GameResult, PlayerRecord, RoundEntry, Tournament, tiebreak};

/// One line of the standings (`GET /api/tournaments/{id}`, `standings`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingView {
    /// The place, 1-based (equal lines share it).
    pub rank: u32,
    /// The player.
    pub username: String,
    /// The points: an arena's integer score; a Swiss or round robin's, 1 a win, ½ a draw.
    pub points: f64,
    /// Swiss and round robin: `buchholz_cut1`, `sonneborn_berger`, `direct_encounter`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiebreaks: Option<tiebreak::TieBreaks>,
    /// An arena player's points game by game (4 for a doubled win), in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheet: Option<Vec<u32>>,
    /// An arena player on fire (two wins in a row: the next game's points are doubled).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fire: bool,
    /// Games with a result (forfeits and byes included).
    pub games: u32,
    /// The rating at entry.
    pub rating: i64,
    /// Withdrawn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
    /// A paused arena player.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
}

/// The arena's scoring rules for `variant`: Ice Age Chess draws before move 10 score 0
/// (issue 40).
pub fn arena_rules(variant: GameKind) -> ScoringRules {
    ScoringRules {
        early_draw_before: (variant == GameKind::IceAge).then_some(10),
        ..ScoringRules::LICHESS
    }
}

/// The moves `side` made in a game of `plies` plies (White moves first).
fn moves_of(plies: i64, white: bool) -> u32 {
    let plies = plies.max(0) as u32;
    if white { plies.div_ceil(2) } else { plies / 2 }
}

/// An arena player's finished games that count, in the order they ended: played games that
/// ended before the arena's end (a game ending after it counts for nobody, as on lichess).
pub fn arena_games(t: &TournamentRow, pairings: &[PairingRow], account: &str) -> Vec<ArenaGame> {
    let mut ended: Vec<&PairingRow> = pairings
        .iter()
        .filter(|p| p.result.is_some_and(PairingResult::is_played))
        .filter(|p| p.white == account || p.black.as_deref() == Some(account))
        .filter(|p| match (t.ends_at, p.ended_at) {
            (Some(end), Some(at)) => at <= end,
            _ => true,
        })
        .collect();
    ended.sort_by_key(|p| (p.ended_at, p.round, p.board));
    ended
        .iter()
        .map(|p| {
            let white = p.white == account;
            let outcome = match (p.result, white) {
                (Some(PairingResult::Draw), _) => Outcome::Draw,
                (Some(PairingResult::WhiteWon), true) | (Some(PairingResult::BlackWon), false) => {
                    Outcome::Win
                }
                _ => Outcome::Loss,
            };
            ArenaGame {
                outcome,
                berserk: if white {
                    p.berserk_white
                } else {
                    p.berserk_black
                },
                moves: moves_of(p.plies.unwrap_or(0), white),
            }
        })
        .collect()
}

/// The standings of event `t` with `entries` and `pairings`.
pub fn standings(
    t: &TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
) -> Vec<StandingView> {
    match t.kind {
        TournamentKind::Arena => arena_standings(t, entries, pairings),
        _ => fide_standings(t, entries, pairings),
    }
}

fn arena_standings(
    t: &TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
) -> Vec<StandingView> {
    let rules = arena_rules(t.variant);
    let mut rows: Vec<StandingView> = entries
        .iter()
        .map(|e| {
            let games = arena_games(t, pairings, &e.account_id);
            let sheet = arena::score(&games, &rules);
            StandingView {
                rank: 0,
                username: e.username.clone(),
                points: f64::from(sheet.total),
                tiebreaks: None,
                fire: sheet.on_fire,
                sheet: Some(sheet.games.iter().map(|g| g.points).collect()),
                games: games.len() as u32,
                rating: e.rating,
                withdrawn: e.withdrawn_at.is_some(),
                paused: e.paused,
            }
        })
        .collect();
    // Score, then rating (lichess breaks ties by performance; the rating at entry is what
    // this event knows before its games), then name.
    rows.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.username.cmp(&b.username))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && rows[i].points == rows[i - 1].points {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    rows
}

/// Event `t` as a `tournament::Tournament`: its numbered players (TPN order) and, for each
/// round paired so far, every player's entry. A game without a result yet, a round a player
/// missed (a late entry, a withdrawal) and a round robin's bye are absences (`Z`, no points).
pub fn as_record(t: &TournamentRow, entries: &[EntryRow], pairings: &[PairingRow]) -> Tournament {
    let mut numbered: Vec<&EntryRow> = entries.iter().filter(|e| e.tpn.is_some()).collect();
    numbered.sort_by_key(|e| e.tpn);
    let tpn_of: HashMap<&str, u32> = numbered
        .iter()
        .enumerate()
        .map(|(i, e)| (e.account_id.as_str(), i as u32 + 1))
        .collect();
    let rounds = t.round.max(0) as usize;
    let mut players: Vec<PlayerRecord> = numbered
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut p = PlayerRecord::new(
                i as u32 + 1,
                e.username.clone(),
                e.rating.clamp(0, 9999) as u16,
            );
            p.rounds = vec![RoundEntry::bye(GameResult::ZeroBye); rounds];
            p
        })
        .collect();
    for p in pairings {
        let r = p.round as usize;
        if r == 0 || r > rounds {
            continue;
        }
        let Some(&w) = tpn_of.get(p.white.as_str()) else {
            continue;
        };
        let b = p.black.as_deref().and_then(|b| tpn_of.get(b).copied());
        let entries = match (p.result, b) {
            (Some(PairingResult::Bye), _) => vec![(w, RoundEntry::bye(GameResult::PairingBye))],
            (None, _) | (_, None) => continue,
            (Some(result), Some(b)) => {
                let white = match result {
                    PairingResult::WhiteWon => GameResult::Win,
                    PairingResult::BlackWon => GameResult::Loss,
                    PairingResult::Draw => GameResult::Draw,
                    PairingResult::WhiteForfeit => GameResult::ForfeitWin,
                    PairingResult::BlackForfeit | PairingResult::DoubleForfeit => {
                        GameResult::ForfeitLoss
                    }
                    PairingResult::Bye => GameResult::PairingBye,
                };
                let black = if result == PairingResult::DoubleForfeit {
                    GameResult::ForfeitLoss
                } else {
                    white.reversed()
                };
                vec![
                    (w, RoundEntry::game(b, Colour::White, white)),
                    (b, RoundEntry::game(w, Colour::Black, black)),
                ]
            }
        };
        for (tpn, entry) in entries {
            players[tpn as usize - 1].rounds[r - 1] = entry;
        }
    }
    Tournament {
        name: t.name.clone(),
        rounds_planned: t.rounds.unwrap_or(0).max(0) as u32,
        initial_colour: None,
        players,
    }
}

/// The last round whose games all ended (0 when none): rounds after it hold games still
/// being played (a Swiss round under way; a correspondence round robin paired at once).
pub fn complete_rounds(t: &TournamentRow, pairings: &[PairingRow]) -> i64 {
    (1..=t.round)
        .take_while(|r| pairings.iter().all(|p| p.round != *r || p.result.is_some()))
        .last()
        .unwrap_or(0)
}

/// FIDE standings of `record`, whose points count every finished game, with tie-breaks from
/// the complete rounds only: a game still being played is not an unplayed round (C.07 would
/// count it as a draw against a virtual opponent). Ordered by points, then the tie-breaks;
/// places shared where all are equal.
fn live_standings(
    t: &TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
    record: &tournament::Tournament,
) -> Vec<tiebreak::Standing> {
    let standings = tiebreak::standings(record);
    let complete = complete_rounds(t, pairings);
    if complete >= t.round {
        return standings;
    }
    let cut = as_record(
        &TournamentRow {
            round: complete,
            ..t.clone()
        },
        entries,
        pairings,
    );
    let tiebreaks: HashMap<u32, tiebreak::TieBreaks> = tiebreak::standings(&cut)
        .into_iter()
        .map(|s| (s.tpn, s.tiebreaks))
        .collect();
    let mut rows: Vec<tiebreak::Standing> = standings
        .into_iter()
        .map(|mut s| {
            if let Some(tb) = tiebreaks.get(&s.tpn) {
                s.tiebreaks = *tb;
            }
            s
        })
        .collect();
    let key = |s: &tiebreak::Standing| {
        (
            s.points,
            s.tiebreaks.buchholz_cut1,
            s.tiebreaks.sonneborn_berger,
            s.tiebreaks.direct_encounter,
        )
    };
    rows.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.0.cmp(&ka.0)
            .then(kb.1.total_cmp(&ka.1))
            .then(kb.2.total_cmp(&ka.2))
            .then(kb.3.total_cmp(&ka.3))
            .then(a.tpn.cmp(&b.tpn))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    rows
}

fn fide_standings(
    t: &TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
) -> Vec<StandingView> {
    let record = as_record(t, entries, pairings);
    let mut numbered: Vec<&EntryRow> = entries.iter().filter(|e| e.tpn.is_some()).collect();
    numbered.sort_by_key(|e| e.tpn);
    let mut rows: Vec<StandingView> = live_standings(t, entries, pairings, &record)
        .into_iter()
        .map(|s| {
            let e = numbered[s.tpn as usize - 1];
            let p = &record.players[s.tpn as usize - 1];
            StandingView {
                rank: s.rank,
                username: e.username.clone(),
                points: s.points.as_f64(),
                tiebreaks: Some(s.tiebreaks),
                sheet: None,
                fire: false,
                games: p
                    .rounds
                    .iter()
                    .filter(|r| r.result != GameResult::ZeroBye)
                    .count() as u32,
                rating: e.rating,
                withdrawn: e.withdrawn_at.is_some(),
                paused: false,
            }
        })
        .collect();
    // Entries not numbered yet (before the start, or joined since the last round): listed
    // after, by rating.
    let mut waiting: Vec<&EntryRow> = entries.iter().filter(|e| e.tpn.is_none()).collect();
    waiting.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.joined_at.cmp(&b.joined_at)));
    let next = rows.len() as u32 + 1;
    for e in waiting {
        rows.push(StandingView {
            rank: next,
            username: e.username.clone(),
            points: 0.0,
            tiebreaks: None,
            sheet: None,
            fire: false,
            games: 0,
            rating: e.rating,
            withdrawn: e.withdrawn_at.is_some(),
            paused: false,
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use site_model::clock::TimeControl;
    use site_model::tournament::{Conditions, TournamentStatus};

    fn event(kind: TournamentKind, round: i64) -> TournamentRow {
        TournamentRow {
            id: "t1".into(),
            kind,
            variant: GameKind::IceAge,
            name: "test".into(),
            control: TimeControl::Realtime {
                initial_s: 60,
                increment_s: 0,
            },
            rated: true,
            status: TournamentStatus::Started,
            created_by: None,
            starts_at: 0,
            minutes: Some(60),
            rounds: Some(3),
            double: false,
            min_players: 2,
            max_players: 10,
            conditions: Conditions::default(),
            round,
            started_at: Some(0),
            ends_at: Some(1_000),
            finished_at: None,
            schedule_key: None,
            winners: Vec::new(),
            version: 1,
            created_at: 0,
        }
    }

    fn entry(id: &str, tpn: i64, rating: i64) -> EntryRow {
        EntryRow {
            account_id: id.into(),
            username: id.to_uppercase(),
            rating,
            tpn: Some(tpn),
            joined_at: tpn,
            withdrawn_at: None,
            paused: false,
        }
    }

    fn pairing(
        round: i64,
        board: i64,
        w: &str,
        b: Option<&str>,
        r: Option<PairingResult>,
        plies: i64,
        ended: i64,
    ) -> PairingRow {
        PairingRow {
            tournament_id: "t1".into(),
            round,
            board,
            white: w.into(),
            black: b.map(str::to_string),
            game_id: b.map(|_| format!("g{round}{board}")),
            result: r,
            plies: Some(plies),
            berserk_white: false,
            berserk_black: false,
            created_at: 0,
            ended_at: Some(ended),
        }
    }

    #[test]
    fn arena_counts_streaks_early_draws_and_not_late_games() {
        use PairingResult::*;
        let t = event(TournamentKind::Arena, 5);
        let entries = [
            entry("a", 1, 1600),
            entry("b", 2, 1500),
            entry("c", 3, 1400),
        ];
        let pairings = [
            pairing(1, 1, "a", Some("b"), Some(WhiteWon), 30, 10),
            pairing(2, 1, "c", Some("a"), Some(BlackWon), 30, 20),
            // On fire: a win scores 4.
            pairing(3, 1, "a", Some("b"), Some(WhiteWon), 30, 30),
            // An Ice Age Chess draw before move 10 scores 0 and ends the streak.
            pairing(4, 1, "b", Some("a"), Some(Draw), 12, 40),
            // Ended after the arena's end (1000): counts for nobody.
            pairing(5, 1, "a", Some("c"), Some(WhiteWon), 30, 2_000),
            // Not over.
            pairing(5, 2, "b", Some("c"), None, 3, 0),
        ];
        let s = standings(&t, &entries, &pairings);
        assert_eq!(s[0].username, "A");
        assert_eq!(s[0].points, 8.0);
        assert_eq!(s[0].sheet.as_deref(), Some(&[2, 2, 4, 0][..]));
        assert!(!s[0].fire);
        assert_eq!(s[0].games, 4);
        // b: 0 + 0 + 0 (early draw); c: 0.
        assert_eq!((s[1].username.as_str(), s[1].points), ("B", 0.0));
        assert_eq!(s[1].rank, 2);
        assert_eq!(s[2].rank, 2, "equal points share a place");
    }

    #[test]
    fn swiss_points_byes_forfeits_and_buchholz() {
        use PairingResult::*;
        let t = event(TournamentKind::Swiss, 2);
        let entries = [
            entry("a", 1, 1800),
            entry("b", 2, 1700),
            entry("c", 3, 1600),
        ];
        let pairings = [
            pairing(1, 1, "a", Some("b"), Some(Draw), 40, 1),
            pairing(1, 2, "c", None, Some(Bye), 0, 1),
            pairing(2, 1, "c", Some("a"), Some(BlackForfeit), 0, 2),
            pairing(2, 2, "b", None, Some(Bye), 0, 2),
        ];
        let record = as_record(&t, &entries, &pairings);
        assert_eq!(record.players[0].points().0, 3, "a: ½ + forfeit win");
        assert_eq!(record.players[1].points().0, 3, "b: ½ + bye");
        assert_eq!(record.players[2].points().0, 2, "c: bye + forfeit loss");
        let s = standings(&t, &entries, &pairings);
        let total: f64 = s.iter().map(|r| r.points).sum();
        assert_eq!(total, 4.0);
        assert_eq!(s[2].username, "C");
        assert!(s.iter().all(|r| r.tiebreaks.is_some()));
        assert_eq!(s.iter().map(|r| r.games).sum::<u32>(), 6);
    }

    #[test]
    fn a_game_under_way_is_no_unplayed_round_in_the_tie_breaks() {
        use PairingResult::*;
        let t = event(TournamentKind::Swiss, 2);
        let entries = [
            entry("a", 1, 1800),
            entry("b", 2, 1700),
            entry("c", 3, 1600),
            entry("d", 4, 1500),
        ];
        let round1 = [
            pairing(1, 1, "a", Some("c"), Some(WhiteWon), 40, 1),
            pairing(1, 2, "d", Some("b"), Some(BlackWon), 40, 1),
        ];
        let mut both = round1.to_vec();
        // Round 2: a-b still being played, c-d over.
        both.push(pairing(2, 1, "a", Some("b"), None, 10, 0));
        both.push(pairing(2, 2, "c", Some("d"), Some(Draw), 40, 2));
        let live = standings(&t, &entries, &both);
        let after_one = standings(&event(TournamentKind::Swiss, 1), &entries, &round1);
        let tb = |s: &[StandingView], who: &str| {
            s.iter()
                .find(|r| r.username == who)
                .and_then(|r| r.tiebreaks)
                .map(|t| (t.buchholz_cut1, t.sonneborn_berger))
        };
        // a's and b's tie-breaks are round 1's: the game under way counts as nothing yet
        // (C.07 would have made it a draw against a virtual opponent).
        for who in ["A", "B", "C", "D"] {
            assert_eq!(tb(&live, who), tb(&after_one, who), "{who}: {live:?}");
        }
        // Points count every finished game: c and d drew in round 2.
        let pts = |who: &str| live.iter().find(|r| r.username == who).unwrap().points;
        assert_eq!(
            (pts("A"), pts("B"), pts("C"), pts("D")),
            (1.0, 1.0, 0.5, 0.5)
        );
        assert_eq!(complete_rounds(&t, &both), 1);
        // Ordered by points, places shared when every tie-break is equal too.
        assert!(live.windows(2).all(|w| w[0].points >= w[1].points));
        assert_eq!(live[0].rank, 1);
    }
}

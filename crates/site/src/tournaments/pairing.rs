//! Who plays whom next, by kind, and the rows and games that store it. Pure but for the
//! games' random ids and sides: the director (`director`) reads the event, calls these, and
//! stores the result in one transaction (`Store::store_pairings`).

use std::collections::HashMap;

use game::Color;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::TokenHash;
use site_model::state::SeatKind;
use site_model::tournament::PairingResult;
use site_store::{EntryRow, GameRow, NewPairing, PairingRow, SeatRow, TournamentRow};
use tournament::arena::{self, Waiting};
use tournament::{Colour, berger, swiss};

use super::standings::{arena_games, arena_rules, as_record};
use crate::live_game;

/// A pairing before it is stored: the round, White, and Black (`None`: a bye).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The round (or arena wave), 1-based.
    pub round: i64,
    /// White's account id.
    pub white: String,
    /// Black's account id; `None` for a bye.
    pub black: Option<String>,
}

/// Whether `e` plays on: entered and not withdrawn.
pub fn active(e: &EntryRow) -> bool {
    e.withdrawn_at.is_none()
}

/// The next arena wave: the active, unpaused players without a game in progress (in this
/// event, or elsewhere: `elsewhere`, account ids), paired by `tournament::arena::pair`
/// (closest score then rating, no rematch of the last opponent).
pub fn arena_wave(
    t: &TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
    elsewhere: &[String],
) -> Vec<Planned> {
    let rules = arena_rules(t.variant);
    let busy = |id: &str| {
        elsewhere.iter().any(|e| e == id)
            || pairings
                .iter()
                .any(|p| p.result.is_none() && (p.white == id || p.black.as_deref() == Some(id)))
    };
    let players: Vec<&EntryRow> = entries
        .iter()
        .filter(|e| active(e) && !e.paused && !busy(&e.account_id))
        .collect();
    if players.len() < 2 {
        return Vec::new();
    }
    let waiting: Vec<Waiting<usize>> = players
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mine: Vec<&PairingRow> = pairings
                .iter()
                .filter(|p| p.white == e.account_id || p.black.as_deref() == Some(&e.account_id))
                .collect();
            let last = mine.iter().max_by_key(|p| (p.round, p.board)).map(|p| {
                if p.white == e.account_id {
                    p.black.clone().unwrap_or_default()
                } else {
                    p.white.clone()
                }
            });
            Waiting {
                id: i,
                score: arena::score(&arena_games(t, pairings, &e.account_id), &rules).total,
                rating: e.rating.clamp(0, u16::MAX as i64) as u16,
                last_opponent: last.and_then(|o| players.iter().position(|x| x.account_id == o)),
                paused: false,
                whites: mine.iter().filter(|p| p.white == e.account_id).count() as u32,
                blacks: mine
                    .iter()
                    .filter(|p| p.black.as_deref() == Some(&e.account_id))
                    .count() as u32,
            }
        })
        .collect();
    arena::pair(&waiting)
        .into_iter()
        .map(|p| Planned {
            round: t.round + 1,
            white: players[p.white].account_id.clone(),
            black: Some(players[p.black].account_id.clone()),
        })
        .collect()
}

/// The next Swiss round (`t.round + 1`) by the Dutch system, for the numbered, active
/// players (the others are absent). CPU-heavy for large fields: run it off the runtime.
///
/// Errors: `conflict` when no pairing meets the absolute criteria (no rematch, one bye each),
/// which ends the event early.
pub fn swiss_round(
    t: &TournamentRow,
    entries: &[EntryRow],
    pairings: &[PairingRow],
) -> Result<Vec<Planned>, SiteError> {
    let record = as_record(t, entries, pairings);
    let mut numbered: Vec<&EntryRow> = entries.iter().filter(|e| e.tpn.is_some()).collect();
    numbered.sort_by_key(|e| e.tpn);
    let absent: Vec<u32> = numbered
        .iter()
        .enumerate()
        .filter(|(_, e)| !active(e))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    let paired = if t.round == 0 {
        // Round 1: TPN 1 (the highest rated) gets White, as the Dutch system's draw of
        // colours most often says; the rest follows from it.
        swiss::pair_round_with(&record, &absent, Colour::White)
    } else {
        swiss::pair_round(&record, &absent)
    }
    .map_err(|e| SiteError::new(ErrorCode::Conflict, format!("round {}: {e}", t.round + 1)))?;
    let id = |tpn: u32| numbered[tpn as usize - 1].account_id.clone();
    let round = t.round + 1;
    let mut planned: Vec<Planned> = paired
        .games
        .iter()
        .map(|&(w, b)| Planned {
            round,
            white: id(w),
            black: Some(id(b)),
        })
        .collect();
    if let Some(bye) = paired.bye {
        planned.push(Planned {
            round,
            white: id(bye),
            black: None,
        });
    }
    Ok(planned)
}

/// Rounds `from..=to` of a round robin of the numbered players (Berger number = TPN), byes
/// left out.
///
/// Errors: `bad_request` for a player count without a Berger table here (3 to 20).
pub fn round_robin_rounds(
    entries: &[EntryRow],
    double: bool,
    from: i64,
    to: i64,
) -> Result<Vec<Planned>, SiteError> {
    let mut numbered: Vec<&EntryRow> = entries.iter().filter(|e| e.tpn.is_some()).collect();
    numbered.sort_by_key(|e| e.tpn);
    let cycles = if double {
        berger::Cycles::Double
    } else {
        berger::Cycles::Single
    };
    let schedule = berger::schedule(numbered.len(), cycles)
        .map_err(|e| SiteError::bad_request(e.to_string()))?;
    Ok(schedule
        .pairings
        .iter()
        .filter(|p| (from..=to).contains(&i64::from(p.round)))
        .map(|p| Planned {
            round: i64::from(p.round),
            white: numbered[p.white].account_id.clone(),
            black: Some(numbered[p.black].account_id.clone()),
        })
        .collect())
}

/// The rounds of a round robin of `players` (`None` outside 3..=20).
pub fn round_robin_length(players: usize, double: bool) -> Option<i64> {
    let cycles = if double {
        berger::Cycles::Double
    } else {
        berger::Cycles::Single
    };
    berger::schedule(players, cycles)
        .ok()
        .map(|s| i64::from(s.rounds))
}

/// The rows (and games) that store `planned` for event `t` at `now`. A bye gets its result
/// at once; a pairing with a withdrawn side gets no game and a forfeit; the others a game
/// between the two accounts' seats, its first-move clock running from `now`.
pub fn rows(
    t: &TournamentRow,
    entries: &[EntryRow],
    hashes: &HashMap<String, TokenHash>,
    planned: &[Planned],
    now: i64,
) -> Result<Vec<NewPairing>, SiteError> {
    let entry = |id: &str| entries.iter().find(|e| e.account_id == id);
    let mut boards: HashMap<i64, i64> = HashMap::new();
    let mut out = Vec::with_capacity(planned.len());
    for p in planned {
        let board = boards.entry(p.round).or_insert(0);
        *board += 1;
        let mut row = PairingRow {
            tournament_id: t.id.clone(),
            round: p.round,
            board: *board,
            white: p.white.clone(),
            black: p.black.clone(),
            game_id: None,
            result: None,
            plies: None,
            berserk_white: false,
            berserk_black: false,
            created_at: now,
            ended_at: None,
        };
        let Some(black) = &p.black else {
            row.result = Some(PairingResult::Bye);
            row.ended_at = Some(now);
            out.push(NewPairing { row, game: None });
            continue;
        };
        let (w, b) = (entry(&p.white), entry(black));
        let w_in = w.is_some_and(active);
        let b_in = b.is_some_and(active);
        if !(w_in && b_in) {
            row.result = Some(match (w_in, b_in) {
                (true, false) => PairingResult::WhiteForfeit,
                (false, true) => PairingResult::BlackForfeit,
                _ => PairingResult::DoubleForfeit,
            });
            row.ended_at = Some(now);
            out.push(NewPairing { row, game: None });
            continue;
        }
        let seat = |id: &str, name: Option<&EntryRow>| -> Result<SeatRow, SiteError> {
            let hash = hashes.get(id).ok_or_else(|| {
                SiteError::new(
                    ErrorCode::Internal,
                    format!("account {id} has no player token"),
                )
            })?;
            Ok(SeatRow {
                kind: SeatKind::Human,
                level: None,
                token: Some(hash.clone()),
                name: name.map(|e| e.username.clone()),
                rating: None,
                bot: false,
            })
        };
        let game = game_row(t, seat(&p.white, w)?, seat(black, b)?, now)?;
        row.game_id = Some(game.id.clone());
        out.push(NewPairing {
            row,
            game: Some(game),
        });
    }
    Ok(out)
}

/// A new game of event `t` between two seats, its clock started (the first-move wait runs).
fn game_row(
    t: &TournamentRow,
    white: SeatRow,
    black: SeatRow,
    now: i64,
) -> Result<GameRow, SiteError> {
    let (start_fen, turn) = live_game::start_of(t.variant, None)?;
    let mut clock = t.control.new_clock();
    if let Some(c) = clock.as_mut() {
        c.start(turn, now);
    }
    debug_assert_eq!(turn, Color::White);
    Ok(GameRow {
        clock,
        rated: t.rated,
        tournament: Some(t.id.clone()),
        ..GameRow::new_game(
            crate::play::random_token(8),
            t.variant,
            start_fen,
            white,
            black,
            turn,
            now,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: usize) -> Vec<EntryRow> {
        (0..n)
            .map(|i| EntryRow {
                account_id: format!("p{i}"),
                username: format!("P{i}"),
                rating: 2000 - i as i64 * 10,
                tpn: Some(i as i64 + 1),
                joined_at: i as i64,
                withdrawn_at: None,
                paused: false,
            })
            .collect()
    }

    #[test]
    fn round_robin_of_five_meets_everyone_once() {
        let e = entries(5);
        let all = round_robin_rounds(&e, false, 1, round_robin_length(5, false).unwrap()).unwrap();
        assert_eq!(all.len(), 10);
        let mut pairs: Vec<(String, String)> = all
            .iter()
            .map(|p| {
                let b = p.black.clone().unwrap();
                if p.white < b {
                    (p.white.clone(), b)
                } else {
                    (b, p.white.clone())
                }
            })
            .collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 10);
        assert_eq!(round_robin_length(4, true), Some(6));
        assert!(round_robin_rounds(&entries(2), false, 1, 1).is_err());
    }
}

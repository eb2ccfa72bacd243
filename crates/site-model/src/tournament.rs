//! Tournaments' plain values (issue 40; docs/tournaments.md): the three kinds, an event's
//! status, a pairing's result as stored, and the entry conditions. The pairing rules and
//! the standings are the `tournament` crate's; the storage is `site_store::tournaments`.

use serde::{Deserialize, Serialize};

game::text_enum! {
    /// The kind of event.
    pub enum TournamentKind ("tournament kind") {
        /// lichess's arena: a fixed duration, players paired again as soon as their game ends.
        Arena = "arena",
        /// Swiss by the FIDE Dutch system (C.04.3), a fixed number of rounds.
        Swiss = "swiss",
        /// Every player meets every other (FIDE C.05 Berger tables), once or twice.
        RoundRobin = "round_robin",
    }
}

game::text_enum! {
    /// Where an event is.
    pub enum TournamentStatus ("tournament status") {
        /// Open for entries; not started.
        Created = "created",
        /// Games are played.
        Started = "started",
        /// Over: the standings are final.
        Finished = "finished",
        /// Called off at its start: fewer players than its minimum came. No games.
        Canceled = "canceled",
    }
}

game::text_enum! {
    /// A pairing's result as stored (`tournament_pairings.result`), from White's side.
    pub enum PairingResult ("pairing result") {
        /// White won the game.
        WhiteWon = "white",
        /// Black won the game.
        BlackWon = "black",
        /// A draw.
        Draw = "draw",
        /// White wins by forfeit: Black did not play (no first move, or withdrew).
        WhiteForfeit = "white_forfeit",
        /// Black wins by forfeit.
        BlackForfeit = "black_forfeit",
        /// Both forfeit: neither played (both withdrew before the game).
        DoubleForfeit = "double_forfeit",
        /// The pairing-allocated bye of a Swiss round (White holds the player; no Black).
        Bye = "bye",
    }
}

impl PairingResult {
    /// Whether the game was played over the board (the standings' tie-breaks count it as a
    /// game; a forfeit or a bye is scored by FIDE C.07's rules for unplayed rounds).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            PairingResult::WhiteWon | PairingResult::BlackWon | PairingResult::Draw
        )
    }
}

/// What an account must have to join (`conditions` of `POST /api/tournaments`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conditions {
    /// At least this many rated games in the event's game and speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rated_games: Option<i64>,
    /// A rating at least this (in the event's game and speed; 1500 before any rated game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<i64>,
    /// A rating at most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<i64>,
}

impl Conditions {
    /// The first condition that a player with `rating` and `rated_games` fails, in words; `None`
    /// when they may join.
    pub fn refusal(&self, rating: f64, rated_games: i64) -> Option<String> {
        if let Some(min) = self.min_rated_games
            && rated_games < min
        {
            return Some(format!(
                "this event needs {min} rated games in its game and speed; you have {rated_games}"
            ));
        }
        let rating = rating.round() as i64;
        if let Some(min) = self.min_rating
            && rating < min
        {
            return Some(format!(
                "this event needs a rating of at least {min}; yours is {rating}"
            ));
        }
        if let Some(max) = self.max_rating
            && rating > max
        {
            return Some(format!(
                "this event is for ratings up to {max}; yours is {rating}"
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_name_what_fails() {
        let c = Conditions {
            min_rated_games: Some(3),
            min_rating: Some(1400),
            max_rating: Some(1800),
        };
        assert!(c.refusal(1500.0, 2).unwrap().contains("3 rated games"));
        assert!(c.refusal(1399.4, 5).unwrap().contains("at least 1400"));
        assert!(c.refusal(1801.0, 5).unwrap().contains("up to 1800"));
        assert_eq!(c.refusal(1500.0, 3), None);
        assert_eq!(Conditions::default().refusal(0.0, 0), None);
    }

    #[test]
    fn texts_round_trip() {
        for r in PairingResult::ALL {
            assert_eq!(PairingResult::parse(r.as_str()), Some(*r));
        }
        assert!(PairingResult::Draw.is_played());
        assert!(!PairingResult::Bye.is_played());
        assert_eq!(
            TournamentKind::parse("round_robin"),
            Some(TournamentKind::RoundRobin)
        );
        assert_eq!(
            TournamentStatus::parse("started"),
            Some(TournamentStatus::Started)
        );
    }
}

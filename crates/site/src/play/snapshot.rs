//! Game states as broadcast: one [`Snapshot`] per stored change, whose JSON text is written
//! once per kind of watcher (each seat, the spectators) and, on sockets that keep the moves
//! (`?moves=changes`), as only the moves after those the socket already holds.

use site_model::secrets::PlayerToken;
use std::sync::OnceLock;

use bytes::Bytes;
use serde::Serialize;

use crate::view::{GameView, seat_of};
use site_store::GameRow;

/// A game state as broadcast to watchers: the watcher's view plus the stored row, from which
/// each connection fills its own `you` (the row's tokens never leave the server).
#[derive(Debug)]
pub struct Snapshot {
    /// The view with `you` and `invite_url` unset.
    pub view: GameView,
    /// The stored row.
    pub row: GameRow,
    /// The watchers' state message, made by the first watcher's socket that sends it: a
    /// move's state is serialised once for all its watchers, not once per socket (issue 12).
    /// A player's own text is made for its socket and not kept: a seat has one or two
    /// sockets, and the kept states' texts were a third of a live game's memory (issue 44).
    texts: OnceLock<Bytes>,
    /// The same for the sockets that hold the moves up to some ply (`moves=changes`): the
    /// ply they hold and the message, made by the first such socket per seat.
    changes: OnceLock<(usize, Bytes)>,
}

/// The WebSocket message of a state: `{"type":"state","game":GameView}`, or with
/// `moves_from` N when `game.moves` holds only the moves after the first N (docs/api.md).
#[derive(Serialize)]
struct StateMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves_from: Option<usize>,
    game: &'a GameView,
}

/// The moves a socket has sent: their history (`JsonList::history`) and how many.
pub type HeldMoves = (u64, usize);

impl Snapshot {
    /// The state `view` of the game stored as `row`.
    pub fn new(view: GameView, row: GameRow) -> Snapshot {
        Snapshot {
            view,
            row,
            texts: Default::default(),
            changes: Default::default(),
        }
    }

    /// What a socket holds after sending this state: the history and length of its moves
    /// (`None` when they have no history to continue, e.g. a list not made as the game grew).
    pub fn held_moves(&self) -> Option<HeldMoves> {
        self.view.moves.history()
    }

    /// The state message for `token` on a socket that holds `held` moves (`moves=changes`):
    /// only the moves after those, with `moves_from`, when they are of this state's history;
    /// else the whole state ([`Snapshot::state_text`]).
    pub fn changes_text(&self, token: &PlayerToken, held: Option<HeldMoves>) -> Bytes {
        let from = match (held, self.view.moves.history()) {
            (Some((h, n)), Some((now, len))) if h == now && n <= len => n,
            _ => return self.state_text(token),
        };
        let text = || {
            let mut view = self.view_for(token);
            view.moves = self.view.moves.tail(from)?;
            serde_json::to_string(&StateMessage {
                kind: "state",
                moves_from: Some(from),
                game: &view,
            })
            .ok()
            .map(Bytes::from)
        };
        if !self.shared(token) {
            return text().unwrap_or_else(|| self.state_text(token));
        }
        if let Some((n, cached)) = self.changes.get()
            && *n == from
        {
            return cached.clone();
        }
        let Some(made) = text() else {
            return self.state_text(token);
        };
        // The first watcher's socket keeps its text; another ply (a socket that fell behind)
        // is made for that socket alone.
        let _ = self.changes.set((from, made.clone()));
        made
    }

    /// Whether `token`'s messages are the watchers' shared ones: it holds no seat.
    fn shared(&self, token: &PlayerToken) -> bool {
        seat_of(&self.row, token).is_none()
    }

    /// The view as `token` sees it.
    pub fn view_for(&self, token: &PlayerToken) -> GameView {
        self.view.clone().personalize(&self.row, token)
    }

    /// The state message for `token`. Views differ only by the seat held, except the
    /// creator's invitation while a seat is open: that one is made for its socket alone.
    pub fn state_text(&self, token: &PlayerToken) -> Bytes {
        let text = || {
            let view = self.view_for(token);
            serde_json::to_string(&StateMessage {
                kind: "state",
                moves_from: None,
                game: &view,
            })
            .unwrap_or_default()
            .into()
        };
        if self.shared(token) {
            self.texts.get_or_init(text).clone()
        } else {
            text()
        }
    }
}

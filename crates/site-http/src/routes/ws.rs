//! `GET /api/games/{id}/ws`: live updates. The server sends `{"type":"state","game":GameView}`
//! on connect and after every change (from the game's `broadcast` channel); the client may send
//! moves, resignation, abort, draw and takeback actions; errors come back as
//! `{"type":"error",...}`. After [`WsTimers::ping`] of silence from the client the server pings
//! it, and closes a connection whose peer sent nothing, not even a pong, for [`WsTimers::dead`]
//! (a dead peer).
//!
//! Delivery: each socket remembers the game version it has sent ([`Delivered`]) and sends a
//! state only when it is newer, so every client gets each ply once and in order, whatever
//! the order in which its first snapshot and the game's broadcasts arrive (a watcher that
//! connects while a move is being stored got that ply twice, issue 9). A socket that fell
//! behind (a lagging receiver; later, an update from another process) catches up from the
//! game's current state: "send what comes after what this socket has".
//!
//! `?moves=changes` asks for states that carry only the moves the socket has not sent yet
//! (`moves_from`, docs/api.md): a state then costs the same at ply 200 as at ply 2. Whole
//! states (`moves=all`, the default) stay for clients that do not keep the list.

use crate::error::HttpError;
use site_model::secrets::PlayerToken;
use std::sync::Arc;
use std::time::Duration;

use std::collections::HashMap;

use axum::Extension;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::ws_frame_rate::{FrameGate, FrameKind, SocketFrames};
use super::{AppState, PathText};
use crate::player::{LoggedIn, Player};
use crate::security::SecurityState;
use crate::session_watch::SessionWatch;
use site::chat::{Chat, ChatEvent, Content, Reader};
use site::play::replay::Replay;
use site::play::{Answer, DrawAction, GameService, GameSlot, HeldMoves, Snapshot, WsGuard};
use site_model::chat::{GameRoom, Phrase};
use site_model::error::{ErrorCode, SiteError};

/// Largest WebSocket message accepted from a client (bytes). A longer one closes the
/// connection with status 1009 ("message too big", RFC 6455 section 7.4.1).
pub const WS_MESSAGE_LIMIT: usize = 4096;

/// The close code of a page that closes its socket because the browser went offline
/// (docs/api.md, WebSocket): a lost connection, not a closed tab, so the opponent waits the
/// lost connection's time before a claim. An application code (RFC 6455 section 7.4.2).
pub const OFFLINE_CLOSE: u16 = 4001;

/// What the transport itself reads before giving up on a client (bytes): above the
/// message limit, so an oversized message is read whole and answered with a 1009 close
/// instead of a dropped connection.
const WS_TRANSPORT_LIMIT: usize = 64 * 1024;

/// The read buffer of a socket, bytes. tungstenite allocates it up front, 128 KiB by default:
/// two sockets per game made that most of a game's memory (issue 12). A client sends a few
/// short messages per minute; a longer one grows the buffer as it arrives.
const WS_READ_BUFFER: usize = 4 * 1024;

/// What a socket's write buffer collects before it writes, bytes. Each state is flushed as it
/// is sent anyway; a small target keeps idle sockets small.
const WS_WRITE_BUFFER: usize = 4 * 1024;

/// Keep-alive of a live connection (`Timeouts::ws_ping`, `Timeouts::ws_dead`).
#[derive(Debug, Clone, Copy)]
pub struct WsTimers {
    /// Silence from the client after which the server pings it.
    pub ping: Duration,
    /// Silence after which the peer is taken for dead and the connection closed.
    pub dead: Duration,
}

/// A message from the client. A field it does not know is refused, naming the field. The
/// field-less messages are empty struct variants because serde's `deny_unknown_fields` lets a
/// unit variant of an internally tagged enum take any fields.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        ply: Option<u32>,
        /// The lag the client measured for this move, ms (docs/api.md, "Lag").
        #[serde(default)]
        lag: Option<u32>,
    },
    Resign {},
    Abort {},
    Draw {
        action: String,
    },
    Takeback {
        action: String,
        #[serde(default)]
        ply: Option<u32>,
    },
    Rematch {
        #[serde(default)]
        action: Option<String>,
    },
    Ping {},
    /// A chat message: free `text` or a canned `phrase` code, to `room` (`players` or
    /// `watchers`); it comes back as `{"type":"chat","message":...}` to every reader.
    Chat {
        #[serde(default)]
        room: Option<String>,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        phrase: Option<String>,
    },
}

/// What the states of a socket carry of the moves (`?moves=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MovesSent {
    /// Every state carries the whole list (`all`, the default).
    All,
    /// A state carries the moves after those the socket sent (`changes`).
    Changes,
}

/// The upgrade's query, read once: what states carry of the moves, and the version a
/// reconnecting socket holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WsQuery {
    moves: MovesSent,
    /// `since=V`: the game version the client holds; the states after it are replayed.
    since: Option<i64>,
}

/// The upgrade's query: `moves=all` or `moves=changes`, and `since=<version>`; anything else is
/// named in a 400.
fn ws_query(
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<WsQuery, HttpError> {
    let Query(q) = q.map_err(|_| SiteError::bad_request("the query string is not valid text"))?;
    if let Some(other) = q.keys().find(|k| *k != "moves" && *k != "since") {
        return Err(HttpError::from(SiteError::bad_request(format!(
            "unknown query parameter \"{other}\": the socket takes moves=all or moves=changes, and since=<version>"
        ))));
    }
    let moves = match q.get("moves").map(String::as_str) {
        None | Some("all") => MovesSent::All,
        Some("changes") => MovesSent::Changes,
        Some(other) => {
            return Err(HttpError::from(SiteError::bad_request(format!(
                "moves={other:?}: the socket takes moves=all (every state whole) or moves=changes (only new moves)"
            ))));
        }
    };
    let since = match q.get("since") {
        None => None,
        Some(v) => match v.parse::<i64>() {
            Ok(n) if n >= 0 => Some(n),
            _ => {
                return Err(HttpError::from(SiteError::bad_request(format!(
                    "since={v:?}: the game version the client holds, a whole number from 0"
                ))));
            }
        },
    };
    Ok(WsQuery { moves, since })
}

/// The upgrade: 404 for an unknown game, 503 past the connection limits, 400 for a query it
/// does not know.
#[allow(clippy::too_many_arguments)]
pub async fn upgrade(
    State(svc): State<AppState>,
    Player(token): Player,
    LoggedIn(account): LoggedIn,
    Extension(sec): Extension<SecurityState>,
    PathText(id): PathText,
    Extension(timers): Extension<WsTimers>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let query = match ws_query(query) {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(r) => {
            return HttpError::from(SiteError::bad_request(format!(
                "not a WebSocket request: {}",
                r.body_text()
            )))
            .into_response();
        }
    };
    let chat = svc.chat.clone();
    let svc = svc.play.clone();
    let slot = match svc.slot(&id).await {
        Ok(s) => s,
        Err(e) => return HttpError(e).into_response(),
    };
    let guard = match svc.ws_guard(&slot, &token).await {
        Ok(g) => g,
        Err(e) => return HttpError(e).into_response(),
    };
    upgrade
        .max_message_size(WS_TRANSPORT_LIMIT)
        .max_frame_size(WS_TRANSPORT_LIMIT)
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(WS_WRITE_BUFFER)
        .on_upgrade(move |socket| async move {
            let login = SessionWatch::of(account, sec.sessions.clone());
            let (play, game) = (svc.clone(), id.clone());
            let delivered = Delivered {
                version: 0,
                changes: query.moves == MovesSent::Changes,
                held: None,
            };
            session(
                svc,
                chat,
                slot,
                Opened {
                    id,
                    token,
                    login,
                    since: query.since,
                },
                socket,
                guard,
                timers,
                delivered,
            )
            .await;
            // Its state, its kept states and its moves leave memory with its last socket.
            play.forget_if_finished(&game);
        })
}

/// A text frame of the snapshot's shared bytes, which the site made from a `String`, so the
/// check of the UTF-8 cannot fail; if it ever did, the socket gets an empty object rather
/// than invalid text.
fn text_message(bytes: bytes::Bytes) -> Message {
    match axum::extract::ws::Utf8Bytes::try_from(bytes) {
        Ok(text) => Message::Text(text),
        Err(_) => Message::Text(axum::extract::ws::Utf8Bytes::from_static("{}")),
    }
}

/// The close frame for a message over [`WS_MESSAGE_LIMIT`].
fn too_big() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::SIZE,
        reason: format!("message over {WS_MESSAGE_LIMIT} bytes").into(),
    }))
}

/// The close frame for a read error the connection can still answer: a frame or message over
/// [`WS_TRANSPORT_LIMIT`] (1009), a text message that is not UTF-8 (1007, "invalid frame
/// payload data", RFC 6455 section 7.4.1), or a frame that breaks the protocol (1002). `None`
/// for the others (the peer is gone, or the connection is closing).
fn close_for(e: axum::Error) -> Option<Message> {
    use tokio_tungstenite::tungstenite::Error;
    use tokio_tungstenite::tungstenite::error::ProtocolError;
    match e.into_inner().downcast_ref::<Error>()? {
        Error::Capacity(_) => Some(too_big()),
        Error::Utf8(_) => Some(Message::Close(Some(CloseFrame {
            code: close_code::INVALID,
            reason: "text message is not valid UTF-8".into(),
        }))),
        // A broken frame (reserved bits or opcodes, a fragmented or oversized control frame,
        // a lone continuation, an unmasked client frame): 1002, RFC 6455 section 7.1.7. Not
        // for a connection that is already closing or gone.
        Error::Protocol(p) => match p {
            ProtocolError::ResetWithoutClosingHandshake
            | ProtocolError::ReceivedAfterClosing
            | ProtocolError::SendAfterClosing => None,
            other => {
                // A close reason is at most 123 bytes.
                let mut reason = format!("protocol error: {other}");
                let end = (0..=reason.len().min(120))
                    .rev()
                    .find(|&i| reason.is_char_boundary(i))
                    .unwrap_or(0);
                reason.truncate(end);
                Some(Message::Close(Some(CloseFrame {
                    code: close_code::PROTOCOL,
                    reason: reason.into(),
                })))
            }
        },
        _ => None,
    }
}

fn error_message(e: &SiteError) -> Message {
    let body = serde_json::json!({"type": "error", "error": e});
    Message::Text(body.to_string().into())
}

/// What one socket has sent: the newest game version (a state is sent only when newer) and,
/// for a `moves=changes` socket, the moves.
struct Delivered {
    version: i64,
    changes: bool,
    held: Option<HeldMoves>,
}

impl Delivered {
    /// The state message of `snap`, sent now.
    fn message(&mut self, snap: &Snapshot, token: &PlayerToken) -> Message {
        self.version = snap.row.version;
        if !self.changes {
            return text_message(snap.state_text(token));
        }
        let text = snap.changes_text(token, self.held);
        self.held = snap.held_moves();
        text_message(text)
    }

    /// The state message of `snap` if this socket has not sent it (or a newer one) yet.
    fn next(&mut self, snap: &Snapshot, token: &PlayerToken) -> Option<Message> {
        (snap.row.version > self.version).then(|| self.message(snap, token))
    }
}

/// The room and content of a socket's chat message: 400 naming a missing or unknown room or
/// phrase, or a message with both or neither of text and phrase.
pub(crate) fn chat_content(
    text: Option<String>,
    phrase: Option<String>,
) -> Result<Content, SiteError> {
    match (text, phrase) {
        (Some(t), None) => Ok(Content::Text(t)),
        (None, Some(p)) => Phrase::parse(&p).map(Content::Phrase).ok_or_else(|| {
            SiteError::bad_request(format!(
                "phrase: '{}' is not one of {}",
                game::excerpt(&p),
                Phrase::ALL
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }),
        _ => Err(SiteError::bad_request(
            "a chat message has \"text\" or \"phrase\" (one of the two)",
        )),
    }
}

fn chat_room(room: Option<String>) -> Result<GameRoom, SiteError> {
    let room = room.ok_or_else(|| {
        SiteError::bad_request("room: a game's chat message names its room, players or watchers")
    })?;
    GameRoom::parse(&room).ok_or_else(|| {
        SiteError::bad_request(format!(
            "room: '{}' is not a room of a game (players or watchers)",
            game::excerpt(&room)
        ))
    })
}

/// A client's text message read, or the error to answer (nothing reached the store).
fn parse_client(text: &str) -> Result<ClientMessage, Message> {
    // A byte order mark before the object is skipped, as for request bodies (RFC 8259 8.1).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Only an object: serde reads an internally tagged enum from an array too (the tag, then
    // the fields by position), so `["resign"]` would resign with no field name to check.
    if !text
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
    {
        return Err(error_message(&SiteError::bad_request(
            "bad message: a message is a JSON object, e.g. {\"type\": \"ping\"}",
        )));
    }
    serde_json::from_str(text)
        .map_err(|e| error_message(&SiteError::bad_request(format!("bad message: {e}"))))
}

/// The close frame of a socket that kept sending refused messages (chat or other).
fn chat_abuse() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::POLICY,
        reason: "too many refused messages".into(),
    }))
}

/// Closes a socket that kept sending refused chat messages: the close frame, then what the
/// peer still sends is read and dropped until its close answer (2 s at most): closing the
/// connection with unread data would reset it and lose the close frame on the way
/// ([`close_with`]).
async fn close_for_abuse(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    limit: Duration,
) {
    close_with(sink, stream, chat_abuse(), limit).await;
}

/// Sends the close frame `close`, then reads and drops what the peer still sends until its
/// close answer (2 s at most), so that the close frame is not lost to a reset.
async fn close_with(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    close: Message,
    limit: Duration,
) {
    if !send_within(sink, close, limit).await {
        return;
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

async fn handle(
    svc: &Arc<GameService>,
    chat: &Chat,
    id: &str,
    token: &PlayerToken,
    msg: ClientMessage,
) -> Option<Message> {
    let result = match msg {
        // Answered by the session loop (a pong is no refusal); kept for completeness.
        ClientMessage::Ping {} => return None,
        // The message comes back on the game's chat channel, to this socket too.
        ClientMessage::Chat { room, text, phrase } => {
            match chat_room(room).and_then(|r| Ok((r, chat_content(text, phrase)?))) {
                Ok((room, content)) => chat.send_game(id, room, token, content).await.map(|_| ()),
                Err(e) => Err(e),
            }
        }
        ClientMessage::Move { mv, ply, lag } => {
            let ply = match super::play::required_ply(ply) {
                Ok(p) => p,
                Err(e) => return Some(error_message(&e.0)),
            };
            // A retry changes nothing: the state that carries the move was sent on this
            // socket already, or the catch-up after this message sends it.
            svc.play_or_retry(id, token, &mv, ply, lag.map(i64::from))
                .await
                .map(|_| ())
        }
        ClientMessage::Resign {} => svc.resign(id, token).await.map(|_| ()),
        ClientMessage::Abort {} => svc.abort(id, token).await.map(|_| ()),
        ClientMessage::Draw { action } => match DrawAction::parse_draw(&action) {
            Ok(a) => svc.draw(id, token, a).await.map(|_| ()),
            Err(e) => Err(e),
        },
        ClientMessage::Takeback { action, ply } => match Answer::parse_for(&action, "takeback") {
            Ok(a) => svc.takeback(id, token, a, ply).await.map(|_| ()),
            Err(e) => Err(e),
        },
        // The new game shows as this game's `rematch` in the state broadcast.
        ClientMessage::Rematch { action } => {
            match Answer::parse_for(action.as_deref().unwrap_or("offer"), "rematch") {
                Ok(a) => svc.rematch(id, token, a).await.map(|_| ()),
                Err(e) => Err(e),
            }
        }
    };
    // Success shows as the state broadcast that follows every change.
    result.err().map(|e| error_message(&e))
}

/// Sends `msg`, giving up on a peer that has not read for `limit` (its buffers are full).
/// Every send of a session goes through it: a plain send to a peer that never reads would hold
/// the session, and its connection, for good.
async fn send_within(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    msg: Message,
    limit: Duration,
) -> bool {
    matches!(
        tokio::time::timeout(limit, sink.send(msg)).await,
        Ok(Ok(()))
    )
}

/// Whether the log-in a socket was opened under (if any) is still live. A store that cannot
/// tell counts as live (the frame itself then fails with its own error): a database outage must
/// not log players out of their games (hostile finding 1 of round 5: every logged-in socket
/// was closed "log-in ended" 10 s into one).
async fn still_logged_in(login: Option<&SessionWatch>) -> bool {
    match login {
        None => true,
        Some(l) => Box::pin(l.is_live()).await,
    }
}

/// The close frame of a socket whose log-in ended: 1008 (policy violation, RFC 6455 section
/// 7.4.1) with [`LOGIN_ENDED`] as its reason, so a page tells it from a lost connection.
fn login_ended() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::POLICY,
        reason: LOGIN_ENDED.into(),
    }))
}

/// The reason of the close frame of a socket whose log-in ended (docs/api.md, WebSocket).
pub const LOGIN_ENDED: &str = "log-in ended: reload the page";

/// Who opened a socket, on what, and what it holds.
struct Opened {
    id: String,
    token: PlayerToken,
    login: Option<SessionWatch>,
    /// The version a reconnecting client holds (`?since=`).
    since: Option<i64>,
}

/// The first states of a socket: with `since` covered by the game's kept states, every state
/// after it in order (counted from the moves it held then); otherwise the current one, whole.
fn first_states(
    slot: &GameSlot,
    current: &Snapshot,
    since: Option<i64>,
    delivered: &mut Delivered,
    token: &PlayerToken,
) -> Vec<Message> {
    let replay = match since {
        Some(v) if v <= current.row.version => slot.replay_after(v),
        _ => Replay::Gap,
    };
    let Replay::From { held, missed } = replay else {
        return vec![delivered.message(current, token)];
    };
    delivered.version = held.row.version;
    delivered.held = held.held_moves();
    let mut out: Vec<Message> = missed
        .iter()
        .filter_map(|s| delivered.next(s, token))
        .collect();
    // Nothing missed, or the current state newer than the ring (a reload in between): the
    // current state closes the replay (with no new moves when nothing was missed).
    if out.is_empty() || current.row.version > delivered.version {
        out.push(delivered.message(current, token));
    }
    out
}

/// The chat message for a socket's reader, if `event` reaches them.
async fn chat_message(
    chat: &Chat,
    reader: Option<&Reader>,
    slot: &GameSlot,
    event: &ChatEvent,
) -> Option<Message> {
    let reader = reader?;
    if !chat.visible(event, reader, Some(slot)).await {
        return None;
    }
    let body = if event.is_removal() {
        serde_json::json!({"type": "chat_removed", "message": event.removal()})
    } else {
        serde_json::json!({"type": "chat", "message": event.message()})
    };
    Some(Message::Text(body.to_string().into()))
}

#[allow(clippy::too_many_arguments)]
async fn session(
    svc: Arc<GameService>,
    chat: Arc<Chat>,
    slot: Arc<GameSlot>,
    opened: Opened,
    socket: WebSocket,
    _guard: WsGuard,
    timers: WsTimers,
    mut delivered: Delivered,
) {
    let Opened {
        id,
        token,
        mut login,
        since,
    } = opened;
    let (mut sink, mut stream) = socket.split();
    let mut heard = tokio::time::Instant::now();
    let mut pinged = false;
    let mut rx = slot.subscribe();
    let mut shutdown = svc.shutdown_signal();
    let first = Box::pin(svc.fresh_snapshot(&slot)).await;
    let mut chat_rx = chat.subscribe_game(&first.row.id);
    let reader = match Box::pin(chat.reader(&token)).await {
        Ok(r) => Some(r),
        Err(e) => {
            tracing::warn!(error = %e.message, "a socket's chat reader cannot be read: no chat");
            None
        }
    };
    for msg in first_states(&slot, &first, since, &mut delivered, &token) {
        if !send_within(&mut sink, msg, timers.dead).await {
            return;
        }
    }
    // A player's socket counts for its presence (a gone opponent, issue 38).
    Box::pin(svc.seat_opened(&slot, &token)).await;
    // Whether the page closed the socket itself (a tab closed): a shorter wait for a claim.
    let mut clean = false;
    let mut frames = SocketFrames::new(tokio::time::Instant::now());
    loop {
        let next_check = heard + if pinged { timers.dead } else { timers.ping };
        tokio::select! {
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                pinged = false;
                let reply = match incoming {
                    Some(Ok(Message::Text(text))) if text.len() > WS_MESSAGE_LIMIT => {
                        let _ = send_within(&mut sink, too_big(), timers.dead).await;
                        break;
                    }
                    Some(Ok(Message::Binary(b))) if b.len() > WS_MESSAGE_LIMIT => {
                        let _ = send_within(&mut sink, too_big(), timers.dead).await;
                        break;
                    }
                    Some(Ok(Message::Text(text))) => {
                        let parsed = parse_client(text.as_str());
                        // Every frame counts against its bucket of the socket's rate before
                        // anything is read from the store (hostile findings 8 and round 3's 1).
                        let kind = match &parsed {
                            Ok(ClientMessage::Chat { .. }) => FrameKind::Chat,
                            _ => FrameKind::Play,
                        };
                        match frames.take(kind, tokio::time::Instant::now()) {
                            FrameGate::Close => {
                                close_for_abuse(&mut sink, &mut stream, timers.dead).await;
                                break;
                            }
                            FrameGate::Refuse(e) => Some(error_message(&e)),
                            FrameGate::Pass => {
                                if !Box::pin(still_logged_in(login.as_ref())).await {
                                    // The session ended (log-out, a new password elsewhere):
                                    // the socket acts for the account no longer.
                                    let ended = error_message(&SiteError::new(
                                        ErrorCode::NotLoggedIn,
                                        "this browser's log-in ended: reload the page",
                                    ));
                                    if send_within(&mut sink, ended, timers.dead).await {
                                        close_with(
                                            &mut sink,
                                            &mut stream,
                                            login_ended(),
                                            timers.dead,
                                        )
                                        .await;
                                    }
                                    break;
                                }
                                let reply = match parsed {
                                    Err(reply) => {
                                        frames.strike();
                                        Some(reply)
                                    }
                                    // Boxed, as the other awaits on the store below: a message
                                    // is rare, and its future (a move's commit, a rematch) is
                                    // several KB that an idle socket's task would otherwise
                                    // hold all its life (issue 12).
                                    Ok(ClientMessage::Ping {}) => {
                                        Some(Message::Text(r#"{"type":"pong"}"#.into()))
                                    }
                                    Ok(msg) => {
                                        match Box::pin(handle(&svc, &chat, &id, &token, msg)).await
                                        {
                                            None => None,
                                            Some(refused) => {
                                                frames.strike();
                                                Some(refused)
                                            }
                                        }
                                    }
                                };
                                if frames.closes() {
                                    close_for_abuse(&mut sink, &mut stream, timers.dead).await;
                                    break;
                                }
                                reply
                            }
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        // Refused, and counted as a refused frame.
                        match frames.take(FrameKind::Play, tokio::time::Instant::now()) {
                            FrameGate::Refuse(e) => Some(error_message(&e)),
                            gate => {
                                frames.strike();
                                if matches!(gate, FrameGate::Close) || frames.closes() {
                                    close_for_abuse(&mut sink, &mut stream, timers.dead).await;
                                    break;
                                }
                                Some(error_message(&SiteError::bad_request(
                                    "binary messages are not understood: send JSON text",
                                )))
                            }
                        }
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                    // A message over the transport limit (refused before it is read whole) or
                    // a text frame that is not UTF-8 still gets its close frame, not a dropped
                    // connection.
                    Some(Err(e)) => {
                        if let Some(close) = close_for(e) {
                            close_with(&mut sink, &mut stream, close, timers.dead).await;
                        }
                        break;
                    }
                    Some(Ok(Message::Close(frame))) => {
                        // A page that closes because its network went (OFFLINE_CLOSE) lost
                        // its connection: the longer wait, as for a dropped one.
                        clean = frame.is_none_or(|f| f.code != OFFLINE_CLOSE);
                        // tungstenite has queued the echo of the peer's close frame (RFC 6455
                        // section 5.5.1: the endpoint MUST answer it); closing the sink writes
                        // it out, so the peer sees its own code rather than 1006.
                        let _ = tokio::time::timeout(timers.dead, sink.close()).await;
                        break;
                    }
                    None => break,
                };
                if let Some(reply) = reply
                    && !send_within(&mut sink, reply, timers.dead).await
                {
                    break;
                }
                // The sender sees its own change (or its retry's) at once.
                if let Some(msg) = delivered.next(&Box::pin(svc.snapshot(&slot)).await, &token)
                    && !send_within(&mut sink, msg, timers.dead).await
                {
                    break;
                }
            }
            event = rx.recv() => {
                let msg = match event {
                    Ok(snap) => delivered.next(&snap, &token),
                    Err(RecvError::Lagged(_)) => {
                        delivered.next(&Box::pin(svc.snapshot(&slot)).await, &token)
                    }
                    Err(RecvError::Closed) => break,
                };
                if let Some(msg) = msg
                    && !send_within(&mut sink, msg, timers.dead).await
                {
                    break;
                }
            }
            event = chat_rx.recv() => {
                let msg = match event {
                    Ok(event) => {
                        Box::pin(chat_message(&chat, reader.as_ref(), &slot, &event)).await
                    }
                    // A slow socket skips what it missed (the page reads the history).
                    Err(RecvError::Lagged(_)) => None,
                    Err(RecvError::Closed) => {
                        chat_rx = chat.subscribe_game(&first.row.id);
                        None
                    }
                };
                if let Some(msg) = msg
                    && !send_within(&mut sink, msg, timers.dead).await
                {
                    break;
                }
            }
            _ = tokio::time::sleep_until(next_check) => {
                if pinged {
                    tracing::debug!(game = %id, "WebSocket peer silent: closed");
                    let close = Message::Close(Some(CloseFrame {
                        code: close_code::AWAY,
                        reason: "no pong: the connection seems dead".into(),
                    }));
                    let _ = send_within(&mut sink, close, timers.dead).await;
                    break;
                }
                if !send_within(&mut sink, Message::Ping(Default::default()), timers.dead).await {
                    break;
                }
                pinged = true;
            }
            // The log-in's end, here or in another process (the bus), or found by the
            // watch's own re-read of the session (no Redis, or Redis down).
            () = crate::session_watch::until_ended(login.as_mut()) => {
                close_with(&mut sink, &mut stream, login_ended(), timers.dead).await;
                break;
            }
            _ = shutdown.changed() => {
                let close = Message::Close(Some(CloseFrame {
                    code: close_code::AWAY,
                    reason: "the server is shutting down".into(),
                }));
                let _ = send_within(&mut sink, close, timers.dead).await;
                break;
            }
        }
    }
    Box::pin(svc.seat_closed(&slot, &token, clean)).await;
}

//! `GET /api/games/{id}/ws`: live updates. The server sends `{"type":"state","game":GameView}`
//! on connect and after every change (from the game's `broadcast` channel); the client may send
//! moves, resignation and draw actions; errors come back as `{"type":"error",...}`.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::AppState;
use crate::error::ApiError;
use crate::game_service::{Answer, DrawAction, GameService, GameSlot, Snapshot, WsGuard};
use crate::player::Player;

/// Largest WebSocket message accepted from a client (bytes). A longer one closes the
/// connection with status 1009 ("message too big", RFC 6455 section 7.4.1).
pub const WS_MESSAGE_LIMIT: usize = 4096;

/// What the transport itself reads before giving up on a client (bytes): above the
/// message limit, so an oversized message is read whole and answered with a 1009 close
/// instead of a dropped connection.
const WS_TRANSPORT_LIMIT: usize = 64 * 1024;

/// A message from the client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        ply: Option<u32>,
    },
    Resign,
    Abort,
    Draw {
        action: String,
    },
    Takeback {
        action: String,
    },
    Rematch {
        #[serde(default)]
        action: Option<String>,
    },
    Ping,
}

/// The upgrade: 404 for an unknown game, 503 past the connection limits.
pub async fn upgrade(
    State(svc): State<AppState>,
    Player(token): Player,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(r) => {
            return ApiError::bad_request(format!("not a WebSocket request: {}", r.body_text()))
                .into_response();
        }
    };
    let slot = match svc.slot(&id).await {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    let guard = match svc.ws_guard(&slot) {
        Ok(g) => g,
        Err(e) => return e.into_response(),
    };
    upgrade
        .max_message_size(WS_TRANSPORT_LIMIT)
        .max_frame_size(WS_TRANSPORT_LIMIT)
        .on_upgrade(move |socket| session(svc, slot, id, token, socket, guard))
}

fn state_message(snap: &Snapshot, token: &str) -> Message {
    let body = serde_json::json!({"type": "state", "game": snap.view_for(token)});
    Message::Text(body.to_string().into())
}

/// The close frame for a message over [`WS_MESSAGE_LIMIT`].
fn too_big() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::SIZE,
        reason: format!("message over {WS_MESSAGE_LIMIT} bytes").into(),
    }))
}

/// Whether the transport refused a frame or message over [`WS_TRANSPORT_LIMIT`] (tungstenite's
/// capacity error); the connection can still send its close frame then.
fn over_transport_limit(e: axum::Error) -> bool {
    matches!(
        e.into_inner()
            .downcast_ref::<tokio_tungstenite::tungstenite::Error>(),
        Some(tokio_tungstenite::tungstenite::Error::Capacity(_))
    )
}

fn error_message(e: &ApiError) -> Message {
    let body = serde_json::json!({"type": "error", "error": e});
    Message::Text(body.to_string().into())
}

async fn handle(svc: &Arc<GameService>, id: &str, token: &str, text: &str) -> Option<Message> {
    let msg: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return Some(error_message(&ApiError::bad_request(format!(
                "bad message: {e}"
            ))));
        }
    };
    let result = match msg {
        ClientMessage::Ping => return Some(Message::Text(r#"{"type":"pong"}"#.into())),
        ClientMessage::Move { mv, ply } => {
            match svc.play_or_retry(id, token, &mv, ply.map(i64::from)).await {
                // A retry changes nothing, so no broadcast follows: answer the sender alone.
                Ok((view, true)) => {
                    let body = serde_json::json!({"type": "state", "game": view});
                    return Some(Message::Text(body.to_string().into()));
                }
                other => other.map(|_| ()),
            }
        }
        ClientMessage::Resign => svc.resign(id, token).await.map(|_| ()),
        ClientMessage::Abort => svc.abort(id, token).await.map(|_| ()),
        ClientMessage::Draw { action } => match DrawAction::parse(&action) {
            Ok(a) => svc.draw(id, token, a).await.map(|_| ()),
            Err(e) => Err(e),
        },
        ClientMessage::Takeback { action } => match Answer::parse_for(&action, "takeback") {
            Ok(a) => svc.takeback(id, token, a).await.map(|_| ()),
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

async fn session(
    svc: Arc<GameService>,
    slot: Arc<GameSlot>,
    id: String,
    token: String,
    socket: WebSocket,
    _guard: WsGuard,
) {
    let (mut sink, mut stream) = socket.split();
    let mut rx = slot.tx.subscribe();
    let mut shutdown = svc.shutdown_signal();
    let first = svc.snapshot(&slot).await;
    if sink.send(state_message(&first, &token)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let reply = match incoming {
                    Some(Ok(Message::Text(text))) if text.len() > WS_MESSAGE_LIMIT => {
                        let _ = sink.send(too_big()).await;
                        break;
                    }
                    Some(Ok(Message::Binary(b))) if b.len() > WS_MESSAGE_LIMIT => {
                        let _ = sink.send(too_big()).await;
                        break;
                    }
                    Some(Ok(Message::Text(text))) => handle(&svc, &id, &token, text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => Some(error_message(&ApiError::bad_request(
                        "binary messages are not understood: send JSON text",
                    ))),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                    // A message over the transport limit is refused by the transport before it
                    // is read whole: it still gets the 1009 close, not a dropped connection.
                    Some(Err(e)) => {
                        if over_transport_limit(e) {
                            let _ = sink.send(too_big()).await;
                        }
                        break;
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                };
                if let Some(reply) = reply
                    && sink.send(reply).await.is_err()
                {
                    break;
                }
            }
            event = rx.recv() => {
                let msg = match event {
                    Ok(snap) => state_message(&snap, &token),
                    Err(RecvError::Lagged(_)) => state_message(&svc.snapshot(&slot).await, &token),
                    Err(RecvError::Closed) => break,
                };
                if sink.send(msg).await.is_err() {
                    break;
                }
            }
            _ = shutdown.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                break;
            }
        }
    }
}

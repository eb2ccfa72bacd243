//! Notifications (site::notifications, issue 38): the list, read marks, and the live count as
//! server-sent events.

use std::convert::Infallible;

use axum::Json;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use site::notifications::stream::NotificationStream;
use site::notifications::{MarkRead, NotificationList};
use site_model::error::SiteError;

use super::{ApiJson, AppState};
use crate::error::HttpError;
use crate::player::{LoggedIn, Player};
use tokio::sync::broadcast::error::RecvError;

/// A comment line this often, so that a closed connection is noticed soon.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(15);

/// The body of `POST /api/notifications/read`: `{"ids": [...]}` or `{"all": true}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadBody {
    /// The ids to mark read.
    #[serde(default)]
    pub ids: Option<Vec<String>>,
    /// Mark all read.
    #[serde(default)]
    pub all: Option<bool>,
}

impl TryFrom<ReadBody> for MarkRead {
    type Error = SiteError;

    /// 400 for neither or both, `"all": false`, or a bad id (named by its index).
    fn try_from(body: ReadBody) -> Result<MarkRead, SiteError> {
        match (body.ids, body.all) {
            (Some(ids), None) => MarkRead::ids(ids),
            (None, Some(true)) => Ok(MarkRead::All),
            (None, Some(false)) => Err(SiteError::bad_request(
                "all: send {\"all\": true}, or the ids to mark read",
            )),
            (Some(_), Some(_)) => Err(SiteError::bad_request(
                "send either \"ids\" or \"all\", not both",
            )),
            (None, None) => Err(SiteError::bad_request(
                "send {\"ids\": [...]} or {\"all\": true}",
            )),
        }
    }
}

/// The answer of `POST /api/notifications/read`.
#[derive(Debug, Serialize)]
pub struct Unread {
    /// How many are still unread.
    pub unread: i64,
}

/// `GET /api/notifications`.
pub async fn list(
    State(svc): State<AppState>,
    Player(token): Player,
) -> Result<Json<NotificationList>, HttpError> {
    Ok(Json(svc.notifications.list(&token).await?))
}

/// `POST /api/notifications/read` -> `{"unread": n}`.
pub async fn read(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<ReadBody>,
) -> Result<Json<Unread>, HttpError> {
    let mark = MarkRead::try_from(body)?;
    Ok(Json(Unread {
        unread: svc.notifications.mark_read(&token, mark).await?,
    }))
}

/// `GET /api/notifications/stream`: event `notify` with `{"unread": n, "latest": item|null}`
/// at once and whenever it changes; 503 `too_many` past the caps on streams. A stream opened
/// under a log-in ends when that session does (log-out, a new password, a moderator's close,
/// in any process): a last event `ended` with `{"reason": ...}`, then the end of the response.
pub async fn stream(
    State(svc): State<AppState>,
    Player(token): Player,
    LoggedIn(account): LoggedIn,
    axum::Extension(sec): axum::Extension<crate::security::SecurityState>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>> + use<>>, HttpError> {
    let stream = NotificationStream::open(&svc.notifications, token, svc.play.shutdown_signal())?;
    // An account's open page makes it online to its followers (browser finding 2).
    let stream = if account.is_some() {
        stream.of_account()
    } else {
        stream
    };
    let login = account.zip(sec.sessions.clone()).map(|(a, s)| StreamLogin {
        ended: s.subscribe_ended(),
        sessions: s,
        hash: a.session_hash,
        account: a.id,
        listening: true,
        next_check: tokio::time::Instant::now() + site::accounts::SESSION_RECHECK,
    });
    let events = futures_util::stream::unfold(
        (stream, login, false),
        |(mut stream, mut login, done)| async move {
            if done {
                return None;
            }
            let ended_event = || {
                Event::default()
                    .event("ended")
                    .data(r#"{"reason":"log-in ended"}"#)
            };
            loop {
                // Every SESSION_RECHECK the session is read again: the bus may never tell (no
                // Redis, or Redis down; hostile finding 1 of round 4).
                let due = login.as_ref().map(|l| l.next_check);
                let recheck = async move {
                    match due {
                        Some(due) => tokio::time::sleep_until(due).await,
                        None => std::future::pending().await,
                    }
                };
                // Only this stream's account (or a lag, which may hide it) wakes it.
                let ended = async {
                    match login.as_mut() {
                        Some(l) if l.listening => l.next_end().await,
                        _ => std::future::pending().await,
                    }
                };

                tokio::select! {
                    text = stream.next() => {
                        let text = text?;
                        let event = Event::default().event("notify").data(&text);
                        return Some((Ok(event), (stream, login, false)));
                    }
                    mine = ended => {
                        let Some(l) = login.as_mut() else { continue };
                        if !mine {
                            l.listening = false;
                            continue;
                        }
                        if !l.sessions.still_live(&l.hash).await {
                            return Some((Ok(ended_event()), (stream, login, true)));
                        }
                    }
                    () = recheck => {
                        let Some(l) = login.as_mut() else { continue };
                        l.next_check = tokio::time::Instant::now() + site::accounts::SESSION_RECHECK;
                        if l.sessions.has_ended(&l.hash).await {
                            return Some((Ok(ended_event()), (stream, login, true)));
                        }
                    }
                }
            }
        },
    );
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

/// The log-in a notification stream was opened under (see [`stream`]).
struct StreamLogin {
    sessions: std::sync::Arc<site::accounts::Sessions>,
    hash: String,
    account: String,
    ended: tokio::sync::broadcast::Receiver<String>,
    /// Whether `ended` can still tell (its channel is open).
    listening: bool,
    /// When the session is read again by itself.
    next_check: tokio::time::Instant,
}

impl StreamLogin {
    /// Waits for an end of sessions of this account (`true`; also after a lag, which may have
    /// hidden one); `false` when no end can come any more.
    async fn next_end(&mut self) -> bool {
        next_end_of(&mut self.ended, &self.account).await
    }
}

/// Waits on `ended` for an end of sessions of `account` (`true`; also after a lag, which may
/// have hidden one); `false` when the channel is closed. Cancel-safe: ends of other accounts
/// are skipped inside.
pub(crate) async fn next_end_of(
    ended: &mut tokio::sync::broadcast::Receiver<String>,
    account: &str,
) -> bool {
    loop {
        match ended.recv().await {
            Ok(id) if id == account => return true,
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => return true,
            Err(RecvError::Closed) => return false,
        }
    }
}

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
    let watch = crate::session_watch::SessionWatch::of(account, sec.sessions.clone());
    let events = futures_util::stream::unfold(
        (stream, watch, false),
        |(mut stream, mut watch, done)| async move {
            if done {
                return None;
            }
            tokio::select! {
                text = stream.next() => {
                    let text = text?;
                    let event = Event::default().event("notify").data(&text);
                    Some((Ok(event), (stream, watch, false)))
                }
                () = crate::session_watch::until_ended(watch.as_mut()) => {
                    let event = Event::default()
                        .event("ended")
                        .data(r#"{"reason":"log-in ended"}"#);
                    Some((Ok(event), (stream, watch, true)))
                }
            }
        },
    );
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

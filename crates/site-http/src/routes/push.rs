//! Web Push subscriptions (site::notifications::push, issue 38): the site's VAPID key, and a
//! browser's `PushSubscription` stored or removed.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use site::notifications::push::{NewSubscription, PushEndpoint};

use super::{ApiJson, AppState};
use crate::error::HttpError;
use crate::player::Player;

/// `GET /api/push/key`.
#[derive(Debug, Serialize)]
pub struct PushKey {
    /// base64url of the 65-byte uncompressed P-256 point (`applicationServerKey`).
    pub vapid_public_key: String,
}

/// The keys of a `PushSubscription` (RFC 8291): base64url.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    /// The browser's P-256 public key.
    pub p256dh: String,
    /// The browser's authentication secret.
    pub auth: String,
}

/// The body of `POST /api/push/subscriptions`: the browser's `PushSubscription.toJSON()`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SubscriptionBody {
    /// The push service's URL for this browser.
    pub endpoint: String,
    /// When the subscription ends (Unix ms), if the browser says. Read and not kept: a
    /// subscription ends when its push service answers 404 or 410.
    #[allow(dead_code, reason = "accepted as browsers send it, not kept")]
    #[serde(default)]
    pub expiration_time: Option<f64>,
    /// Its keys.
    pub keys: SubscriptionKeys,
}

/// The body of `DELETE /api/push/subscriptions`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndpointBody {
    /// The subscription's endpoint.
    pub endpoint: String,
}

/// `GET /api/push/key` -> `{"vapid_public_key": "..."}`; 503 `unavailable` without Web Push.
pub async fn key(State(svc): State<AppState>) -> Result<Json<PushKey>, HttpError> {
    Ok(Json(PushKey {
        vapid_public_key: svc.notifications.push_key()?.to_string(),
    }))
}

/// `POST /api/push/subscriptions` -> 201; 400 naming the bad field.
pub async fn subscribe(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<SubscriptionBody>,
) -> Result<StatusCode, HttpError> {
    let sub = NewSubscription::new(
        PushEndpoint::parse(&body.endpoint)?,
        &body.keys.p256dh,
        &body.keys.auth,
        svc.notifications.push_policy(),
    )?;
    svc.notifications.subscribe(&token, sub).await?;
    Ok(StatusCode::CREATED)
}

/// `DELETE /api/push/subscriptions` -> 204 (also when there was none of this player's); 400
/// when the endpoint is not a URL.
pub async fn unsubscribe(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<EndpointBody>,
) -> Result<StatusCode, HttpError> {
    let endpoint = PushEndpoint::parse(&body.endpoint)?;
    svc.notifications.unsubscribe(&token, &endpoint).await?;
    Ok(StatusCode::NO_CONTENT)
}

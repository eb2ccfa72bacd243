//! Web Push (issue 38): notifications sent to the browsers that subscribed, through their
//! push services, encrypted for the browser (RFC 8291, `aes128gcm` of RFC 8188) and signed with
//! the site's VAPID key (RFC 8292), as RFC 8030 messages: [`encrypt`] (with ece-native's
//! RFC 8188 records) and web-push-native's keys and VAPID JWT build them; the [`PushSender`]
//! port (the server's HTTPS client) sends them.
//!
//! Every process runs [`run`]: it claims the notifications not yet pushed (each by one process,
//! for a lease), sends each to its owner's browsers, drops a subscription the push service
//! answers 404 or 410 for (RFC 8030 section 7.3: gone), and marks the notification pushed. The
//! message's `Topic` is the notification's id, so a repeat (a process that died between
//! sending and marking) replaces the first at the push service, and the page's service worker
//! shows one notification per id (`tag`).

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use futures_util::future::BoxFuture;
use serde::Serialize;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::{PlayerToken, TokenHash};
use site_store::{NotificationRow, PushJob, PushSubscriptionRow, Store, now_ms};
use tokio::sync::watch;
use web_push_native::jwt_simple::algorithms::{
    ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair,
};
use web_push_native::jwt_simple::claims::Claims;
use web_push_native::p256;
use web_push_native::p256::elliptic_curve::sec1::ToEncodedPoint;

use super::Notifications;
pub use super::push_endpoint::{EndpointPolicy, PushEndpoint, is_global};

/// The name of the VAPID key in the site's secrets.
const VAPID_SECRET: &str = "vapid_es256_private";
/// Most subscriptions (browsers) kept per player; the oldest go first.
pub const MAX_SUBSCRIPTIONS: i64 = 10;
/// A notification older than this is not pushed any more (a browser that subscribes late is
/// not sent the past).
pub const MAX_AGE_MS: i64 = 3_600_000;
/// How long a process holds a notification it is pushing before another may.
pub const LEASE_MS: i64 = 60_000;
/// How long the push service may take to answer.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest wait between two looks for notifications to push (a change here wakes it at once).
pub const POLL: Duration = Duration::from_secs(5);
/// How long a push service keeps a message for an offline browser (`TTL`), and the VAPID
/// token's life (at most 24 h, RFC 8292 section 2).
pub const TTL: Duration = Duration::from_secs(12 * 3600);
/// The record size (`rs`) of a message's `aes128gcm` header: RFC 8291 section 4 wants it
/// greater than the one record's length (plaintext, the delimiter octet and the 16-octet tag);
/// 4096 is what push services take, and a longer message gets its length plus one.
pub const RECORD_SIZE: u32 = 4096;

/// The port through which a push message leaves: the server's HTTPS client.
pub trait PushSender: Send + Sync {
    /// Sends `request` (a POST to the push service); the answer's status, or why none came.
    /// Before connecting, the sender checks where the request would go as the site's
    /// [`EndpointPolicy`] says: without `allow_insecure`, an endpoint whose host is or resolves
    /// to an address that is not [`is_global`] is [`SendError::Refused`], and the connection
    /// goes only to the addresses checked (no second look-up a DNS rebinding could answer).
    fn send(&self, request: http::Request<Vec<u8>>) -> BoxFuture<'static, Result<u16, SendError>>;
}

/// Why a push message was not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// The endpoint's host is or resolves to an address pushes may not go to (SSRF): nothing
    /// was sent, and the subscription is dropped.
    Refused(String),
    /// No answer came (the host unknown, the connection or TLS failed, ...): tried again with
    /// the next notification.
    Failed(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Refused(e) => write!(f, "refused: {e}"),
            SendError::Failed(e) => f.write_str(e),
        }
    }
}

/// The site's VAPID key (RFC 8292): made once and kept in the database with the other secrets.
/// `Debug` shows only the public key.
pub struct VapidKey {
    pair: ES256KeyPair,
    public: String,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl VapidKey {
    /// The site's key on `store`, made on first use (every process reads the same one).
    pub async fn load(store: &Store) -> Result<VapidKey, SiteError> {
        let fresh = URL_SAFE_NO_PAD.encode(ES256KeyPair::generate().to_bytes());
        let stored = store.site_secret(VAPID_SECRET, fresh).await?;
        let pair = URL_SAFE_NO_PAD
            .decode(stored.as_bytes())
            .ok()
            .and_then(|b| ES256KeyPair::from_bytes(&b).ok())
            .ok_or_else(|| {
                SiteError::new(
                    ErrorCode::Internal,
                    format!("site secret '{VAPID_SECRET}' is not a P-256 private key"),
                )
            })?;
        let point = pair.public_key().public_key().to_bytes_uncompressed();
        Ok(VapidKey {
            public: URL_SAFE_NO_PAD.encode(point),
            pair,
        })
    }

    /// The public key as `applicationServerKey` takes it: base64url of the 65-byte
    /// uncompressed P-256 point.
    pub fn public(&self) -> &str {
        &self.public
    }
}

/// A browser's subscription as it arrives (`POST /api/push/subscriptions`; site-http reads the
/// body into it), checked by [`NewSubscription::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSubscription {
    endpoint: PushEndpoint,
    p256dh: String,
    auth: String,
}

impl NewSubscription {
    /// Checks a subscription: the endpoint (as `policy` allows, [`PushEndpoint::check`]),
    /// `p256dh` (base64url of a 65-byte uncompressed P-256 point on the curve) and `auth`
    /// (base64url of 16 bytes). 400 naming the field.
    pub fn new(
        endpoint: PushEndpoint,
        p256dh: &str,
        auth: &str,
        policy: EndpointPolicy,
    ) -> Result<NewSubscription, SiteError> {
        let bad = |m: String| SiteError::bad_request(m);
        endpoint
            .check(policy)
            .map_err(|m| bad(format!("endpoint: {m}")))?;
        let key = URL_SAFE_NO_PAD
            .decode(p256dh.trim_end_matches('=').as_bytes())
            .map_err(|_| bad("keys.p256dh: not base64url".into()))?;
        if key.len() != 65 || p256::PublicKey::from_sec1_bytes(&key).is_err() {
            return Err(bad(
                "keys.p256dh: not an uncompressed P-256 public key (65 bytes)".into(),
            ));
        }
        let secret = URL_SAFE_NO_PAD
            .decode(auth.trim_end_matches('=').as_bytes())
            .map_err(|_| bad("keys.auth: not base64url".into()))?;
        if secret.len() != 16 {
            return Err(bad(format!(
                "keys.auth: {} bytes, an authentication secret has 16",
                secret.len()
            )));
        }
        Ok(NewSubscription {
            endpoint,
            p256dh: URL_SAFE_NO_PAD.encode(key),
            auth: URL_SAFE_NO_PAD.encode(secret),
        })
    }

    /// The endpoint URL.
    pub fn endpoint(&self) -> &str {
        self.endpoint.as_str()
    }
}

/// `message` encrypted for the browser whose key is `ua_public` and authentication secret
/// `auth` (RFC 8291): an ephemeral P-256 key of the site's, ECDH with the browser's, the input
/// key from HKDF-SHA-256 over the shared secret with `auth` as salt and
/// `"WebPush: info\0" || ua_public || as_public` as info; then one `aes128gcm` record (RFC 8188)
/// under a random salt, with the ephemeral public key as `keyid` and [`RECORD_SIZE`] as `rs`
/// (greater than the record, as RFC 8291 section 4 requires; web-push-native's own `encrypt`
/// gives `rs` equal to it).
pub fn encrypt(
    message: &[u8],
    ua_public: &p256::PublicKey,
    auth: &[u8],
) -> Result<Vec<u8>, String> {
    // The record: the message, the last-record delimiter (2) and the tag.
    let record = message.len() + 17;
    let rs = u32::try_from(record + 1)
        .map_err(|_| "a push message longer than 4 GiB".to_string())?
        .max(RECORD_SIZE);
    let as_secret = loop {
        // A random scalar; the rare 32 bytes that are none (0, or not below the order) are
        // drawn again.
        if let Ok(k) = p256::SecretKey::from_slice(&rand::random::<[u8; 32]>()) {
            break k;
        }
    };
    let as_public = as_secret.public_key();
    let shared = p256::ecdh::diffie_hellman(as_secret.to_nonzero_scalar(), ua_public.as_affine());
    let keyid = as_public.to_encoded_point(false);
    let mut info = b"WebPush: info\0".to_vec();
    info.extend_from_slice(ua_public.to_encoded_point(false).as_bytes());
    info.extend_from_slice(keyid.as_bytes());
    let mut ikm = [0u8; 32];
    hkdf::Hkdf::<sha2::Sha256>::new(Some(auth), shared.raw_secret_bytes().as_slice())
        .expand(&info, &mut ikm)
        .map_err(|e| e.to_string())?;
    ece_native::encrypt(
        ikm,
        rand::random::<[u8; 16]>(),
        keyid.as_bytes(),
        std::iter::once(message.to_vec()),
        rs,
    )
    .map_err(|e| format!("encryption: {e}"))
}

/// What a push message carries (JSON, encrypted): the notification and the page it leads to.
#[derive(Debug, Serialize)]
struct Payload<'a> {
    id: &'a str,
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<&'a str>,
    text: &'a str,
    url: String,
}

/// Web Push of one process: the key, where messages go out, and the contact the push
/// services see (the VAPID `sub`).
pub struct Push {
    key: VapidKey,
    sender: Arc<dyn PushSender>,
    contact: String,
    policy: EndpointPolicy,
}

impl Push {
    /// Pushes signed with `key`, sent through `sender`; `contact` is a `mailto:` or `https:`
    /// URL for the push services (RFC 8292 section 2.1).
    pub fn new(
        key: VapidKey,
        sender: Arc<dyn PushSender>,
        contact: String,
        policy: EndpointPolicy,
    ) -> Push {
        Push {
            key,
            sender,
            contact,
            policy,
        }
    }

    /// The VAPID public key.
    pub fn public_key(&self) -> &str {
        self.key.public()
    }

    /// The VAPID `Authorization` for a push to `endpoint` (RFC 8292 section 3): a JWT (ES256)
    /// for the endpoint's origin, valid for [`TTL`], and the public key. The origin keeps a
    /// port that is not the scheme's default (web-push-native's own signature drops it).
    fn vapid(&self, endpoint: &str) -> Result<String, String> {
        let origin = url::Url::parse(endpoint)
            .map_err(|e| format!("endpoint: {e}"))?
            .origin()
            .ascii_serialization();
        let claims = Claims::create(TTL.into())
            .with_audience(origin)
            .with_subject(&self.contact);
        let token = self.key.pair.sign(claims).map_err(|e| e.to_string())?;
        Ok(format!("vapid t={token}, k={}", self.key.public))
    }

    /// The request that pushes `note` to `sub`.
    fn request(
        &self,
        note: &NotificationRow,
        sub: &PushSubscriptionRow,
    ) -> Result<http::Request<Vec<u8>>, String> {
        let endpoint: http::Uri = sub.endpoint.parse().map_err(|e| format!("endpoint: {e}"))?;
        let public = URL_SAFE_NO_PAD
            .decode(sub.p256dh.as_bytes())
            .ok()
            .and_then(|k| p256::PublicKey::from_sec1_bytes(&k).ok())
            .ok_or("stored p256dh unreadable")?;
        let auth = URL_SAFE_NO_PAD
            .decode(sub.auth.as_bytes())
            .ok()
            .filter(|a| a.len() == 16)
            .ok_or("stored auth unreadable")?;
        let payload = Payload {
            id: &note.id,
            kind: note.kind.as_str(),
            game: note.game.as_deref(),
            by: note.by.as_deref(),
            text: &note.text,
            url: match (&note.game, &note.tournament) {
                (Some(g), _) => format!("/game/{g}"),
                (None, Some(t)) => format!("/tournament/{t}"),
                (None, None) => "/".to_string(),
            },
        };
        let body = serde_json::to_vec(&payload).map_err(|e| e.to_string())?;
        let body = encrypt(&body, &public, &auth)?;
        let vapid = self.vapid(&sub.endpoint)?;
        let mut request = http::Request::builder()
            .method(http::Method::POST)
            .uri(endpoint)
            .header("TTL", TTL.as_secs())
            .header(http::header::CONTENT_ENCODING, "aes128gcm")
            .header(http::header::CONTENT_TYPE, "application/octet-stream")
            .header(http::header::CONTENT_LENGTH, body.len())
            .header(http::header::AUTHORIZATION, vapid)
            .body(body)
            .map_err(|e| e.to_string())?;
        // RFC 8030 section 5.4: a message with the same topic replaces one still waiting.
        if let Ok(topic) = http::HeaderValue::from_str(&note.id) {
            request.headers_mut().insert("Topic", topic);
        }
        Ok(request)
    }
}

impl Notifications {
    /// Turns Web Push on with `push` (`Site::open`).
    pub fn set_push(&self, push: Arc<Push>) {
        let _ = self.push.set(push);
    }

    /// The VAPID public key (`GET /api/push/key`); 503 `unavailable` without Web Push.
    pub fn push_key(&self) -> Result<&str, SiteError> {
        self.push
            .get()
            .map(|p| p.public_key())
            .ok_or_else(|| SiteError::new(ErrorCode::Unavailable, "push is not set up here"))
    }

    /// The endpoint rules of this site.
    pub fn push_policy(&self) -> EndpointPolicy {
        self.push.get().map(|p| p.policy).unwrap_or_default()
    }

    /// `POST /api/push/subscriptions`: stores `sub` for `token`'s player (this browser).
    pub async fn subscribe(
        &self,
        token: &PlayerToken,
        sub: NewSubscription,
    ) -> Result<(), SiteError> {
        self.push_key()?;
        self.store
            .add_push_subscription(
                &PushSubscriptionRow {
                    endpoint: sub.endpoint.as_str().to_string(),
                    owner: token.hash(),
                    p256dh: sub.p256dh,
                    auth: sub.auth,
                    created_at: now_ms(),
                },
                MAX_SUBSCRIPTIONS,
            )
            .await?;
        Ok(())
    }

    /// `DELETE /api/push/subscriptions`: `token`'s subscription at `endpoint` ends (another
    /// player's is left alone). Whether there was one. The endpoint is normalised as when
    /// subscribing, so any spelling of the stored one matches.
    pub async fn unsubscribe(
        &self,
        token: &PlayerToken,
        endpoint: &PushEndpoint,
    ) -> Result<bool, SiteError> {
        Ok(self
            .store
            .delete_push_subscription(endpoint.as_str(), Some(&token.hash()))
            .await?)
    }

    /// Whether `owner` has a subscription (the page offers one otherwise).
    pub async fn subscribed(&self, owner: &TokenHash) -> Result<bool, SiteError> {
        Ok(!self.store.push_subscriptions(owner).await?.is_empty())
    }

    /// Pushes what is due now; how many messages the push services took (2xx).
    pub async fn push_due(&self) -> Result<usize, SiteError> {
        let Some(push) = self.push.get() else {
            return Ok(0);
        };
        let now = now_ms();
        let jobs = self
            .store
            .claim_pushes(now, now - MAX_AGE_MS, LEASE_MS, 50)
            .await?;
        let mut taken = 0;
        for PushJob { note, owner } in jobs {
            for sub in self.store.push_subscriptions(&owner).await? {
                if sub.created_at > note.created_at {
                    continue;
                }
                // A row stored under older rules (another port, http) is not sent to.
                if let Err(e) = PushEndpoint::parse(&sub.endpoint)
                    .map_err(|e| e.message)
                    .and_then(|e| e.check_shape(push.policy))
                {
                    tracing::warn!(error = %e, "a push endpoint the rules refuse; subscription dropped");
                    self.store
                        .delete_push_subscription(&sub.endpoint, None)
                        .await?;
                    continue;
                }
                let request = match push.request(&note, &sub) {
                    Ok(r) => r,
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot build a push message; subscription dropped");
                        self.store
                            .delete_push_subscription(&sub.endpoint, None)
                            .await?;
                        continue;
                    }
                };
                let sent = tokio::time::timeout(SEND_TIMEOUT, push.sender.send(request)).await;
                match sent {
                    Ok(Ok(status)) if (200..300).contains(&status) => taken += 1,
                    Ok(Ok(404 | 410)) => {
                        // RFC 8030 section 7.3: the subscription is gone for good.
                        self.store
                            .delete_push_subscription(&sub.endpoint, None)
                            .await?;
                        tracing::info!(
                            "a push subscription the push service says is gone was dropped"
                        );
                    }
                    Ok(Ok(status)) => {
                        tracing::warn!(status, "a push service refused a message")
                    }
                    Ok(Err(SendError::Refused(e))) => {
                        tracing::warn!(
                            error = %e,
                            "a push endpoint is not a public address; subscription dropped"
                        );
                        self.store
                            .delete_push_subscription(&sub.endpoint, None)
                            .await?;
                    }
                    Ok(Err(SendError::Failed(e))) => {
                        tracing::warn!(error = %e, "a push message was not sent")
                    }
                    Err(_) => tracing::warn!("a push service did not answer in time"),
                }
            }
            self.store.mark_pushed(&note.id, now_ms()).await?;
        }
        Ok(taken)
    }
}

/// Pushes notifications until `shutdown` turns true: at once when one is made here, and every
/// [`POLL`] for those made by other processes.
pub async fn run(notifications: Arc<Notifications>, mut shutdown: watch::Receiver<bool>) {
    loop {
        if let Err(e) = notifications.push_due().await {
            tracing::warn!(error = %e, "cannot push notifications");
        }
        tokio::select! {
            _ = tokio::time::sleep(POLL) => {}
            _ = notifications.push_wake.notified() => {}
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `aes128gcm` header of `body` (RFC 8188 section 2.1): `rs`, and where the records
    /// start.
    fn header(body: &[u8]) -> (usize, usize) {
        let rs = u32::from_be_bytes(body[16..20].try_into().unwrap()) as usize;
        (rs, 21 + usize::from(body[20]))
    }

    #[test]
    fn the_record_size_is_greater_than_the_record_and_the_message_decrypts() {
        let browser = p256::SecretKey::from_slice(&[7u8; 32]).unwrap();
        let auth = [9u8; 16];
        // 250 bytes was sent with rs 267, the record's own length (RFC 8291 section 4: greater).
        for len in [0, 1, 250, 4078, 4079, 5000] {
            let message: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let body = encrypt(&message, &browser.public_key(), &auth).unwrap();
            let (rs, start) = header(&body);
            let record = body.len() - start;
            assert_eq!(start, 21 + 65, "keyid: the uncompressed ephemeral key");
            assert_eq!(record, len + 17, "one record: message, delimiter, tag");
            assert!(
                rs > record,
                "{len} bytes: rs {rs} is not above the record ({record})"
            );
            assert!(rs >= RECORD_SIZE as usize);
            let opened = web_push_native::decrypt(
                body,
                &browser,
                &web_push_native::Auth::clone_from_slice(&auth),
            )
            .unwrap();
            assert_eq!(opened, message, "{len} bytes");
        }
    }
}

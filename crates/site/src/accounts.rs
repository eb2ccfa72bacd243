//! Accounts (issue 13): register with a username and password, log in and out, change the
//! password. Passwords are hashed with argon2id (the `argon2` crate's defaults, OWASP's
//! minimum: 19 MiB of memory, 2 passes, 1 lane; a PHC string with a random 16-byte salt).
//!
//! A log-in is a session: a random token in the cookie `icebound_session` (`__Host-` and
//! `Secure` over HTTPS, `HttpOnly`, `SameSite=Lax`), of which the database keeps only the
//! SHA-256 (table `sessions`). The player middleware turns a valid session into the account's
//! player token ([`site_model::secrets::TokenKeys::account_token`]), so every seat, game list and
//! analysis works for an account exactly as for an anonymous player; without a session the
//! browser is the anonymous player of its `icebound_player` cookie, as before. Registering
//! gives the account the seats of that anonymous player: the browser's games become its games.
//!
//! A wrong username and a wrong password get the same answer (401 `bad_credentials`) after the
//! same work: an unknown name is checked against a dummy hash of the same parameters.
//! Log-ins are also paced per username across addresses and processes ([`guard`]).

pub mod api_tokens;
pub mod guard;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::play::random_token;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::{PlayerToken, TokenHash, TokenKeys, session_hash};
use site_model::time::WallTime;
use site_model::usernames;
use site_store::{AccountRow, NameClash, Store, StoreError, now_ms};

/// The session cookie over plain HTTP.
pub const SESSION_COOKIE: &str = "icebound_session";
/// The session cookie over HTTPS.
pub const SECURE_SESSION_COOKIE: &str = "__Host-icebound_session";
/// Shortest password, characters.
pub const MIN_PASSWORD: usize = 8;
/// Longest password, bytes (argon2 takes any length; this bounds the work per request).
pub const MAX_PASSWORD: usize = 256;
/// How long a process trusts what it read of a session: a log-out or password change made
/// through another process takes effect there within this time.
pub const SESSION_CACHE: Duration = Duration::from_secs(10);
/// How often an open game socket or notification stream of a log-in checks its session again
/// by itself, whatever the bus says: without Redis, or while it is down, an end of sessions
/// through another process reaches it within this plus [`SESSION_CACHE`] (hostile finding 1 of
/// round 4: it never did).
pub const SESSION_RECHECK: Duration = Duration::from_secs(10);
/// Lifetime of the session cookie in the browser (a year, as the player cookie).
pub const SESSION_MAX_AGE_S: u64 = 31_536_000;

/// The account a request is logged in as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: String,
    /// Its name as registered.
    pub username: String,
    /// The SHA-256 of the session token the request presented.
    pub session_hash: String,
}

/// Body of `POST /api/accounts` and `POST /api/session`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3-20 of `[A-Za-z0-9_-]`.
    pub username: String,
    /// At least [`MIN_PASSWORD`] characters.
    pub password: String,
}

/// Body of `POST /api/me/password`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub old_password: String,
    /// The new one, at least [`MIN_PASSWORD`] characters.
    pub new_password: String,
}

/// `GET /api/me`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MeView {
    /// The account's name, or `null` for an anonymous player.
    pub username: Option<String>,
}

/// Whether `name` is a username: 3-20 of `[A-Za-z0-9_-]`.
pub fn valid_username(name: &str) -> bool {
    (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn check_username(name: &str) -> Result<(), SiteError> {
    if valid_username(name) {
        Ok(())
    } else {
        Err(SiteError::bad_request(
            "a username is 3 to 20 letters (A-Z, a-z), digits, '_' or '-'",
        ))
    }
}

fn check_password(password: &str) -> Result<(), SiteError> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(SiteError::bad_request(format!(
            "a password has at least {MIN_PASSWORD} characters"
        )));
    }
    if password.len() > MAX_PASSWORD {
        return Err(SiteError::bad_request(format!(
            "a password has at most {MAX_PASSWORD} bytes"
        )));
    }
    Ok(())
}

/// 409 for a name that cannot be registered: `conflict` when taken (a case variant
/// included), `username_lookalike` when it looks like a taken one.
fn name_clash(name: &str, clash: NameClash) -> SiteError {
    match clash {
        NameClash::LooksLike(other) if other.to_lowercase() != name.to_lowercase() => {
            SiteError::new(
                ErrorCode::UsernameLookalike,
                format!(
                    "the username '{name}' looks too much like '{other}', which is taken: \
                     choose another"
                ),
            )
        }
        _ => SiteError::new(
            ErrorCode::Conflict,
            format!("the username '{name}' is taken"),
        ),
    }
}

fn bad_credentials() -> SiteError {
    SiteError::new(ErrorCode::BadCredentials, "wrong username or password")
}

/// argon2 computations at once (each takes 19 MiB and tens of milliseconds of a core): more
/// wait their turn, up to [`HASH_WAIT`], then get 503.
const HASHERS: usize = 2;
/// Longest wait for a turn to hash.
const HASH_WAIT: Duration = Duration::from_secs(10);

/// A turn to run argon2 ([`HASHERS`] at once).
async fn hash_turn() -> Result<tokio::sync::SemaphorePermit<'static>, SiteError> {
    static GATE: OnceLock<tokio::sync::Semaphore> = OnceLock::new();
    let gate = GATE.get_or_init(|| tokio::sync::Semaphore::new(HASHERS));
    match tokio::time::timeout(HASH_WAIT, gate.acquire()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(SiteError::new(
            ErrorCode::TooMany,
            "the server is busy checking passwords: try again in a moment",
        )),
    }
}

/// The argon2id PHC string of `password`, computed off the async threads.
async fn hash_password(password: String) -> Result<String, SiteError> {
    let _turn = hash_turn().await?;
    tokio::task::spawn_blocking(move || {
        let salt: [u8; 16] = rand::rng().random();
        let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())
    .and_then(|r| r)
    .map_err(|e| {
        tracing::error!(error = %e, "password hashing failed");
        SiteError::new(ErrorCode::Internal, "the password could not be hashed")
    })
}

/// A hash no password matches, of the same parameters: an unknown username costs the same.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let salt = SaltString::encode_b64(&[7u8; 16]).ok();
        salt.and_then(|s| {
            Argon2::default()
                .hash_password(b"no password is this one", &s)
                .ok()
                .map(|h| h.to_string())
        })
        .unwrap_or_default()
    })
}

/// Whether `password` matches the PHC string `stored`, computed off the async threads.
async fn verify_password(password: String, stored: String) -> Result<bool, SiteError> {
    let _turn = hash_turn().await?;
    Ok(tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false))
}

/// What a process read of one session: its account's id and name (none: no such session),
/// and when.
type Cached = (Option<(String, String)>, Instant);

/// Tells the other processes that sessions of an account ended (`serve --redis`: the server's
/// bus), so that their caches forget them and their sockets and streams of those sessions
/// close at once rather than within [`SESSION_CACHE`] (issue 41, round 3).
pub trait SessionRelay: Send + Sync {
    /// Sessions of account `id` ended (after the commit that ended them). Must not block; a
    /// lost message leaves the other processes' caches to expire within [`SESSION_CACHE`].
    fn relay_session_end(&self, id: &str);
}

/// The sessions of the site, read through a short cache ([`SESSION_CACHE`]).
pub struct Sessions {
    store: Store,
    time: WallTime,
    cache: Mutex<HashMap<String, Cached>>,
    /// Account ids whose sessions (some or all) ended, here or in another process: every open
    /// socket and stream of a log-in listens and checks its own session again.
    ended: tokio::sync::broadcast::Sender<String>,
    relay: OnceLock<Arc<dyn SessionRelay>>,
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sessions").finish_non_exhaustive()
    }
}

/// Session ends a listener may fall behind by before it checks its session anyway.
const ENDED_BACKLOG: usize = 256;

/// Most sessions cached per process; past it the cache starts again.
const MAX_CACHED_SESSIONS: usize = 100_000;

impl Sessions {
    /// Sessions kept in `store`; `time` is the clock the log-in guard reads (a test moves it).
    pub fn new(store: Store, time: WallTime) -> Arc<Sessions> {
        Arc::new(Sessions {
            store,
            time,
            cache: Mutex::new(HashMap::new()),
            ended: tokio::sync::broadcast::channel(ENDED_BACKLOG).0,
            relay: OnceLock::new(),
        })
    }

    /// Tells the other processes of session ends through `relay` from now on.
    pub fn set_relay(&self, relay: Arc<dyn SessionRelay>) {
        let _ = self.relay.set(relay);
    }

    /// The account ids whose sessions end from now on (here or, with a relay, anywhere): a
    /// socket or stream opened under a log-in checks it again on each one of its account (and
    /// on a lag, when it may have missed one).
    pub fn subscribe_ended(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.ended.subscribe()
    }

    /// Whether the store says the session of hash `hash` ended (through the cache, so within
    /// [`SESSION_CACHE`] of its end); `false` when the store cannot tell (the next check will).
    pub async fn has_ended(&self, hash: &str) -> bool {
        matches!(
            self.account_of_hash(&TokenHash::from_stored(hash.to_string()))
                .await,
            Ok(None)
        )
    }

    /// Whether the session of hash `hash` is still live: read from the store (the cache is
    /// forgotten for the account whose sessions ended first). An unreadable store counts as
    /// live (the next check tells).
    pub async fn still_live(&self, hash: &str) -> bool {
        !matches!(
            self.account_of_hash(&TokenHash::from_stored(hash.to_string()))
                .await,
            Ok(None)
        )
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cached>> {
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The account of session token `token`, if it is a live session; an error when the
    /// database cannot tell (the request must not go on as the anonymous player).
    pub async fn account_of(&self, token: &str) -> Result<Option<Account>, StoreError> {
        if token.len() != 43 || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        self.account_of_hash(&session_hash(token)).await
    }

    /// [`Sessions::account_of`] by the token's hash.
    pub async fn account_of_hash(&self, hash: &TokenHash) -> Result<Option<Account>, StoreError> {
        let hash = hash.as_str().to_string();
        if let Some((found, at)) = self.cache().get(&hash).cloned()
            && at.elapsed() < SESSION_CACHE
        {
            return Ok(found.map(|(id, username)| Account {
                id,
                username,
                session_hash: hash,
            }));
        }
        let since = now_ms() - (SESSION_MAX_AGE_S as i64) * 1000;
        let found = self.store.session_account(&hash, since).await?;
        {
            let mut cache = self.cache();
            if cache.len() >= MAX_CACHED_SESSIONS {
                cache.clear();
            }
            cache.insert(hash.clone(), (found.clone(), Instant::now()));
        }
        Ok(found.map(|(id, username)| Account {
            id,
            username,
            session_hash: hash,
        }))
    }

    /// Sessions of account `id` ended (log-out, new password, a moderator's close, a reset by
    /// e-mail), after the commit: this process forgets what it read of them, its sockets and
    /// streams of the account check their sessions again, and the other processes are told
    /// (they do the same: [`Sessions::remote_end`]).
    pub fn forget_account(&self, id: &str) {
        self.remote_end(id);
        if let Some(relay) = self.relay.get() {
            relay.relay_session_end(id);
        }
    }

    /// Another process ended sessions of account `id`: forgotten here, and this process's
    /// sockets and streams of the account check their sessions again.
    pub fn remote_end(&self, id: &str) {
        self.cache()
            .retain(|_, (found, _)| found.as_ref().is_none_or(|(a, _)| a != id));
        let _ = self.ended.send(id.to_string());
    }
}

/// A new session token: 43 letters and digits (256 bits).
fn new_session_token() -> String {
    random_token(43)
}

/// `POST /api/accounts`: registers `creds` for the anonymous player `player_token` (its games
/// become the account's) and opens a session; returns the session token. 400 for a bad name
/// or password, 409 `conflict` for a taken name or a browser already logged in. `address` (the
/// client's, keyed) becomes one the account is known from ([`guard`]).
pub async fn register(
    sessions: &Sessions,
    keys: &TokenKeys,
    logged_in: Option<&Account>,
    player_token: &PlayerToken,
    creds: &Credentials,
    address: IpAddr,
) -> Result<(String, MeView), SiteError> {
    check_username(&creds.username)?;
    check_password(&creds.password)?;
    if logged_in.is_some() {
        return Err(SiteError::new(
            ErrorCode::Conflict,
            "this browser is logged in: log out before registering another account",
        ));
    }
    if usernames::is_reserved(&creds.username) {
        return Err(SiteError::new(
            ErrorCode::UsernameReserved,
            format!(
                "the username '{}' is reserved for the site: choose another",
                creds.username
            ),
        ));
    }
    if let Some(other) = sessions.store.name_like(&creds.username).await? {
        return Err(name_clash(&creds.username, NameClash::LooksLike(other)));
    }
    let password_hash = hash_password(creds.password.clone()).await?;
    let account = AccountRow {
        id: random_token(12),
        username: creds.username.clone(),
        password_hash,
        created_at: now_ms(),
    };
    let token = new_session_token();
    let account_hash = keys.account_token(&account.id).hash();
    let stored = sessions
        .store
        .insert_account(
            &account,
            &session_hash(&token),
            &player_token.hash(),
            &account_hash,
        )
        .await?;
    if let Some(clash) = stored {
        return Err(name_clash(&creds.username, clash));
    }
    sessions
        .store
        .login_succeeded(
            &guard::key(&account.username),
            &account.id,
            &guard::address_digest(address),
            sessions.time.now_ms(),
        )
        .await?;
    tracing::info!(account = %account.id, "account registered");
    Ok((
        token,
        MeView {
            username: Some(account.username),
        },
    ))
}

/// `POST /api/session`: checks `creds` from `address` (the client's, keyed) and opens a
/// session; returns its token. 401 `bad_credentials` for an unknown name or a wrong password
/// alike; 429 `rate_limited` with `Retry-After` when the username's guard says wait
/// ([`guard`]: the password is then not checked).
pub async fn log_in(
    sessions: &Sessions,
    creds: &Credentials,
    address: IpAddr,
) -> Result<(String, MeView), SiteError> {
    if creds.password.len() > MAX_PASSWORD {
        return Err(bad_credentials());
    }
    let valid = valid_username(&creds.username);
    let account = if valid {
        sessions.store.account_named(&creds.username).await?
    } else {
        None
    };
    let digest = guard::address_digest(address);
    let known = match &account {
        Some(a) => sessions.store.login_address_known(&a.id, &digest).await?,
        None => false,
    };
    if valid && !known {
        guard::admit(&sessions.store, &creds.username, sessions.time.now_ms()).await?;
    }
    let stored = account
        .as_ref()
        .map_or_else(|| dummy_hash().to_string(), |a| a.password_hash.clone());
    let matches = verify_password(creds.password.clone(), stored).await?;
    let Some(account) = account.filter(|_| matches) else {
        if valid {
            guard::failed(&sessions.store, &creds.username, sessions.time.now_ms()).await?;
        }
        return Err(bad_credentials());
    };
    // Told only to whoever knows the password (issue 41: closed by a moderator).
    if sessions
        .store
        .mod_state_of(&account.id)
        .await?
        .is_some_and(|s| s.closed_at.is_some())
    {
        return Err(SiteError::new(
            ErrorCode::AccountClosed,
            "this account was closed by a moderator",
        ));
    }
    sessions
        .store
        .login_succeeded(
            &guard::key(&creds.username),
            &account.id,
            &digest,
            sessions.time.now_ms(),
        )
        .await?;
    let token = new_session_token();
    sessions
        .store
        .insert_session(&session_hash(&token), &account.id, now_ms())
        .await?;
    Ok((
        token,
        MeView {
            username: Some(account.username),
        },
    ))
}

/// `DELETE /api/session`: ends the request's session (nothing to do without one).
pub async fn log_out(sessions: &Sessions, account: Option<&Account>) -> Result<(), SiteError> {
    if let Some(a) = account {
        sessions
            .store
            .delete_session(&TokenHash::from_stored(a.session_hash.clone()))
            .await?;
        sessions.forget_account(&a.id);
    }
    Ok(())
}

/// The argon2id hash of a new password after the password rules (a reset by e-mail,
/// crate::mail); 400 for a bad one.
pub async fn new_password_hash(password: &str) -> Result<String, SiteError> {
    check_password(password)?;
    hash_password(password.to_string()).await
}

/// `POST /api/me/password`: 401 without a session, 401 `bad_credentials` for a wrong old
/// password, 400 for a bad new one; ends the account's other sessions.
pub async fn change_password(
    sessions: &Sessions,
    account: Option<&Account>,
    change: &PasswordChange,
) -> Result<(), SiteError> {
    let Some(a) = account else {
        return Err(SiteError::new(ErrorCode::NotLoggedIn, "log in first"));
    };
    check_password(&change.new_password)?;
    let Some(row) = sessions.store.account(&a.id).await? else {
        return Err(SiteError::new(ErrorCode::NotLoggedIn, "log in first"));
    };
    if change.old_password.len() > MAX_PASSWORD
        || !verify_password(change.old_password.clone(), row.password_hash).await?
    {
        return Err(SiteError::new(ErrorCode::BadCredentials, "wrong password"));
    }
    let hash = hash_password(change.new_password.clone()).await?;
    sessions
        .store
        .set_password(&a.id, &hash, &a.session_hash)
        .await?;
    sessions.forget_account(&a.id);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_3_to_20_of_letters_digits_underscore_and_dash() {
        for ok in ["ann", "Bo_b-12", "a234567890123456789z"] {
            assert!(valid_username(ok), "{ok}");
        }
        for bad in [
            "",
            "ab",
            "a2345678901234567890z",
            "an n",
            "änn",
            "ann!",
            "a/b",
        ] {
            assert!(!valid_username(bad), "{bad}");
        }
    }

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            let h = hash_password("correct horse".into()).await.expect("hash");
            assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
            assert!(
                verify_password("correct horse".into(), h.clone())
                    .await
                    .expect("turn")
            );
            assert!(
                !verify_password("correct hors".into(), h.clone())
                    .await
                    .expect("turn")
            );
            assert!(
                !verify_password("x".into(), "not a hash".into())
                    .await
                    .expect("turn")
            );
            assert!(
                !verify_password("no password is this one".into(), String::new())
                    .await
                    .expect("turn")
            );
            assert!(dummy_hash().starts_with("$argon2id$"));
        });
    }

    #[test]
    fn short_and_long_passwords_are_refused() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password("пароль12").is_ok(), "characters, not bytes");
        assert!(check_password(&"x".repeat(MAX_PASSWORD + 1)).is_err());
    }
}

//! The site's secrets: player tokens the server signs (so a token it did not issue is refused),
//! the SHA-256 hashes that are all the database keeps of tokens and invitations, and the
//! invitation of a friend game, derived from its creator's token so that only the creator can
//! show it again (issue 9, sections 2 and 3; docs/security.md).
//!
//! A token is 32 random letters and digits (190 bits) followed by 22 base64url characters: the
//! first 128 bits of HMAC-SHA-256 over the random part, keyed with the site's secret (kept in
//! the database, table `site_secrets`). Tokens issued before signing existed (32 letters and
//! digits) stay valid when the schema migration found them holding a seat.

use std::collections::HashSet;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use rand::Rng;
use rand::distr::Alphanumeric;
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// Letters and digits of a token's random part.
const RANDOM_LEN: usize = 32;
/// Bytes of the signature kept (128 bits; 22 base64url characters).
const MAC_LEN: usize = 16;
/// Characters of a whole signed token.
pub const TOKEN_LEN: usize = RANDOM_LEN + 22;
/// Characters of an invitation (hex of 128 bits).
pub const INVITE_LEN: usize = 32;

/// The SHA-256 of `secret` in lowercase hex (64 characters).
fn hash_hex(secret: &str) -> String {
    hex_of(&Sha256::digest(secret.as_bytes()))
}

/// The raw bearer token a player holds (cookie `icebound_player`, header `X-Icebound-Player`,
/// or derived for an account: [`TokenKeys::account_token`]). It is never stored or logged:
/// `Debug` redacts it, and the database keeps only its [`TokenHash`].
#[derive(Clone, PartialEq, Eq)]
pub struct PlayerToken(String);

/// A token that does not have the shape `[A-Za-z0-9_-]{16,64}` ([`valid_token`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MalformedToken;

impl std::fmt::Display for MalformedToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a player token is 16 to 64 letters, digits, '_' or '-'")
    }
}

impl std::error::Error for MalformedToken {}

impl PlayerToken {
    /// The token's text, for a cookie or a header (never for a log).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the database stores of this token: its SHA-256 in hex.
    pub fn hash(&self) -> TokenHash {
        TokenHash(hash_hex(&self.0))
    }
}

impl std::fmt::Debug for PlayerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PlayerToken(..)")
    }
}

impl TryFrom<String> for PlayerToken {
    type Error = MalformedToken;

    /// A token of the shape [`valid_token`] checks (whether the server issued it is
    /// [`TokenKeys::issued`]).
    fn try_from(t: String) -> Result<PlayerToken, MalformedToken> {
        if valid_token(&t) {
            Ok(PlayerToken(t))
        } else {
            Err(MalformedToken)
        }
    }
}

impl TryFrom<&str> for PlayerToken {
    type Error = MalformedToken;

    fn try_from(t: &str) -> Result<PlayerToken, MalformedToken> {
        PlayerToken::try_from(t.to_string())
    }
}

/// The stored hash of a [`PlayerToken`] (or of a log-in session's token): 64 lowercase hex
/// characters of SHA-256. Only [`PlayerToken::hash`], [`session_hash`] and
/// [`TokenHash::from_stored`] make one, so a raw token never stands where a hash is expected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TokenHash(String);

impl TokenHash {
    /// A hash read back from the database (a seat's or a seek's owner column).
    pub fn from_stored(hex: String) -> TokenHash {
        TokenHash(hex)
    }

    /// The hex text, as the database binds it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The hex text, for a row's column.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::fmt::Display for TokenHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the database stores of a log-in session's token (site::accounts): its SHA-256 in hex.
pub fn session_hash(session_token: &str) -> TokenHash {
    TokenHash(hash_hex(session_token))
}

/// The hash of a seat token the database held in plain text before tokens were hashed (schema
/// migration 3 only: such a token may predate [`valid_token`]'s shape).
pub fn migrated_token_hash(plain: &str) -> TokenHash {
    TokenHash(hash_hex(plain))
}

/// What the database stores of an invitation ([`invite_for`]): its SHA-256 in hex.
pub fn invite_hash(invite: &str) -> String {
    hash_hex(invite)
}

/// The SHA-256 (hex) of a text that is no secret: a key that makes the same content one
/// row (`site::upload`'s upload key).
pub fn content_digest(text: &str) -> String {
    hash_hex(text)
}

/// What the database keeps of a client's address (already keyed: an IPv6 client is its /64),
/// for the log-in guard's known addresses and the lobby's anonymous seeks: its SHA-256 (hex),
/// so that no table lists addresses in clear.
pub fn address_digest(address: std::net::IpAddr) -> String {
    hash_hex(&format!("client-address {address}"))
}

fn hex_of(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// The invitation of game `game_id` created by the holder of `token`: 32 hex characters of
/// HMAC-SHA-256 keyed with the token. The database keeps only its hash, and nobody without the
/// token (the database's reader included) can compute it.
pub fn invite_for(token: &PlayerToken, game_id: &str) -> String {
    // HMAC takes keys of any length; new_from_slice cannot fail for it.
    let Ok(mut mac) = HmacSha256::new_from_slice(token.0.as_bytes()) else {
        return String::new();
    };
    mac.update(b"icebound invitation ");
    mac.update(game_id.as_bytes());
    let full = mac.finalize().into_bytes();
    hex_of(&full[..INVITE_LEN / 2])
}

/// Signs and checks player tokens.
#[derive(Clone)]
pub struct TokenKeys {
    secret: Vec<u8>,
    /// SHA-256 of every unsigned token that held a seat when the database was migrated.
    legacy: HashSet<[u8; 32]>,
}

impl std::fmt::Debug for TokenKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenKeys")
            .field("legacy", &self.legacy.len())
            .finish_non_exhaustive()
    }
}

impl TokenKeys {
    /// Keys from the site's `secret` and the hex hashes of the tokens issued before signing.
    pub fn new(secret: Vec<u8>, legacy_hashes: impl IntoIterator<Item = String>) -> TokenKeys {
        let legacy = legacy_hashes
            .into_iter()
            .filter_map(|h| parse_hex32(&h))
            .collect();
        TokenKeys { secret, legacy }
    }

    fn mac(&self, random: &str) -> Option<HmacSha256> {
        let mut mac = HmacSha256::new_from_slice(&self.secret).ok()?;
        mac.update(b"icebound player ");
        mac.update(random.as_bytes());
        Some(mac)
    }

    /// A new signed token.
    pub fn issue(&self) -> PlayerToken {
        let random: String = rand::rng()
            .sample_iter(&Alphanumeric)
            .take(RANDOM_LEN)
            .map(char::from)
            .collect();
        let tag = self
            .mac(&random)
            .map(|m| URL_SAFE_NO_PAD.encode(&m.finalize().into_bytes()[..MAC_LEN]))
            .unwrap_or_default();
        PlayerToken(random + &tag)
    }

    /// The player token of account `account_id`: a signed token whose random part is derived
    /// from the site's secret and the id, so it is the same in every process and never needs
    /// storing. It never leaves the server (a logged-in browser holds a session cookie, which
    /// the player middleware turns into this token: site::accounts).
    pub fn account_token(&self, account_id: &str) -> PlayerToken {
        const ALNUM: &[u8; 62] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let Ok(mut mac) = HmacSha256::new_from_slice(&self.secret) else {
            return PlayerToken(String::new());
        };
        mac.update(b"icebound account ");
        mac.update(account_id.as_bytes());
        let bytes = mac.finalize().into_bytes();
        let random: String = bytes
            .iter()
            .take(RANDOM_LEN)
            .map(|b| char::from(ALNUM[usize::from(*b) % ALNUM.len()]))
            .collect();
        let tag = self
            .mac(&random)
            .map(|m| URL_SAFE_NO_PAD.encode(&m.finalize().into_bytes()[..MAC_LEN]))
            .unwrap_or_default();
        PlayerToken(random + &tag)
    }

    /// Whether this server issued `token`: its signature checks (in constant time), or it is an
    /// unsigned token that held a seat before signing.
    pub fn issued(&self, token: &str) -> bool {
        if token.len() == TOKEN_LEN && token.is_ascii() {
            let (random, tag) = token.split_at(RANDOM_LEN);
            let Ok(tag) = URL_SAFE_NO_PAD.decode(tag) else {
                return false;
            };
            return tag.len() == MAC_LEN
                && random.bytes().all(|b| b.is_ascii_alphanumeric())
                && self
                    .mac(random)
                    .is_some_and(|m| m.verify_truncated_left(&tag).is_ok());
        }
        !self.legacy.is_empty()
            && valid_token(token)
            && self
                .legacy
                .contains(&<[u8; 32]>::from(Sha256::digest(token.as_bytes())))
    }
}

fn parse_hex32(h: &str) -> Option<[u8; 32]> {
    if h.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// 32 random bytes for a new site secret.
pub fn new_secret() -> Vec<u8> {
    let mut s = vec![0u8; 32];
    rand::rng().fill(&mut s[..]);
    s
}

/// `[A-Za-z0-9_-]{16,64}`: the shape of a token (whether the server issued it is
/// [`TokenKeys::issued`]).
pub fn valid_token(t: &str) -> bool {
    (16..=64).contains(&t.len())
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_tokens_check_and_others_do_not() {
        let keys = TokenKeys::new(new_secret(), []);
        let t = keys.issue().expose().to_string();
        assert_eq!(t.len(), TOKEN_LEN);
        assert!(valid_token(&t), "{t}");
        assert!(keys.issued(&t));
        // Another site's secret, a changed character, a made-up token: refused.
        assert!(!TokenKeys::new(new_secret(), []).issued(&t));
        let mut forged = t.clone().into_bytes();
        forged[3] = if forged[3] == b'a' { b'b' } else { b'a' };
        assert!(!keys.issued(&String::from_utf8(forged).unwrap()));
        assert!(!keys.issued("ATTACKERmadeUpToken0123456789abcATTACKERmadeUpToken0"));
        assert!(!keys.issued(""));
    }

    #[test]
    fn tokens_from_before_signing_stay_valid_when_listed() {
        let old = "abcdefghijklmnopqrstuvwxyz012345";
        let keys = TokenKeys::new(new_secret(), [hash_hex(old)]);
        assert!(keys.issued(old));
        assert!(!keys.issued("abcdefghijklmnopqrstuvwxyz012346"));
    }

    #[test]
    fn hashes_and_invitations() {
        assert_eq!(
            hash_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let one = PlayerToken::try_from("token-one-xxxxxxxxxxxx").unwrap();
        let two = PlayerToken::try_from("token-two-xxxxxxxxxxxx").unwrap();
        let a = invite_for(&one, "game1234");
        assert_eq!(a.len(), INVITE_LEN);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(a, invite_for(&one, "game1234"));
        assert_ne!(a, invite_for(&two, "game1234"));
        assert_ne!(a, invite_for(&one, "game1235"));
        assert_eq!(invite_hash(&a), hash_hex(&a));
    }

    #[test]
    fn player_tokens_parse_hash_and_never_print() {
        let t = PlayerToken::try_from("abcdefghijklmnopqrstuvwxyz012345").unwrap();
        assert_eq!(
            t.hash().as_str(),
            hash_hex("abcdefghijklmnopqrstuvwxyz012345")
        );
        assert_eq!(format!("{t:?}"), "PlayerToken(..)");
        assert_eq!(PlayerToken::try_from("short"), Err(MalformedToken));
        assert_eq!(
            PlayerToken::try_from("has space in it 0123"),
            Err(MalformedToken)
        );
        assert_eq!(session_hash("abc").as_str(), hash_hex("abc"));
    }
}

/// A link's one-time secret sent by e-mail (issue 38: an address's verification, a password
/// reset, an unsubscribe link): 32 random letters and digits (190 bits). The database keeps
/// its SHA-256 ([`MailToken::hash`]) except for an unsubscribe token, which can do nothing but
/// turn mail off. `Debug` redacts it.
#[derive(Clone, PartialEq, Eq)]
pub struct MailToken(String);

impl MailToken {
    /// A fresh token.
    pub fn new() -> MailToken {
        MailToken(
            rand::rng()
                .sample_iter(&Alphanumeric)
                .take(RANDOM_LEN)
                .map(char::from)
                .collect(),
        )
    }

    /// A token as a link brought it back; `None` unless it has the shape of one.
    pub fn parse(text: &str) -> Option<MailToken> {
        (text.len() == RANDOM_LEN && text.bytes().all(|b| b.is_ascii_alphanumeric()))
            .then(|| MailToken(text.to_string()))
    }

    /// The text, for a link (never for a log).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the database keeps: the SHA-256 in hex.
    pub fn hash(&self) -> String {
        hash_hex(&self.0)
    }
}

impl Default for MailToken {
    fn default() -> Self {
        MailToken::new()
    }
}

impl std::fmt::Debug for MailToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MailToken(<redacted>)")
    }
}

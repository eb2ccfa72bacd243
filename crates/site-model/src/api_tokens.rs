//! Personal API tokens (issue 44, the Bot API): a secret an account makes for a program,
//! sent as `Authorization: Bearer <token>`, with the scopes it was made with. The database
//! keeps only its SHA-256 ([`ApiToken::hash`]); the text is shown once, when it is made.

use rand::Rng;
use rand::distr::Alphanumeric;

use crate::secrets::{TokenHash, session_hash};

/// What every API token's text starts with, so that it cannot be taken for another secret.
pub const PREFIX: &str = "ibt_";
/// Letters and digits after [`PREFIX`] (190 bits).
const RANDOM_LEN: usize = 32;

/// A personal API token's text. `Debug` redacts it; only its [`TokenHash`] is stored.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiToken(String);

impl ApiToken {
    /// A fresh token: `ibt_` and 32 random letters and digits.
    pub fn new() -> ApiToken {
        let random: String = rand::rng()
            .sample_iter(&Alphanumeric)
            .take(RANDOM_LEN)
            .map(char::from)
            .collect();
        ApiToken(format!("{PREFIX}{random}"))
    }

    /// A token as an `Authorization` header brought it; `None` unless it has the shape of one.
    pub fn parse(text: &str) -> Option<ApiToken> {
        let random = text.strip_prefix(PREFIX)?;
        (random.len() == RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric()))
            .then(|| ApiToken(text.to_string()))
    }

    /// The text, for the one answer that shows it (never for a log).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// What the database keeps: its SHA-256 in hex.
    pub fn hash(&self) -> TokenHash {
        session_hash(&self.0)
    }
}

impl Default for ApiToken {
    fn default() -> Self {
        ApiToken::new()
    }
}

impl std::fmt::Debug for ApiToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiToken(..)")
    }
}

game::text_enum! {
    /// What a token may do (lichess's scope names where they exist).
    pub enum Scope ("scope") {
        /// Play as a bot: the event stream, the bot's game streams, moves and resignations,
        /// challenges. Making a token with it turns the account into a BOT account for good.
        BotPlay = "bot:play",
        /// Read one's challenges and the event stream.
        ChallengeRead = "challenge:read",
        /// Make, accept and decline challenges.
        ChallengeWrite = "challenge:write",
    }
}

/// The scopes of a token: a set, kept in [`Scope::ALL`]'s order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// The scopes named in `names`; 400-worthy text naming the first unknown one otherwise.
    pub fn parse<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Scopes, String> {
        let mut found = Vec::new();
        for name in names {
            match Scope::parse(name.trim()) {
                Some(s) => found.push(s),
                None => {
                    return Err(format!(
                        "scopes: unknown scope '{}' (known: {})",
                        game::excerpt(name),
                        Scope::ALL
                            .iter()
                            .map(|s| s.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        Ok(Scopes(
            Scope::ALL
                .iter()
                .copied()
                .filter(|s| found.contains(s))
                .collect(),
        ))
    }

    /// The scopes as stored: their names joined by spaces.
    pub fn stored(&self) -> String {
        self.names().join(" ")
    }

    /// The scopes of a stored text (unknown names, from a later version, are dropped).
    pub fn from_stored(text: &str) -> Scopes {
        Scopes(
            Scope::ALL
                .iter()
                .copied()
                .filter(|s| text.split(' ').any(|n| n == s.as_str()))
                .collect(),
        )
    }

    /// Whether `scope` is among them.
    pub fn has(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// Their names, in [`Scope::ALL`]'s order.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|s| s.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_parse_hash_and_never_print() {
        let t = ApiToken::new();
        assert_eq!(ApiToken::parse(t.expose()), Some(t.clone()));
        assert_eq!(t.hash(), session_hash(t.expose()));
        assert_eq!(format!("{t:?}"), "ApiToken(..)");
        assert_eq!(ApiToken::parse("ibt_short"), None);
        assert_eq!(
            ApiToken::parse("abcdefghijklmnopqrstuvwxyz0123456789"),
            None
        );
    }

    #[test]
    fn scopes_parse_store_and_name_the_unknown() {
        let s = Scopes::parse(["challenge:write", "bot:play", "bot:play"]).unwrap();
        assert_eq!(s.names(), vec!["bot:play", "challenge:write"]);
        assert_eq!(Scopes::from_stored(&s.stored()), s);
        assert!(s.has(Scope::BotPlay) && !s.has(Scope::ChallengeRead));
        let e = Scopes::parse(["bot:play", "email:read"]).unwrap_err();
        assert!(e.contains("'email:read'"), "{e}");
    }
}

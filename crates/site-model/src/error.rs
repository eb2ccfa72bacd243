//! API errors: a code, an HTTP status and a message, sent as
//! `{"error": {"code": "...", "message": "..."}}` (docs/api.md, "Errors").

use serde::Serialize;

/// The error codes of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: malformed request.
    BadRequest,
    /// 403: the caller holds no seat of the game.
    NotAPlayer,
    /// 404: unknown game, invitation or path.
    NotFound,
    /// 409: the other side is to move.
    NotYourTurn,
    /// 409: the game is over (or, for a rematch, not over yet).
    GameOver,
    /// 409: the game changed meanwhile, the seat is taken, nothing to answer.
    Conflict,
    /// 409: the player already has the most unfinished engine games allowed.
    TooManyEngineGames,
    /// 409: a friend game's open seat is not taken yet: nothing but cancelling is possible.
    WaitingForOpponent,
    /// 409: the invitation was already used: both seats are taken (the error's `game` names
    /// the game, which anyone may watch).
    InviteUsed,
    /// 409: the game was cancelled before anyone used the invitation (`game` names it).
    InviteCancelled,
    /// 409: the creator of a friend game opened their own invitation while the other seat is
    /// still open (`game` names the game, to go back to).
    OwnInvite,
    /// 413: body, field or message too large.
    TooLarge,
    /// 413: an answer would be too large for the request (`POST /api/records/read`: more
    /// than four times the record's text); the message says so.
    AnswerTooLarge,
    /// 422: no legal move matches.
    IllegalMove,
    /// 422: several legal moves match.
    AmbiguousMove,
    /// 503: too many connections.
    TooMany,
    /// 503: a database outage is being given back to the running clocks
    /// (`site::timeouts::OUTAGE_MS`): no timed move and no loss on time until it is; try
    /// again in a moment.
    ClocksOwed,
    /// 403: a request that changes something came from another site's page, or carried only
    /// the cookie without a browser's `Origin` (docs/security.md).
    CrossOrigin,
    /// 415: a request that changes something without `content-type: application/json`.
    UnsupportedMediaType,
    /// 401: an `X-Icebound-Player` token this server did not issue.
    BadToken,
    /// 403: two different player cookies (one planted by another host of the domain).
    CookieConflict,
    /// 429: too many requests of one kind from this client address; `Retry-After` says when.
    RateLimited,
    /// 429: the player already has the most analyses allowed queued or running.
    TooManyAnalyses,
    /// 408: the request body did not arrive in time.
    Timeout,
    /// 401: log-in with an unknown username or a wrong password (the same answer for both).
    BadCredentials,
    /// 401: an account's action without a session.
    NotLoggedIn,
    /// 429: the player already holds the most open seeks allowed (site::lobby::MAX_SEEKS).
    TooManySeeks,
    /// 429: the player already has the most open challenges out allowed.
    TooManyChallenges,
    /// 409: a player tried to accept their own seek.
    OwnSeek,
    /// The player does not meet a tournament's entry conditions (the message says which).
    NotEligible,
    /// 409: registering a reserved username (`admin`, `icebound` ...) or one that looks like it
    /// (site_model::usernames::RESERVED).
    UsernameReserved,
    /// 409: registering a username that looks like a taken one (`AIice` when `Alice` is taken:
    /// the same skeleton key, site_model::usernames).
    UsernameLookalike,
    /// 403: the player takes no challenge from the challenger (a block says no more than
    /// this, issue 41).
    NotAccepted,
    /// 403: a moderator's page or action asked by an account that is not a moderator.
    NotModerator,
    /// 403: the account was closed by a moderator.
    AccountClosed,
    /// 429: the reporter has the most open reports allowed, or already reported this.
    TooManyReports,
    /// 403: a moderator muted the account: no chat until the time the message gives.
    Muted,
    /// 403: the player turned chat off (`PUT /api/me/chat`): they send and see none.
    ChatOff,
    /// 403: free chat text needs an account at least 10 minutes old with a finished game
    /// (anonymous players and new accounts may send the canned phrases).
    ChatNotAllowed,
    /// 403: a player of a game in progress wrote in its watchers' room, which the two
    /// players neither read nor write until the game ends (issue 41).
    WatchersClosed,
    /// 403: a BOT account (issue 44) asked for what only people do: seeks, quick pairing, a
    /// rated challenge to a person.
    BotAccount,
    /// 403: the API token's scopes do not cover this endpoint (the message names the scope).
    MissingScope,
    /// 503: a part of the site that is not set up on this server (Web Push without its key).
    Unavailable,
    /// 500: storage failure.
    Internal,
}

impl ErrorCode {
    /// The HTTP status of the code (RFC 9110, section 15).
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::BadRequest => 400,
            ErrorCode::NotAPlayer => 403,
            ErrorCode::NotFound => 404,
            ErrorCode::NotYourTurn
            | ErrorCode::GameOver
            | ErrorCode::Conflict
            | ErrorCode::TooManyEngineGames
            | ErrorCode::WaitingForOpponent
            | ErrorCode::InviteUsed
            | ErrorCode::InviteCancelled
            | ErrorCode::OwnInvite
            | ErrorCode::OwnSeek
            | ErrorCode::UsernameReserved
            | ErrorCode::UsernameLookalike => 409,
            ErrorCode::TooLarge | ErrorCode::AnswerTooLarge => 413,
            ErrorCode::IllegalMove | ErrorCode::AmbiguousMove => 422,
            ErrorCode::TooMany | ErrorCode::ClocksOwed | ErrorCode::Unavailable => 503,
            ErrorCode::CrossOrigin | ErrorCode::CookieConflict => 403,
            ErrorCode::UnsupportedMediaType => 415,
            ErrorCode::NotEligible
            | ErrorCode::NotAccepted
            | ErrorCode::NotModerator
            | ErrorCode::AccountClosed
            | ErrorCode::Muted
            | ErrorCode::ChatOff
            | ErrorCode::ChatNotAllowed
            | ErrorCode::WatchersClosed
            | ErrorCode::BotAccount
            | ErrorCode::MissingScope => 403,
            ErrorCode::BadToken | ErrorCode::BadCredentials | ErrorCode::NotLoggedIn => 401,
            ErrorCode::RateLimited
            | ErrorCode::TooManyAnalyses
            | ErrorCode::TooManySeeks
            | ErrorCode::TooManyChallenges
            | ErrorCode::TooManyReports => 429,
            ErrorCode::Timeout => 408,
            ErrorCode::Internal => 500,
        }
    }
}

/// An error answered to a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct SiteError {
    /// Machine-readable code.
    pub code: ErrorCode,
    /// What is wrong, in words.
    pub message: String,
    /// The game the error is about, when the caller did not name it (a used or cancelled
    /// invitation): its id, so that the page can offer to watch it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// For `illegal_move` and `ambiguous_move`: the move text's fault as data, so that a page
    /// words it in its own language (the message is English).
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_fault: Option<Box<MoveFault>>,
    /// For a `bad_request` about position text that cannot be read or is impossible: the
    /// rules crate's fault as data, so that a page words it in its own language.
    #[serde(rename = "position", skip_serializing_if = "Option::is_none")]
    pub position_fault: Option<Box<PositionFaultView>>,
    /// For a 429: seconds until a retry may succeed, sent as `Retry-After` (not in the body).
    #[serde(skip)]
    pub retry_after_s: Option<u64>,
}

/// Why position text was refused, as data: `{"code": "king", "args": ["W", "Kc3"]}` (the codes
/// of the rules crates' `PositionFault::hint`, Antarctos A18 and Ice Age Chess C12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionFaultView {
    /// The fault's code.
    pub code: &'static str,
    /// The values it names (squares, counts, fields, a side, an excerpt of the text), in order.
    pub args: Vec<String>,
}

/// Why move text was not played, as data: `{"text": "c3xc3", "kind": "ambiguous",
/// "candidates": ["c3xe1xg3xe5xc3", "c3xe5xg3xe1xc3"]}` (Antarctos A17, Ice Age Chess C13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveFault {
    /// The text as sent (at most 128 bytes: longer text is refused as `too_large` first).
    pub text: String,
    /// `unreadable` (no accepted form), `no_match` (no legal move is this one; the game may be
    /// over) or `ambiguous`.
    pub kind: &'static str,
    /// The legal moves the text could have meant, in canonical notation: the matches of an
    /// ambiguous text, or the full jump sequences an abbreviated one leaves squares out of.
    pub candidates: Vec<String>,
    /// Why no legal move is this one, when one reason can be told: `{"code": "pawn_onto_ice",
    /// "squares": ["e4"]}` (the codes of the rules crates' `why_not` and `hint`); else null.
    pub reason: Option<ReasonView>,
}

/// A [`game::MoveHint`] as the API sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReasonView {
    /// The reason's code.
    pub code: &'static str,
    /// The squares it names, in order.
    pub squares: Vec<String>,
}

impl SiteError {
    /// An error with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        SiteError {
            code,
            message: message.into(),
            game: None,
            move_fault: None,
            position_fault: None,
            retry_after_s: None,
        }
    }

    /// The same error with a `Retry-After` of `seconds` (at least 1).
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after_s = Some(seconds.max(1));
        self
    }

    /// The same error, naming game `id` (see [`SiteError::game`]).
    pub fn with_game(mut self, id: &str) -> Self {
        self.game = Some(id.to_string());
        self
    }

    /// 400 `bad_request`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, message)
    }

    /// 400 `bad_request` for position text `fen` that `error` refuses: the message quotes the
    /// text and gives the rules crate's words, and the fault goes along as data.
    pub fn bad_position<E: std::fmt::Display + game::PositionFault>(fen: &str, error: &E) -> Self {
        let hint = error.hint();
        let mut e = Self::bad_request(format!("fen '{}': {error}", game::excerpt(fen)));
        e.position_fault = Some(Box::new(PositionFaultView {
            code: hint.code,
            args: hint.args,
        }));
        e
    }

    /// 404 `not_found` for game `id`.
    pub fn no_game(id: &str) -> Self {
        Self::new(
            ErrorCode::NotFound,
            format!("no game with id '{}'", game::excerpt(id)),
        )
    }

    /// The JSON body `{"error": {...}}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": self })
    }
}

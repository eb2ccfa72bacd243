//! `POST /api/import` and `GET /api/imports/{id}`: games imported into the analysis board
//! (site::import); `POST`/`GET /api/games/{id}/review` and `/api/imports/{id}/review`: the
//! computer analysis of a whole game (site::review).

use crate::error::HttpError;
use axum::Json;
use axum::extract::State;

use super::{ApiJson, AppState, PathText};
use crate::player::Player;
use site::import::{self, ImportRequest, ImportView, ImportedGameView, check_sizes};
use site::positions::variant_named;
use site_model::error::SiteError;

/// The body as sent, with text where `site` has typed values. It keeps the name its `site`
/// struct had before it moved here, so that serde's words for a body of the wrong shape
/// (`expected struct ImportRequest`) stay the same.
pub mod body {
    use serde::Deserialize;

    /// `POST /api/import`'s body: `{"text": "<a PGN/PDN file>"}` or `{"base64": "..."}`, with
    /// `"variant"` when known.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ImportRequest {
        /// The file's text.
        #[serde(default)]
        pub text: Option<String>,
        /// The file's bytes in base64.
        #[serde(default)]
        pub base64: Option<String>,
        /// `antarctos` or `iceage`; found from the text when left out.
        #[serde(default)]
        pub variant: Option<String>,
    }
}

impl TryFrom<body::ImportRequest> for ImportRequest {
    type Error = SiteError;

    /// 413 for a text or base64 past `site::import::MAX_RECORD_TEXT` bytes, then 400 for an
    /// unknown variant (in that order, as before the body was parsed here).
    fn try_from(body: body::ImportRequest) -> Result<ImportRequest, SiteError> {
        check_sizes(body.text.as_deref(), body.base64.as_deref())?;
        let variant = body.variant.as_deref().map(variant_named).transpose()?;
        Ok(ImportRequest {
            text: body.text,
            base64: body.base64,
            variant,
        })
    }
}
use site::review::{self, ReviewView, Subject};

/// `POST /api/import` -> 200 with the ids of the games stored and the errors of the others.
pub async fn import(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<body::ImportRequest>,
) -> Result<Json<ImportView>, HttpError> {
    let req = ImportRequest::try_from(body)?;
    Ok(Json(import::import(&svc.play, &token, &req).await?))
}

/// `GET /api/imports/{id}` -> 200 with the game as a move tree.
pub async fn imported(
    State(svc): State<AppState>,
    PathText(id): PathText,
) -> Result<Json<ImportedGameView>, HttpError> {
    Ok(Json(import::imported(&svc.play, &id).await?))
}

/// `POST /api/games/{id}/review` -> 200 with the review, started if new.
pub async fn request_game_review(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::request(&svc.reviews, &token, &Subject::Game(id)).await?,
    ))
}

/// `GET /api/games/{id}/review` -> 200 with the review so far; 404 when none was asked for.
pub async fn game_review(
    State(svc): State<AppState>,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::review(&svc.reviews, &Subject::Game(id)).await?,
    ))
}

/// `POST /api/imports/{id}/review` -> as for a game.
pub async fn request_import_review(
    State(svc): State<AppState>,
    Player(token): Player,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::request(&svc.reviews, &token, &Subject::Import(id)).await?,
    ))
}

/// `GET /api/imports/{id}/review` -> as for a game.
pub async fn import_review(
    State(svc): State<AppState>,
    PathText(id): PathText,
) -> Result<Json<ReviewView>, HttpError> {
    Ok(Json(
        review::review(&svc.reviews, &Subject::Import(id)).await?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use site::records_read::MAX_RECORD_TEXT;
    use site_model::error::ErrorCode;
    use site_model::state::GameKind;

    #[test]
    fn an_import_checks_its_size_then_names_an_unknown_variant() {
        let body = |text: String, variant: &str| body::ImportRequest {
            text: Some(text),
            base64: None,
            variant: Some(variant.to_string()),
        };
        let err =
            ImportRequest::try_from(body("1. e4 *".into(), "checkers")).expect_err("checkers");
        assert_eq!(err.code, ErrorCode::BadRequest);
        assert_eq!(
            err.message,
            "unknown variant 'checkers' (antarctos or iceage)"
        );
        // Too long and misnamed: the size is said first, as before the body was parsed here.
        let long = "x".repeat(MAX_RECORD_TEXT + 1);
        let err = ImportRequest::try_from(body(long, "checkers")).expect_err("too long");
        assert_eq!(err.code, ErrorCode::TooLarge);
        let req = ImportRequest::try_from(body("1. e4 *".into(), "iceage")).expect("iceage");
        assert_eq!(req.variant, Some(GameKind::IceAge));
        let req = ImportRequest::try_from(body::ImportRequest {
            text: None,
            base64: Some("MS4gZTQgKg==".into()),
            variant: None,
        })
        .expect("no variant: found from the text later");
        assert_eq!(req.variant, None);
        assert_eq!(req.base64.as_deref(), Some("MS4gZTQgKg=="));
    }
}

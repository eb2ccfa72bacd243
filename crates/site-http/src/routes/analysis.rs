//! `POST /api/analysis` and `POST /api/analysis/stream`: the engine on any position
//! (site::analysis); `POST /api/solve`: the exact solver (site::solve); `POST
//! /api/positions`: a position's legal moves (site::positions).

use crate::error::HttpError;
use axum::Json;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;

use super::{ApiJson, AppState};
use crate::player::Player;
use site::analysis::{self, AnalysisRequest, AnalysisView, StreamEvent};
use site::positions::{self, PositionRequest, PositionView, variant_named};
use site::records_read::{self, ReadRequest};
use site::solve::{self as solver, SolveRequest, SolveView};
use site_model::error::SiteError;

/// The bodies as sent, with text where `site` has typed values. Each keeps the name its
/// `site` struct had before the bodies moved here, so that serde's words for a body of the
/// wrong shape (`expected struct AnalysisRequest`) stay the same.
pub mod body {
    use serde::Deserialize;

    /// `POST /api/analysis`'s and `/api/analysis/stream`'s body: `{"variant": "iceage", "fen":
    /// "...", "movetime_ms": 1000}`.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct AnalysisRequest {
        /// `antarctos` or `iceage`.
        pub variant: String,
        /// The position, at most 256 bytes.
        pub fen: String,
        /// Search time, milliseconds (`site::analysis` checks its range).
        pub movetime_ms: Option<u64>,
    }

    /// `POST /api/positions`'s body: `{"variant": "antarctos", "fen": "..."}`.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct PositionRequest {
        /// `antarctos` or `iceage`.
        pub variant: String,
        /// The position, at most 256 bytes.
        pub fen: String,
    }

    /// `POST /api/solve`'s body: `{"variant": "antarctos", "fen": "...", "max_plies": 30,
    /// "movetime_ms": 10000}`.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct SolveRequest {
        /// `antarctos` or `iceage`.
        pub variant: String,
        /// The position, at most 256 bytes.
        pub fen: String,
        /// Longest line searched, plies (`site::solve` checks its range).
        pub max_plies: Option<u32>,
        /// Time limit, milliseconds (`site::solve` checks its range).
        pub movetime_ms: Option<u64>,
    }

    /// `POST /api/records/read`'s body: `{"variant": "iceage", "text": "<a PGN file>",
    /// "positions"?: bool}`.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ReadRequest {
        /// `antarctos` (PDN) or `iceage` (PGN).
        pub variant: String,
        /// The file's text.
        pub text: String,
        /// `false`: the lean answer, without each move's position (default `true`).
        #[serde(default)]
        pub positions: Option<bool>,
    }
}

impl TryFrom<body::AnalysisRequest> for AnalysisRequest {
    type Error = SiteError;

    /// 400 for an unknown variant.
    fn try_from(body: body::AnalysisRequest) -> Result<AnalysisRequest, SiteError> {
        Ok(AnalysisRequest {
            variant: variant_named(&body.variant)?,
            fen: body.fen,
            movetime_ms: body.movetime_ms,
        })
    }
}

impl TryFrom<body::PositionRequest> for PositionRequest {
    type Error = SiteError;

    /// 400 for an unknown variant.
    fn try_from(body: body::PositionRequest) -> Result<PositionRequest, SiteError> {
        Ok(PositionRequest {
            variant: variant_named(&body.variant)?,
            fen: body.fen,
        })
    }
}

impl TryFrom<body::SolveRequest> for SolveRequest {
    type Error = SiteError;

    /// 400 for an unknown variant.
    fn try_from(body: body::SolveRequest) -> Result<SolveRequest, SiteError> {
        Ok(SolveRequest {
            variant: variant_named(&body.variant)?,
            fen: body.fen,
            max_plies: body.max_plies,
            movetime_ms: body.movetime_ms,
        })
    }
}

impl TryFrom<body::ReadRequest> for ReadRequest {
    type Error = SiteError;

    /// 400 for an unknown variant.
    fn try_from(body: body::ReadRequest) -> Result<ReadRequest, SiteError> {
        Ok(ReadRequest {
            variant: variant_named(&body.variant)?,
            text: body.text,
            positions: body.positions.unwrap_or(true),
        })
    }
}

/// `POST /api/analysis` -> 200 with the search's depth, score, principal variation, best move
/// and nodes.
pub async fn analyse(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<body::AnalysisRequest>,
) -> Result<Json<AnalysisView>, HttpError> {
    let req = AnalysisRequest::try_from(body)?;
    Ok(Json(analysis::analyse(&svc.analyses, &token, &req).await?))
}

/// `POST /api/analysis/stream` -> 200 `text/event-stream`: an `iteration` event per completed
/// iteration, then one `done` event, then the end. Closing the connection stops the search.
pub async fn stream(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<body::AnalysisRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, axum::Error>>>, HttpError> {
    let req = AnalysisRequest::try_from(body)?;
    let search = analysis::stream(&svc.analyses, &token, &req).await?;
    let events = futures_util::stream::unfold(search, |mut search| async move {
        let event = match search.next().await? {
            StreamEvent::Iteration(it) => Event::default().event("iteration").json_data(it),
            StreamEvent::Done(done) => Event::default().event("done").json_data(done),
        };
        Some((event, search))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// `POST /api/positions` -> 200 with the position's facts and legal moves.
pub async fn position(
    ApiJson(body): ApiJson<body::PositionRequest>,
) -> Result<Json<PositionView>, HttpError> {
    Ok(Json(positions::position(&PositionRequest::try_from(
        body,
    )?)?))
}

/// `POST /api/solve` -> 200 with the proof (a win or loss in plies with its line) or the plies
/// searched without one.
pub async fn solve(
    State(svc): State<AppState>,
    Player(token): Player,
    ApiJson(body): ApiJson<body::SolveRequest>,
) -> Result<Json<SolveView>, HttpError> {
    let req = SolveRequest::try_from(body)?;
    Ok(Json(solver::solve(&svc.analyses, &token, &req).await?))
}

/// `POST /api/records/read` -> 200 with every game of a PGN/PDN file as a move tree, and the
/// errors of the games that could not be read.
pub async fn read_records(
    budget: Option<axum::Extension<std::sync::Arc<crate::output_budget::OutputBudget>>>,
    client: Option<axum::Extension<crate::rate_limit::ClientAddr>>,
    ApiJson(body): ApiJson<body::ReadRequest>,
) -> Result<axum::response::Response, HttpError> {
    use axum::response::IntoResponse;
    let req = ReadRequest::try_from(body)?;
    let address = crate::rate_limit::keyed(client);
    if let Some(b) = &budget {
        b.check(address)?;
    }
    let json = records_read::read_records(req).await?;
    if let Some(b) = &budget {
        b.spend(address, json.len() as u64);
    }
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        json,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use site_model::error::ErrorCode;
    use site_model::state::GameKind;

    fn refused(err: SiteError) -> String {
        assert_eq!(err.code, ErrorCode::BadRequest);
        err.message
    }

    #[test]
    fn every_body_names_an_unknown_variant_in_its_400() {
        let words = "unknown variant 'chess' (antarctos or iceage)";
        let variant = || "chess".to_string();
        let analysis = body::AnalysisRequest {
            variant: variant(),
            fen: String::new(),
            movetime_ms: Some(10),
        };
        assert_eq!(
            refused(AnalysisRequest::try_from(analysis).expect_err("chess")),
            words
        );
        let position = body::PositionRequest {
            variant: variant(),
            fen: String::new(),
        };
        assert_eq!(
            refused(PositionRequest::try_from(position).expect_err("chess")),
            words
        );
        let solve = body::SolveRequest {
            variant: variant(),
            fen: String::new(),
            max_plies: None,
            movetime_ms: None,
        };
        assert_eq!(
            refused(SolveRequest::try_from(solve).expect_err("chess")),
            words
        );
        let read = body::ReadRequest {
            variant: variant(),
            text: String::new(),
            positions: None,
        };
        assert_eq!(
            refused(ReadRequest::try_from(read).expect_err("chess")),
            words
        );
    }

    #[test]
    fn a_known_variant_becomes_its_game_and_the_rest_is_kept() {
        let req = SolveRequest::try_from(body::SolveRequest {
            variant: "iceage".into(),
            fen: "some fen".into(),
            max_plies: Some(12),
            movetime_ms: Some(300),
        })
        .expect("iceage");
        assert_eq!(req.variant, GameKind::IceAge);
        assert_eq!(
            (req.fen.as_str(), req.max_plies, req.movetime_ms),
            ("some fen", Some(12), Some(300))
        );
        let req = ReadRequest::try_from(body::ReadRequest {
            variant: "antarctos".into(),
            text: "1. c3-d4 *".into(),
            positions: Some(false),
        })
        .expect("antarctos");
        assert_eq!(req.variant, GameKind::Antarctos);
        assert_eq!(req.text, "1. c3-d4 *");
        assert!(!req.positions);
    }

    #[test]
    fn a_body_of_the_wrong_shape_is_named_as_before() {
        let err = serde_json::from_str::<body::AnalysisRequest>("[]").expect_err("not an object");
        assert!(
            err.to_string()
                .contains("expected struct AnalysisRequest with 3 elements"),
            "{err}"
        );
        let err = serde_json::from_str::<body::PositionRequest>(r#"{"variant": "iceage"}"#)
            .expect_err("no fen");
        assert!(err.to_string().contains("missing field `fen`"), "{err}");
    }
}

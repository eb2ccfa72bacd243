//! The site: axum HTTP + WebSocket, storage through sqlx. Work in progress (issue 5).

pub mod assets;

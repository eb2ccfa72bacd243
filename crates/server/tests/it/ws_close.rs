//! The closing handshake (RFC 6455 section 5.5.1): a client's close frame is answered with
//! one before the connection drops (a client saw 1006, "closed abnormally"), and a server that
//! shuts down says so with 1001, "going away".

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use server::client::WsStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::common::*;

/// The close frame the server sends next (within 5 s), skipping other messages; `None` when
/// the connection ends without one.
async fn close_frame(ws: &mut WsStream) -> Option<CloseFrame> {
    tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(msg) = ws.next().await {
            match msg {
                Ok(Message::Close(frame)) => return frame,
                Ok(_) => {}
                Err(e) => panic!("the connection ended without a close frame: {e}"),
            }
        }
        panic!("the connection ended without a close frame");
    })
    .await
    .expect("a close frame within 5 s")
}

#[tokio::test]
async fn a_clients_close_frame_is_answered() {
    let srv = TestServer::start(&sqlite_url("ws-close")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let mut ws = c.ws(g["id"].as_str().unwrap()).await.expect("ws");
    first_state(&mut ws).await;
    ws.send(Message::Close(Some(CloseFrame {
        code: CloseCode::Normal,
        reason: "bye".into(),
    })))
    .await
    .expect("close sent");
    let frame = close_frame(&mut ws).await.expect("a code");
    assert_eq!(u16::from(frame.code), 1000, "the code is echoed: {frame:?}");
    srv.stop().await;
}

#[tokio::test]
async fn a_server_shutting_down_closes_with_going_away() {
    let srv = TestServer::start(&sqlite_url("ws-shutdown")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let mut ws = c.ws(g["id"].as_str().unwrap()).await.expect("ws");
    first_state(&mut ws).await;
    let stopping = tokio::spawn(srv.stop());
    let frame = close_frame(&mut ws).await.expect("a code");
    assert_eq!(u16::from(frame.code), 1001, "{frame:?}");
    stopping.await.expect("stopped");
}

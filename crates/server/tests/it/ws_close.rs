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

/// Opens game `id`'s socket over a plain TCP connection (a raw upgrade) and reads the answer's
/// head: the connection, past the 101.
async fn raw_socket(addr: std::net::SocketAddr, id: &str) -> tokio::net::TcpStream {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).await.expect("write");
    let mut got = Vec::new();
    while !got.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        assert_eq!(tcp.read(&mut b).await.expect("read"), 1, "the head ends");
        got.push(b[0]);
    }
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 101"), "{text}");
    tcp
}

/// Reads server frames from `tcp` until a close frame (5 s at most): its code; `None` when the
/// connection ends without one.
async fn raw_close_code(tcp: &mut tokio::net::TcpStream) -> Option<u16> {
    use tokio::io::AsyncReadExt;
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let mut h = [0u8; 2];
            if tcp.read_exact(&mut h).await.is_err() {
                return None;
            }
            let mut len = u64::from(h[1] & 0x7f);
            if len == 126 {
                let mut l = [0u8; 2];
                tcp.read_exact(&mut l).await.ok()?;
                len = u64::from(u16::from_be_bytes(l));
            } else if len == 127 {
                let mut l = [0u8; 8];
                tcp.read_exact(&mut l).await.ok()?;
                len = u64::from_be_bytes(l);
            }
            let mut payload = vec![0u8; usize::try_from(len).expect("a length")];
            tcp.read_exact(&mut payload).await.ok()?;
            if h[0] & 0x0f == 0x8 {
                return payload.get(..2).map(|c| u16::from_be_bytes([c[0], c[1]]));
            }
        }
    })
    .await
    .expect("a close frame or the end within 5 s")
}

#[tokio::test]
async fn a_frame_that_breaks_the_protocol_gets_a_1002_close() {
    use tokio::io::AsyncWriteExt;
    let srv = TestServer::start(&sqlite_url("ws-protocol")).await;
    let mut c = srv.client();
    let g = create(&mut c, json!({"variant": "antarctos", "opponent": "local"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mask = [1u8, 2, 3, 4];
    let masked = |b0: u8, payload: &[u8]| -> Vec<u8> {
        let mut f = vec![b0, 0x80 | u8::try_from(payload.len()).expect("short")];
        f.extend_from_slice(&mask);
        f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        f
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("RSV1 set", masked(0xC1, b"{}")),
        ("RSV3 set", masked(0x91, b"{}")),
        ("reserved opcode 0x3", masked(0x83, b"")),
        ("reserved opcode 0xB", masked(0x8B, b"")),
        ("a lone continuation", masked(0x80, b"x")),
        ("a fragmented ping", masked(0x09, b"")),
        ("an unmasked frame", vec![0x81, 0x02, b'{', b'}']),
    ];
    for (what, frame) in cases {
        let mut tcp = raw_socket(srv.addr, &id).await;
        tcp.write_all(&frame).await.expect("write");
        assert_eq!(raw_close_code(&mut tcp).await, Some(1002), "{what}");
    }
    // A well-formed socket still works.
    let mut ws = c.ws(&id).await.expect("ws");
    first_state(&mut ws).await;
    srv.stop().await;
}

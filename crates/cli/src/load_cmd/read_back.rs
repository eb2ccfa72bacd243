//! Reading the games back after a load run: the stored ply of each game, from the first
//! address that answers.

use std::net::SocketAddr;
use std::time::Duration;

use server::client::ApiClient;

use super::REQUEST_TIMEOUT;

/// Why a game was not read back.
enum Unread {
    /// The server did not answer (refused, or silent past [`REQUEST_TIMEOUT`]).
    Down(String),
    /// It answered without the game's ply.
    Answer(String),
}

/// Reads games back from the first of `addrs` that answers; an address that did not answer is
/// dropped from `addrs` (not asked again), so each dead or silent one costs one timeout at
/// most and the read back ends. `None` when no address is left.
pub(super) async fn read_back_any(
    addrs: &mut Vec<SocketAddr>,
    id: &str,
) -> Option<Result<u64, String>> {
    while let Some(&addr) = addrs.first() {
        let mut reader = ApiClient::new(addr).timeout(REQUEST_TIMEOUT);
        match read_back(&mut reader, id).await {
            Ok(ply) => return Some(Ok(ply)),
            Err(Unread::Answer(e)) => return Some(Err(e)),
            Err(Unread::Down(e)) => {
                eprintln!("reading games back: {e}; {addr} is not asked again");
                addrs.remove(0);
            }
        }
    }
    None
}

/// The stored ply of game `id`. A rate-limited read (the server's limits were left on) waits
/// and asks again; any other answer without a ply is an error, never counted as lost moves.
async fn read_back(reader: &mut ApiClient, id: &str) -> Result<u64, Unread> {
    for _ in 0..30 {
        let got = reader
            .get(&format!("/api/games/{id}"))
            .await
            .map_err(|e| Unread::Down(format!("reading game {id} back: {e}")))?;
        if got.status == 429 {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        return got.body["ply"].as_u64().ok_or_else(|| {
            Unread::Answer(format!(
                "reading game {id} back: {} {}",
                got.status, got.text
            ))
        });
    }
    Err(Unread::Answer(format!(
        "reading game {id} back: rate-limited for 30 s"
    )))
}

//! A small client of the site's API over plain HTTP/1.1 and WebSocket, for bots, the tests and
//! the load script. It is a bot as docs/api.md describes one: it takes the token the first
//! answer's cookie carries and sends it in the `X-Icebound-Player` header from then on.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{CONTENT_TYPE, HOST, SET_COOKIE};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use site_http::player::{COOKIE_NAME, HEADER_NAME, SECURE_COOKIE_NAME};

/// A client failure (not an API error: those come back as a status and a body).
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Connecting, sending or reading failed.
    #[error("http: {0}")]
    Http(String),
    /// The WebSocket failed.
    #[error("websocket: {0}")]
    Ws(String),
}

/// An answer: status and body (JSON when it parses, else a string value).
#[derive(Debug, Clone)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// Parsed body.
    pub body: Value,
    /// Raw `content-disposition`, if any.
    pub disposition: Option<String>,
    /// Raw body text.
    pub text: String,
    /// The response's headers.
    pub headers: hyper::HeaderMap,
}

/// One player (or watcher) of the site at `addr`.
#[derive(Debug, Clone)]
pub struct ApiClient {
    addr: SocketAddr,
    token: Option<String>,
    /// The log-in session cookie's token, once an answer set one (site::accounts).
    session: Option<String>,
    /// The local address to connect from (another loopback address: another client).
    local: Option<IpAddr>,
    /// With [`ApiClient::keep_alive`]: the open connection, reused by the next request (as a
    /// browser does); clones share it.
    kept: Option<Arc<Mutex<Option<Sender>>>>,
    /// With [`ApiClient::timeout`]: how long a request or a WebSocket handshake may wait.
    limit: Option<Duration>,
}

type Sender = hyper::client::conn::http1::SendRequest<Full<Bytes>>;

/// A WebSocket connection to one game.
pub type WsStream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

impl ApiClient {
    /// A client without a token yet (it gets one from the first answer's cookie).
    pub fn new(addr: SocketAddr) -> ApiClient {
        ApiClient {
            addr,
            token: None,
            session: None,
            local: None,
            kept: None,
            limit: None,
        }
    }

    /// Keeps the connection open between requests (HTTP/1.1 keep-alive, as browsers do)
    /// instead of one connection per request.
    pub fn keep_alive(mut self) -> ApiClient {
        self.kept = Some(Arc::default());
        self
    }

    /// Gives up on a request (connecting, sending, reading the whole answer) or a WebSocket
    /// handshake after `limit`: a server that accepts connections but never answers (stopped
    /// by SIGSTOP, hung) is then an error as a dead one is, not a wait without end.
    pub fn timeout(mut self, limit: Duration) -> ApiClient {
        self.limit = Some(limit);
        self
    }

    /// Connects from `ip` (e.g. `127.0.0.2`: another client address on the same machine).
    pub fn from_local(mut self, ip: IpAddr) -> ApiClient {
        self.local = Some(ip);
        self
    }

    async fn connect(&self) -> std::io::Result<TcpStream> {
        let Some(ip) = self.local else {
            return TcpStream::connect(self.addr).await;
        };
        let socket = if ip.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.bind(SocketAddr::new(ip, 0))?;
        socket.connect(self.addr).await
    }

    /// Points the client at another server (same token: the same browser after a restart).
    pub fn set_addr(&mut self, addr: SocketAddr) {
        self.addr = addr;
        if self.kept.is_some() {
            self.kept = Some(Arc::default());
        }
    }

    /// The log-in session's token, while logged in.
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The player token, once issued.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// A client that sends `token` (a bot that kept its token from an earlier run).
    pub fn with_token(addr: SocketAddr, token: &str) -> ApiClient {
        ApiClient {
            addr,
            token: Some(token.to_string()),
            session: None,
            local: None,
            kept: None,
            limit: None,
        }
    }

    /// Sends a request; `body` is sent as JSON, or `raw` as is (with a JSON content type).
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Answer, ClientError> {
        let raw = body.map(|b| b.to_string().into_bytes());
        self.send_raw(method, path, raw).await
    }

    /// Sends bytes as the body (for malformed-input tests).
    pub async fn send_raw(
        &mut self,
        method: &str,
        path: &str,
        raw: Option<Vec<u8>>,
    ) -> Result<Answer, ClientError> {
        self.send_parsing(method, path, raw, true).await
    }

    /// `POST path` whose answer keeps its body as text only (`body` is `Value::Null`): for a
    /// client that needs the status alone, such as the load harness (parsing a whole game
    /// view costs more than the server's work for it).
    pub async fn post_unparsed(&mut self, path: &str, body: &Value) -> Result<Answer, ClientError> {
        let raw = Some(body.to_string().into_bytes());
        self.send_parsing("POST", path, raw, false).await
    }

    async fn send_parsing(
        &mut self,
        method: &str,
        path: &str,
        raw: Option<Vec<u8>>,
        parse: bool,
    ) -> Result<Answer, ClientError> {
        let mut headers = Vec::new();
        if raw.is_some() {
            headers.push((
                CONTENT_TYPE.as_str().to_string(),
                "application/json".to_string(),
            ));
        }
        if let Some(t) = &self.token {
            headers.push((HEADER_NAME.to_string(), t.clone()));
        }
        if let Some(s) = &self.session {
            headers.push((
                "cookie".to_string(),
                format!("{}={s}", site::accounts::SESSION_COOKIE),
            ));
        }
        self.exchange(method, path, &headers, raw, parse).await
    }

    /// Sends exactly `headers` (and `Host`), none of this client's own (for tests of what the
    /// server makes of a browser's headers); the token is still taken from the answer.
    pub async fn send_with_headers(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        raw: Option<Vec<u8>>,
    ) -> Result<Answer, ClientError> {
        let headers: Vec<(String, String)> = headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        self.exchange(method, path, &headers, raw, true).await
    }

    async fn exchange(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        raw: Option<Vec<u8>>,
        parse: bool,
    ) -> Result<Answer, ClientError> {
        let (addr, limit) = (self.addr, self.limit);
        let answer = self.exchange_unlimited(method, path, headers, raw, parse);
        within(limit, addr, ClientError::Http, answer).await
    }

    async fn exchange_unlimited(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(String, String)],
        raw: Option<Vec<u8>>,
        parse: bool,
    ) -> Result<Answer, ClientError> {
        let err = |e: &dyn std::fmt::Display| ClientError::Http(e.to_string());
        let kept = self.kept.clone();
        let mut slot = match &kept {
            Some(k) => Some(k.lock().await),
            None => None,
        };
        let mut reused = slot.as_mut().and_then(|s| s.take());
        if let Some(open) = reused.as_mut()
            && open.ready().await.is_err()
        {
            reused = None;
        }
        let mut sender = match reused {
            Some(open) => open,
            None => {
                let stream = self.connect().await.map_err(|e| err(&e))?;
                let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                    .await
                    .map_err(|e| err(&e))?;
                tokio::spawn(conn);
                sender
            }
        };
        let method = Method::from_bytes(method.as_bytes()).map_err(|e| err(&e))?;
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, self.addr.to_string());
        for (k, v) in headers {
            req = req.header(k.as_str(), v.as_str());
        }
        let req = req
            .body(Full::new(Bytes::from(raw.unwrap_or_default())))
            .map_err(|e| err(&e))?;
        let res = sender.send_request(req).await.map_err(|e| err(&e))?;
        // The first answer's player cookie; the session cookie of every answer (an empty one
        // logs out).
        let set_cookie = |names: &[&str]| {
            res.headers()
                .get_all(SET_COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .filter_map(|v| v.split(';').next())
                .filter_map(|kv| kv.split_once('='))
                .find(|(k, _)| names.contains(k))
                .map(|(_, v)| v.to_string())
        };
        if self.token.is_none() {
            self.token = set_cookie(&[COOKIE_NAME, SECURE_COOKIE_NAME]);
        }
        if let Some(v) = set_cookie(&[site::accounts::SESSION_COOKIE]) {
            self.session = (!v.is_empty()).then_some(v);
        }
        let status = res.status().as_u16();
        let response_headers = res.headers().clone();
        let disposition = res
            .headers()
            .get("content-disposition")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let bytes = res
            .into_body()
            .collect()
            .await
            .map_err(|e| err(&e))?
            .to_bytes();
        // Kept only once the whole answer was read: a request given up on half way (the
        // timeout) leaves no connection with an answer still coming for the next request.
        if let Some(slot) = slot.as_mut() {
            **slot = Some(sender);
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let body = if parse {
            serde_json::from_str(&text).unwrap_or(Value::String(text.clone()))
        } else {
            Value::Null
        };
        Ok(Answer {
            status,
            body,
            disposition,
            text,
            headers: response_headers,
        })
    }

    /// `GET path`.
    pub async fn get(&mut self, path: &str) -> Result<Answer, ClientError> {
        self.send("GET", path, None).await
    }

    /// `POST path` with a JSON body.
    pub async fn post(&mut self, path: &str, body: Value) -> Result<Answer, ClientError> {
        self.send("POST", path, Some(&body)).await
    }

    /// Opens a server-sent events stream (`GET /api/lobby`) with this client's token and
    /// session: the status, and the events when it is 200.
    pub async fn events(&self, path: &str) -> Result<(u16, EventStream), ClientError> {
        let err = |e: &dyn std::fmt::Display| ClientError::Http(e.to_string());
        let stream = self.connect().await.map_err(|e| err(&e))?;
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| err(&e))?;
        tokio::spawn(conn);
        let mut req = Request::builder()
            .method(Method::GET)
            .uri(path)
            .header(HOST, self.addr.to_string())
            .header("accept", "text/event-stream");
        if let Some(t) = &self.token {
            req = req.header(HEADER_NAME, t.as_str());
        }
        if let Some(s) = &self.session {
            req = req.header("cookie", format!("{}={s}", site::accounts::SESSION_COOKIE));
        }
        let req = req.body(Full::new(Bytes::new())).map_err(|e| err(&e))?;
        let res = sender.send_request(req).await.map_err(|e| err(&e))?;
        let status = res.status().as_u16();
        Ok((
            status,
            EventStream {
                body: res.into_body(),
                buf: String::new(),
                _sender: sender,
            },
        ))
    }

    /// Opens the game's WebSocket with this client's token.
    pub async fn ws(&self, game_id: &str) -> Result<WsStream, ClientError> {
        self.ws_query(game_id, "").await
    }

    /// Opens the game's WebSocket as a browser does: this client's token and its log-in
    /// session's cookie, if any (the socket is then the account's, as its requests are).
    pub async fn ws_as_browser(&self, game_id: &str) -> Result<WsStream, ClientError> {
        let cookie = self
            .session
            .as_ref()
            .map(|s| format!("{}={s}", site::accounts::SESSION_COOKIE));
        let mut headers: Vec<(&str, &str)> = self
            .token
            .iter()
            .map(|t| (HEADER_NAME, t.as_str()))
            .collect();
        if let Some(c) = &cookie {
            headers.push(("cookie", c.as_str()));
        }
        self.open_ws(game_id, "", &headers).await
    }

    /// Opens the game's WebSocket with `query` (e.g. `moves=changes`, docs/api.md; empty for
    /// none) and this client's token.
    pub async fn ws_query(&self, game_id: &str, query: &str) -> Result<WsStream, ClientError> {
        let headers: Vec<(&str, &str)> = self
            .token
            .iter()
            .map(|t| (HEADER_NAME, t.as_str()))
            .collect();
        self.open_ws(game_id, query, &headers).await
    }

    /// Opens the game's WebSocket sending exactly `headers` besides the handshake's own (for
    /// tests of what the server makes of a browser's `Origin` and cookie).
    pub async fn ws_with_headers(
        &self,
        game_id: &str,
        headers: &[(&str, &str)],
    ) -> Result<WsStream, ClientError> {
        self.open_ws(game_id, "", headers).await
    }

    /// The socket of game `game_id`, with `query` (empty for none).
    async fn open_ws(
        &self,
        game_id: &str,
        query: &str,
        headers: &[(&str, &str)],
    ) -> Result<WsStream, ClientError> {
        let url = match query {
            "" => format!("ws://{}/api/games/{game_id}/ws", self.addr),
            q => format!("ws://{}/api/games/{game_id}/ws?{q}", self.addr),
        };
        let mut req = url
            .into_client_request()
            .map_err(|e| ClientError::Ws(e.to_string()))?;
        for (k, v) in headers {
            let name = hyper::header::HeaderName::from_bytes(k.as_bytes())
                .map_err(|e| ClientError::Ws(e.to_string()))?;
            let value = v
                .parse()
                .map_err(|_| ClientError::Ws(format!("{k} is not a header value")))?;
            req.headers_mut().append(name, value);
        }
        let handshake = async {
            let stream = self
                .connect()
                .await
                .map_err(|e| ClientError::Ws(e.to_string()))?;
            // tungstenite zeroes its whole read buffer on every read (128 KiB by default): a
            // client with thousands of sockets (`icebound load`) spent a tenth of its time so.
            let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                .read_buffer_size(WS_CLIENT_READ_BUFFER);
            let (ws, _) = tokio_tungstenite::client_async_with_config(
                req,
                tokio_tungstenite::MaybeTlsStream::Plain(stream),
                Some(config),
            )
            .await
            .map_err(|e| ClientError::Ws(e.to_string()))?;
            Ok(ws)
        };
        within(self.limit, self.addr, ClientError::Ws, handshake).await
    }
}

/// `work` (a request or a handshake to `addr`) given up on after `limit`, if any
/// ([`ApiClient::timeout`]); `kind` makes the error of a give-up.
async fn within<T>(
    limit: Option<Duration>,
    addr: SocketAddr,
    kind: fn(String) -> ClientError,
    work: impl Future<Output = Result<T, ClientError>>,
) -> Result<T, ClientError> {
    let Some(limit) = limit else {
        return work.await;
    };
    tokio::time::timeout(limit, work).await.unwrap_or_else(|_| {
        Err(kind(format!(
            "{addr} did not answer within {} s",
            limit.as_secs_f64()
        )))
    })
}

/// The read buffer of a client's WebSocket, bytes.
const WS_CLIENT_READ_BUFFER: usize = 16 * 1024;

/// The next JSON text message of a WebSocket (pings skipped); `None` when it closed.
pub async fn next_json(ws: &mut WsStream) -> Option<Value> {
    serde_json::from_str(next_text(ws).await?.as_str()).ok()
}

/// The next text message of a WebSocket, unparsed (pings skipped); `None` when it closed.
pub async fn next_text(ws: &mut WsStream) -> Option<String> {
    while let Some(msg) = ws.next().await {
        match msg {
            Ok(Message::Text(t)) => return Some(t.as_str().to_string()),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
    None
}

/// Sends a JSON text message.
pub async fn send_json(ws: &mut WsStream, v: &Value) -> Result<(), ClientError> {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .map_err(|e| ClientError::Ws(e.to_string()))
}

/// A server-sent events stream being read.
pub struct EventStream {
    body: hyper::body::Incoming,
    buf: String,
    // Holding the sender keeps the connection open.
    _sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
}

impl EventStream {
    /// The next event: its name (`message` when unnamed) and its data, parsed as JSON when it
    /// parses; keep-alive comments are skipped. `None` once the stream ended.
    pub async fn next_event(&mut self) -> Option<(String, Value)> {
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let mut name = "message".to_string();
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        if !data.is_empty() {
                            data.push('\n');
                        }
                        data.push_str(v.strip_prefix(' ').unwrap_or(v));
                    }
                }
                if data.is_empty() {
                    continue;
                }
                let value = serde_json::from_str(&data).unwrap_or(Value::String(data));
                return Some((name, value));
            }
            let frame = self.body.frame().await?.ok()?;
            if let Ok(bytes) = frame.into_data() {
                self.buf.push_str(&String::from_utf8_lossy(&bytes));
            }
        }
    }
}

//! The page's static files (issue 42, testers' findings): sent compressed (brotli or gzip, made
//! once at build time by site-http's build.rs) to a client that accepts it, with the same bytes
//! once decompressed, the original `Content-Type` and caching, and `Vary: Accept-Encoding`;
//! and never with the player cookie, which a shared cache could keep and hand to others.

use std::io::Read;

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper::header::{HOST, HeaderMap};
use hyper_util::rt::TokioIo;

use crate::common::*;

/// A raw answer: status, headers and the body's bytes as sent.
struct Raw {
    status: u16,
    headers: HeaderMap,
    body: Vec<u8>,
}

/// `GET path` on a fresh connection, with no cookie or token, and `accept_encoding` if any.
async fn raw_get(srv: &TestServer, path: &str, accept_encoding: Option<&str>) -> Raw {
    let stream = tokio::net::TcpStream::connect(srv.addr)
        .await
        .expect("connect");
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(conn);
    let mut req = hyper::Request::get(path).header(HOST, srv.addr.to_string());
    if let Some(a) = accept_encoding {
        req = req.header("accept-encoding", a);
    }
    let res = sender
        .send_request(req.body(Empty::<Bytes>::new()).expect("request"))
        .await
        .expect("send");
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = res
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .to_vec();
    Raw {
        status,
        headers,
        body,
    }
}

fn header<'a>(r: &'a Raw, name: &str) -> &'a str {
    r.headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// The static files to check: the bundle and style sheet under their hashes (named by the
/// page), the engine's module when built, the worker and the web manifest.
async fn static_paths(srv: &TestServer) -> Vec<String> {
    let index = raw_get(srv, "/", None).await;
    assert_eq!(index.status, 200);
    let html = String::from_utf8(index.body).expect("utf-8");
    let mut paths: Vec<String> = html
        .split('"')
        .filter(|p| p.starts_with("/assets/main-") && (p.ends_with(".js") || p.ends_with(".css")))
        .map(str::to_string)
        .collect();
    assert_eq!(
        paths.len(),
        2,
        "the page names its bundle and style sheet: {html}"
    );
    let manifest = raw_get(srv, "/engine/manifest.json", None).await;
    if manifest.status == 200 {
        let m: serde_json::Value = serde_json::from_slice(&manifest.body).expect("json");
        paths.push(m["wasm"].as_str().expect("wasm").to_string());
    } else {
        eprintln!("the site was built without the wasm module: its answer is not checked");
    }
    paths.extend(["/sw.js", "/manifest.webmanifest"].map(str::to_string));
    paths
}

#[tokio::test]
async fn static_files_go_compressed_to_clients_that_accept_it() {
    let srv = TestServer::start(&sqlite_url("static-compressed")).await;
    for path in static_paths(&srv).await {
        let plain = raw_get(&srv, &path, None).await;
        assert_eq!(plain.status, 200, "{path}");
        assert_eq!(
            header(&plain, "content-encoding"),
            "",
            "{path}: sent as it is"
        );
        assert!(header(&plain, "vary").contains("Accept-Encoding"), "{path}");
        let br = raw_get(&srv, &path, Some("gzip, deflate, br, zstd")).await;
        assert_eq!(header(&br, "content-encoding"), "br", "{path}");
        let mut unbr = Vec::new();
        brotli::Decompressor::new(&br.body[..], 4096)
            .read_to_end(&mut unbr)
            .expect("brotli");
        assert_eq!(unbr, plain.body, "{path}: the brotli body is the file");
        let gz = raw_get(&srv, &path, Some("gzip")).await;
        assert_eq!(header(&gz, "content-encoding"), "gzip", "{path}");
        let mut ungz = Vec::new();
        flate2::read::GzDecoder::new(&gz.body[..])
            .read_to_end(&mut ungz)
            .expect("gzip");
        assert_eq!(ungz, plain.body, "{path}: the gzip body is the file");
        let refused = raw_get(&srv, &path, Some("br;q=0, identity")).await;
        assert_eq!(header(&refused, "content-encoding"), "", "{path}");
        assert_eq!(refused.body, plain.body, "{path}");
        for r in [&br, &gz] {
            assert_eq!(
                header(r, "content-type"),
                header(&plain, "content-type"),
                "{path}"
            );
            assert_eq!(
                header(r, "cache-control"),
                header(&plain, "cache-control"),
                "{path}"
            );
            assert!(header(r, "vary").contains("Accept-Encoding"), "{path}");
        }
        if path.ends_with(".wasm") {
            assert_eq!(header(&br, "content-type"), "application/wasm");
        }
        if path.starts_with("/assets/main-") || path.ends_with(".wasm") {
            assert_eq!(
                header(&br, "cache-control"),
                "public, max-age=31536000, immutable",
                "{path}"
            );
            assert!(
                br.body.len() * 3 < plain.body.len(),
                "{path}: {} bytes compressed of {}",
                br.body.len(),
                plain.body.len()
            );
        }
        eprintln!(
            "{path}: {} bytes, br {}, gzip {}",
            plain.body.len(),
            br.body.len(),
            gz.body.len()
        );
    }
    srv.stop().await;
}

#[tokio::test]
async fn static_files_never_set_the_player_cookie() {
    let srv = TestServer::start(&sqlite_url("static-cookie")).await;
    for path in static_paths(&srv).await {
        for accept in [None, Some("br")] {
            let r = raw_get(&srv, &path, accept).await;
            assert_eq!(r.status, 200, "{path}");
            assert!(
                r.headers.get("set-cookie").is_none(),
                "{path} sets a cookie: {:?}",
                r.headers.get("set-cookie")
            );
        }
    }
    // The page and the API still give a new browser its token.
    for path in ["/", "/api/me"] {
        let r = raw_get(&srv, path, None).await;
        let cookie = header(&r, "set-cookie");
        assert!(cookie.starts_with("icebound_player="), "{path}: {cookie:?}");
    }
    srv.stop().await;
}

//! The Web Push messages' way out (issue 38): site::notifications::push builds each message
//! (encrypted, signed); [`HttpsSender`] POSTs it to the browser's push service over HTTPS
//! (reqwest with rustls and the web's root certificates), following no redirect and through
//! no proxy.
//!
//! The site would POST wherever a player's endpoint points (SSRF). Unless the site's
//! [`EndpointPolicy`] allows insecure endpoints, the sender connects only to public addresses
//! ([`site::notifications::push::is_global`]): an address in the URL is checked as it is, and a
//! host name is resolved by [`CheckedResolver`], the client's only resolver, which refuses a
//! name when any of its addresses is not public and otherwise gives the client exactly the
//! addresses it checked; so a name cannot answer one address to the check and another to the
//! connection (DNS rebinding). A refusal is [`SendError::Refused`] (the subscription is
//! dropped).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use futures_util::future::BoxFuture;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use site::notifications::push::{EndpointPolicy, PushSender, SendError, is_global};
use site_http::options::PublicUrl;

/// Sends push messages with one shared HTTPS client.
pub struct HttpsSender {
    client: reqwest::Client,
    policy: EndpointPolicy,
}

impl HttpsSender {
    /// A sender for endpoints as `policy` allows; its client times out after
    /// `push::SEND_TIMEOUT` and resolves names with [`CheckedResolver`].
    pub fn new(policy: EndpointPolicy) -> Result<Arc<HttpsSender>, String> {
        let client = reqwest::Client::builder()
            .timeout(site::notifications::push::SEND_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            // A proxy would connect on our behalf, to addresses nobody checked.
            .no_proxy()
            .dns_resolver(Arc::new(CheckedResolver { policy }))
            .build()
            .map_err(|e| format!("the push client: {e}"))?;
        Ok(Arc::new(HttpsSender { client, policy }))
    }
}

impl PushSender for HttpsSender {
    fn send(&self, request: http::Request<Vec<u8>>) -> BoxFuture<'static, Result<u16, SendError>> {
        let client = self.client.clone();
        let policy = self.policy;
        Box::pin(async move {
            // The client connects to an address in the URL without asking the resolver.
            if let Some(ip) = literal_address(request.uri())
                && !policy.allow_insecure
                && !is_global(ip)
            {
                return Err(SendError::Refused(format!("{ip} is not a public address")));
            }
            let request = reqwest::Request::try_from(request)
                .map_err(|e| SendError::Failed(e.to_string()))?;
            match client.execute(request).await {
                Ok(answer) => Ok(answer.status().as_u16()),
                Err(e) => Err(match refusal(&e) {
                    Some(r) => SendError::Refused(r.to_string()),
                    None => SendError::Failed(error_chain(&e)),
                }),
            }
        })
    }
}

/// The address a URL names as its host (`127.0.0.1`, `[::1]`), if it names one.
fn literal_address(uri: &http::Uri) -> Option<IpAddr> {
    let host = uri.host()?;
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    host.parse().ok()
}

/// A host name that resolves to an address pushes may not go to.
#[derive(Debug)]
struct Refused {
    host: String,
    address: IpAddr,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "'{}' resolves to {}, not a public address",
            self.host, self.address
        )
    }
}

impl std::error::Error for Refused {}

/// The [`Refused`] among the causes of `e`, if it is one.
fn refusal<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a Refused> {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if let Some(r) = c.downcast_ref::<Refused>() {
            return Some(r);
        }
        cause = c.source();
    }
    None
}

/// `e` and its causes, for the log.
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// The push client's resolver: the system's (tokio's `lookup_host`), and without
/// `allow_insecure` a name is refused when any of its addresses is not public. The client
/// connects to the addresses given here, and only to them.
pub struct CheckedResolver {
    policy: EndpointPolicy,
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addresses = checked_addresses(&host, policy).await?;
            Ok(Box::new(addresses.into_iter()) as Addrs)
        })
    }
}

/// `host`'s addresses (port 0: the client puts the URL's), all public unless `policy` allows
/// insecure endpoints; [`Refused`] otherwise.
async fn checked_addresses(
    host: &str,
    policy: EndpointPolicy,
) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error + Send + Sync>> {
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((host, 0)).await?.collect();
    if !policy.allow_insecure
        && let Some(bad) = addresses.iter().find(|a| !is_global(a.ip()))
    {
        return Err(Box::new(Refused {
            host: host.to_string(),
            address: bad.ip(),
        }));
    }
    Ok(addresses)
}

/// The contact the push services see (the VAPID `sub`, RFC 8292 section 2.1): the site's
/// public URL when it is `https`, else a placeholder address of the site.
pub fn contact(public: Option<&PublicUrl>) -> String {
    match public.map(PublicUrl::origin) {
        Some(origin) if origin.starts_with("https://") => origin.to_string(),
        _ => "mailto:push@icebound.invalid".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(url: &str) -> http::Request<Vec<u8>> {
        http::Request::post(url).body(b"x".to_vec()).unwrap()
    }

    const STRICT: EndpointPolicy = EndpointPolicy {
        allow_insecure: false,
    };

    /// A one-request HTTP server on a loopback port that answers 201; its port.
    async fn answers_201() -> u16 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            while let Ok((mut s, _)) = listener.accept().await {
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf).await;
                let _ = s
                    .write_all(b"HTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n")
                    .await;
            }
        });
        port
    }

    #[tokio::test]
    async fn names_resolving_to_local_addresses_and_local_literals_are_refused() {
        let sender = HttpsSender::new(STRICT).unwrap();
        let port = answers_201().await;
        for url in [
            // `localhost` is in every /etc/hosts: the resolver's check, not the name's.
            format!("http://localhost:{port}/x"),
            "https://localhost/x".to_string(),
            format!("http://127.0.0.1:{port}/x"),
            "https://[::1]/x".to_string(),
            "https://[::ffff:127.0.0.1]/x".to_string(),
            "https://[64:ff9b::7f00:1]/x".to_string(),
            "https://169.254.169.254/latest/meta-data".to_string(),
        ] {
            let got = sender.send(post(&url)).await;
            assert!(matches!(got, Err(SendError::Refused(_))), "{url}: {got:?}");
        }
        let got = sender.send(post("https://localhost/x")).await;
        assert_eq!(
            got,
            Err(SendError::Refused(
                "'localhost' resolves to 127.0.0.1, not a public address".into()
            ))
        );
    }

    #[tokio::test]
    async fn allow_insecure_sends_to_local_names_and_addresses() {
        let sender = HttpsSender::new(EndpointPolicy {
            allow_insecure: true,
        })
        .unwrap();
        let port = answers_201().await;
        for url in [
            format!("http://localhost:{port}/x"),
            format!("http://127.0.0.1:{port}/x"),
        ] {
            assert_eq!(sender.send(post(&url)).await, Ok(201), "{url}");
        }
    }

    #[tokio::test]
    async fn the_resolver_gives_only_checked_addresses() {
        assert!(checked_addresses("localhost", STRICT).await.is_err());
        let open = EndpointPolicy {
            allow_insecure: true,
        };
        let got = checked_addresses("localhost", open).await.unwrap();
        assert!(!got.is_empty() && got.iter().all(|a| a.ip().is_loopback()));
        // An unknown name is no refusal: the push is tried again later.
        let unknown = checked_addresses("no-such-host.invalid", STRICT).await;
        assert!(unknown.is_err_and(|e| e.downcast_ref::<Refused>().is_none()));
    }

    #[test]
    fn literal_addresses_are_read_from_the_url() {
        let uri = |u: &str| u.parse::<http::Uri>().unwrap();
        assert_eq!(
            literal_address(&uri("https://[::1]:8443/x")),
            Some("::1".parse().unwrap())
        );
        assert_eq!(
            literal_address(&uri("https://10.0.0.1/x")),
            Some("10.0.0.1".parse().unwrap())
        );
        assert_eq!(literal_address(&uri("https://push.example.com/x")), None);
    }
}

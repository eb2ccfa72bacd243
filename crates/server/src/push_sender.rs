//! The Web Push messages' way out (issue 38): site::notifications::push builds each message
//! (encrypted, signed); [`HttpsSender`] POSTs it to the browser's push service over HTTPS
//! (reqwest with rustls and the web's root certificates), following no redirect.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use site::notifications::push::PushSender;
use site_http::options::PublicUrl;

/// Sends push messages with one shared HTTPS client.
pub struct HttpsSender {
    client: reqwest::Client,
}

impl HttpsSender {
    /// A sender; its client times out after `push::SEND_TIMEOUT`.
    pub fn new() -> Arc<HttpsSender> {
        let client = reqwest::Client::builder()
            .timeout(site::notifications::push::SEND_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Arc::new(HttpsSender { client })
    }
}

impl PushSender for HttpsSender {
    fn send(&self, request: http::Request<Vec<u8>>) -> BoxFuture<'static, Result<u16, String>> {
        let client = self.client.clone();
        Box::pin(async move {
            let request = reqwest::Request::try_from(request).map_err(|e| e.to_string())?;
            let answer = client.execute(request).await.map_err(|e| e.to_string())?;
            Ok(answer.status().as_u16())
        })
    }
}

/// The contact the push services see (the VAPID `sub`, RFC 8292 section 2.1): the site's
/// public URL when it is `https`, else a placeholder address of the site.
pub fn contact(public: Option<&PublicUrl>) -> String {
    match public.map(PublicUrl::origin) {
        Some(origin) if origin.starts_with("https://") => origin.to_string(),
        _ => "mailto:push@icebound.invalid".to_string(),
    }
}

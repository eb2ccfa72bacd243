//! Mail's way out (issue 38): site::mail writes each mail; [`SmtpMailer`] sends it through
//! the SMTP server of `serve --smtp URL` with lettre (`smtp://host:port` plain, as to a local
//! relay; `smtps://` or `smtp://...?tls=required` with TLS; user and password in the URL).

use std::sync::Arc;

use futures_util::future::BoxFuture;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use site::mail::{Mail, Mailer};

/// Sends mail through one SMTP server.
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: lettre::message::Mailbox,
}

impl SmtpMailer {
    /// A mailer for the SMTP server at `url`, sending as `from` (an address, or `Name
    /// <address>`). Errors say which of the two is wrong.
    pub fn new(url: &str, from: &str) -> Result<Arc<SmtpMailer>, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("--smtp {url:?}: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        let from = from
            .parse()
            .map_err(|e| format!("--mail-from {from:?}: {e}"))?;
        Ok(Arc::new(SmtpMailer { transport, from }))
    }
}

impl Mailer for SmtpMailer {
    fn send(&self, mail: Mail) -> BoxFuture<'static, Result<(), String>> {
        let transport = self.transport.clone();
        let from = self.from.clone();
        Box::pin(async move {
            let to = mail
                .to
                .parse()
                .map_err(|e| format!("to {:?}: {e}", mail.to))?;
            let mut builder = Message::builder()
                .from(from)
                .to(to)
                .subject(mail.subject)
                .header(ContentType::TEXT_PLAIN);
            let mut text = mail.text;
            if let Some(url) = mail.unsubscribe {
                // RFC 2369 and RFC 8058: a mail client's own unsubscribe button posts here.
                builder = builder
                    .raw_header(HeaderValue::new(
                        HeaderName::new_from_ascii_str("List-Unsubscribe"),
                        format!("<{url}>"),
                    ))
                    .raw_header(HeaderValue::new(
                        HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                        "List-Unsubscribe=One-Click".to_string(),
                    ));
                text.push_str(&format!("\n--\nTo get no more of these mails: {url}\n"));
            }
            let message = builder.body(text).map_err(|e| e.to_string())?;
            transport
                .send(message)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
    }
}

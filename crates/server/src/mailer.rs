//! Mail's way out (issue 38): site::mail writes each mail; [`SmtpMailer`] sends it through
//! the SMTP server of `serve --smtp URL` with lettre (`smtp://host:port` plain, as to a local
//! relay; `smtps://` or `smtp://...?tls=required` with TLS; user and password in the URL).

use std::sync::Arc;

use futures_util::future::BoxFuture;
use lettre::message::SinglePart;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use site::mail::{Mail, Mailer};

/// The longest one mail's sending may take, from connecting to the server's last answer.
pub const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

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
                .from(from.clone())
                .to(to)
                .subject(mail.subject)
                .message_id(Some(message_id(&from)));
            let mut text = mail.text;
            if let Some(url) = mail.unsubscribe {
                for (name, value) in unsubscribe_headers(&url) {
                    builder = builder.raw_header(HeaderValue::new(
                        HeaderName::new_from_ascii_str(name),
                        value,
                    ));
                }
                text.push_str(&format!("\n--\nTo get no more of these mails: {url}\n"));
            }
            // singlepart: MIME-Version 1.0 (RFC 2045 section 4), text/plain; charset=utf-8.
            let message = builder
                .singlepart(SinglePart::plain(text))
                .map_err(|e| e.to_string())?;
            // lettre's own timeout covers the connection only: a server that accepts and
            // then says nothing would hold the send for ever.
            match tokio::time::timeout(SEND_TIMEOUT, transport.send(message)).await {
                Ok(sent) => sent.map(|_| ()).map_err(|e| e.to_string()),
                Err(_) => Err(format!(
                    "the SMTP server did not finish within {} s",
                    SEND_TIMEOUT.as_secs()
                )),
            }
        })
    }
}

/// A Message-ID unique to this mail (RFC 5322 section 3.6.4): random left part, the sender's
/// domain on the right (not the machine's host name, which is no one's domain).
fn message_id(from: &lettre::message::Mailbox) -> String {
    let left: u128 = rand::random();
    format!("<{left:032x}@{}>", from.email.domain())
}

/// The list headers of a mail with the unsubscribe link `url`: `List-Unsubscribe` (RFC
/// 2369), and `List-Unsubscribe-Post` for a one-click POST only when the link is HTTPS, as
/// RFC 8058 section 3.1 requires of it.
fn unsubscribe_headers(url: &str) -> Vec<(&'static str, String)> {
    let mut headers = vec![("List-Unsubscribe", format!("<{url}>"))];
    if url.starts_with("https://") {
        headers.push((
            "List-Unsubscribe-Post",
            "List-Unsubscribe=One-Click".to_string(),
        ));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_click_is_offered_only_over_https() {
        let names = |url: &str| -> Vec<&str> {
            unsubscribe_headers(url)
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        assert_eq!(
            names("https://play.example.org/api/email/unsubscribe?token=t&kind=digest"),
            vec!["List-Unsubscribe", "List-Unsubscribe-Post"]
        );
        assert_eq!(
            names("http://127.0.0.1:8080/api/email/unsubscribe?token=t"),
            vec!["List-Unsubscribe"]
        );
        assert_eq!(
            unsubscribe_headers("https://x/u")[0].1,
            "<https://x/u>".to_string()
        );
    }

    #[test]
    fn a_message_id_names_the_senders_domain() {
        let from: lettre::message::Mailbox =
            "icebound <mail@play.example.org>".parse().expect("mailbox");
        let a = message_id(&from);
        assert!(
            a.starts_with('<') && a.ends_with("@play.example.org>"),
            "{a}"
        );
        assert_ne!(a, message_id(&from));
    }
}

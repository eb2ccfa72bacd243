//! E-mail (issue 38): an optional, verified address per account, the kinds of mail it takes,
//! unsubscribe links, and account recovery by a reset link that works once within an hour.
//! Mail leaves through the [`Mailer`] port (the server's SMTP client, `serve --smtp URL`);
//! without one the site sends nothing and says so once in the log, and the answers say that
//! no mail could be sent.

pub mod digest;

use std::sync::{Arc, OnceLock};

use futures_util::future::BoxFuture;
use serde::Serialize;

use crate::accounts::Account;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::MailToken;
use site_model::time::WallTime;
use site_store::{EmailRow, Store};

/// How long a verification link works, ms (two days).
pub const VERIFY_MS: i64 = 2 * 86_400_000;
/// How long a password reset link works, ms (an hour).
pub const RESET_MS: i64 = 3_600_000;
/// Longest address, bytes (RFC 5321 section 4.5.3.1.3's path limit).
pub const MAX_ADDRESS: usize = 254;

/// One mail: plain text, to one address, with an unsubscribe link when it is one of the
/// kinds an address may turn off (RFC 8058's one-click `List-Unsubscribe`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    /// The address.
    pub to: String,
    /// The subject line.
    pub subject: String,
    /// The body, plain text.
    pub text: String,
    /// The unsubscribe URL (`List-Unsubscribe`), if any.
    pub unsubscribe: Option<String>,
}

/// The port through which mail leaves: the server's SMTP client.
pub trait Mailer: Send + Sync {
    /// Sends `mail`; why not, if it was not taken.
    fn send(&self, mail: Mail) -> BoxFuture<'static, Result<(), String>>;
}

/// An address as the account page shows it (`GET /api/me/email`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EmailView {
    /// The address, or `null` when none is set.
    pub email: Option<String>,
    /// Whether its link was followed.
    pub verified: bool,
    /// Whether it takes the daily digest of games waiting for a move.
    pub digest: bool,
    /// Whether it takes the low-time reminders.
    pub low_time: bool,
    /// A new address waiting for its link, while `email` (verified) stays; `null` when none.
    pub pending: Option<String>,
    /// Whether this site sends mail at all (`serve --smtp`).
    pub mail_on: bool,
}

/// A kind of mail an address may turn off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// The daily digest.
    Digest,
    /// The low-time reminders.
    LowTime,
}

impl MailKind {
    /// From a link's `kind`.
    pub fn parse(s: &str) -> Option<MailKind> {
        match s {
            "digest" => Some(MailKind::Digest),
            "low_time" => Some(MailKind::LowTime),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            MailKind::Digest => "digest",
            MailKind::LowTime => "low_time",
        }
    }
}

/// An address checked once at the edge: a dot-atom local part in ASCII (RFC 5322 section
/// 3.4.1; no quoted local part, and no UTF-8 one: that needs SMTPUTF8, RFC 6531, which mail
/// servers may not offer) at a domain name, an international one kept in its ASCII form
/// (IDNA, RFC 5891); no address literal (`[127.0.0.1]`). At most [`MAX_ADDRESS`] bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailAddress(String);

/// The characters of a dot-atom besides the dots (RFC 5322 `atext`).
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c)
}

impl TryFrom<&str> for EmailAddress {
    type Error = SiteError;

    fn try_from(text: &str) -> Result<EmailAddress, SiteError> {
        let t = text.trim();
        let bad = |why: &str| {
            SiteError::bad_request(format!(
                "email: {t:?} is not an address this site can mail ({why})"
            ))
        };
        if t.len() > MAX_ADDRESS {
            return Err(bad(&format!("longer than {MAX_ADDRESS} bytes")));
        }
        let Some((local, domain)) = t.rsplit_once('@') else {
            return Err(bad("no @: name@example.org"));
        };
        if local.is_empty()
            || local.len() > 64
            || local.starts_with('.')
            || local.ends_with('.')
            || local.contains("..")
            || !local.chars().all(|c| c == '.' || is_atext(c))
        {
            return Err(bad(
                "the part before @ may hold ASCII letters, digits, dots and !#$%&'*+/=?^_`{|}~- only",
            ));
        }
        if domain.starts_with('[') {
            return Err(bad("an address literal: give a domain name"));
        }
        let ascii = idna::domain_to_ascii(domain).map_err(|_| bad("the domain is not a name"))?;
        let labels_ok = ascii.split('.').count() >= 2
            && ascii.split('.').all(|l| {
                !l.is_empty()
                    && l.len() <= 63
                    && !l.starts_with('-')
                    && !l.ends_with('-')
                    && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            });
        let address = format!("{local}@{ascii}");
        if !labels_ok
            || address.len() > MAX_ADDRESS
            || address.parse::<lettre::message::Mailbox>().is_err()
        {
            return Err(bad("the domain is not a name like example.org"));
        }
        Ok(EmailAddress(address))
    }
}

/// The site's mail.
pub struct MailService {
    store: Store,
    time: WallTime,
    mailer: OnceLock<(Arc<dyn Mailer>, String)>,
    said_off: std::sync::atomic::AtomicBool,
}

impl MailService {
    /// The mail of the site on `store`; it sends nothing until [`MailService::set_mailer`].
    pub fn new(store: Store, time: WallTime) -> Arc<MailService> {
        Arc::new(MailService {
            store,
            time,
            mailer: OnceLock::new(),
            said_off: Default::default(),
        })
    }

    /// Mail leaves through `mailer`; its links start with `base` (the site's public URL,
    /// e.g. `https://play.example.org`).
    pub fn set_mailer(&self, mailer: Arc<dyn Mailer>, base: &str) {
        let _ = self
            .mailer
            .set((mailer, base.trim_end_matches('/').to_string()));
    }

    /// Whether mail can be sent.
    pub fn is_on(&self) -> bool {
        self.mailer.get().is_some()
    }

    /// `mail` with its links made whole, and the mailer; `None` without one (said once).
    fn ready(&self, mut mail: Mail) -> Option<(Arc<dyn Mailer>, Mail)> {
        let Some((mailer, base)) = self.mailer.get() else {
            if !self
                .said_off
                .swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                tracing::warn!("no mail is sent: the site runs without --smtp");
            }
            return None;
        };
        mail.text = mail.text.replace("{base}", base);
        mail.unsubscribe = mail.unsubscribe.map(|u| u.replace("{base}", base));
        Some((mailer.clone(), mail))
    }

    /// Sends `mail` (link paths in `text` and `unsubscribe` start with `{base}`) and waits;
    /// false when it could not be (no mailer, or the SMTP server refused it or timed out:
    /// logged).
    async fn send_now(&self, mail: Mail) -> bool {
        let Some((mailer, mail)) = self.ready(mail) else {
            return false;
        };
        match mailer.send(mail).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "a mail was not sent");
                false
            }
        }
    }

    /// Sends `mail` in the background: the request that asked for it answers at once, the
    /// same whether a mail goes or not (nobody learns from the time who has an address), and
    /// a slow mail server holds up nothing.
    fn send_later(&self, mail: Mail) {
        let Some((mailer, mail)) = self.ready(mail) else {
            return;
        };
        tokio::spawn(async move {
            if let Err(e) = mailer.send(mail).await {
                tracing::warn!(error = %e, "a mail was not sent");
            }
        });
    }

    fn view(&self, row: Option<EmailRow>) -> EmailView {
        EmailView {
            verified: row.as_ref().is_some_and(|r| r.verified),
            digest: row.as_ref().is_some_and(|r| r.digest),
            low_time: row.as_ref().is_some_and(|r| r.low_time),
            pending: row.as_ref().and_then(|r| r.pending.clone()),
            email: row.map(|r| r.email),
            mail_on: self.is_on(),
        }
    }

    /// `GET /api/me/email`.
    pub async fn email(&self, account: &Account) -> Result<EmailView, SiteError> {
        Ok(self.view(self.store.email_of(&account.id).await?))
    }

    /// `POST /api/me/email`: sets the account's address and mails it a link that confirms it
    /// ([`VERIFY_MS`]). A verified address stays until the new one's link is followed
    /// (`pending`); the same verified address again changes nothing. 503 `unavailable` when
    /// the site sends no mail.
    pub async fn set_address(
        &self,
        account: &Account,
        email: EmailAddress,
    ) -> Result<EmailView, SiteError> {
        if !self.is_on() {
            return Err(mail_off());
        }
        if let Some(row) = self.store.email_of(&account.id).await?
            && row.verified
            && row.email == email.0
        {
            return Ok(self.view(Some(row)));
        }
        let token = MailToken::new();
        let unsubscribe = MailToken::new();
        self.store
            .set_email(
                &account.id,
                &email.0,
                &token.hash(),
                self.time.now_ms() + VERIFY_MS,
                unsubscribe.expose(),
            )
            .await?;
        self.send_later(Mail {
            to: email.0.clone(),
            subject: "icebound: confirm your e-mail address".into(),
            text: format!(
                "Hello {},\n\nTo confirm this address for your icebound account, open:\n\n\
                 {{base}}/api/email/verify?token={}\n\nThe link works for two days. If you \
                 did not ask for it, ignore this mail.\n",
                account.username,
                token.expose()
            ),
            unsubscribe: None,
        });
        tracing::info!(account = %account.id, "e-mail address set, link sent");
        self.email(account).await
    }

    /// `GET /api/email/verify?token=`: verifies the address the link was sent to. 400 for an
    /// unknown, used or expired link.
    pub async fn verify(&self, token: &str) -> Result<(), SiteError> {
        let bad = || {
            SiteError::bad_request(
                "this confirmation link is unknown, used or expired: set the address again",
            )
        };
        let token = MailToken::parse(token).ok_or_else(bad)?;
        self.store
            .verify_email(&token.hash(), self.time.now_ms())
            .await?
            .ok_or_else(bad)?;
        Ok(())
    }

    /// `DELETE /api/me/email`.
    pub async fn remove(&self, account: &Account) -> Result<EmailView, SiteError> {
        self.store.delete_email(&account.id).await?;
        self.email(account).await
    }

    /// `PUT /api/me/email/settings`: which kinds of mail the address takes. 404 without one.
    pub async fn set_kinds(
        &self,
        account: &Account,
        digest: bool,
        low_time: bool,
    ) -> Result<EmailView, SiteError> {
        if !self
            .store
            .set_email_kinds(&account.id, digest, low_time)
            .await?
        {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                "no e-mail address is set",
            ));
        }
        self.email(account).await
    }

    /// `POST /api/email/unsubscribe?token=&kind=` (RFC 8058 one-click; the link in a mail's
    /// body too): turns off `kind`, or every kind without one. 400 for an unknown token.
    pub async fn unsubscribe(&self, token: &str, kind: Option<MailKind>) -> Result<(), SiteError> {
        let row = match MailToken::parse(token) {
            Some(t) => self.store.email_by_unsubscribe(t.expose()).await?,
            None => None,
        }
        .ok_or_else(|| SiteError::bad_request("this unsubscribe link is unknown"))?;
        let (digest, low_time) = match kind {
            Some(MailKind::Digest) => (false, row.low_time),
            Some(MailKind::LowTime) => (row.digest, false),
            None => (false, false),
        };
        self.store
            .set_email_kinds(&row.account_id, digest, low_time)
            .await?;
        tracing::info!(account = %row.account_id, kind = kind.map_or("all", MailKind::name), "unsubscribed");
        Ok(())
    }

    /// `POST /api/password-reset`: mails a reset link ([`RESET_MS`], once) to the account's
    /// verified address, unless it has [`site_store::MAX_LIVE_RESETS`] alive already. Answers
    /// the same, as soon, whether or not the account or address exists (the mail goes in the
    /// background), so that nobody learns who has one.
    pub async fn request_reset(&self, username: &str) -> Result<(), SiteError> {
        let Some(account) = self.store.account_named(username).await? else {
            return Ok(());
        };
        let Some(row) = self.store.email_of(&account.id).await? else {
            return Ok(());
        };
        if !row.verified {
            return Ok(());
        }
        let token = MailToken::new();
        let now = self.time.now_ms();
        if !self
            .store
            .add_password_reset(&token.hash(), &account.id, now, now + RESET_MS)
            .await?
        {
            tracing::info!(account = %account.id, "password reset not mailed: links enough alive");
            return Ok(());
        }
        self.send_later(Mail {
            to: row.email,
            subject: "icebound: reset your password".into(),
            text: format!(
                "Hello {},\n\nTo choose a new password for your icebound account, open:\n\n\
                 {{base}}/reset?token={}\n\nThe link works once, within an hour. If you did not \
                 ask for it, ignore this mail: your password stays as it is.\n",
                account.username,
                token.expose()
            ),
            unsubscribe: None,
        });
        Ok(())
    }

    /// `POST /api/password-reset/confirm`: sets the password of the link's account and ends
    /// its sessions. 400 for an unknown, used or expired link, or a bad password.
    /// Returns the account, whose cached sessions the caller forgets.
    pub async fn reset(&self, token: &str, password: &str) -> Result<String, SiteError> {
        let hash = crate::accounts::new_password_hash(password).await?;
        let bad = || {
            SiteError::bad_request("this reset link is unknown, used or expired: ask for a new one")
        };
        let token = MailToken::parse(token).ok_or_else(bad)?;
        let account = self
            .store
            .use_password_reset(&token.hash(), self.time.now_ms(), &hash)
            .await?
            .ok_or_else(bad)?;
        tracing::info!(account = %account, "password reset by e-mail");
        Ok(account)
    }
}

fn mail_off() -> SiteError {
    SiteError::new(
        ErrorCode::Unavailable,
        "this site sends no e-mail now, so an address cannot be confirmed",
    )
}

/// Low-time reminders by e-mail (the notifications' port, `crate::notifications::MailReminders`).
pub struct LowTimeMail(pub Arc<MailService>);

impl crate::notifications::MailReminders for LowTimeMail {
    fn low_time(&self, note: site_store::NewNotification) -> BoxFuture<'static, ()> {
        let mail = self.0.clone();
        // In the background: the reminders of other games do not wait for the mail server.
        tokio::spawn(async move {
            if let Err(e) = mail.mail_low_time(&note).await {
                tracing::warn!(error = %e, "a low-time mail was not sent");
            }
        });
        Box::pin(std::future::ready(()))
    }
}

impl MailService {
    /// Mails `note` (a low-time reminder) to its owner's account when its address is verified
    /// and takes low-time mail, with an unsubscribe link for that kind.
    async fn mail_low_time(&self, note: &site_store::NewNotification) -> Result<(), SiteError> {
        if !self.is_on() {
            return Ok(());
        }
        let Some(account) = self.store.account_by_player_hash(&note.owner).await? else {
            return Ok(());
        };
        let Some(row) = self.store.email_of(&account.id).await? else {
            return Ok(());
        };
        if !row.verified || !row.low_time {
            return Ok(());
        }
        let game = note.game.as_deref().unwrap_or("");
        self.send_now(Mail {
            to: row.email,
            subject: format!("icebound: {}", note.text),
            text: format!(
                "Hello {},\n\n{}.\n\nYour move: {{base}}/game/{game}\n",
                account.username, note.text
            ),
            unsubscribe: Some(format!(
                "{{base}}/api/email/unsubscribe?token={}&kind=low_time",
                row.unsubscribe
            )),
        })
        .await;
        Ok(())
    }
}

#[cfg(test)]
mod address_tests {
    use super::EmailAddress;

    fn read(text: &str) -> Result<String, String> {
        EmailAddress::try_from(text)
            .map(|a| a.0)
            .map_err(|e| e.message)
    }

    #[test]
    fn an_address_is_one_this_site_can_mail() {
        assert_eq!(
            read(" ann.b+chess@example.org "),
            Ok("ann.b+chess@example.org".into())
        );
        // An international domain is kept in its ASCII form (IDNA).
        assert_eq!(
            read("ann@bücher.example"),
            Ok("ann@xn--bcher-kva.example".into())
        );
        for (text, why) in [
            ("jörg@example.com", "the part before @"),
            ("用户@例子.广告", "the part before @"),
            ("\"quoted name\"@example.com", "the part before @"),
            ("x@[127.0.0.1]", "address literal"),
            ("ann@localhost", "the domain"),
            ("ann.@example.org", "the part before @"),
            ("a..b@example.org", "the part before @"),
            ("ann@exa mple.org", "the domain"),
            ("ann@-x.org", "the domain"),
            ("no-at-sign", "no @"),
            ("ann@example.org\r\nBcc: x@y.org", "the part before @"),
            ("ann@exam\rple.org", "the domain"),
        ] {
            let e = read(text).expect_err(text);
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}

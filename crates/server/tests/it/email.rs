//! E-mail through a real SMTP server (issue 38; `.ci/setup-smtp.sh` starts Debian's OpenSMTPD,
//! which delivers every mail to one maildir the tests read): an address is confirmed by the
//! link of the mail sent to it (once); a password reset link mailed to a confirmed address
//! sets a new password once and ends the sessions; an unknown name gets the same answer and
//! no mail; a low-time reminder is mailed once, with a one-click unsubscribe link (RFC 8058)
//! that turns that kind off.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;
use server::SiteOptions;

use crate::common::*;

/// The mails in `maildir` sent to `to`, as text (headers and body), oldest first.
pub(crate) fn mails_to(maildir: &Path, to: &str) -> Vec<String> {
    let mut found: Vec<(std::time::SystemTime, String)> = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(dir) = std::fs::read_dir(maildir.join(sub)) else {
            continue;
        };
        for e in dir.flatten() {
            let Ok(text) = std::fs::read_to_string(e.path()) else {
                continue;
            };
            if text
                .lines()
                .any(|l| l.eq_ignore_ascii_case(&format!("To: {to}")))
            {
                let at = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                found.push((at, text));
            }
        }
    }
    found.sort();
    found.into_iter().map(|(_, t)| t).collect()
}

/// Waits up to 15 s for the `n`th mail to `to`.
pub(crate) async fn nth_mail(maildir: &Path, to: &str, n: usize) -> String {
    for _ in 0..150 {
        let mails = mails_to(maildir, to);
        if mails.len() >= n {
            return mails[n - 1].clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no mail {n} to {to} within 15 s");
}

/// `text` decoded from quoted-printable (RFC 2045 section 6.7: soft line breaks, `=XX`) when
/// the mail says it is (an ASCII mail may go as 7bit: a token `3F...` after `token=` is no
/// escape then).
fn unquote(text: &str) -> String {
    if !text
        .to_ascii_lowercase()
        .contains("content-transfer-encoding: quoted-printable")
    {
        return text.to_string();
    }
    let joined = text.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn a_token_that_begins_with_hex_digits_is_read_from_quoted_printable() {
    let mail = "Content-Transfer-Encoding: quoted-printable\n\nlink: /x?token=3DE2abc9=\n9Z&kind=3Ddigest\n";
    assert_eq!(token_after(mail, "/x?token="), "E2abc99Z");
}

/// The token after `marker` in a mail's links.
pub(crate) fn token_after(mail: &str, marker: &str) -> String {
    let joined = unquote(mail);
    let at = joined
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} in {joined}"));
    joined[at + marker.len()..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

pub(crate) fn unique(name: &str) -> String {
    format!("{name}-{}@example.com", site_store::now_ms())
}

pub(crate) async fn mail_server(
    db: &str,
    time: Option<site_model::time::WallTime>,
) -> Option<(TestServer, PathBuf)> {
    mail_server_on(&sqlite_url(db), time).await
}

/// [`mail_server`] on the database at `url`.
pub(crate) async fn mail_server_on(
    url: &str,
    time: Option<site_model::time::WallTime>,
) -> Option<(TestServer, PathBuf)> {
    let (smtp, maildir) = test_support::services::smtp()?;
    let srv = TestServer::start_with(
        url,
        SiteOptions {
            services: server::ServiceOptions {
                smtp: Some(format!("smtp://{smtp}")),
                // https: the one-click POST header is sent only for an HTTPS link (RFC 8058).
                mail_base: Some("https://icebound.test".into()),
                time: time.unwrap_or_default(),
                ..server::ServiceOptions::default()
            },
            // Log-ins, registrations and address changes share one rate limit per address.
            rate_limits: server::options::RateLimits::off(),
            ..SiteOptions::default()
        },
    )
    .await;
    Some((srv, maildir))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_is_confirmed_by_its_link_and_recovers_the_account() {
    let Some((srv, maildir)) = mail_server("email-confirm", None).await else {
        return;
    };
    let name = format!("mail{}", site_store::now_ms() % 1_000_000);
    let mut me = register(&srv, &name).await;
    let address = unique("ann");
    let r = me.get("/api/me/email").await.expect("get");
    assert_eq!(
        r.body,
        json!({"email": null, "verified": false, "digest": false, "low_time": false, "pending": null, "mail_on": true})
    );
    let bad = me
        .post("/api/me/email", json!({"email": "not an address"}))
        .await
        .expect("post");
    assert_error(&bad, 400, "bad_request");
    let r = me
        .post("/api/me/email", json!({"email": address}))
        .await
        .expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.body["verified"], false);
    let mail = nth_mail(&maildir, &address, 1).await;
    assert!(
        mail.contains("Subject: icebound: confirm your e-mail address"),
        "{mail}"
    );
    let token = token_after(&mail, "/api/email/verify?token=");
    assert_eq!(token.len(), 32, "{mail}");
    // RFC 2045 section 4; a Message-ID at the sender's domain (RFC 5322 section 3.6.4).
    assert!(mail.contains("MIME-Version: 1.0"), "{mail}");
    assert!(
        mail.lines()
            .any(|l| l.starts_with("Message-ID: <") && l.ends_with("@icebound.invalid>")),
        "{mail}"
    );
    // A reset before the address is confirmed mails nothing.
    let r = srv
        .client()
        .post("/api/password-reset", json!({"username": name}))
        .await
        .expect("post");
    assert_eq!(r.status, 202);
    let r = me
        .get(&format!("/api/email/verify?token={token}"))
        .await
        .expect("get");
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(
        r.headers.get("location").and_then(|v| v.to_str().ok()),
        Some("/account?email=verified")
    );
    let r = me.get("/api/me/email").await.expect("get");
    assert_eq!(r.body["verified"], true, "{}", r.text);
    assert_eq!(r.body["email"], address.as_str());
    // The link works once.
    let r = me
        .get(&format!("/api/email/verify?token={token}"))
        .await
        .expect("get");
    assert_eq!(
        r.headers.get("location").and_then(|v| v.to_str().ok()),
        Some("/account?email=bad_link")
    );
    assert_eq!(
        mails_to(&maildir, &address).len(),
        1,
        "no reset mail went to an unconfirmed address"
    );

    // Account recovery: a stranger asks for the name, the owner gets the link.
    let mut stranger = srv.client();
    let r = stranger
        .post("/api/password-reset", json!({"username": name}))
        .await
        .expect("post");
    assert_eq!(r.status, 202, "{}", r.text);
    let r = stranger
        .post("/api/password-reset", json!({"username": "nobody_here"}))
        .await
        .expect("post");
    assert_eq!(
        r.status, 202,
        "an unknown name gets the same answer: {}",
        r.text
    );
    let mail = nth_mail(&maildir, &address, 2).await;
    assert!(
        mail.contains("Subject: icebound: reset your password"),
        "{mail}"
    );
    let reset = token_after(&mail, "/reset?token=");
    let short = stranger
        .post(
            "/api/password-reset/confirm",
            json!({"token": reset, "password": "short"}),
        )
        .await
        .expect("post");
    assert_error(&short, 400, "bad_request");
    let r = stranger
        .post(
            "/api/password-reset/confirm",
            json!({"token": reset, "password": "a new password"}),
        )
        .await
        .expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    let again = stranger
        .post(
            "/api/password-reset/confirm",
            json!({"token": reset, "password": "another one!"}),
        )
        .await
        .expect("post");
    assert_error(&again, 400, "bad_request");
    assert!(again.text.contains("used or expired"), "{}", again.text);
    // The sessions ended; the new password logs in, the old one not.
    let r = me.get("/api/me").await.expect("me");
    assert_eq!(
        r.body["username"],
        serde_json::Value::Null,
        "logged out: {}",
        r.text
    );
    let old = srv
        .client()
        .post(
            "/api/session",
            json!({"username": name, "password": "correct horse"}),
        )
        .await
        .expect("post");
    assert_error(&old, 401, "bad_credentials");
    let new = srv
        .client()
        .post(
            "/api/session",
            json!({"username": name, "password": "a new password"}),
        )
        .await
        .expect("post");
    assert_eq!(new.status, 200, "{}", new.text);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_low_time_reminder_is_mailed_once_and_its_link_unsubscribes() {
    let time = site_model::time::WallTime::system();
    let Some((srv, maildir)) = mail_server("email-low-time", Some(time.clone())).await else {
        return;
    };
    let stamp = site_store::now_ms() % 1_000_000;
    let mut ann = register(&srv, &format!("ann{stamp}")).await;
    let mut bob = register(&srv, &format!("bob{stamp}")).await;
    let address = unique("bob");
    verify(&mut bob, &maildir, &address).await;
    let g = create_and_join(
        &mut ann,
        &mut bob,
        json!({"variant": "iceage", "opponent": "friend", "color": "white", "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    play(&mut ann, &id, "g1f3").await;
    // Two days and a minute on, Bob has under 24 h: one reminder, one mail, however often
    // the reminders are looked for.
    time.advance(Duration::from_secs(48 * 3600 + 60));
    let notes = &srv.site.services().notifications;
    assert_eq!(notes.remind(time.now_ms()).await.expect("remind"), 1);
    assert_eq!(notes.remind(time.now_ms()).await.expect("remind"), 0);
    let mail = nth_mail(&maildir, &address, 2).await;
    let body = unquote(&mail);
    assert!(body.contains("less than 24 hours left"), "{body}");
    assert!(body.contains(&format!("/game/{id}")), "{body}");
    assert!(
        mail.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "{mail}"
    );
    let unsub = token_after(&mail, "/api/email/unsubscribe?token=");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(mails_to(&maildir, &address).len(), 2, "mailed once");
    // The body's link shows a page; the mail client's one-click POST (a form, no page, no
    // cookie) turns low-time mail off.
    let mut client = srv.client();
    let page = client
        .get(&format!(
            "/api/email/unsubscribe?token={unsub}&kind=low_time"
        ))
        .await
        .expect("get");
    assert_eq!(page.status, 200);
    assert!(page.text.contains("<form method=\"post\""), "{}", page.text);
    assert_eq!(
        srv_post_form(
            &srv,
            &format!("/api/email/unsubscribe?token={unsub}&kind=low_time")
        )
        .await,
        200
    );
    let r = bob.get("/api/me/email").await.expect("get");
    assert_eq!(
        (r.body["low_time"].clone(), r.body["digest"].clone()),
        (json!(false), json!(true)),
        "{}",
        r.text
    );
    let bad = client
        .send_with_headers("POST", "/api/email/unsubscribe?token=nope", &[], None)
        .await
        .expect("post");
    assert_error(&bad, 400, "bad_request");
    // The hour mark: no mail now.
    time.advance(Duration::from_secs(23 * 3600));
    assert_eq!(notes.remind(time.now_ms()).await.expect("remind"), 1);
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(
        mails_to(&maildir, &address).len(),
        2,
        "unsubscribed: no more low-time mail"
    );
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_digest_goes_once_a_day_whatever_the_processes() {
    use chrono::{Duration as Days, TimeZone, Timelike, Utc};
    let time = site_model::time::WallTime::system();
    let url = sqlite_url("email-digest");
    let Some((a, maildir)) = mail_server_on(&url, Some(time.clone())).await else {
        return;
    };
    // A second process on the same database (the same URL: each sqlite_url is a new file).
    let (b, _) = mail_server_on(&url, Some(time.clone()))
        .await
        .expect("smtp");
    let stamp = site_store::now_ms() % 1_000_000;
    let mut ann = register(&a, &format!("dg{stamp}")).await;
    let mut bob = register(&a, &format!("dh{stamp}")).await;
    let address = unique("digest");
    verify(&mut ann, &maildir, &address).await;
    // A week a move: the games still wait three days on.
    let corr = json!({"kind": "correspondence", "days": 7});
    let mut ids = Vec::new();
    for variant in ["iceage", "antarctos"] {
        let g = create_and_join(
            &mut ann,
            &mut bob,
            json!({"variant": variant, "opponent": "friend", "color": "white", "time_control": corr}),
        )
        .await;
        ids.push(g["id"].as_str().expect("id").to_string());
    }
    // Tomorrow, 08:00 UTC: both processes look at once.
    let now = Utc
        .timestamp_millis_opt(time.now_ms())
        .single()
        .expect("now");
    let eight = (now + Days::days(1))
        .with_hour(8)
        .and_then(|t| t.with_minute(0))
        .expect("08:00");
    time.advance(Duration::from_millis(
        (eight.timestamp_millis() - time.now_ms()) as u64,
    ));
    let look = || async {
        let now = time.now_ms();
        let (x, y) = tokio::join!(
            a.site.services().mail.send_digests(now),
            b.site.services().mail.send_digests(now)
        );
        x.expect("digest") + y.expect("digest")
    };
    assert_eq!(look().await, 1, "one digest for the day");
    assert_eq!(look().await, 0, "not twice");
    // The raw mail: `token_after` decodes it once (twice would read a token that begins with
    // two hex digits as an escape, as run 75 of CI did).
    let raw = nth_mail(&maildir, &address, 2).await;
    let mail = unquote(&raw);
    assert!(
        mail.contains("Subject: icebound: 2 games waiting for your move"),
        "{mail}"
    );
    for id in &ids {
        assert!(mail.contains(&format!("/game/{id}")), "{id} listed: {mail}");
    }
    assert!(mail.contains("kind=digest"), "{mail}");
    // Bob has no address: nothing for him. The next day, another.
    time.advance(Duration::from_secs(24 * 3600));
    assert_eq!(look().await, 1, "the next day's");
    nth_mail(&maildir, &address, 3).await;
    // Unsubscribed from the digest: no more.
    let unsub = token_after(&raw, "/api/email/unsubscribe?token=");
    let r = srv_post_form(
        &a,
        &format!("/api/email/unsubscribe?token={unsub}&kind=digest"),
    )
    .await;
    assert_eq!(r, 200);
    time.advance(Duration::from_secs(24 * 3600));
    assert_eq!(look().await, 0, "unsubscribed");
    let waiting = a
        .site
        .services()
        .play
        .store()
        .games_waiting_for(&format!("dg{stamp}"))
        .await
        .expect("games");
    assert_eq!(
        waiting.len(),
        2,
        "the games still wait: the digest stopped for the unsubscribe alone"
    );
    a.stop().await;
    b.stop().await;
}

/// A mail client's one-click POST to `path`; the status.
/// Gives `c`'s account `address` and follows the link mailed to it; asserts 200 and 303.
pub(crate) async fn verify(c: &mut server::client::ApiClient, maildir: &Path, address: &str) {
    let a = c
        .post("/api/me/email", json!({"email": address}))
        .await
        .expect("post");
    assert_eq!(a.status, 200, "{}", a.text);
    let token = token_after(
        &nth_mail(maildir, address, 1).await,
        "/api/email/verify?token=",
    );
    let got = c
        .get(&format!("/api/email/verify?token={token}"))
        .await
        .expect("get");
    assert_eq!(got.status, 303, "{}", got.text);
}

/// A mail client's RFC 8058 one-click POST to `path` (a form, no cookie); its status.
pub(crate) async fn srv_post_form(srv: &TestServer, path: &str) -> u16 {
    srv.client()
        .send_with_headers(
            "POST",
            path,
            &[("content-type", "application/x-www-form-urlencoded")],
            Some(b"List-Unsubscribe=One-Click".to_vec()),
        )
        .await
        .expect("post")
        .status
}

//! E-mail as testers broke it (issue 38): reset links outliving a reset, a password change or
//! a new address; reset mails without end for one account; a new address that wiped the
//! verified one; a mail server that accepts and says nothing, holding up requests; the
//! unsubscribe page's button ending on raw JSON; reading the address counted as a log-in; a
//! digest the mail server refused, lost for the day; reminders read before an outage was
//! given back.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::*;
use crate::email::{mail_server, mail_server_on, mails_to, nth_mail, token_after, unique, verify};

async fn ask_reset(srv: &TestServer, name: &str) {
    let r = srv
        .client()
        .post("/api/password-reset", json!({"username": name}))
        .await
        .expect("post");
    assert_eq!(r.status, 202, "{}", r.text);
}

async fn confirm(srv: &TestServer, token: &str, password: &str) -> u16 {
    srv.client()
        .post(
            "/api/password-reset/confirm",
            json!({"token": token, "password": password}),
        )
        .await
        .expect("post")
        .status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_links_die_with_a_reset_a_new_password_or_a_new_address() {
    let Some((srv, maildir)) = mail_server("email-resets", None).await else {
        return;
    };
    let name = format!("rs{}", site_store::now_ms() % 1_000_000);
    let mut me = register(&srv, &name).await;
    let address = unique("resets");
    verify(&mut me, &maildir, &address).await;
    // Three links alive at once at most: a fourth request mails nothing.
    for _ in 0..4 {
        ask_reset(&srv, &name).await;
    }
    let first = nth_mail(&maildir, &address, 2).await;
    let second = nth_mail(&maildir, &address, 3).await;
    nth_mail(&maildir, &address, 4).await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(mails_to(&maildir, &address).len(), 4, "confirm + 3 resets");
    let (t0, t1) = (
        token_after(&first, "/reset?token="),
        token_after(&second, "/reset?token="),
    );
    assert_eq!(confirm(&srv, &t0, "a new password").await, 200);
    assert_eq!(
        confirm(&srv, &t1, "the attacker's one").await,
        400,
        "the other links died with the reset"
    );
    // A password change voids a link mailed before it.
    let mut me = srv.client();
    let r = me
        .post(
            "/api/session",
            json!({"username": name, "password": "a new password"}),
        )
        .await
        .expect("log in");
    assert_eq!(r.status, 200, "{}", r.text);
    ask_reset(&srv, &name).await;
    let t2 = token_after(&nth_mail(&maildir, &address, 5).await, "/reset?token=");
    let r = me
        .post(
            "/api/me/password",
            json!({"old_password": "a new password", "new_password": "yet another one"}),
        )
        .await
        .expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(confirm(&srv, &t2, "the attacker's one").await, 400);
    // A new address: the verified one stays until the new one's link is followed, and a
    // link mailed to the old one before the change is void.
    ask_reset(&srv, &name).await;
    let t3 = token_after(&nth_mail(&maildir, &address, 6).await, "/reset?token=");
    let newer = unique("newer");
    let r = me
        .post("/api/me/email", json!({"email": newer}))
        .await
        .expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (
            r.body["email"].as_str(),
            r.body["verified"].as_bool(),
            r.body["pending"].as_str()
        ),
        (Some(address.as_str()), Some(true), Some(newer.as_str())),
        "{}",
        r.text
    );
    assert_eq!(confirm(&srv, &t3, "the attacker's one").await, 400);
    // Recovery still reaches the verified address meanwhile.
    ask_reset(&srv, &name).await;
    nth_mail(&maildir, &address, 7).await;
    let link = token_after(
        &nth_mail(&maildir, &newer, 1).await,
        "/api/email/verify?token=",
    );
    let r = me
        .get(&format!("/api/email/verify?token={link}"))
        .await
        .expect("get");
    assert_eq!(r.status, 303);
    let r = me.get("/api/me/email").await.expect("get");
    assert_eq!(
        (r.body["email"].as_str(), r.body["pending"].is_null()),
        (Some(newer.as_str()), true),
        "{}",
        r.text
    );
    srv.stop().await;
}

/// A listener that accepts connections and never says a word (an SMTP server hung).
async fn silent_smtp() -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (addr, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_that_says_nothing_holds_up_no_request() {
    let (addr, silent) = silent_smtp().await;
    let srv = TestServer::start_with(
        &sqlite_url("email-silent"),
        server::SiteOptions {
            services: server::ServiceOptions {
                smtp: Some(format!("smtp://{addr}")),
                ..server::ServiceOptions::default()
            },
            rate_limits: server::options::RateLimits::off(),
            ..server::SiteOptions::default()
        },
    )
    .await;
    let name = format!("sl{}", site_store::now_ms() % 1_000_000);
    let mut me = register(&srv, &name).await;
    let started = Instant::now();
    let r = me
        .post("/api/me/email", json!({"email": unique("silent")}))
        .await
        .expect("post");
    assert_eq!(r.status, 200, "{}", r.text);
    let r = srv
        .client()
        .post("/api/password-reset", json!({"username": name}))
        .await
        .expect("post");
    assert_eq!(r.status, 202);
    // Both answered without waiting for the mail (lettre's connect timeout alone let the
    // first hang for minutes).
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    silent.abort();
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_unsubscribe_page_answers_with_a_page_and_reading_the_address_is_no_log_in() {
    let url = sqlite_url("email-page");
    let Some((srv, maildir)) = mail_server_on(&url, None).await else {
        return;
    };
    let name = format!("pg{}", site_store::now_ms() % 1_000_000);
    let mut me = register(&srv, &name).await;
    let address = unique("page");
    verify(&mut me, &maildir, &address).await;
    // The token of the unsubscribe links is in the digest and low-time mails; the page's
    // form adds page=1, so its POST answers a page.
    let unsub = {
        use sqlx::{Connection, Row};
        sqlx::any::install_default_drivers();
        let mut db = sqlx::AnyConnection::connect(&url).await.expect("db");
        sqlx::query("SELECT unsubscribe FROM account_emails WHERE email = $1")
            .bind(&address)
            .fetch_one(&mut db)
            .await
            .expect("row")
            .try_get::<String, _>("unsubscribe")
            .expect("token")
    };
    let page = srv
        .client()
        .get(&format!("/api/email/unsubscribe?token={unsub}&kind=digest"))
        .await
        .expect("get");
    assert!(page.text.contains("&page=1"), "{}", page.text);
    let done = srv
        .client()
        .send_with_headers(
            "POST",
            &format!("/api/email/unsubscribe?token={unsub}&kind=digest&page=1"),
            &[("content-type", "application/x-www-form-urlencoded")],
            Some(Vec::new()),
        )
        .await
        .expect("post");
    assert_eq!(done.status, 200, "{}", done.text);
    assert!(
        done.text.contains("<h1>Unsubscribed</h1>") && done.text.contains("the daily digest"),
        "{}",
        done.text
    );
    srv.stop().await;

    // With the site's own rate limits: reloading the account page is no log-in.
    let srv = TestServer::start(&sqlite_url("email-limits")).await;
    let mut me = register(&srv, &format!("lm{}", site_store::now_ms() % 1_000_000)).await;
    for i in 0..12 {
        let r = me.get("/api/me/email").await.expect("get");
        assert_eq!(r.status, 200, "read {i}: {}", r.text);
    }
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_digest_the_mail_server_refused_goes_at_a_later_look() {
    use chrono::{Duration as Days, TimeZone, Timelike, Utc};
    let time = site_model::time::WallTime::system();
    let url = sqlite_url("email-digest-refused");
    let Some((good, maildir)) = mail_server_on(&url, Some(time.clone())).await else {
        return;
    };
    // A process whose mail server is down: a port nothing listens on.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr")
    };
    let down = TestServer::start_with(
        &url,
        server::SiteOptions {
            services: server::ServiceOptions {
                smtp: Some(format!("smtp://{closed}")),
                time: time.clone(),
                ..server::ServiceOptions::default()
            },
            rate_limits: server::options::RateLimits::off(),
            ..server::SiteOptions::default()
        },
    )
    .await;
    let stamp = site_store::now_ms() % 1_000_000;
    let mut ann = register(&good, &format!("dr{stamp}")).await;
    let mut bob = register(&good, &format!("ds{stamp}")).await;
    let address = unique("refused");
    verify(&mut ann, &maildir, &address).await;
    create_and_join(
        &mut ann,
        &mut bob,
        json!({"variant": "antarctos", "opponent": "friend", "color": "white",
               "time_control": {"kind": "correspondence", "days": 7}}),
    )
    .await;
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
    let at = time.now_ms();
    assert_eq!(
        down.site
            .services()
            .mail
            .send_digests(at)
            .await
            .expect("look"),
        0,
        "refused"
    );
    assert_eq!(
        good.site
            .services()
            .mail
            .send_digests(at)
            .await
            .expect("look"),
        1,
        "the claim was given back: the day's digest goes"
    );
    let mail = nth_mail(&maildir, &address, 2).await;
    assert!(mail.contains("waiting for your move"), "{mail}");
    down.stop().await;
    good.stop().await;
}

/// Every process was down: the clocks are owed that time. A reminder read before the
/// give-back would say "less than 24 hours" of a deadline about to move on, and spend the
/// reminder's key; none is made until the outage is given back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_reminder_is_read_before_an_outage_is_given_back() {
    use sqlx::Connection;
    let (time, options) = crate::clocks::moved_time();
    let url = sqlite_url("email-outage");
    let srv = TestServer::start_with(&url, options).await;
    let mut ann = register(&srv, "Ann").await;
    let mut bob = register(&srv, "Bob").await;
    let g = create_and_join(
        &mut ann,
        &mut bob,
        json!({"variant": "iceage", "opponent": "friend", "color": "white",
               "time_control": {"kind": "correspondence", "days": 3}}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    play(&mut ann, &id, "g1f3").await;
    time.advance(Duration::from_secs(48 * 3600 + 60));
    let (mut db, _) = crate::clock_outages::outage_being_given_back(&url).await;
    let notes = &srv.site.services().notifications;
    assert_eq!(
        notes.remind(time.now_ms()).await.expect("remind"),
        0,
        "an outage is owed"
    );
    // The give-back's holder goes: this process's sweeper gives the outage back.
    sqlx::query("DELETE FROM leases WHERE name = 'timeouts:credit'")
        .execute(&mut db)
        .await
        .expect("let the give-back go");
    db.close().await.expect("close");
    let mut made = 0;
    for _ in 0..100 {
        made = notes.remind(time.now_ms()).await.expect("remind");
        if made > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(made, 1, "the reminder once the clocks have their time");
    srv.stop().await;
}

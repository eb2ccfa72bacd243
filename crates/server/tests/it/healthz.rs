//! `GET /healthz` (issue 12, deployment): what a reverse proxy polls.

use crate::common::*;

#[tokio::test]
async fn healthz_says_the_database_answers() {
    let srv = TestServer::start(&sqlite_url("healthz")).await;
    let mut c = srv.client();
    let a = c.get("/healthz").await.expect("get");
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body, serde_json::json!({"database": "ok"}));
    // Closed pool: the database does not answer, and the check says so.
    srv.site.service().store().close().await;
    let a = c.get("/healthz").await.expect("get");
    assert_eq!(a.status, 503, "{}", a.text);
    assert!(
        a.body["database"]
            .as_str()
            .is_some_and(|m| !m.is_empty() && m != "ok"),
        "{}",
        a.text
    );
    srv.stop().await;
}

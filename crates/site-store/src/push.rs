//! Web Push subscriptions and the pushing of notifications (migration 14, issue 38,
//! site::notifications::push): who subscribed on which browser, and which notification has
//! been pushed. A notification is claimed for [`Store::claim_pushes`]'s lease before it is
//! sent, and marked pushed after: two processes never send it at once, and one that dies
//! while sending leaves it to another once the lease is over.

use site_model::secrets::TokenHash;
use sqlx::Row;

use super::notifications::{NotificationRow, from_row};
use super::{Store, StoreError};

/// One browser's subscription, as the browser's `PushSubscription` gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscriptionRow {
    /// The push service's URL for this browser (unique).
    pub endpoint: String,
    /// SHA-256 of the subscribing player's token.
    pub owner: TokenHash,
    /// The browser's P-256 public key, base64url (RFC 8291).
    pub p256dh: String,
    /// The browser's 16-byte authentication secret, base64url.
    pub auth: String,
    /// Unix ms.
    pub created_at: i64,
}

/// A notification to push and the owner it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushJob {
    /// The notification.
    pub note: NotificationRow,
    /// Whose it is.
    pub owner: TokenHash,
}

fn subscription(row: &sqlx::any::AnyRow) -> Result<PushSubscriptionRow, sqlx::Error> {
    Ok(PushSubscriptionRow {
        endpoint: row.try_get("endpoint")?,
        owner: TokenHash::from_stored(row.try_get("owner")?),
        p256dh: row.try_get("p256dh")?,
        auth: row.try_get("auth")?,
        created_at: row.try_get("created_at")?,
    })
}

impl Store {
    /// Stores `s` (a browser subscribing again, or moving to another player, replaces its row),
    /// then keeps the owner's newest `keep`.
    pub async fn add_push_subscription(
        &self,
        s: &PushSubscriptionRow,
        keep: i64,
    ) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                        .bind(&s.endpoint)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "INSERT INTO push_subscriptions (endpoint, owner, p256dh, auth, \
                         created_at) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&s.endpoint)
                    .bind(s.owner.as_str())
                    .bind(&s.p256dh)
                    .bind(&s.auth)
                    .bind(s.created_at)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "DELETE FROM push_subscriptions WHERE owner = $1 AND endpoint NOT IN \
                         (SELECT endpoint FROM push_subscriptions WHERE owner = $1 \
                          ORDER BY created_at DESC, endpoint LIMIT $2)",
                    )
                    .bind(s.owner.as_str())
                    .bind(keep)
                    .execute(&mut *tx)
                    .await?;
                    super::conn::commit(tx).await
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Deletes the subscription at `endpoint`: `owner`'s only when given (a player
    /// unsubscribing), anyone's when not (the push service said it is gone). Whether one was.
    pub async fn delete_push_subscription(
        &self,
        endpoint: &str,
        owner: Option<&TokenHash>,
    ) -> Result<bool, StoreError> {
        let owner = owner.map(TokenHash::as_str);
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = match owner {
                        Some(owner) => sqlx::query(
                            "DELETE FROM push_subscriptions WHERE endpoint = $1 AND owner = $2",
                        )
                        .bind(endpoint)
                        .bind(owner),
                        None => sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                            .bind(endpoint),
                    }
                    .execute(conn.raw())
                    .await?;
                    Ok(done.rows_affected() > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// `owner`'s subscriptions, newest first.
    pub async fn push_subscriptions(
        &self,
        owner: &TokenHash,
    ) -> Result<Vec<PushSubscriptionRow>, StoreError> {
        let owner = owner.as_str();
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT endpoint, owner, p256dh, auth, created_at FROM push_subscriptions \
                         WHERE owner = $1 ORDER BY created_at DESC, endpoint",
                    )
                    .bind(owner)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(subscription).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Claims up to `limit` notifications to push until `now + lease_ms`: not yet pushed, made
    /// after `since` (Unix ms) and after a subscription of their owner, and not claimed by
    /// another process now. Each is claimed by one process only.
    pub async fn claim_pushes(
        &self,
        now: i64,
        since: i64,
        lease_ms: i64,
        limit: i64,
    ) -> Result<Vec<PushJob>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT n.id, n.kind, n.game_id, n.tournament_id, n.by_name, n.text, \
                         n.created_at, n.read_at, n.owner FROM notifications n \
                         WHERE n.pushed_at IS NULL AND n.created_at > $1 \
                         AND (n.push_lease IS NULL OR n.push_lease < $2) \
                         AND EXISTS (SELECT 1 FROM push_subscriptions s \
                                     WHERE s.owner = n.owner AND s.created_at <= n.created_at) \
                         ORDER BY n.created_at LIMIT $3",
                    )
                    .bind(since)
                    .bind(now)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut claimed = Vec::new();
                    for row in &rows {
                        let note = from_row(row)?;
                        let done = sqlx::query(
                            "UPDATE notifications SET push_lease = $1 WHERE id = $2 \
                             AND pushed_at IS NULL AND (push_lease IS NULL OR push_lease < $3)",
                        )
                        .bind(now + lease_ms)
                        .bind(&note.id)
                        .bind(now)
                        .execute(conn.raw())
                        .await?;
                        if done.rows_affected() == 1 {
                            let owner: String = row.try_get("owner")?;
                            claimed.push(PushJob {
                                note,
                                owner: TokenHash::from_stored(owner),
                            });
                        }
                    }
                    Ok(claimed)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Marks notification `id` pushed at `now`.
    pub async fn mark_pushed(&self, id: &str, now: i64) -> Result<(), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    sqlx::query("UPDATE notifications SET pushed_at = $1 WHERE id = $2")
                        .bind(now)
                        .bind(id)
                        .execute(conn.raw())
                        .await?;
                    Ok(())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

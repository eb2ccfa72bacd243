//! What the integration tests of the workspace share, so that each test file keeps only its
//! own checks. A dev-dependency only; nothing here is part of icebound.
//!
//! - [`dirs`]: temporary folders, removed when dropped ([`tempfile`]).
//! - [`net`]: free loopback ports, and waiting for a port to listen.
//! - [`process`]: running a built binary, and children killed on drop.
//! - [`services`]: the PostgreSQL and Redis the CI machine provides (`.ci/setup-*.sh`):
//!   absent means skipped, except under `CI=true`, where it is a failure.
//! - [`redis`]: a `redis-server` of the test's own on a free port.
//! - `store` (feature `store`): a fresh SQLite file or PostgreSQL database per test, the
//!   process-wide hold on the shared PostgreSQL server, a game row, and `both_databases!`.

#![warn(missing_docs)]

pub mod dirs;
pub mod net;
pub mod process;
pub mod redis;
pub mod services;
#[cfg(feature = "store")]
pub mod store;

pub use dirs::temp_dir;
pub use net::{free_addr, free_port};
pub use process::{Binary, Spawned};

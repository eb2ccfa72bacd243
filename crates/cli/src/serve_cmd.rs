//! `icebound serve`: the web site.

use clap::Args;

#[derive(Args)]
pub struct ServeArgs {
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// sqlite://icebound.db (default) or postgres://...
    #[arg(long, default_value = "sqlite://icebound.db?mode=rwc")]
    pub database: String,
}

pub fn serve(_args: ServeArgs) -> Result<(), String> {
    Err("the site is not built yet (issue 5)".into())
}

//! `icebound admin grant-mod USER` / `revoke-mod USER`: the moderator role (issue 41), given
//! by whoever runs the site's database; logged in the mod log as done by `cli`.

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct AdminArgs {
    /// The database, as `serve --database` takes it.
    #[arg(long, global = true, default_value = "sqlite://icebound.db?mode=rwc")]
    pub database: String,
    #[command(subcommand)]
    pub command: AdminCommand,
}

#[derive(Subcommand)]
pub enum AdminCommand {
    /// Give an account the moderator role.
    GrantMod {
        /// The account's name.
        username: String,
    },
    /// Take the moderator role back.
    RevokeMod {
        /// The account's name.
        username: String,
    },
}

pub fn admin(args: AdminArgs) -> Result<(), String> {
    let (username, on) = match &args.command {
        AdminCommand::GrantMod { username } => (username.clone(), true),
        AdminCommand::RevokeMod { username } => (username.clone(), false),
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("tokio runtime: {e}"))?;
    let shown = site_store::redacted_url(&args.database);
    runtime.block_on(async {
        let store = server::Store::open(&args.database)
            .await
            .map_err(|e| format!("database {shown}: {e}"))?;
        let result = site::social::moderation::set_moderator(&store, &username, on).await;
        store.close().await;
        match result {
            Ok(true) => {
                let what = if on {
                    "is now a moderator"
                } else {
                    "is no longer a moderator"
                };
                println!("{username} {what}");
                Ok(())
            }
            Ok(false) => Err(format!("no account is named '{username}' in {shown}")),
            Err(e) => Err(format!("database {shown}: {}", e.message)),
        }
    })
}

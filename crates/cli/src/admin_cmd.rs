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
    // Opening a SQLite URL with mode=rwc creates the file: a mistyped --database would make
    // (and migrate) a new empty database and then find no account in it (issue 41's hostile
    // round). The role is given in an existing database only.
    if let Some(file) = crate::backup_cmd::sqlite_file(&args.database)
        && !file.is_file()
    {
        return Err(format!(
            "no database file at {}: give the --database that `serve` uses",
            file.display()
        ));
    }
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

//! Helpers shared by the CLI test files.

use std::process::Command;

/// Runs the built `icebound` with `args`: (success, stdout, stderr).
pub fn icebound(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_icebound"))
        .args(args)
        .output()
        .expect("run icebound");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

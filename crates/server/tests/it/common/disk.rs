//! Real full disks for the storage fault tests: a small tmpfs mounted for a test (root only),
//! filled with a file of its own.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether the fault tests that need root may be skipped here (not under CI).
pub fn skip(reason: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true runs as root and must run this test: {reason}"
    );
    eprintln!("skipped: {reason}");
}

pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A tmpfs mounted for the test, unmounted when dropped.
pub struct Tmpfs(pub PathBuf);

impl Tmpfs {
    /// A fresh tmpfs of `size` (`mount -o size=`, e.g. `1m`), or why there is none (not root,
    /// or `mount` refused).
    pub fn mount(tag: &str, size: &str) -> Result<Tmpfs, String> {
        if !is_root() {
            return Err(format!("mounting a {size} tmpfs needs root"));
        }
        let dir = super::temp_dir(tag);
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output()
            .expect("mount runs");
        if !mounted.status.success() {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(format!(
                "mount -t tmpfs failed: {}",
                String::from_utf8_lossy(&mounted.stderr).trim()
            ));
        }
        Ok(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Fills the file system of `path` with a file there, then frees `leave` bytes of it.
pub fn fill_disk(path: &Path, leave: u64) {
    use std::io::Write;
    let mut f = std::fs::File::create(path).expect("filler file");
    let chunk = vec![0x55u8; 4096];
    let mut written = 0u64;
    loop {
        match f.write(&chunk) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(_) => break,
        }
    }
    let _ = f.sync_all();
    f.set_len(written.saturating_sub(leave))
        .expect("truncate filler");
}

/// Frees `bytes` more of the filler file `path` of [`fill_disk`].
pub fn free_disk(path: &Path, bytes: u64) {
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("filler file");
    let len = f.metadata().expect("filler size").len();
    f.set_len(len.saturating_sub(bytes))
        .expect("truncate filler");
}

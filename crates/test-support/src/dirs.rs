//! Temporary folders of the tests.

pub use tempfile::TempDir;

/// A fresh, empty folder under the system's temp dir, named `icebound-<tag>-<random>` so that
/// a leftover says which test made it; removed with its contents when dropped (call
/// [`TempDir::keep`] to leave it for a post-mortem).
pub fn temp_dir(tag: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("icebound-{tag}-"))
        .tempdir()
        .expect("create a temporary folder")
}

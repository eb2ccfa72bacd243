//! The page's text and wasm files compressed once, at build time, beside the originals in
//! `dist/`: `<file>.br` (brotli, quality 11, window 2^22) and `<file>.gz` (gzip, level 9).
//! `routes/pages.rs` sends one of them when the request's `Accept-Encoding` allows it.

use std::io::Write;
use std::path::Path;

/// The extensions worth compressing (pictures, sounds and fonts are compressed already or
/// too small to matter).
const EXTENSIONS: [&str; 6] = ["js", "css", "html", "wasm", "json", "webmanifest"];

/// Writes `<file>.br` and `<file>.gz` for every file of `dist/` with one of [`EXTENSIONS`],
/// unless they are already newer than it, and removes the compressed files whose original is
/// gone. Never fails the build: a file that cannot be compressed is a warning, and is then
/// sent as it is.
pub fn write(dist: &Path) {
    let mut files = Vec::new();
    list(dist, &mut files);
    for file in files {
        let name = file.to_string_lossy().into_owned();
        if let Some(original) = name
            .strip_suffix(".br")
            .or_else(|| name.strip_suffix(".gz"))
        {
            if !Path::new(original).exists() {
                let _ = std::fs::remove_file(&file);
            }
            continue;
        }
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        if !EXTENSIONS.contains(&ext) {
            continue;
        }
        if let Err(e) = compress(&file) {
            println!("cargo:warning={name} was not compressed: {e}");
        }
    }
}

/// Writes `file`'s `.br` and `.gz` when they are missing or older than it.
fn compress(file: &Path) -> std::io::Result<()> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let source_at = modified(file);
    let stale = |p: &Path| match (modified(p), source_at) {
        (Some(c), Some(s)) => c < s,
        _ => true,
    };
    let br = file.with_file_name(format!("{}.br", file_name(file)));
    let gz = file.with_file_name(format!("{}.gz", file_name(file)));
    if !stale(&br) && !stale(&gz) {
        return Ok(());
    }
    let bytes = std::fs::read(file)?;
    let mut out = Vec::with_capacity(bytes.len() / 3);
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 64 * 1024, 11, 22);
        w.write_all(&bytes)?;
    }
    std::fs::write(&br, &out)?;
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    w.write_all(&bytes)?;
    std::fs::write(&gz, w.finish()?)
}

fn file_name(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Every file under `dir`.
fn list(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            list(&path, out);
        } else {
            out.push(path);
        }
    }
}

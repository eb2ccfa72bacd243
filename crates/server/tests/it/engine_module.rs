//! The engine for the browser (issue 42): when the wasm build ran (`scripts/build-wasm.sh`;
//! CI runs it), the page serves the module under its content hash as `application/wasm`,
//! cached for a year, and `manifest.json` names it. Without the build the site still serves,
//! and says why the module is missing.

use std::path::Path;

use crate::common::*;

#[tokio::test]
async fn the_built_engine_module_is_served_as_wasm_under_its_hash() {
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist/engine/manifest.json");
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let srv = TestServer::start(&sqlite_url("engine-module")).await;
    let mut c = srv.client();
    let manifest = c.get("/engine/manifest.json").await.expect("get");
    if !built.exists() {
        assert!(
            !ci,
            "CI builds the wasm module (.ci/setup-wasm.sh), yet web/dist/engine is empty"
        );
        eprintln!("skipped: the site was built without the wasm module (scripts/build-wasm.sh)");
        assert_eq!(manifest.status, 404, "{}", manifest.text);
        assert!(
            manifest.text.contains("wasm toolchain"),
            "{}",
            manifest.text
        );
        srv.stop().await;
        return;
    }
    assert_eq!(manifest.status, 200, "{}", manifest.text);
    assert_eq!(manifest.headers["cache-control"], "no-cache");
    let name = manifest.body["wasm"]
        .as_str()
        .expect("manifest names the module")
        .to_string();
    assert!(
        name.starts_with("/engine/icebound_engine-") && name.ends_with(".wasm"),
        "{name}"
    );
    let module = c.get(&name).await.expect("get");
    assert_eq!(module.status, 200);
    assert_eq!(module.headers["content-type"], "application/wasm");
    assert_eq!(
        module.headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    // The WebAssembly magic number, "\0asm".
    assert!(module.text.starts_with("\0asm"), "not a wasm module");
    srv.stop().await;
}

//! The workspace's dependency arrows point one way (docs/architecture.md): every crate's
//! normal dependencies on other workspace crates are on lower layers, and the crates that
//! must stay free of I/O or HTTP name none of the libraries that bring them. Read from
//! `cargo metadata`, so a new dependency that points up fails here, naming it.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

/// Each workspace crate's layer, lowest first. A crate may depend (normally) only on crates
/// of a lower layer; a new crate must be given its place here.
const LAYERS: &[(&str, u8)] = &[
    ("game", 0),
    ("antarctos", 1),
    ("iceage", 1),
    ("games", 2),
    ("engine", 2),
    ("engine-wasm", 3),
    ("lab", 3),
    ("puzzles", 3),
    ("tournament", 3),
    ("site-model", 4),
    ("site-store", 5),
    ("site", 6),
    ("site-http", 7),
    ("server", 8),
    ("icebound", 9),
    ("fuzz", 9),
    ("test-support", 10),
];

/// Libraries a crate must not depend on (normally), and why.
const FORBIDDEN: &[(&str, &[&str], &str)] = &[
    (
        "game",
        &["tokio", "sqlx", "axum", "hyper", "redis", "engine"],
        "the rules are pure",
    ),
    (
        "antarctos",
        &["tokio", "sqlx", "axum", "hyper", "redis", "engine", "rand"],
        "the rules are pure",
    ),
    (
        "iceage",
        &["tokio", "sqlx", "axum", "hyper", "redis", "engine", "rand"],
        "the rules are pure",
    ),
    (
        "engine",
        &["tokio", "sqlx", "axum", "hyper", "redis", "tower"],
        "the engine knows no HTTP or storage",
    ),
    (
        "puzzles",
        &["tokio", "sqlx", "axum", "hyper", "redis", "tower"],
        "puzzles are proven by the solver, with no I/O",
    ),
    (
        "tournament",
        &["tokio", "sqlx", "axum", "hyper", "redis", "tower"],
        "the tournaments' core is pure: plain types and functions, no I/O",
    ),
    (
        "site-model",
        &["axum", "sqlx", "tokio", "hyper", "redis", "tower"],
        "the site's model does no I/O",
    ),
    (
        "site-store",
        &["axum", "hyper", "redis", "tower"],
        "storage knows no HTTP",
    ),
    (
        "site",
        &["axum", "hyper", "redis", "tower", "sqlx"],
        "the domain knows no HTTP and no SQL",
    ),
    (
        "site-http",
        &["redis", "sqlx"],
        "only the server wires Redis",
    ),
    (
        "site-http",
        &["site-store"],
        "the HTTP edge reaches storage only through site's services",
    ),
];

/// The workspace's packages: name -> its dependencies as (name, kind), kind `normal`, `dev`
/// or `build`.
fn workspace() -> Packages {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let mut packages = BTreeMap::new();
    for p in meta["packages"].as_array().expect("packages") {
        let deps = p["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .map(|d| {
                let kind = d["kind"].as_str().unwrap_or("normal").to_string();
                (d["name"].as_str().expect("name").to_string(), kind)
            })
            .collect();
        packages.insert(p["name"].as_str().expect("name").to_string(), deps);
    }
    packages
}

fn layer(name: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

type Packages = BTreeMap<String, Vec<(String, String)>>;

/// Arrows that point up or sideways, crates without a layer, test-support outside dev.
fn layer_faults(packages: &Packages) -> Vec<String> {
    let mut faults = Vec::new();
    for (name, deps) in packages {
        let Some(own) = layer(name) else {
            faults.push(format!(
                "crate {name} has no layer: add it to LAYERS and docs/architecture.md"
            ));
            continue;
        };
        for (dep, kind) in deps {
            if !packages.contains_key(dep) {
                continue;
            }
            let theirs = layer(dep).unwrap_or(u8::MAX);
            if dep == "test-support" && kind != "dev" {
                faults.push(format!(
                    "{name} depends on test-support as a {kind} dependency"
                ));
            }
            if kind == "normal" && theirs >= own {
                faults.push(format!(
                    "{name} (layer {own}) depends on {dep} (layer {theirs}): the arrow points up \
                     or sideways"
                ));
            }
        }
    }
    faults
}

/// Normal dependencies on a library a crate must not use.
fn library_faults(packages: &Packages) -> Vec<String> {
    let mut faults = Vec::new();
    for (name, forbidden, why) in FORBIDDEN {
        let Some(deps) = packages.get(*name) else {
            faults.push(format!("crate {name} is missing from the workspace"));
            continue;
        };
        for (dep, kind) in deps {
            if kind == "normal" && forbidden.contains(&dep.as_str()) {
                faults.push(format!("{name} depends on {dep}: {why}"));
            }
        }
    }
    for (name, deps) in packages {
        if name != "server" && deps.iter().any(|(d, k)| d == "redis" && k == "normal") {
            faults.push(format!("{name} depends on redis: only server may"));
        }
    }
    faults
}

#[test]
fn every_workspace_crate_depends_only_on_lower_layers() {
    let packages = workspace();
    assert!(packages.len() >= 12, "cargo metadata listed {packages:?}");
    let faults = layer_faults(&packages);
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn pure_and_http_free_crates_name_no_forbidden_library() {
    let faults = library_faults(&workspace());
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn an_arrow_that_points_up_or_a_forbidden_library_is_named() {
    let mut packages = workspace();
    let dep = |n: &str| (n.to_string(), "normal".to_string());
    packages
        .get_mut("site-model")
        .expect("site-model")
        .push(dep("site-http"));
    packages.get_mut("site").expect("site").push(dep("axum"));
    packages.get_mut("lab").expect("lab").push(dep("redis"));
    packages
        .get_mut("site-http")
        .expect("site-http")
        .push(dep("site-store"));
    packages.insert("newcomer".into(), vec![]);
    let layers = layer_faults(&packages);
    assert!(
        layers
            .iter()
            .any(|f| f.starts_with("site-model (layer 4) depends on site-http (layer 7)")),
        "{layers:?}"
    );
    assert!(
        layers
            .iter()
            .any(|f| f.contains("crate newcomer has no layer")),
        "{layers:?}"
    );
    let libraries = library_faults(&packages);
    assert!(
        libraries
            .contains(&"site depends on axum: the domain knows no HTTP and no SQL".to_string()),
        "{libraries:?}"
    );
    assert!(
        libraries.contains(&"lab depends on redis: only server may".to_string()),
        "{libraries:?}"
    );
    assert!(
        libraries.contains(
            &"site-http depends on site-store: the HTTP edge reaches storage only through \
              site's services"
                .to_string()
        ),
        "{libraries:?}"
    );
}

//! Issue 37: inside `site`, no top-level module imports one that imports it back, directly or
//! through others. A lower module that must call a higher one does it through a port (a trait
//! the higher one implements, like `play::Announcer`), so the module graph stays a ladder and
//! each module can be read, tested and moved without the ones above it.
//!
//! The graph is read from the sources: every `crate::X` path (and `use crate::{X, ..}` group)
//! outside comments, string literals and `#[cfg(test)]` items. `SITE_MODULES_SRC` points the
//! test at another copy of `src` (to check that it fails on code with a cycle).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// Code of `text` without comments and string or char literals (each replaced by a space).
fn strip_comments(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&b, i) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < b.len() {
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push(' ');
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' && next == Some('\\') {
            // An escaped char literal: '\n', '\'', '\u{..}'.
            i += 2;
            while i < b.len() && b[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push(' ');
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// `code` without the items marked `#[cfg(test)]` (a module's braces, or an item to its `;`).
fn strip_cfg_test(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let brace = after.find('{');
        let semi = after.find(';');
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => s + 1,
            (Some(b), _) => {
                let mut depth = 0;
                let mut end = after.len();
                for (k, ch) in after[b..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level modules of the crate that `code` names through `crate::`.
fn crate_refs(code: &str) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let preceded = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        rest = &rest[at + "crate::".len()..];
        if preceded {
            continue;
        }
        let tail = rest.trim_start();
        if let Some(group) = tail.strip_prefix('{') {
            // `use crate::{a, b::c, d::{e, f}}`: the first segment of each path at depth one.
            let mut depth = 1;
            let mut expect = true;
            let mut k = 0;
            let chars: Vec<(usize, char)> = group.char_indices().collect();
            while k < chars.len() && depth > 0 {
                let (pos, ch) = chars[k];
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => expect = true,
                    c if c.is_whitespace() => {}
                    _ => {
                        if expect && depth == 1 {
                            let id = ident_at(&group[pos..]);
                            if !id.is_empty() {
                                refs.insert(id.to_string());
                            }
                        }
                        expect = false;
                    }
                }
                k += 1;
            }
        } else {
            let id = ident_at(tail);
            if !id.is_empty() {
                refs.insert(id.to_string());
            }
        }
    }
    refs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the sources") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The import graph of the top-level modules under `src`: module -> modules it names.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a path");
        let name = first.as_os_str().to_string_lossy();
        let module = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read a source file");
        let code = strip_cfg_test(&strip_comments(&text));
        let refs = crate_refs(&code);
        let edges = graph.entry(module.clone()).or_default();
        edges.extend(refs.into_iter().filter(|r| *r != module));
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for edges in graph.values_mut() {
        edges.retain(|e| modules.contains(e));
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in &s.graph[v] {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().expect("on the stack");
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// A shortest cycle through `start` inside `component`: `start -> .. -> start`.
fn cycle_through(
    graph: &BTreeMap<String, BTreeSet<String>>,
    component: &[String],
    start: &str,
) -> Vec<String> {
    let inside: BTreeSet<&str> = component.iter().map(String::as_str).collect();
    let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in &graph[v] {
            let w = w.as_str();
            if w == start {
                // Back from `v` to `start` through the parents, then read forwards.
                let mut path = vec![start.to_string()];
                let mut at = v;
                while at != start {
                    path.push(at.to_string());
                    at = parent[at];
                }
                path.push(start.to_string());
                path.reverse();
                return path;
            }
            if inside.contains(w) && !parent.contains_key(w) {
                parent.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    vec![start.to_string()]
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let src = std::env::var_os("SITE_MODULES_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let graph = module_graph(&src);
    assert!(graph.contains_key("play"), "no module `play` under {src:?}");
    let found = cycles(&graph);
    if found.is_empty() {
        return;
    }
    let mut report = String::new();
    for component in &found {
        let cycle = cycle_through(&graph, component, &component[0]);
        report.push_str(&format!(
            "\n  modules {{{}}} import each other, e.g. {}",
            component.join(", "),
            cycle.join(" -> ")
        ));
    }
    report.push_str("\n  edges:");
    for (module, edges) in &graph {
        if found.iter().any(|c| c.contains(module)) {
            let edges: Vec<&str> = edges.iter().map(String::as_str).collect();
            report.push_str(&format!("\n    {module} -> {}", edges.join(", ")));
        }
    }
    panic!("import cycles between the modules of `site` (issue 37):{report}");
}

#[test]
fn the_reader_sees_imports_and_skips_comments_and_tests() {
    let code = "use crate::{a::X, b, c::{d, e}};\n// crate::f\nlet s = \"crate::g\";\n\
                fn h() { crate::i::j(); }\n#[cfg(test)]\nmod tests { use crate::k; }\n";
    let refs = crate_refs(&strip_cfg_test(&strip_comments(code)));
    let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
    assert_eq!(refs, ["a", "b", "c", "i"]);
}

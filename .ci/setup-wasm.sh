# Sourced by .ci/run, as root on a fresh Debian machine: installs what the engine's WebAssembly
# build needs if missing (Debian's Rust 1.96 with the standard library's source, and LLVM's
# wasm linker; rustup's toolchain has no wasm32 standard library), then builds the module with
# scripts/build-wasm.sh into web/wasm/icebound_engine.wasm, which the server's build bundles and
# crates/engine-wasm/tests/node.rs tests under Node.js (that test fails under CI=true without
# the module). rustup's cargo stays first on PATH: the build calls /usr/bin/cargo by its path.
# Safe under `set -euo pipefail` and when run twice.

icebound_wasm_setup() {
    if [ ! -x /usr/bin/cargo ] || [ ! -x /usr/bin/rustc ] || [ ! -x /usr/lib/llvm-19/bin/wasm-ld ] \
        || [ ! -d /usr/lib/rustlib/src/rust/library ]; then
        echo "installing the wasm toolchain (Debian packages rustc-web cargo-web rust-web-src lld-19)"
        if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
            rustc-web cargo-web rust-web-src lld-19 brotli >/dev/null
    fi
    echo "wasm toolchain: $(/usr/bin/rustc --version); cargo on PATH: $(command -v cargo)"
    ./scripts/build-wasm.sh
}
icebound_wasm_setup

#!/usr/bin/env bash
# Builds the engine's WebAssembly module (crates/engine-wasm) and copies it to
# web/wasm/icebound_engine.wasm (not in git; crates/site-http/build.rs bundles it into the page),
# then prints its size raw and brotli-compressed (the budget: 1.5 MB brotli, issue 42).
#
# Needs Debian's Rust with the standard library's source (rustup's toolchain here has no
# wasm32 standard library) and LLVM's wasm linker:
#   apt-get install -y rustc-web cargo-web rust-web-src lld-19
# The build uses /usr/bin/cargo and /usr/bin/rustc (Rust 1.96) explicitly, so that rustup's
# cargo stays first on PATH for everything else, and its own target directory (target/wasm),
# so that it never invalidates the native build.
#
# Environment: ICEBOUND_WASM_CARGO, ICEBOUND_WASM_RUSTC, ICEBOUND_WASM_LINKER override the
# three tools' paths. Exit status 2 when a tool is missing (the message says what to install).
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_BIN=${ICEBOUND_WASM_CARGO:-/usr/bin/cargo}
RUSTC_BIN=${ICEBOUND_WASM_RUSTC:-/usr/bin/rustc}
LINKER=${ICEBOUND_WASM_LINKER:-/usr/lib/llvm-19/bin/wasm-ld}
TARGET=wasm32-unknown-unknown
TARGET_DIR=target/wasm
OUT=web/wasm/icebound_engine.wasm

missing=()
[ -x "$CARGO_BIN" ] || missing+=("$CARGO_BIN (Debian package cargo-web)")
[ -x "$RUSTC_BIN" ] || missing+=("$RUSTC_BIN (Debian package rustc-web)")
[ -x "$LINKER" ] || missing+=("$LINKER (Debian package lld-19)")
if [ -x "$RUSTC_BIN" ] && [ ! -d "$("$RUSTC_BIN" --print sysroot)/lib/rustlib/src/rust/library" ]; then
    missing+=("the standard library's source (Debian package rust-web-src)")
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "build-wasm: the wasm toolchain is missing:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "install it with: apt-get install -y rustc-web cargo-web rust-web-src lld-19" >&2
    exit 2
fi

echo "== building crates/engine-wasm for $TARGET with $("$RUSTC_BIN" --version)"
# RUSTC_BOOTSTRAP=1: -Zbuild-std (the standard library built from source, with
# panic=abort) is unstable; Debian's compiler is a stable one.
# The rustflags replace the repository's x86-only ones (.cargo/config.toml) for this build.
RUSTC="$RUSTC_BIN" RUSTC_BOOTSTRAP=1 \
RUSTFLAGS="-C linker=$LINKER" \
CARGO_TARGET_DIR="$TARGET_DIR" \
"$CARGO_BIN" build --release --locked -p engine-wasm --lib \
    -Zbuild-std=std,panic_abort --target "$TARGET" \
    --config 'profile.release.panic="abort"' \
    --config 'profile.release.lto=true' \
    --config 'profile.release.codegen-units=1' \
    --config 'profile.release.opt-level=3'

mkdir -p "$(dirname "$OUT")"
cp "$TARGET_DIR/$TARGET/release/engine_wasm.wasm" "$OUT"

raw=$(stat -c %s "$OUT")
if command -v brotli >/dev/null 2>&1; then
    compressed=$(brotli -c -q 11 "$OUT" | wc -c)
else
    compressed=$(node -e 'const z=require("zlib");const b=require("fs").readFileSync(process.argv[1]);process.stdout.write(String(z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length))' "$OUT")
fi
echo "== $OUT: $raw bytes raw, $compressed bytes brotli (quality 11)"
limit=1500000
if [ "$compressed" -gt "$limit" ]; then
    echo "build-wasm: the module is over the 1.5 MB (1,500,000 bytes) brotli budget (issue 42)" >&2
    exit 1
fi

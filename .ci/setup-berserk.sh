# Sourced by .ci/run: berserk, lichess's own Python client (PyPI), in a venv, for the Bot API's
# test with a client others wrote (crates/server/tests/it/bot_berserk.rs; skipped without it).
BERSERK_VENV="${ICEBOUND_BERSERK_VENV:-$PWD/target/venv-berserk}"
if [ ! -x "$BERSERK_VENV/bin/python" ]; then
  python3 -m venv "$BERSERK_VENV"
fi
"$BERSERK_VENV/bin/pip" install -q --disable-pip-version-check "berserk==0.14.0"
export ICEBOUND_TEST_BERSERK_PYTHON="$BERSERK_VENV/bin/python"
echo "berserk for the Bot API's client test: $("$ICEBOUND_TEST_BERSERK_PYTHON" -c 'import importlib.metadata as m; print(m.version("berserk"))')"

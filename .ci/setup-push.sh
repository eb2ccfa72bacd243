# Sourced by .ci/run, as root on a fresh Debian machine: an independent Web Push receiver for
# the tests (issue 38). Python's http_ece (from PyPI, on Debian's python3-cryptography) decrypts
# what the site pushes (RFC 8291), and the same script checks its VAPID signature (RFC 8292).
# Exports ICEBOUND_TEST_PUSH_PYTHON, the venv's python; the push tests fail, not skip, under
# CI=true without it. Safe under `set -euo pipefail` and when run twice.

icebound_push_setup() {
    local venv=/opt/icebound-push-venv
    if ! python3 -c 'import cryptography, venv' >/dev/null 2>&1 || ! python3 -m ensurepip --version >/dev/null 2>&1; then
        echo "installing python3-cryptography and python3-venv (Debian)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-cryptography python3-venv >/dev/null
    fi
    if ! "$venv/bin/python" -c 'import http_ece' >/dev/null 2>&1; then
        echo "installing http-ece (PyPI) into $venv"
        python3 -m venv --system-site-packages "$venv"
        "$venv/bin/pip" install -q --no-deps 'http-ece==1.2.1'
    fi
    ICEBOUND_TEST_PUSH_PYTHON="$venv/bin/python"
    export ICEBOUND_TEST_PUSH_PYTHON
    echo "Web Push receiver for the tests: $ICEBOUND_TEST_PUSH_PYTHON (http_ece $("$ICEBOUND_TEST_PUSH_PYTHON" -c 'import importlib.metadata as m; print(m.version("http-ece"))'))"
}
icebound_push_setup

# Sourced by .ci/run, as root on a fresh Debian machine: installs Debian's redis-server if
# missing (the cross-process tests start their own redis-server on a free port, and fail, not
# skip, under CI=true without it) and exports ICEBOUND_TEST_REDIS_SERVER, its path. Safe under
# `set -euo pipefail` and when run twice.

icebound_redis_setup() {
    if ! command -v redis-server >/dev/null 2>&1; then
        echo "installing Redis (Debian package redis-server)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    fi
    ICEBOUND_TEST_REDIS_SERVER=$(command -v redis-server)
    export ICEBOUND_TEST_REDIS_SERVER
    echo "Redis for the tests: $ICEBOUND_TEST_REDIS_SERVER ($("$ICEBOUND_TEST_REDIS_SERVER" --version | cut -d' ' -f3))"
}
icebound_redis_setup

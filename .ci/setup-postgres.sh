# Sourced by .ci/run (owned by the server work), as root on a fresh Debian machine: installs
# Debian's PostgreSQL if missing, starts a cluster, creates the test database and exports
# ICEBOUND_TEST_POSTGRES_URL for the server's storage tests (and ICEBOUND_TEST_POSTGRES_RESTART,
# the command that restarts the cluster, for the restart fault test) and the backup test (which fail,
# not skip, under CI=true when it is missing; pg_dump, pg_restore and psql come with the
# package). Safe under `set -euo pipefail` and when run twice.

icebound_pg_setup() {
    if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || ! command -v pg_lsclusters >/dev/null 2>&1; then
        echo "installing PostgreSQL (Debian package postgresql)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    local version clusters status port
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    clusters=$(pg_lsclusters -h)
    status=$(awk -v v="$version" '$1==v && $2=="main" {print $4}' <<<"$clusters")
    if [ -z "$status" ]; then
        pg_createcluster "$version" main >/dev/null
        clusters=$(pg_lsclusters -h)
        status=$(awk -v v="$version" '$1==v && $2=="main" {print $4}' <<<"$clusters")
    fi
    if [ "$status" != "online" ]; then
        pg_ctlcluster "$version" main start
    fi
    port=$(awk -v v="$version" '$1==v && $2=="main" {print $3}' <<<"$clusters")
    # A role with a password: Debian's pg_hba.conf allows password logins over TCP on loopback.
    su postgres -c "psql -q -p $port -v ON_ERROR_STOP=1" <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'icebound') THEN
    CREATE ROLE icebound LOGIN PASSWORD 'icebound';
  END IF;
END \$\$;
-- The backup test restores a pg_dump into a database of its own (crates/cli/tests/it/backup_cli.rs).
ALTER ROLE icebound CREATEDB;
-- ... and drops it WITH (FORCE), which must also end an autovacuum worker the restore started.
GRANT pg_signal_backend TO icebound;
SQL
    local exists
    exists=$(su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = 'icebound_test'\"")
    if [ "$exists" != "1" ]; then
        su postgres -c "createdb -p $port -O icebound icebound_test"
    fi
    export ICEBOUND_TEST_POSTGRES_URL="postgres://icebound:icebound@127.0.0.1:$port/icebound_test"
    # The storage fault test restarts the server mid-game (crates/server/tests/it/storage_faults.rs).
    export ICEBOUND_TEST_POSTGRES_RESTART="pg_ctlcluster $version main restart -m fast"
    # The clocks' outage test stops it for a while (storage_faults.rs).
    export ICEBOUND_TEST_POSTGRES_STOP="pg_ctlcluster $version main stop -m fast"
    export ICEBOUND_TEST_POSTGRES_START="pg_ctlcluster $version main start"
    echo "PostgreSQL $version on port $port: ICEBOUND_TEST_POSTGRES_URL=$ICEBOUND_TEST_POSTGRES_URL"
}
icebound_pg_setup

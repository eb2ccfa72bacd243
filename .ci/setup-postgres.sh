# Sourced by .ci/run (owned by the server work), as root on a fresh Debian machine: installs
# Debian's PostgreSQL if missing, starts a cluster, creates the test database and exports
# ICEBOUND_TEST_POSTGRES_URL for the server's storage tests (which fail, not skip, under CI=true
# when it is missing).

icebound_pg_setup() {
    if ! command -v pg_lsclusters >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
        echo "installing PostgreSQL (Debian package postgresql)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    local version
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$version main$"; then
        pg_createcluster "$version" main >/dev/null
    fi
    if ! pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $4}' | grep -q online; then
        pg_ctlcluster "$version" main start
    fi
    local port
    port=$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $3}')
    # Password authentication over TCP on loopback (Debian's pg_hba.conf allows md5/scram there).
    su postgres -c "psql -q -p $port -v ON_ERROR_STOP=1" <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'icebound') THEN
    CREATE ROLE icebound LOGIN PASSWORD 'icebound';
  END IF;
END \$\$;
SQL
    if ! su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = 'icebound_test'\"" | grep -q 1; then
        su postgres -c "createdb -p $port -O icebound icebound_test"
    fi
    export ICEBOUND_TEST_POSTGRES_URL="postgres://icebound:icebound@127.0.0.1:$port/icebound_test"
    echo "PostgreSQL $version on port $port: ICEBOUND_TEST_POSTGRES_URL=$ICEBOUND_TEST_POSTGRES_URL"
}
icebound_pg_setup

# Sourced by .ci/run (owned by the server work): installs and starts PostgreSQL for the storage
# tests and exports ICEBOUND_TEST_POSTGRES_URL. Nothing yet.
true

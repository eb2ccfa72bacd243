# Sourced by .ci/run (owned by the web work): installs Node packages and Debian's chromium for
# the page build and the browser test. Nothing yet.
true

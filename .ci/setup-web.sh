# Sourced by .ci/run: what the page build and the browser test need.
# - Debian's chromium (the browser test drives /usr/bin/chromium with playwright-core; no browser
#   is ever downloaded by npm);
# - the page's npm packages (web/package-lock.json), so crates/site-http/build.rs can build web/dist.
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium for the browser test"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
fi
/usr/bin/chromium --version
if ! command -v npm >/dev/null 2>&1; then
  echo "npm is missing: install Node.js and npm (e.g. apt-get install nodejs npm)" >&2
  return 1 2>/dev/null || exit 1
fi
node --version
(cd web && npm ci --no-audit --no-fund)

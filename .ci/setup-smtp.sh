# Sourced by .ci/run, as root on a fresh Debian machine: installs Debian's OpenSMTPD if missing
# and starts one on 127.0.0.1:2526 that takes mail for any address and delivers it to one
# maildir (a system user `icebound-mail` owns it); exports ICEBOUND_TEST_SMTP (host:port) and
# ICEBOUND_TEST_MAILDIR for the mail tests (crates/server/tests/it/email.rs), which fail, not
# skip, under CI=true without them. Safe under `set -euo pipefail` and when run twice.

icebound_smtp_setup() {
    local port=2526 dir=/tmp/icebound-smtpd home=/var/lib/icebound-mail
    if ! command -v smtpd >/dev/null 2>&1; then
        echo "installing OpenSMTPD (Debian package opensmtpd)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq opensmtpd >/dev/null
        # The package starts a server on port 25 where it can; the tests use their own.
    fi
    if ! id icebound-mail >/dev/null 2>&1; then
        useradd -r -m -d "$home" -s /usr/sbin/nologin icebound-mail
    fi
    mkdir -p "$dir"
    echo "@ icebound-mail" > "$dir/aliases"
    cat > "$dir/smtpd.conf" <<CONF
table catchall file:$dir/aliases
listen on 127.0.0.1 port $port
action "keep" maildir "$home/Maildir" virtual <catchall>
match from any for any action "keep"
CONF
    chmod 644 "$dir/aliases" "$dir/smtpd.conf"
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        smtpd -f "$dir/smtpd.conf" >"$dir/log" 2>&1 || { cat "$dir/log"; return 1; }
        for _ in $(seq 1 50); do
            (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
            sleep 0.1
        done
    fi
    ICEBOUND_TEST_SMTP="127.0.0.1:$port"
    ICEBOUND_TEST_MAILDIR="$home/Maildir"
    export ICEBOUND_TEST_SMTP ICEBOUND_TEST_MAILDIR
    echo "SMTP for the tests: OpenSMTPD $(smtpd -h 2>&1 | head -1 | tr -d '\n' || true) on $ICEBOUND_TEST_SMTP, maildir $ICEBOUND_TEST_MAILDIR"
}
icebound_smtp_setup

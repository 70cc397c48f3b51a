#!/usr/bin/env bash
# A throwaway PostgreSQL for the store tests.
#
#   eval "$(scripts/postgres.sh start)"   # installs if missing, starts, prints export lines
#   swift test                            # LifeSignalStoreTests also run against PostgreSQL
#   scripts/postgres.sh stop              # stops the one started and deletes its data
#   scripts/postgres.sh pause             # stops the server, keeping its data (an outage)
#   scripts/postgres.sh resume            # starts it again on the same port and data
#
# The URL gives connections 10 s to open (the server default is 2 s): a test run loads the
# machine far more than production does.
# `start` is idempotent: when the server it started is still running it prints the same
# lines again. The server listens on 127.0.0.1 only, on a free port, with a role
# `lifesignal` (password `lifesignal`, CREATEDB, so tests can make a database each) and a
# database `lifesignal`. State lives in $LIFESIGNAL_PG_STATE (default /tmp/lifesignal-postgres.state).
# initdb refuses to run as root, so the cluster is owned by the `postgres` system user.
set -euo pipefail

STATE=${LIFESIGNAL_PG_STATE:-/tmp/lifesignal-postgres.state}
ROLE=lifesignal
PASSWORD=lifesignal
DATABASE=lifesignal

as_postgres() {
    if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

print_env() {
    echo "export LIFESIGNAL_TEST_POSTGRES_URL='postgres://$ROLE:$PASSWORD@127.0.0.1:$PGPORT/$DATABASE?sslmode=disable&connect_timeout=10'"
}

port_free() { ! ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

install_postgres() {
    if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
        [ "$(id -u)" = 0 ] || { echo "postgres.sh: PostgreSQL is not installed and I am not root" >&2; exit 1; }
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    fi
    command -v ss >/dev/null || { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null; }
}

# Starts the cluster in $PGDATA on $PGPORT. Tests make many short-lived databases and pools:
# allow enough connections, and skip fsync.
launch() {
    as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w -t 30 \
        -o "-p $PGPORT -k $PGDATA -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null \
        || { cat "$PGDATA/server.log" >&2; exit 1; }
}

running() {
    [ -f "$STATE" ] || return 1
    # shellcheck disable=SC1090
    . "$STATE"
    [ -n "${PGDATA:-}" ] && [ -d "$PGDATA" ] && as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1
}

start() {
    if running; then print_env; return; fi
    rm -f "$STATE"
    install_postgres
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    PGPORT=${LIFESIGNAL_PG_PORT:-54329}
    while ! port_free "$PGPORT"; do PGPORT=$((PGPORT + 1)); done
    PGDATA=$(mktemp -d /tmp/lifesignal-pgdata.XXXXXX)
    chown postgres:postgres "$PGDATA"
    chmod 700 "$PGDATA"
    as_postgres "$PGBIN/initdb" -D "$PGDATA" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        -E UTF8 --locale=C.UTF-8 >"$PGDATA.initdb.log" 2>&1 \
        || { cat "$PGDATA.initdb.log" >&2; exit 1; }
    launch
    cat >"$STATE" <<EOF
PGBIN=$PGBIN
PGDATA=$PGDATA
PGPORT=$PGPORT
EOF
    as_postgres "$PGBIN/psql" -h "$PGDATA" -p "$PGPORT" -U postgres -d postgres -qAt -v ON_ERROR_STOP=1 >/dev/null <<EOF
CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
CREATE DATABASE $DATABASE OWNER $ROLE;
EOF
    print_env
}

stop() {
    if [ -f "$STATE" ]; then
        # shellcheck disable=SC1090
        . "$STATE"
        if [ -n "${PGDATA:-}" ] && [ -d "$PGDATA" ]; then
            as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null 2>&1 || true
            rm -rf "$PGDATA" "$PGDATA.initdb.log"
        fi
        rm -f "$STATE"
    fi
}

# An outage for the tests that need a real one: `pause` stops the server at once (open
# connections are cut, as when the database host goes away) and keeps its data; `resume`
# starts it again with the same settings.
pause() {
    running || { echo "postgres.sh: no server of $STATE is running" >&2; exit 1; }
    as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
}

resume() {
    [ -f "$STATE" ] || { echo "postgres.sh: nothing was started with $STATE" >&2; exit 1; }
    # shellcheck disable=SC1090
    . "$STATE"
    launch
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    pause) pause ;;
    resume) resume ;;
    *) echo "usage: $0 start|stop|pause|resume" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Installs (if missing) and starts PostgreSQL and MariaDB on loopback for the tests, creates the
# database `test` on both, and prints the SQLAGENT_* variables the tests read. Idempotent: servers that
# already answer are left alone. Needs root for installing and starting; Debian 12 package names.
set -euo pipefail

PG_HOST=127.0.0.1 PG_PORT=5432 PG_USER=postgres
MARIADB_HOST=127.0.0.1 MARIADB_PORT=3306 MARIADB_USER=root

log() { echo "[start-servers] $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

pg_answers() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" 2>/dev/null; }
pg_admin() { psql -q -X -v ON_ERROR_STOP=1 -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" "$@"; }
# a login over TCP, not just a ping: mariadb-admin ping succeeds even when the login is refused
mariadb_answers() {
  mariadb --protocol=TCP -h "$MARIADB_HOST" -P "$MARIADB_PORT" -u "$MARIADB_USER" -e 'SELECT 1' >/dev/null 2>&1
}

install_missing() {
  local want=()
  command -v pg_ctlcluster >/dev/null 2>&1 || want+=(postgresql)
  [ -x /usr/sbin/mariadbd ] || want+=(mariadb-server)
  command -v mariadb >/dev/null 2>&1 || want+=(mariadb-client)
  command -v mvn >/dev/null 2>&1 || want+=(maven)
  command -v javac >/dev/null 2>&1 || want+=(openjdk-17-jdk-headless)
  if [ ${#want[@]} -gt 0 ]; then
    log "installing ${want[*]}"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -q
    as_root apt-get install -y -q "${want[@]}" </dev/null
  fi
}

pg_login_works() { pg_admin -d postgres -tAc 'SELECT 1' >/dev/null 2>&1; }

start_postgres() {
  if pg_answers && pg_login_works; then log "PostgreSQL answers on $PG_HOST:$PG_PORT"; return; fi
  local version
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n1 || true)
  if [ -z "$version" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n1)
    log "creating PostgreSQL $version cluster main"
    as_root pg_createcluster "$version" main
  fi
  if [ ! -d "/etc/postgresql/$version/main" ]; then
    as_root pg_createcluster "$version" main
  fi
  local conf="/etc/postgresql/$version/main"
  # loopback only, trust for local test users (this is a throwaway CI/dev server); a server whose login
  # already works is never reconfigured
  if ! grep -q 'sqlagent-tests' "$conf/pg_hba.conf"; then
    as_root sh -c "cp '$conf/pg_hba.conf' '$conf/pg_hba.conf.orig' && {
      echo '# sqlagent-tests: trust on loopback'
      echo 'local all all trust'
      echo 'host all all 127.0.0.1/32 trust'
      echo 'host all all ::1/128 trust'
      cat '$conf/pg_hba.conf.orig'; } > '$conf/pg_hba.conf'"
  fi
  as_root sed -i "s/^#\?listen_addresses.*/listen_addresses = 'localhost'/" "$conf/postgresql.conf"
  # the package picks the next free port when 5432 is taken at install time; the tests expect $PG_PORT
  as_root sed -i "s/^#\?port *=.*/port = $PG_PORT/" "$conf/postgresql.conf"
  if pg_answers; then
    log "reloading PostgreSQL $version for the new pg_hba.conf"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload || as_root pg_ctlcluster "$version" main reload
  elif as_root pg_ctlcluster "$version" main status >/dev/null 2>&1; then
    log "restarting PostgreSQL $version on port $PG_PORT"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main restart || as_root pg_ctlcluster "$version" main restart
  else
    log "starting PostgreSQL $version"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || as_root pg_ctlcluster "$version" main start
  fi
}

start_mariadb() {
  if mariadb_answers; then log "MariaDB answers on $MARIADB_HOST:$MARIADB_PORT"; return; fi
  if [ ! -d /var/lib/mysql/mysql ]; then
    log "initialising the MariaDB data directory"
    as_root mariadb-install-db --user=mysql --datadir=/var/lib/mysql >/dev/null
  fi
  as_root mkdir -p /run/mysqld
  as_root chown mysql:mysql /run/mysqld
  log "starting MariaDB"
  as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- \
    --user=mysql --bind-address=127.0.0.1 --port="$MARIADB_PORT"
}

wait_for() {
  local name=$1 check=$2
  for _ in $(seq 1 60); do
    if $check; then return 0; fi
    sleep 1
  done
  log "$name did not answer within 60 s"
  return 1
}

allow_mariadb_root_over_tcp() {
  if mariadb_answers; then return; fi
  # a fresh install lets root in over the unix socket only (unix_socket auth); allow TCP without password
  log "allowing $MARIADB_USER@127.0.0.1 over TCP without password"
  as_root mariadb -u root --protocol=SOCKET -e "
    ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('');
    CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
    GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
    FLUSH PRIVILEGES;"
}

main() {
  install_missing
  start_postgres
  start_mariadb
  wait_for PostgreSQL pg_answers
  # MariaDB is up once TCP login works or, on a fresh install, root can log in over the socket
  for _ in $(seq 1 60); do
    mariadb_answers && break
    as_root mariadb -u root --protocol=SOCKET -e 'SELECT 1' >/dev/null 2>&1 && break
    sleep 1
  done
  allow_mariadb_root_over_tcp
  wait_for MariaDB mariadb_answers

  if ! pg_admin -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1; then
    log "creating PostgreSQL database test"
    pg_admin -d postgres -c 'CREATE DATABASE test' || true # a concurrent creator may have won
  fi
  mariadb --protocol=TCP -h "$MARIADB_HOST" -P "$MARIADB_PORT" -u "$MARIADB_USER" -e 'CREATE DATABASE IF NOT EXISTS test'

  cat <<VARS
export SQLAGENT_PG_URL=jdbc:postgresql://$PG_HOST:$PG_PORT/test
export SQLAGENT_PG_USER=$PG_USER
export SQLAGENT_PG_PASSWORD=
export SQLAGENT_MARIADB_URL=jdbc:mariadb://$MARIADB_HOST:$MARIADB_PORT/test
export SQLAGENT_MARIADB_USER=$MARIADB_USER
export SQLAGENT_MARIADB_PASSWORD=
VARS
}

main "$@"

#!/usr/bin/env bash
# Installs the pgvector extension into the machine's PostgreSQL 15 (Debian bookworm), for
# integrations/pgvector's tests. Run as root, once per machine.
#
# Why not `apt-get install postgresql-15-pgvector`: bookworm (main, updates, security, backports)
# has no pgvector package; trixie has postgresql-17-pgvector 0.8.0-1, built for PostgreSQL 17.
# So this script takes trixie's Debian source package of pgvector 0.8.0 and builds it against
# bookworm's PostgreSQL 15 headers. It changes no apt configuration of the machine: the trixie
# source list lives in a temporary directory. It neither restarts nor reconfigures the server;
# the tests then run CREATE EXTENSION vector in a database of their own.
set -euo pipefail

if psql -h 127.0.0.1 -U postgres -d postgres -Atc \
    "select 1 from pg_available_extensions where name = 'vector'" 2>/dev/null | grep -q 1; then
  echo "pgvector already available"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q postgresql-server-dev-15 dpkg-dev make gcc

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial"
# the machine's own Debian mirror (the first main-archive URI of its apt sources), trixie's sources
# (missing source files are normal: cat's complaint and pipefail must not end the script)
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
  | grep -E '^(URIs:|deb) ' | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true)
if [ -z "$mirror" ]; then
  echo "install-pgvector: no Debian mirror found in the apt sources" >&2
  exit 1
fi
echo "deb-src ${mirror%/} trixie main" > "$work/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$work/sources.list" -o Dir::Etc::sourceparts=/dev/null
          -o Dir::State::Lists="$work/lists")
apt-get "${apt_opts[@]}" update -q
(cd "$work" && apt-get "${apt_opts[@]}" source --download-only pgvector=0.8.0-1 \
  && dpkg-source -x pgvector_0.8.0-1.dsc src)
# OPTFLAGS="" drops pgvector's default -march=native so that the build runs on any x86-64.
make -C "$work/src" PG_CONFIG=/usr/bin/pg_config OPTFLAGS=""
make -C "$work/src" PG_CONFIG=/usr/bin/pg_config install
echo "pgvector 0.8.0 installed for PostgreSQL 15"

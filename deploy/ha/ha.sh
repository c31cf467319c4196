#!/usr/bin/env bash
# The high-availability topology of D46 on one Debian machine, from Debian's packages, on
# loopback: 3 PostgreSQL 15 nodes under Patroni (synchronous_mode, master_start_timeout 0) with
# etcd as their store, HAProxy in front (the write port follows Patroni's GET /primary, sessions
# shut on a node marked down; the API port spreads over the API processes), 3 nats-server with
# JetStream clustered, a Redis master + replica + 3 sentinels, 2 API processes and 1 worker of
# the service. Every file (configuration, data, logs, pids) lives under one directory.
#
#   deploy/ha/ha.sh start      start it all (configuration written under $CLEAVER_HA_DIR)
#   deploy/ha/ha.sh stop       stop it all (the data stays; `start` again resumes it)
#   deploy/ha/ha.sh leaders    who leads: PostgreSQL, the feed's NATS stream, Redis
#   deploy/ha/ha.sh restart NAME   start one piece again after a test killed it (pg1…, nats1…,
#                              redis-master, redis-replica, api1, api2, worker)
#   deploy/ha/ha.sh destroy    stop it all and delete the directory
#
# CLEAVER_HA_DIR (default /tmp/cleaver-ha) and CLEAVER_HA_BASE_PORT (default 25400; 100 ports
# from it) choose where. deploy/ha/README.md says what changes across machines.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${CLEAVER_HA_DIR:-/tmp/cleaver-ha}
BASE=${CLEAVER_HA_BASE_PORT:-25400}
PGBIN=${CLEAVER_HA_PGBIN:-/usr/lib/postgresql/15/bin}
HOST=127.0.0.1

# The port plan, all from BASE: written to $DIR/ports.env for the test and the operator.
ETCD_CLIENT=$((BASE + 0)); ETCD_PEER=$((BASE + 1))
pg_port() { echo $((BASE + 10 + $1)); }
rest_port() { echo $((BASE + 20 + $1)); }
HAPROXY_WRITE=$((BASE + 30)); HAPROXY_READ=$((BASE + 31)); HAPROXY_STATS=$((BASE + 32)); HAPROXY_API=$((BASE + 33))
nats_port() { echo $((BASE + 40 + $1)); }
nats_route() { echo $((BASE + 50 + $1)); }
nats_monitor() { echo $((BASE + 60 + $1)); }
REDIS_MASTER=$((BASE + 70)); REDIS_REPLICA=$((BASE + 71))
sentinel_port() { echo $((BASE + 71 + $1)); }
api_port() { echo $((BASE + 80 + $1)); }
WORKER_PORT=$((BASE + 83))

say() { printf 'ha: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
port_busy() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# wait_for SECONDS DESCRIPTION COMMAND…: polls COMMAND every 0.2 s.
wait_for() {
  local seconds=$1 what=$2; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "$what did not come up within ${seconds} s (logs in $DIR/log)"
    sleep 0.2
  done
}

# run NAME [--as-postgres] COMMAND…: in the background, its pid in run/NAME.pid, its output in log/NAME.log.
run() {
  local name=$1; shift
  local wrap=()
  if [ "$1" = --as-postgres ]; then shift; [ "$(id -u)" = 0 ] && wrap=(runuser -u postgres --); fi
  if [ -f "$DIR/run/$name.pid" ] && kill -0 "$(cat "$DIR/run/$name.pid")" 2>/dev/null; then return; fi
  nohup "${wrap[@]}" "$@" >>"$DIR/log/$name.log" 2>&1 &
  echo $! >"$DIR/run/$name.pid"
}

stop_one() {
  local name=$1 pidfile="$DIR/run/$1.pid"
  [ -f "$pidfile" ] || return 0
  local pid; pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

write_ports() {
  cat >"$DIR/ports.env" <<ENV
CLEAVER_HA_DIR=$DIR
ETCD_CLIENT=$ETCD_CLIENT
PG_PORTS=$(pg_port 1),$(pg_port 2),$(pg_port 3)
PATRONI_PORTS=$(rest_port 1),$(rest_port 2),$(rest_port 3)
HAPROXY_WRITE=$HAPROXY_WRITE
HAPROXY_READ=$HAPROXY_READ
HAPROXY_STATS=$HAPROXY_STATS
HAPROXY_API=$HAPROXY_API
NATS_PORTS=$(nats_port 1),$(nats_port 2),$(nats_port 3)
NATS_MONITOR_PORTS=$(nats_monitor 1),$(nats_monitor 2),$(nats_monitor 3)
REDIS_MASTER=$REDIS_MASTER
REDIS_REPLICA=$REDIS_REPLICA
SENTINEL_PORTS=$(sentinel_port 1),$(sentinel_port 2),$(sentinel_port 3)
API_PORTS=$(api_port 1),$(api_port 2)
WORKER_PORT=$WORKER_PORT
ENV
}

secret() { # a secret generated once, kept in the directory
  local file="$DIR/secrets/$1"
  [ -s "$file" ] || head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 40 >"$file"
  cat "$file"
}

configure() {
  mkdir -p "$DIR"/{run,log,secrets,etcd,nats,redis,conf}
  chmod 700 "$DIR/secrets"
  local su_pw repl_pw app_pw
  su_pw=$(secret postgres); repl_pw=$(secret replicator); app_pw=$(secret cleaver-db)
  secret admin-token >/dev/null; secret secret-key >/dev/null

  for i in 1 2 3; do
    mkdir -p "$DIR/pg$i"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR/pg$i"
    chmod 700 "$DIR/pg$i"
    envsubst_file "$HERE/patroni.yml" "$DIR/pg$i/patroni.yml" \
      NODE="pg$i" HOST="$HOST" PG_PORT="$(pg_port "$i")" REST_PORT="$(rest_port "$i")" ETCD="$HOST:$ETCD_CLIENT" \
      DATA="$DIR/pg$i" PGBIN="$PGBIN" SU_PW="$su_pw" REPL_PW="$repl_pw"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR/pg$i/patroni.yml"
    chmod 600 "$DIR/pg$i/patroni.yml"
  done

  envsubst_file "$HERE/haproxy.cfg" "$DIR/conf/haproxy.cfg" \
    HOST="$HOST" WRITE="$HAPROXY_WRITE" READ="$HAPROXY_READ" STATS="$HAPROXY_STATS" API="$HAPROXY_API" \
    PG1="$(pg_port 1)" PG2="$(pg_port 2)" PG3="$(pg_port 3)" \
    REST1="$(rest_port 1)" REST2="$(rest_port 2)" REST3="$(rest_port 3)" \
    API1="$(api_port 1)" API2="$(api_port 2)"

  local routes
  routes="nats-route://$HOST:$(nats_route 1),nats-route://$HOST:$(nats_route 2),nats-route://$HOST:$(nats_route 3)"
  for i in 1 2 3; do
    mkdir -p "$DIR/nats/n$i"
    envsubst_file "$HERE/nats.conf" "$DIR/conf/nats$i.conf" \
      NODE="n$i" HOST="$HOST" PORT="$(nats_port "$i")" ROUTE_PORT="$(nats_route "$i")" MONITOR="$(nats_monitor "$i")" \
      STORE="$DIR/nats/n$i" ROUTES="$routes"
  done

  mkdir -p "$DIR/redis/master" "$DIR/redis/replica"
  envsubst_file "$HERE/redis.conf" "$DIR/conf/redis-master.conf" HOST="$HOST" PORT="$REDIS_MASTER" DATA="$DIR/redis/master"
  envsubst_file "$HERE/redis.conf" "$DIR/conf/redis-replica.conf" HOST="$HOST" PORT="$REDIS_REPLICA" DATA="$DIR/redis/replica"
  echo "replicaof $HOST $REDIS_MASTER" >>"$DIR/conf/redis-replica.conf"
  for i in 1 2 3; do
    # A sentinel rewrites its own file (what it learnt): written once, then left to it.
    [ -f "$DIR/conf/sentinel$i.conf" ] || envsubst_file "$HERE/sentinel.conf" "$DIR/conf/sentinel$i.conf" \
      HOST="$HOST" PORT="$(sentinel_port "$i")" MASTER_PORT="$REDIS_MASTER" DATA="$DIR/redis"
  done

  envsubst_file "$HERE/cleaver.env" "$DIR/conf/cleaver.env" \
    HOST="$HOST" WRITE="$HAPROXY_WRITE" APP_PW="$app_pw" \
    NATS="nats://$HOST:$(nats_port 1),nats://$HOST:$(nats_port 2),nats://$HOST:$(nats_port 3)" \
    SENTINELS="$HOST:$(sentinel_port 1),$HOST:$(sentinel_port 2),$HOST:$(sentinel_port 3)" \
    ADMIN_TOKEN="$(secret admin-token)" SECRET_KEY="$(secret secret-key)"
  chmod 600 "$DIR/conf/cleaver.env"
  write_ports
}

# envsubst_file TEMPLATE OUT NAME=VALUE…: ${NAME} in TEMPLATE replaced (no other expansion).
envsubst_file() {
  local template=$1 out=$2; shift 2
  local text; text=$(cat "$template")
  local pair
  for pair in "$@"; do text=${text//\$\{${pair%%=*}\}/${pair#*=}}; done
  printf '%s\n' "$text" >"$out"
}

start_etcd() {
  # One member: see deploy/ha/README.md ("Why one etcd member here").
  run etcd etcd --name e1 --data-dir "$DIR/etcd" \
    --listen-client-urls "http://$HOST:$ETCD_CLIENT" --advertise-client-urls "http://$HOST:$ETCD_CLIENT" \
    --listen-peer-urls "http://$HOST:$ETCD_PEER" --initial-advertise-peer-urls "http://$HOST:$ETCD_PEER" \
    --initial-cluster "e1=http://$HOST:$ETCD_PEER" --initial-cluster-state new
  wait_for 30 etcd curl -fsS "http://$HOST:$ETCD_CLIENT/health"
}

start_pg() { run "pg$1" --as-postgres patroni "$DIR/pg$1/patroni.yml"; }

start_postgres() {
  start_pg 1
  wait_for 90 "the first PostgreSQL node" curl -fsS "http://$HOST:$(rest_port 1)/primary"
  start_pg 2; start_pg 3
  wait_for 120 "PostgreSQL replica pg2" curl -fsS "http://$HOST:$(rest_port 2)/replica"
  wait_for 120 "PostgreSQL replica pg3" curl -fsS "http://$HOST:$(rest_port 3)/replica"
  wait_for 60 "a synchronous standby" sync_standby
}

sync_standby() { curl -fsS "http://$HOST:$(rest_port 1)/cluster" | grep -q '"role": *"sync_standby"'; }

start_haproxy() {
  run haproxy haproxy -db -f "$DIR/conf/haproxy.cfg"
  wait_for 30 "HAProxy's write port" pg_isready -q -h "$HOST" -p "$HAPROXY_WRITE"
}

start_nats() {
  local i
  for i in 1 2 3; do run "nats$i" nats-server -c "$DIR/conf/nats$i.conf"; done
  for i in 1 2 3; do wait_for 60 "nats$i" curl -fsS "http://$HOST:$(nats_monitor "$i")/healthz"; done
}

start_redis() {
  run redis-master redis-server "$DIR/conf/redis-master.conf"
  run redis-replica redis-server "$DIR/conf/redis-replica.conf"
  local i
  for i in 1 2 3; do run "sentinel$i" redis-sentinel "$DIR/conf/sentinel$i.conf"; done
  wait_for 30 "the Redis sentinels" redis-cli -p "$(sentinel_port 1)" sentinel get-master-addr-by-name cleaver
}

prepare_database() {
  local su_pw app_pw
  su_pw=$(secret postgres); app_pw=$(secret cleaver-db)
  PGPASSWORD=$su_pw psql -h "$HOST" -p "$HAPROXY_WRITE" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt <<SQL >/dev/null
SELECT count(*) > 0 AS exists FROM pg_roles WHERE rolname = 'cleaver' \gset
\if :exists
\else
CREATE ROLE cleaver LOGIN PASSWORD '$app_pw';
CREATE DATABASE cleaver OWNER cleaver;
\endif
SQL
}

cleaver_run() { # cleaver_run NAME ROLE PORT (conf/cleaver.local.env, when there is one, adds to cleaver.env)
  local local_env=()
  [ -f "$DIR/conf/cleaver.local.env" ] && mapfile -t local_env < <(grep -v '^#' "$DIR/conf/cleaver.local.env" | grep .)
  run "$1" env $(grep -v '^#' "$DIR/conf/cleaver.env" | xargs) "${local_env[@]}" CLEAVER_ROLE="$2" PORT="$3" \
    CLEAVER_DATA_DIR="$DIR/cleaver-$1" node "$ROOT/bin/cleaver.js" serve
}

start_cleaver() {
  # The worker first: it applies the migrations; the API processes then find them applied.
  cleaver_run worker worker "$WORKER_PORT"
  wait_for 180 "the worker" curl -fsS "http://$HOST:$WORKER_PORT/health/live"
  cleaver_run api1 api "$(api_port 1)"
  cleaver_run api2 api "$(api_port 2)"
  wait_for 120 "api1" curl -fsS "http://$HOST:$(api_port 1)/health/ready"
  wait_for 120 "api2" curl -fsS "http://$HOST:$(api_port 2)/health/ready"
}

cmd_start() {
  for bin in patroni etcd haproxy nats-server redis-server redis-sentinel curl psql "$PGBIN/postgres"; do
    command -v "$bin" >/dev/null || die "$bin is missing: apt-get install -y patroni etcd-server haproxy nats-server redis-sentinel postgresql-15 curl"
  done
  if [ ! -f "$DIR/ports.env" ]; then
    local p
    for p in $(seq "$BASE" $((BASE + 99))); do
      ! port_busy "$p" || die "port $p is taken: choose another CLEAVER_HA_BASE_PORT (100 ports from it)"
    done
  fi
  # Patroni keeps its node's socket and data under the directory: the postgres user walks to it.
  mkdir -p "$DIR"; chmod 755 "$DIR"
  configure
  say "etcd…"; start_etcd
  say "PostgreSQL under Patroni (3 nodes)…"; start_postgres
  say "HAProxy…"; start_haproxy
  say "NATS JetStream cluster (3 servers)…"; start_nats
  say "Redis master, replica and 3 sentinels…"; start_redis
  prepare_database
  say "the service: worker, api1, api2…"; start_cleaver
  say "up. API through HAProxy: http://$HOST:$HAPROXY_API (token in $DIR/secrets/admin-token); ports in $DIR/ports.env"
  cmd_leaders
}

cmd_stop() {
  local name
  # The service, then what it uses, each group stopping together.
  for name in api1 api2 worker; do stop_one "$name" & done
  wait
  for name in sentinel1 sentinel2 sentinel3 redis-replica redis-master nats1 nats2 nats3 haproxy; do stop_one "$name" & done
  wait
  # Replicas first, the leader last: none of them takes over while the others stop.
  for name in pg3 pg2 pg1; do
    stop_one "$name"
    # A Patroni killed before its PostgreSQL stopped leaves it running: stopped here.
    if [ -f "$DIR/$name/data/postmaster.pid" ]; then
      as_postgres "$PGBIN/pg_ctl" -D "$DIR/$name/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
  done
  stop_one etcd
  say "stopped (data kept in $DIR)"
}

cmd_leaders() {
  [ -f "$DIR/ports.env" ] || die "nothing configured in $DIR"
  local i role
  printf 'PostgreSQL: '
  for i in 1 2 3; do
    role=$(curl -fsS "http://$HOST:$(rest_port "$i")/patroni" 2>/dev/null | sed -n 's/.*"role": *"\([a-z_]*\)".*/\1/p')
    [ "$role" = master ] && role=leader
    printf 'pg%s %s  ' "$i" "${role:-down}"
  done
  printf '\nsynchronous standby: %s\n' \
    "$(curl -fsS "http://$HOST:$(rest_port 1)/cluster" 2>/dev/null | tr '{' '\n' | sed -n 's/.*"name": *"\(pg[0-9]\)".*"role": *"sync_standby".*/\1/p' | head -1)"
  local leader=""
  for i in 1 2 3; do
    leader=$(curl -fsS "http://$HOST:$(nats_monitor "$i")/jsz?streams=true" 2>/dev/null |
      tr -d '\n ' | sed -n 's/.*"name":"CLEAVER".*"cluster":{[^}]*"leader":"\([^"]*\)".*/\1/p')
    [ -n "$leader" ] && break
  done
  printf 'NATS stream CLEAVER: leader %s\n' "${leader:-unknown (not created yet?)}"
  printf 'Redis master: %s\n' "$(redis-cli -p "$(sentinel_port 1)" sentinel get-master-addr-by-name cleaver 2>/dev/null | paste -sd: -)"
}

cmd_restart() {
  local name=${1:?restart what? pg1..3, nats1..3, redis-master, redis-replica, sentinel1..3, haproxy, api1, api2, worker}
  case $name in
    pg[123]) start_pg "${name#pg}" ;;
    nats[123]) run "$name" nats-server -c "$DIR/conf/$name.conf" ;;
    redis-master|redis-replica) run "$name" redis-server "$DIR/conf/$name.conf" ;;
    sentinel[123]) run "$name" redis-sentinel "$DIR/conf/$name.conf" ;;
    haproxy) run haproxy haproxy -db -f "$DIR/conf/haproxy.cfg" ;;
    api1) cleaver_run api1 api "$(api_port 1)" ;;
    api2) cleaver_run api2 api "$(api_port 2)" ;;
    worker) cleaver_run worker worker "$WORKER_PORT" ;;
    *) die "unknown piece $name" ;;
  esac
}

case ${1:-} in
  start) cmd_start ;;
  stop) cmd_stop ;;
  leaders) cmd_leaders ;;
  restart) shift; cmd_restart "$@" ;;
  destroy) cmd_stop; rm -rf "$DIR" ;;
  *) die "usage: $0 start|stop|leaders|restart NAME|destroy" ;;
esac

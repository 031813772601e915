#!/usr/bin/env bash
# A real S3 server on this machine for the tests and the cluster: Ceph's RADOS Gateway (Debian's
# radosgw, ceph-mon, ceph-osd) with one monitor and one in-memory OSD, auth off, listening on
# 127.0.0.1 only. Everything lives in a temporary folder that `stop` removes.
#
#   scripts/services/s3.sh start    installs the packages if missing (apt), starts the gateway, makes
#                                   the bucket (public reads); a second start while it runs just succeeds
#   scripts/services/s3.sh env      prints `export S3_ENDPOINT=... MEDIA_BASE_URL=...` for `eval`
#   scripts/services/s3.sh status   exits 0 when the gateway runs and answers
#   scripts/services/s3.sh stop     stops every daemon it started and removes the folder
#
# S3_PORT (default 7480) is the gateway's port and S3_MON_PORT (default 3300) the monitor's;
# S3_BUCKET defaults to posts-media; S3_MEMSTORE_BYTES (default 1 GiB) caps what the in-memory OSD
# holds (memory is taken as objects arrive). One gateway per S3_PORT.
set -euo pipefail

PORT="${S3_PORT:-7480}"
MON_PORT="${S3_MON_PORT:-3300}"
BUCKET="${S3_BUCKET:-posts-media}"
MEMSTORE_BYTES="${S3_MEMSTORE_BYTES:-1073741824}"
DIR="${TMPDIR:-/tmp}/posts-s3-$PORT"
LOCK="${TMPDIR:-/tmp}/posts-s3-$PORT.lock"
ENDPOINT="http://127.0.0.1:$PORT"
DAEMONS=(client.rgw osd.0 mon.a)

say() { echo "s3.sh: $*" >&2; }

pid_of() { cat "$DIR/run/$1.pid" 2>/dev/null || true; }
alive() {
  local pid
  pid="$(pid_of "$1")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

running() {
  [ -f "$DIR/env" ] || return 1
  local daemon
  for daemon in "${DAEMONS[@]}"; do alive "$daemon" || return 1; done
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$ENDPOINT/")" = 200 ]
}

install_if_missing() {
  local missing=()
  command -v radosgw >/dev/null 2>&1 || missing+=(radosgw)
  command -v ceph-mon >/dev/null 2>&1 || missing+=(ceph-mon)
  command -v ceph-osd >/dev/null 2>&1 || missing+=(ceph-osd)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  [ "${#missing[@]}" -eq 0 ] && return 0
  say "installing ${missing[*]} (apt)"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Waits up to $1 tenths of a second for every pid after it to be gone; fails if one is left.
wait_gone() {
  local tenths=$1 pid i left
  shift
  for ((i = 0; i <= tenths; i++)); do
    left=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && left=1; done
    [ "$left" -eq 0 ] && return 0
    sleep 0.1
  done
  return 1
}

stop_daemons() {
  local daemon pid pids=()
  for daemon in "${DAEMONS[@]}"; do
    pid="$(pid_of "$daemon")"
    if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then pids+=("$pid"); fi
  done
  [ "${#pids[@]}" -gt 0 ] || return 0
  # Everything is in memory and discarded anyway: a daemon still shutting down after 3 s is killed.
  wait_gone 30 "${pids[@]}" && return 0
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  wait_gone 50 "${pids[@]}" || say "some daemons did not exit: ${pids[*]}"
}

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.5
  done
}

fail() {
  say "$1; the daemons' logs end with:"
  tail -n 15 "$DIR"/log/*.log >&2 2>/dev/null || true
  stop_daemons
  rm -rf "$DIR"
  exit 1
}

random_text() { head -c 64 /dev/urandom | base64 | tr -dc "$1" | head -c "$2"; }

# An S3 request signed with the gateway user's keys (curl signs; RGW wants the payload's hash sent).
signed() {
  local body=$1
  shift
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 --aws-sigv4 aws:amz:us-east-1:s3 \
    --user "$ACCESS_KEY:$SECRET_KEY" -H "x-amz-content-sha256: $(printf '%s' "$body" | sha256sum | cut -d' ' -f1)" \
    --data-binary "$body" "$@"
}

write_config() {
  local fsid
  fsid="$(cat /proc/sys/kernel/random/uuid)"
  mkdir -p "$DIR"/{run,log,mon/ceph-a,osd/ceph-0,rgw}
  # Auth is off (loopback only), but the monitor's client side must still offer `secure` as well as
  # `crc`, or radosgw loops on "get_initial_auth_request returned -13". One OSD: every pool has one
  # copy, placed by OSD rather than by host. Every daemon binds to loopback (the OSD's own ports too).
  cat >"$DIR/ceph.conf" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$MON_PORT
public addr = 127.0.0.1
cluster addr = 127.0.0.1
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc secure
mon allow pool delete = true
mon data avail warn = 5
mon data avail crit = 1
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = $MEMSTORE_BYTES
run dir = $DIR/run
pid file = $DIR/run/\$name.pid
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
mon data = $DIR/mon/\$cluster-\$id
osd data = $DIR/osd/\$cluster-\$id
keyring = $DIR/keyring

[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$PORT
rgw data = $DIR/rgw
CONF
  monmaptool --create --add a "v2:127.0.0.1:$MON_PORT" --fsid "$fsid" "$DIR/monmap" >/dev/null
  ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
}

start() {
  install_if_missing
  if running; then
    say "already running at $ENDPOINT"
    return 0
  fi
  # Whatever is left of an earlier run (a daemon died, a reboot) is cleared first.
  stop_daemons
  rm -rf "$DIR"
  write_config
  local conf=(-c "$DIR/ceph.conf")
  # The daemons outlive this script: they must not inherit the lock (fd 9), or it is never released.

  ceph-mon "${conf[@]}" --mkfs -i a --monmap "$DIR/monmap" >"$DIR/log/mkfs.log" 2>&1 || fail "ceph-mon --mkfs failed"
  ceph-mon "${conf[@]}" -i a 9>&- >>"$DIR/log/start.log" 2>&1 || fail "ceph-mon did not start"
  wait_for 30 ceph "${conf[@]}" --connect-timeout 5 mon stat || fail "the monitor does not answer"

  [ "$(ceph "${conf[@]}" osd create 2>>"$DIR/log/start.log")" = 0 ] || fail "ceph osd create did not give osd.0"
  ceph-osd "${conf[@]}" -i 0 --mkfs >>"$DIR/log/mkfs.log" 2>&1 || fail "ceph-osd --mkfs failed"
  ceph-osd "${conf[@]}" -i 0 9>&- >>"$DIR/log/start.log" 2>&1 || fail "ceph-osd did not start"
  wait_for 60 sh -c "ceph -c '$DIR/ceph.conf' osd stat -f json | grep -q '\"num_up_osds\":1'" || fail "osd.0 did not come up"

  radosgw "${conf[@]}" -n client.rgw 9>&- >>"$DIR/log/start.log" 2>&1 || fail "radosgw did not start"
  wait_for 90 sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 '$ENDPOINT/')\" = 200 ]" ||
    fail "the gateway does not answer on $ENDPOINT"

  ACCESS_KEY="$(random_text 'A-Z0-9' 20)"
  SECRET_KEY="$(random_text 'A-Za-z0-9' 40)"
  radosgw-admin "${conf[@]}" user create --uid=posts --display-name=Posts \
    --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null 2>>"$DIR/log/start.log" ||
    fail "radosgw-admin user create failed"
  local status
  status="$(signed '' -X PUT "$ENDPOINT/$BUCKET")"
  [ "$status" = 200 ] || fail "creating bucket $BUCKET answered $status"
  # Anyone may read an object (the pages link to them); listing and writing need the keys.
  local policy='{"Version":"2012-10-17","Statement":[{"Sid":"PublicRead","Effect":"Allow","Principal":"*","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::'"$BUCKET"'/*"]}]}'
  # `policy=` rather than `policy`: curl signs the bare form differently from how RGW checks it.
  status="$(signed "$policy" -X PUT "$ENDPOINT/$BUCKET?policy=")"
  [ "$status" = 204 ] || [ "$status" = 200 ] || fail "setting the bucket policy answered $status"

  echo "export S3_ENDPOINT=$ENDPOINT S3_BUCKET=$BUCKET S3_ACCESS_KEY_ID=$ACCESS_KEY S3_SECRET_ACCESS_KEY=$SECRET_KEY S3_FORCE_PATH_STYLE=true MEDIA_BASE_URL=$ENDPOINT/$BUCKET" >"$DIR/env"
  say "running at $ENDPOINT (bucket $BUCKET; folder $DIR)"
}

stop() {
  stop_daemons
  rm -rf "$DIR"
  say "stopped"
}

command="${1:-}"
case "$command" in
  start | stop)
    exec 9>"$LOCK"
    flock 9
    "$command"
    ;;
  env)
    running || {
      say "not running on port $PORT: run scripts/services/s3.sh start"
      exit 1
    }
    cat "$DIR/env"
    ;;
  status)
    running
    ;;
  *)
    echo "usage: $0 start|stop|env|status" >&2
    exit 2
    ;;
esac

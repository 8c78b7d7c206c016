# Shared by ops/run and ops/test: bring a fresh Debian machine to the point where Filia
# builds and runs. Every step checks first and only acts on what is missing.
# shellcheck shell=bash

FILIA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FILIA_ROOT
# Builds are cached outside the clone, so a fresh clone (CI) reuses earlier work.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/filia-target}"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/filia}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf '\033[31merror:\033[0m %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root to run: $*"
  fi
}

# Debian packages the platform needs, by the command that shows each is there: browsers
# for tests, ffmpeg for videos, poppler for checking PDFs, PostgreSQL and Redis clients
# (and PostgreSQL's server binaries, which the outage tests run).
# Lato, the font receipts and vouchers are written in, shows by its file (unless
# FILIA_PDF_FONT_DIR points the PDFs at a copy of the font elsewhere).
ensure_packages() {
  local wanted=(chromium:chromium ffmpeg:ffmpeg ffprobe:ffmpeg pdftoppm:poppler-utils
    pdftotext:poppler-utils psql:postgresql-client pg_isready:postgresql-client
    redis-cli:redis-tools curl:curl node:nodejs npm:npm)
  local missing=() entry
  for entry in "${wanted[@]}"; do
    command -v "${entry%%:*}" >/dev/null || missing+=("${entry##*:}")
  done
  [ -f "${FILIA_PDF_FONT_DIR:-/usr/share/fonts/truetype/lato}/Lato-Regular.ttf" ] || missing+=(fonts-lato)
  # The outage tests start a cluster of their own (testkit::postgres), whatever server
  # DATABASE_URL points at.
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
  if [ ${#missing[@]} -gt 0 ]; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    say "installing ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends \
      ca-certificates "${missing[@]}" >/dev/null
  fi
  command -v cargo >/dev/null || die "cargo is missing: install Rust (https://rustup.rs) and run again"
  # ops/test checks formatting and lints: rustup's minimal profile leaves both out.
  if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    command -v rustup >/dev/null || die "cargo fmt and cargo clippy are missing and rustup is not here to add them"
    say "installing rustfmt and clippy"
    rustup component add rustfmt clippy
  fi
}

url_host() { local rest="${1#*://}"; rest="${rest#*@}"; rest="${rest%%/*}"; rest="${rest%%\?*}"; echo "${rest%%:*}"; }
url_port() { local rest="${1#*://}"; rest="${rest#*@}"; rest="${rest%%/*}"; rest="${rest%%\?*}"; [[ "$rest" == *:* ]] && echo "${rest##*:}" || echo "$2"; }
is_local() { case "$1" in 127.*|localhost|::1|"") return 0;; *) return 1;; esac; }

# PostgreSQL and Redis at the configured URLs; a local server that is installed but
# stopped is started, a missing local one is installed first.
ensure_services() {
  local pg_host pg_port redis_host redis_port
  pg_host=$(url_host "$DATABASE_URL"); pg_port=$(url_port "$DATABASE_URL" 5432)
  if ! pg_isready -q -h "$pg_host" -p "$pg_port"; then
    is_local "$pg_host" || die "PostgreSQL does not answer at $pg_host:$pg_port"
    if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
      say "installing PostgreSQL"
      DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
    fi
    say "starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n1)" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h "$pg_host" -p "$pg_port" && break; sleep 0.5; done
    pg_isready -q -h "$pg_host" -p "$pg_port" || die "PostgreSQL did not start at $pg_host:$pg_port"
  fi
  # This machine's own server: no TLS, whose handshake in a debug build costs more than most
  # queries (a URL's own sslmode, or PGSSLMODE if set, still wins).
  is_local "$pg_host" && export PGSSLMODE="${PGSSLMODE:-disable}"
  redis_host=$(url_host "$REDIS_URL"); redis_port=$(url_port "$REDIS_URL" 6379)
  if ! redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then
    is_local "$redis_host" || die "Redis does not answer at $redis_host:$redis_port"
    command -v redis-server >/dev/null || {
      say "installing Redis"
      DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq redis-server >/dev/null
    }
    say "starting Redis"
    as_root mkdir -p /var/lib/redis /var/log/redis
    as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$redis_port" --save "" \
      --appendonly no --dir /var/lib/redis --logfile /var/log/redis/filia.log
    for _ in $(seq 1 20); do redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1 && break; sleep 0.25; done
    redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1 || die "Redis did not start at $redis_host:$redis_port"
  fi
}

build_rust() {
  say "building the API and the workers"
  (cd "$FILIA_ROOT" && cargo build --locked --bin api --bin workers --bin smtp-sink)
  FILIA_BIN="$CARGO_TARGET_DIR/debug"
  export FILIA_BIN
}

# npm ci only when the lock file changed since the last install.
install_web_dependencies() {
  local web="$FILIA_ROOT/web"
  if [ ! -f "$web/node_modules/.package-lock.json" ] || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
    say "installing web dependencies"
    (cd "$web" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

build_web() {
  install_web_dependencies
  say "building the web app"
  (cd "$FILIA_ROOT/web" && npm run --silent build >/dev/null)
}

# Waits until the API at $1 answers /readyz, or gives up after $2 seconds.
wait_ready() {
  local url="$1" timeout="${2:-30}"
  for _ in $(seq 1 $((timeout * 4))); do
    curl -fsS "$url/readyz" >/dev/null 2>&1 && return 0
    sleep 0.25
  done
  return 1
}

# Starts what the browser tests drive, on a fresh database: the SMTP sink (messages as JSON
# in $logs/mailbox), the API serving web/dist, and one worker process. Arguments: database
# name, port, log directory. Exports FILIA_E2E_URL and FILIA_E2E_MAILBOX, sets E2E_PIDS.
start_e2e_platform() {
  local db="$1" port="$2" logs="$3" smtp_port=$(($2 + 1))
  local base_url="${DATABASE_URL%/*}"
  mkdir -p "$logs"
  export DATABASE_URL="$base_url/$db"
  psql "$base_url/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
  export FILIA_BIND="127.0.0.1:$port" FILIA_PUBLIC_URL="http://127.0.0.1:$port"
  export FILIA_WEB_DIR="$FILIA_ROOT/web/dist" FILIA_DATA_DIR="$logs/data" FILIA_DEFAULT_STATION=demo
  export FILIA_SMTP_URL="smtp://127.0.0.1:$smtp_port" FILIA_E2E_MAILBOX="$logs/mailbox"
  export FILIA_E2E_URL="$FILIA_PUBLIC_URL" FILIA_REDIS_PREFIX="filia-e2e-$port:"
  # Every e2e sign-up and activation comes from 127.0.0.1: lift the per-address limits.
  export FILIA_SIGNUP_MAX_PER_IP=100000 FILIA_ACTIVATION_MAX_PER_IP=100000
  # A cart is held 30 s instead of 15 min: shop.spec watches a reservation run out (the
  # purchases it makes take a few seconds, under 12, from the hold to the order).
  export FILIA_HOLD_SECONDS=30
  # The CEP lookup's provider is a path of this API that answers 404 at once (every CEP
  # unknown, 'CEP inválido' in the form): the browser tests call no third party, and a
  # provider out of reach would answer only at its timeout, after the test typed the address.
  export FILIA_CEP_URL="$FILIA_PUBLIC_URL/api/no-cep-provider" FILIA_CEP_LOOKUPS_MAX=100000
  # The cities lookup's likewise (its 404 is a 503 to the form, which lets the city be typed).
  export FILIA_IBGE_URL="$FILIA_PUBLIC_URL/api/no-ibge-provider" FILIA_CITIES_LOOKUPS_MAX=100000
  # Called as a condition (`if start_e2e_platform`), where `set -e` does not stop at a failure.
  "$FILIA_BIN/api" migrate >/dev/null || return 1
  "$FILIA_BIN/api" seed-demo >/dev/null || return 1
  E2E_PIDS=()
  "$FILIA_BIN/smtp-sink" --port "$smtp_port" --dir "$FILIA_E2E_MAILBOX" >"$logs/smtp.log" 2>&1 & E2E_PIDS+=($!)
  "$FILIA_BIN/api" serve >"$logs/api.log" 2>&1 & E2E_PIDS+=($!)
  # Retry waits x20: an e-mail that failed while SMTP was down waits for the console's
  # re-run (console.spec) instead of retrying by itself 30 s later. No scheduled cashback
  # release: statement.spec releases through the console, and a scheduled one landing
  # between its checks would race it (the schedule has tests of its own).
  # Renewals are dispatched every 3 s instead of every minute: subscription-renewals.spec
  # moves the sandbox's clock a month on and waits for them.
  FILIA_JOB_BACKOFF_SCALE=20 FILIA_CRON_CASHBACK_DISPATCH=off \
    FILIA_CRON_SUBSCRIPTIONS_DISPATCH='*/3 * * * * *' \
    "$FILIA_BIN/workers" >"$logs/workers.log" 2>&1 & E2E_PIDS+=($!)
  wait_ready "$FILIA_PUBLIC_URL" 60
}

E2E_PIDS=()

# Waits for the platform's own processes only: another background job of the caller (ops/test's
# contract run) keeps its exit status for the caller's own `wait`.
stop_e2e_platform() {
  [ ${#E2E_PIDS[@]} -gt 0 ] || return 0
  kill "${E2E_PIDS[@]}" 2>/dev/null || true
  wait "${E2E_PIDS[@]}" 2>/dev/null || true
  E2E_PIDS=()
}

#!/bin/bash
# A/B runs of bench/server_bench.py in one sitting, arms alternating ABC, CBA, ... (bench/results/throughput.md):
# this machine's speed drifts between hours, so builds are only compared within one run of this script.
#
#   bench/ab.sh SET ROUNDS ARM...      e.g.  bench/ab.sh s1 4 ref r2 c5
#
# Each ARM is a checkout under $AB_TREES (default /work/wt; `git worktree add $AB_TREES/ref 357f69b`, with the
# compiled engine built or copied in where the build has one).  Every run uses this checkout's virtualenv and
# writes $AB_OUT/SET/ARM_rN.txt (start time, load average, the bench's figures).  The bench is this checkout's
# (bench/server_bench.py, with BENCH_ROOT naming the arm's tree), whatever the arm's own copy says.
set -u
SET=$1; ROUNDS=$2; shift 2; ARMS=("$@")
HERE=$(cd "$(dirname "$0")/.." && pwd)
TREES=${AB_TREES:-/work/wt}
OUT=${AB_OUT:-$HERE/bench/ab-runs}/$SET
DB=${AB_DATABASE_URL:-postgresql+asyncpg://postgres@127.0.0.1:5432/bench}
BENCH_ARGS=${AB_BENCH_ARGS:---pace production --durable on --tables 1000 --seconds 30 --warmup 40}
mkdir -p "$OUT"
for r in $(seq 1 "$ROUNDS"); do
  if (( r % 2 == 1 )); then order=("${ARMS[@]}"); else order=($(printf '%s\n' "${ARMS[@]}" | tac)); fi
  for arm in "${order[@]}"; do
    f=$OUT/${arm}_r$r.txt
    echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" > "$f"
    # shellcheck disable=SC2086  # BENCH_ARGS is a list of flags
    # this checkout's bench against the arm's server (BENCH_ROOT), so every arm is measured the same way
    (cd "$TREES/$arm" && BENCH_ROOT="$TREES/$arm" "$HERE/.venv/bin/python" "$HERE/bench/server_bench.py" $BENCH_ARGS \
      --database-url "$DB" >> "$f" 2>&1)
    echo "end $(date -u +%H:%M:%S) rc=$?" >> "$f"
  done
done

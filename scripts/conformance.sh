#!/usr/bin/env bash
# Runs upstream's e2e [Conformance] specs (an e2e.test binary of Kubernetes v1.28.7) against a
# fresh `nanokube serve` with simulated nodes and writes the results as Markdown.
#
#   scripts/conformance.sh                 every [Conformance] spec; writes docs/conformance.md
#   scripts/conformance.sh 'Probing'       only the [Conformance] specs matching a regexp; the
#                                          report goes to the work dir (docs/ is left alone)
#
# Not part of `npm test` or CI: e2e.test is built from Go sources (docs/conformance.md says how).
# Each spec runs in its own e2e.test process, JOBS at once, with a per-spec timeout, so one hung
# spec cannot stall the run; [Serial] and [Disruptive] specs (node taints, cluster-scoped
# PriorityClasses, namespace deletion timing) run afterwards, one at a time, as upstream runs them.
# Specs that failed before their timeout are tried once more at lower concurrency (RETRY_JOBS) to
# tell load from real failures.
#
# Environment:
#   E2E_TEST        the e2e.test binary (default $REF_DIR/bin/e2e.test; REF_DIR default ~/ref)
#   KUBECTL_PATH    kubectl for the kubectl specs (default $REF_DIR/bin/kubectl, else the
#                   kubectl.1.28 beside the kubectl on PATH, else kubectl)
#   JOBS            specs at once (default 40; most of a spec's time is waiting); RETRY_JOBS for
#                   the second try (default 6)
#   SPEC_TIMEOUT_S  per-spec timeout in seconds (default 420); SLOW_TIMEOUT_S for [Slow] specs
#                   (default 720)
#   NODES           simulated nodes (default 2)
#   REF_RESULTS     the reference's results (name TAB pass|fail|skip TAB seconds), written by
#                   ../shared/reference-tools/conformance/discover.sh; when present the report
#                   compares (default $REF_DIR/conformance/ref-results.tsv)
#   OUT             the report (default docs/conformance.md for a full run)
#   WORK_DIR        where logs go (default a new temp dir; kept)
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REF_DIR=${REF_DIR:-$HOME/ref}
E2E_TEST=${E2E_TEST:-$REF_DIR/bin/e2e.test}
FILTER=${1:-}
JOBS=${JOBS:-40}
RETRY_JOBS=${RETRY_JOBS:-6}
SPEC_TIMEOUT_S=${SPEC_TIMEOUT_S:-420}
SLOW_TIMEOUT_S=${SLOW_TIMEOUT_S:-720}
NODES=${NODES:-2}
REF_RESULTS=${REF_RESULTS:-$REF_DIR/conformance/ref-results.tsv}
WORK=${WORK_DIR:-$(mktemp -d -t nanokube-conformance.XXXXXX)}
if [ -z "$FILTER" ]; then OUT=${OUT:-$ROOT/docs/conformance.md}; else OUT=${OUT:-$WORK/conformance.md}; fi
if [ -z "${KUBECTL_PATH:-}" ]; then
  if [ -x "$REF_DIR/bin/kubectl" ]; then KUBECTL_PATH=$REF_DIR/bin/kubectl
  elif k=$(command -v kubectl) && [ -x "$(dirname "$(readlink -f "$k")")/kubectl.1.28" ]; then
    KUBECTL_PATH=$(dirname "$(readlink -f "$k")")/kubectl.1.28
  else KUBECTL_PATH=kubectl; fi
fi
if [ ! -x "$E2E_TEST" ]; then
  echo "e2e.test not found at $E2E_TEST: build it (see docs/conformance.md) or set E2E_TEST" >&2
  exit 2
fi
mkdir -p "$WORK/r" "$(dirname "$OUT")"
: > "$WORK/done.txt"
echo "work dir: $WORK"

# 1. a fresh nanokube on a free port, SQLite in the work dir
(cd "$ROOT" && npm run --silent build) || exit 1
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
node --max-semi-space-size=32 "$ROOT/dist/nanokube.js" serve --data-dir "$WORK/data" \
  --secure-port "$PORT" --nodes "$NODES" -v 2 ${NANOKUBE_ARGS:-} > "$WORK/nanokube.log" 2>&1 &
NK_PID=$!
trap 'kill $NK_PID 2>/dev/null; wait $NK_PID 2>/dev/null' EXIT
export KCFG=$WORK/data/kubeconfig
for _ in $(seq 1 100); do
  [ -s "$KCFG" ] && "$KUBECTL_PATH" --kubeconfig "$KCFG" get --raw /readyz >/dev/null 2>&1 && break
  kill -0 $NK_PID 2>/dev/null || { echo "nanokube exited:"; tail -20 "$WORK/nanokube.log"; exit 1; }
  sleep 0.2
done
"$KUBECTL_PATH" --kubeconfig "$KCFG" wait --for=condition=Ready node --all --timeout=60s >/dev/null || exit 1
echo "nanokube on 127.0.0.1:$PORT (pid $NK_PID, $NODES nodes)"

# 2. the specs (a dry run sends nothing to the cluster)
E2E_FLAGS=(--provider=skeleton --kubeconfig="$KCFG" --kubectl-path="$KUBECTL_PATH"
  --num-nodes="$NODES" --allowed-not-ready-nodes=0 --minStartupPods=-1 --node-schedulable-timeout=1m)
"$E2E_TEST" --ginkgo.dry-run --ginkgo.focus='\[Conformance\]' --ginkgo.no-color \
  --ginkgo.json-report="$WORK/list.json" "${E2E_FLAGS[@]}" > "$WORK/list.log" 2>&1
node "$ROOT/scripts/conformance-report.mjs" list "$WORK/list.json" "$FILTER" > "$WORK/specs.txt" || exit 1
total=$(wc -l < "$WORK/specs.txt")
echo "[Conformance] specs to run: $total"
[ "$total" -gt 0 ] || exit 1

run_one() { # index attempt
  local i=$1 a=$2 name re t0 rc limit=$SPEC_TIMEOUT_S
  name=$(sed -n "${i}p" "$WORK/specs.txt")
  case $name in *'[Slow]'*) limit=$SLOW_TIMEOUT_S ;; esac
  re=$(node "$ROOT/scripts/conformance-report.mjs" regexp "$name")
  ( flock 9; sleep "$LAUNCH_GAP_S" ) 9>"$WORK/launch.lock"
  t0=$(date +%s)
  timeout -k 10 $((limit + 60)) "$E2E_TEST" --ginkgo.focus="$re" \
    --ginkgo.timeout="${limit}s" --ginkgo.no-color --ginkgo.v "${E2E_FLAGS[@]}" \
    > "$WORK/r/$i.$a.log" 2>&1
  rc=$?
  echo "$i $a $rc $(( $(date +%s) - t0 ))" >> "$WORK/done.txt"
}
export -f run_one
export WORK ROOT E2E_TEST SPEC_TIMEOUT_S SLOW_TIMEOUT_S LAUNCH_GAP_S=${LAUNCH_GAP_S:-1}
export E2E_FLAGS_STR="${E2E_FLAGS[*]}"
# arrays do not cross `bash -c`: rebuild them there
run_one_wrapped() { read -r -a E2E_FLAGS <<< "$E2E_FLAGS_STR"; run_one "$@"; }
export -f run_one_wrapped

serial() { # reads indices, writes those whose spec is [Serial] or [Disruptive] to fd 3, others to 1
  while read -r i; do
    case $(sed -n "${i}p" "$WORK/specs.txt") in *'[Serial]'* | *'[Disruptive]'*) echo "$i" >&3 ;; *) echo "$i" ;; esac
  done
}
t0=$(date +%s)
seq 1 "$total" | serial > "$WORK/par.txt" 3> "$WORK/serial.txt"
xargs -r -P "$JOBS" -I{} bash -c 'run_one_wrapped {} 1' < "$WORK/par.txt"
echo "pass 1: parallel specs done in $(( $(date +%s) - t0 )) s; $(wc -l < "$WORK/serial.txt") serial ones next"
xargs -r -P 1 -I{} bash -c 'run_one_wrapped {} 1' < "$WORK/serial.txt"
echo "pass 1 done in $(( $(date +%s) - t0 )) s"

# 3. a second try, at lower concurrency, for what failed before its timeout
node "$ROOT/scripts/conformance-report.mjs" retry "$WORK" "$((SPEC_TIMEOUT_S - 20))" > "$WORK/retry.txt"
if [ -s "$WORK/retry.txt" ]; then
  echo "retrying $(wc -l < "$WORK/retry.txt") fast failures"
  serial < "$WORK/retry.txt" > "$WORK/retry-par.txt" 3> "$WORK/retry-serial.txt"
  xargs -r -P "$RETRY_JOBS" -I{} bash -c 'run_one_wrapped {} 2' < "$WORK/retry-par.txt"
  xargs -r -P 1 -I{} bash -c 'run_one_wrapped {} 2' < "$WORK/retry-serial.txt"
fi

# 4. the report
# -v 2 makes nanokube say which pods/log answers were generated lines: the report uses it.
node "$ROOT/scripts/conformance-report.mjs" report "$WORK" "$OUT" "$REF_RESULTS" || exit 1
echo "report: $OUT; logs: $WORK/r; run took $(( $(date +%s) - t0 )) s"

#!/usr/bin/env bash
# Runs the test suite (XCTest). Corpus tests read ../shared/corpus through DARKROOM_CORPUS (they skip
# when it is absent, and fail under CI=true, as do tests missing the darkroom binary or a tool). Queue tests use the PostgreSQL server at DARKROOM_TEST_POSTGRES; unless it is
# set, a private server is started (scripts/postgres-test-server.sh) and stopped at the end.
# Builds with the package's Queue trait (PostgreSQL catalog and work queue), which a plain
# `swift build` leaves out, so that CI builds and tests everything. Ends with a plain
# "N passed, N failed, N skipped" line.
set -uo pipefail
cd "$(dirname "$0")/.."
export DARKROOM_CORPUS="${DARKROOM_CORPUS:-$(cd .. && pwd)/shared/corpus}"
log=$(mktemp)
postgres_started=""
cleanup() {
  rm -f "$log"
  [ -z "$postgres_started" ] || scripts/postgres-test-server.sh release $$ >/dev/null
}
trap cleanup EXIT
if [ -z "${DARKROOM_TEST_POSTGRES:-}" ]; then
  if DARKROOM_TEST_POSTGRES="$(scripts/postgres-test-server.sh start $$)"; then
    export DARKROOM_TEST_POSTGRES
    postgres_started=1
  else
    echo "warning: the test PostgreSQL server did not start; queue tests will fail" >&2
  fi
fi
swift test --disable-swift-testing --traits Queue "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# XCTest's last line: "Executed N tests, with F failures (U unexpected)" or, when tests were skipped,
# "Executed N tests, with S tests skipped and F failures (U unexpected)".
summary=$(grep -E "Executed [0-9]+ tests?, with " "$log" | tail -1)
if [ -n "$summary" ]; then
  total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?,.*/\1/')
  skipped=$(echo "$summary" | sed -nE 's/.*with ([0-9]+) tests? skipped.*/\1/p')
  skipped=${skipped:-0}
  # XCTest counts failed assertions; count failed tests (each ends with "Test Case '...' failed").
  failed=$(grep -cE "^Test Case '.*' failed \(" "$log")
  echo
  echo "$((total - failed - skipped)) passed, $failed failed, $skipped skipped"
elif [ "$status" -eq 0 ]; then
  echo "error: no XCTest summary found in the output" >&2
  status=1
fi
exit "$status"

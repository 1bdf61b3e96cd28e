#!/usr/bin/env bash
# Runs the test suite (XCTest). Corpus tests read ../shared/corpus through DARKROOM_CORPUS (they skip
# when it is absent, and fail under CI=true, as do tests missing the darkroom binary or a tool). Queue tests use the PostgreSQL server at DARKROOM_TEST_POSTGRES; unless it is
# set, a private server is started (scripts/postgres-test-server.sh) and stopped at the end.
# Builds with the package's Queue trait (PostgreSQL catalog and work queue), which a plain
# `swift build` leaves out, and its Studio trait (collages, time-lapses, the photo book, export: on by
# default, but naming traits replaces the default ones), so that CI builds and tests everything. Ends with a plain
# "N passed, N failed, N skipped" line.
#
# A test process that dies leaves a core dump in .build/cores, and every thread's backtrace is
# printed (scripts/backtraces.sh, with gdb). Where the kernel puts cores is kernel.core_pattern: a
# relative name ("core", the default) is the dying process's working directory, this folder, from
# which cores are moved; an absolute path or a pipe is replaced by .build/cores for the run when
# /proc/sys/kernel/core_pattern is writable under CI=true, and otherwise said where they went.
set -uo pipefail
cd "$(dirname "$0")/.."
export DARKROOM_CORPUS="${DARKROOM_CORPUS:-$(cd .. && pwd)/shared/corpus}"
log=$(mktemp)
since=$(mktemp)  # cores newer than this are this run's
cores="$PWD/.build/cores"
mkdir -p "$cores"
postgres_started=""
core_pattern_was=""
cleanup() {
  rm -f "$log" "$since"
  [ -z "$postgres_started" ] || scripts/postgres-test-server.sh release $$ >/dev/null
  [ -z "$core_pattern_was" ] || echo "$core_pattern_was" > /proc/sys/kernel/core_pattern
}
trap cleanup EXIT
ulimit -c unlimited 2>/dev/null || ulimit -c "$(ulimit -H -c)" 2>/dev/null || true
[ "$(ulimit -c)" != 0 ] || echo "warning: core dumps are off (ulimit -c 0) and cannot be turned on" >&2
pattern=$(cat /proc/sys/kernel/core_pattern 2>/dev/null || echo core)
case "$pattern" in
  /* | "|"*)
    if [ "${CI:-}" = true ] && echo "$cores/core.%e.%p" 2>/dev/null > /proc/sys/kernel/core_pattern; then
      core_pattern_was=$pattern
    else
      echo "note: core dumps go where kernel.core_pattern says ($pattern), not to .build/cores" >&2
    fi ;;
esac
if [ -z "${DARKROOM_TEST_POSTGRES:-}" ]; then
  if DARKROOM_TEST_POSTGRES="$(scripts/postgres-test-server.sh start $$)"; then
    export DARKROOM_TEST_POSTGRES
    postgres_started=1
  else
    echo "warning: the test PostgreSQL server did not start; queue tests will fail" >&2
  fi
fi
swift test --disable-swift-testing --traits Studio,Queue "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# Cores of processes that died during the run: moved from here into .build/cores, then their backtraces.
find . -maxdepth 1 -type f -name 'core*' -newer "$since" -exec mv {} "$cores/" \;
mapfile -t dumped < <(find "$cores" -type f -newer "$since")
if [ ${#dumped[@]} -gt 0 ]; then
  echo
  echo "${#dumped[@]} core dump(s) in .build/cores:"
  scripts/backtraces.sh "${dumped[@]}"
fi
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

#!/usr/bin/env bash
# Prints every thread's backtrace of each core dump given (gdb -batch -ex 'thread apply all bt'), with
# the program that dumped it, read from the core itself (its AT_EXECFN: the command line the core
# records is cut at 80 characters): the test bundle, the darkroom binary or import-stress.
#
#   scripts/backtraces.sh CORE...
set -uo pipefail
if ! command -v gdb >/dev/null; then
  echo "backtraces: gdb is not installed (scripts/setup.sh installs it); cores kept: $*" >&2
  exit 1
fi
for core in "$@"; do
  program=$(gdb -batch -c "$core" -ex 'info auxv' 2>/dev/null | sed -nE 's/.*AT_EXECFN.*"(.*)"$/\1/p' | head -1)
  echo "=== $core (${program:-program unknown}): every thread's backtrace"
  if [ -n "$program" ] && [ -x "$program" ]; then
    # gdb's complaints about Swift's debug information go to stderr: dropped.
    gdb -batch -ex 'set pagination off' -ex 'thread apply all bt' "$program" "$core" 2>/dev/null | grep -v '^\[New LWP'
  else
    gdb -batch -ex 'set pagination off' -ex 'thread apply all bt' -c "$core" 2>/dev/null | grep -v '^\[New LWP'
  fi
done

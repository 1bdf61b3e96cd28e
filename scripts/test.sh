#!/usr/bin/env bash
# Runs the test suite. Corpus tests read ../shared/corpus through DARKROOM_CORPUS (skipped when absent).
set -euo pipefail
cd "$(dirname "$0")/.."
export DARKROOM_CORPUS="${DARKROOM_CORPUS:-$(cd .. && pwd)/shared/corpus}"
exec swift test "$@"

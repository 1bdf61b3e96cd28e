#!/usr/bin/env bash
# Regenerates the README's stage option tables from the stages' declarations
# (`darkroom stages --markdown`), between its two markers. A test keeps them equal.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${DARKROOM_BIN:-.build/debug/darkroom}"
python3 - "$bin" <<'PY'
import subprocess, sys
tables = subprocess.run([sys.argv[1], "stages", "--markdown"], check=True, capture_output=True, text=True).stdout
readme = open("README.md").read()
start = "<!-- stage options: darkroom stages --markdown -->\n"
end = "<!-- end of stage options -->"
a = readme.index(start) + len(start)
b = readme.index(end)
open("README.md", "w").write(readme[:a] + tables + readme[b:])
PY

#!/usr/bin/env bash
# Instructions per random round (valgrind callgrind: exact, unmoved by machine noise).
#   bash bench/instructions.sh            # reference, api and playout
# Needs valgrind and the package importable (pip install -e . or PYTHONPATH=src).
set -euo pipefail
cd "$(dirname "$0")"
py=$(python3 -c 'import sys; print(sys.executable)')  # the real binary, not a shim
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" workload.py "$1" "$2" 2>&1 |
    grep -o 'Collected : [0-9]*' | awk '{print $3}'
}
for mode in "${@:-reference api playout}"; do
  for m in $mode; do
    base=$(count "$m" 0)
    full=$(count "$m" 200)
    echo "$m: $(((full - base) / 200)) instructions per round"
  done
done

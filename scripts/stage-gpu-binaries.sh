#!/usr/bin/env bash
# Builds the test binaries, the criterion bench and the release main job here
# (no GPU needed) and copies them, stripped, into .carry/ for a GPU machine
# without Rust, where scripts/gpu-check.sh runs them, with the Python scripts
# it calls (the PyTorch peers and their comparison when present). The
# binaries need only glibc and the driver's libcuda.so.1 there.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .carry && mkdir -p .carry/tests .carry/benches
# Prints the executables of the given target kind from cargo's JSON messages.
executables() {
    python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and sys.argv[1] in m["target"]["kind"]:
        print(m["executable"])' "$1"
}
cargo test --no-run --message-format=json 2>/dev/null | executables test | while read -r exe; do
    strip --strip-debug -o ".carry/tests/$(basename "$exe" | sed 's/-[0-9a-f]*$//')" "$exe"
done
cargo bench --no-run --message-format=json 2>/dev/null | executables bench | while read -r exe; do
    strip --strip-debug -o ".carry/benches/$(basename "$exe" | sed 's/-[0-9a-f]*$//')" "$exe"
done
cargo build --release
strip --strip-debug -o .carry/quant-kernels target/release/quant-kernels
cp scripts/gpu-check.sh scripts/device-ab.sh scripts/torch_quantize_semantics.py .carry/
for script in scripts/torch_peers.py scripts/compare.py; do
    if [ -f "$script" ]; then cp "$script" .carry/; else echo "note: $script not present, not staged"; fi
done
ls -la .carry .carry/tests .carry/benches

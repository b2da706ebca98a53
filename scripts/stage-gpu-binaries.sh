#!/usr/bin/env bash
# Builds the test binaries and the release main job here (no GPU needed) and
# copies them, stripped, into .carry/ for a GPU machine without Rust, where
# scripts/gpu-check.sh runs them. The binaries need only glibc and the
# driver's libcuda.so.1 there.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .carry && mkdir -p .carry/tests
cargo test --no-run --message-format=json 2>/dev/null \
    | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "test" in m["target"]["kind"]:
        print(m["executable"])' \
    | while read -r exe; do
        name=$(basename "$exe" | sed 's/-[0-9a-f]*$//')
        strip --strip-debug -o ".carry/tests/$name" "$exe"
    done
cargo build --release
strip --strip-debug -o .carry/quant-kernels target/release/quant-kernels
cp scripts/gpu-check.sh scripts/torch_quantize_semantics.py .carry/
ls -la .carry .carry/tests

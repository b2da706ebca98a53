#!/usr/bin/env bash
# Builds a variant for an A/B on a GPU machine: HEAD with the given patches
# applied, in a worktree beside this checkout (target/variant-src), and
# stages its main job stripped and compressed as .carry/qk-NAME.xz, and with
# `--test T` the test binary T as .carry/T-NAME.xz (scripts/variant-tests.sh
# runs its GPU tests and memcheck there; scripts/device-ab.sh the A/B).
# Variants share one target folder (target/variant-build), so a second
# variant rebuilds only what its patches touch (about 1-1.5 min on 2
# cores). With ptxas where .ci/run puts it, prints the sm_90a entry points
# over the spill budget: a variant that spills is a different experiment.
# HEAD itself (no patch) is the usual base: `scripts/stage-variant.sh base`.
# Usage: scripts/stage-variant.sh NAME [--test T]... [PATCH]...
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
name=${1:?usage: scripts/stage-variant.sh NAME [--test T]... [PATCH]...}
shift
tests=() patches=()
while [ $# -gt 0 ]; do
    case $1 in
        --test) tests+=("${2:?--test needs a test name}"); shift 2 ;;
        *) patches+=("$(realpath "$1")"); shift ;;
    esac
done
src=$repo/target/variant-src
export CARGO_TARGET_DIR=$repo/target/variant-build
export CUDA_LIBRARY_PATH=${CUDA_LIBRARY_PATH:-$repo/target/ci/cuda}
[ -d "$src" ] || git worktree add --detach -q "$src" HEAD
cd "$src"
git checkout -q --detach "$(git -C "$repo" rev-parse HEAD)" && git reset -q --hard && git clean -qfd
for patch in "${patches[@]}"; do git apply "$patch"; done
mkdir -p "$repo/.carry"
cp "$repo/scripts/device-ab.sh" "$repo/scripts/variant-tests.sh" "$repo/.carry/"
cargo build --release -q
strip --strip-debug -o "$repo/.carry/qk-$name" "$CARGO_TARGET_DIR/release/quant-kernels"
xz -9 -T2 -f "$repo/.carry/qk-$name"
for test in "${tests[@]}"; do
    # The test target's own executable (cargo also lists the main binary it builds for the tests).
    exe=$(cargo test -q --no-run --test "$test" --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"] and m["target"]["name"] == sys.argv[1]:
        print(m["executable"])' "$test")
    strip --strip-debug -o "$repo/.carry/$test-$name" "$exe"
    xz -9 -T2 -f "$repo/.carry/$test-$name"
done
ptxas=$repo/target/ci/nvcc/nvidia/cu13/bin/ptxas
if [ -x "$ptxas" ]; then
    ptx=$(mktemp -d)
    "$CARGO_TARGET_DIR/release/quant-kernels" ptx "$ptx" >/dev/null
    "$ptxas" -arch=sm_90a -O3 -v "$ptx/quant_kernels_sm_90a.ptx" -o /dev/null 2>&1 |
        python3 "$repo/scripts/ptxas_spills.py" sm_90a "$repo/scripts/ptxas-spill-budget.txt" | tail -1 || true
    rm -r "$ptx"
fi
git reset -q --hard && git clean -qfd
echo "staged .carry/qk-$name.xz${tests[*]:+ and ${tests[*]/%/-$name.xz}}"

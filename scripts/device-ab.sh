#!/usr/bin/env bash
# On a GPU machine, from the folder scripts/stage-variant.sh filled
# (.carry/): an A/B of builds on the report's cases. Decompresses
# qk-BUILD.xz for each build, has the driver compile every build's PTX at
# once (the first process of a build waits some 40 s for it; the driver's
# cache serves the later ones), then runs `qk-BUILD bench --kernel
# "FILTER"` for each build in ROUNDS rounds, in the given order and then
# reversed, one round after another, so that a drift over the call falls
# on every build alike. A run that would start after DEADLINE seconds
# (counted from START, or from this script's start) is skipped and logged
# as such. Appends to LOG under `### BUILD FILTER (at N s)` headers, the
# form scripts/ab_table.py reads.
# Usage: [START=epoch] device-ab.sh LOG DEADLINE ROUNDS "FILTER" BUILD...
set -uo pipefail
log=$(realpath -m "$1") deadline=$2 rounds=$3 filter=$4
cd "$(dirname "$0")"
shift 4
builds=("$@")
start=${START:-$(date +%s)}
elapsed() { echo $(($(date +%s) - start)); }
export CUDA_CACHE_MAXSIZE=4294967296 # every build's compiled module stays cached
for b in "${builds[@]}"; do
    [ -x "qk-$b" ] || { xz -dc "qk-$b.xz" >"qk-$b" && chmod +x "qk-$b"; } || exit 1
    [ -n "$(ls "/tmp/ab-warm-$b".* 2>/dev/null)" ] && continue
    timeout 150 "./qk-$b" bench --kernel "add_mul_exp_v3_f32 100K" --json "/tmp/ab-warm-$b.json" \
        --png "/tmp/ab-warm-$b.png" >"/tmp/ab-warm-$b.log" 2>&1 &
done
wait
echo "builds compiled at $(elapsed) s" >>"$log"
order=("${builds[@]}")
for ((round = 0; round < rounds; round++)); do
    for b in "${order[@]}"; do
        if [ "$(elapsed)" -gt "$deadline" ]; then echo "$b $filter not run: time" >>"$log"; continue; fi
        echo "### $b $filter (at $(elapsed) s)" >>"$log"
        timeout 120 "./qk-$b" bench --kernel "$filter" --json /tmp/ab.json --png /tmp/ab.png 2>&1 |
            grep -E "graph cold|rror" | grep -v Memcpy >>"$log"
    done
    reversed=()
    for ((i = ${#order[@]} - 1; i >= 0; i--)); do reversed+=("${order[i]}"); done
    order=("${reversed[@]}")
done

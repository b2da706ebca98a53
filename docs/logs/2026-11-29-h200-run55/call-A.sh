#!/bin/bash
# Run 55 call A (H200).
# 1. Run 54's untimed patch: `tx24` is HEAD d1aa212 with
#    v23-v24-tma-activations.patch (versions 23 and 24 copy their
#    activations with the TMA unit, as version 19 does since run 54).
#    A/B against HEAD (`base`), three rounds, bf16, G = 128: version 23 at
#    M = 16 and version 24 at M = 32. Predicted: 0.5-4% faster (run 54
#    call B's `noact` probe bounds it: 0.6-4.3% at 32 rows, up to 3.6% at
#    16), least at M = 16 where the activations are 16 rows.
#    `solo` (probe-solo.patch, wrong outputs by design) is tx24 with only
#    producer thread 0 at work: its TMA copies and its own row's
#    constants; the other 255 producer threads return at once. It bounds
#    what a producer of TMA copies alone (the constants too, from an array
#    converted at load time) could give. Predicted: 10-20% faster than
#    base at M = 16 and 32 on the large shapes (run 54 call B: the probes'
#    gains went with the instructions they took away, and the producers
#    issue about a quarter of a step's instructions).
#    Then tx24's int4 GPU tests and memcheck of its 32-row tile test.
# 2. Run 54's left-over check of HEAD (version 19's TMA activations):
#    synccheck of sixty_four_row_tile_ragged, then racecheck of it in
#    three slices of 36 version-19 launches each (m = 33, 64, 139; the
#    test launches version 19 108 times, f16 and bf16), each capped so the
#    call ends by about 560 s.
cd .carry
L=$OUT && mkdir -p $L
START=$(date +%s); export START
el() { echo $(( $(date +%s) - START )); }
{ date -u; nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader; } | tee $L/device-A.txt
for r in 1 2 3; do
    ./device-ab.sh $L/ab-A.log 230 1 "_bf16 v23 16x" base tx24 solo
    ./device-ab.sh $L/ab-A.log 230 1 "_bf16 v24 32x" solo tx24 base
done
echo "A/B done at $(el) s" | tee -a $L/device-A.txt
./variant-tests.sh $L/device-A.txt int4_linear tx24 gpu::thirty_two_row_tile_ragged
echo "tx24 tests done at $(el) s" | tee -a $L/device-A.txt
T=./int4_linear-base
xz -dc $T.xz > $T && chmod +x $T
compute-sanitizer --help > $L/sanitizer-help.txt 2>&1
export REQUIRE_GPU=1
timeout 120 compute-sanitizer --tool synccheck $T --exact gpu::sixty_four_row_tile_ragged > $L/sanitizer-synccheck-sixty_four_row_tile_ragged.log 2>&1
echo "synccheck exit $? at $(el) s: $(grep -E 'SUMMARY|test result' $L/sanitizer-synccheck-sixty_four_row_tile_ragged.log | tr '\n' ' ')" | tee -a $L/device-A.txt
for skip in 0 36 72; do
    left=$(( 560 - $(el) )); [ $left -gt 150 ] && left=150
    [ $left -lt 20 ] && { echo "racecheck slice $skip skipped at $(el) s" | tee -a $L/device-A.txt; continue; }
    log=$L/sanitizer-racecheck-sixty_four_row_tile_ragged-skip$skip.log
    timeout $left compute-sanitizer --tool racecheck --kernel-name kns=int4_linear_v19 --launch-skip $skip --launch-count 36 \
        $T --exact gpu::sixty_four_row_tile_ragged > $log 2>&1
    echo "racecheck v19 launches $skip+36 exit $? at $(el) s (cap $left): $(grep -E 'SUMMARY|test result|rror' $log | head -5 | tr '\n' ' ')" | tee -a $L/device-A.txt
done
date -u >> $L/device-A.txt

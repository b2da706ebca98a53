cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } | tee $L/tests.log
for t in add_mul_exp quantize_int8 raw_launch graph ptx; do tests/$t >> $L/tests.log 2>&1; done; grep -E "test result|FAILED|panicked" $L/tests.log
STEPS=sanitizer SANITIZE_RUNS="memcheck:add_mul_exp memcheck:quantize_int8 racecheck:add_mul_exp racecheck:quantize_int8 memcheck:raw_launch memcheck:graph" timeout 300 ./gpu-check.sh /tmp/san > /dev/null 2>&1; cp /tmp/san/checks.log $L/sanitizer.log; grep -E "^--|SUMMARY|test result|exit" $L/sanitizer.log

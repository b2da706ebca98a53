cd .carry && tar xJf bins.tar.xz && L=$OUT && export REQUIRE_GPU=1
(tests/add_mul_exp; tests/quantize_int8) > $L/tests.log 2>&1; grep -E "test result|FAILED|panicked" $L/tests.log | head
./quant-kernels bench --kernel add_mul_exp_v3 --sweep --json $L/a.json --png /tmp/a.png > $L/sweep.log 2>&1
./quant-kernels bench --kernel quantize_int8_v3 --sweep --json $L/q.json --png /tmp/q.png >> $L/sweep.log 2>&1

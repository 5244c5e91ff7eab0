#!/usr/bin/env bash
# Session 20, call 10: the SM clock while a 512-token step runs waited for (BenchmarkDecodeStep all) and queued (all-queued), while ember bench's prefill runs, and while llama-bench's pp512 runs (8B Q4_0; nvidia-smi sampled every 20 ms; ember 9b17733).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/s9/head.test.xz > $D/head.test; xz -dc .dev29/s9/ember.xz > $D/ember; chmod +x $D/head.test $D/ember
tar xJf .dev29/llama-vulkan.tar.xz -C $D
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
clocks() { nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu --format=csv,noheader -lms 20 > $OUT/clk-$1.csv & CP=$!; }
med() { python3 -c '
import sys,statistics
v=[float(l.split(",")[1].split()[0]) for l in open(sys.argv[1]) if "MHz" in l]
busy=[float(l.split(",")[1].split()[0]) for l in open(sys.argv[1]) if "MHz" in l and int(l.split(",")[4].split()[0])>50]
print(sys.argv[1].split("/")[-1], "samples", len(v), "SM MHz median (util>50%)", statistics.median(busy) if busy else "-", "min", min(busy) if busy else "-")' $1; }
for r in 1 2; do
  for c in all all-queued; do
    clocks $c-$r; EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_TOKENS=512 $D/head.test -test.run '^$' -test.bench "DecodeStep/$c\$" -test.benchtime 20x 2>&1 | grep -E 'ns/op|FAIL|panic'; kill $CP; wait $CP 2>/dev/null; med $OUT/clk-$c-$r.csv
  done
  clocks ember-$r; $D/ember bench --backend webgpu --model $W/8b.gguf -p 512 -n 1 -r 5 2>&1 | grep -E "^rep" | tr '\n' ' '; echo; kill $CP; wait $CP 2>/dev/null; med $OUT/clk-ember-$r.csv
  clocks llama-$r; $D/llama-vulkan/llama-bench -m $W/8b.gguf -p 512 -n 0 -r 5 -ngl 99 2>/dev/null | grep pp512; kill $CP; wait $CP 2>/dev/null; med $OUT/clk-llama-$r.csv
done
echo "end at $SECONDS s"

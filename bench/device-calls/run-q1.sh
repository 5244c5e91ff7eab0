#!/usr/bin/env bash
# Session 18, call 1 (issue 27): the prototype AVX2 Q8_0 two-column kernel (activation as the sign source, |a| and scales
# precomputed) against the current one on the Xeon, single-threaded; then the Q8_0 cell at 2 threads held to AVX2, R=5.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q1
(cd $X && xz -dc ember.xz > ember-cpu && xz -dc q.test.xz > q.test && chmod +x ember-cpu q.test && tar xJf llama-cpu.tar.xz) || exit 1
lscpu | grep -i "model name\|^CPU(s)"
for i in 1 2 3; do taskset -c 2 $X/q.test -test.run XXX -test.bench ProtoQ80 -test.benchtime 300000x -test.count 3 | grep Proto; done
echo "micro at $((SECONDS - START)) s"
B=$X/ember-cpu
W=/tmp/m27; mkdir -p $W
$B synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/llama3.2-1b-Q8_0.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
ISA=avx2 EMBER=$B WORK=$W RESULTS=$OUT/avx2-2.jsonl LLAMA_BENCH=$X/llama-cpu/llama-bench P=128 N=32 R=5 THREADS="2" MODELS="llama3.2:1b/Q8_0" timeout 400 bash bench/cpu.sh >/dev/null 2>$OUT/avx2-2.err || echo "cut: $(tail -c 300 $OUT/avx2-2.err)"
bash bench/cpu.sh --table $OUT/avx2-2.jsonl
echo "end at $((SECONDS - START)) s"

#!/usr/bin/env bash
# Session 18, call 2 (issue 27): where ember's AVX2 Q8_0 prefill loses on the Xeon: the model-shaped product loop
# (old and prototype kernels, row blocks of 8/16/32), ember at 1 and 2 threads with a profile, llama-bench at 1 and 2.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q2
(cd $X && xz -dc ember.xz > ember-cpu && xz -dc q.test.xz > q.test && chmod +x ember-cpu q.test && tar xJf llama-cpu.tar.xz) || exit 1
lscpu | grep -i "model name\|^CPU(s)\|thread\|core\|socket\|L1d\|L2\|L3\|flags" | cut -c1-300
B=$X/ember-cpu
W=/tmp/m27; mkdir -p $W
$B synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/q8.gguf >/dev/null 2>&1 &
S=$!
taskset -c 3 $X/q.test -test.run XXX -test.bench 'ProtoQ80Model' -test.benchtime 3x -test.count 2 | grep Proto
wait $S
echo "micro+synth at $((SECONDS - START)) s"
for t in 1 2; do
  EMBER_CPU=avx2 $B bench --backend cpu --model $W/q8.gguf -p 128 -n 1 -r 3 --threads $t --cpuprofile $OUT/ember-t$t.prof 2>&1 | tail -2
  $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 3 -t $t 2>&1 | grep -v "^$" | tail -2
done
echo "end at $((SECONDS - START)) s"

#!/usr/bin/env bash
# Session 18, call 12 (issue 27): the interleaved Q8_0 product alone on one and two workers (BenchmarkInterleavedQ8_0Cols,
# unpinned and on cores 4,5) beside ember's and llama-bench's prefill at one and two threads, three rounds.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q12
(cd $X && xz -dc q.test.xz > q.test && xz -dc ember.xz > ember && chmod +x q.test ember && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/q8.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
for round in 1 2 3; do
  echo "## round $round"
  EMBER_CPU=avx2 $X/q.test -test.run XXX -test.bench InterleavedQ8_0Cols -test.benchtime 3x | grep Bench
  EMBER_CPU=avx2 taskset -c 4,5 $X/q.test -test.run XXX -test.bench InterleavedQ8_0Cols -test.benchtime 3x | grep Bench | sed 's/^/pinned /'
  for t in 1 2; do
    echo -n "ember $t: "; EMBER_CPU=avx2 $X/ember bench --backend cpu --model $W/q8.gguf -p 128 -n 1 -r 3 --threads $t 2>&1 | grep " pp128" | awk '{print $6, $7, $8, $9}'
    echo -n "llama $t: "; $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 3 -t $t 2>&1 | grep pp128 | awk -F'|' '{print $8}'
  done
done
echo "end at $((SECONDS - START)) s"

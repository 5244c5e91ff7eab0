#!/usr/bin/env bash
# Session 18, call 11 (issue 27): prefill products in finer units (ember-fine: 16 row ranges a worker instead of 4, so a
# worker slowed by the shared host hands more of the product to the other) against b74d79e's tree, 1B Q8_0 pp128 at
# 2 threads held to AVX2, unpinned, alternated with llama-bench over three rounds.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q11
(cd $X && xz -dc ember.xz > ember && xz -dc ember-fine.xz > ember-fine && chmod +x ember ember-fine && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/q8.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
e() { EMBER_CPU=avx2 $1 bench --backend cpu --model $W/q8.gguf -p 128 -n 1 -r 3 --threads 2 2>&1 | grep " pp128" | awk '{print $6, $7, $8, $9}'; }
l() { $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 3 -t 2 2>&1 | grep pp128 | awk -F'|' '{print $8}'; }
for round in 1 2 3; do
  echo "## round $round"
  echo -n "ember: "; e $X/ember
  echo -n "ember-fine: "; e $X/ember-fine
  echo -n "llama: "; l
  echo -n "ember-fine: "; e $X/ember-fine
  echo -n "ember: "; e $X/ember
done
echo "end at $((SECONDS - START)) s"

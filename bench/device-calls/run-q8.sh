#!/usr/bin/env bash
# Session 18, call 8 (issue 27): why ember's 2-thread prefill moves with placement: unpinned (GOMAXPROCS 16), GOMAXPROCS=2,
# workers locked to their OS threads (ember-lock), both tools pinned to cores 4,5; 1B Q8_0 pp128, held to AVX2, alternated.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q8
(cd $X && xz -dc ember.xz > ember && xz -dc ember-lock.xz > ember-lock && chmod +x ember ember-lock && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/q8.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
e() { EMBER_CPU=avx2 "$@" --backend cpu --model $W/q8.gguf -p 128 -n 1 -r 3 --threads 2 2>&1 | grep " pp128" | awk '{print $6, $7, $8}'; }
for round in 1 2; do
  echo "## round $round"
  echo -n "ember unpinned: "; e $X/ember bench
  echo -n "ember GOMAXPROCS=2: "; GOMAXPROCS=2 e $X/ember bench
  echo -n "ember-lock unpinned: "; e $X/ember-lock bench
  echo -n "ember taskset 4,5: "; e taskset -c 4,5 $X/ember bench
  echo -n "llama unpinned: "; $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 3 -t 2 2>&1 | grep pp128 | awk -F'|' '{print $8}'
  echo -n "llama taskset 4,5: "; taskset -c 4,5 $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 3 -t 2 2>&1 | grep pp128 | awk -F'|' '{print $8}'
done
echo "end at $((SECONDS - START)) s"

#!/usr/bin/env bash
# Session 18, call 9 (issue 27): ember's 2-thread Q8_0 prefill against the Go runtime's processor count: default (16),
# GOMAXPROCS=3 and 2, and workers locked to their threads (ember-lock) with 3; llama-bench unpinned between; three rounds.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q9
(cd $X && xz -dc ember.xz > ember && xz -dc ember-lock.xz > ember-lock && chmod +x ember ember-lock && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/q8.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
e() { EMBER_CPU=avx2 "$@" --backend cpu --model $W/q8.gguf -p 128 -n 1 -r 3 --threads 2 2>&1 | grep " pp128" | awk '{print $6, $7, $8}'; }
l() { $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 3 -t 2 2>&1 | grep pp128 | awk -F'|' '{print $8}'; }
for round in 1 2 3; do
  echo "## round $round"
  echo -n "ember default: "; e $X/ember bench
  echo -n "llama: "; l
  echo -n "ember GOMAXPROCS=3: "; GOMAXPROCS=3 e $X/ember bench
  echo -n "ember GOMAXPROCS=2: "; GOMAXPROCS=2 e $X/ember bench
  echo -n "llama: "; l
  echo -n "ember-lock GOMAXPROCS=3: "; GOMAXPROCS=3 e $X/ember-lock bench
done
echo "end at $((SECONDS - START)) s"

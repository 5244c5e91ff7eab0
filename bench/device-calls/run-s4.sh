#!/usr/bin/env bash
# Session 20, call 4: the batch and tiled products' grids with the token groups fastest ("ord", /tmp/v16, not committed) against a435c43 ("base"), again: ember bench --backend webgpu -p 512 -n 16 -r 2 on four synthetic files and the 8B's batch step at 16 and 64 sequences (BenchmarkDecodeStep all-queued), builds alternated twice.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for b in base ord; do xz -dc .dev29/s4/$b.test.xz > $D/$b.test; xz -dc .dev29/s4/ember-$b.xz > $D/ember-$b; chmod +x $D/$b.test $D/ember-$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in llama3.2:1b youtu-llm:2b llama3.1:8b; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
$D/ember-base synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 & P="$P $!"
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
q() { $D/$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 20x 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{print $3/1e6 " ms"}'; }
for r in 1 2; do
  for b in base ord; do
    for m in llama3.2-1b youtu-llm-2b llama3.1-8b llama3.1-8b-q4km; do
      echo "== $b $m: $($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js)"
    done
    for B in 16 64; do echo "== $b 8b B=$B: $(EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf EMBER_BENCH_BATCH=$B q $b)"; done
  done
  echo "at $SECONDS s"
done

#!/usr/bin/env bash
# Session 5, call 3: decode base (f9b136a) vs att (attention loads batched);
# decode step at batch 1/4/16 base vs tok8 (8 sequences a matmul_tokens
# workgroup); llama.cpp Vulkan's per-op times on the 8B (GGML_VK_PERF_LOGGER).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-*.xz .dev29/webgpu-*.test.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in llama3.1-8b glm-4.7-flash deepseek-v2-lite llama3.2-1b; do for r in 1 2; do for v in base att; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; done
echo "bench end at $SECONDS s"
cd gpu/webgpu
for b in 1 4 16; do for v in base tok8 base tok8; do
  echo "== batch $b $v: $(EMBER_BENCH_BATCH=$b EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf $D/webgpu-$v.test -test.run XXX -test.bench 'DecodeStep/all$' -test.benchtime 30x 2>&1 | grep -E '^Benchmark' | awk '{print $3/1000 " us"}')"
done; done
echo "batch end at $SECONDS s"
cd ../..
GGML_VK_PERF_LOGGER=1 $D/llama-vulkan/llama-bench -m $W/llama3.1-8b.gguf -p 0 -n 4 -r 1 -ngl 99 > /tmp/perf.txt 2>&1
grep -v "^|" /tmp/perf.txt | tail -45
echo "end at $SECONDS s"

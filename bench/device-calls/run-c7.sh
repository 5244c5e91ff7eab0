#!/usr/bin/env bash
# Session 5, call 7: pfa (prefill attention rewrite) vs ro2 (+ query heads sized
# to the model, read-only bindings), all five Q4_0 rows, + llama-bench Vulkan.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-*.xz .dev29/webgpu-ro2.test.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-pfa synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1), j.get("read_gbps", ""))'; }
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash; do
  for r in 1 2; do for v in pfa ro2; do
    echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  done; done
  echo "== $m vulkan: $($D/llama-vulkan/llama-bench -m $W/$m.gguf -p 512 -n 128 -r 2 -ngl 99 -o json 2>/dev/null | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])')"
done
echo "bench end at $SECONDS s"
cd gpu/webgpu
for m in glm-4.7-flash; do
echo "#### $m prefill 512"
EMBER_BENCH_TOKENS=512 EMBER_BENCH_MODEL=$W/$m.gguf $D/webgpu-ro2.test -test.run XXX -test.bench 'DecodeStep/(all$|only-)' -test.benchtime 4x -test.count 1 2>&1 | grep -E "^Benchmark" | awk '{k=0; for (i=4;i<NF;i++) if ($(i+1)=="kernels") k=$i; printf "%s %.0f us %s kernels\n", $1, $3/1000, k}' | sort -k2 -n -r | head -6
done
echo "end at $SECONDS s"

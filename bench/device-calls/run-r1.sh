#!/usr/bin/env bash
# Session 19, call 1: GLM's and Youtu's decode with q_a_norm folded into q_b (rmsnorm_matmul_round) against df50ddf, alternated, beside llama-bench Vulkan tg128.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for b in base new; do xz -dc .dev29/r1/ember-$b.xz > $D/ember-$b; done; chmod +x $D/ember-*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in youtu-llm:2b glm-4.7-flash; do $D/ember-new synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["decode_mean"],1), j.get("kernels_per_token", ""))'; }
lb() { $D/llama-vulkan/llama-bench -m $W/$1.gguf -p 0 -n 128 -r 2 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])'; }
for m in youtu-llm-2b glm-4.7-flash; do
  echo "== $m vulkan 1: $(lb $m)"
  for i in 1 2; do
    for b in base new; do
      echo "== $m $b: $($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
    done
  done
  echo "== $m vulkan 2: $(lb $m)"
  echo "at $SECONDS s"
done
grep -m1 "ggml_vulkan: 0 =" $W/lb.err
echo "end at $SECONDS s"

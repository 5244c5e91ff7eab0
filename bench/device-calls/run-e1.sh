#!/usr/bin/env bash
# Session 7, call 1: live-hoist (lh) against main's live-column test (lc), pp512 on the 8B and GLM;
# then the 8B's batch decode step (EMBER_BENCH_BATCH=1,4,16) by kernel class, webgpu.test at eaea375.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
V="lc lh"
D=/tmp/d; mkdir -p $D; for v in $V; do xz -dc .dev29/ember-$v.xz > $D/ember-$v; chmod +x $D/ember-$v; done
xz -dc .dev29/webgpu-main.test.xz > $D/webgpu.test; chmod +x $D/webgpu.test
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="llama3.1:8b glm-4.7-flash"
for s in $M; do $D/ember-lc synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for s in $M; do m=${s//:/-}; for v in $V; do
  echo "== $m $v: $(timeout 60 $D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "round $r at $SECONDS s"; done
for n in 1 4 16; do
  echo "== batch $n"
  EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf EMBER_BENCH_BATCH=$n timeout 150 $D/webgpu.test -test.run XXX -test.benchtime 30x \
    -test.bench 'DecodeStep/(all$|products$|no-products|no-attention|only-)' 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu" | awk '{print $1, $3, $4, $7, $8}'
  echo "at $SECONDS s"
done

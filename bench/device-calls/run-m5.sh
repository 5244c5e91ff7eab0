#!/usr/bin/env bash
# Session 15, call 5: a decode batch's latent attention in mla_step (the ropes, the latent's norm, the cache store and the
# scores in one dispatch, as a lone token's), mla against base 4920b6a (the grouped experts): GLM-4.7-Flash Q4_0 serving
# (bench/serve.sh, greedy, 128 tokens a stream, slots of 256) at 16 streams alternated twice and 64 once each, then the
# lone decode (ember bench -p 16 -n 128 -r 2) of each.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base mla; do xz -dc .dev29/m5/ember-$v.xz > $D/ember-$v; done
xz -dc .dev29/m5/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-mla synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/glm.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 100 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== glm $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for r in 1 2; do for v in mla base; do run $v 16; done; done
for v in mla base; do run $v 64; done
for v in mla base; do
  [ $SECONDS -lt 420 ] || break
  echo "$v lone: $($D/ember-$v bench --model $W/glm.gguf --backend webgpu -p 16 -n 128 -r 2 2>&1 | grep tg128) ($SECONDS s)"
done
echo "end at $SECONDS s"

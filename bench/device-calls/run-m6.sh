#!/usr/bin/env bash
# Session 15, call 6: the grouped experts (new = 4920b6a) against base ebed34c where a batch's expert runs are one pair
# (4 streams: 16 pairs over GLM's 64 experts, one expert_groups dispatch more a layer), and one stream: GLM-4.7-Flash
# Q4_0 serving (bench/serve.sh, greedy, 128 tokens a stream, slots of 256), 4 streams alternated twice, 1 stream once each.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base new; do xz -dc .dev29/m6/ember-$v.xz > $D/ember-$v; done
xz -dc .dev29/m6/loadgen.xz > $D/loadgen; chmod +x $D/*
W=/tmp/m; mkdir -p $W
$D/ember-new synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/glm.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 60 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== glm $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for r in 1 2; do for v in new base; do run $v 4; done; done
for v in new base; do [ $SECONDS -lt 200 ] && run $v 1; done
echo "end at $SECONDS s"

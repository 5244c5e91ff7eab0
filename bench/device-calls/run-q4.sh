#!/usr/bin/env bash
# Session 18, call 4 (issue 27): six AVX2 two-column Q8_0 kernels on the Xeon, single-threaded (BenchmarkProtoAll),
# the GGUF layout (llamafile's four row streams) and a padded interleaved layout beside the current one.
set -u
exec > >(tee $OUT/log.txt) 2>&1
X=$PWD/.dev29/q4
(cd $X && xz -dc q.test.xz > q.test && chmod +x q.test) || exit 1
taskset -c 5 $X/q.test -test.run TestProto -test.v | grep -v "^goos\|^goarch\|^pkg"
for i in 1 2 3; do taskset -c 5 $X/q.test -test.run XXX -test.bench 'ProtoAll/(8192|2048x)' -test.benchtime 2x -test.count 1 | grep Proto; done

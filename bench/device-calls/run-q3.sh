#!/usr/bin/env bash
# Session 18, call 3 (issue 27): four AVX2 two-column Q8_0 kernels on the Xeon, single-threaded (BenchmarkProtoAll).
set -u
exec > >(tee $OUT/log.txt) 2>&1
X=$PWD/.dev29/q3
(cd $X && xz -dc q.test.xz > q.test && chmod +x q.test) || exit 1
for i in 1 2; do taskset -c 5 $X/q.test -test.run TestProto -test.bench 'ProtoAll' -test.benchtime 2x -test.count 1 | grep -v "^goos\|^goarch\|^pkg"; taskset -c 5 $X/q.test -test.run XXX -test.bench 'ProtoAll/16x' -test.benchtime 200000x -test.count 2 | grep Proto; done

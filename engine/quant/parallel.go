package quant

import (
	"runtime"
	"sync"

	"github.com/emberllm/ember/engine/gguf"
)

// The k-quant encoders search dozens of candidate scales per group and run
// at around 10M values/s per core, so a large tensor is split across
// GOMAXPROCS goroutines. Blocks are independent, so the bytes are the same
// however the work is divided.

// slowEncoders are the types worth spreading over cores.
var slowEncoders = map[gguf.TensorType]bool{
	gguf.Q2_K: true, gguf.Q3_K: true, gguf.Q4_K: true, gguf.Q5_K: true, gguf.Q6_K: true,
}

// minBlocksPerWorker keeps each goroutine's share at a millisecond or more
// of work, far above the cost of starting it.
const minBlocksPerWorker = 32

func encodeBlocks(t gguf.TensorType, enc func([]float32, []byte), src []float32, dst []byte) {
	bs, ts := t.BlockSize(), t.TypeSize()
	nb := len(src) / bs
	workers := 1
	if slowEncoders[t] {
		workers = min(runtime.GOMAXPROCS(0), nb/minBlocksPerWorker)
	}
	if workers <= 1 {
		enc(src, dst)
		return
	}
	per := (nb + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < nb; lo += per {
		hi := min(nb, lo+per)
		wg.Go(func() { enc(src[lo*bs:hi*bs], dst[lo*ts:hi*ts]) })
	}
	wg.Wait()
}

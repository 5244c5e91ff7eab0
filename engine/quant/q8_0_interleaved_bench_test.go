package quant

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// BenchmarkInterleavedQ8_0Cols measures the interleaved Q8_0 product of a
// prefill as gpu/cpu runs it (blocks of 16 rows, each against 128 tokens
// four at a time through VecDotColsQ8_0x4, with side data), on one worker
// and on two that claim blocks from a shared counter, each locked to its
// thread: whether the kernel alone keeps its speed a worker at two
// threads, beside the engine's prefill at two threads.
func BenchmarkInterleavedQ8_0Cols(b *testing.B) {
	const N, K, T, blk = 8192, 2048, 128, 16
	r := rand.New(rand.NewPCG(5, 6))
	w := quantizedWeights(r, gguf.Q8_0, N, K)
	iw := make([]byte, len(w))
	InterleaveQ8_0(iw, w, N, K)
	acts, auxs := make([][]byte, T), make([][]byte, T)
	outs := make([][]float32, T)
	for t := range acts {
		acts[t] = make([]byte, ActType(gguf.Q8_0).RowBytes(K))
		QuantizeAct(gguf.Q8_0, randActivation(r, K), acts[t])
		auxs[t] = make([]byte, ColAuxBytes(gguf.Q8_0, K))
		ColAux(gguf.Q8_0, acts[t], 0, K/32, auxs[t])
		outs[t] = make([]float32, N)
	}
	rb := gguf.Q8_0.RowBytes(K)
	block := func(s int) {
		rows := iw[s*rb : (s+blk)*rb]
		for t := 0; t < T; t += Cols {
			var a, x [Cols][]byte
			var o [Cols][]float32
			for c := range a {
				a[c], x[c], o[c] = acts[t+c], auxs[t+c], outs[t+c][s:s+blk]
			}
			VecDotColsQ8_0x4(gguf.Q8_0, rows, blk, a, x, K, o)
		}
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				var next atomic.Int64
				var wg sync.WaitGroup
				for range workers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						runtime.LockOSThread()
						defer runtime.UnlockOSThread()
						for s := int(next.Add(blk)) - blk; s < N; s = int(next.Add(blk)) - blk {
							block(s)
						}
					}()
				}
				wg.Wait()
			}
			b.ReportMetric(float64(N*K*T)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
		})
	}
}

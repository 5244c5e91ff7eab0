//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// benchProgram times Run plus Sync of a compiled graph: one submission and
// the wait for it, as a decode step pays them.
func benchProgram(b *testing.B, be gpu.Backend, g *gpu.Graph, bytes int64) {
	p, err := be.Compile(g)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	var enc time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := p.Run(gpu.Params{}); err != nil {
			b.Fatal(err)
		}
		enc += time.Since(t0)
		if err := be.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	// The host's share: encoding and submitting, before the device starts.
	b.ReportMetric(float64(enc.Microseconds())/float64(b.N), "µs-run/op")
}

// randomWeights quantizes 64 random rows and repeats them: the bytes'
// values do not change a product's speed, and quantizing all of a large
// matrix takes seconds.
func randomWeights(b *testing.B, be gpu.Backend, typ gguf.TensorType, k, n int) gpu.Buffer {
	r := rand.New(rand.NewPCG(1, 2))
	m := min(n, 64)
	x := make([]float32, k*m)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	rows := make([]byte, typ.RowBytes(k)*m)
	if err := quant.Quantize(typ, x, rows); err != nil {
		b.Fatal(err)
	}
	data := make([]byte, typ.RowBytes(k)*n)
	for o := 0; o < len(data); o += len(rows) {
		copy(data[o:], rows)
	}
	w, err := be.Weight("w", typ, gpu.Shape4(k, n), data)
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkMatVec is one decode product of a 4096-wide row matrix; SetBytes
// is the weight bytes, so MB/s is the bandwidth the kernel reaches.
func BenchmarkMatVec(b *testing.B) {
	for _, typ := range []gguf.TensorType{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K} {
		b.Run(fmt.Sprintf("4096x14336/%s", typ), func(b *testing.B) {
			be := openB(b)
			defer be.Close()
			const k, n = 4096, 14336
			g := gpu.NewGraph("matvec", 1)
			in, _ := be.Alloc("in", gguf.F32, gpu.Shape4(k, 1))
			out, _ := be.Alloc("out", gguf.F32, gpu.Shape4(n, 1))
			g.Do(&gpu.MatMul{W: g.Bind("w", randomWeights(b, be, typ, k, n)), In: g.Bind("in", in), Out: g.Bind("out", out)})
			benchProgram(b, be, g, int64(typ.RowBytes(k)*n))
		})
	}
}

// BenchmarkMatVecChain is 16 such products in one step (one submission),
// so the time per product is the kernel's own, without the submission
// and the wait that BenchmarkMatVec also counts.
func BenchmarkMatVecChain(b *testing.B) {
	for _, typ := range []gguf.TensorType{gguf.F16, gguf.Q8_0, gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K} {
		b.Run(fmt.Sprintf("16x4096x14336/%s", typ), func(b *testing.B) { benchChain(b, typ, 4096, 14336) })
	}
}

// benchChain times 16 decode products of one k x n weight of type typ in
// one step.
func benchChain(b *testing.B, typ gguf.TensorType, k, n int) {
	const chain = 16
	be := openB(b)
	defer be.Close()
	g := gpu.NewGraph("matvec-chain", 1)
	in, _ := be.Alloc("in", gguf.F32, gpu.Shape4(k, 1))
	out, _ := be.Alloc("out", gguf.F32, gpu.Shape4(n, 1))
	w := g.Bind("w", randomWeights(b, be, typ, k, n))
	x, y := g.Bind("in", in), g.Bind("out", out)
	for range chain {
		g.Do(&gpu.MatMul{W: w, In: x, Out: y})
	}
	benchProgram(b, be, g, int64(typ.RowBytes(k)*n*chain))
}

// BenchmarkDispatches is a chain of 256 tiny dependent adds: the cost of
// a dispatch itself, which a decode step pays a few hundred times.
func BenchmarkDispatches(b *testing.B) {
	be := openB(b)
	defer be.Close()
	g := gpu.NewGraph("chain", 1)
	buf, _ := be.Alloc("x", gguf.F32, gpu.Shape4(256))
	x := g.Bind("x", buf)
	for range 256 {
		g.Do(&gpu.Add{A: x, B: x, Out: x})
	}
	benchProgram(b, be, g, 0)
}

// BenchmarkDispatchChains times chains of n adds of e elements: each
// reading the last one's output (dependent: a barrier before each),
// alternating between two buffers (pingpong), and each writing a buffer
// of its own from one never written (independent: no barrier between
// them). The slope between two chain lengths is what one more dispatch
// costs, without the submission and the wait, which both lengths pay.
func BenchmarkDispatchChains(b *testing.B) {
	for _, e := range []int{256, 1 << 16} {
		for _, kind := range []string{"dependent", "pingpong", "independent"} {
			for _, n := range []int{128, 512} {
				b.Run(fmt.Sprintf("%s/e%d/n%d", kind, e, n), func(b *testing.B) {
					be := openB(b)
					defer be.Close()
					g := gpu.NewGraph("chain", 1)
					alloc := func(name string) *gpu.Tensor {
						buf, err := be.Alloc(name, gguf.F32, gpu.Shape4(e))
						if err != nil {
							b.Fatal(err)
						}
						return g.Bind(name, buf)
					}
					x, y := alloc("x"), alloc("y")
					for i := range n {
						switch kind {
						case "dependent":
							g.Do(&gpu.Add{A: x, B: x, Out: x})
						case "pingpong":
							g.Do(&gpu.Add{A: x, B: x, Out: y})
							x, y = y, x
						default:
							g.Do(&gpu.Add{A: x, B: x, Out: alloc(fmt.Sprint("out", i))})
						}
					}
					benchProgram(b, be, g, 0)
				})
			}
		}
	}
}

// BenchmarkTopK picks a sampled decode token's candidates from a Qwen-sized
// vocabulary of random logits: the cost should hardly grow with K. A flat
// row, every value tied with the K-th, is the kernel's slowest path.
func BenchmarkTopK(b *testing.B) {
	const V = 151936
	r := rand.New(rand.NewPCG(3, 4))
	random, flat := make([]byte, 4*V), make([]byte, 4*V)
	for i := range V {
		binary.LittleEndian.PutUint32(random[4*i:], math.Float32bits(float32(3*r.NormFloat64())))
		binary.LittleEndian.PutUint32(flat[4*i:], math.Float32bits(-1.5))
	}
	for _, c := range []struct {
		row    string
		logits []byte
		K      int
	}{{"random", random, 40}, {"random", random, 200}, {"flat", flat, 200}} {
		b.Run(fmt.Sprintf("V%d/K%d/%s", V, c.K, c.row), func(b *testing.B) {
			be := openB(b)
			defer be.Close()
			in, _ := be.Alloc("logits", gguf.F32, gpu.Shape4(V, 1))
			if err := in.Write(0, c.logits); err != nil {
				b.Fatal(err)
			}
			ids, _ := be.Alloc("ids", gguf.I32, gpu.Shape4(c.K, 1))
			vals, _ := be.Alloc("vals", gguf.F32, gpu.Shape4(c.K, 1))
			g := gpu.NewGraph("topk", 1)
			g.Do(&gpu.TopK{In: g.Bind("logits", in), IDs: g.Bind("ids", ids), Vals: g.Bind("vals", vals), K: c.K})
			benchProgram(b, be, g, 4*V)
		})
	}
}

// BenchmarkMatVecShapes is BenchmarkMatVecChain on the decode products of
// llama3.2:1b (k x n: attention output, feed-forward up and down, the
// vocabulary head), to time each kind of product of a step on its own.
func BenchmarkMatVecShapes(b *testing.B) {
	for _, typ := range []gguf.TensorType{gguf.Q4_0, gguf.Q8_0} {
		for _, s := range [][2]int{{2048, 2048}, {2048, 8192}, {8192, 2048}, {2048, 128256}} {
			b.Run(fmt.Sprintf("16x%dx%d/%s", s[0], s[1], typ), func(b *testing.B) { benchChain(b, typ, s[0], s[1]) })
		}
	}
}

package quant

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/emberllm/ember/engine/gguf"
)

func protoAux(act []byte, n int) []byte {
	nb := n / 32
	x := make([]byte, 36*nb)
	for b := 0; b < nb; b++ {
		for j := 0; j < 32; j++ {
			v := int8(act[34*b+2+j])
			if v < 0 {
				v = -v
			}
			x[32*b+j] = byte(v)
		}
		f := math.Float32bits(f16at(act[34*b:], 0))
		x[32*nb+4*b], x[32*nb+4*b+1], x[32*nb+4*b+2], x[32*nb+4*b+3] = byte(f), byte(f>>8), byte(f>>16), byte(f>>24)
	}
	return x
}

func protoSetup(rows, n int, quantized bool) (iw []byte, acts, xs [2][]byte, w []byte) {
	r := rand.New(rand.NewPCG(1, 2))
	w = randWeights(r, gguf.Q8_0, rows, n)
	if quantized {
		w = quantizedWeights(r, gguf.Q8_0, rows, n)
	}
	iw = make([]byte, len(w))
	InterleaveQ8_0(iw, w, rows, n)
	for c := range acts {
		acts[c] = make([]byte, ActType(gguf.Q8_0).RowBytes(n))
		QuantizeAct(gguf.Q8_0, randActivation(r, n), acts[c])
		xs[c] = protoAux(acts[c], n)
	}
	return
}

func TestProtoAbs(t *testing.T) {
	const rows, n = 64, 2048
	iw, acts, xs, w := protoSetup(rows, n, true)
	var o [2][]float32
	o[0], o[1] = make([]float32, rows), make([]float32, rows)
	dotCols2Q8_0x4AbsAVX2(&iw[0], &acts[0][0], &acts[1][0], &xs[0][0], &xs[1][0], n/32, rows, &o[0][0], &o[1][0])
	rb := gguf.Q8_0.RowBytes(n)
	for c := 0; c < 2; c++ {
		for i := 0; i < rows; i++ {
			want := dotQ8_0G(w[i*rb:(i+1)*rb], acts[c], n)
			if math.Float32bits(o[c][i]) != math.Float32bits(want) {
				t.Fatalf("c%d r%d %g %g", c, i, o[c][i], want)
			}
		}
	}
}

func BenchmarkProtoQ80(b *testing.B) {
	const rows, n = 16, 2048
	iw, acts, xs, _ := protoSetup(rows, n, true)
	var o [2][]float32
	o[0], o[1] = make([]float32, rows), make([]float32, rows)
	b.Run("old", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			dotCols2Q8_0x4AVX2(&iw[0], &acts[0][0], &acts[1][0], n/32, rows, &o[0][0], &o[1][0])
		}
		b.ReportMetric(float64(rows*n*2)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
	})
	b.Run("abs", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			dotCols2Q8_0x4AbsAVX2(&iw[0], &acts[0][0], &acts[1][0], &xs[0][0], &xs[1][0], n/32, rows, &o[0][0], &o[1][0])
		}
		b.ReportMetric(float64(rows*n*2)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
	})
}

func BenchmarkProtoQ80Model(b *testing.B) {
	for _, sh := range [][2]int{{8192, 2048}, {2048, 8192}} {
		N, K := sh[0], sh[1]
		r := rand.New(rand.NewPCG(1, 2))
		w := quantizedWeights(r, gguf.Q8_0, N, K)
		iw := make([]byte, len(w))
		InterleaveQ8_0(iw, w, N, K)
		const T = 128
		acts := make([][]byte, T)
		xs := make([][]byte, T)
		for t := range acts {
			acts[t] = make([]byte, ActType(gguf.Q8_0).RowBytes(K))
			QuantizeAct(gguf.Q8_0, randActivation(r, K), acts[t])
			xs[t] = protoAux(acts[t], K)
		}
		out := make([][]float32, T)
		for t := range out {
			out[t] = make([]float32, N)
		}
		rb := gguf.Q8_0.RowBytes(K)
		for _, blk := range []int{8, 16, 32} {
			for _, kern := range []string{"old", "abs"} {
				b.Run(fmt.Sprintf("%dx%d/rows%d/%s", N, K, blk, kern), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						for s := 0; s < N; s += blk {
							wr := iw[s*rb:]
							for t := 0; t < T; t += 2 {
								if kern == "old" {
									dotCols2Q8_0x4AVX2(&wr[0], &acts[t][0], &acts[t+1][0], K/32, blk, &out[t][s], &out[t+1][s])
								} else {
									dotCols2Q8_0x4AbsAVX2(&wr[0], &acts[t][0], &acts[t+1][0], &xs[t][0], &xs[t+1][0], K/32, blk, &out[t][s], &out[t+1][s])
								}
							}
						}
					}
					b.ReportMetric(float64(N*K*T)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
				})
			}
		}
	}
}

func protoAlignedAux(act []byte, n int) []byte {
	nb := n / 32
	raw := make([]byte, 68*nb+64)
	off := int(64 - uintptr(unsafe.Pointer(&raw[0]))%64)
	x := raw[off : off+68*nb]
	for b := 0; b < nb; b++ {
		for j := 0; j < 32; j++ {
			v := int8(act[34*b+2+j])
			x[64*b+32+j] = byte(v)
			if v < 0 {
				v = -v
			}
			x[64*b+j] = byte(v)
		}
		f := math.Float32bits(f16at(act[34*b:], 0))
		x[64*nb+4*b], x[64*nb+4*b+1], x[64*nb+4*b+2], x[64*nb+4*b+3] = byte(f), byte(f>>8), byte(f>>16), byte(f>>24)
	}
	return x
}

type protoKernel func(iw []byte, a0, a1, x0, x1, y0, y1 []byte, nb, rows int, o0, o1 []float32)

var protoKernels = []struct {
	name string
	k    protoKernel
}{
	{"old", func(iw, a0, a1, x0, x1, y0, y1 []byte, nb, rows int, o0, o1 []float32) {
		dotCols2Q8_0x4AVX2(&iw[0], &a0[0], &a1[0], nb, rows, &o0[0], &o1[0])
	}},
	{"abs", func(iw, a0, a1, x0, x1, y0, y1 []byte, nb, rows int, o0, o1 []float32) {
		dotCols2Q8_0x4AbsAVX2(&iw[0], &a0[0], &a1[0], &x0[0], &x1[0], nb, rows, &o0[0], &o1[0])
	}},
	{"oldR", func(iw, a0, a1, x0, x1, y0, y1 []byte, nb, rows int, o0, o1 []float32) {
		dotCols2Q8_0x4RegAVX2(&iw[0], &a0[0], &a1[0], nb, rows, &o0[0], &o1[0])
	}},
	{"absA", func(iw, a0, a1, x0, x1, y0, y1 []byte, nb, rows int, o0, o1 []float32) {
		dotCols2Q8_0x4AlignedAVX2(&iw[0], &y0[0], &y1[0], nb, rows, &o0[0], &o1[0])
	}},
	{"plain", func(iw, a0, a1, x0, x1, y0, y1 []byte, nb, rows int, o0, o1 []float32) {
		p := protoPlain[&iw[0]]
		dotCols2Q8_0PlainAVX2(&p[0], &a0[0], &a1[0], nb, rows, &o0[0], &o1[0])
	}},
	{"absAP", func(iw, a0, a1, x0, x1, y0, y1 []byte, nb, rows int, o0, o1 []float32) {
		p := protoPadded(iw, nb, rows)
		dotCols2Q8_0x4PaddedAVX2(&p[0], &y0[0], &y1[0], nb, rows, &o0[0], &o1[0])
	}},
}

func TestProtoAll(t *testing.T) {
	const rows, n = 64, 2048
	iw, acts, xs, w := protoSetup(rows, n, true)
	protoRegisterPlain(iw, w, rows, n)
	y0, y1 := protoAlignedAux(acts[0], n), protoAlignedAux(acts[1], n)
	rb := gguf.Q8_0.RowBytes(n)
	for _, k := range protoKernels {
		o0, o1 := make([]float32, rows), make([]float32, rows)
		k.k(iw, acts[0], acts[1], xs[0], xs[1], y0, y1, n/32, rows, o0, o1)
		for c, o := range [][]float32{o0, o1} {
			for i := 0; i < rows; i++ {
				want := dotQ8_0G(w[i*rb:(i+1)*rb], acts[c], n)
				if math.Float32bits(o[i]) != math.Float32bits(want) {
					t.Fatalf("%s c%d r%d %g %g", k.name, c, i, o[i], want)
				}
			}
		}
	}
}

func BenchmarkProtoAll(b *testing.B) {
	for _, sh := range [][2]int{{16, 2048}, {8192, 2048}, {2048, 8192}} {
		N, K := sh[0], sh[1]
		r := rand.New(rand.NewPCG(1, 2))
		w := quantizedWeights(r, gguf.Q8_0, N, K)
		iw := make([]byte, len(w))
		InterleaveQ8_0(iw, w, N, K)
		protoRegisterPlain(iw, w, N, K)
		T := 128
		if N == 16 {
			T = 2
		}
		acts, xs, ys := make([][]byte, T), make([][]byte, T), make([][]byte, T)
		out := make([][]float32, T)
		for t := range acts {
			acts[t] = make([]byte, ActType(gguf.Q8_0).RowBytes(K))
			QuantizeAct(gguf.Q8_0, randActivation(r, K), acts[t])
			xs[t] = protoAux(acts[t], K)
			ys[t] = protoAlignedAux(acts[t], K)
			out[t] = make([]float32, N)
		}
		rb := gguf.Q8_0.RowBytes(K)
		const blk = 16
		for _, k := range protoKernels {
			b.Run(fmt.Sprintf("%dx%d/%s", N, K, k.name), func(b *testing.B) {
				for i := -1; i < b.N; i++ {
					if i == 0 {
						b.ResetTimer()
					}
					for s := 0; s < N; s += blk {
						wr := iw[s*rb:]
						for t := 0; t < T; t += 2 {
							k.k(wr, acts[t], acts[t+1], xs[t], xs[t+1], ys[t], ys[t+1], K/32, blk, out[t][s:], out[t+1][s:])
						}
					}
				}
				b.ReportMetric(float64(N*K*T)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
			})
		}
	}
}

var protoPads = map[*byte][]byte{}

// protoPlain maps an interleaved slice's start to the same rows in GGUF order.
var protoPlain = map[*byte][]byte{}

func protoRegisterPlain(iw, w []byte, rows, n int) {
	rb := gguf.Q8_0.RowBytes(n)
	for s := 0; s < rows; s += 4 {
		protoPlain[&iw[s*rb]] = w[s*rb:]
	}
}

// protoPadded is iw (an interleaved slice) with each group block padded to 160
// bytes (scales, 24 bytes of padding, then the four rows' quants), 64-byte aligned.
func protoPadded(iw []byte, nb, rows int) []byte {
	if p, ok := protoPads[&iw[0]]; ok {
		return p
	}
	ng := len(iw) / (136 * nb)
	raw := make([]byte, ng*nb*160+64)
	off := int(64 - uintptr(unsafe.Pointer(&raw[0]))%64)
	p := raw[off : off+ng*nb*160]
	for g := 0; g < ng*nb; g++ {
		copy(p[160*g:160*g+8], iw[136*g:136*g+8])
		copy(p[160*g+32:160*g+160], iw[136*g+8:136*g+136])
	}
	protoPads[&iw[0]] = p
	return p
}

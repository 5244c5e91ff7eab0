package quant

import (
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// Throughput of the block codecs on N(0,1) data, in millions of elements
// per second on one core: go test -run - -bench 'Quantize|Dequantize'.

const benchElems = 1 << 18

func BenchmarkQuantize(b *testing.B) {
	x := normalFloats(1, benchElems)
	for _, typ := range encodeTypes {
		b.Run(typ.String(), func(b *testing.B) {
			q := make([]byte, typ.RowBytes(len(x)))
			b.SetBytes(int64(4 * len(x)))
			for b.Loop() {
				if err := Quantize(typ, x, q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(x))/b.Elapsed().Seconds()/1e6, "Melem/s")
		})
	}
}

func BenchmarkDequantize(b *testing.B) {
	x := normalFloats(2, benchElems)
	for _, typ := range decodeTypes {
		b.Run(typ.String(), func(b *testing.B) {
			q := make([]byte, typ.RowBytes(len(x)))
			if err := Quantize(typ, x, q); err != nil {
				b.Fatal(err)
			}
			y := make([]float32, len(x))
			b.SetBytes(int64(4 * len(x)))
			for b.Loop() {
				if err := Dequantize(typ, q, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(x))/b.Elapsed().Seconds()/1e6, "Melem/s")
		})
	}
}

var _ = gguf.F32

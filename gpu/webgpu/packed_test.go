//go:build cgo || js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu/webgpu"
)

// The integer matvecs read their activations as quantize_act packs them
// (modes 4 and 5): llama.cpp's Q8_0 and Q8_K rounding as integers, each
// block's scale, and its sums. Against the CPU's rounding (quant.QuantizeAct)
// of the same random rows, an all-zero block among them: every scale the
// same bits, every integer the same, and every sum the sum of its
// integers; blocks whose largest magnitude is tied take the first. (WGSL's division may differ from IEEE's by a few ulps, which
// moves a value lying that close to a half step; the chance is below 1e-4
// a value, and these rows have none: a mismatch here is a packing fault.)
func TestPackedActivations(t *testing.T) {
	be := open(t)
	defer be.Close()
	for _, wt := range []gguf.TensorType{gguf.Q4_0, gguf.Q4_K} {
		t.Run(wt.String(), func(t *testing.T) {
			const K, rows = 768, 3
			rng := rand.New(rand.NewPCG(uint64(wt), 11))
			x := make([]float32, K*rows)
			for i := range x {
				x[i] = float32(rng.NormFloat64() * 3)
			}
			for i := 256; i < 288; i++ {
				x[i] = 0 // a zero block in both roundings
			}
			// Ties of the largest magnitude, the negative value first:
			// Q8_K's scale takes the sign of the first (within a run of
			// 32, and across runs of a super-block).
			x[10], x[20] = -40, 40
			x[520], x[700] = -40, 40
			// quantize_act (the matvecs') and quantize_packed (the tiles').
			for _, tiled := range []bool{false, true} {
				got, err := webgpu.PackedActivations(be, wt, K, x, tiled)
				if err != nil {
					t.Fatal(err)
				}
				checkPackedRows(t, wt, K, x, got)
			}
		})
	}
}

// A norm whose output a quantized product reads writes that rounding
// too: rmsnorm_packed for a prompt's rows (a workgroup a row, eight values
// a thread), rmsnorm_round for a decode step's. Each packs the
// norm's own output as the CPU packs it (quant.QuantizeAct of the same
// floats): scales, integers and sums, tied extremes taking the first.
// 2304 values are 288 parts of eight, so the packed kernel's second
// round of 256 parts is partial.
func TestNormPacked(t *testing.T) {
	be := open(t)
	defer be.Close()
	const n = 2304
	for _, wt := range []gguf.TensorType{gguf.Q4_0, gguf.Q4_K} {
		for _, rows := range []int{2, webgpu.TiledFrom + 1} {
			t.Run(fmt.Sprintf("%s/%d", wt, rows), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(wt), uint64(rows)))
				x := make([]float32, n*rows)
				for i := range x {
					x[i] = float32(rng.NormFloat64())
				}
				w := make([]float32, n)
				for i := range w {
					w[i] = float32(0.5 + rng.Float64())
				}
				w[5], w[17] = 0, 0 // zeroed values among a run's
				// Tied extremes, the negative first, within a run and
				// across the runs of a super-block (as in
				// TestPackedActivations).
				for _, i := range []int{10, 20, 520, 700} {
					w[i] = 1
				}
				for r := range rows {
					x[r*n+10], x[r*n+20], x[r*n+520], x[r*n+700] = -40, 40, -40, 40
				}
				normed, got, err := webgpu.NormPacked(be, wt, n, x, w)
				if err != nil {
					t.Fatal(err)
				}
				checkPackedRows(t, wt, n, normed, got)
			})
		}
	}
}

// checkPackedRows compares rows of K values x packed for weights of type
// wt (got, K words a row) with the CPU's rounding of the same values.
func checkPackedRows(t *testing.T, wt gguf.TensorType, K int, x []float32, got []byte) {
	t.Helper()
	for r := range len(x) / K {
		ref := make([]byte, quant.ActBytes(wt, K))
		quant.QuantizeAct(wt, x[r*K:(r+1)*K], ref)
		row := got[4*K*r : 4*K*(r+1)]
		if wt == gguf.Q4_0 {
			checkPackedQ8_0(t, r, row, ref, K)
		} else {
			checkPackedQ8K(t, r, row, ref, K)
		}
	}
}

// word is the little-endian word at byte o of b.
func word(b []byte, o int) uint32 { return binary.LittleEndian.Uint32(b[o:]) }

// checkPackedQ8_0 compares row r packed in mode 4 (integers, then per
// block of 32 its scale and integer sum as f32) with llama.cpp's Q8_0
// blocks (f16 d, 32 int8).
func checkPackedQ8_0(t *testing.T, r int, row, ref []byte, K int) {
	t.Helper()
	for b := range K / 32 {
		blk := ref[34*b : 34*(b+1)]
		want := quant.F16ToF32(binary.LittleEndian.Uint16(blk))
		if d := math.Float32frombits(word(row, K+8*b)); math.Float32bits(d) != math.Float32bits(want) {
			t.Errorf("row %d block %d: scale %g, want %g", r, b, d, want)
		}
		sum := 0
		for j := range 32 {
			q := int8(row[32*b+j])
			sum += int(q)
			if q != int8(blk[2+j]) {
				t.Errorf("row %d value %d: %d, want %d", r, 32*b+j, q, int8(blk[2+j]))
			}
		}
		if s := math.Float32frombits(word(row, K+8*b+4)); s != float32(sum) {
			t.Errorf("row %d block %d: sum %g, its integers sum to %d", r, b, s, sum)
		}
	}
}

// checkPackedQ8K compares row r packed in mode 5 (integers, then per
// super-block twenty words: its f32 scale, three unused, the sums of its
// runs of 16 as i32) with llama.cpp's Q8_K blocks (f32 d, 256 int8, 16
// int16 bsums).
func checkPackedQ8K(t *testing.T, r int, row, ref []byte, K int) {
	t.Helper()
	for b := range K / 256 {
		blk := ref[292*b : 292*(b+1)]
		head := K + 80*b
		if d, want := word(row, head), word(blk, 0); d != want {
			t.Errorf("row %d block %d: scale %g, want %g", r, b, math.Float32frombits(d), math.Float32frombits(want))
		}
		for s := range 16 {
			sum := 0
			for j := range 16 {
				i := 256*b + 16*s + j
				q := int8(row[i])
				sum += int(q)
				if want := int8(blk[4+16*s+j]); q != want {
					t.Errorf("row %d value %d: %d, want %d", r, i, q, want)
				}
			}
			if got := int32(word(row, head+16+4*s)); int(got) != sum {
				t.Errorf("row %d block %d run %d: sum %d, its integers sum to %d", r, b, s, got, sum)
			}
			if want := int16(binary.LittleEndian.Uint16(blk[260+2*s:])); int(want) != sum {
				t.Errorf("row %d block %d run %d: sum %d, llama.cpp's bsums %d", r, b, s, sum, want)
			}
		}
	}
}

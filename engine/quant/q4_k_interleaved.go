package quant

import (
	"encoding/binary"
	"fmt"
)

// Interleaved Q4_K: the layout the CPU backend stores Q4_K matrices in
// when it copies them at load, as llama.cpp's CPU backend repacks them
// (its q4_K_8x8 buffers). Sixteen rows are stored side by side so that one
// 512-bit VPDPBUSD multiplies four quants of each of the sixteen rows by
// the same four activations (one broadcast dword), each row's sum in its
// own lane: prefill unpacks a block once for several tokens and no
// product needs a horizontal sum. The sums are those of llama.cpp's
// repacked kernels, which dotQ4_KG (gemv: a single token, or tokens past
// the last group of four) and dotQ4_KGemmG (gemm: tokens in groups of
// four) compute from GGUF's layout.
//
// A group of 16 rows is nb group super blocks of q4KGroupBytes, one per
// 256 values:
//
//	d[16], dmin[16] f16      the rows' scales
//	sc[8][16] uint8          sub-block j's 6-bit scale of row r at 16j+r
//	mn[8][16] uint8          and its 6-bit minimum
//	quants: chunk g = 0..3, dword k = 0..7, 64 bytes each:
//	    row r's Q4_K bytes qs[32g+4k..32g+4k+3] at 4r
//
// so the low nibbles of chunk g, dword k are values 4k..4k+3 of sub-block
// 2g of every row and the high nibbles those of sub-block 2g+1. Groups
// follow each other; a matrix whose row count is a multiple of 8 but not
// of 16 ends with a group padded by zero rows. The unpacked scales cost
// 64 bytes more per group super block than GGUF's packed ones (2.8%).

const (
	q4KBlockBytes = 144
	q4KGroupBytes = 320 + 2048
)

// InterleavedQ4_KBytes is the size of an interleaved Q4_K matrix of nrows
// rows of n values (padding included).
func InterleavedQ4_KBytes(nrows, n int) int {
	return InterleavedGroups(nrows) * (n / 256) * q4KGroupBytes
}

// InterleaveQ4_K stores the nrows Q4_K rows of n values in src (GGUF
// layout) into dst, InterleavedQ4_KBytes(nrows, n) bytes, interleaved.
func InterleaveQ4_K(dst, src []byte, nrows, n int) {
	nb := n / 256
	if n%256 != 0 || len(src) < nrows*nb*q4KBlockBytes || len(dst) != InterleavedQ4_KBytes(nrows, n) {
		panic(fmt.Sprintf("quant: InterleaveQ4_K of %d x %d values: %d bytes into %d", nrows, n, len(src), len(dst)))
	}
	ng := InterleavedGroups(nrows)
	if nrows%InterleavedRows != 0 {
		clear(dst[(ng-1)*nb*q4KGroupBytes:])
	}
	le := binary.LittleEndian
	for g := 0; g < ng; g++ {
		lanes := min(InterleavedRows, nrows-g*InterleavedRows)
		for b := 0; b < nb; b++ {
			gb := dst[(g*nb+b)*q4KGroupBytes:][:q4KGroupBytes]
			for r := 0; r < lanes; r++ {
				blk := src[((g*InterleavedRows+r)*nb+b)*q4KBlockBytes:][:q4KBlockBytes]
				le.PutUint16(gb[2*r:], le.Uint16(blk))
				le.PutUint16(gb[32+2*r:], le.Uint16(blk[2:]))
				for j := 0; j < 8; j++ {
					sc, m := q4KScaleMin(blk[4:16], j)
					gb[64+16*j+r], gb[192+16*j+r] = byte(sc), byte(m)
				}
				for c := 0; c < 32; c++ {
					le.PutUint32(gb[320+64*c+4*r:], le.Uint32(blk[16+4*c:]))
				}
			}
		}
	}
}

// InterleavedQ4_KRow writes row r of an interleaved matrix (n values a
// row) to dst in GGUF's Q4_K layout, 144 bytes a super block.
func InterleavedQ4_KRow(dst, w []byte, n, r int) {
	nb := n / 256
	g, lane := r/InterleavedRows, r%InterleavedRows
	for b := 0; b < nb; b++ {
		gb := w[(g*nb+b)*q4KGroupBytes:][:q4KGroupBytes]
		blk := dst[q4KBlockBytes*b : q4KBlockBytes*(b+1)]
		copy(blk[0:2], gb[2*lane:])
		copy(blk[2:4], gb[32+2*lane:])
		var sc, m [8]byte
		for j := range sc {
			sc[j], m[j] = gb[64+16*j+lane], gb[192+16*j+lane]
		}
		packQ4KScales(blk[4:16], &sc, &m)
		for c := 0; c < 32; c++ {
			copy(blk[16+4*c:16+4*c+4], gb[320+64*c+4*lane:])
		}
	}
}

// packQ4KScales is the inverse of q4KScaleMin: the twelve bytes holding
// eight 6-bit scales and minimums (every bit is used, so the bytes come
// back exactly as the file had them).
func packQ4KScales(s []byte, sc, m *[8]byte) {
	for j := 0; j < 4; j++ {
		s[j] = sc[j]&63 | sc[j+4]>>4<<6
		s[j+4] = m[j]&63 | m[j+4]>>4<<6
		s[j+8] = sc[j+4]&15 | m[j+4]&15<<4
	}
}

// interleavedQ4KKernel computes ngroups consecutive 16-row groups of nb
// super blocks for m tokens whose Q8_K rows lie astride bytes apart,
// storing token t's outputs of group g at out[t·stride+16·g:][:16], in
// the gemm order when gemm is set, else the gemv order.
type interleavedQ4KKernel func(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

// q4KKernels are the assembly kernels of one instruction set by token
// count (the tokens one call takes) and order.
type q4KKernels struct {
	gemv, gemm [5]interleavedQ4KKernel
}

// asmQ4K holds the kernels of the best instruction set this CPU runs:
// the last set q4KSets (the architecture's) gives.
var asmQ4K = func() (k q4KKernels) {
	if _, sets := q4KSets(); len(sets) > 0 {
		k = sets[len(sets)-1]
	}
	return k
}()

// InterleavedQ4_KFast reports whether this machine has assembly kernels
// for interleaved Q4_K (the CPU backend interleaves only then).
func InterleavedQ4_KFast() bool { return useAsm && asmQ4K.gemv[1] != nil }

// InterleavedQ4_KDot computes rows [16·g0, min(16·g1, nrows)) of the
// interleaved Q4_K matrix w (nrows rows of n values) for m <= 4 tokens whose
// Q8_K activations start astride bytes apart in act: out[t·stride+r] is
// row r's dot with token t, summed as dotQ4_KGemmG when gemm is set (the
// tokens of llama.cpp's groups of four) and as dotQ4_KG otherwise.
func InterleavedQ4_KDot(w []byte, nrows, n, g0, g1 int, act []byte, astride, m int, gemm bool, out []float32, stride int) {
	nb := n / 256
	end := min(InterleavedRows*g1, nrows)
	ab := nb * q8KBytes
	if n%256 != 0 || g0 < 0 || g0 > g1 || g1 > InterleavedGroups(nrows) || m < 1 || m > 4 || (m > 1 && astride < ab) ||
		len(w) < InterleavedQ4_KBytes(nrows, n) || len(act) < (m-1)*astride+ab || (end > 0 && len(out) < (m-1)*stride+end) {
		panic(fmt.Sprintf("quant: InterleavedQ4_KDot of groups [%d, %d) of %d x %d values, %d tokens: %d weight, %d activation bytes (stride %d), %d outputs (stride %d)",
			g0, g1, nrows, n, m, len(w), len(act), astride, len(out), stride))
	}
	ks := &asmQ4K.gemv
	if gemm {
		ks = &asmQ4K.gemm
	}
	groupRuns(nrows, g0, g1, m, nb == 0, out, stride, func(g, ngroups int, out []float32, stride int) {
		w := w[g*nb*q4KGroupBytes:]
		for t := 0; t < m; {
			if InterleavedQ4_KFast() {
				// The widest kernel that fits the tokens left.
				c := min(m-t, len(ks)-1)
				for ks[c] == nil {
					c--
				}
				ks[c](&w[0], &act[t*astride], astride, nb, ngroups, &out[t*stride], stride)
				t += c
				continue
			}
			for g := 0; g < ngroups; g++ {
				interleavedQ4KGroupGo(w[g*nb*q4KGroupBytes:], act[t*astride:], nb, gemm, out[t*stride+InterleavedRows*g:][:InterleavedRows])
			}
			t++
		}
	})
}

// interleavedQ4KGroupGo computes one group's 16 rows for the token whose
// Q8_K activation is act: the pure-Go kernel, fallback and reference for
// the assembly.
func interleavedQ4KGroupGo(w, act []byte, nb int, gemm bool, out []float32) {
	var acc, accMin [InterleavedRows]float32
	for b := 0; b < nb; b++ {
		gb := w[b*q4KGroupBytes : (b+1)*q4KGroupBytes]
		y := act[b*q8KBytes : (b+1)*q8KBytes]
		yd := q8Kd(y)
		for r := range acc {
			d, dmin := f16at(gb, 2*r)*yd, f16at(gb, 32+2*r)*yd
			var isum, mins int32
			for j := 0; j < 8; j++ {
				var s int32
				for k := 0; k < 8; k++ {
					q := gb[320+64*(8*(j/2)+k)+4*r:][:4]
					for i, x := range q {
						s += int32(x>>(4*uint(j%2))&15) * int32(int8(y[4+32*j+4*k+i]))
					}
				}
				isum += int32(gb[64+16*j+r]) * s
				mins += int32(gb[192+16*j+r]) * (q8Kbsum(y, 2*j) + q8Kbsum(y, 2*j+1))
				if gemm && j%2 == 1 || j == 7 {
					acc[r] = FMA32(float32(isum), d, acc[r])
					accMin[r] = FMA32(float32(mins), dmin, accMin[r])
					isum, mins = 0, 0
				}
			}
		}
	}
	for r := range out {
		out[r] = acc[r] - accMin[r]
	}
}

package quant

// RopeRow rotates the first dims values of the head x into y by the
// step's angles cs (cos and sin of each rotated pair, interleaved), as
// llama.cpp's CPU build does: each rotation one fused multiply-add after
// rounding the other product, y[a] = fma(x[a], cos, -(x[b]·sin)) and
// y[b] = fma(x[a], sin, x[b]·cos), where (a, b) is (2p, 2p+1) in normal
// mode and (p, p+dims/2) in NeoX mode. Values past dims are not touched.
// The assembly takes four (normal) or eight (NeoX) pairs a step, each
// pair with the same two roundings, so the results are the Go loop's.
func RopeRow(y, x, cs []float32, dims int, neox bool) {
	half := dims / 2
	_, _, _ = y[dims-1], x[dims-1], cs[dims-1]
	p := 0
	if useAsm && hasRopeAsm {
		if neox {
			p = half &^ 7
			if p > 0 {
				ropeNeoxAsm(&y[0], &x[0], &cs[0], half, p)
			}
		} else {
			p = half &^ 3
			if p > 0 {
				ropeNormalAsm(&y[0], &x[0], &cs[0], 2*p)
			}
		}
	}
	for ; p < half; p++ {
		cos, sin := cs[2*p], cs[2*p+1]
		a, b := 2*p, 2*p+1
		if neox {
			a, b = p, p+half
		}
		x0, x1 := x[a], x[b]
		y[a] = FMA32(x0, cos, -(x1 * sin))
		y[b] = FMA32(x0, sin, x1*cos)
	}
}

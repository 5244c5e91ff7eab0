package quant

// FMALanes accumulates the products of x and y into the len(acc) lanes of
// acc (16 or 64) with fused multiply-adds, value i going to lane
// i % len(acc), in order: the inner loop of llama.cpp's float dot products
// (DotF16Vec, DotGemm16). len(x) must be a multiple of len(acc).
func FMALanes(acc, x, y []float32) {
	L, n := len(acc), len(x)
	if (L != 16 && L != 64) || n%L != 0 || len(y) < n {
		panic("quant: FMALanes: want 16 or 64 lanes and whole steps")
	}
	if n == 0 {
		return
	}
	if useAsm && hasFMALanesAsm {
		fmaLanesAsm(&acc[0], &x[0], &y[0], n, L)
		return
	}
	fmaLanesGo(acc, x, y)
}

func fmaLanesGo(acc, x, y []float32) {
	L := len(acc)
	for i := 0; i < len(x); i += L {
		xs, ys := x[i:i+L], y[i:i+L]
		for l := range acc {
			acc[l] = FMA32(xs[l], ys[l], acc[l])
		}
	}
}

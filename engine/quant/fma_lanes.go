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

// FMALanesF16 is FMALanes with x given as len(y) half-precision values
// (little endian), widened exactly before each multiply-add.
func FMALanesF16(acc []float32, x []byte, y []float32) {
	L, n := len(acc), len(y)
	if (L != 16 && L != 64) || n%L != 0 || len(x) < 2*n {
		panic("quant: FMALanesF16: want 16 or 64 lanes and whole steps")
	}
	if n == 0 {
		return
	}
	if useAsm && hasFMALanesAsm {
		fmaLanesF16Asm(&acc[0], &x[0], &y[0], n, L)
		return
	}
	for i := 0; i < n; i += L {
		for l := range acc {
			acc[l] = FMA32(f16Fast(uint16(x[2*(i+l)])|uint16(x[2*(i+l)+1])<<8), y[i+l], acc[l])
		}
	}
}

package quant

//go:noescape
func fmaLanes16AVX2(acc, x, y *float32, n int)

//go:noescape
func fmaLanes64AVX2(acc, x, y *float32, n int)

//go:noescape
func fmaLanes16F16AVX2(acc *float32, x *byte, y *float32, n int)

//go:noescape
func fmaLanes64F16AVX2(acc *float32, x *byte, y *float32, n int)

var hasFMALanesAsm = hasAVX2()

func fmaLanesAsm(acc, x, y *float32, n, lanes int) {
	if lanes == 16 {
		fmaLanes16AVX2(acc, x, y, n)
		return
	}
	fmaLanes64AVX2(acc, x, y, n)
}

func fmaLanesF16Asm(acc *float32, x *byte, y *float32, n, lanes int) {
	if lanes == 16 {
		fmaLanes16F16AVX2(acc, x, y, n)
		return
	}
	fmaLanes64F16AVX2(acc, x, y, n)
}

//go:noescape
func dotSteps64AVX2(x, y *float32, n int) float32

// hasDotStepsAsm says dotStepsAsm runs: vecSteps's lanes and fold in one
// call, for the many short rows of small models' float matrices.
var hasDotStepsAsm = hasAVX2()

func dotStepsAsm(x, y *float32, n int) float32 { return dotSteps64AVX2(x, y, n) }

//go:noescape
func dotRowsSteps64AVX2(w *float32, stride int, x *float32, np, nrows int, out *float32)

// dotRowsStepsAsm is dotStepsAsm of nrows rows stride bytes apart, in one
// call.
func dotRowsStepsAsm(w *float32, stride int, x *float32, np, nrows int, out *float32) {
	dotRowsSteps64AVX2(w, stride, x, np, nrows, out)
}

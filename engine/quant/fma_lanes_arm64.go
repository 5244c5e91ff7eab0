package quant

//go:noescape
func fmaLanes16NEON(acc, x, y *float32, n int)

//go:noescape
func fmaLanes64NEON(acc, x, y *float32, n int)

//go:noescape
func fmaLanes16F16NEON(acc *float32, x *byte, y *float32, n int)

//go:noescape
func fmaLanes64F16NEON(acc *float32, x *byte, y *float32, n int)

const hasFMALanesAsm = true

func fmaLanesAsm(acc, x, y *float32, n, lanes int) {
	if lanes == 16 {
		fmaLanes16NEON(acc, x, y, n)
		return
	}
	fmaLanes64NEON(acc, x, y, n)
}

func fmaLanesF16Asm(acc *float32, x *byte, y *float32, n, lanes int) {
	if lanes == 16 {
		fmaLanes16F16NEON(acc, x, y, n)
		return
	}
	fmaLanes64F16NEON(acc, x, y, n)
}

// hasDotStepsAsm: no fused steps-and-fold kernel on arm64 yet (vecSteps
// takes FMALanes and the Go fold).
const hasDotStepsAsm = false

func dotStepsAsm(x, y *float32, n int) float32 { panic("quant: no dotStepsAsm on arm64") }

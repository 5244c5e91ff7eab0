//go:build !amd64 && !arm64

package quant

const hasFMALanesAsm = false

func fmaLanesAsm(acc, x, y *float32, n, lanes int) {}

func fmaLanesF16Asm(acc *float32, x *byte, y *float32, n, lanes int) {}

const hasDotStepsAsm = false

func dotStepsAsm(x, y *float32, n int) float32 { panic("quant: no dotStepsAsm here") }

func dotRowsStepsAsm(w *float32, stride int, x *float32, np, nrows int, out *float32) {
	panic("quant: no dotRowsStepsAsm here")
}

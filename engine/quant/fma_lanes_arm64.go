package quant

import "unsafe"

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

//go:noescape
func dotSteps64NEON(x, y *float32, n int) float32

// hasDotStepsAsm says dotStepsAsm runs: vecSteps's lanes and fold in one
// call, for the many short rows of small models' float matrices.
const hasDotStepsAsm = true

func dotStepsAsm(x, y *float32, n int) float32 { return dotSteps64NEON(x, y, n) }

// dotRowsStepsAsm is dotStepsAsm of nrows rows stride bytes apart.
func dotRowsStepsAsm(w *float32, stride int, x *float32, np, nrows int, out *float32) {
	for r := range nrows {
		row := (*float32)(unsafe.Add(unsafe.Pointer(w), r*stride))
		*(*float32)(unsafe.Add(unsafe.Pointer(out), 4*r)) = dotSteps64NEON(row, x, np)
	}
}

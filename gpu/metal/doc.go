// Package metal is the Metal backend: MSL kernels from msl/, loaded through
// purego (no cgo). It builds for darwin only; elsewhere this package is empty.
package metal

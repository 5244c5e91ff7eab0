package quantize

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/gguf"
)

// CanEncode reports whether rows of type t can be written from float32.
func CanEncode(t gguf.TensorType) bool {
	switch t {
	case gguf.F32, gguf.F16, gguf.BF16:
		return true
	}
	return blockCanEncode(t)
}

// CanDecode reports whether rows of type t can be read back as float32.
func CanDecode(t gguf.TensorType) bool {
	switch t {
	case gguf.F32, gguf.F16, gguf.BF16:
		return true
	}
	return blockCanDecode(t)
}

// Encode converts src (whole rows, a multiple of t's block size) into
// dst, which must be exactly t's size for len(src) values.
func Encode(t gguf.TensorType, src []float32, dst []byte) error {
	if bs := t.BlockSize(); bs == 0 || len(src)%bs != 0 {
		return fmt.Errorf("quantize: %d values do not fill whole %s blocks", len(src), t)
	}
	if want := t.RowBytes(len(src)); len(dst) != want {
		return fmt.Errorf("quantize: %s of %d values needs %d bytes, got %d", t, len(src), want, len(dst))
	}
	le := binary.LittleEndian
	switch t {
	case gguf.F32:
		for i, v := range src {
			le.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	case gguf.F16:
		for i, v := range src {
			le.PutUint16(dst[2*i:], f32ToF16(v))
		}
	case gguf.BF16:
		for i, v := range src {
			le.PutUint16(dst[2*i:], f32ToBF16(v))
		}
	default:
		return blockEncode(t, src, dst)
	}
	return nil
}

// Decode converts src, whole blocks of type t, into dst.
func Decode(t gguf.TensorType, src []byte, dst []float32) error {
	if bs := t.BlockSize(); bs == 0 || len(dst)%bs != 0 || t.RowBytes(len(dst)) != len(src) {
		return fmt.Errorf("quantize: %d bytes of %s do not hold %d values", len(src), t, len(dst))
	}
	le := binary.LittleEndian
	switch t {
	case gguf.F32:
		for i := range dst {
			dst[i] = math.Float32frombits(le.Uint32(src[4*i:]))
		}
	case gguf.F16:
		for i := range dst {
			dst[i] = f16ToF32(le.Uint16(src[2*i:]))
		}
	case gguf.BF16:
		for i := range dst {
			dst[i] = math.Float32frombits(uint32(le.Uint16(src[2*i:])) << 16)
		}
	default:
		return blockDecode(t, src, dst)
	}
	return nil
}

// f32ToBF16 rounds to nearest even, keeping NaNs NaN (a plain round could
// carry a NaN's payload into the exponent and make it infinite).
func f32ToBF16(v float32) uint16 {
	b := math.Float32bits(v)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b >> 16 & 1)) >> 16)
}

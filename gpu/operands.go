package gpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// Operand checks every backend makes before lowering an op, written once
// so that a malformed graph fails with the same words on every backend.
// What only one backend needs (a kernel's size limit, packed tensors where
// a shader indexes by element) stays in that backend, after these.

const (
	f32 = gguf.F32
	f16 = gguf.F16
	i32 = gguf.I32
)

// Need requires operand what to be set.
func Need(t *Tensor, what string) error {
	if t == nil {
		return fmt.Errorf("%s is nil", what)
	}
	return nil
}

// WantType requires operand what to be set and of one of types.
func WantType(t *Tensor, what string, types ...Type) error {
	if err := Need(t, what); err != nil {
		return err
	}
	for _, ty := range types {
		if t.Type == ty {
			return nil
		}
	}
	return fmt.Errorf("%s %s is %s, want %v", what, t.Name, t.Type, types)
}

// WantShape requires operand what to have exactly shape.
func WantShape(t *Tensor, what string, shape [4]int) error {
	if t.Shape != shape {
		return fmt.Errorf("%s %s has shape %v, want %v", what, t.Name, t.Shape, shape)
	}
	return nil
}

// WantDense requires the elements of each row to be packed (byte stride of
// dimension 0 equal to the element size): outputs are written in place.
func WantDense(t *Tensor, what string) error {
	if t.Stride[0] != t.Type.TypeSize() {
		return fmt.Errorf("%s %s must have packed rows (stride %v)", what, t.Name, t.Stride)
	}
	return nil
}

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// CheckRoute checks a Route's operands: logits {E, T}, K of E experts,
// dense IDs and Weights {K, T}, an optional F32 bias {E}, a known gating.
func CheckRoute(o *Route) error {
	if err := first(WantType(o.Logits, "Logits", f32), WantType(o.IDs, "IDs", i32), WantType(o.Weights, "Weights", f32)); err != nil {
		return err
	}
	E, T, K := o.Logits.Shape[0], o.Logits.Shape[1], o.K
	if o.Logits.Shape != Shape4(E, T) {
		return fmt.Errorf("Logits %s has shape %v, want {E, T}", o.Logits.Name, o.Logits.Shape)
	}
	if K <= 0 || K > E {
		return fmt.Errorf("choosing %d of %d experts", K, E)
	}
	if err := first(WantShape(o.IDs, "IDs", Shape4(K, T)), WantShape(o.Weights, "Weights", Shape4(K, T)),
		WantDense(o.IDs, "IDs"), WantDense(o.Weights, "Weights")); err != nil {
		return err
	}
	if o.Bias != nil {
		if err := WantType(o.Bias, "Bias", f32); err != nil {
			return err
		}
		if o.Bias.Shape != Shape4(E) {
			return fmt.Errorf("Bias %s has shape %v, want {%d}", o.Bias.Name, o.Bias.Shape, E)
		}
	}
	if o.Gating > GateSoftmaxTopK {
		return fmt.Errorf("unknown gating %d", o.Gating)
	}
	return nil
}

// CheckTopK checks a TopK's operands: In F32 {V, T}, K of V, dense IDs
// (I32) and Vals (F32) {K, T}.
func CheckTopK(o *TopK) error {
	if err := first(WantType(o.In, "In", f32), WantType(o.IDs, "IDs", i32), WantType(o.Vals, "Vals", f32)); err != nil {
		return err
	}
	V, T, K := o.In.Shape[0], o.In.Shape[1], o.K
	if o.In.Shape != Shape4(V, T) {
		return fmt.Errorf("In %s has shape %v, want {V, T}", o.In.Name, o.In.Shape)
	}
	if K <= 0 || K > V {
		return fmt.Errorf("top %d of %d values", K, V)
	}
	return first(WantShape(o.IDs, "IDs", Shape4(K, T)), WantShape(o.Vals, "Vals", Shape4(K, T)),
		WantDense(o.IDs, "IDs"), WantDense(o.Vals, "Vals"))
}

// CheckCache checks a KV cache operand: F32 or F16 {width, Ctx} with
// packed rows, holding at least the step's tokens.
func CheckCache(t *Tensor, what string, width, tokens int) error {
	if err := WantType(t, what, f32, f16); err != nil {
		return err
	}
	if t.Shape[0] != width || t.Shape[2] != 1 || t.Shape[3] != 1 {
		return fmt.Errorf("%s %s has shape %v, want {%d, Ctx}", what, t.Name, t.Shape, width)
	}
	if t.Shape[1] < tokens {
		return fmt.Errorf("%s %s holds %d positions, fewer than the graph's %d tokens", what, t.Name, t.Shape[1], tokens)
	}
	return WantDense(t, what)
}

// CheckAttention checks an Attention's operands for a step of tokens: Q
// F32 {DK, H, tokens}, H a multiple of HKV, caches of DK·HKV (keys) and
// DV·HKV (values, or none when VFromK reads them from the keys' first DV
// of each head) of one length (types may differ), Out F32 {DV, H, tokens} with packed rows.
func CheckAttention(o *Attention, tokens int) error {
	if err := first(WantType(o.Q, "Q", f32), WantType(o.Out, "Out", f32)); err != nil {
		return err
	}
	DK, H, T := o.Q.Shape[0], o.Q.Shape[1], o.Q.Shape[2]
	if T != tokens || o.Q.Shape[3] != 1 {
		return fmt.Errorf("Q %s has shape %v, want {DK, H, %d} (the graph's tokens)", o.Q.Name, o.Q.Shape, tokens)
	}
	HKV, DV := o.HKV, o.DV
	if HKV <= 0 || H%HKV != 0 {
		return fmt.Errorf("%d query heads cannot share %d KV heads", H, HKV)
	}
	if DV <= 0 {
		return fmt.Errorf("value head size %d is not positive", DV)
	}
	if err := CheckCache(o.CacheK, "CacheK", DK*HKV, T); err != nil {
		return err
	}
	if o.VFromK {
		if o.CacheV != nil {
			return fmt.Errorf("VFromK reads values from CacheK: CacheV must be nil")
		}
		if DV > DK {
			return fmt.Errorf("VFromK: value size %d exceeds key size %d", DV, DK)
		}
	} else {
		if err := CheckCache(o.CacheV, "CacheV", DV*HKV, T); err != nil {
			return err
		}
		if o.CacheV.Shape[1] != o.CacheK.Shape[1] {
			return fmt.Errorf("CacheK holds %d positions, CacheV %d", o.CacheK.Shape[1], o.CacheV.Shape[1])
		}
	}
	return first(WantShape(o.Out, "Out", Shape4(DV, H, T)), WantDense(o.Out, "Out"))
}

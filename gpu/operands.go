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

// CheckRope checks a Rope's operands for a step of tokens: In and Out F32
// {HeadDim, H, tokens} alike, an even count of rotated dims within a head,
// a positive frequency base and scale, a nonzero attention factor, YaRN's
// original context where YaRN applies, FreqFactors (when set) F32 holding
// Dims/2 packed values of their own, and a known mode.
func CheckRope(o *Rope, tokens int) error {
	if err := first(WantType(o.In, "In", f32), WantType(o.Out, "Out", f32)); err != nil {
		return err
	}
	hd, T := o.In.Shape[0], o.In.Shape[2]
	if T != tokens || o.In.Shape[3] != 1 || o.Out.Shape != o.In.Shape {
		return fmt.Errorf("In %s has shape %v, want {HeadDim, H, %d} like Out", o.In.Name, o.In.Shape, tokens)
	}
	if o.Dims <= 0 || o.Dims%2 != 0 || o.Dims > hd {
		return fmt.Errorf("rotating %d dims of %d-element heads: want an even count in 2..%d", o.Dims, hd, hd)
	}
	if !(o.FreqBase > 0) || !(o.FreqScale > 0) || o.AttnFactor == 0 {
		return fmt.Errorf("frequency base %g, scale %g and attention factor %g must be positive", o.FreqBase, o.FreqScale, o.AttnFactor)
	}
	if o.ExtFactor != 0 && o.OrigCtx <= 0 {
		return fmt.Errorf("YaRN (ext factor %g) needs the original context length, got %d", o.ExtFactor, o.OrigCtx)
	}
	if o.FreqFactors != nil {
		if err := WantType(o.FreqFactors, "FreqFactors", f32); err != nil {
			return err
		}
		if o.FreqFactors.Elements() < o.Dims/2 || !o.FreqFactors.Contiguous() || o.FreqFactors.Kind == View {
			return fmt.Errorf("FreqFactors %s must hold %d packed values", o.FreqFactors.Name, o.Dims/2)
		}
	}
	if o.Mode != RopeNeoX && o.Mode != RopeNormal {
		return fmt.Errorf("unknown rope mode %d", o.Mode)
	}
	return nil
}

// CheckMatMulID checks a MatMulID's operands but the weights' type: W
// packed {K, N, E}, In F32 {K, S or 1, T}, IDs I32 {S, T}, Out F32
// {N, S, T}. It returns S, T and In's rows a token (S or 1).
func CheckMatMulID(o *MatMulID) (S, T, Sin int, err error) {
	if err := first(Need(o.W, "W"), WantType(o.In, "In", f32), WantType(o.IDs, "IDs", i32), WantType(o.Out, "Out", f32)); err != nil {
		return 0, 0, 0, err
	}
	if !o.W.Contiguous() {
		return 0, 0, 0, fmt.Errorf("W %s must be packed", o.W.Name)
	}
	K, N := o.W.Shape[0], o.W.Shape[1]
	S, T = o.IDs.Shape[0], o.IDs.Shape[1]
	if o.IDs.Shape != Shape4(S, T) {
		return 0, 0, 0, fmt.Errorf("IDs %s has shape %v, want {S, T}", o.IDs.Name, o.IDs.Shape)
	}
	Sin = o.In.Shape[1]
	if o.In.Shape != Shape4(K, Sin, T) || (Sin != S && Sin != 1) {
		return 0, 0, 0, fmt.Errorf("In %s has shape %v, want {%d, %d or 1, %d}", o.In.Name, o.In.Shape, K, S, T)
	}
	if o.Out.Shape != Shape4(N, S, T) {
		return 0, 0, 0, fmt.Errorf("Out %s has shape %v, want {%d, %d, %d}", o.Out.Name, o.Out.Shape, N, S, T)
	}
	return S, T, Sin, nil
}

// CheckRun checks the params of a run of a step of tokens tokens that may
// start at positions up to maxPos (its caches hold maxPos+tokens rows), of
// sequences of at most span positions (0: the caches' rows): the places
// of its tokens when they are placed one by one, else its position.
func CheckRun(p Params, tokens, maxPos, span int) error {
	if p.Places != nil {
		return CheckPlaces(p.Places, tokens, maxPos+tokens, span)
	}
	if span > 0 {
		maxPos = min(maxPos, span-tokens)
	}
	if p.Pos < 0 || p.Pos > maxPos {
		return fmt.Errorf("position %d with %d tokens does not fit the KV cache (positions 0..%d)", p.Pos, tokens, maxPos+tokens-1)
	}
	return nil
}

// CheckBuffer checks the type and shape of a buffer a backend makes: every
// dimension at least 1, rows of whole blocks of the type.
func CheckBuffer(typ Type, shape [4]int) error {
	for _, d := range shape {
		if d <= 0 {
			return fmt.Errorf("shape %v has a dimension below 1", shape)
		}
	}
	if typ.BlockSize() == 0 || shape[0]%typ.BlockSize() != 0 {
		return fmt.Errorf("rows of %d are not whole %s blocks", shape[0], typ)
	}
	return nil
}

//go:build cgo || js

package webgpu

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// A kernel's parameter block is declared once, by field: a Go struct whose
// fields, in order, are the words the kernel reads (the ...Params types
// beside each lowering). The compiler packs a value of it into the
// kernel's uniform block (paramWords), and the kernel's source is given
// one WGSL constant a field, P_NAME = the field's first word, made from
// the same struct (paramConsts), so kernels read pu(P_K) or at(P_IN, ...)
// and no word number has to agree between two files.
//
// Field types: int, uint32 and bool (a word each; a bool is 0 or 1),
// float32 (its bits), loc (five words: offset, then the strides of dims
// 0..3) and [4]int (a shape). An embedded struct's fields count as the
// struct's own, in place: the words a shared piece of WGSL reads (the
// attention's head sizes, the rope's constants) are one embedded struct
// in every kernel using that piece. Another struct field's fields are
// named after it: field K of type kvSide, whose fields are Width and Src,
// gives K_WIDTH and K_SRC. NAME is the field's name in capitals, its
// words split by _: RowBytes is P_ROW_BYTES.

// paramField is one field's name and first word.
type paramField struct {
	name string
	word int
}

// paramLayouts caches each parameter struct's fields.
var paramLayouts sync.Map // reflect.Type -> []paramField

// paramLayout returns the fields of the parameter struct t, in order, and
// the words they take.
func paramLayout(t reflect.Type) ([]paramField, int, error) {
	if l, ok := paramLayouts.Load(t); ok {
		fs := l.([]paramField)
		return fs, fs[len(fs)-1].word, nil
	}
	var fs []paramField
	var walk func(t reflect.Type, word int, prefix []string) (int, error)
	walk = func(t reflect.Type, word int, prefix []string) (int, error) {
		for i := range t.NumField() {
			f := t.Field(i)
			var err error
			switch {
			case f.Anonymous:
				word, err = walk(f.Type, word, prefix)
			case f.Type.Kind() == reflect.Struct && f.Type != locType:
				word, err = walk(f.Type, word, append(prefix[:len(prefix):len(prefix)], f.Name))
			default:
				var n int
				if n, err = fieldWords(f.Type); err == nil {
					fs = append(fs, paramField{constName(append(prefix[:len(prefix):len(prefix)], f.Name)...), word})
					word += n
				}
			}
			if err != nil {
				return 0, fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
			}
		}
		return word, nil
	}
	if t.Kind() != reflect.Struct {
		return nil, 0, fmt.Errorf("parameters of type %s are not a struct", t)
	}
	n, err := walk(t, 0, nil)
	if err != nil {
		return nil, 0, err
	}
	if n > paramWords {
		return nil, 0, fmt.Errorf("%s takes %d words, more than the block's %d", t.Name(), n, paramWords)
	}
	// The total rides along as a last pseudo-field, for the cache.
	fs = append(fs, paramField{"", n})
	paramLayouts.Store(t, fs)
	return fs, n, nil
}

var (
	locType   = reflect.TypeFor[loc]()
	shapeType = reflect.TypeFor[[4]int]()
)

// fieldWords is the words a field of type t takes.
func fieldWords(t reflect.Type) (int, error) {
	switch {
	case t == locType:
		return 5, nil
	case t == shapeType:
		return 4, nil
	}
	switch t.Kind() {
	case reflect.Int, reflect.Uint32, reflect.Bool, reflect.Float32:
		return 1, nil
	}
	return 0, fmt.Errorf("a field of type %s is not a parameter", t)
}

// constName is the WGSL constant of a field, named by the fields that lead
// to it: RowBytes -> P_ROW_BYTES, NQ -> P_NQ, IDs -> P_IDS, (K, Width) ->
// P_K_WIDTH. A word starts at a capital after a small letter or a digit.
func constName(path ...string) string {
	var b strings.Builder
	b.WriteString("P")
	for _, field := range path {
		b.WriteByte('_')
		rs := []rune(field)
		for i, r := range rs {
			if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// paramConsts is the WGSL constants of the parameter struct t.
func paramConsts(t reflect.Type) (string, error) {
	fs, _, err := paramLayout(t)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range fs[:len(fs)-1] {
		fmt.Fprintf(&b, "const %s = %du;\n", f.name, f.word)
	}
	return b.String(), nil
}

// paramWordsOf packs a parameter struct's value into its words.
func paramWordsOf(v any) ([]uint32, error) {
	rv := reflect.ValueOf(v)
	if _, _, err := paramLayout(rv.Type()); err != nil {
		return nil, err
	}
	var out []uint32
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.Struct && f.Type() != locType {
				walk(f)
				continue
			}
			// Read through Uint and its kin: fields reached through an
			// embedded struct of an unexported type refuse Interface.
			switch {
			case f.Type() == locType:
				out = append(out, uint32(f.Field(0).Uint()))
				for j := range 4 {
					out = append(out, uint32(f.Field(1).Index(j).Uint()))
				}
			case f.Type() == shapeType:
				for j := range 4 {
					out = append(out, uint32(f.Index(j).Int()))
				}
			case f.Kind() == reflect.Int:
				out = append(out, uint32(f.Int()))
			case f.Kind() == reflect.Uint32:
				out = append(out, uint32(f.Uint()))
			case f.Kind() == reflect.Bool:
				out = append(out, uint32(b2i(f.Bool())))
			case f.Kind() == reflect.Float32:
				out = append(out, math.Float32bits(float32(f.Float())))
			}
		}
	}
	walk(rv)
	return out, nil
}

// kernelParams is each kernel's parameter struct, by the kernel's name:
// dispatch takes no other, and the tests build every kernel with it.
var kernelParams = map[string]reflect.Type{
	"add":                      reflect.TypeFor[binaryParams](),
	"mul":                      reflect.TypeFor[binaryParams](),
	"scale":                    reflect.TypeFor[binaryParams](),
	"swiglu":                   reflect.TypeFor[binaryParams](),
	"argmax":                   reflect.TypeFor[argmaxParams](),
	"topk":                     reflect.TypeFor[topKParams](),
	"copy":                     reflect.TypeFor[copyParams](),
	"embed":                    reflect.TypeFor[embedParams](),
	"kv_store":                 reflect.TypeFor[kvStoreParams](),
	"rmsnorm":                  reflect.TypeFor[rmsNormParams](),
	"rmsnorm_round":            reflect.TypeFor[rmsNormRoundParams](),
	"rmsnorm_packed":           reflect.TypeFor[rmsNormRoundParams](),
	"quantize_act":             reflect.TypeFor[quantizeActParams](),
	"quantize_packed":          reflect.TypeFor[quantizeActParams](),
	"rope":                     reflect.TypeFor[ropeKernelParams](),
	"route":                    reflect.TypeFor[routeParams](),
	"weighted_sum":             reflect.TypeFor[weightedSumParams](),
	"attention":                reflect.TypeFor[attentionKernelParams](),
	"attention_heads":          reflect.TypeFor[attentionKernelParams](),
	"attention_scores":         reflect.TypeFor[attentionScoresParams](),
	"attention_values":         reflect.TypeFor[attentionValuesParams](),
	"attention_step":           reflect.TypeFor[attentionStepParams](),
	"mla_step":                 reflect.TypeFor[mlaStepParams](),
	"matmul":                   reflect.TypeFor[matmulParams](),
	"matmul_tiled":             reflect.TypeFor[matmulParams](),
	"matmul_tokens":            reflect.TypeFor[matmulParams](),
	"matmul_tokens_wide":       reflect.TypeFor[matmulParams](),
	"matmul_tokens_tall":       reflect.TypeFor[matmulParams](),
	"matmul_round":             reflect.TypeFor[matmulRoundParams](),
	"matmul_route":             reflect.TypeFor[matmulRouteParams](),
	"matmul_gate_up":           reflect.TypeFor[gateUpParams](),
	"matmul_gate_up_round":     reflect.TypeFor[gateUpParams](),
	"matmul_qkv":               reflect.TypeFor[qkvParams](),
	"matmul_id":                reflect.TypeFor[matmulIDParams](),
	"matmul_id_tiled":          reflect.TypeFor[matmulIDTiledParams](),
	"expert_groups":            reflect.TypeFor[expertGroupsParams](),
	"matmul_id_tokens":         reflect.TypeFor[expertTokensParams](),
	"matmul_id_tokens_gate_up": reflect.TypeFor[expertGateUpParams](),
	"matmul_id_gate_up":        reflect.TypeFor[expertGateUpParams](),
	"matmul_id_weighted":       reflect.TypeFor[expertSumParams](),
	"moe_gate_up":              reflect.TypeFor[moeGateUpParams](),
	"moe_gate_up_round":        reflect.TypeFor[moeGateUpParams](),
	"moe_down_rounded":         reflect.TypeFor[moeDownParams](),
	"read_bandwidth":           reflect.TypeFor[readParams](),
}

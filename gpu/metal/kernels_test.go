package metal

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/emberllm/ember/msl"
)

// kernelDecoders lists, for each kernel, the types it is built for ("" for
// a kernel of none): every build the backend may ask of the compiler.
var kernelDecoders = map[string][]string{
	"add": {""}, "mul": {""}, "scale": {""}, "swiglu": {""}, "rmsnorm": {""}, "copy": {""}, "argmax": {""},
	"quantize_act": {""}, "rope": {""}, "kv_store": {""}, "route": {""}, "weighted_sum": {""}, "topk": {""},
	"read_bandwidth": {""},
	"embed":          productDecoders, "matmul": productDecoders, "matmul_id": productDecoders, "matmul_tiled": productDecoders,
	"attention": {"cache_f32", "cache_f16"}, "attention_scores": {"cache_f32", "cache_f16"},
	"attention_values": {"cache_f32", "cache_f16"},
}

// TestKernelBuilds assembles every build of every kernel, with and without
// SIMD-group functions, and checks what the host relies on: a parameter
// struct in kernelParams that declares as MSL, the parameters at buffer 0
// as constant Params&, the buffers from 2 on without a gap, and every
// kernel of msl/ in kernelDecoders.
func TestKernelBuilds(t *testing.T) {
	var names []string
	for n := range kernelDecoders {
		names = append(names, n)
	}
	sort.Strings(names)
	if got := msl.Kernels(); !slices.Equal(got, names) {
		t.Errorf("msl/ has the kernels %v, the backend builds %v", got, names)
	}
	for _, name := range names {
		for _, dec := range kernelDecoders[name] {
			for _, f := range []msl.Features{{}, {SIMD: true, Matrix: true}} {
				src, k, err := kernelSource(name, dec, f)
				if err != nil {
					t.Errorf("%s/%s: %v", name, dec, err)
					continue
				}
				if !strings.Contains(src, "struct Params {") {
					t.Errorf("%s/%s: no Params declared", name, dec)
				}
				var bufs []int
				for _, p := range k.Params {
					if i, ok := p.Index("buffer"); ok {
						bufs = append(bufs, i)
						if i == 0 && p.Type != "constant Params&" {
							t.Errorf("%s: buffer 0 is %s, want constant Params&", name, p.Type)
						}
					}
				}
				sort.Ints(bufs)
				rest := slices.DeleteFunc(slices.Clone(bufs), func(i int) bool { return i < 2 })
				for j, i := range rest {
					if i != 2+j {
						t.Errorf("%s: buffers %v leave a gap", name, bufs)
						break
					}
				}
				if len(bufs) == 0 || bufs[0] != 0 {
					t.Errorf("%s: no parameters at buffer 0 (%v)", name, bufs)
				}
			}
		}
	}
	for name := range kernelParams {
		if _, ok := kernelDecoders[name]; !ok {
			t.Errorf("kernelParams names %s, which no test builds", name)
		}
	}
	if _, err := paramDecl(reflect.TypeFor[int]()); err == nil {
		t.Error("paramDecl took an int for a struct")
	}
}

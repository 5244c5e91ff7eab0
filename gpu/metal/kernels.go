package metal

import "reflect"

// kernelParams is each kernel's parameter struct, by the kernel's name:
// dispatch takes no other, and the tests build every kernel with it.
var kernelParams = map[string]reflect.Type{
	"add":              reflect.TypeFor[binaryParams](),
	"mul":              reflect.TypeFor[binaryParams](),
	"scale":            reflect.TypeFor[binaryParams](),
	"swiglu":           reflect.TypeFor[binaryParams](),
	"rmsnorm":          reflect.TypeFor[rmsNormParams](),
	"copy":             reflect.TypeFor[copyParams](),
	"argmax":           reflect.TypeFor[argmaxParams](),
	"embed":            reflect.TypeFor[embedParams](),
	"matmul":           reflect.TypeFor[matmulParams](),
	"matmul_tiled":     reflect.TypeFor[matmulParams](),
	"matmul_id":        reflect.TypeFor[matmulIDParams](),
	"quantize_act":     reflect.TypeFor[quantizeActParams](),
	"rope":             reflect.TypeFor[ropeKernelParams](),
	"kv_store":         reflect.TypeFor[kvStoreParams](),
	"attention":        reflect.TypeFor[attentionParams](),
	"attention_scores": reflect.TypeFor[attentionScoresParams](),
	"attention_values": reflect.TypeFor[attentionValuesParams](),
	"route":            reflect.TypeFor[routeParams](),
	"weighted_sum":     reflect.TypeFor[weightedSumParams](),
	"topk":             reflect.TypeFor[topKParams](),
	"read_bandwidth":   reflect.TypeFor[readParams](),
}

package cpu

import "github.com/emberllm/ember/engine/quant"

// siluGGML is ggml_v_silu: x/(1+exp(-x)) with quant.ExpGGML.
func siluGGML(x float32) float32 { return x / (1 + quant.ExpGGML(0-x)) }

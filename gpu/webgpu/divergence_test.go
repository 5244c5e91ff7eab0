//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// TestOpDivergence finds where WebGPU's results part from the CPU
// backend's on a tiny model, op by op: the model parity tests only see the
// logits. It runs when EMBER_DIVERGENCE names a model as
// shape,arch,type,seed (writeTiny's arguments; arch may be empty), e.g.
//
//	EMBER_DIVERGENCE=tiny,llama,Q4_0,41 go test ./gpu/webgpu -run TestOpDivergence -v
//
// Both backends build the same step graphs with every activation made an
// external buffer, and run them one op at a time: a prefill of a prompt
// (see below), then EMBER_DIVERGENCE_STEPS (default 63)
// decode steps of the CPU's greedy tokens. Isolated (the default), every
// WebGPU op reads the CPU's inputs, so an op's difference is its own;
// EMBER_DIVERGENCE_CHAIN=1 lets WebGPU's results flow on, as in the parity
// tests, to see differences grow; EMBER_DIVERGENCE_FORCE=matmul,attention
// (op names) then replaces those ops' WebGPU outputs by the CPU's, to see
// how much of the drift they cause. The log has one line per op of each
// step graph: the largest difference over the largest magnitude of the
// CPU's output, and how many values differ at all and by more than 1e-4
// of it.
//
// Without EMBER_DIVERGENCE it is a test: a tiny mixture-of-experts model
// in Q4_K, isolated, a few steps, and every op must agree with the CPU to
// within float32 rounding (attention, whose last-bit score differences can
// round a weight to the other F16 value, within 1e-4), with identical
// integers (expert ids, argmax).
func TestOpDivergence(t *testing.T) {
	spec := strings.Split(os.Getenv("EMBER_DIVERGENCE"), ",")
	check := len(spec) != 4
	steps := 63
	if check {
		spec, steps = []string{"tiny", string(synth.Qwen3MoE), "Q4_K", "43"}, 6
	}
	seed, err := strconv.Atoi(spec[3])
	if err != nil {
		t.Fatal(err)
	}
	if s := os.Getenv("EMBER_DIVERGENCE_STEPS"); s != "" {
		if steps, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	chain := !check && os.Getenv("EMBER_DIVERGENCE_CHAIN") != ""
	force := map[string]bool{}
	for _, f := range strings.Split(os.Getenv("EMBER_DIVERGENCE_FORCE"), ",") {
		force[f] = true
	}
	path := writeTiny(t, t.TempDir(), spec[0], synth.Arch(spec[1]), spec[2], uint64(seed))
	// TestModelParityWithCPU's prompt, or randomPrompt(seed, n) from
	// EMBER_DIVERGENCE_PROMPT=seed,n (22,37 is TestPrefillParityWithCPU's).
	prompt := randomPrompt(21, 5)
	if p := strings.Split(os.Getenv("EMBER_DIVERGENCE_PROMPT"), ","); len(p) == 2 {
		ps, err1 := strconv.Atoi(p[0])
		pn, err2 := strconv.Atoi(p[1])
		if err1 != nil || err2 != nil {
			t.Fatal("EMBER_DIVERGENCE_PROMPT is not seed,n")
		}
		prompt = randomPrompt(uint64(ps), pn)
	}
	cb := cpu.New(2)
	defer cb.Close()
	wb, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	lens := []int{len(prompt), 1}
	c, w := opSteps(t, cb, path, lens), opSteps(t, wb, path, lens)

	stats := map[string]*opStat{}
	var order []string
	run := func(s int, ids []int32, pos int) int32 {
		b := make([]byte, 4*len(ids))
		for i, id := range ids {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
		}
		if err := c.steps[s].Tokens.Write(0, b); err != nil {
			t.Fatal(err)
		}
		for i, op := range c.graphs[s].Ops {
			wop := w.graphs[s].Ops[i]
			// The CPU's inputs (and the outputs' prior contents: caches
			// are written a row at a time) go to WebGPU: all of them when
			// isolated, else the token ids and, at the start, the cache.
			ws := append(wop.Inputs(), wop.Outputs()...)
			for j, x := range append(op.Inputs(), op.Outputs()...) {
				if chain && (s > 0 || i > 0) && x.Root().Name != "tokens" {
					continue
				}
				if x.Root().Kind == gpu.External {
					// Weights are read-only, and already the same.
					_ = ws[j].Root().Buf.Write(0, rootBytes(t, x))
				}
			}
			for _, p := range []gpu.Program{c.op(t, s, i), w.op(t, s, i)} {
				if err := p.Run(gpu.Params{Pos: pos}); err != nil {
					t.Fatal(err)
				}
			}
			for j, x := range op.Outputs() {
				key := fmt.Sprintf("step%d op%03d %s %s", s, i, op.OpName(), x.Name)
				switch m := op.(type) {
				case *gpu.MatMul:
					key += " " + m.W.Type.String()
				case *gpu.MatMulID:
					key += " " + m.W.Type.String()
				}
				st := stats[key]
				if st == nil {
					st = &opStat{op: op, ints: x.Root().Type == gguf.I32}
					stats[key] = st
					order = append(order, key)
				}
				top := 0.0
				if a, ok := op.(*gpu.Attention); ok {
					top = largestValue(t, a)
				}
				st.add(floats(x.Root().Type, rootBytes(t, x)), floats(x.Root().Type, rootBytes(t, wop.Outputs()[j])), top)
				if chain && force[op.OpName()] {
					_ = wop.Outputs()[j].Root().Buf.Write(0, rootBytes(t, x))
				}
			}
		}
		nb := make([]byte, 4)
		if err := c.steps[s].Next.Read(0, nb); err != nil {
			t.Fatal(err)
		}
		return int32(binary.LittleEndian.Uint32(nb))
	}
	next := run(0, prompt, 0)
	for k := 1; k <= steps; k++ {
		next = run(1, []int32{next}, len(prompt)+k-1)
	}
	for _, k := range order {
		st := stats[k]
		t.Logf("%-50s worst %.2e, %d of %d values differ, %d by more than 1e-4", k, st.worst, st.differ, st.n, st.big)
		if !check {
			continue
		}
		bound := 2e-6
		if _, ok := st.op.(*gpu.Attention); ok {
			// Against the largest |value| (largestValue): a weight rounded
			// to f16 by one backend and kept f32 by the other (WebGPU's
			// prefill) moves by at most 2^-11 of itself, and where last-bit
			// score differences put the two on neighbouring f16 values, by
			// one f16 ulp, 2^-10; the weights sum to one.
			bound = 0x1p-10
		}
		if st.ints && st.differ > 0 || st.worst > bound {
			t.Errorf("%s: WebGPU differs from the CPU by %.2e of the largest value (%d of %d values), want at most %.0e", k, st.worst, st.differ, st.n, bound)
		}
	}
}

// opModel is a model's step graphs on one backend, every activation an
// external buffer, with a program per op compiled on first use.
type opModel struct {
	be     gpu.Backend
	steps  []*model.Step
	graphs []*gpu.Graph
	progs  map[[2]int]gpu.Program
}

func opSteps(t *testing.T, be gpu.Backend, path string, lens []int) *opModel {
	t.Helper()
	m := loadModel(t, be, path)
	cache, err := m.NewCache(len(lens) + lens[0] + 128)
	if err != nil {
		t.Fatal(err)
	}
	o := &opModel{be: be, progs: map[[2]int]gpu.Program{}}
	model.GraphHook = func(be gpu.Backend, g *gpu.Graph) {
		for _, x := range g.Tensors {
			if x.Kind == gpu.Activation {
				if x.Buf, err = be.Alloc(x.Name, x.Type, x.Shape); err != nil {
					t.Fatal(err)
				}
				x.Kind = gpu.External
			}
		}
		o.graphs = append(o.graphs, g)
	}
	defer func() { model.GraphHook = nil }()
	for _, n := range lens {
		st, err := m.NewStep(cache, n)
		if err != nil {
			t.Fatal(err)
		}
		o.steps = append(o.steps, st)
	}
	return o
}

// op is the program of op i of step graph s alone.
func (o *opModel) op(t *testing.T, s, i int) gpu.Program {
	k := [2]int{s, i}
	if p, ok := o.progs[k]; ok {
		return p
	}
	g := o.graphs[s]
	p, err := o.be.Compile(&gpu.Graph{Name: fmt.Sprintf("%s.op%d", g.Name, i), Tokens: g.Tokens,
		Tensors: g.Tensors, Ops: []gpu.Op{g.Ops[i]}})
	if err != nil {
		t.Fatal(err)
	}
	o.progs[k] = p
	return p
}

func rootBytes(t *testing.T, x *gpu.Tensor) []byte {
	r := x.Root()
	b := make([]byte, gpu.Bytes(r.Type, r.Shape))
	if err := r.Buf.Read(0, b); err != nil {
		t.Fatal(err)
	}
	return b
}

// floats widens a buffer of F32, F16 or I32 values.
func floats(typ gguf.TensorType, b []byte) []float64 {
	var out []float64
	switch typ {
	case gguf.F16:
		for i := 0; i+2 <= len(b); i += 2 {
			out = append(out, float64(quant.F16ToF32(binary.LittleEndian.Uint16(b[i:]))))
		}
	case gguf.I32:
		for i := 0; i+4 <= len(b); i += 4 {
			out = append(out, float64(int32(binary.LittleEndian.Uint32(b[i:]))))
		}
	default:
		for i := 0; i+4 <= len(b); i += 4 {
			out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))))
		}
	}
	return out
}

// opStat gathers an op output's differences over the steps.
type opStat struct {
	op             gpu.Op
	ints           bool    // integer values (ids), which must be equal
	worst          float64 // largest difference over the largest |CPU value| of its step (attention: |value row element|)
	n, differ, big int
}

// add gathers one step's output; differences count against top, or where
// top is 0, against the largest |CPU value|.
func (s *opStat) add(want, got []float64, top float64) {
	if top == 0 {
		for _, v := range want {
			top = math.Max(top, math.Abs(v))
		}
	}
	for i, v := range want {
		d := math.Abs(got[i] - v)
		s.n++
		if d != 0 {
			s.differ++
		}
		if top > 0 {
			s.worst = math.Max(s.worst, d/top)
			if d/top > 1e-4 {
				s.big++
			}
		}
	}
}

// largestValue is the largest |element| of the value rows an attention op
// reads on the CPU (the cache's, or the keys' where values are a prefix
// of them): the scale of its outputs' rounding. It takes the whole cache,
// rows not yet attended included, which can only loosen the bound a
// little (the same random model fills them).
func largestValue(t *testing.T, a *gpu.Attention) float64 {
	v := a.CacheV
	if a.VFromK {
		v = a.CacheK
	}
	var top float64
	for _, x := range floats(v.Root().Type, rootBytes(t, v)) {
		top = math.Max(top, math.Abs(x))
	}
	return top
}

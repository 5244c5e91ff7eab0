//go:build cgo

// Command matvec-variants times WGSL variants of one decode product (a
// Q4_0 matrix times one activation row) on the WebGPU adapter, so kernel
// designs can be compared before one of them replaces the product's
// kernel: the variants live here, the product keeps the winner.
//
//	go run ./bench/matvec-variants [-k 4096 -n 14336] [-copies 8] cur:2:64 i8blk:2:64 ...
//
// A variant is DESIGN:ROWS:WG: q4_0/DESIGN.wgsl's kernel after
// q4_0/head.wgsl.in (the reduction and the helpers every design shares),
// with ROWS rows a workgroup of WG threads.
//
// Every variant gets the same buffers, in its choice of layout (it binds
// the ones it reads): W, the file's rows (18-byte blocks); WQ and WD, the
// same weights repacked (16 aligned bytes of nibbles a block, and the f16
// scales apart); W20, the file's blocks padded to 20 bytes; X, the activations rounded to Q8_0 values as f32 (what
// the product reads today); XQ and XS, the same activations as packed
// 8-bit integers and per block (scale, sum of the integers). Its output
// is checked against a float64 product on the CPU, then timed over
// -copies weight matrices in turn, so that the weights come from memory
// and not from the L2 cache, many dispatches in one submission.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/engine/quant"
)

var (
	kFlag      = flag.Int("k", 4096, "row length (a multiple of 64)")
	nFlag      = flag.Int("n", 14336, "rows")
	copiesFlag = flag.Int("copies", 8, "weight matrices timed in turn (more than the L2 holds)")
	repsFlag   = flag.Int("reps", 200, "dispatches a submission")
)

// gpuState is the adapter's device and queue.
type gpuState struct {
	dev   *wgpu.Device
	queue *wgpu.Queue
}

func main() {
	flag.Parse()
	if err := run(flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "matvec-variants:", err)
		os.Exit(1)
	}
}

func open() (*gpuState, string, error) {
	wgpu.SetLogLevel(wgpu.LogLevelError)
	inst := wgpu.CreateInstance(nil)
	ad, err := inst.RequestAdapter(&wgpu.RequestAdapterOptions{PowerPreference: wgpu.PowerPreferenceHighPerformance})
	if err != nil || ad == nil {
		return nil, "", fmt.Errorf("no adapter: %v", err)
	}
	al := ad.GetLimits()
	lim := wgpu.DefaultLimits()
	lim.MaxStorageBufferBindingSize = al.MaxStorageBufferBindingSize
	lim.MaxBufferSize = al.MaxBufferSize
	lim.MaxStorageBuffersPerShaderStage = max(8, min(al.MaxStorageBuffersPerShaderStage, 10))
	lim.MaxComputeWorkgroupStorageSize = al.MaxComputeWorkgroupStorageSize
	lim.MaxComputeInvocationsPerWorkgroup = al.MaxComputeInvocationsPerWorkgroup
	lim.MaxComputeWorkgroupSizeX = al.MaxComputeWorkgroupSizeX
	var feats []wgpu.FeatureName
	if ad.HasFeature(wgpu.NativeFeatureSubgroup) {
		feats = append(feats, wgpu.NativeFeatureSubgroup)
	}
	dev, err := ad.RequestDevice(&wgpu.DeviceDescriptor{Label: "variants", RequiredFeatures: feats, RequiredLimits: &lim})
	if err != nil {
		return nil, "", err
	}
	info := ad.GetInfo()
	return &gpuState{dev: dev, queue: dev.GetQueue()}, info.Device + " (" + info.Description + ")", nil
}

func (g *gpuState) buffer(name string, data []byte) (*wgpu.Buffer, error) {
	size := (uint64(len(data)) + 15) &^ 15
	b, err := g.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Label: name, Size: size,
		Usage: wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst | wgpu.BufferUsageCopySrc | wgpu.BufferUsageUniform})
	if err != nil {
		return nil, err
	}
	padded := make([]byte, size)
	copy(padded, data)
	return b, g.queue.TryWriteBuffer(b, 0, padded)
}

func (g *gpuState) read(b *wgpu.Buffer, n int) ([]byte, error) {
	stage, err := g.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Size: uint64(n), Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst})
	if err != nil {
		return nil, err
	}
	defer stage.Release()
	enc, err := g.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	if err := enc.TryCopyBufferToBuffer(b, 0, stage, 0, uint64(n)); err != nil {
		return nil, err
	}
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return nil, err
	}
	g.queue.Submit(cmd)
	ok := false
	if err := stage.TryMapAsync(wgpu.MapModeRead, 0, uint64(n), func(s wgpu.MapAsyncStatus) { ok = s == wgpu.MapAsyncStatusSuccess }); err != nil {
		return nil, err
	}
	g.dev.Poll(true, nil)
	if !ok {
		return nil, fmt.Errorf("map failed")
	}
	out := append([]byte(nil), stage.GetMappedRange(0, uint(n))...)
	return out, stage.TryUnmap()
}

// weights is one matrix in each layout.
type weights struct{ w, wq, wd, w20 []byte }

// makeWeights draws random Q4_0 rows (scales 0.01..0.03) and repacks them.
func makeWeights(r *rand.Rand, k, n int) (weights, [][]float64) {
	nb := k / 32
	w := make([]byte, n*nb*18)
	wq := make([]byte, n*nb*16)
	wd := make([]byte, n*nb*2)
	w20 := make([]byte, n*nb*20)
	deq := make([][]float64, n)
	for row := range n {
		deq[row] = make([]float64, k)
		for b := range nb {
			i := row*nb + b
			d := quant.F32ToF16(0.01 + 0.02*r.Float32())
			df := float64(quant.F16ToF32(d))
			binary.LittleEndian.PutUint16(w[i*18:], d)
			binary.LittleEndian.PutUint16(wd[i*2:], d)
			binary.LittleEndian.PutUint16(w20[i*20:], d)
			for j := range 16 {
				q := byte(r.UintN(256))
				w[i*18+2+j] = q
				wq[i*16+j] = q
				w20[i*20+4+j] = q
				deq[row][b*32+j] = df * float64(int(q&15)-8)
				deq[row][b*32+16+j] = df * float64(int(q>>4)-8)
			}
		}
	}
	return weights{w, wq, wd, w20}, deq
}

// makeActivations rounds random normal activations to Q8_0 (f16 scale from
// the largest magnitude, as llama.cpp's quantize_row_q8_0) in both forms.
func makeActivations(r *rand.Rand, k int) (x, xq, xs []byte, vals []float64) {
	x = make([]byte, 4*k)
	xq = make([]byte, k)
	xs = make([]byte, 8*(k/32))
	vals = make([]float64, k)
	for b := range k / 32 {
		v := make([]float32, 32)
		amax := float32(0)
		for j := range v {
			v[j] = float32(r.NormFloat64())
			amax = max(amax, float32(math.Abs(float64(v[j]))))
		}
		d := amax / 127
		id := float32(0)
		if d != 0 {
			id = 1 / d
		}
		dh := quant.F16ToF32(quant.F32ToF16(d))
		sum := 0
		for j := range v {
			q := int(math.Round(float64(v[j] * id)))
			sum += q
			xq[b*32+j] = byte(int8(q))
			f := float32(q) * dh
			binary.LittleEndian.PutUint32(x[4*(b*32+j):], math.Float32bits(f))
			vals[b*32+j] = float64(f)
		}
		binary.LittleEndian.PutUint32(xs[8*b:], math.Float32bits(dh))
		binary.LittleEndian.PutUint32(xs[8*b+4:], math.Float32bits(float32(sum)))
	}
	return
}

var (
	bindingRE = regexp.MustCompile(`@binding\((\d+)\)`)
	variantRE = regexp.MustCompile(`^(\w+):(\d+):(\d+)$`)
)

// source assembles variant DESIGN:ROWS:WG and returns it with its rows a
// workgroup.
func source(variant string) (string, int, error) {
	m := variantRE.FindStringSubmatch(variant)
	if m == nil {
		return "", 0, fmt.Errorf("variant %q is not DESIGN:ROWS:WG", variant)
	}
	dir := filepath.Join(filepath.Dir(os.Args[0]), "q4_0")
	if _, err := os.Stat(dir); err != nil {
		dir = "bench/matvec-variants/q4_0"
	}
	head, err := os.ReadFile(filepath.Join(dir, "head.wgsl.in"))
	if err != nil {
		return "", 0, err
	}
	body, err := os.ReadFile(filepath.Join(dir, m[1]+".wgsl"))
	if err != nil {
		return "", 0, err
	}
	src := strings.NewReplacer("@ROWS@", m[2], "@WG@", m[3]).Replace(string(head)) + string(body)
	rows, _ := strconv.Atoi(m[2])
	return src, rows, nil
}

func run(files []string) error {
	if len(files) == 0 {
		return fmt.Errorf("name the variants (DESIGN:ROWS:WG)")
	}
	k, n, copies := *kFlag, *nFlag, *copiesFlag
	if k%64 != 0 {
		return fmt.Errorf("-k %d is not a multiple of 64", k)
	}
	g, name, err := open()
	if err != nil {
		return err
	}
	fmt.Printf("adapter: %s\nQ4_0 %dx%d (k x n), %d copies of %.1f MB, %d dispatches a submission\n",
		name, k, n, copies, float64(n*k/32*18)/1e6, *repsFlag)
	r := rand.New(rand.NewPCG(7, 9))
	params := make([]byte, 16)
	binary.LittleEndian.PutUint32(params[0:], uint32(k))
	binary.LittleEndian.PutUint32(params[4:], uint32(n))
	binary.LittleEndian.PutUint32(params[8:], uint32(k/32))
	binary.LittleEndian.PutUint32(params[12:], uint32(k/32*18))
	x, xq, xs, xv := makeActivations(r, k)
	// Binding numbers of the variants: 0 params, 1 W, 2 WQ, 3 WD, 4 X,
	// 5 XQ, 6 XS, 7 O, 8 W20 (the file's blocks padded to 20 bytes: f16
	// scale, 2 bytes of padding, the nibbles word-aligned).
	shared := map[int]*wgpu.Buffer{}
	if shared[0], err = g.buffer("params", params); err != nil {
		return err
	}
	for i, d := range map[int][]byte{4: x, 5: xq, 6: xs, 7: make([]byte, 4*n)} {
		if shared[i], err = g.buffer(fmt.Sprint(i), d); err != nil {
			return err
		}
	}
	var want []float64
	perCopy := make([]map[int]*wgpu.Buffer, copies)
	for c := range copies {
		ws, deq := makeWeights(r, k, n)
		if c == 0 {
			want = make([]float64, n)
			for row := range n {
				for i, v := range deq[row] {
					want[row] += v * xv[i]
				}
			}
		}
		perCopy[c] = map[int]*wgpu.Buffer{}
		for i, d := range map[int][]byte{1: ws.w, 2: ws.wq, 3: ws.wd, 8: ws.w20} {
			if perCopy[c][i], err = g.buffer(fmt.Sprint("w", i), d); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		if err := variant(g, f, n, shared, perCopy, want); err != nil {
			fmt.Printf("%-16s error: %v\n", f, err)
		}
	}
	return nil
}

func variant(g *gpuState, name string, n int, shared map[int]*wgpu.Buffer, perCopy []map[int]*wgpu.Buffer, want []float64) error {
	src, rows, err := source(name)
	if err != nil {
		return err
	}
	mod, err := g.dev.TryCreateShaderModule(&wgpu.ShaderModuleDescriptor{WGSLSource: &wgpu.ShaderSourceWGSL{Code: src}})
	if err != nil {
		return err
	}
	pipe, err := g.dev.TryCreateComputePipeline(&wgpu.ComputePipelineDescriptor{Compute: wgpu.ProgrammableStageDescriptor{Module: mod, EntryPoint: "main"}})
	if err != nil {
		return err
	}
	used := map[int]bool{}
	for _, b := range bindingRE.FindAllStringSubmatch(src, -1) {
		i, _ := strconv.Atoi(b[1])
		used[i] = true
	}
	layout := pipe.GetBindGroupLayout(0)
	groups := make([]*wgpu.BindGroup, len(perCopy))
	for c := range perCopy {
		var entries []wgpu.BindGroupEntry
		for i := range 9 {
			if !used[i] {
				continue
			}
			b := shared[i]
			if b == nil {
				b = perCopy[c][i]
			}
			entries = append(entries, wgpu.BindGroupEntry{Binding: uint32(i), Buffer: b, Size: wgpu.WholeSize})
		}
		if groups[c], err = g.dev.TryCreateBindGroup(&wgpu.BindGroupDescriptor{Layout: layout, Entries: entries}); err != nil {
			return err
		}
	}
	wgs := (n + rows - 1) / rows
	submit := func(reps int) (time.Duration, error) {
		enc, err := g.dev.TryCreateCommandEncoder(nil)
		if err != nil {
			return 0, err
		}
		pass := enc.BeginComputePass(nil)
		pass.SetPipeline(pipe)
		for i := range reps {
			pass.SetBindGroup(0, groups[i%len(groups)], nil)
			pass.DispatchWorkgroups(uint32(min(wgs, 65535)), uint32((wgs+65534)/65535), 1)
		}
		if err := pass.TryEnd(); err != nil {
			return 0, err
		}
		cmd, err := enc.TryFinish(nil)
		if err != nil {
			return 0, err
		}
		t0 := time.Now()
		g.queue.Submit(cmd)
		g.dev.Poll(true, nil)
		return time.Since(t0), nil
	}
	if _, err := submit(1); err != nil {
		return err
	}
	out, err := g.read(shared[7], 4*n)
	if err != nil {
		return err
	}
	worst := 0.0
	scale := 0.0
	for _, w := range want {
		scale = max(scale, math.Abs(w))
	}
	for i, w := range want {
		got := float64(math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:])))
		worst = max(worst, math.Abs(got-w)/scale)
	}
	if worst > 1e-4 {
		return fmt.Errorf("wrong: worst error %.3g of the largest output", worst)
	}
	best := time.Duration(math.MaxInt64)
	for range 5 {
		d, err := submit(*repsFlag)
		if err != nil {
			return err
		}
		best = min(best, d)
	}
	us := best.Seconds() * 1e6 / float64(*repsFlag)
	bytes := float64(n * (*kFlag) / 32 * 18)
	fmt.Printf("%-16s %8.2f us  %7.1f GB/s  (err %.1e)\n", name, us, bytes/us/1e3, worst)
	return nil
}

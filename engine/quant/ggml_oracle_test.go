package quant

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/internal/oracle"
)

// Agreement with llama.cpp itself: testdata/ggml_oracle.c is compiled with
// gcc against the prebuilt libggml-base.so that node-llama-cpp ships, and
// runs ggml's encoders and decoders on the same inputs.

type ggmlOracle struct{ bin, dir string }

func buildGGMLOracle(t *testing.T) *ggmlOracle {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the prebuilt libggml-base.so is for linux/amd64, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	libDir := filepath.Join(oracle.Dir(), "node_modules", "@node-llama-cpp", "linux-x64", "bins", "linux-x64")
	if _, err := os.Stat(filepath.Join(libDir, "libggml-base.so")); err != nil {
		t.Skipf("libggml-base.so is missing from %s (make oracle installs it): %v", libDir, err)
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc is not installed: cannot build the ggml oracle")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ggml_oracle")
	cmd := exec.Command(gcc, "-O2", "-o", bin, filepath.Join("testdata", "ggml_oracle.c"),
		"-L"+libDir, "-lggml-base", "-Wl,-rpath,"+libDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the ggml oracle: %v\n%s", err, out)
	}
	return &ggmlOracle{bin: bin, dir: dir}
}

func (o *ggmlOracle) run(t *testing.T, mode string, typ gguf.TensorType, n, nbytes int, in []byte) []byte {
	t.Helper()
	inPath, outPath := filepath.Join(o.dir, "in.bin"), filepath.Join(o.dir, "out.bin")
	if err := os.WriteFile(inPath, in, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(o.bin, mode, strconv.Itoa(int(typ)), strconv.Itoa(n), strconv.Itoa(nbytes), inPath, outPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ggml oracle %s %s: %v\n%s", mode, typ, err, out)
	}
	out, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// quantize runs ggml's encoder on rows of rowLen values.
func (o *ggmlOracle) quantize(t *testing.T, typ gguf.TensorType, x []float32, rowLen int) []byte {
	in := make([]byte, 4*len(x))
	encodeF32(x, in)
	return o.run(t, "quant", typ, rowLen, typ.RowBytes(len(x)), in)
}

func (o *ggmlOracle) dequantize(t *testing.T, typ gguf.TensorType, q []byte, n int) []float32 {
	out := o.run(t, "dequant", typ, n, len(q), q)
	y := make([]float32, n)
	decodeF32(out, y)
	return y
}

// sameFloats compares bit for bit, except that two NaNs are equal when
// nanAny is set (which NaN a subtraction of two NaNs yields depends on the
// operand order the compiler picked). It returns the count of differences
// and of NaN pairs, and the first difference.
func sameFloats(a, b []float32, nanAny bool) (diffs, nans int, first string) {
	for i := range a {
		ba, bb := math.Float32bits(a[i]), math.Float32bits(b[i])
		if ba == bb {
			continue
		}
		if nanAny && a[i] != a[i] && b[i] != b[i] {
			nans++
			continue
		}
		if diffs == 0 {
			first = fmt.Sprintf("element %d: ours %g (%#08x), ggml %g (%#08x)", i, a[i], ba, b[i], bb)
		}
		diffs++
	}
	return
}

func TestGGMLAgreement(t *testing.T) {
	o := buildGGMLOracle(t)

	t.Run("F16/all-halves", func(t *testing.T) {
		q := make([]byte, 2*65536)
		for h := range 65536 {
			binary.LittleEndian.PutUint16(q[2*h:], uint16(h))
		}
		want := o.dequantize(t, gguf.F16, q, 65536)
		got := make([]float32, 65536)
		if err := Dequantize(gguf.F16, q, got); err != nil {
			t.Fatal(err)
		}
		if d, _, first := sameFloats(got, want, false); d > 0 {
			t.Errorf("%d of 65536 halves decode differently; first %s", d, first)
		}
	})

	for _, typ := range decodeTypes {
		if typ == gguf.Q8_1 || typ == gguf.F32 {
			continue // ggml has no decoder for these; known-answer tests cover them
		}
		t.Run("dequant/"+typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(typ), 11))
			n := 64 * 256
			q := make([]byte, typ.RowBytes(n))
			for i := range q {
				q[i] = byte(r.Uint32())
			}
			// Half the blocks get finite, moderate scales so most values are
			// ordinary numbers; the rest keep raw random bits (NaN, Inf,
			// subnormal scales) to pin the edge behaviour too.
			saneScales(typ, q[:len(q)/2], r)
			want := o.dequantize(t, typ, q, n)
			got := make([]float32, n)
			if err := Dequantize(typ, q, got); err != nil {
				t.Fatal(err)
			}
			d, nans, first := sameFloats(got, want, true)
			if d > 0 {
				t.Errorf("%d of %d values differ; first %s", d, n, first)
			}
			if nans > 0 {
				t.Logf("%d NaN results compared as equal", nans)
			}
		})
	}

	_, weights := storiesWeights(t)
	for _, typ := range encodeTypes {
		t.Run("quant/"+typ.String(), func(t *testing.T) {
			inputs := map[string][]float32{
				"normal":  normalFloats(uint64(typ)+100, 256*256),
				"awkward": awkwardFloats(uint64(typ)+200, 256*240),
			}
			for i, w := range weights {
				if len(w)%256 == 0 {
					inputs[fmt.Sprintf("stories-%d", i)] = w
				}
			}
			for name, x := range inputs {
				want := o.quantize(t, typ, x, 256)
				got := make([]byte, typ.RowBytes(len(x)))
				if err := Quantize(typ, x, got); err != nil {
					t.Fatal(err)
				}
				if bad, first := blockDiffs(typ, got, want); bad > 0 {
					t.Errorf("%s: %d of %d blocks differ from ggml's; first at block %d",
						name, bad, len(got)/typ.TypeSize(), first)
				}
			}
		})
	}
}

func blockDiffs(typ gguf.TensorType, a, b []byte) (bad, first int) {
	first = -1
	ts := typ.TypeSize()
	for i := 0; i+ts <= len(a); i += ts {
		if string(a[i:i+ts]) != string(b[i:i+ts]) {
			if first < 0 {
				first = i / ts
			}
			bad++
		}
	}
	return
}

// saneScales overwrites the f16/f32 scale fields of every block of q with
// random finite values of moderate size.
func saneScales(typ gguf.TensorType, q []byte, r *rand.Rand) {
	half := func() []byte {
		var b [2]byte
		binary.LittleEndian.PutUint16(b[:], F32ToF16(float32(r.NormFloat64())*0.1))
		return b[:]
	}
	var offs []int // offsets of f16 fields in a block
	switch typ {
	case gguf.F16:
		offs = []int{0}
	case gguf.Q4_0, gguf.Q5_0, gguf.Q8_0:
		offs = []int{0}
	case gguf.Q4_1, gguf.Q5_1, gguf.Q8_1, gguf.Q4_K, gguf.Q5_K:
		offs = []int{0, 2}
	case gguf.Q2_K:
		offs = []int{80, 82}
	case gguf.Q3_K:
		offs = []int{108}
	case gguf.Q6_K:
		offs = []int{208}
	case gguf.Q8_K:
		ts := typ.TypeSize()
		for i := 0; i+ts <= len(q); i += ts {
			binary.LittleEndian.PutUint32(q[i:], math.Float32bits(float32(r.NormFloat64())*0.01))
		}
		return
	default: // F32, BF16: random bits are mostly finite already
		return
	}
	ts := typ.TypeSize()
	for i := 0; i+ts <= len(q); i += ts {
		for _, o := range offs {
			copy(q[i+o:], half())
		}
	}
}

// TestGGMLErrorTable measures relative RMS error of ours and ggml's
// encoders on 1M N(0,1) values and on the stories260K weights, decoding
// both with the same decoder, and logs the table (go test -v -run
// ErrorTable). The two must agree, since the bytes do.
func TestGGMLErrorTable(t *testing.T) {
	o := buildGGMLOracle(t)
	n := 1 << 20
	if testing.Short() {
		n = 1 << 16
	}
	normal := normalFloats(42, n)
	_, weights := storiesWeights(t)
	var stories []float32
	for _, w := range weights {
		if len(w)%256 == 0 {
			stories = append(stories, w...)
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n%-6s  %-22s  %-22s\n", "type", "N(0,1) ours / ggml", "stories260K ours / ggml")
	for _, typ := range encodeTypes {
		fmt.Fprintf(&sb, "%-6s", typ)
		for _, x := range [][]float32{normal, stories} {
			_, ours := roundTrip(t, typ, x)
			theirs := make([]float32, len(x))
			if err := Dequantize(typ, o.quantize(t, typ, x, 256), theirs); err != nil {
				t.Fatal(err)
			}
			eo, eg := relRMS(x, ours), relRMS(x, theirs)
			fmt.Fprintf(&sb, "  %9.3e / %9.3e", eo, eg)
			if eo != eg {
				t.Errorf("%s: relative RMS error %g, ggml's %g", typ, eo, eg)
			}
		}
		sb.WriteByte('\n')
	}
	t.Log(sb.String())
}

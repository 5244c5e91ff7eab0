package gguf

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// digestReader reads every tensor, in file order, through NewReader.
func digestReader(data []byte) (*File, []namedData, error) {
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, err
	}
	var out []namedData
	for _, t := range r.InFileOrder() {
		b, err := r.TensorData(t)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, namedData{t.Name, b})
	}
	return r.File, out, nil
}

// digestStream reads every tensor through NewStream of unknown size.
func digestStream(data []byte) (*File, []namedData, error) {
	s, err := NewStream(bytes.NewReader(data), -1)
	if err != nil {
		return nil, nil, err
	}
	var out []namedData
	for {
		t, rd, err := s.Next()
		if err == io.EOF {
			return s.File, out, nil
		}
		if err != nil {
			return nil, nil, err
		}
		b, err := io.ReadAll(rd)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, namedData{t.Name, b})
	}
}

// touchMetadata uses every value the way callers do, so that a value of an
// unexpected shape shows up as a panic here rather than in the engine.
func touchMetadata(f *File) {
	for _, kv := range f.Metadata.KVs {
		f.Metadata.Get(kv.Key)
		f.Metadata.Uint(kv.Key)
		f.Metadata.Float(kv.Key)
		f.Metadata.Ints(kv.Key)
		f.Metadata.Float32s(kv.Key)
		f.Metadata.Strings(kv.Key)
		if a, ok := kv.Value.V.(*Array); ok {
			a.Len()
		}
	}
	for _, t := range f.Tensors {
		t.Rows()
		t.Type.RowBytes(int(t.Dims[0]))
	}
}

func FuzzRead(f *testing.F) {
	// The committed corpus in testdata/fuzz/FuzzRead holds the seeds.
	f.Fuzz(func(t *testing.T, data []byte) {
		var fr, fs *File
		var dr, ds []namedData
		var errR, errS error
		n := allocated(func() {
			fr, dr, errR = digestReader(data)
			fs, ds, errS = digestStream(data)
		})
		// Both paths hold the tensor bytes once plus the metadata; a
		// generous multiple of the input plus fixed buffers covers that.
		if limit := uint64(16<<20 + 64*len(data)); n > limit {
			t.Fatalf("reading a %d-byte input allocated %d bytes (limit %d)", len(data), n, limit)
		}
		for _, err := range []error{errR, errS} {
			var fe *FormatError
			if err != nil && !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FormatError", err)
			}
		}
		// With the size known, problems are found in the header; without,
		// at the end of the stream: the verdict must be the same.
		if (errR == nil) != (errS == nil) {
			t.Fatalf("NewReader error %v, stream error %v", errR, errS)
		}
		if errR != nil {
			return
		}
		touchMetadata(fr)
		if len(fr.Metadata.KVs) != len(fs.Metadata.KVs) || len(fr.Tensors) != len(fs.Tensors) || fr.DataOffset != fs.DataOffset {
			t.Fatalf("reader and stream disagree on the header")
		}
		if len(dr) != len(ds) {
			t.Fatalf("reader gave %d tensors, stream %d", len(dr), len(ds))
		}
		for i := range dr {
			if dr[i].name != ds[i].name || !bytes.Equal(dr[i].data, ds[i].data) {
				t.Fatalf("tensor %d (%q): reader and stream bytes differ", i, dr[i].name)
			}
		}
	})
}

// fuzzSeeds are the corpus: small valid files covering the format's
// features, and corrupt ones near the checks.
func fuzzSeeds() map[string][]byte {
	rng := rand.New(rand.NewPCG(21, 22))
	seeds := map[string][]byte{}
	build := func(kvs []KV, tensors []testTensor, align uint64) []byte {
		w := NewWriter()
		w.Alignment = align
		for _, kv := range kvs {
			w.Metadata.Set(kv.Key, kv.Value)
		}
		for _, tt := range tensors {
			if err := w.AddTensorBytes(tt.name, tt.typ, tt.dims, tt.data); err != nil {
				panic(err)
			}
		}
		var buf bytes.Buffer
		if _, err := w.WriteTo(&buf); err != nil {
			panic(err)
		}
		return buf.Bytes()
	}
	small := func(n int) []testTensor {
		ts := randTensors(rng, n)
		for i := range ts { // keep the inputs small for the fuzzer
			ts[i].typ, ts[i].dims = F32, []uint64{uint64(1 + rng.IntN(6)), uint64(1 + rng.IntN(2))}
			ts[i].data = make([]byte, ts[i].dims[0]*ts[i].dims[1]*4)
			for j := range ts[i].data {
				ts[i].data[j] = byte(rng.Uint32())
			}
		}
		return ts
	}
	var kinds []KV
	for _, t := range scalarTypes {
		kinds = append(kinds, KV{"s." + t.String(), Value{t, randScalar(rng, t)}})
	}
	kinds = append(kinds, KV{"s.str", ValStr("hello")})
	for _, t := range allElemTypes {
		kinds = append(kinds, KV{"a." + t.String(), ValArray(t, randArray(rng, t, 2, 2).V)})
	}
	kinds = append(kinds, KV{"a.empty", ValArray(TypeString, []string{})})
	kinds = append(kinds, KV{"a.deep", Value{TypeArray, nestedChain(rng, maxNesting)}})

	seeds["empty"] = build(nil, nil, 0)
	seeds["one-tensor"] = build([]KV{{"general.architecture", ValStr("llama")}}, small(1), 0)
	seeds["every-kind"] = build(kinds, small(4), 0)
	seeds["quant-types"] = build([]KV{{"general.name", ValStr("q")}}, randTensors(rng, 3), 0)
	seeds["align-64"] = build([]KV{{"x", ValU8(1)}}, small(3), 64)
	seeds["align-1"] = build(nil, small(2), 1)

	var v2 rawFile
	v2.start(2, 2, 1)
	v2.keyType("general.architecture", TypeString)
	v2.str("llama")
	v2.tensor("b", F32, 32, 2)
	v2.tensor("a", F32, 0, 3) // table order differs from data order
	withData(&v2, 40)
	seeds["v2-shuffled"] = v2.b

	valid := seeds["every-kind"]
	seeds["bad-magic"] = append([]byte("GGML"), valid[4:]...)
	seeds["truncated-header"] = valid[:len(valid)/3]
	seeds["truncated-data"] = valid[:len(valid)-40]
	for _, h := range hostileFiles {
		switch h.name {
		case "overlapping tensors", "unknown tensor type 4", "arrays nested too deep", "u64 array past the end",
			"duplicate key", "row not a multiple of the block", "alignment 48", "offset past the end", "version 1":
			var r rawFile
			h.build(&r)
			seeds["bad-"+strings.ReplaceAll(h.name, " ", "-")] = r.b
		}
	}
	return seeds
}

const corpusDir = "testdata/fuzz/FuzzRead"

// TestFuzzCorpus checks that the committed seeds are the ones fuzzSeeds
// builds and that valid and corrupt seeds are told apart; with
// GGUF_WRITE_CORPUS=1 it rewrites them.
func TestFuzzCorpus(t *testing.T) {
	for name, data := range fuzzSeeds() {
		want := "go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n"
		path := filepath.Join(corpusDir, "seed-"+name)
		if os.Getenv("GGUF_WRITE_CORPUS") == "1" {
			if err := os.MkdirAll(corpusDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is missing or stale (%v); run with GGUF_WRITE_CORPUS=1", path, err)
		}
		_, _, errR := digestReader(data)
		_, _, errS := digestStream(data)
		corrupt := strings.HasPrefix(name, "bad-") || strings.HasPrefix(name, "truncated-")
		if corrupt != (errR != nil) || corrupt != (errS != nil) {
			t.Errorf("seed %s: reader error %v, stream error %v", name, errR, errS)
		}
	}
}

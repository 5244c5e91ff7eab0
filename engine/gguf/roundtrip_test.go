package gguf

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var scalarTypes = []ValueType{TypeUint8, TypeInt8, TypeUint16, TypeInt16, TypeUint32, TypeInt32,
	TypeFloat32, TypeBool, TypeUint64, TypeInt64, TypeFloat64}

// allElemTypes is every type an array element can have.
var allElemTypes = append(append([]ValueType(nil), scalarTypes...), TypeString, TypeArray)

func randString(rng *rand.Rand) string {
	b := make([]byte, rng.IntN(24))
	for i := range b {
		b[i] = byte(rng.IntN(256)) // GGUF strings are bytes, not necessarily UTF-8
	}
	return string(b)
}

// randFloat64 includes the values a careless encoder loses: negative zero,
// infinities and NaN payloads.
func randFloat64(rng *rand.Rand) float64 {
	switch rng.IntN(8) {
	case 0:
		return math.Copysign(0, -1)
	case 1:
		return math.Inf(1 - 2*rng.IntN(2))
	case 2:
		return math.Float64frombits(0x7ff8000000000000 | rng.Uint64()&0xfffffffffffff)
	}
	return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
}

func randFloat32(rng *rand.Rand) float32 {
	if rng.IntN(8) == 0 {
		return math.Float32frombits(0x7fc00000 | rng.Uint32()&0x3fffff)
	}
	return float32(randFloat64(rng))
}

func randScalar(rng *rand.Rand, t ValueType) any {
	u := rng.Uint64()
	switch t {
	case TypeUint8:
		return uint8(u)
	case TypeInt8:
		return int8(u)
	case TypeUint16:
		return uint16(u)
	case TypeInt16:
		return int16(u)
	case TypeUint32:
		return uint32(u)
	case TypeInt32:
		return int32(u)
	case TypeFloat32:
		return randFloat32(rng)
	case TypeBool:
		return u&1 == 1
	case TypeUint64:
		return u
	case TypeInt64:
		return int64(u)
	case TypeFloat64:
		return randFloat64(rng)
	case TypeString:
		return randString(rng)
	}
	panic("randScalar: " + t.String())
}

// randArray builds an array of elem with n elements; nested arrays go down
// to depth levels below this one.
func randArray(rng *rand.Rand, elem ValueType, n, depth int) *Array {
	a := &Array{Elem: elem}
	if elem == TypeArray {
		subs := make([]*Array, n)
		for i := range subs {
			if depth <= 1 {
				subs[i] = randArray(rng, scalarTypes[rng.IntN(len(scalarTypes))], rng.IntN(4), 0)
			} else {
				subs[i] = randArray(rng, allElemTypes[rng.IntN(len(allElemTypes))], rng.IntN(3), depth-1)
			}
		}
		a.V = subs
		return a
	}
	s := reflect.MakeSlice(reflect.SliceOf(reflect.TypeOf(randScalar(rng, elem))), n, n)
	for i := 0; i < n; i++ {
		s.Index(i).Set(reflect.ValueOf(randScalar(rng, elem)))
	}
	a.V = s.Interface()
	return a
}

// nestedChain is depth arrays, each holding the next, around an array of
// i16: the deepest nesting a test asks for.
func nestedChain(rng *rand.Rand, depth int) *Array {
	a := randArray(rng, TypeInt16, 3, 0)
	for i := 1; i < depth; i++ {
		a = &Array{TypeArray, []*Array{a, randArray(rng, TypeUint8, 0, 0)}}
	}
	return a
}

// allValueKinds is metadata with every scalar type, an array of every
// element type (non-empty and empty), arrays of arrays, and the deepest
// nesting the reader allows.
func allValueKinds(rng *rand.Rand) []KV {
	var kvs []KV
	for _, t := range append(append([]ValueType(nil), scalarTypes...), TypeString) {
		for i := 0; i < 3; i++ {
			kvs = append(kvs, KV{fmt.Sprintf("scalar.%s.%d", t, i), Value{t, randScalar(rng, t)}})
		}
	}
	for _, t := range allElemTypes {
		kvs = append(kvs, KV{"array." + t.String(), ValArray(t, randArray(rng, t, 5+rng.IntN(40), 3).V)})
		kvs = append(kvs, KV{"empty." + t.String(), ValArray(t, randArray(rng, t, 0, 1).V)})
	}
	kvs = append(kvs, KV{"array.str.big", ValArray(TypeString, randArray(rng, TypeString, 3000, 0).V)})
	kvs = append(kvs, KV{"nested.max", Value{TypeArray, nestedChain(rng, maxNesting)}})
	kvs = append(kvs, KV{"", ValStr("the empty key")})
	return kvs
}

// canon replaces floats by their bits so that comparisons see negative
// zero and NaN payloads, and normalises a nil slice to an empty one.
func canon(v any) any {
	switch x := v.(type) {
	case float32:
		return math.Float32bits(x)
	case float64:
		return math.Float64bits(x)
	case []float32:
		out := make([]uint32, len(x))
		for i, f := range x {
			out[i] = math.Float32bits(f)
		}
		return out
	case []float64:
		out := make([]uint64, len(x))
		for i, f := range x {
			out[i] = math.Float64bits(f)
		}
		return out
	case *Array:
		return [2]any{x.Elem, canon(x.V)}
	case []*Array:
		out := make([]any, len(x))
		for i, a := range x {
			out[i] = canon(a)
		}
		return out
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice && rv.Len() == 0 {
		return reflect.MakeSlice(rv.Type(), 0, 0).Interface()
	}
	return v
}

func sameValue(a, b Value) bool {
	return a.Type == b.Type && reflect.DeepEqual(canon(a.V), canon(b.V))
}

// testTensor is a tensor with random bytes, the reference its reads are
// compared with.
type testTensor struct {
	name string
	typ  TensorType
	dims []uint64
	data []byte
}

func randTensors(rng *rand.Rand, n int) []testTensor {
	types := []TensorType{F32, F16, Q4_0, Q8_0, Q4_K, Q6_K, I8, BF16, MXFP4, IQ4_XS}
	out := make([]testTensor, n)
	for i := range out {
		typ := types[rng.IntN(len(types))]
		dims := []uint64{uint64(typ.BlockSize() * (1 + rng.IntN(3)))}
		for r := rng.IntN(MaxDims); r > 0; r-- {
			dims = append(dims, uint64(1+rng.IntN(3)))
		}
		t := testTensor{name: fmt.Sprintf("blk.%d.w%d", i, rng.IntN(1000)), typ: typ, dims: dims}
		n := uint64(1)
		for _, d := range dims {
			n *= d
		}
		t.data = make([]byte, n/uint64(typ.BlockSize())*uint64(typ.TypeSize()))
		for j := range t.data {
			t.data[j] = byte(rng.Uint32())
		}
		out[i] = t
	}
	return out
}

func writeFile(t testing.TB, kvs []KV, tensors []testTensor, alignment uint64) []byte {
	t.Helper()
	w := NewWriter()
	w.Alignment = alignment
	for _, kv := range kvs {
		w.Metadata.Set(kv.Key, kv.Value)
	}
	for _, tt := range tensors {
		if err := w.AddTensorBytes(tt.name, tt.typ, tt.dims, tt.data); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	n, err := w.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

func checkMetadata(t *testing.T, f *File, kvs []KV) {
	t.Helper()
	if len(f.Metadata.KVs) < len(kvs) {
		t.Fatalf("read %d keys, wrote %d", len(f.Metadata.KVs), len(kvs))
	}
	for i, kv := range kvs {
		got := f.Metadata.KVs[i]
		if got.Key != kv.Key {
			t.Fatalf("key %d is %q, want %q (file order lost)", i, got.Key, kv.Key)
		}
		if !sameValue(got.Value, kv.Value) {
			t.Errorf("key %q: read %#v, wrote %#v", kv.Key, got.Value.V, kv.Value.V)
		}
		if v, ok := f.Metadata.Get(kv.Key); !ok || !sameValue(v, kv.Value) {
			t.Errorf("Get(%q) does not return the value read", kv.Key)
		}
	}
}

func TestRoundTripEveryValueType(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kvs := allValueKinds(rng)
	tensors := randTensors(rng, 6)
	data := writeFile(t, kvs, tensors, 0)

	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != 3 || r.Alignment != DefaultAlignment {
		t.Errorf("version %d alignment %d, want 3 and %d", r.Version, r.Alignment, DefaultAlignment)
	}
	if len(r.Metadata.KVs) != len(kvs) {
		t.Errorf("read %d keys, wrote %d", len(r.Metadata.KVs), len(kvs))
	}
	checkMetadata(t, r.File, kvs)
	checkTensors(t, r.File, tensors)
	st, err := NewStream(bytes.NewReader(data), -1)
	if err != nil {
		t.Fatal(err)
	}
	checkMetadata(t, st.File, kvs)
}

// TestWriterMatchesHandEncoding compares the Writer's bytes with the same
// file encoded field by field.
func TestWriterMatchesHandEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	kvs := allValueKinds(rng)
	tensors := randTensors(rng, 5)
	got := writeFile(t, kvs, tensors, 0)

	var raw rawFile
	raw.start(3, uint64(len(tensors)), uint64(len(kvs)))
	for _, kv := range kvs {
		raw.keyType(kv.Key, kv.Value.Type)
		raw.value(kv.Value)
	}
	var off uint64
	for _, tt := range tensors {
		raw.tensor(tt.name, tt.typ, off, tt.dims...)
		off += uint64((len(tt.data) + 31) / 32 * 32)
	}
	raw.padTo(32)
	for _, tt := range tensors {
		raw.bytes(tt.data...)
		raw.padTo(32)
	}
	if !bytes.Equal(got, raw.b) {
		i := 0
		for i < len(got) && i < len(raw.b) && got[i] == raw.b[i] {
			i++
		}
		t.Fatalf("writer output (%d bytes) differs from the hand encoding (%d bytes) at byte %d", len(got), len(raw.b), i)
	}
}

// checkTensors compares the tensor table with what was written.
func checkTensors(t *testing.T, f *File, want []testTensor) {
	t.Helper()
	if len(f.Tensors) != len(want) {
		t.Fatalf("%d tensors, want %d", len(f.Tensors), len(want))
	}
	for i, tt := range want {
		ti := f.Tensors[i]
		if ti.Name != tt.name || ti.Type != tt.typ || !reflect.DeepEqual(ti.Dims, tt.dims) || ti.Size != uint64(len(tt.data)) || ti.Index != i {
			t.Errorf("tensor %d: %+v, want %s %s %v (%d bytes)", i, ti, tt.name, tt.typ, tt.dims, len(tt.data))
		}
		if ti.Offset%f.Alignment != 0 {
			t.Errorf("tensor %q offset %d not aligned to %d", ti.Name, ti.Offset, f.Alignment)
		}
		if byName, ok := f.Tensor(tt.name); !ok || byName != ti {
			t.Errorf("Tensor(%q) lookup failed", tt.name)
		}
	}
}

type namedData struct {
	name string
	data []byte
}

// readEveryWay reads every tensor of the file at path through Open (mmap),
// NewReader (ReaderAt), NewStream with the size known and NewStream of
// unknown size, each in file order.
func readEveryWay(t *testing.T, path string) map[string][]namedData {
	t.Helper()
	out := map[string][]namedData{}
	fromReader := func(r *Reader) []namedData {
		var got []namedData
		for _, ti := range r.InFileOrder() {
			b, err := r.TensorData(ti)
			if err != nil {
				t.Fatal(err)
			}
			via, err := io.ReadAll(r.TensorReader(ti))
			if err != nil || !bytes.Equal(via, b) {
				t.Fatalf("TensorReader(%q) disagrees with TensorData (err %v)", ti.Name, err)
			}
			got = append(got, namedData{ti.Name, append([]byte(nil), b...)})
		}
		return got
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Mapped() && mmapExpected {
		t.Error("Open did not memory-map the file")
	}
	out["open"] = fromReader(r)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}

	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	r2, err := NewReader(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	if r2.Mapped() {
		t.Error("NewReader claims a mapping")
	}
	out["readerat"] = fromReader(r2)

	for _, size := range []int64{st.Size(), -1} {
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		s, err := NewStream(fh, size)
		if err != nil {
			t.Fatal(err)
		}
		var got []namedData
		for {
			ti, rd, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rd)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, namedData{ti.Name, b})
		}
		out[fmt.Sprintf("stream(size %d)", size)] = got
	}
	return out
}

func tempFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.gguf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEveryReadPathYieldsTheSameData(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tensors := randTensors(rng, 9)

	// A hand-made file whose tensor table order differs from the data
	// order, with a gap between two tensors: readers must follow offsets.
	var raw rawFile
	raw.start(3, uint64(len(tensors)), 1)
	raw.keyType("general.architecture", TypeString)
	raw.str("test")
	perm := rng.Perm(len(tensors))
	offsets := make([]uint64, len(tensors))
	var off uint64
	for _, i := range perm {
		offsets[i] = off
		off += uint64((len(tensors[i].data)+31)/32*32) + 64
	}
	for i, tt := range tensors {
		raw.tensor(tt.name, tt.typ, offsets[i], tt.dims...)
	}
	raw.padTo(32)
	base := len(raw.b)
	for _, i := range perm {
		raw.zeros(base + int(offsets[i]) - len(raw.b))
		raw.bytes(tensors[i].data...)
		for j := 0; j < 64; j++ {
			raw.u8(0xAA) // junk between tensors, never part of one
		}
	}
	var want []namedData
	for _, i := range perm {
		want = append(want, namedData{tensors[i].name, tensors[i].data})
	}

	for _, file := range []struct {
		name string
		data []byte
		want []namedData
	}{
		{"shuffled", raw.b, want},
		{"writer", writeFile(t, nil, tensors, 0), nil},
	} {
		w := file.want
		if w == nil {
			for _, tt := range tensors {
				w = append(w, namedData{tt.name, tt.data})
			}
		}
		for how, got := range readEveryWay(t, tempFile(t, file.data)) {
			if !reflect.DeepEqual(got, w) {
				t.Errorf("%s file via %s: tensors differ from what was written", file.name, how)
			}
		}
	}
}

func TestVersion2(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tensors := randTensors(rng, 3)
	kvs := []KV{
		{"general.architecture", ValStr("llama")},
		{"llama.block_count", ValU32(rng.Uint32())},
		{"tokenizer.ggml.tokens", ValStrs([]string{"a", "bc", ""})},
	}
	var raw rawFile
	raw.start(2, uint64(len(tensors)), uint64(len(kvs)))
	for _, kv := range kvs {
		raw.keyType(kv.Key, kv.Value.Type)
		raw.value(kv.Value)
	}
	var off uint64
	for _, tt := range tensors {
		raw.tensor(tt.name, tt.typ, off, tt.dims...)
		off += uint64((len(tt.data) + 31) / 32 * 32)
	}
	raw.padTo(32)
	for _, tt := range tensors {
		raw.bytes(tt.data...)
		raw.padTo(32)
	}
	r, err := NewReader(bytes.NewReader(raw.b), int64(len(raw.b)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != 2 {
		t.Errorf("version %d, want 2", r.Version)
	}
	checkMetadata(t, r.File, kvs)
	checkTensors(t, r.File, tensors)
	var want []namedData
	for _, tt := range tensors {
		want = append(want, namedData{tt.name, tt.data})
	}
	for how, got := range readEveryWay(t, tempFile(t, raw.b)) {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("v2 file via %s: tensors differ", how)
		}
	}
}

func TestAlignmentHonoured(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, align := range []uint64{1, 8, 64, 128, 4096} {
		tensors := randTensors(rng, 4)
		data := writeFile(t, []KV{{"general.name", ValStr("aligned")}}, tensors, align)
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("alignment %d: %v", align, err)
		}
		if r.Alignment != align || r.DataOffset%align != 0 {
			t.Errorf("alignment %d: read alignment %d, data offset %d", align, r.Alignment, r.DataOffset)
		}
		if a, ok := r.Metadata.Uint("general.alignment"); align != DefaultAlignment && (!ok || a != align) {
			t.Errorf("alignment %d: general.alignment not written (%d, %v)", align, a, ok)
		}
		checkTensors(t, r.File, tensors)
		for i, ti := range r.Tensors {
			b, _ := r.TensorData(ti)
			if !bytes.Equal(b, tensors[i].data) {
				t.Errorf("alignment %d: tensor %q data differs", align, ti.Name)
			}
		}
	}

	// By hand: alignment 128 with the second tensor at 128, which the
	// default alignment would also accept, and at 64, which it must refuse.
	for _, tc := range []struct {
		second uint64
		err    string
	}{{128, ""}, {64, "offset 64 is not aligned to 128"}} {
		var raw rawFile
		raw.start(3, 2, 1)
		raw.keyType("general.alignment", TypeUint32)
		raw.u32(128)
		raw.tensor("a", F32, 0, 4)
		raw.tensor("b", F32, tc.second, 4)
		raw.padTo(128)
		if len(raw.b) != 128 {
			t.Fatalf("header is %d bytes; the test assumes it pads to 128", len(raw.b))
		}
		raw.bytes(bytes.Repeat([]byte{1}, 16)...)
		raw.padTo(128)
		raw.bytes(bytes.Repeat([]byte{2}, 16)...)
		r, err := NewReader(bytes.NewReader(raw.b), int64(len(raw.b)))
		if tc.err != "" {
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.err)) {
				t.Errorf("second tensor at %d: error %v, want %q", tc.second, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.DataOffset != 128 {
			t.Errorf("data offset %d, want 128", r.DataOffset)
		}
		b, _ := r.TensorData(r.Tensors[1])
		if !bytes.Equal(b, bytes.Repeat([]byte{2}, 16)) {
			t.Errorf("tensor b read %v", b)
		}
	}
}

func TestWriterRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(w *Writer) error
		want  string
	}{
		{"value type mismatch", func(w *Writer) error { w.Metadata.Set("k", Value{TypeUint8, uint32(300)}); return nil }, "u8 holds uint32"},
		{"array elem mismatch", func(w *Writer) error { w.Metadata.Set("k", ValArray(TypeUint32, []float32{1})); return nil }, "array of u32 holds []float32"},
		{"nil array", func(w *Writer) error { w.Metadata.Set("k", Value{TypeArray, (*Array)(nil)}); return nil }, "not *Array"},
		{"too deep", func(w *Writer) error {
			w.Metadata.Set("k", Value{TypeArray, nestedChain(rand.New(rand.NewPCG(1, 1)), maxNesting+1)})
			return nil
		}, "nested deeper"},
		{"bad alignment", func(w *Writer) error { w.Alignment = 48; return nil }, "not a power of two"},
		{"alignment key type", func(w *Writer) error { w.Metadata.Set("general.alignment", ValU64(64)); return nil }, "must be a u32"},
		{"alignment disagrees", func(w *Writer) error {
			w.Alignment = 64
			w.Metadata.Set("general.alignment", ValU32(128))
			return nil
		}, "disagrees"},
		{"duplicate key", func(w *Writer) error {
			w.Metadata.KVs = append(w.Metadata.KVs, KV{"a", ValU8(1)}, KV{"a", ValU8(2)})
			return nil
		}, "duplicate metadata key"},
		{"short fill", func(w *Writer) error { return w.AddTensorBytes("t", F32, []uint64{4}, make([]byte, 12)) }, "wrote 12 bytes, want 16"},
		{"duplicate tensor", func(w *Writer) error {
			w.AddTensorBytes("t", F32, []uint64{1}, make([]byte, 4))
			return w.AddTensorBytes("t", F32, []uint64{1}, make([]byte, 4))
		}, "duplicate tensor"},
		{"zero dim", func(w *Writer) error { return w.AddTensorBytes("t", F32, []uint64{4, 0}, nil) }, "dimension 1 is 0"},
		{"block size", func(w *Writer) error { return w.AddTensorBytes("t", Q4_0, []uint64{48}, nil) }, "not a multiple"},
		{"unknown type", func(w *Writer) error { return w.AddTensorBytes("t", TensorType(4), []uint64{4}, nil) }, "unknown type"},
		{"rank 5", func(w *Writer) error { return w.AddTensorBytes("t", F32, []uint64{1, 1, 1, 1, 1}, nil) }, "5 dimensions"},
	} {
		var w Writer // the zero Writer must work
		err := tc.build(&w)
		if err == nil {
			_, err = w.WriteTo(io.Discard)
		}
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestMetadataAccessors(t *testing.T) {
	var m Metadata
	m.Set("u8", ValU8(200))
	m.Set("i8", ValI8(-5))
	m.Set("u64big", ValU64(math.MaxUint64))
	m.Set("f64", ValF64(2.5))
	m.Set("ints", ValArray(TypeInt16, []int16{-1, 2}))
	m.KVs = append(m.KVs, KV{"appended", ValBool(true)}) // direct append must still be found
	if v, ok := m.Uint("u8"); !ok || v != 200 {
		t.Errorf("Uint(u8) = %d %v", v, ok)
	}
	if _, ok := m.Uint("i8"); ok {
		t.Error("Uint accepted a negative value")
	}
	if v, ok := m.Int("i8"); !ok || v != -5 {
		t.Errorf("Int(i8) = %d %v", v, ok)
	}
	if _, ok := m.Int("u64big"); ok {
		t.Error("Int accepted a u64 beyond int64")
	}
	if v, ok := m.Float("f64"); !ok || v != 2.5 {
		t.Errorf("Float = %v %v", v, ok)
	}
	if v, ok := m.Ints("ints"); !ok || !reflect.DeepEqual(v, []int64{-1, 2}) {
		t.Errorf("Ints = %v %v", v, ok)
	}
	if v, ok := m.Bool("appended"); !ok || !v {
		t.Error("a key appended to KVs directly is not found")
	}
	m.Delete("i8")
	if m.Has("i8") || !m.Has("f64") || m.Len() != 5 {
		t.Errorf("after Delete: has i8 %v, has f64 %v, len %d", m.Has("i8"), m.Has("f64"), m.Len())
	}
	m.Set("f64", ValF64(1))
	if v, _ := m.Float("f64"); v != 1 || m.Len() != 5 {
		t.Error("Set did not replace in place")
	}
}

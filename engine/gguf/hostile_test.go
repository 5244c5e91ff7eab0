package gguf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
)

// readAll parses data with the given size (-1: a stream of unknown length)
// through NewStream and reads every tensor's bytes, returning the first
// error.
func readAllStream(data []byte, size int64) error {
	s, err := NewStream(bytes.NewReader(data), size)
	if err != nil {
		return err
	}
	for {
		_, rd, err := s.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, rd); err != nil {
			return err
		}
	}
}

// readAllReader parses data through NewReader and reads every tensor.
func readAllReader(data []byte) error {
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for _, t := range r.Tensors {
		if _, err := r.TensorData(t); err != nil {
			return err
		}
	}
	return nil
}

// allocated is the number of bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestTruncationAlwaysFails(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	synthetic := writeFile(t, allValueKinds(rng)[:40], randTensors(rng, 5), 0)
	files := map[string][]byte{"synthetic": synthetic}
	needStories(t)
	stories, err := os.ReadFile(storiesPath)
	if err != nil {
		t.Fatal(err)
	}
	files["stories260K"] = stories

	for name, data := range files {
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Past the end of the last tensor only padding remains: cutting
		// there leaves a valid file. Everything before must fail.
		end := int(r.DataOffset + r.DataSize())
		var cuts []int
		for n := 0; n <= int(r.DataOffset); n++ { // every byte of the header and its padding
			cuts = append(cuts, n)
		}
		for i := 0; i < 300; i++ { // sampled through the data
			cuts = append(cuts, int(r.DataOffset)+rng.IntN(end-int(r.DataOffset)))
		}
		cuts = append(cuts, end-1)
		for _, n := range cuts {
			cut := data[:n]
			if err := readAllReader(cut); err == nil {
				t.Fatalf("%s cut to %d of %d bytes: NewReader succeeded", name, n, len(data))
			} else if fe := (*FormatError)(nil); !errors.As(err, &fe) {
				t.Fatalf("%s cut to %d bytes: NewReader error %v is not a FormatError", name, n, err)
			}
			err := readAllStream(cut, -1)
			if err == nil {
				t.Fatalf("%s cut to %d of %d bytes: Stream read every tensor", name, n, len(data))
			}
			if !strings.Contains(err.Error(), "truncated") {
				t.Fatalf("%s cut to %d bytes: stream error %q does not say truncated", name, n, err)
			}
		}
		// The cut files above came from memory; one through Open too.
		path := tempFile(t, data[:end-1])
		if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "runs past the end") {
			t.Errorf("%s: Open of a file missing its last byte: %v", name, err)
		}
		if err := readAllReader(data[:end]); err != nil {
			t.Errorf("%s cut right after the last tensor: %v", name, err)
		}
		t.Logf("%s: %d cuts, header %d bytes, data ends at %d", name, len(cuts), r.DataOffset, end)
	}
}

// hostile is one malformed file: build writes it and returns the offset
// the error must name.
type hostile struct {
	name  string
	build func(r *rawFile) int64
	want  string // in the error when the size is known
	// in the error on a stream of unknown size, when that differs (size
	// checks become end-of-file errors there)
	streamWant string
}

// oneKV starts a file with no tensors and one key of type t, whose value
// the caller writes next.
func oneKV(r *rawFile, key string, t ValueType) {
	r.start(3, 0, 1)
	r.keyType(key, t)
}

// oneTensor starts a file with no keys and one tensor, returning the
// offset of the tensor info.
func oneTensor(r *rawFile, typ TensorType, offset uint64, dims ...uint64) int64 {
	r.start(3, 1, 0)
	at := r.pos()
	r.tensor("t", typ, offset, dims...)
	return at
}

// withData pads the header and appends n bytes of data.
func withData(r *rawFile, n int) {
	r.padTo(32)
	for i := 0; i < n; i++ {
		r.u8(byte(i*7 + 1))
	}
}

var hostileFiles = []hostile{
	{"bad magic", func(r *rawFile) int64 { r.bytes([]byte("GGML")...); r.u32(3); r.u64(0); r.u64(0); return 0 }, `not a GGUF file (magic "GGML"`, ""},
	{"empty file", func(r *rawFile) int64 { return 0 }, "file truncated inside the magic", ""},
	{"version 1", func(r *rawFile) int64 { r.start(1, 0, 0); return 4 }, "GGUF version 1 is not supported", ""},
	{"version 4", func(r *rawFile) int64 { r.start(4, 0, 0); return 4 }, "unsupported GGUF version 4", ""},
	{"big-endian", func(r *rawFile) int64 { r.start(0x03000000, 0, 0); return 4 }, "big-endian GGUF files are not supported", ""},
	{"absurd tensor count", func(r *rawFile) int64 { r.start(3, 1<<40, 0); return 8 }, "tensor count 1099511627776 exceeds the limit", ""},
	{"absurd kv count", func(r *rawFile) int64 { r.start(3, 0, 1<<40); return 16 }, "metadata count 1099511627776 exceeds the limit", ""},
	{"tensor count past the end", func(r *rawFile) int64 {
		r.start(3, 1000, 0)
		for i := 0; i < 3; i++ {
			r.tensor(fmt.Sprint(i), F32, uint64(32*i), 8)
		}
		return 24
	}, "tensor count 1000 cannot fit in the 99 bytes left", "truncated inside the tensor name length"},
	{"kv count past the end", func(r *rawFile) int64 {
		r.start(3, 0, 100000)
		for i := 0; i < 3; i++ {
			r.keyType(fmt.Sprint(i), TypeUint32)
			r.u32(uint32(i))
		}
		return 24
	}, "metadata count 100000 cannot fit in the 51 bytes left", "truncated inside the metadata key length"},
	{"absurd key length", func(r *rawFile) int64 { r.start(3, 0, 1); r.u64(1 << 62); r.zeros(32); return 24 },
		"metadata key length 4611686018427387904 exceeds the limit of 65536", ""},
	{"absurd string length", func(r *rawFile) int64 { oneKV(r, "k", TypeString); at := r.pos(); r.u64(1 << 40); return at },
		"string length 1099511627776 exceeds the limit", ""},
	{"string past the end", func(r *rawFile) int64 {
		oneKV(r, "k", TypeString)
		at := r.pos()
		r.u64(200 << 20)
		r.bytes([]byte("only a few bytes")...)
		return at
	}, "string length 209715200 runs past the end of the file (16 bytes left)", "truncated inside a 209715200-byte string"},
	{"absurd array length", func(r *rawFile) int64 {
		oneKV(r, "k", TypeArray)
		at := r.pos()
		r.typ(TypeUint8)
		r.u64(1 << 40)
		return at
	},
		"array length 1099511627776 exceeds the limit", ""},
	{"u64 array past the end", func(r *rawFile) int64 {
		oneKV(r, "k", TypeArray)
		r.typ(TypeUint64)
		r.u64(1 << 27)
		at := r.pos()
		r.zeros(64)
		return at
	}, "array element count 134217728 cannot fit in the 64 bytes left", "truncated inside an array of u64"},
	{"string array past the end", func(r *rawFile) int64 {
		oneKV(r, "k", TypeArray)
		r.typ(TypeString)
		r.u64(1 << 27)
		at := r.pos()
		r.str("a")
		r.str("b")
		return at
	}, "array element count 134217728 cannot fit", "truncated"},
	{"nested array past the end", func(r *rawFile) int64 {
		oneKV(r, "k", TypeArray)
		r.typ(TypeArray)
		r.u64(1 << 27)
		at := r.pos()
		r.typ(TypeUint8)
		r.u64(0)
		return at
	}, "array element count 134217728 cannot fit", "truncated"},
	{"unknown value type", func(r *rawFile) int64 {
		r.start(3, 0, 1)
		r.str("k")
		at := r.pos()
		r.u32(13)
		r.u64(0)
		return at
	},
		`unknown metadata value type 13 (metadata key "k")`, ""},
	{"unknown array element type", func(r *rawFile) int64 { oneKV(r, "k", TypeArray); at := r.pos(); r.u32(0xffff); r.u64(0); return at },
		"unknown array element type 65535", ""},
	{"unknown tensor type 4", func(r *rawFile) int64 { at := oneTensor(r, TensorType(4), 0, 32); return at + 8 + 1 + 4 + 8 },
		`tensor "t" has unknown type id 4`, ""},
	{"unknown tensor type 1000", func(r *rawFile) int64 { at := oneTensor(r, TensorType(1000), 0, 32); return at + 8 + 1 + 4 + 8 },
		`unknown type id 1000`, ""},
	{"n_dims 0", func(r *rawFile) int64 { at := oneTensor(r, F32, 0); withData(r, 32); return at + 9 }, `tensor "t" has 0 dimensions (want 1 to 4)`, ""},
	{"n_dims 5", func(r *rawFile) int64 { at := oneTensor(r, F32, 0, 1, 1, 1, 1, 1); return at + 9 }, `has 5 dimensions`, ""},
	{"zero dimension", func(r *rawFile) int64 { at := oneTensor(r, F32, 0, 4, 0, 2); return at + 9 + 4 + 8 }, `tensor "t" dimension 1 is 0`, ""},
	{"dimension beyond int64", func(r *rawFile) int64 { at := oneTensor(r, F32, 0, math.MaxUint64); return at + 13 }, "dimension 0 is 18446744073709551615", ""},
	{"dimension product overflows", func(r *rawFile) int64 { at := oneTensor(r, F32, 0, 1<<32, 1<<32); return at + 13 + 8 },
		"the product of its dimensions overflows", ""},
	{"byte size overflows", func(r *rawFile) int64 { at := oneTensor(r, F64, 0, 1<<31, 1<<31); return at + 13 + 16 },
		"byte size overflows", ""},
	{"unaligned offset", func(r *rawFile) int64 { at := oneTensor(r, F32, 16, 4); withData(r, 64); return at },
		`tensor "t" offset 16 is not aligned to 32`, ""},
	{"offset overflows", func(r *rawFile) int64 { at := oneTensor(r, F32, math.MaxInt64-31, 16); return at },
		"plus its size 64 overflows", ""},
	{"offset past the end", func(r *rawFile) int64 { oneTensor(r, F32, 1<<20, 4); withData(r, 64); return 64 + 1<<20 },
		`tensor "t" (16 bytes at data offset 1048576) runs past the end of the file (128 bytes)`, "truncated in padding or skipped data"},
	{"size past the end", func(r *rawFile) int64 { oneTensor(r, F32, 32, 16); withData(r, 70); return 64 + 32 },
		`tensor "t" (64 bytes at data offset 32) runs past the end`, `truncated inside tensor "t"`},
	{"overlapping tensors", func(r *rawFile) int64 {
		r.start(3, 2, 0)
		r.tensor("a", F32, 0, 16)
		r.tensor("b", F32, 32, 4)
		withData(r, 96)
		return int64(len(r.b)) - 96 + 32
	}, `tensors "a" (data offset 0, 64 bytes) and "b" (data offset 32) overlap`, ""},
	{"duplicate key", func(r *rawFile) int64 {
		r.start(3, 0, 2)
		r.keyType("general.name", TypeUint8)
		r.u8(1)
		at := r.pos()
		r.keyType("general.name", TypeString)
		r.str("x")
		return at
	}, `duplicate metadata key "general.name"`, ""},
	{"duplicate tensor name", func(r *rawFile) int64 {
		r.start(3, 2, 0)
		r.tensor("w", F32, 0, 8)
		at := r.pos()
		r.tensor("w", F32, 32, 8)
		withData(r, 64)
		return at
	}, `duplicate tensor name "w"`, ""},
	{"row not a multiple of the block", func(r *rawFile) int64 { at := oneTensor(r, Q4_0, 0, 48, 2); withData(r, 64); return at + 13 + 16 },
		"row length 48 is not a multiple of the Q4_0 block size 32", ""},
	{"row not a multiple of the K block", func(r *rawFile) int64 { at := oneTensor(r, Q6_K, 0, 128); withData(r, 256); return at + 13 + 8 },
		"row length 128 is not a multiple of the Q6_K block size 256", ""},
	{"alignment 0", func(r *rawFile) int64 { oneKV(r, "general.alignment", TypeUint32); r.u32(0); return 24 },
		"general.alignment (u32 0) is not a power of two", ""},
	{"alignment 48", func(r *rawFile) int64 { oneKV(r, "general.alignment", TypeUint32); r.u32(48); return 24 },
		"general.alignment (u32 48) is not a power of two", ""},
	{"alignment 2^21", func(r *rawFile) int64 { oneKV(r, "general.alignment", TypeUint64); r.u64(1 << 21); return 24 },
		"general.alignment (u64 2097152) is not a power of two from 1 to 1048576", ""},
	{"alignment a string", func(r *rawFile) int64 { oneKV(r, "general.alignment", TypeString); r.str("64"); return 24 },
		"general.alignment (str 64) is not a power of two", ""},
	{"alignment a bool", func(r *rawFile) int64 { oneKV(r, "general.alignment", TypeBool); r.u8(1); return 24 },
		"general.alignment (bool true)", ""},
	{"alignment negative", func(r *rawFile) int64 { oneKV(r, "general.alignment", TypeInt32); r.u32(uint32(0xffffffe0)); return 24 },
		"general.alignment (i32 -32)", ""},
	{"arrays nested too deep", func(r *rawFile) int64 {
		oneKV(r, "k", TypeArray)
		for i := 0; i < maxNesting; i++ {
			r.typ(TypeArray)
			r.u64(1)
		}
		at := r.pos()
		r.typ(TypeUint8)
		r.u64(0)
		return at
	}, `arrays nested deeper than 8 (metadata key "k")`, ""},
	{"tensor name too long", func(r *rawFile) int64 {
		r.start(3, 1, 0)
		r.u64(70000)
		r.zeros(70000)
		return 24
	}, "tensor name length 70000 exceeds the limit of 65536", ""},
	{"truncated in a value", func(r *rawFile) int64 { oneKV(r, "k", TypeUint64); r.u32(7); return int64(len(r.b)) },
		`file truncated inside a u64 value (metadata key "k")`, ""},
}

func TestHostileFiles(t *testing.T) {
	for _, h := range hostileFiles {
		t.Run(h.name, func(t *testing.T) {
			var r rawFile
			at := h.build(&r)
			data := r.b

			err := readAllReader(data)
			var fe *FormatError
			if err == nil || !errors.As(err, &fe) {
				t.Fatalf("NewReader: error %v, want a FormatError", err)
			}
			if !strings.Contains(err.Error(), h.want) {
				t.Errorf("NewReader: error %q does not contain %q", err, h.want)
			}
			if fe.Offset != at || !strings.Contains(err.Error(), fmt.Sprintf("at offset %d:", at)) {
				t.Errorf("NewReader: error %q is at offset %d, want %d", err, fe.Offset, at)
			}

			// The same file as a stream of unknown size: size checks turn
			// into end-of-file errors, and lying lengths must not make
			// the reader allocate what they claim.
			want := h.streamWant
			if want == "" {
				want = h.want
			}
			var serr error
			n := allocated(func() { serr = readAllStream(data, -1) })
			if serr == nil || !errors.As(serr, &fe) {
				t.Fatalf("stream: error %v, want a FormatError", serr)
			}
			if !strings.Contains(serr.Error(), want) {
				t.Errorf("stream: error %q does not contain %q", serr, want)
			}
			if h.streamWant == "" && fe.Offset != at {
				t.Errorf("stream: error %q is at offset %d, want %d", serr, fe.Offset, at)
			}
			if n > 4<<20 {
				t.Errorf("stream: parsing a %d-byte file allocated %d bytes", len(data), n)
			}
		})
	}
}

// TestLyingLengthsOnEndlessStream feeds lengths that are each within the
// limits but together claim gigabytes, from a stream that delivers slowly
// and then ends: memory must track the bytes delivered, not the claims.
func TestLyingLengthsOnEndlessStream(t *testing.T) {
	var r rawFile
	r.start(3, 0, 1)
	r.keyType("k", TypeArray)
	r.typ(TypeString)
	r.u64(maxArrayLen)
	for i := 0; i < 1000; i++ {
		r.str("tok")
	}
	r.u64(maxStringLen) // one string claims 256 MiB and gets 1 KiB
	r.zeros(1024)
	var err error
	n := allocated(func() {
		_, err = NewStream(io.MultiReader(bytes.NewReader(r.b)), -1)
	})
	if err == nil || !strings.Contains(err.Error(), "truncated inside a 268435456-byte string") {
		t.Fatalf("error %v", err)
	}
	if n > 2<<20 {
		t.Errorf("allocated %d bytes for a %d-byte stream", n, len(r.b))
	}
}

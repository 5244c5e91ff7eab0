package metal

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/emberllm/ember/gpu"
)

// A kernel's parameters are a Go struct (the ...Params types beside each
// lowering), declared to the kernel as an MSL struct Params made from the
// Go type (paramDecl) and passed as the struct's bytes (packParams), so
// kernels read P.K or at(P.In, ...) and the two sides cannot disagree on
// a layout. Every field is one or more 4-byte words: int, uint32 and bool
// are an MSL uint (a bool is 0 or 1), float32 a float, [4]int a uint[4],
// loc a Loc. An embedded struct's fields are the struct's own, in place,
// so a piece of MSL shared by several kernels reads the same names in
// each; another struct field is a nested MSL struct of its Go type's name.

// loc is where a tensor's elements are: the offset of its first and the
// stride of each dimension, in elements (4 bytes for F32 and I32, 2 for
// F16), as the kernels index them.
type loc struct {
	Off    uint32
	Stride [4]uint32
}

var (
	locType   = reflect.TypeFor[loc]()
	shapeType = reflect.TypeFor[[4]int]()
)

// prelude starts every kernel's source: the standard library, the Loc
// struct and at, a tensor's element index, and the step (stepBytes): its
// position, or, when its tokens are placed one by one (gpu.Place: a
// decode batch of several sequences, or a chunk of one sequence in a
// slot of a shared cache), each token's position and the cache row where
// its sequence starts. A token t is at position tok_pos(S, t), stored at
// cache row tok_base(S, t) + tok_pos(S, t), and attends to rows
// tok_base .. tok_base + tok_pos.
var prelude = `#include <metal_stdlib>
using namespace metal;
struct Loc { uint Off; uint Stride[4]; };
inline uint at(constant Loc& l, uint i0, uint i1, uint i2, uint i3) {
    return l.Off + i0 * l.Stride[0] + i1 * l.Stride[1] + i2 * l.Stride[2] + i3 * l.Stride[3];
}
struct Step { uint pos; uint placed; uint pad0; uint pad1; uint places[2 * ` + maxPlaces + `]; };
inline uint tok_pos(constant Step& S, uint t) { return S.placed != 0 ? S.places[2 * t] : S.pos + t; }
inline uint tok_base(constant Step& S, uint t) { return S.placed != 0 ? S.places[2 * t + 1] : 0; }
`

// maxPlaces is gpu.MaxPlaces as the prelude writes it.
var maxPlaces = strconv.Itoa(gpu.MaxPlaces)

// stepBytes is the size of the step the kernels read ([[buffer(1)]]):
// four words, then two for each of up to gpu.MaxPlaces tokens.
const stepBytes = 16 + 8*gpu.MaxPlaces

// paramDecl declares the parameter struct t as MSL: the nested structs it
// uses, then struct Params.
func paramDecl(t reflect.Type) (string, error) {
	if t.Kind() != reflect.Struct {
		return "", fmt.Errorf("parameters of type %s are not a struct", t)
	}
	var nested []string
	declared := map[reflect.Type]bool{}
	var fields func(t reflect.Type, b *strings.Builder) error
	fields = func(t reflect.Type, b *strings.Builder) error {
		for i := range t.NumField() {
			f := t.Field(i)
			switch {
			case f.Anonymous:
				if err := fields(f.Type, b); err != nil {
					return err
				}
			case f.Type == locType:
				fmt.Fprintf(b, "    Loc %s;\n", f.Name)
			case f.Type == shapeType:
				fmt.Fprintf(b, "    uint %s[4];\n", f.Name)
			case f.Type.Kind() == reflect.Struct:
				if !declared[f.Type] {
					declared[f.Type] = true
					var nb strings.Builder
					if err := fields(f.Type, &nb); err != nil {
						return err
					}
					nested = append(nested, fmt.Sprintf("struct %s {\n%s};\n", f.Type.Name(), nb.String()))
				}
				fmt.Fprintf(b, "    %s %s;\n", f.Type.Name(), f.Name)
			default:
				typ, err := wordType(f.Type)
				if err != nil {
					return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
				}
				fmt.Fprintf(b, "    %s %s;\n", typ, f.Name)
			}
		}
		return nil
	}
	var b strings.Builder
	if err := fields(t, &b); err != nil {
		return "", err
	}
	return strings.Join(nested, "") + "struct Params {\n" + b.String() + "};\n", nil
}

// wordType is the MSL type of a one-word field of Go type t.
func wordType(t reflect.Type) (string, error) {
	switch t.Kind() {
	case reflect.Int, reflect.Uint32, reflect.Bool:
		return "uint", nil
	case reflect.Float32:
		return "float", nil
	}
	return "", fmt.Errorf("a field of type %s is not a parameter", t)
}

// packParams is the bytes of parameter struct v as paramDecl lays it out.
func packParams(v any) ([]byte, error) {
	var out []byte
	word := func(u uint32) { out = binary.LittleEndian.AppendUint32(out, u) }
	count := func(name string, n int64) error {
		if n < 0 || n > math.MaxUint32 {
			return fmt.Errorf("parameter %s = %d does not fit a word", name, n)
		}
		word(uint32(n))
		return nil
	}
	var walk func(v reflect.Value) error
	walk = func(v reflect.Value) error {
		t := v.Type()
		for i := range v.NumField() {
			f, name := v.Field(i), t.Field(i).Name
			var err error
			switch {
			case f.Type() == locType:
				word(uint32(f.Field(0).Uint()))
				for j := range 4 {
					word(uint32(f.Field(1).Index(j).Uint()))
				}
			case f.Type() == shapeType:
				for j := range 4 {
					if err = count(name, f.Index(j).Int()); err != nil {
						break
					}
				}
			case f.Kind() == reflect.Struct:
				err = walk(f)
			case f.Kind() == reflect.Int:
				err = count(name, f.Int())
			case f.Kind() == reflect.Uint32:
				word(uint32(f.Uint()))
			case f.Kind() == reflect.Bool:
				word(uint32(b2i(f.Bool())))
			case f.Kind() == reflect.Float32:
				word(math.Float32bits(float32(f.Float())))
			default:
				err = fmt.Errorf("a field of type %s is not a parameter", f.Type())
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct {
		return nil, fmt.Errorf("parameters of type %T are not a struct", v)
	}
	if err := walk(rv); err != nil {
		return nil, err
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

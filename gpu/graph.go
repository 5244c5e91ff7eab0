// Package gpu is the kernel interface every ember backend implements.
//
// A model describes one step (a decode token, or a prefill chunk of a fixed
// number of tokens) as a Graph of typed ops over tensors. A Backend compiles
// a graph once into a Program and replays it every step; only Params (the
// position of the step's first token) change between replays. This is the
// lesson of the tinygrad work ember descends from: per-token dispatch
// overhead, not kernel quality, dominates decode, so a step must be one
// submission with no host round trip but the final small readback.
//
// Shapes follow ggml: Shape[0] is the fastest-varying (contiguous) dimension,
// so a matrix of N rows of K elements has Shape {K, N}. Activations of a
// step have the token dimension last.
package gpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// Type is the element type of a tensor: ggml's ids (F32, F16, I32 and the
// quantized block types).
type Type = gguf.TensorType

// Kind says where a tensor's memory comes from and who may touch it.
type Kind uint8

const (
	// Activation tensors are scratch memory the backend allocates for one
	// step; the host never sees them.
	Activation Kind = iota
	// External tensors are bound to a Buffer the host made: weights, the
	// KV cache (state that lives across steps and across graphs), inputs
	// written before a step (token ids) and outputs read after it.
	External
	// View tensors alias part of another tensor's memory.
	View
)

// Tensor is a node of a graph. Views carry byte strides, so an op can read
// a strided slice (one head of a fused projection, the rope part of a query)
// without a copy.
type Tensor struct {
	ID    int
	Name  string
	Type  Type
	Shape [4]int
	Kind  Kind
	Buf   Buffer  // External only
	Base  *Tensor // View only: the tensor aliased (never itself a view)
	Off   int     // View only: byte offset into Base
	// Stride is the byte step of each dimension; for non-views it is the
	// contiguous layout.
	Stride [4]int
}

// Elements is the product of the shape.
func (t *Tensor) Elements() int { return t.Shape[0] * t.Shape[1] * t.Shape[2] * t.Shape[3] }

// Rows is the number of rows (elements / Shape[0]).
func (t *Tensor) Rows() int { return t.Shape[1] * t.Shape[2] * t.Shape[3] }

// Contiguous reports whether the tensor's elements are densely packed in
// order.
func (t *Tensor) Contiguous() bool { return t.Stride == contiguous(t.Type, t.Shape) }

// Root is the tensor that owns the memory: Base for views, t otherwise.
func (t *Tensor) Root() *Tensor {
	if t.Kind == View {
		return t.Base
	}
	return t
}

func (t *Tensor) String() string {
	return fmt.Sprintf("%s %s%v", t.Name, t.Type, t.Shape)
}

// NewActivation is a packed activation that no op of a graph names: a
// backend's scratch between the kernels it lowers one op to.
func NewActivation(name string, typ Type, shape [4]int) *Tensor {
	return &Tensor{Name: name, Type: typ, Shape: shape, Kind: Activation, Stride: contiguous(typ, shape)}
}

func contiguous(typ Type, shape [4]int) [4]int {
	var s [4]int
	s[0] = typ.TypeSize()
	s[1] = typ.RowBytes(shape[0])
	s[2] = s[1] * shape[1]
	s[3] = s[2] * shape[2]
	return s
}

// Bytes is the size of a contiguous tensor of this type and shape.
func Bytes(typ Type, shape [4]int) int {
	return typ.RowBytes(shape[0]) * shape[1] * shape[2] * shape[3]
}

// Shape4 pads a shape of up to four dimensions with ones.
func Shape4(dims ...int) [4]int {
	s := [4]int{1, 1, 1, 1}
	copy(s[:], dims)
	return s
}

// Graph is one step of a model: tensors and the ops over them, in execution
// order. Tokens is the number of tokens the step processes (1 for decode).
type Graph struct {
	Name   string
	Tokens int
	// Independent says the step's tokens belong to different sequences
	// (a decode batch, each token placed by Params.Places): a backend whose
	// arithmetic depends on a step's token count (the CPU backend follows
	// llama.cpp's orders, which differ between one token and several)
	// computes each token as a step of that one token would, so that a
	// sequence's numbers do not depend on the batch it decodes in.
	Independent bool
	// Span, where set, is the most positions one sequence of the step
	// holds: a decode batch's sequences each have a slot of Span rows in
	// a cache of many. A backend sizes its attention grids to it rather
	// than to the whole cache, and refuses a run that places a token at
	// position Span or past.
	Span    int
	Tensors []*Tensor
	Ops     []Op
}

// SeqRows is how many rows of a cache of rows rows one sequence of the
// step reaches: Span where the cache holds several sequences' slots.
func (g *Graph) SeqRows(rows int) int {
	if g.Span > 0 {
		return min(rows, g.Span)
	}
	return rows
}

// NewGraph starts an empty graph for steps of the given number of tokens.
func NewGraph(name string, tokens int) *Graph { return &Graph{Name: name, Tokens: tokens} }

func (g *Graph) add(t *Tensor) *Tensor {
	t.ID = len(g.Tensors)
	g.Tensors = append(g.Tensors, t)
	return t
}

// New adds an activation tensor.
func (g *Graph) New(name string, typ Type, dims ...int) *Tensor {
	return g.add(NewActivation(name, typ, Shape4(dims...)))
}

// Bind adds a tensor backed by a host-made buffer (weight, cache, input,
// output); the tensor takes the buffer's type and shape.
func (g *Graph) Bind(name string, b Buffer) *Tensor {
	s := b.Shape()
	return g.add(&Tensor{Name: name, Type: b.Type(), Shape: s, Kind: External, Buf: b, Stride: contiguous(b.Type(), s)})
}

// View adds a tensor aliasing t's memory at byte offset off with the given
// shape and byte strides (nil strides: contiguous from off).
func (g *Graph) View(name string, t *Tensor, off int, shape [4]int, stride *[4]int) *Tensor {
	base := t.Root()
	if t.Kind == View {
		off += t.Off
	}
	st := contiguous(t.Type, shape)
	if stride != nil {
		st = *stride
	}
	return g.add(&Tensor{Name: name, Type: t.Type, Shape: shape, Kind: View, Base: base, Off: off, Stride: st})
}

// Reshape views a contiguous tensor with another shape of the same size.
func (g *Graph) Reshape(t *Tensor, dims ...int) *Tensor {
	s := Shape4(dims...)
	if !t.Contiguous() || Bytes(t.Type, s) != Bytes(t.Type, t.Shape) || s[0]%t.Type.BlockSize() != 0 {
		panic(fmt.Sprintf("gpu: cannot reshape %v to %v", t, s))
	}
	return g.View(t.Name, t, 0, s, nil)
}

// Do appends an op.
func (g *Graph) Do(op Op) { g.Ops = append(g.Ops, op) }

// Params is what changes between replays of a compiled graph.
type Params struct {
	// Pos is the position of the step's first token in the sequence: token
	// t of the step sits at Pos+t, is stored in the KV cache there, and
	// attends to positions 0..Pos+t.
	Pos int
	// Places, when set, places every token of the step on its own instead
	// (places.go): one Place a token, Pos unused.
	Places []Place
}

// Buffer is device memory the host made: weights, the KV cache, inputs and
// outputs. Read and Write are the only host<->device transfers.
type Buffer interface {
	Type() Type
	Shape() [4]int
	// Write copies src (the buffer's bytes from byte offset off) to the device.
	Write(off int, src []byte) error
	// Read copies the buffer's bytes from byte offset off into dst.
	Read(off int, dst []byte) error
}

// Program is a compiled graph.
type Program interface {
	// Run executes one step: one submission, no readback.
	Run(p Params) error
	// Kernels is the number of kernel dispatches one Run makes.
	Kernels() int
}

// Backend is one way of running graphs: the CPU, WebGPU, Metal.
type Backend interface {
	Name() string
	// Weight makes a read-only buffer from a tensor's bytes in its file
	// layout. Backends that can address host memory may keep data without
	// copying (it may be a read-only memory mapping).
	Weight(name string, typ Type, shape [4]int, data []byte) (Buffer, error)
	// Alloc makes a zero-filled read-write buffer (caches, inputs, outputs).
	Alloc(name string, typ Type, shape [4]int) (Buffer, error)
	// Compile prepares a graph for replay.
	Compile(g *Graph) (Program, error)
	// Sync waits until all submitted work is done (Read also waits).
	Sync() error
	Close() error
}

package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// queueDevice stands in for a device backend: copies, steps and reads
// join one queue and run in its order, only as far as a wait needs them,
// as a GPU runs submitted work while the host goes on.
type queueDevice struct {
	ops   []queued
	done  int
	steps int // steps run
	// behind records, at each wait, how many steps were queued after the
	// read and not yet run: the work the device has while the host reads.
	behind []int
}

type queued struct {
	step bool
	run  func()
}

func (d *queueDevice) push(step bool, f func()) { d.ops = append(d.ops, queued{step, f}) }

// runTo runs the queue up to and including op i.
func (d *queueDevice) runTo(i int) {
	for ; d.done <= i; d.done++ {
		if d.ops[d.done].step {
			d.steps++
		}
		d.ops[d.done].run()
	}
}

func (d *queueDevice) CopyBuffer(dst gpu.Buffer, dstOff int, src gpu.Buffer, srcOff, n int) error {
	s, t := src.(*queueBuffer), dst.(*queueBuffer)
	d.push(false, func() { copy(t.words[dstOff/4:], s.words[srcOff/4:srcOff/4+n/4]) })
	return nil
}

type queueBuffer struct {
	d     *queueDevice
	words []int32
}

func (b *queueBuffer) Type() gpu.Type          { return gpu.Type(0) }
func (b *queueBuffer) Shape() [4]int           { return gpu.Shape4(len(b.words)) }
func (b *queueBuffer) Write(int, []byte) error { return fmt.Errorf("not used") }
func (b *queueBuffer) Read(int, []byte) error  { return fmt.Errorf("not used") }

func (b *queueBuffer) StartRead(off, n int) (func([]byte) error, error) {
	at := len(b.d.ops)
	var got []int32
	b.d.push(false, func() { got = slices.Clone(b.words[off/4 : off/4+n/4]) })
	return func(dst []byte) error {
		behind := 0
		for _, o := range b.d.ops[at:] {
			if o.step {
				behind++
			}
		}
		b.d.behind = append(b.d.behind, behind)
		b.d.runTo(at)
		for i, w := range got {
			dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
		}
		return nil
	}, nil
}

// queueProgram is a decode step whose choice is a function of its token
// and position.
type queueProgram struct {
	d            *queueDevice
	tokens, next *queueBuffer
}

func choose(tok int32, pos int) int32 { return (tok*31 + int32(pos)*7 + 3) % 1000 }

func (p *queueProgram) Run(params gpu.Params) error {
	p.d.push(true, func() { p.next.words[0] = choose(p.tokens.words[0], params.Pos) })
	return nil
}
func (p *queueProgram) Kernels() int { return 1 }

// The pipe hands out every token of its budget in order, runs no step
// past it, and waits for each chain's tokens only with the next chain's
// steps already queued behind them, so the device never idles while the
// host reads.
func TestChainPipeOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for _, c := range []struct{ chainLen, steps int }{{chainSteps, 37}, {chainSteps, 8}, {chainSteps, 9}, {2, 5}, {3, 2}} {
		t.Run(fmt.Sprintf("chains of %d, %d steps", c.chainLen, c.steps), func(t *testing.T) {
			d := &queueDevice{}
			buf := func(n int) *queueBuffer { return &queueBuffer{d: d, words: make([]int32, n)} }
			tokens, next := buf(1), buf(1)
			st := &model.Step{Tokens: tokens, Next: next, Program: &queueProgram{d, tokens, next}}
			s := &Session{chainLen: c.chainLen, chosen: [2]gpu.Buffer{buf(chainSteps), buf(chainSteps)}}
			first, pos := int32(r.IntN(1000)), 10+r.IntN(100)
			// startChains' first step, the token written by the host
			tokens.words[0] = first
			if err := st.Program.Run(gpu.Params{Pos: pos}); err != nil {
				t.Fatal(err)
			}
			p := &chainPipe{s: s, st: st, cp: d, pos: pos, left: c.steps}
			if err := p.submit(true); err != nil {
				t.Fatal(err)
			}
			var want, got []int32
			tok := first
			for i := range c.steps {
				tok = choose(tok, pos+i)
				want = append(want, tok)
				id, err := p.next()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, id)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("tokens %v, want %v", got, want)
			}
			if _, err := p.next(); err == nil {
				t.Fatalf("a token past the budget of %d steps came back", c.steps)
			}
			d.runTo(len(d.ops) - 1)
			if d.steps != c.steps {
				t.Fatalf("%d steps run for a budget of %d", d.steps, c.steps)
			}
			chains := (c.steps + min(c.chainLen, chainSteps) - 1) / min(c.chainLen, chainSteps)
			if len(d.behind) != chains {
				t.Fatalf("%d reads waited for, want %d chains", len(d.behind), chains)
			}
			for i, b := range d.behind[:chains-1] {
				if b == 0 {
					t.Fatalf("chain %d of %d was waited for with no step queued behind it (%v)", i, chains, d.behind)
				}
			}
		})
	}
}

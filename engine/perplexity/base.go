package perplexity

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A base-logits file, as llama-perplexity's --kl-divergence-base writes it
// (little-endian, as on the machines llama.cpp writes it on):
//
//	"_logits_"                      8 bytes
//	n_ctx                           uint32
//	n_vocab, n_chunk                int32
//	tokens                          int32 × n_chunk·n_ctx, the text's tokens
//	                                (BOS first where the vocabulary adds it)
//	per chunk, per scored position  rowLen(n_vocab) uint16: see quantizeRow
//
// A chunk has n_ctx-1-n_ctx/2 scored positions: the logits of positions
// n_ctx/2 .. n_ctx-2, each predicting the next token.

const baseMagic = "_logits_"

// BaseHeader is what a base file says before its rows.
type BaseHeader struct {
	Ctx, Vocab, Chunks int
	Tokens             []int32 // Chunks·Ctx
}

// scored is the number of positions of a chunk of ctx tokens that are
// scored.
func scored(ctx int) int { return ctx - 1 - ctx/2 }

// BaseWriter writes a base file chunk by chunk.
type BaseWriter struct {
	w    *bufio.Writer
	h    BaseHeader
	rows []uint16
	buf  []byte
}

// NewBaseWriter writes h's header to w.
func NewBaseWriter(w io.Writer, h BaseHeader) (*BaseWriter, error) {
	if len(h.Tokens) != h.Chunks*h.Ctx {
		return nil, fmt.Errorf("base file: %d tokens for %d chunks of %d", len(h.Tokens), h.Chunks, h.Ctx)
	}
	bw := &BaseWriter{w: bufio.NewWriterSize(w, 1<<20), h: h}
	bw.w.WriteString(baseMagic)
	var head [12]byte
	binary.LittleEndian.PutUint32(head[0:], uint32(h.Ctx))
	binary.LittleEndian.PutUint32(head[4:], uint32(h.Vocab))
	binary.LittleEndian.PutUint32(head[8:], uint32(h.Chunks))
	bw.w.Write(head[:])
	tok := make([]byte, 4*len(h.Tokens))
	for i, t := range h.Tokens {
		binary.LittleEndian.PutUint32(tok[4*i:], uint32(t))
	}
	if _, err := bw.w.Write(tok); err != nil {
		return nil, err
	}
	bw.rows = make([]uint16, scored(h.Ctx)*rowLen(h.Vocab))
	return bw, nil
}

// Rows is the buffer of one chunk's rows, to fill before WriteChunk.
func (bw *BaseWriter) Rows() []uint16 { return bw.rows }

// WriteChunk writes the chunk's rows.
func (bw *BaseWriter) WriteChunk() error {
	_, err := bw.w.Write(uint16Bytes(bw.rows, &bw.buf))
	return err
}

// Flush writes what is buffered.
func (bw *BaseWriter) Flush() error { return bw.w.Flush() }

// BaseReader reads a base file chunk by chunk: a chunk's rows at a time,
// however large the file.
type BaseReader struct {
	BaseHeader
	r    *bufio.Reader
	rows []uint16
	buf  []byte
}

// NewBaseReader reads the header of a base file.
func NewBaseReader(r io.Reader) (*BaseReader, error) {
	br := &BaseReader{r: bufio.NewReaderSize(r, 1<<20)}
	var head [20]byte
	if _, err := io.ReadFull(br.r, head[:8]); err != nil || string(head[:8]) != baseMagic {
		return nil, errors.New("not a file of log-probabilities written by llama-perplexity --kl-divergence-base (no _logits_ magic)")
	}
	if _, err := io.ReadFull(br.r, head[8:]); err != nil {
		return nil, fmt.Errorf("reading the base file's header: %w", err)
	}
	ctx := binary.LittleEndian.Uint32(head[8:])
	vocab := int32(binary.LittleEndian.Uint32(head[12:]))
	chunks := int32(binary.LittleEndian.Uint32(head[16:]))
	if ctx < 4 || ctx > 1<<24 || vocab < 1 || vocab > 1<<24 || chunks < 1 || int64(ctx)*int64(chunks) > 1<<32 {
		return nil, fmt.Errorf("implausible base file header: n_ctx %d, n_vocab %d, n_chunk %d", ctx, vocab, chunks)
	}
	br.Ctx, br.Vocab, br.Chunks = int(ctx), int(vocab), int(chunks)
	raw := make([]byte, 4*br.Ctx*br.Chunks)
	if _, err := io.ReadFull(br.r, raw); err != nil {
		return nil, fmt.Errorf("reading the base file's %d tokens: %w", br.Ctx*br.Chunks, err)
	}
	br.Tokens = make([]int32, br.Ctx*br.Chunks)
	for i := range br.Tokens {
		br.Tokens[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	br.rows = make([]uint16, scored(br.Ctx)*rowLen(br.Vocab))
	return br, nil
}

// ReadChunk reads the next chunk's rows, valid until the next call.
func (br *BaseReader) ReadChunk() ([]uint16, error) {
	n := 2 * len(br.rows)
	if cap(br.buf) < n {
		br.buf = make([]byte, n)
	}
	b := br.buf[:n]
	if _, err := io.ReadFull(br.r, b); err != nil {
		return nil, fmt.Errorf("the base file ends early: %w", err)
	}
	for i := range br.rows {
		br.rows[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return br.rows, nil
}

// uint16Bytes is v as little-endian bytes, in *buf.
func uint16Bytes(v []uint16, buf *[]byte) []byte {
	n := 2 * len(v)
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return b
}

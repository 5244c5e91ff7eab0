package tokenizer

import (
	"strings"
	"unicode/utf8"
)

// buildPieces renders every token once, as llama.cpp's token_to_piece with
// special=true: control, user-defined and unknown tokens as their text,
// normal tokens decoded (byte-level for BPE, ▁ as a space for SPM), byte
// tokens as their byte, anything else (unused, undefined) as nothing.
func (t *Tokenizer) buildPieces() {
	// GPT-2's byte characters all lie below U+0144: a table maps them back.
	var charToByte [0x144]int16
	for i := range charToByte {
		charToByte[i] = -1
	}
	if t.model == ModelBPE {
		for b := 0; b < 256; b++ {
			c, _ := utf8.DecodeRuneInString(t.byteEnc[b])
			charToByte[c] = int16(b)
		}
	}
	t.pieces = make([]string, len(t.texts))
	var buf []byte
	var cps []rune
	for id, text := range t.texts {
		a := t.attrs[id]
		switch {
		case a&(attrUnknown|attrControl|attrUserDefined) != 0:
			t.pieces[id] = text
		case a&attrNormal != 0:
			if t.model == ModelSPM {
				t.pieces[id] = strings.ReplaceAll(text, "▁", " ")
				continue
			}
			buf = buf[:0]
			cps = decodeCodepoints(text, cps)
			for _, c := range cps {
				if c >= 0 && c < 0x144 && charToByte[c] >= 0 {
					buf = append(buf, byte(charToByte[c]))
					continue
				}
				// llama.cpp's marker for a character outside GPT-2's byte map
				ch := appendCodepoint(nil, c)
				buf = append(buf, "[UNK_BYTE_0x"...)
				for _, x := range ch {
					buf = append(buf, "0123456789abcdef"[x>>4], "0123456789abcdef"[x&15])
				}
				buf = append(append(buf, text...), ']')
			}
			t.pieces[id] = string(buf)
		case a&attrByte != 0:
			t.pieces[id] = string([]byte{hexByte(text)})
		}
	}
}

// hexByte reads the XX of a byte token "<0xXX>" the lenient way llama.cpp's
// strtol does (a bad digit ends the number).
func hexByte(text string) byte {
	var v byte
	for i := 3; i < 5 && i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | (c - '0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | (c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | (c - 'A' + 10)
		default:
			return v
		}
	}
	return v
}

// Piece is the text of one token with special tokens rendered as their text
// (llama.cpp's token_to_piece with special=true). It may be part of a UTF-8
// sequence: byte tokens and byte-level BPE tokens can split characters.
func (t *Tokenizer) Piece(id int32) string {
	if !t.valid(id) {
		return ""
	}
	return t.pieces[id]
}

// TextPiece is the bytes token id adds to the text a Decoder streams:
// Piece, with control and unknown tokens rendered as nothing.
func (t *Tokenizer) TextPiece(id int32) string { return t.piece(id, false) }

// piece is Piece with control and unknown tokens rendered as nothing unless
// special is set.
func (t *Tokenizer) piece(id int32, special bool) string {
	if !t.valid(id) {
		return ""
	}
	if !special && t.attrs[id]&(attrControl|attrUnknown) != 0 {
		return ""
	}
	return t.pieces[id]
}

// Decode turns ids into text the way llama.cpp's llama_detokenize does with
// remove_special=false and unparse_special=false: control tokens vanish, the
// space SentencePiece puts before the first word is dropped, and for the
// vocabularies that ask for it (clean_up_tokenization_spaces, e.g. GPT-2 and
// Llama 3) spaces before punctuation and contractions are removed. Invalid
// UTF-8 is kept as is.
func (t *Tokenizer) Decode(ids []int32) string { return t.Detokenize(ids, false, false) }

// Detokenize is llama_detokenize: removeSpecial drops a leading BOS and a
// trailing EOS when the vocabulary adds them; unparseSpecial renders control
// tokens as their text.
func (t *Tokenizer) Detokenize(ids []int32, removeSpecial, unparseSpecial bool) string {
	removeSpace := t.addSpacePrefix
	if removeSpecial && t.addBOS && len(ids) > 0 && ids[0] == t.bos {
		removeSpace = false
		ids = ids[1:]
	}
	if removeSpecial && t.addEOS && len(ids) > 0 && ids[len(ids)-1] == t.eos {
		ids = ids[:len(ids)-1]
	}
	var b []byte
	for _, id := range ids {
		p := t.piece(id, unparseSpecial)
		if removeSpace && len(p) > 0 && p[0] == ' ' {
			p = p[1:]
		}
		removeSpace = false
		b = append(b, p...)
	}
	if t.cleanSpaces {
		b = cleanSpaces(b)
	}
	return string(b)
}

// cleanSpaces is llama.cpp's three clean-up passes over the detokenized
// bytes, done in place the same way so that overlapping patterns resolve
// identically: " ?", " !", " .", " ," lose the space; a lone apostrophe
// between spaces loses both; " 's", " 'm", " 're", " 've" lose the space.
func cleanSpaces(text []byte) []byte {
	n := len(text)
	total := min(n, 1)
	for i := 1; i < n; i++ {
		x := text[i]
		if text[i-1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',') {
			total--
		}
		text[total] = x
		total++
	}
	n, total = total, min(total, 1)
	for i := 1; i < n; i++ {
		x := text[i]
		if x == '\'' && i+1 < n && text[i-1] == ' ' && text[i+1] == ' ' {
			total--
			i++
			text[i] = 0 // the space after goes too; llama.cpp blanks it in place
		}
		text[total] = x
		total++
	}
	n, total = total, min(total, 1)
	for i := 1; i < n; i++ {
		x := text[i]
		if text[i-1] == ' ' && x == '\'' && i+1 < n {
			x1 := text[i+1]
			switch {
			case x1 == 't' || x1 == 'd':
			case x1 == 's' || x1 == 'm':
				total--
			case i+2 < n:
				if x2 := text[i+2]; (x1 == 'r' || x1 == 'v') && x2 == 'e' {
					total--
				}
			}
		}
		text[total] = x
		total++
	}
	return text[:total]
}

// Decoder turns a stream of ids into text and returns only complete UTF-8:
// bytes of a character split across tokens are held back until the rest
// arrives. Control tokens produce nothing. Bytes that can never complete a
// character come out as U+FFFD. A Decoder is not safe for concurrent use.
type Decoder struct {
	t       *Tokenizer
	pending []byte
	special bool
}

// NewDecoder starts a stream.
func (t *Tokenizer) NewDecoder() *Decoder { return &Decoder{t: t} }

// NewDecoderSpecial starts a stream that renders control tokens as their
// text (for debugging and raw transcripts).
func (t *Tokenizer) NewDecoderSpecial() *Decoder { return &Decoder{t: t, special: true} }

// Add appends one token and returns the text that is now complete.
func (d *Decoder) Add(id int32) string {
	d.pending = append(d.pending, d.t.piece(id, d.special)...)
	return d.drain(false)
}

// Flush returns whatever is held back, incomplete characters as U+FFFD, and
// resets the decoder.
func (d *Decoder) Flush() string { return d.drain(true) }

func (d *Decoder) drain(all bool) string {
	p := d.pending
	keep := 0
	if !all {
		keep = incompleteTail(p)
	}
	out := p[:len(p)-keep]
	var s string
	if utf8.Valid(out) {
		s = string(out)
	} else {
		s = strings.ToValidUTF8(string(out), "\uFFFD")
	}
	d.pending = append(d.pending[:0], p[len(p)-keep:]...)
	return s
}

// IncompleteTail is the length (0 to 3) of the end of p that a Decoder
// holds back: a prefix of a UTF-8 sequence that more bytes could still
// complete. The server follows a Decoder's text with it (the character
// offsets of tokens' text).
func IncompleteTail(p []byte) int { return incompleteTail(p) }

// incompleteTail is the length (0 to 3) of a trailing prefix of a UTF-8
// sequence that more bytes could still complete. utf8.FullRune already says
// "complete" for prefixes that can only end up invalid.
func incompleteTail(p []byte) int {
	for k := 1; k <= 3 && k <= len(p); k++ {
		b := p[len(p)-k]
		if b&0xC0 == 0x80 {
			continue
		}
		if b >= 0xC2 && b <= 0xF4 && !utf8.FullRune(p[len(p)-k:]) {
			return k
		}
		return 0
	}
	return 0
}

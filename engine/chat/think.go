package chat

import "strings"

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
	// Only ASCII whitespace is trimmed: pieces may split a UTF-8 sequence,
	// and a byte-wise test must not depend on where.
	asciiSpace = " \t\n\r"
)

type splitState int

const (
	atStart     splitState = iota // nothing but whitespace seen yet
	reasonLead                    // inside <think>, skipping leading whitespace
	inReason                      // inside <think>
	contentLead                   // after </think>, skipping whitespace
	inContent                     // answer text, passed through
)

// ThinkSplitter separates a model's streamed output into reasoning and
// answer. Output of the form
//
//	[whitespace] <think> reasoning </think> [whitespace] answer
//
// yields the reasoning without its surrounding whitespace and the answer
// without the whitespace that follows </think>. A think block counts only
// at the very start of the output; output without one is all answer,
// untouched. When the prompt already opened the block
// (Formatter.PromptStartsInReasoning), the output starts inside it.
// Tags may arrive split across any number of pieces: text that could be
// the start of a tag is held back until it is decided.
type ThinkSplitter struct {
	state splitState
	buf   string // held text: a possible partial tag and the whitespace before it
}

// NewThinkSplitter starts a splitter; startsInReasoning says that the
// prompt ended inside an open <think>.
func NewThinkSplitter(startsInReasoning bool) *ThinkSplitter {
	s := &ThinkSplitter{}
	if startsInReasoning {
		s.state = reasonLead
	}
	return s
}

// InReasoning reports whether the text fed so far ends inside the think
// block.
func (s *ThinkSplitter) InReasoning() bool {
	return s.state == reasonLead || s.state == inReason
}

// Feed takes the next piece of generated text and returns the reasoning and
// answer text that are now certain.
func (s *ThinkSplitter) Feed(text string) (reasoning, content string) {
	s.buf += text
	return s.step(false)
}

// Flush ends the stream and returns whatever was held back.
func (s *ThinkSplitter) Flush() (reasoning, content string) {
	return s.step(true)
}

func (s *ThinkSplitter) step(final bool) (reasoning, content string) {
	var r, c strings.Builder
	for {
		switch s.state {
		case atStart:
			t := strings.TrimLeft(s.buf, asciiSpace)
			switch {
			case strings.HasPrefix(t, thinkOpen):
				s.buf = t[len(thinkOpen):]
				s.state = reasonLead
				continue
			case !final && strings.HasPrefix(thinkOpen, t):
				// Whitespace so far, or the start of "<think>": undecided.
				return r.String(), c.String()
			}
			c.WriteString(s.buf)
			s.buf = ""
			if t != "" {
				s.state = inContent
			}
			return r.String(), c.String()
		case reasonLead, contentLead:
			s.buf = strings.TrimLeft(s.buf, asciiSpace)
			if s.buf == "" {
				return r.String(), c.String()
			}
			if s.state == reasonLead {
				s.state = inReason
			} else {
				s.state = inContent
			}
		case inReason:
			if i := strings.Index(s.buf, thinkClose); i >= 0 {
				r.WriteString(strings.TrimRight(s.buf[:i], asciiSpace))
				s.buf = s.buf[i+len(thinkClose):]
				s.state = contentLead
				continue
			}
			if final {
				r.WriteString(strings.TrimRight(s.buf, asciiSpace))
				s.buf = ""
				return r.String(), c.String()
			}
			// Hold a possible partial "</think>" and the whitespace before
			// it, which is dropped if the tag completes.
			body := s.buf[:len(s.buf)-partialSuffix(s.buf, thinkClose)]
			j := len(strings.TrimRight(body, asciiSpace))
			r.WriteString(s.buf[:j])
			s.buf = s.buf[j:]
			return r.String(), c.String()
		case inContent:
			c.WriteString(s.buf)
			s.buf = ""
			return r.String(), c.String()
		}
	}
}

// partialSuffix is the length of the longest proper prefix of tag that s
// ends with.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}

package tokenizer

import (
	"math/rand/v2"
	"strings"
)

// trickyTexts are hand-picked inputs aimed at the corners of the
// pre-tokenizers: whitespace runs before words and at the end, \r\n mixes,
// contractions in every case, digit runs of each length in several
// scripts, scripts each preset treats specially, marks, emoji sequences,
// format characters, unassigned and private-use codepoints and special
// token texts.
var trickyTexts = []string{
	"", " ", "  ", "\t", "\n", "\r\n", "\n\n\n", " \n \n ", "a  b", "a   \n  b", "x \t\n\r\v\f y",
	"   leading", "trailing   ", "trailing\n\n", "mid  \u00a0 \u3000 word", "\u2009\u200a\u202f\u205f\u1680x",
	"\r\r\n\n\r", "end with space ", "end with tab\t", " ' ", "'", "''", "'s", "x's", "X'S", "DON'T", "we'Ve a'lL 'rE 'd 'M",
	"It's 'tis y'all'd've", "1", "12", "123", "1234", "12345", "1234567890", "3.14159 2,718 1e-9",
	"٠١٢٣٤٥٦٧٨٩ ०१२३ ０１２３４ ²³¹ ①②③ ⅠⅡⅫ 𝟘𝟙", "abc123def", "x1y22z333w4444",
	"µ Kelvin K Ω ℃ ﬁ Ǆ ǅ ǆ", "naïve café résumé Ångström ǲ", "Ⓐⓑ", "é = e\u0301, ñ = n\u0303, x\u0301\u0302\u0303",
	"\u0301leading mark", "!\u0301 ?\u0302", "ক্ষ हिन्दी नमस्ते ไทยภาษา", "مرحبا بالعالم ١٢٣", "עברית",
	"Ελληνικά ΑΒΓ αβγ", "Русский текст, Ёё", "Հայերեն Ⴀⴀ ᏣᎳᎩ", "ᴀᴁᴂ ᵫᵷ", "𐐀𐐨 𐒰 𑢠",
	"日本語の文章です。カタカナ、ひらがな！", "中文句子，包括标点符号：“引号”和（括号）。", "한국어 문장입니다. ㄱㄴㄷ ㅏㅑ",
	"ㄅㄆㄇㄈ 注音", "︰︱﹏ ！…“”‘’—：；，、〿", "〜～ｗｗｗ ＡＢＣ ａｂｃ", "𠀀𠀁 𪜀 𫝀 𬺰 \U0002EBF0\U0002EE5D ⿼⿿ ㇯",
	"🚀 (normal) 😶\u200d🌫️ 👨\u200d👩\u200d👧 🏳️\u200d🌈 ✅ 🦙.cpp", "🇩🇪🇫🇷 1️⃣ #️⃣",
	"zero\u200bwidth\u200c\u200d\ufeffbom\u180e\u00adsoft", "ctl\x00nul\x01\x1c\x1d\x1e\x1f\x7f\u0085\u2028\u2029",
	"unassigned \u0378\u0379 \U000E0000 private \ue000\U000F0000\U0010FFFD", "\ufffd replacement",
	"func main() {\n\tfmt.Println(\"hi\")\n}\n", "if (a <= b && c != d) { return x->y[0]; } // done",
	"def f(x):\n    return x ** 2  # square\n\n\n", "<html><body class=\"x\">&amp;&lt;</body></html>",
	"$var = @array[1..3]; %hash{'key'} ^= ~0 | 1;", "a/b\\c|d`e~f", "path/to/file.go:12:3", "//\n//\r\n/ /",
	"   ```go\n   x := 1\n   ```", "....!!!???,,,;;;:::", "--======= ''''''```````\"\"\"\"......",
	"<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n", "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>",
	"<s>[INST] hi [/INST]</s>", "<｜begin▁of▁sentence｜>User: x<｜end▁of▁sentence｜>", "<|endoftext|><|endoftext|>",
	"õ÷Á ý À ÿ ø ú þ ü ù ö û <pad> <|User|> [PAD151646] [PAD32022]", "<|im_start|><|im_end|>", "<s><s></s>",
	"a<|eot_id|> b <|eot_id|>c", "<|reserved_special_token_0|><|reserved_special_token_10|>",
}

// words is a small English word list for English-like text.
var words = strings.Fields(`the of and to a in is it you that he was for on are with as I his they be at one
have this from or had by hot word but what some we can out other were all there when up use your how said an each
she which do their time if will way about many then them write would like so these her long make thing see him two
has look more day could go come did number sound no most people my over know water than call first who may down
side been now find any new work part take get place made live where after back little only round man year came
show every good me give our under name very through just form sentence great think say help low line differ turn
cause much mean before move right boy old too same tell does set three want air well also play small end put home
read hand port large spell add even land here must big high such follow act why ask men change went light kind off
need house picture try us again animal point mother world near build self earth father head stand own page should
country found answer school grow study still learn plant cover food sun four between state keep eye never last let
thought city tree cross farm hard start might story saw far sea draw left late run don't while press close night
real life few north open seem together next white children begin got walk example ease paper group always music`)

// englishText returns about n bytes of English-like prose: sentences of
// words with capitals, commas, numbers and paragraphs.
func englishText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		k := 4 + r.IntN(14)
		for i := 0; i < k; i++ {
			w := words[r.IntN(len(words))]
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			switch {
			case i == k-1:
				b.WriteString([]string{".", ".", ".", "?", "!"}[r.IntN(5)])
			case r.IntN(9) == 0:
				b.WriteString(",")
			case r.IntN(40) == 0:
				b.WriteString(" " + strings.Repeat("1234567890", 1)[:1+r.IntN(9)])
			}
			b.WriteByte(' ')
		}
		if r.IntN(6) == 0 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// pick returns a codepoint in [lo,hi].
func pick(r *rand.Rand, lo, hi rune) rune { return lo + rune(r.IntN(int(hi-lo+1))) }

// randomText draws n items from a palette of character families, weighted
// toward the ones the pre-tokenizers distinguish. specials are texts of
// special tokens to sprinkle in.
func randomText(r *rand.Rand, n int, specials []string) string {
	var b strings.Builder
	ws := []rune{' ', ' ', ' ', '\t', '\n', '\r', '\v', '\f', 0x85, 0xA0, 0x3000, 0x2009, 0x1680, 0x202F, 0x2028}
	for i := 0; i < n; i++ {
		switch r.IntN(20) {
		case 0, 1, 2, 3, 4, 5:
			b.WriteRune(pick(r, 0x20, 0x7E))
		case 6:
			b.WriteString(words[r.IntN(len(words))])
		case 7:
			b.WriteRune(ws[r.IntN(len(ws))])
		case 8:
			for k := 1 + r.IntN(12); k > 0; k-- {
				b.WriteRune([]rune{' ', ' ', '\n', '\t', '\r'}[r.IntN(5)])
			}
		case 9:
			b.WriteRune([]rune{pick(r, '0', '9'), pick(r, 0x660, 0x669), pick(r, 0xFF10, 0xFF19), 0xB2, 0x2460, 0x216B, pick(r, 0x966, 0x96F)}[r.IntN(7)])
		case 10:
			b.WriteRune([]rune{pick(r, 0x4E00, 0x9FFF), pick(r, 0x3040, 0x30FF), pick(r, 0xAC00, 0xD7A3), pick(r, 0x3131, 0x318E),
				pick(r, 0x3105, 0x312F), pick(r, 0x3000, 0x303F), pick(r, 0xFF01, 0xFF5E), pick(r, 0xFE30, 0xFE4F)}[r.IntN(8)])
		case 11:
			b.WriteRune([]rune{pick(r, 0xC0, 0x24F), pick(r, 0x370, 0x3FF), pick(r, 0x400, 0x4FF), pick(r, 0x1E00, 0x1FFF), pick(r, 0x2100, 0x214F)}[r.IntN(5)])
		case 12:
			b.WriteRune([]rune{pick(r, 0x300, 0x36F), pick(r, 0x900, 0x97F), pick(r, 0xE00, 0xE7F), pick(r, 0x600, 0x6FF)}[r.IntN(4)])
		case 13:
			b.WriteRune([]rune{pick(r, 0x1F300, 0x1FAFF), 0x200D, 0xFE0F, pick(r, 0x2600, 0x27BF)}[r.IntN(4)])
		case 14:
			c := pick(r, 0x80, 0x10FFFF)
			if c >= 0xD800 && c <= 0xDFFF {
				c = 0xFFFD
			}
			b.WriteRune(c)
		case 15:
			b.WriteString([]string{"'s", "'T", "'re", "'VE", "'m", "'LL", "'d", "'", "'x"}[r.IntN(9)])
		case 16:
			sym := []rune("“”‘’—…•€£¥©®™±×÷¿¡§¶«»")
			b.WriteRune(sym[r.IntN(len(sym))])
		case 17:
			if len(specials) > 0 {
				b.WriteString(specials[r.IntN(len(specials))])
			}
		case 18:
			b.WriteRune([]rune{0x200B, 0x200C, 0xFEFF, 0x180E, 0xAD, 0x1C, 0x1F, 0x00, 0x7F, pick(r, 0xE000, 0xF8FF), 0x378}[r.IntN(11)])
		case 19:
			b.WriteString([]string{"/", "//", "\\", "```", "->", "::", "!=", "<=", "${", "#!", "/*", "*/"}[r.IntN(12)])
		}
	}
	return b.String()
}

// bigText is about n bytes mixing prose, code, CJK, emoji, long whitespace
// runs and random Unicode, for the one large parity input.
func bigText(r *rand.Rand, n int, specials []string) string {
	var b strings.Builder
	for b.Len() < n {
		switch r.IntN(6) {
		case 0, 1:
			b.WriteString(englishText(r, 2000))
		case 2:
			b.WriteString("func f(x int) int {\n\tif x <= 1 {\n\t\treturn 1\n\t}\n\treturn x * f(x-1) // recursion\n}\n\n")
		case 3:
			b.WriteString("中文句子，包括标点符号。日本語の文章、カタカナ！한국어 문장입니다. 🙂👍🏽 ")
		case 4:
			b.WriteString(strings.Repeat(" ", r.IntN(300)) + strings.Repeat("\n", r.IntN(5)) + strings.Repeat("\t", r.IntN(5)))
		case 5:
			b.WriteString(randomText(r, 400, specials))
		}
	}
	return b.String()
}

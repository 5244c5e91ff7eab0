package cpu

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAlignedBytesHugePages: a large buffer, once written, lies at least
// partly in huge pages where the kernel's THP mode is "madvise" (Debian's
// default, which gives none without the advice) or "always". The kernel
// may still fall back to small pages where it finds no free huge page,
// so one huge page inside the buffer is what is required; with THP off
// ("never") there is nothing to see and the test says so.
func TestAlignedBytesHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages are off here (%q, %v)", strings.TrimSpace(string(mode)), err)
	}
	b := alignedBytes(32 << 20)
	for i := range b {
		b[i] = byte(i)
	}
	start := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	end := start + uint64(len(b))
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var huge uint64 // kB of huge pages in the mappings overlapping b
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo < end && hi > start
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); in && ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			huge += kb
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if huge < hugePage>>10 {
		t.Errorf("a written buffer of %d MiB: %d kB of huge pages in its mappings, want at least one %d kB page (THP mode %q)",
			len(b)>>20, huge, hugePage>>10, strings.TrimSpace(string(mode)))
	}
	t.Logf("%d MiB buffer: %d MiB in huge pages", len(b)>>20, huge>>10)
}

// mappingRange parses the address range that starts a mapping's entry in
// /proc/self/smaps ("7f00...-7f01... rw-p ...").
func mappingRange(line string) (lo, hi uint64, ok bool) {
	r, _, found := strings.Cut(line, " ")
	a, b, dash := strings.Cut(r, "-")
	if !found || !dash {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseUint(a, 16, 64)
	hi, err2 := strconv.ParseUint(b, 16, 64)
	return lo, hi, err1 == nil && err2 == nil
}

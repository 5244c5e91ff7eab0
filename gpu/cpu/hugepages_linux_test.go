package cpu

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestWeightBytesHugePages: every mapping a large weight copy lies in carries
// the kernel's huge-page advice (VmFlags "hg" in /proc/self/smaps, the
// mark MADV_HUGEPAGE leaves). Whether the kernel then finds free huge
// pages depends on the machine's memory, so the huge pages it gave are
// only logged. A kernel built without THP refuses the advice and has no
// /sys/kernel/mm/transparent_hugepage: there the test has nothing to
// check and says so.
func TestWeightBytesHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Skipf("no transparent huge pages in this kernel: %v", err)
	}
	// A control: a mapping of our own, advised directly. Where even it
	// carries no mark (qemu-user takes madvise and does nothing), the
	// advice cannot be seen here.
	control, err := syscall.Mmap(-1, 0, 4<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(control)
	if err := syscall.Madvise(control, madvHugePage); err != nil {
		t.Skipf("the kernel refuses MADV_HUGEPAGE: %v", err)
	}
	if n, advised, _ := advisedMappings(t, control); advised != n {
		t.Skipf("MADV_HUGEPAGE leaves no mark on a mapping here (%d of %d advised): an emulator, or smaps without VmFlags", advised, n)
	}

	b := weightBytes(32 << 20)
	for i := range b {
		b[i] = byte(i)
	}
	n, advised, hugeKB := advisedMappings(t, b)
	if n == 0 || advised != n {
		t.Errorf("a %d MiB buffer lies in %d mappings, %d of them advised for huge pages; want all", len(b)>>20, n, advised)
	}
	t.Logf("%d MiB buffer in %d mapping(s) advised; %d MiB of them in huge pages (THP mode %q)", len(b)>>20, n, hugeKB>>10, strings.TrimSpace(string(mode)))
}

// advisedMappings reads /proc/self/smaps for the mappings b lies in: how
// many, how many carry the huge-page advice (VmFlags "hg"), and their
// kB of huge pages.
func advisedMappings(t *testing.T, b []byte) (n, advised int, hugeKB uint64) {
	t.Helper()
	start := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	end := start + uint64(len(b))
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo < end && hi > start
			if in {
				n++
			}
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			hugeKB += kb
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok && slices.Contains(strings.Fields(v), "hg") {
			advised++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n, advised, hugeKB
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

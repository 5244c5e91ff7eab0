package registry

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// helperEnv, when set, turns the test binary into a second process that
// pulls one URL into $EMBER_CACHE and prints the path: two such processes
// are how the lock is tested, as two users' ember commands would race.
const helperEnv = "EMBER_REGISTRY_TEST_PULL"

func TestMain(m *testing.M) {
	if url := os.Getenv(helperEnv); url != "" {
		path, err := Fetch(context.Background(), Model{URL: url, SHA256: os.Getenv(helperEnv + "_SHA")}, Options{Log: os.Stderr})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(path)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Two processes pull the same model at once: one downloads, the other waits
// on the lock and then uses the finished file; the server sees one request
// and the cache holds one intact file.
func TestConcurrentProcessesShareOneDownload(t *testing.T) {
	dir := testCache(t)
	data := payload(20, 1<<20+333)
	// Hold the response long enough that the second process surely starts
	// while the first still downloads.
	fs := newFileServer(t, data, func(s *fileServer) { s.delay = 800 * time.Millisecond })
	url := fs.url("shared.gguf")
	type result struct {
		out, errs bytes.Buffer
		err       error
	}
	var res [2]result
	var cmds [2]*exec.Cmd
	for i := range cmds {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), helperEnv+"="+url, helperEnv+"_SHA="+sha(data))
		c.Stdout, c.Stderr = &res[i].out, &res[i].errs
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	for i, c := range cmds {
		res[i].err = c.Wait()
	}
	waited := 0
	for i := range res {
		if res[i].err != nil {
			t.Fatalf("process %d: %v\n%s", i, res[i].err, res[i].errs.String())
		}
		if strings.Contains(res[i].errs.String(), "another ember is downloading it; waiting") {
			waited++
		}
	}
	p0, p1 := strings.TrimSpace(res[0].out.String()), strings.TrimSpace(res[1].out.String())
	if p0 == "" || p0 != p1 {
		t.Fatalf("processes answered different paths: %q %q", p0, p1)
	}
	if !bytes.Equal(readFile(t, p0), data) {
		t.Fatal("the cached file is corrupt")
	}
	if n := len(fs.requests()); n != 1 || waited != 1 {
		t.Errorf("want one request and one waiting process, got %d requests, %d waited\n0: %s\n1: %s",
			n, waited, res[0].errs.String(), res[1].errs.String())
	}
	// Neither left its lock file behind.
	noLeftovers(t, dir)
}

package engine

import "testing"

// Loading reports its progress after each weight: bytes rising to the
// model's weight bytes, out of the file's tensor bytes.
func TestLoadProgress(t *testing.T) {
	var calls int
	var last, total int64
	e, err := Load(stories(t), Options{Threads: 2, Progress: func(done, tot int64) {
		calls++
		if done <= last {
			t.Errorf("call %d: %d bytes done after %d", calls, done, last)
		}
		if total != 0 && tot != total {
			t.Errorf("call %d: total %d, was %d", calls, tot, total)
		}
		last, total = done, tot
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var file int64
	for _, ti := range e.File.Tensors {
		file += int64(ti.Size)
	}
	if calls < 2 || last != e.Model.WeightBytes || total != file || last > total {
		t.Errorf("%d calls ending at %d of %d bytes: want one a weight, ending at the model's %d of the file's %d", calls, last, total, e.Model.WeightBytes, file)
	}
}

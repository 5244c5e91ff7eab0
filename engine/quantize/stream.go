package quantize

import (
	"io"
	"runtime"
)

// WriteOrdered computes n chunks with produce on up to workers goroutines
// and writes them to w in index order, so a tensor can be generated or
// converted in parallel and still streamed. produce gets a buffer to reuse
// (append to buf[:0]) and returns the chunk's bytes. At most workers+1
// chunks are held at once; after each write, done (if not nil) gets the
// chunk's size.
func WriteOrdered(w io.Writer, n, workers int, produce func(i int, buf []byte) ([]byte, error), done func(int)) error {
	if workers < 1 {
		workers = 1
	}
	if workers > runtime.NumCPU() {
		workers = runtime.NumCPU()
	}
	if workers == 1 || n == 1 {
		var buf []byte
		for i := 0; i < n; i++ {
			b, err := produce(i, buf)
			if err != nil {
				return err
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
			if done != nil {
				done(len(b))
			}
			buf = b
		}
		return nil
	}
	type result struct {
		b   []byte
		err error
	}
	free := make(chan []byte, workers+1)
	for i := 0; i < workers+1; i++ {
		free <- nil
	}
	queue := make(chan chan result, workers)
	stop := make(chan struct{})
	go func() {
		defer close(queue)
		for i := 0; i < n; i++ {
			var buf []byte
			select {
			case buf = <-free:
			case <-stop:
				return
			}
			ch := make(chan result, 1)
			select {
			case queue <- ch:
			case <-stop:
				return
			}
			go func(i int, buf []byte) {
				b, err := produce(i, buf)
				ch <- result{b, err}
			}(i, buf)
		}
	}()
	var err error
	for ch := range queue {
		r := <-ch
		if err == nil {
			err = r.err
			if err == nil {
				if _, err = w.Write(r.b); err == nil && done != nil {
					done(len(r.b))
				}
			}
			if err != nil {
				close(stop)
			}
		}
		free <- r.b
	}
	return err
}

//go:build cgo || js

package webgpu

// uploadFlushBytes bounds the weight bytes written and not yet submitted.
// A queue write is copied into a staging buffer that the device reads at
// the next submission; with none until the first step, loading held a
// model's weights twice in host memory and the first step did the whole
// upload (llama3.2:1b on lavapipe: a peak of 1.49 GB resident against
// 0.70 GB of weights, and a first step of 4.5 s against 1.15 s after).
const uploadFlushBytes = 256 << 20

// uploaded counts n more weight bytes written, and submits them (waiting,
// so that their staging memory is freed) once uploadFlushBytes are
// pending.
func (b *Backend) uploaded(n int) error {
	b.pendingUpload += n
	if b.pendingUpload < b.uploadLimit() {
		return nil
	}
	return b.submitUploads()
}

// uploadLimit is uploadFlushBytes, or the bound a test set.
func (b *Backend) uploadLimit() int {
	if b.uploadFlush > 0 {
		return b.uploadFlush
	}
	return uploadFlushBytes
}

// submitUploads submits the pending writes and waits for the device to
// finish them.
func (b *Backend) submitUploads() error {
	b.pendingUpload = 0
	b.uploadSubmits++
	b.queue.Submit()
	return b.wait()
}

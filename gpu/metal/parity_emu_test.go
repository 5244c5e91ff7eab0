//go:build linux && (amd64 || arm64)

package metal

import "testing"

// TestEmulatedModelParity runs whole models through the MSL kernels on the
// emulated device (parityModels).
func TestEmulatedModelParity(t *testing.T) { parityModels(t, emulated(Options{})) }

// TestEmulatedBatchDecode: batch steps on the MSL kernels give each
// sequence its lone decoding's logits bit for bit (batchModels).
func TestEmulatedBatchDecode(t *testing.T) { batchModels(t, emulated(Options{})) }

//go:build cgo && !js

package webgpu

import (
	"fmt"
	"os"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// Open finds an adapter (a discrete GPU first) and opens a device with the
// adapter's own limits, so large weights fit, and its f16 and subgroup
// features when it has them.
func Open(o Options) (gpu.Backend, error) {
	defer quietWayland()()
	wgpu.SetLogLevel(wgpu.LogLevelError)
	inst := wgpu.CreateInstance(nil)
	ad, err := inst.RequestAdapter(&wgpu.RequestAdapterOptions{
		PowerPreference:      wgpu.PowerPreferenceHighPerformance,
		ForceFallbackAdapter: o.ForceFallback,
	})
	if err != nil || ad == nil {
		inst.Release()
		return nil, fmt.Errorf("webgpu: no adapter found (is a Vulkan driver installed? on Debian: apt-get install libvulkan1 mesa-vulkan-drivers): %v", err)
	}
	b := &Backend{inst: inst, adapter: ad, info: ad.GetInfo(), limits: ad.GetLimits(), pipelines: map[string]*pipeline{}, sources: map[string]*kernelSource{}, maxBinding: o.MaxBinding}
	var feats []wgpu.FeatureName
	if ad.HasFeature(wgpu.FeatureNameShaderF16) {
		b.f16 = true
		feats = append(feats, wgpu.FeatureNameShaderF16)
	}
	if ad.HasFeature(wgpu.NativeFeatureSubgroup) && !o.NoSubgroups {
		b.subgroups = true
		feats = append(feats, wgpu.NativeFeatureSubgroup)
	}
	// Timestamps between passes time each kernel of a step (kernelTimes,
	// a profile); having them costs nothing when unused.
	if ad.HasFeature(wgpu.FeatureNameTimestampQuery) && ad.HasFeature(wgpu.NativeFeatureTimestampQueryInsideEncoders) {
		b.timestamps = true
		feats = append(feats, wgpu.FeatureNameTimestampQuery, wgpu.NativeFeatureTimestampQueryInsideEncoders)
	}
	lim := wantLimits(b.limits)
	b.limits = lim
	dev, err := ad.RequestDevice(&wgpu.DeviceDescriptor{Label: "ember", RequiredFeatures: feats, RequiredLimits: &lim})
	if err != nil {
		ad.Release()
		inst.Release()
		return nil, fmt.Errorf("webgpu: opening %s: %w", b.info.Device, err)
	}
	b.dev = dev
	b.queue = dev.GetQueue()
	return b, nil
}

// quietWayland points XDG_RUNTIME_DIR at an empty private directory
// while wgpu opens Vulkan, where no session set it (servers, containers,
// CI); the returned func undoes that. wgpu's instance probes for a
// Wayland display, and without the variable libwayland prints "error:
// XDG_RUNTIME_DIR is invalid or not set" a few times: harmless, but it
// reads like ember failing, even when --backend auto then takes the CPU.
// In an empty directory the probe finds no display and says nothing.
func quietWayland() func() {
	if os.Getenv("XDG_RUNTIME_DIR") != "" {
		return func() {}
	}
	dir, err := os.MkdirTemp("", "ember-runtime-")
	if err != nil {
		return func() {}
	}
	os.Setenv("XDG_RUNTIME_DIR", dir)
	return func() {
		os.Unsetenv("XDG_RUNTIME_DIR")
		os.Remove(dir)
	}
}

// wait blocks until the device has finished the work submitted so far;
// wgpu-native runs callbacks (buffer maps) only from this poll.
func (b *Backend) wait() error {
	b.dev.Poll(true, nil)
	return nil
}

// newPipeline compiles a kernel's WGSL. Naga takes subgroup operations
// without an enable directive once the device has the feature.
func (b *Backend) newPipeline(label, src string) (*wgpu.ComputePipeline, error) {
	mod, err := b.dev.TryCreateShaderModule(&wgpu.ShaderModuleDescriptor{Label: label, WGSLSource: &wgpu.ShaderSourceWGSL{Code: src}})
	if err != nil {
		return nil, err
	}
	defer mod.Release()
	return b.dev.TryCreateComputePipeline(&wgpu.ComputePipelineDescriptor{Label: label, Compute: wgpu.ProgrammableStageDescriptor{Module: mod, EntryPoint: "main"}})
}

// mapRead maps the first n bytes of a map-read buffer whose copy has been
// submitted, waiting for submission upTo, or for all work when it is nil:
// work submitted after the copy may still run.
func (b *Backend) mapRead(stage *wgpu.Buffer, n uint64, upTo *wgpu.SubmissionIndex) error {
	status := wgpu.MapAsyncStatus(0)
	if err := stage.TryMapAsync(wgpu.MapModeRead, 0, n, func(s wgpu.MapAsyncStatus) { status = s }); err != nil {
		return err
	}
	var idx *uint64
	if upTo != nil {
		i := uint64(*upTo)
		idx = &i
	}
	b.dev.Poll(true, idx)
	if status != wgpu.MapAsyncStatusSuccess {
		return fmt.Errorf("mapping failed (%v)", status)
	}
	return nil
}

// releaseDevice lets go of the device and what it came from.
func (b *Backend) releaseDevice() {
	b.queue.Release()
	b.dev.Release()
	b.adapter.Release()
	b.inst.Release()
}

// Opens the hip device at run time: dlopen libkta_hip.so (next to the running binary, or where
// DeviceLocations::hip_plugin says), resolve kta_hip_create_device, create the device. Every way
// this can fail (no plugin in this build, no NVIDIA driver, no GPU, a plugin from another build)
// comes back as a reason string, never as a crash, so callers can fall back to the cpu device and
// say why.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "engine/device/device.h"

namespace kta::engine::hip {

struct HipLoad {
  std::unique_ptr<Device> device;  // null when unavailable
  std::string error;               // "hip device unavailable: ..." when device is null
};

// `configured` (DeviceLocations::hip_plugin) when set, else libkta_hip.so in the folder of the
// running executable.
std::filesystem::path hip_plugin_path(const std::filesystem::path& configured = {});

// `plugin` empty: hip_plugin_path(options.locations.hip_plugin).
HipLoad load_hip_device(const DeviceOptions& options = {}, int ordinal = 0,
                        const std::filesystem::path& plugin = {});

// How many GPUs the hip device can use, for `--device auto`; 0 with the reason in *why when none
// (no plugin, no driver, no GPU). Creates no GPU context, so it is cheap.
int hip_device_count(std::string* why = nullptr, const std::filesystem::path& plugin = {});

}  // namespace kta::engine::hip

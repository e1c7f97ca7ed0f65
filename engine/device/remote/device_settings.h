// The devices' options from the environment's settings: the one mapping from Settings (the KTA_*
// variables, the cache folder, the environment passed on) to DeviceOptions, which the CLI,
// tests and benchmarks share. No device reads a variable itself.
#pragma once

#include "engine/device/device.h"
#include "engine/settings/settings.h"

namespace kta::engine {

// Defaults for everything else (threads, timeouts, the device spec).
DeviceOptions device_options(const Settings& settings);

}  // namespace kta::engine

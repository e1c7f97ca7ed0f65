// The device factory: "cpu", "hip" and "auto" device specs.
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "engine/device/cpu/cpu_device.h"
#include "engine/device/device.h"
#include "engine/worker/remote_device.h"

namespace kta::engine {
namespace {

// Why no GPU is usable here; empty when one might be.
std::string why_no_gpu() {
  std::error_code ec;
  bool amd = std::filesystem::exists("/dev/kfd", ec);
  bool nvidia = std::filesystem::exists("/dev/nvidiactl", ec);
  if (!amd && !nvidia) return "no GPU found (no /dev/kfd, no /dev/nvidiactl)";
  return "a GPU is present but the hip device is not available in this build";
}

}  // namespace

std::string resolve_device_spec(const std::string& spec, std::string* why) {
  if (spec == "cpu") return "cpu";
  if (spec == "hip") return "hip";
  if (spec == "auto") {
    if (why != nullptr) *why = why_no_gpu() + "; using the cpu device";
    return "cpu";
  }
  throw std::invalid_argument("unknown device '" + spec + "' (expected cpu, hip or auto)");
}

static std::string concrete(const std::string& spec) {
  std::string why;
  std::string kind = resolve_device_spec(spec, &why);
  if (!why.empty()) std::fprintf(stderr, "kta: %s\n", why.c_str());
  if (kind == "hip")
    throw std::invalid_argument("the hip device is not available in this build; use --device cpu");
  return kind;
}

std::unique_ptr<Device> make_device(const std::string& spec, const DeviceOptions& options) {
  concrete(spec);
  return std::make_unique<cpu::CpuDevice>(options);
}

std::unique_ptr<Device> make_isolated_device(const std::string& spec,
                                             const DeviceOptions& options) {
  concrete(spec);
  return std::make_unique<worker::RemoteDevice>(options);
}

}  // namespace kta::engine

// The device factory: "cpu", "hip" and "auto" device specs.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "engine/device/cpu/cpu_device.h"
#include "engine/device/device.h"
#include "engine/device/hip/hip_plugin_loader.h"
#include "engine/worker/remote_device.h"

namespace kta::engine {
namespace {

// Why `auto` does not pick a GPU here.
std::string why_no_gpu() {
  std::error_code ec;
  bool amd = std::filesystem::exists("/dev/kfd", ec);
  bool nvidia = std::filesystem::exists("/dev/nvidiactl", ec);
  if (!amd && !nvidia) return "no GPU found (no /dev/kfd, no /dev/nvidiactl)";
  std::string why;
  int n = hip::hip_device_count(&why);
  if (n <= 0) return why.empty() ? std::string("no usable GPU") : why;
  // Candidate code must run in a worker process; the worker hosts only the cpu device so far.
  return std::to_string(n) + " GPU" + (n == 1 ? "" : "s") +
         " found, but the hip device cannot run isolated in a worker yet";
}

}  // namespace

std::string resolve_device_spec(const std::string& spec, std::string* why) {
  if (spec == "cpu") return "cpu";
  if (spec == "hip") return "hip";
  if (spec.rfind("hip:", 0) == 0 && spec.size() > 4 &&
      spec.find_first_not_of("0123456789", 4) == std::string::npos)
    return "hip";
  if (spec == "auto") {
    if (why != nullptr) *why = why_no_gpu() + "; using the cpu device";
    return "cpu";
  }
  throw std::invalid_argument("unknown device '" + spec + "' (expected cpu, hip, hip:N or auto)");
}

static std::string concrete(const std::string& spec) {
  std::string why;
  std::string kind = resolve_device_spec(spec, &why);
  if (!why.empty()) std::fprintf(stderr, "kta: %s\n", why.c_str());
  if (kind == "hip")
    throw std::invalid_argument(
        "the hip device cannot run isolated in a worker yet; use --device cpu (or make_device for "
        "trusted code)");
  return kind;
}

std::unique_ptr<Device> make_device(const std::string& spec, const DeviceOptions& options) {
  std::string why;
  if (resolve_device_spec(spec, &why) == "hip") {
    int ordinal = spec.rfind("hip:", 0) == 0 ? std::stoi(spec.substr(4)) : 0;
    hip::HipLoad h = hip::load_hip_device(options, ordinal);
    if (!h.device) throw std::runtime_error(h.error);
    return std::move(h.device);
  }
  if (!why.empty()) std::fprintf(stderr, "kta: %s\n", why.c_str());
  return std::make_unique<cpu::CpuDevice>(options);
}

std::unique_ptr<Device> make_isolated_device(const std::string& spec,
                                             const DeviceOptions& options) {
  concrete(spec);
  return std::make_unique<worker::RemoteDevice>(options);
}

}  // namespace kta::engine

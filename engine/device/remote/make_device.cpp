// The device factory: "cpu", "hip", "hip:N" and "auto" device specs.
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "engine/device/cpu/ceilings.h"
#include "engine/device/cpu/cpu_device.h"
#include "engine/device/device.h"
#include "engine/device/hip/hip_plugin_loader.h"
#include "engine/device/remote/remote_device.h"

namespace kta::engine {
namespace {

// How many GPUs the hip device can use here; 0 with the reason when none.
int gpus_here(std::string* why, const std::filesystem::path& hip_plugin) {
  std::error_code ec;
  bool amd = std::filesystem::exists("/dev/kfd", ec);
  bool nvidia = std::filesystem::exists("/dev/nvidiactl", ec);
  if (!amd && !nvidia) {
    *why = "no GPU found (no /dev/kfd, no /dev/nvidiactl)";
    return 0;
  }
  int n = hip::hip_device_count(why, hip::hip_plugin_path(hip_plugin));
  if (n <= 0 && why->empty()) *why = "no usable GPU";
  return n;
}

}  // namespace

DeviceSpec resolve_device(const std::string& spec, std::string* why,
                          const std::filesystem::path& hip_plugin) {
  if (std::optional<DeviceSpec> concrete = parse_device_spec(spec)) return *concrete;
  if (spec == "auto") {
    std::string reason;
    int n = gpus_here(&reason, hip_plugin);
    if (n > 0) {
      if (why != nullptr)
        *why = std::to_string(n) + " GPU" + (n == 1 ? "" : "s") + " found; using the hip device";
      return {DeviceKind::hip, 0};
    }
    if (why != nullptr) *why = reason + "; using the cpu device";
    return {DeviceKind::cpu};
  }
  throw std::invalid_argument("unknown device '" + spec + "' (expected cpu, hip, hip:N or auto)");
}

std::string resolve_device_spec(const std::string& spec, std::string* why,
                                const std::filesystem::path& hip_plugin) {
  return device_spec_name(resolve_device(spec, why, hip_plugin));
}

std::unique_ptr<Device> make_device(const std::string& spec, const DeviceOptions& options) {
  std::string why;
  DeviceSpec device = resolve_device(spec, &why, options.locations.hip_plugin);
  if (device.kind == DeviceKind::hip) {
    hip::HipLoad h = hip::load_hip_device(options, device.ordinal);
    if (!h.device) throw std::runtime_error(h.error);
    return std::move(h.device);
  }
  if (!why.empty()) std::fprintf(stderr, "kta: %s\n", why.c_str());
  return std::make_unique<cpu::CpuDevice>(options);
}

std::unique_ptr<Device> make_isolated_device(const std::string& spec,
                                             const DeviceOptions& options) {
  std::string why;
  DeviceOptions o = options;
  o.device = resolve_device(spec, &why, options.locations.hip_plugin);
  if (!why.empty()) std::fprintf(stderr, "kta: %s\n", why.c_str());
  if (o.device.kind == DeviceKind::hip) {
    // Fail here, with the loader's reason, rather than in a worker that cannot start.
    std::string reason;
    if (gpus_here(&reason, options.locations.hip_plugin) <= 0)
      throw std::runtime_error("hip device unavailable: " + reason);
  } else if (o.cpu_dram_read <= 0) {
    // Measured once in this process rather than at every worker's start.
    o.cpu_dram_read = cpu::cpu_ceilings(cpu::last_level_cache_bytes()).dram_read;
  }
  return std::make_unique<remote::RemoteDevice>(o);
}

}  // namespace kta::engine

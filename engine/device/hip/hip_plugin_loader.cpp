#include "engine/device/hip/hip_plugin_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <mutex>

#include "engine/device/hip/hip_plugin_abi.h"

namespace kta::engine::hip {
namespace fs = std::filesystem;
namespace {

constexpr const char* kPrefix = "hip device unavailable: ";

// Why dlopen failed, in words a user can act on.
std::string explain_dlopen_error(const fs::path& plugin, const std::string& dl) {
  if (dl.find("libcuda.so") != std::string::npos)
    return std::string(kPrefix) + "no NVIDIA driver on this machine (libcuda.so.1 not found; " +
           dl + ")";
  if (dl.find("libamdhip64") != std::string::npos)
    return std::string(kPrefix) + "no ROCm runtime on this machine (" + dl + ")";
  if (dl.find("libcudart") != std::string::npos || dl.find("libnvrtc") != std::string::npos)
    return std::string(kPrefix) + "the CUDA runtime libraries are missing (" + dl + ")";
  return std::string(kPrefix) + "cannot load " + plugin.string() + ": " + dl;
}

}  // namespace

fs::path hip_plugin_path(const fs::path& configured) {
  if (!configured.empty()) return configured;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fs::path("libkta_hip.so");
  return exe.parent_path() / "libkta_hip.so";
}

// Opens the plugin and resolves `entry`; null with the reason in *error when that fails.
static void* open_plugin_entry(const fs::path& plugin_arg, const char* entry, std::string* error) {
  const fs::path plugin = plugin_arg.empty() ? hip_plugin_path() : plugin_arg;
  std::error_code ec;
  if (!fs::exists(plugin, ec)) {
    *error = std::string(kPrefix) + "this kta was built without it (no " + plugin.string() +
             "; configure with -DKTA_HIP_PLATFORM=nvidia or amd)";
    return nullptr;
  }
  // dlerror is process-global state: one loader at a time reads it.
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  dlerror();
  // Never closed: the device's code lives in it.
  void* handle = dlopen(plugin.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* dl = dlerror();
    *error = explain_dlopen_error(plugin, dl ? dl : "unknown error");
    return nullptr;
  }
  void* sym = dlsym(handle, entry);
  if (sym == nullptr)
    *error = std::string(kPrefix) + plugin.string() + " has no " + entry + " entry";
  return sym;
}

int hip_device_count(std::string* why, const fs::path& plugin) {
  std::string error;
  auto count = reinterpret_cast<kta_hip_device_count_fn>(
      open_plugin_entry(plugin, KTA_HIP_PLUGIN_COUNT_ENTRY, &error));
  if (count == nullptr) {
    if (why) *why = error;
    return 0;
  }
  char text[1024] = {0};
  int n = count(text, sizeof text);
  if (n <= 0 && why)
    *why = std::string(kPrefix) + (n < 0 && text[0] ? text : "no GPU on this machine");
  return n < 0 ? 0 : n;
}

HipLoad load_hip_device(const DeviceOptions& options, int ordinal, const fs::path& plugin) {
  HipLoad out;
  auto create = reinterpret_cast<kta_hip_create_device_fn>(
      open_plugin_entry(plugin.empty() ? hip_plugin_path(options.locations.hip_plugin) : plugin,
                        KTA_HIP_PLUGIN_ENTRY, &out.error));
  if (create == nullptr) return out;
  char error[1024] = {0};
  Device* device = nullptr;
  int rc = create(kPluginAbi, &options, ordinal, &device, error, sizeof error);
  if (rc != 0 || device == nullptr) {
    out.error = std::string(kPrefix) + (error[0] ? error : "the plugin could not create a device");
    return out;
  }
  out.device.reset(device);
  return out;
}

}  // namespace kta::engine::hip

// Loading the hip device at run time fails with a reason, never a crash: on machines without a
// driver (CI) the reason names the missing libcuda.so.1 (nvidia) or /dev/kfd (amd).
#include "engine/device/hip/hip_plugin_loader.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string_view>

namespace kta::engine::hip {
namespace {
namespace fs = std::filesystem;

constexpr bool kAmd = std::string_view(KTA_HIP_TEST_PLATFORM) == "amd";

// The GPU driver the plugin needs: NVIDIA's driver library, or AMD's kernel driver (the HIP
// runtime itself loads without it on amd).
bool driver_present() {
  if (kAmd) return fs::exists("/dev/kfd");
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h != nullptr) dlclose(h);
  return h != nullptr;
}

// How the loader's reason starts on a machine without that driver.
std::string no_driver_reason() {
  return kAmd ? "hip device unavailable: no AMD GPU driver on this machine (/dev/kfd not found; "
              : "hip device unavailable: no NVIDIA driver on this machine (libcuda.so.1 not found";
}

TEST(HipPluginLoader, MissingPluginSaysTheBuildLacksIt) {
  HipLoad l = load_hip_device({}, 0, "/nonexistent/libkta_hip.so");
  EXPECT_EQ(l.device, nullptr);
  EXPECT_EQ(l.error,
            "hip device unavailable: this kta was built without it (no /nonexistent/libkta_hip.so; "
            "configure with -DKTA_HIP_PLATFORM=nvidia or amd)");
}

TEST(HipPluginLoader, NotALibraryIsRefusedWithAReason) {
  fs::path bogus = fs::temp_directory_path() / ("kta-bogus-" + std::to_string(::getpid()) + ".so");
  std::ofstream(bogus) << "not an ELF file";
  HipLoad l = load_hip_device({}, 0, bogus);
  fs::remove(bogus);
  EXPECT_EQ(l.device, nullptr);
  EXPECT_EQ(l.error.rfind("hip device unavailable: cannot load " + bogus.string(), 0), 0u)
      << l.error;
}

TEST(HipPluginLoader, DefaultPathIsBesideTheRunningBinary) {
  EXPECT_EQ(hip_plugin_path().filename(), "libkta_hip.so");
  EXPECT_EQ(hip_plugin_path({}).parent_path(), fs::read_symlink("/proc/self/exe").parent_path());
  EXPECT_EQ(hip_plugin_path("/x/y.so"), fs::path("/x/y.so"));
}

TEST(HipPluginLoader, AConfiguredPluginIsTheOneLoaded) {
  DeviceOptions o;
  o.locations.hip_plugin = "/nonexistent/kta-plugin/libkta_hip.so";
  HipLoad l = load_hip_device(o, 0);
  EXPECT_EQ(l.device, nullptr);
  EXPECT_NE(l.error.find("no /nonexistent/kta-plugin/libkta_hip.so"), std::string::npos) << l.error;
}

TEST(HipPluginLoader, RealPluginLoadsOrExplainsWhyNot) {
  HipLoad l = load_hip_device({}, 0, KTA_HIP_PLUGIN_FILE);
  std::string why;
  int count = hip_device_count(&why, KTA_HIP_PLUGIN_FILE);
  if (!driver_present()) {
    // CI: the toolkit (or Debian's HIP for AMD) is installed, the driver is not.
    EXPECT_EQ(l.device, nullptr);
    EXPECT_EQ(l.error.rfind(no_driver_reason(), 0), 0u) << l.error;
    EXPECT_EQ(count, 0);
    EXPECT_EQ(why, l.error);
    return;
  }
  EXPECT_EQ(count > 0, l.device != nullptr) << why;
  // A driver: either a GPU comes up, or the reason says there is none.
  if (l.device == nullptr) {
    EXPECT_NE(l.error.find("GPU"), std::string::npos) << l.error;
    return;
  }
  EXPECT_EQ(l.device->info().kind, engine::DeviceKind::hip);
  HipLoad bad = load_hip_device({}, 99, KTA_HIP_PLUGIN_FILE);
  EXPECT_EQ(bad.device, nullptr);
  EXPECT_NE(bad.error.find("no GPU number 99"), std::string::npos) << bad.error;
}

}  // namespace
}  // namespace kta::engine::hip

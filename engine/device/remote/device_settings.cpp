#include "engine/device/remote/device_settings.h"

namespace kta::engine {

DeviceOptions device_options(const Settings& s) {
  DeviceOptions o;
  o.cache_dir = s.cache_dir;
  o.compiler = s.cxx;
  o.worker = s.worker;
  o.locations.cpu_runtime_lib = s.cpu_runtime_lib;
  o.locations.cpu_runtime_include = s.cpu_runtime_include;
  o.locations.hip_plugin = s.hip_plugin;
  o.locations.cuda_include_dir = s.cuda_include_dir;
  o.locations.hip_launcher_compiler = s.hip_launcher_compiler;
  o.locations.hip_include_dir = s.hip_include_dir;
  o.locations.launch_abi_include_dir = s.launch_abi_include_dir;
  o.environment = s.environment;
  return o;
}

}  // namespace kta::engine

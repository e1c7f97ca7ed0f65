#include "engine/cli/run_devices.h"

namespace kta::cli {

RunDevices::RunDevices(const engine::Settings& settings, std::string spec,
                       engine::DeviceOptions options, int candidates_expected)
    : runners_(engine::runner_options(settings)),
      pool_(
          [this, spec, options](engine::DeviceKey key) -> std::unique_ptr<engine::Device> {
            if (key.flavor == engine::DeviceFlavor::python) {
              engine::DeviceOptions o = options;
              o.device = engine::resolve_device(spec, nullptr, o.locations.hip_plugin);
              return runners_.device(key.role, o);
            }
            auto d = engine::make_isolated_device(spec, options);
            seen_warp_->store(d->info().warp_size);
            return d;
          },
          candidates_expected) {}

engine::AgentRunOptions agent_defaults(const engine::Settings& s) {
  engine::AgentRunOptions o;
  o.environment = s.environment;
  o.prompts_dir = s.prompts_dir;
  o.stdlib_dir = s.stdlib_dir;
  o.home = s.home;
  o.cache_dirs = s.cache_dirs;
  if (s.agent_grace_s)
    o.grace = std::chrono::nanoseconds(static_cast<int64_t>(*s.agent_grace_s * 1e9));
  return o;
}

}  // namespace kta::cli

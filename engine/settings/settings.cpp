#include "engine/settings/settings.h"

#include <algorithm>
#include <charconv>

extern char** environ;

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

std::string value(const Environment& env, const char* name) {
  auto it = env.find(name);
  return it == env.end() ? std::string() : it->second;
}

fs::path cache_dir(const Environment& env) {
  if (auto d = value(env, "KTA_CACHE_DIR"); !d.empty()) return d;
  if (auto x = value(env, "XDG_CACHE_HOME"); !x.empty()) return fs::path(x) / "kta";
  if (auto h = value(env, "HOME"); !h.empty()) return fs::path(h) / ".cache" / "kta";
  auto tmp = value(env, "TMPDIR");
  return fs::path(tmp.empty() ? "/tmp" : tmp) / "kta-cache";
}

std::vector<fs::path> split_path(const std::string& list) {
  std::vector<fs::path> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t colon = list.find(':', start);
    std::string part =
        list.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!part.empty()) out.emplace_back(part);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return out;
}

std::optional<double> seconds(const Environment& env, const char* name, std::string* error) {
  std::string v = value(env, name);
  if (v.empty()) return std::nullopt;
  double s = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), s);
  if (ec != std::errc() || end != v.data() + v.size() || s < 0) {
    if (error) *error = std::string("$") + name + "='" + v + "' is not a number of seconds";
    return std::nullopt;
  }
  return s;
}

}  // namespace

static std::vector<fs::path> cache_dirs(const Environment& env) {
  std::vector<fs::path> out;
  auto add = [&](const fs::path& p) {
    if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  if (auto d = value(env, "KTA_CACHE_DIR"); !d.empty()) add(d);
  if (auto x = value(env, "XDG_CACHE_HOME"); !x.empty()) add(fs::path(x) / "kta");
  if (auto h = value(env, "HOME"); !h.empty()) add(fs::path(h) / ".cache" / "kta");
  auto tmp = value(env, "TMPDIR");
  add(fs::path(tmp.empty() ? "/tmp" : tmp) / "kta-cache");
  add(fs::path("/tmp") / "kta-cache");
  return out;
}

Settings settings_from(const Environment& env, std::string* error) {
  Settings s;
  s.cache_dir = cache_dir(env);
  s.cache_dirs = cache_dirs(env);
  s.home = value(env, "HOME");
  s.stdlib_dir = value(env, "KTA_STDLIB");
  s.module_path = split_path(value(env, "KTA_PATH"));
  s.prompts_dir = value(env, "KTA_PROMPTS_DIR");
  s.agent_grace_s = seconds(env, "KTA_AGENT_GRACE", error);
  s.python = value(env, "KTA_PYTHON");
  s.runner_script = value(env, "KTA_RUNNER");
  s.path = value(env, "PATH");
  s.worker = value(env, "KTA_WORKER");
  s.hip_plugin = value(env, "KTA_HIP_PLUGIN");
  s.cxx = value(env, "KTA_CXX");
  s.cpu_runtime_lib = value(env, "KTA_CPU_RUNTIME_LIB");
  s.cpu_runtime_include = value(env, "KTA_CPU_RUNTIME_INCLUDE");
  s.cuda_include_dir = value(env, "KTA_CUDA_INCLUDE_DIR");
  s.hip_launcher_compiler = value(env, "KTA_HIP_LAUNCHER_COMPILER");
  s.hip_include_dir = value(env, "KTA_HIP_INCLUDE_DIR");
  s.launch_abi_include_dir = value(env, "KTA_LAUNCH_ABI_INCLUDE_DIR");
  s.color = env.find("NO_COLOR") == env.end();
  s.environment = env;
  return s;
}

Environment process_environment() {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

}  // namespace kta::engine

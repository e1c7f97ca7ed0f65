#include "engine/device/hip/plugin/launcher_build.h"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "engine/device/hip/rtc/code_cache.h"
#include "engine/ipc/cache_key.h"
#include "engine/ipc/child_status.h"
#include "engine/ipc/command.h"

namespace kta::engine::hip {
namespace fs = std::filesystem;
namespace {

// The folder holding this plugin: include folders are looked up beside it first, so a build
// tree carried to another machine works.
fs::path plugin_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_dir), &info) == 0 || info.dli_fname == nullptr)
    return {};
  return fs::path(info.dli_fname).parent_path();
}

fs::path first_existing(const fs::path& configured, const fs::path& beside, const char* built_in) {
  if (!configured.empty()) return configured;
  std::error_code ec;
  if (!beside.empty() && fs::exists(beside, ec)) return beside;
  return built_in;
}

std::string compiler_path(const DeviceLocations& locations) {
  if (!locations.hip_launcher_compiler.empty()) return locations.hip_launcher_compiler;
  std::error_code ec;
  if (fs::exists(KTA_HIP_LAUNCHER_COMPILER, ec)) return KTA_HIP_LAUNCHER_COMPILER;
#if defined(__HIP_PLATFORM_NVIDIA__)
  return "nvcc";
#else
  return "hipcc";
#endif
}

bool read_text(const fs::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  return true;
}

// The compiler's flags for a launcher source: a shared library for `arch`, with the HIP
// headers (on NVIDIA), kta's launch ABI and the source's own folder on the include path.
std::vector<std::string> launcher_flags(const CompileRequest& req, const std::string& arch,
                                        const DeviceLocations& locations) {
  const fs::path dir = plugin_dir();
  std::vector<std::string> args;
#if defined(__HIP_PLATFORM_NVIDIA__)
  fs::path hip_include = first_existing(locations.hip_include_dir, dir / "hip-nvidia" / "include",
                                        KTA_HIP_LAUNCHER_INCLUDE);
  args = {"-shared",
          "-Xcompiler",
          "-fPIC",
          "-O3",
          "-std=c++17",
          "-arch=" + arch,
          "-cudart",
          "shared",
          "-D__HIP_PLATFORM_NVIDIA__",
          "-Wno-deprecated-gpu-targets",
          "-I" + hip_include.string()};
#else
  args = {"-shared", "-fPIC", "-O3", "-std=c++17", "--offload-arch=" + arch};
#endif
  fs::path abi_include = first_existing(locations.launch_abi_include_dir,
                                        dir / "hip-launch" / "include", KTA_HIP_LAUNCH_ABI_INCLUDE);
  args.push_back("-I" + abi_include.string());
  args.push_back("-I" + fs::absolute(req.source).parent_path().string());
  for (const std::string& d : req.options.defines) args.push_back("-D" + d);
  for (const std::string& f : req.options.extra_flags) args.push_back(f);
  return args;
}

// Compiles the source into `tmp`; empty on success, else why not (the output goes to *log).
std::string compile(const std::string& compiler, const std::vector<std::string>& flags,
                    const CompileRequest& req, const fs::path& tmp, const DeviceOptions& options,
                    std::string* log) {
  std::vector<std::string> argv = {compiler};
  argv.insert(argv.end(), flags.begin(), flags.end());
#if defined(__HIP_PLATFORM_NVIDIA__)
  argv.insert(argv.end(), {"-x", "cu"});  // nvcc mishandles .hip files otherwise
#else
  argv.insert(argv.end(), {"-x", "hip"});
#endif
  argv.insert(argv.end(), {fs::absolute(req.source).string(), "-o", tmp.string()});
  ipc::CommandResult r = ipc::run_command(argv, {.timeout_s = options.compile_timeout_s});
  *log = r.started ? r.output : r.error;
  if (r.ok()) return {};
  if (r.timed_out)
    return "compile timeout after " + ipc::seconds_text(options.compile_timeout_s) + " s";
  return "compile error";
}

// The code's identity: compiler, flags and source, with the source's folder (an include path)
// named by its content rather than its path. Empty when the folder is too large to digest.
std::string code_key(const CompileRequest& req, const std::string& compiler,
                     const std::vector<std::string>& flags, const std::string& text) {
  const std::string source_dir = fs::absolute(req.source).parent_path().string();
  const std::string folder = source_folder_digest(source_dir);
  if (folder.empty()) return {};
  std::string key_text =
      "kta-hip-launcher 3\n" + compiler + "\n" + req.entry + "\nsource folder " + folder + "\n";
  for (const std::string& a : flags)
    if (a != "-I" + source_dir) key_text += a + "\n";
  return ipc::sha256_hex(key_text + text);
}

}  // namespace

LauncherBuild build_launcher(const CompileRequest& req, const std::string& arch,
                             const DeviceOptions& options, bool key_only) {
  auto start = std::chrono::steady_clock::now();
  LauncherBuild out;
  auto finish = [&]() -> LauncherBuild& {
    out.result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
  std::string text;
  if (!read_text(req.source, &text)) {
    out.result.error = "cannot read launcher source '" + req.source.string() + "'";
    return finish();
  }
  const std::string compiler = compiler_path(options.locations);
  const std::vector<std::string> flags = launcher_flags(req, arch, options.locations);
  out.key = code_key(req, compiler, flags, text);
  if (key_only) {
    out.result.ok = !out.key.empty();
    if (!out.result.ok) out.result.error = "the launcher's folder is too large to key";
    return finish();
  }
  // Without a key of its own (a folder too large to digest), the path keys this worker's cache.
  std::string key = out.key;
  if (key.empty()) {
    std::string key_text = compiler + "\n" + req.entry + "\n" + req.source.string() + "\n";
    for (const std::string& a : flags) key_text += a + "\n";
    key = ipc::sha256_hex(key_text + text);
  }
  const fs::path cache = kernel_cache_dir(options.cache_dir);
  out.library = cache / (key + ".so");
  std::error_code ec;
  if (fs::exists(out.library, ec)) {
    out.result.ok = true;
    out.result.cache_hit = true;
    return finish();
  }
  fs::create_directories(cache, ec);
  const fs::path tmp = cache / (key + ".tmp." + std::to_string(getpid()) + ".so");
  out.result.error = compile(compiler, flags, req, tmp, options, &out.result.log);
  if (!out.result.error.empty()) {
    fs::remove(tmp, ec);
    return finish();
  }
  fs::rename(tmp, out.library, ec);
  if (ec) {
    out.result.error = "cannot store the built launcher in " + cache.string() + ": " + ec.message();
    return finish();
  }
  out.result.ok = true;
  return finish();
}

}  // namespace kta::engine::hip

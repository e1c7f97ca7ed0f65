#include "engine/device/hip/plugin/launcher_build.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engine/device/hip/rtc/code_cache.h"
#include "lang/hash.h"

namespace kta::engine::hip {
namespace fs = std::filesystem;
namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The folder holding this plugin: include folders are looked up beside it first, so a build
// tree carried to another machine works.
fs::path plugin_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_dir), &info) == 0 || info.dli_fname == nullptr)
    return {};
  return fs::path(info.dli_fname).parent_path();
}

fs::path first_existing(const char* env, const fs::path& beside, const char* built_in) {
  if (const char* e = std::getenv(env); e && *e) return e;
  std::error_code ec;
  if (!beside.empty() && fs::exists(beside, ec)) return beside;
  return built_in;
}

std::string compiler_path() {
  if (const char* e = std::getenv("KTA_HIP_LAUNCHER_COMPILER"); e && *e) return e;
  std::error_code ec;
  if (fs::exists(KTA_HIP_LAUNCHER_COMPILER, ec)) return KTA_HIP_LAUNCHER_COMPILER;
#if defined(__HIP_PLATFORM_NVIDIA__)
  return "nvcc";
#else
  return "hipcc";
#endif
}

// Runs a shell command, returning its exit status and merged output.
int run(const std::string& cmd, std::string* output) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output->append(buf.data(), n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

LauncherBuild build_launcher(const CompileRequest& req, const std::string& arch,
                             const DeviceOptions& options) {
  auto start = std::chrono::steady_clock::now();
  LauncherBuild out;
  auto finish = [&]() -> LauncherBuild& {
    out.result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
  std::ifstream in(req.source, std::ios::binary);
  if (!in) {
    out.result.error = "cannot read launcher source '" + req.source.string() + "'";
    return finish();
  }
  std::ostringstream text;
  text << in.rdbuf();
  const fs::path dir = plugin_dir();
  const std::string compiler = compiler_path();
  std::vector<std::string> args = {shell_quote(compiler)};
#if defined(__HIP_PLATFORM_NVIDIA__)
  fs::path hip_include = first_existing("KTA_HIP_INCLUDE_DIR", dir / "hip-nvidia" / "include",
                                        KTA_HIP_LAUNCHER_INCLUDE);
  args.insert(args.end(),
              {"-shared", "-Xcompiler", "-fPIC", "-O3", "-std=c++17", "-arch=" + arch, "-cudart",
               "shared", "-D__HIP_PLATFORM_NVIDIA__", "-Wno-deprecated-gpu-targets",
               "-I" + shell_quote(hip_include.string())});
#else
  args.insert(args.end(), {"-shared", "-fPIC", "-O3", "-std=c++17", "--offload-arch=" + arch});
#endif
  fs::path abi_include = first_existing("KTA_LAUNCH_ABI_INCLUDE_DIR",
                                        dir / "hip-launch" / "include", KTA_HIP_LAUNCH_ABI_INCLUDE);
  args.push_back("-I" + shell_quote(abi_include.string()));
  args.push_back("-I" + shell_quote(fs::absolute(req.source).parent_path().string()));
  for (const std::string& d : req.options.defines) args.push_back(shell_quote("-D" + d));
  for (const std::string& f : req.options.extra_flags) args.push_back(shell_quote(f));

  std::string key_text = "kta-hip-launcher 1\n" + compiler + "\n" + req.entry + "\n";
  for (const std::string& a : args) key_text += a + "\n";
  key_text += text.str();
  const std::string key = lang::ContentHasher().add(key_text).hex();
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
  std::string cmd;
  if (options.compile_timeout_s > 0)
    cmd = "timeout -k 5 " + std::to_string(int(options.compile_timeout_s + 0.5)) + " ";
  for (const std::string& a : args) cmd += a + " ";
#if defined(__HIP_PLATFORM_NVIDIA__)
  cmd += "-x cu ";  // nvcc mishandles .hip files otherwise
#else
  cmd += "-x hip ";
#endif
  cmd += shell_quote(fs::absolute(req.source).string()) + " -o " + shell_quote(tmp.string());
  int rc = run(cmd, &out.result.log);
  if (rc != 0) {
    fs::remove(tmp, ec);
    out.result.error =
        rc == 124 ? "compile timeout after " + std::to_string(options.compile_timeout_s) + " s"
                  : "compile error";
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

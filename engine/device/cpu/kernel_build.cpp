#include "engine/device/cpu/kernel_build.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <regex>
#include <sstream>

#include "engine/device/cpu/hip_rewrite.h"
#include "engine/device/cpu/include_staging.h"
#include "engine/ipc/cache_key.h"
#include "engine/ipc/command.h"
#include "engine/runtime/kta/cpu_runtime.h"
#include "lang/hash.h"

#ifndef KTA_CPU_RUNTIME_LIB
#define KTA_CPU_RUNTIME_LIB "libkta_cpu_runtime.so"
#endif
#ifndef KTA_CPU_RUNTIME_INCLUDE
#define KTA_CPU_RUNTIME_INCLUDE "engine/runtime"
#endif
#ifndef KTA_HOST_CXX
#define KTA_HOST_CXX "c++"
#endif

namespace fs = std::filesystem;

namespace kta::engine::cpu {
namespace {

// Everything that identifies the compiler and the machine code it emits for -march=native.
const std::string& toolchain_identity(const std::string& cxx) {
  static std::mutex mu;
  static std::map<std::string, std::string> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(cxx);
  if (it != cache.end()) return it->second;
  std::string id = ipc::run_command({cxx, "--version"}).output;
  std::string cpuinfo;
  ipc::read_whole_file("/proc/cpuinfo", &cpuinfo);
  size_t model = cpuinfo.find("model name"), flags = cpuinfo.find("\nflags");
  if (model != std::string::npos) id += cpuinfo.substr(model, cpuinfo.find('\n', model) - model);
  if (flags != std::string::npos)
    id += cpuinfo.substr(flags, cpuinfo.find('\n', flags + 1) - flags);
  return cache.emplace(cxx, id).first->second;
}

// What a build compiles and links with: the host compiler and the cpu runtime.
struct Toolchain {
  std::string cxx;
  std::string runtime_lib;
  std::string runtime_include;
};

Toolchain toolchain(const DeviceOptions& o) {
  return {host_compiler(o), runtime_library_path(o), runtime_include_dir(o)};
}

// The device model's headers and the runtime ABI: a change invalidates every cached object.
const std::string& model_identity(const Toolchain& tc) {
  static std::mutex mu;
  static std::map<std::pair<std::string, std::string>, std::string> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(tc.runtime_lib, tc.runtime_include);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::string id = "abi " + std::to_string(KTA_CPU_RUNTIME_ABI) + " " + tc.runtime_lib + "\n";
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto& e : fs::recursive_directory_iterator(tc.runtime_include, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".h") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::string text;
    ipc::read_whole_file(f, &text);
    id += f.filename().string() + "\n" + text;
  }
  return cache.emplace(key, std::move(id)).first->second;
}

std::string first_error_line(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("error:") != std::string::npos || line.find("fatal error") != std::string::npos)
      return line;
  }
  return {};
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// Whether `file` (named `name` under the cache folder) has a valid tag beside it.
bool authentic(const ipc::CacheKey& key, const std::string& name, const fs::path& file) {
  std::string tag;
  return ipc::read_whole_file(fs::path(file.string() + ".tag"), &tag) &&
         key.verify_file(name, file, tag);
}

// Writes the tag of `data_file`'s bytes under `name` to `tag_file` (through a temporary file);
// false when it cannot.
bool write_tag(const ipc::CacheKey& key, const std::string& name, const fs::path& data_file,
               const fs::path& tag_file) {
  std::string tag = key.tag_file(name, data_file);
  const fs::path tmp = tag_file.string() + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << tag;
    if (!out || tag.empty()) return false;
  }
  std::error_code ec;
  fs::rename(tmp, tag_file, ec);
  return !ec;
}

constexpr const char* kTrampolineName = "<kta trampoline>";

// <cassert> redefines assert each time it is included; point those includes at kta's device
// assert (same line count, so diagnostics keep their lines).
std::string redirect_assert_includes(const std::string& text) {
  static const std::regex include(R"(^([ \t]*#[ \t]*include[ \t]*)[<"](cassert|assert\.h)[>"])",
                                  std::regex::multiline);
  return std::regex_replace(text, include, "$1<kta/cpu_assert.h>");
}

std::string trampoline(const CompileRequest& r) {
  if (r.launcher) {
    return "extern \"C\" KTA_RT_API int kta_entry_call(const kta_call* call) { return " + r.entry +
           "(call); }\n";
  }
  return "extern \"C\" KTA_RT_API const char* kta_entry_signature() { return ::kta_rt::Entry<&" +
         r.entry +
         ">::signature(); }\n"
         "extern \"C\" KTA_RT_API int kta_entry_launch(void* const* args, dim3 grid, dim3 block, "
         "size_t shared) {\n"
         "  return ::kta_rt::Entry<&" +
         r.entry + ">::launch(" + one_line_literal(r.entry) + ", args, grid, block, shared);\n}\n";
}

// A precompiled device-model header for one set of flags, built once into the cache: it takes
// parsing <hip/hip_runtime.h> and the C++ headers under it out of every compile (about 0.5 s of
// a 1.2 s compile here). GCC only: it checks that the flags match and ignores the file
// otherwise. Returns the header to -include, or empty (no precompiled header).
std::string precompiled_header(const Toolchain& tc, const std::vector<std::string>& flags,
                               const fs::path& dir, const ipc::CacheKey* auth, double timeout_s) {
  const std::string& id = toolchain_identity(tc.cxx);
  if (auth == nullptr || id.find("Free Software Foundation") == std::string::npos ||
      id.find("clang") != std::string::npos)
    return {};
  std::string key = tc.cxx + "\n" + toolchain_identity(tc.cxx) + "\n" + model_identity(tc);
  for (const std::string& f : flags) key += f + "\n";
  const std::string name = "pch-" + content_hash(key);
  const fs::path pch_dir = dir / name;
  const fs::path header = pch_dir / "kta_pch.h";
  const fs::path gch = header.string() + ".gch";
  std::error_code ec;
  if (fs::exists(gch, ec)) {
    // Its code goes into every module built with it: a header that fails authentication is
    // rebuilt.
    if (authentic(*auth, name, gch)) return header.string();
    fs::remove_all(pch_dir, ec);
  }
  std::random_device rd;
  const fs::path tmp = dir / ("tmp-pch-" + std::to_string(getpid()) + "-" + std::to_string(rd()));
  fs::create_directories(tmp, ec);
  {
    std::ofstream h(tmp / "kta_pch.h");
    h << "#include <hip/hip_runtime.h>\n";
  }
  std::vector<std::string> argv = {tc.cxx};
  for (const std::string& f : flags) {
    if (f != "-shared" && f != "-x" && f != "c++") argv.push_back(f);
  }
  for (std::string a :
       {"-I" + tc.runtime_include, std::string("-x"), std::string("c++-header"),
        (tmp / "kta_pch.h").string(), std::string("-o"), (tmp / "kta_pch.h.gch").string()})
    argv.push_back(a);
  ipc::CommandResult r = ipc::run_command(argv, {.timeout_s = timeout_s});
  const fs::path tmp_gch = tmp / "kta_pch.h.gch";
  if (r.ok() && write_tag(*auth, name, tmp_gch, tmp_gch.string() + ".tag"))
    fs::rename(tmp, pch_dir, ec);  // another process may have won the race
  fs::remove_all(tmp, ec);
  return fs::exists(gch, ec) && authentic(*auth, name, gch) ? header.string() : std::string();
}

// The source of a build, read, checked and rewritten for the device model.
struct Source {
  std::string name;                     // the file's name, as diagnostics show it
  std::string text;                     // rewritten
  std::vector<StagedInclude> includes;  // the project files it includes, rewritten
  std::string key_text;                 // the source and its includes: part of the cache key
};

// Reads and rewrites the source and scans its includes; false with out->error when it cannot
// be built.
bool read_source(const CompileRequest& req, Source* src, BuildResult* out) {
  std::string source;
  if (!ipc::read_whole_file(req.source, &source)) {
    out->error = "cannot read source '" + req.source.string() + "'";
    return false;
  }
  src->name = req.source.filename().string();
  if (req.entry.empty()) {
    out->error = "no entry named";
    return false;
  }
  std::string entry_base = req.entry.substr(0, req.entry.find('<'));
  if (!mentions_identifier(source, entry_base)) {
    out->error = "entry '" + req.entry + "' not found in " + src->name;
    return false;
  }
  StagedSource staged = stage_source(req.source, source);
  std::vector<std::string> errors;
  for (const std::string& e : staged.main.errors) errors.push_back(src->name + ":" + e);
  errors.insert(errors.end(), staged.errors.begin(), staged.errors.end());
  if (!errors.empty()) {
    for (const std::string& e : errors) out->log += e + "\n";
    out->error = "compile error: " + errors.front();
    return false;
  }
  out->synchronizes = staged.synchronizes;
  src->key_text = source;
  for (StagedInclude& inc : staged.includes) {
    inc.text = redirect_assert_includes(inc.text);
    src->key_text += "\ninclude " + inc.name + " " + inc.shown + "\n" + inc.text;
  }
  src->includes = std::move(staged.includes);
  if (!req.launcher) out->parameter_names = kernel_parameter_names(source, entry_base);
  src->text = "#line 1 " + one_line_literal(src->name) + "\n" +
              redirect_assert_includes(staged.main.text) + "\n#line 1 \"" + kTrampolineName +
              "\"\n" + trampoline(req);
  return true;
}

std::vector<std::string> compile_flags(const CompileRequest& req, const DeviceOptions& opts,
                                       int warp, bool synchronizes) {
  // Hidden visibility and no interposition let the kernel inline into the block loop; only the
  // trampoline's entries (KTA_RT_API) are exported.
  std::vector<std::string> flags = {"-std=c++20",
                                    "-fPIC",
                                    "-shared",
                                    "-x",
                                    "c++",
                                    "-fno-math-errno",
                                    "-fvisibility=hidden",
                                    "-fno-semantic-interposition"};
  if (req.options.sanitize) {
    for (const char* f : {"-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer"})
      flags.push_back(f);
  } else {
    for (const char* f : {"-O3", "-march=native"}) flags.push_back(f);
  }
  flags.push_back("-DKTA_FIBERS=" + std::string(synchronizes ? "1" : "0"));
  flags.push_back("-DKTA_WARP_SIZE=" + std::to_string(warp));
  if (opts.check_lanes) flags.push_back("-DKTA_CHECK_LANES=1");
  for (const std::string& d : req.options.defines) flags.push_back("-D" + d);
  for (const std::string& f : req.options.extra_flags) flags.push_back(f);
  return flags;
}

// The whole compiler command line for the translation unit at `tu_path`.
std::vector<std::string> compiler_argv(const Toolchain& tc, const std::vector<std::string>& flags,
                                       const CompileRequest& req, const std::string& pch,
                                       const fs::path& tu_path, const fs::path& so_path) {
  std::vector<std::string> argv = {tc.cxx};
  argv.insert(argv.end(), flags.begin(), flags.end());
  const std::string src_dir =
      req.source.parent_path().empty() ? std::string(".") : req.source.parent_path().string();
  const std::vector<std::string> tail = {
      "-I" + tc.runtime_include,
      "-iquote",
      src_dir,
      "-include",
      pch.empty() ? "hip/hip_runtime.h" : pch,
      tu_path.string(),
      "-x",
      "none",
      "-o",
      so_path.string(),
      tc.runtime_lib,
      "-Wl,-rpath," + fs::path(tc.runtime_lib).parent_path().string()};
  argv.insert(argv.end(), tail.begin(), tail.end());
  return argv;
}

// A launcher compiled without <kta/launch.h>: the first error that names one of its types, as
// "FILE:LINE:COL: 'kta_call'", or empty when the log has none.
std::string missing_launch_header(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    size_t at = line.find(": error: ");
    if (at == std::string::npos) continue;
    // GCC quotes names with ' or, in a UTF-8 locale, with U+2018/U+2019.
    for (std::string name : {"kta_call", "kta_tensor", "kta_param"}) {
      if (line.find("'" + name + "'", at) != std::string::npos ||
          line.find("\u2018" + name + "\u2019", at) != std::string::npos)
        return line.substr(0, at) + ": '" + name + "'";
    }
  }
  return {};
}

// Why a compile failed, from the compiler's run and its log.
std::string compile_failure(const CompileRequest& req, const ipc::CommandResult& r,
                            const std::string& log, double timeout_s) {
  if (r.timed_out) return "compile timeout after " + std::to_string(int(timeout_s)) + " s";
  if (std::string unknown = req.launcher ? missing_launch_header(log) : ""; !unknown.empty()) {
    return "compile error: " + unknown +
           " is not declared: a launcher includes the launch ABI header, "
           "'#include <kta/launch.h>' (it declares kta_call, kta_tensor and kta_param)";
  }
  std::string first = first_error_line(log);
  if (log.find(kTrampolineName) != std::string::npos &&
      first.find(kTrampolineName) != std::string::npos) {
    return req.launcher ? "entry '" + req.entry + "' must be declared extern \"C\" int " +
                              req.entry + "(const kta_call*)"
                        : "entry '" + req.entry +
                              "' is not a single __global__ function (overloaded, a template "
                              "without arguments, or not a function)";
  }
  return "compile error" + (first.empty() ? std::string() : ": " + first);
}

// Compiles the translation unit into out->library (through a temporary file, so that a reader
// never sees half an object).
void compile_into_cache(const CompileRequest& req, const DeviceOptions& opts, const Source& src,
                        const Toolchain& tc, const std::vector<std::string>& flags,
                        const ipc::CacheKey* auth, BuildResult* out) {
  const fs::path dir = out->library.parent_path();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    out->error = "cannot create cache directory '" + dir.string() + "': " + ec.message();
    return;
  }
  std::random_device rd;
  const std::string tmp = "tmp-" + std::to_string(getpid()) + "-" + std::to_string(rd());
  // The translation unit and the staged includes, in a folder of their own.
  const fs::path build_dir = dir / tmp, so_path = dir / (tmp + ".so");
  const fs::path tu_path = build_dir / (src.name + ".cpp");
  fs::create_directories(build_dir, ec);
  std::vector<std::pair<fs::path, const std::string*>> files = {{tu_path, &src.text}};
  for (const StagedInclude& inc : src.includes) files.emplace_back(build_dir / inc.name, &inc.text);
  for (const auto& [path, text] : files) {
    std::ofstream f(path, std::ios::binary);
    f << *text;
    if (!f) {
      out->error = "cannot write '" + path.string() + "'";
      fs::remove_all(build_dir, ec);
      return;
    }
  }
  // Sanitized builds are rare and differ in flags: they parse the header themselves.
  const std::string pch = req.options.sanitize
                              ? std::string()
                              : precompiled_header(tc, flags, dir, auth, opts.compile_timeout_s);
  ipc::CommandResult r = ipc::run_command(compiler_argv(tc, flags, req, pch, tu_path, so_path),
                                          {.timeout_s = opts.compile_timeout_s});
  fs::remove_all(build_dir, ec);
  out->log = replace_all(r.started ? r.output : r.error, tu_path.string(), src.name);
  for (const StagedInclude& inc : src.includes)
    out->log = replace_all(out->log, (build_dir / inc.name).string(), inc.shown);
  out->log = replace_all(out->log, req.source.parent_path().string() + "/", "");
  if (!r.ok()) {
    fs::remove(so_path, ec);
    out->error = compile_failure(req, r, out->log, opts.compile_timeout_s);
    return;
  }
  // The tag first: a reader that finds the object finds its tag.
  const std::string name = out->library.filename().string();
  if (auth != nullptr) write_tag(*auth, name, so_path, out->library.string() + ".tag");
  fs::rename(so_path, out->library, ec);
  if (ec) {
    out->error = "cannot store '" + out->library.string() + "': " + ec.message();
    return;
  }
  out->ok = true;
}

}  // namespace

// Collision-resistant: the key text holds the candidate's source (engine/ipc/cache_key.h).
std::string content_hash(const std::string& data) { return ipc::sha256_hex(data); }

std::string runtime_library_path(const DeviceOptions& o) {
  const fs::path& lib = o.locations.cpu_runtime_lib;
  return lib.empty() ? std::string(KTA_CPU_RUNTIME_LIB) : lib.string();
}
std::string runtime_include_dir(const DeviceOptions& o) {
  const fs::path& dir = o.locations.cpu_runtime_include;
  return dir.empty() ? std::string(KTA_CPU_RUNTIME_INCLUDE) : dir.string();
}
std::string host_compiler(const DeviceOptions& o) {
  return !o.compiler.empty() ? o.compiler : KTA_HOST_CXX;
}

BuildResult build_module(const CompileRequest& req, const DeviceOptions& opts) {
  BuildResult out;
  Source src;
  if (!read_source(req, &src, &out)) return out;
  const int warp = req.options.warp_size != 0 ? req.options.warp_size : opts.warp_size;
  if (warp != 32 && warp != 64) {
    out.error = "unsupported warp size " + std::to_string(warp) + " (32 or 64)";
    return out;
  }
  const Toolchain tc = toolchain(opts);
  const std::vector<std::string> flags = compile_flags(req, opts, warp, out.synchronizes);
  std::string key = src.text + "\n" + src.key_text + "\n" + tc.cxx + "\n" +
                    toolchain_identity(tc.cxx) + "\n" + model_identity(tc);
  for (const std::string& f : flags) key += f + "\n";
  const fs::path dir = cache_root(opts.cache_dir) / "cpu";
  out.library = dir / (content_hash(key) + ".so");
  std::string key_error;
  std::optional<ipc::CacheKey> auth = ipc::CacheKey::open(dir, &key_error);
  std::error_code ec;
  if (fs::exists(out.library, ec)) {
    const std::string name = out.library.filename().string();
    if (auth && authentic(*auth, name, out.library)) {
      out.ok = true;
      out.cache_hit = true;
      return out;
    }
    out.note = "compile cache entry " + name +
               (auth ? " fails authentication" : " cannot be authenticated (" + key_error + ")") +
               "; recompiled";
    fs::remove(out.library, ec);
    fs::remove(out.library.string() + ".tag", ec);
  }
  compile_into_cache(req, opts, src, tc, flags, auth ? &*auth : nullptr, &out);
  return out;
}

}  // namespace kta::engine::cpu

#include "engine/device/hip/rtc/hiprtc_compiler.h"

#include <hip/hiprtc.h>
#if defined(__HIP_PLATFORM_NVIDIA__)
#include <nvrtc.h>
#endif

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string_view>

#include "engine/device/hip/rtc/code_cache.h"
#include "engine/device/hip/rtc/hiprtc_prelude.h"
#include "engine/device/hip/rtc/kernel_signature.h"
#include "engine/ipc/cache_key.h"

namespace kta::engine::hip {
namespace fs = std::filesystem;
namespace {

struct Target {
  std::vector<std::string> options;
  std::string format;
};

#if defined(__HIP_PLATFORM_NVIDIA__)
// CUBIN for the exact architecture when NVRTC supports it (no JIT at load), else PTX for the
// newest virtual architecture NVRTC knows that is not newer than the device.
Target target_for(const std::string& arch) {
  int want = 0;
  if (arch.rfind("sm_", 0) == 0) want = std::atoi(arch.c_str() + 3);
  int count = 0;
  nvrtcGetNumSupportedArchs(&count);
  std::vector<int> archs(size_t(std::max(count, 0)));
  if (count > 0) nvrtcGetSupportedArchs(archs.data());
  if (std::find(archs.begin(), archs.end(), want) != archs.end())
    return {{"--gpu-architecture=sm_" + std::to_string(want)}, "cubin"};
  int best = 0;
  for (int a : archs)
    if (a <= want) best = std::max(best, a);
  if (best == 0 && !archs.empty()) best = archs.front();
  return {{"--gpu-architecture=compute_" + std::to_string(best)}, "ptx"};
}
#else
Target target_for(const std::string& arch) { return {{"--offload-arch=" + arch}, "hsaco"}; }
#endif

#if defined(__HIP_PLATFORM_NVIDIA__)
// NVRTC needs the toolkit's headers for cuda_fp16.h/cuda_bf16.h: `configured` when set, else the
// include folder beside the libnvrtc this process loaded, else the build's toolkit.
std::string cuda_include_dir(const fs::path& configured) {
  if (!configured.empty()) return configured.string();
  static const std::string dir = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) != 0 && info.dli_fname != nullptr) {
      std::error_code ec;
      fs::path lib = fs::canonical(info.dli_fname, ec);
      for (fs::path d = lib.parent_path(); !ec && d.has_relative_path(); d = d.parent_path()) {
        if (fs::exists(d / "include" / "cuda_fp16.h", ec)) return (d / "include").string();
        if (d.filename() != "lib64" && d.filename() != "lib" &&
            d.parent_path().filename() != "targets")
          break;
      }
    }
    return std::string(KTA_CUDA_INCLUDE_DIR);
  }();
  return dir;
}
#endif

std::string read_file(const fs::path& p, bool* ok) {
  std::ifstream in(p, std::ios::binary);
  *ok = bool(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Where the first error located in the signature check that is not one of its assertions
// starts: the entry could not be named there. npos when there is none.
size_t first_naming_error(const std::string& log) {
  const std::string check = kCheckFileName;
  for (size_t at = 0; at < log.size();) {
    size_t end = log.find('\n', at);
    if (end == std::string::npos) end = log.size();
    std::string_view line(log.data() + at, end - at);
    if ((line.rfind(check + ":", 0) == 0 || line.rfind(check + "(", 0) == 0) &&
        line.find("error") != std::string_view::npos &&
        line.find("signature mismatch: ") == std::string_view::npos)
      return at;
    at = end + 1;
  }
  return std::string::npos;
}

// The reason a failed compile gets: a signature mismatch or a missing kernel is named.
std::string failure_reason(const std::string& log, const std::string& entry,
                           const std::string& file) {
  // NVRTC: static assertion failed with "<message>"; clang (hipRTC on AMD): static assertion
  // failed due to requirement '<condition>': <message> (older clang: static_assert failed ...
  // "<message>").
  static const std::regex assert_re(
      R"re(static.assert(?:ion)? failed[^\n]*?"?(signature mismatch: [^"\n]*))re");
  std::smatch m;
  const std::string missing = "no kernel named '" + entry + "' in " + file +
                              " (or it is overloaded, or a template without arguments)";
  const bool asserted = std::regex_search(log, m, assert_re);
  // Clang corrects a misspelt entry to a kernel that exists ("did you mean 'saxpy'?") and checks
  // that one's signature: the naming error that comes first is the diagnosis.
  const size_t naming = first_naming_error(log);
  if (naming != std::string::npos && (!asserted || naming < size_t(m.position(0)))) return missing;
  if (asserted) {
    std::string why = m[1];
    return why.find("is not a kernel function") != std::string::npos ? missing : why;
  }
  if (log.find(std::string(kCheckFileName) + ":") != std::string::npos ||
      log.find(std::string(kCheckFileName) + "(") != std::string::npos)
    return missing;
  return "compile error";
}

struct Program {
  hiprtcProgram p = nullptr;
  ~Program() {
    if (p != nullptr) hiprtcDestroyProgram(&p);
  }
};

std::string program_log(hiprtcProgram p) {
  size_t n = 0;
  if (hiprtcGetProgramLogSize(p, &n) != HIPRTC_SUCCESS || n == 0) return {};
  std::string log(n, '\0');
  hiprtcGetProgramLog(p, log.data());
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

bool get_code(hiprtcProgram p, const std::string& format, std::string* code) {
  size_t n = 0;
#if defined(__HIP_PLATFORM_NVIDIA__)
  if (format == "cubin") {
    if (nvrtcGetCUBINSize(reinterpret_cast<nvrtcProgram>(p), &n) != NVRTC_SUCCESS) return false;
    code->resize(n);
    return nvrtcGetCUBIN(reinterpret_cast<nvrtcProgram>(p), code->data()) == NVRTC_SUCCESS;
  }
#else
  (void)format;
#endif
  if (hiprtcGetCodeSize(p, &n) != HIPRTC_SUCCESS) return false;
  code->resize(n);
  return hiprtcGetCode(p, code->data()) == HIPRTC_SUCCESS;
}

}  // namespace

std::string rtc_version() {
  int major = 0, minor = 0;
  hiprtcVersion(&major, &minor);
#if defined(__HIP_PLATFORM_NVIDIA__)
  return "nvrtc " + std::to_string(major) + "." + std::to_string(minor);
#else
  return "hiprtc " + std::to_string(major) + "." + std::to_string(minor);
#endif
}

std::string clang_style_log(const std::string& log) {
  static const std::regex loc(R"re((^|\n)([^\n()]+)\((\d+)\): )re");
  return std::regex_replace(log, loc, "$1$2:$3: ");
}

namespace {

std::vector<std::string> compile_options(const RtcRequest& req, const Target& target) {
  std::vector<std::string> options = target.options;
  options.push_back("-std=c++17");
  // Headers beside the kernel resolve as with any compiler (the cache key does not cover them).
  const std::string source_dir = fs::absolute(req.source).parent_path().string();
#if defined(__HIP_PLATFORM_NVIDIA__)
  options.push_back("-lineinfo");
  options.push_back("--include-path=" + source_dir);
  options.push_back("--include-path=" + cuda_include_dir(req.cuda_include_dir));
#else
  options.push_back("-I" + source_dir);  // hipRTC on AMD is clang: clang's spellings
#endif
  for (const std::string& d : req.options.defines) options.push_back("-D" + d);
  for (const std::string& f : req.options.extra_flags) options.push_back(f);
  return options;
}

// Compiles `tu` and fills out's code, format, symbol and log; out.result.error when it fails.
void run_hiprtc(const std::string& tu, const std::string& file, const std::string& entry,
                const std::vector<std::string>& options, const Target& target, RtcOutput* out) {
  std::vector<const char*> header_names, header_texts;
  for (const auto& [name, body] : rtc_virtual_headers()) {
    header_names.push_back(name.c_str());
    header_texts.push_back(body.c_str());
  }
  Program prog;
  if (hiprtcCreateProgram(&prog.p, tu.c_str(), file.c_str(), int(header_names.size()),
                          header_texts.data(), header_names.data()) != HIPRTC_SUCCESS) {
    out->result.error = "hipRTC could not create a program for " + file;
    return;
  }
  const std::string name_expr = "&" + entry;
  hiprtcAddNameExpression(prog.p, name_expr.c_str());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  hiprtcResult rc = hiprtcCompileProgram(prog.p, int(argv.size()), argv.data());
  out->result.log = clang_style_log(program_log(prog.p));
  if (rc != HIPRTC_SUCCESS) {
    out->result.error = failure_reason(out->result.log, entry, file);
    return;
  }
  const char* lowered = nullptr;
  if (hiprtcGetLoweredName(prog.p, name_expr.c_str(), &lowered) != HIPRTC_SUCCESS ||
      lowered == nullptr) {
    out->result.error = "'" + entry + "' in " + file + " is not a __global__ kernel";
    return;
  }
  out->lowered_name = lowered;
  out->format = target.format;
  if (!get_code(prog.p, target.format, &out->code)) {
    out->result.error = "hipRTC produced no code for " + file;
    return;
  }
  out->result.ok = true;
}

// The code's identity: the compiler, its options and the translation unit, with the source's
// folder (an include path) named by its content rather than its path.
std::string code_key(const RtcRequest& req, const std::vector<std::string>& options,
                     const std::string& tu) {
  const std::string source_dir = fs::absolute(req.source).parent_path().string();
  std::string folder = req.text.empty() ? source_folder_digest(source_dir) : "text";
  if (folder.empty()) return {};
  std::string key_text = "kta-hiprtc 2\n" + std::to_string(kPreludeVersion) + "\n" + rtc_version() +
                         "\n" + req.arch + "\n" + req.entry + "\nsource folder " + folder + "\n";
  for (const std::string& o : options)
    if (o != "--include-path=" + source_dir && o != "-I" + source_dir) key_text += o + "\n";
  return ipc::sha256_hex(key_text + tu);
}

}  // namespace

RtcOutput rtc_compile(const RtcRequest& req) {
  auto start = std::chrono::steady_clock::now();
  RtcOutput out;
  auto finish = [&]() -> RtcOutput& {
    out.result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
  bool readable = !req.text.empty();
  std::string text = readable ? req.text : read_file(req.source, &readable);
  std::string file = req.source.filename().string();
  if (!readable) {
    out.result.error = "cannot read kernel source '" + req.source.string() + "'";
    return finish();
  }
  if (req.entry.empty()) {
    out.result.error = "no kernel name given for " + file;
    return finish();
  }
  // Line directives keep compiler messages on the user's file and lines.
  std::string tu = "#line 1 \"kta-prelude\"\n" + rtc_prelude(text) + "#line 1 \"" + file + "\"\n" +
                   text + "\n#line 1 \"" + kCheckFileName + "\"\n" +
                   signature_check_source(req.entry, req.signature);
  const Target target = target_for(req.arch);
  const std::vector<std::string> options = compile_options(req, target);

  out.key = code_key(req, options, tu);
  if (req.key_only) {
    out.result.ok = !out.key.empty();
    if (!out.result.ok) out.result.error = "the folder of " + file + " is too large to key";
    return finish();
  }
  // Without a key of its own (a folder too large to digest), the path keys this worker's cache.
  const std::string key =
      !out.key.empty() ? out.key : ipc::sha256_hex(req.source.string() + "\n" + tu);
  const fs::path dir = kernel_cache_dir(req.cache_dir);
  std::string note;
  if (req.use_cache) {
    if (auto hit = cache_load(dir, key, &note)) {
      out.result.ok = true;
      out.result.cache_hit = true;
      out.result.log = hit->log;
      out.format = hit->format;
      out.code = std::move(hit->code);
      out.lowered_name = hit->lowered_name;
      return finish();
    }
  }
  run_hiprtc(tu, file, req.entry, options, target, &out);
  if (out.result.ok && req.use_cache)
    cache_store(dir, key, {out.format, out.lowered_name, out.result.log, out.code});
  // For the step's record, as the cpu device's compile cache does (kta_execute reads the line).
  if (!note.empty()) out.result.log = "kta note: " + note + "\n" + out.result.log;
  return finish();
}

}  // namespace kta::engine::hip

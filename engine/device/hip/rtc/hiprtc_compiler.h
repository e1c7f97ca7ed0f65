// Kernel mode on the hip device: compiles one HIP kernel with hipRTC (NVRTC on NVIDIA) into a
// code object for a given architecture. Needs no GPU and no driver, so the compile gate runs on
// machines without either (CI). The device loads the code object (hip_device.cpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/device/device.h"

namespace kta::engine::hip {

struct RtcRequest {
  std::filesystem::path source;      // the kernel's file (its name labels diagnostics)
  std::string entry;                 // kernel name, may be a template-id ("scale<float>")
  std::vector<KernelArg> signature;  // declared parameter types; checked in the compiler
  CompileOptions options;
  std::string arch;                 // "sm_90" (NVIDIA) or "gfx90a" (AMD)
  std::filesystem::path cache_dir;  // kta's cache root (empty: the default); see code_cache.h
  bool use_cache = true;
  std::string text;       // the source itself, when not read from `source`
  bool key_only = false;  // compute RtcOutput::key and stop: nothing is compiled
  // CUDA headers for NVRTC (DeviceLocations::cuda_include_dir); empty: the include folder beside
  // the loaded libnvrtc, else the build's toolkit.
  std::filesystem::path cuda_include_dir;
};

struct RtcOutput {
  CompileResult result;      // ok / error / log / seconds / cache_hit; module is left 0
  std::string format;        // "cubin", "ptx" or "hsaco"
  std::string code;          // the code object
  std::string lowered_name;  // the kernel's symbol in `code`
  // What the code is: compiler, options, source and the content of the source's folder (SHA-256,
  // the same wherever the folder lies). Empty when the folder is too large to key: such code is
  // cached by this worker only.
  std::string key;
};

RtcOutput rtc_compile(const RtcRequest& request);

// "nvrtc 13.0" / "hiprtc 6.2": part of every cache key and of DeviceInfo.
std::string rtc_version();

// The compiler log with hipRTC's "file(12): error: ..." locations rewritten clang style
// ("file:12: error: ..."), so diagnostics read like every other compiler kta runs.
std::string clang_style_log(const std::string& log);

}  // namespace kta::engine::hip

// Reading an AddressSanitizer report (what a sanitized kernel prints before the worker exits)
// into one line that names the fault and the kernel's source line.
#pragma once

#include <string>

namespace kta::engine::remote {

// "out-of-bounds read at gelu.hip:12 (heap-buffer-overflow, 4 bytes)"; empty when `text`
// holds no AddressSanitizer report.
std::string summarize_asan_report(const std::string& text);

}  // namespace kta::engine::remote

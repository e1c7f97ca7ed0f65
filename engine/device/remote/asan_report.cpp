#include "engine/device/remote/asan_report.h"

#include <regex>
#include <sstream>

namespace kta::engine::remote {

std::string summarize_asan_report(const std::string& text) {
  size_t at = text.find("ERROR: AddressSanitizer: ");
  if (at == std::string::npos) return {};
  std::string report = text.substr(at);
  std::smatch m;
  std::string kind;
  if (std::regex_search(report, m, std::regex(R"(AddressSanitizer: ([A-Za-z-]+))"))) kind = m[1];
  std::string access, size;
  if (std::regex_search(report, m, std::regex(R"((READ|WRITE) of size (\d+))"))) {
    access = m[1] == "READ" ? "read" : "write";
    size = m[2];
  } else if (std::regex_search(report, m,
                               std::regex(R"(caused by a (READ|WRITE) memory access)"))) {
    access = m[1] == "READ" ? "read" : "write";
  }
  // The first stack frame in user code: skip kta's runtime and headers and system libraries.
  std::string where;
  std::istringstream lines(report);
  std::string line;
  const std::regex frame(R"(^\s*#\d+ 0x[0-9a-f]+ in .* ([^ :]+):(\d+)(:\d+)?\s*$)");
  while (std::getline(lines, line)) {
    if (!std::regex_match(line, m, frame)) continue;
    std::string file = m[1], ln = m[2];
    if (file.find("/engine/runtime/") != std::string::npos ||
        file.find("/usr/include/") != std::string::npos ||
        file.find("<kta trampoline>") != std::string::npos ||
        file.find("libsanitizer") != std::string::npos)
      continue;
    size_t slash = file.rfind('/');
    where = (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + ln;
    break;
  }
  std::string what;
  if (kind.find("overflow") != std::string::npos || kind == "use-after-poison" ||
      kind == "unknown-crash") {
    what = "out-of-bounds " + (access.empty() ? std::string("access") : access);
  } else if (kind == "SEGV") {
    what = "invalid memory " + (access.empty() ? std::string("access") : access);
  } else {
    what = kind + (access.empty() ? "" : " " + access);
  }
  std::string out = what;
  if (!where.empty()) out += " at " + where;
  out += " (" + kind + (size.empty() ? "" : ", " + size + " bytes") + ")";
  return out;
}

}  // namespace kta::engine::remote

// libFuzzer target for the .kta front end: any input must parse or be rejected with a diagnostic,
// never crash, hang or exhaust the stack; whatever parses must format to a fixed point; and the
// whole load (imports, sema, grids) must survive it too.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "lang/format.h"
#include "lang/load.h"
#include "lang/parse.h"

namespace {

std::string scratch_file() {
  const char* dir = std::getenv("KTA_FUZZ_TMP");
  return std::string(dir ? dir : "/tmp") + "/kta-fuzz-" + std::to_string(getpid()) + ".kta";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return -1;
  std::string text(reinterpret_cast<const char*>(data), size);
  kta::lang::SourceManager sm;
  kta::lang::DiagnosticEngine diags(sm);
  uint32_t id = sm.add("fuzz.kta", "fuzz.kta", text);
  auto file = kta::lang::parse_file(id, diags);
  if (file) {
    std::string once = kta::lang::format_file(*file, text);
    uint32_t id2 = sm.add("once.kta", "once.kta", once);
    auto again = kta::lang::parse_file(id2, diags);
    if (!again) {
      std::fprintf(stderr, "formatted text does not parse:\n%s\n%s", once.c_str(),
                   diags.str().c_str());
      std::abort();
    }
    if (kta::lang::format_file(*again, once) != once) {
      std::fprintf(stderr, "formatter is not idempotent on:\n%s", once.c_str());
      std::abort();
    }
  }
  (void)diags.str();
  static const std::string path = scratch_file();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  kta::lang::SourceManager sm2;
  kta::lang::DiagnosticEngine d2(sm2);
  kta::lang::LoadOptions options;
  options.max_grid_points = 2000;
  kta::lang::load_file(path, d2, options);
  (void)d2.str();
  return 0;
}

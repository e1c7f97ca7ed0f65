#include "support.h"

#include <fstream>
#include <random>

namespace kta::lang::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::random_device rd;
  path_ =
      fs::temp_directory_path() / ("kta-lang-test-" + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path TempDir::write(const std::string& rel, const std::string& text) const {
  fs::path p = path_ / rel;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

LoadOptions fixture_options() {
  LoadOptions o;
  o.stdlib_dir = fs::path(KTA_TEST_DIR) / "fixtures" / "stdlib";
  return o;
}

std::optional<Loaded> load(const fs::path& file, std::string& out, LoadOptions options) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  auto loaded = load_file(file, diags, options);
  out = diags.str();
  return loaded;
}

std::string task_text(const std::string& extra, const std::string& shapes) {
  return "import std.tolerances\n"
         "import std.inputs\n"
         "import std.heldout\n"
         "\n"
         "task t {\n"
         "  kind hip2hip\n"
         "  param N: i64\n"
         "  input x: f32[N] = std.inputs.normal(std: 2)\n"
         "  output y: f32[N]\n"
         "  reference hip \"k.hip\" kernel ref(x, y, N) grid ceil_div(N, 256) block 256\n"
         "  baseline hip \"k.hip\" kernel base(x, y, N) grid ceil_div(N, 256) block 256\n"
         "  " +
         shapes +
         "\n"
         "  tolerance y = std.tolerances.f32_strict\n" +
         extra + "}\n";
}

}  // namespace kta::lang::test

// Front-end throughput: generates N task files (default 1000) that import the stdlib, then parses
// and checks each with load_file on one thread (without, then with a ModuleCache for the imports),
// and all of them with load_files, printing files per second.
//   kta_lang_bench [N] [ROUNDS] [MODE]
// MODE: all (default), file (load_file, no cache), cached (load_file with a ModuleCache), shared
// (load_files): one mode alone, for instruction counts under callgrind.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "lang/load.h"
#include "lang/module.h"

namespace fs = std::filesystem;

namespace {

std::string task(int i) {
  int block = 64 << (i % 4);
  return "// generated task " + std::to_string(i) +
         "\n"
         "import std.tolerances\nimport std.inputs\nimport std.heldout\n\n"
         "const BLOCK = " +
         std::to_string(block) +
         "\n\n"
         "task t" +
         std::to_string(i) +
         " {\n"
         "  kind    hip2hip\n"
         "  summary \"generated elementwise task " +
         std::to_string(i) +
         "\"\n"
         "  param   M: i64\n  param   N: i64\n  param   alpha: f32 = 0.5\n"
         "  input   x: f32[M, N] = std.inputs.normal(mean: 0, std: 2)\n"
         "  input   b: f32[N] = std.inputs.uniform(lo: -1, hi: 1)\n"
         "  output  y: f32[M, N]\n\n"
         "  reference hip \"k.hip\" kernel ref(x, b, y, M, N, alpha) grid (ceil_div(N, BLOCK), M) "
         "block BLOCK\n"
         "  baseline  hip \"k.hip\" kernel base(x, b, y, M, N, alpha) grid (ceil_div(N, BLOCK), M) "
         "block BLOCK\n\n"
         "  shapes visible {\n    M in [1, 7, 64]\n    N in pow2(10..14)\n    where M * N <= 1 << "
         "20\n  }\n"
         "  shapes heldout = std.heldout.perturb(visible, count: 8)\n\n"
         "  tolerance y = std.tolerances.f32_strict\n"
         "  gate correctness { seeds 3 }\n  gate performance { min_speedup 1.0 }\n"
         "  bytes 4 * (2 * M * N + N)\n  flops 3 * M * N\n}\n";
}

// The best rates of a mode's rounds, in files per second.
struct Rates {
  double wall = 0, cpu = 0;
};

std::vector<fs::path> write_tasks(const fs::path& dir, int n) {
  fs::create_directories(dir);
  std::ofstream(dir / "k.hip") << "__global__ void ref() {}\n";
  std::vector<fs::path> files;
  for (int i = 0; i < n; ++i) {
    files.push_back(dir / ("t" + std::to_string(i) + ".kta"));
    std::ofstream(files.back()) << task(i);
  }
  return files;
}

// load_file per file: without a module cache (every import read and parsed again), or with one
// shared by all calls (imports parsed once, still checked per file). Nullopt when a file failed
// to check.
std::optional<Rates> bench_load_file(const std::vector<fs::path>& files, int rounds,
                                     kta::lang::ModuleCache* cache) {
  const int n = static_cast<int>(files.size());
  kta::lang::LoadOptions options;
  options.module_cache = cache;
  Rates best;
  for (int r = 0; r < rounds; ++r) {
    size_t ok = 0;
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpu_start = std::clock();
    for (const auto& f : files) {
      kta::lang::SourceManager sm;
      kta::lang::DiagnosticEngine diags(sm);
      auto loaded = kta::lang::load_file(f, diags, options);
      if (loaded && loaded->tasks.size() == 1)
        ++ok;
      else if (r == 0 && ok == 0)
        diags.print(std::cerr);
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double cpu = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    double rate = double(n) / s, cpu_rate = double(n) / cpu;
    best.wall = std::max(best.wall, rate);
    best.cpu = std::max(best.cpu, cpu_rate);
    std::printf(
        "%sround %d: %d files (%zu checked clean) in %.3f s wall, %.3f s cpu: %.0f files/s wall, "
        "%.0f files/s per cpu-second\n",
        cache ? "module cache, " : "", r + 1, n, ok, s, cpu, rate, cpu_rate);
    if (ok != size_t(n)) {
      std::fprintf(stderr, "error: %zu of %d generated files failed to check\n", size_t(n) - ok, n);
      return std::nullopt;
    }
  }
  return best;
}

// The same files through load_files, as `kta check DIR` does: imports parsed and checked once.
std::optional<Rates> bench_load_files(const std::vector<fs::path>& files, int rounds) {
  const int n = static_cast<int>(files.size());
  Rates best;
  for (int r = 0; r < rounds; ++r) {
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpu_start = std::clock();
    kta::lang::SourceManager sm;
    kta::lang::DiagnosticEngine diags(sm);
    auto results = kta::lang::load_files(files, diags);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double cpu = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    size_t ok = 0;
    for (const auto& res : results) ok += res && res->tasks.size() == 1;
    best.wall = std::max(best.wall, double(n) / s);
    best.cpu = std::max(best.cpu, double(n) / cpu);
    std::printf(
        "shared imports, round %d: %d files (%zu checked clean) in %.3f s wall, %.3f s cpu: %.0f "
        "files/s wall, %.0f files/s per cpu-second\n",
        r + 1, n, ok, s, cpu, double(n) / s, double(n) / cpu);
    if (ok != size_t(n)) {
      std::fprintf(stderr, "error: %zu of %d generated files failed to check\n", size_t(n) - ok, n);
      return std::nullopt;
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string mode = argc > 3 ? argv[3] : "all";
  if (mode != "all" && mode != "file" && mode != "cached" && mode != "shared") {
    std::fprintf(stderr, "usage: kta_lang_bench [N] [ROUNDS] [all|file|cached|shared]\n");
    return 2;
  }
  fs::path dir =
      fs::temp_directory_path() / ("kta-lang-bench-" + std::to_string(std::random_device{}()));
  std::vector<fs::path> files = write_tasks(dir, n);
  std::optional<Rates> plain = Rates{}, cached = Rates{}, shared = Rates{};
  kta::lang::ModuleCache cache;
  if (mode == "all" || mode == "file") plain = bench_load_file(files, rounds, nullptr);
  if (plain && (mode == "all" || mode == "cached")) cached = bench_load_file(files, rounds, &cache);
  if (plain && cached && (mode == "all" || mode == "shared"))
    shared = bench_load_files(files, rounds);
  if (!plain || !cached || !shared) {
    fs::remove_all(dir);
    return 1;
  }
  std::printf(
      "best with shared imports (kta check DIR): %.0f files/s wall, %.0f files/s per cpu-second\n",
      shared->wall, shared->cpu);
  std::printf("best load_file with module cache: %.0f files/s wall, %.0f files/s per cpu-second\n",
              cached->wall, cached->cpu);
  std::printf(
      "best: %.0f files/s wall, %.0f files/s per cpu-second (parse + imports + sema + grid "
      "expansion, one thread)\n",
      plain->wall, plain->cpu);
  fs::remove_all(dir);
  return 0;
}

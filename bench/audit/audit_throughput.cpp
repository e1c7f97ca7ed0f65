// Audit throughput: kta's audit (analyzers/audit.h, the code path of `kta audit`: one forked
// child per file, `--jobs` at a time, all seven checks) over 200 kernel files against
// clang-tidy-16 running one trivial check (misc-unused-parameters) on the same files with the
// same HIP parse settings, in one run, both over the same number of parallel workers.
// Prints files/s and the ratio.
//
//   audit_throughput [--files 200] [--jobs 2] [--repeat 3] [--workdir DIR]
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzers/audit.h"
#include "analyzers/hip_shim.h"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

double run_seconds(const std::string& command) {
  auto start = std::chrono::steady_clock::now();
  int status = std::system(command.c_str());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status == -1 || !WIFEXITED(status)) {
    std::fprintf(stderr, "command failed to run: %s\n", command.c_str());
    std::exit(1);
  }
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// What to run: the command line's settings.
struct BenchArgs {
  int files = 200, jobs = 2, repeat = 3;
  fs::path work = fs::temp_directory_path() / "kta_audit_bench";
};

// False (with the usage printed) on a bad command line.
bool parse_args(int argc, char** argv, BenchArgs* a) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string arg = argv[i];
    if (arg == "--files")
      a->files = std::atoi(argv[i + 1]);
    else if (arg == "--jobs")
      a->jobs = std::atoi(argv[i + 1]);
    else if (arg == "--repeat")
      a->repeat = std::atoi(argv[i + 1]);
    else if (arg == "--workdir")
      a->work = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: %s [--files N] [--jobs N] [--repeat N] [--workdir DIR]\n",
                   argv[0]);
      return false;
    }
  }
  if (a->files < 1 || a->jobs < 1 || a->repeat < 1) {
    std::fprintf(stderr, "--files, --jobs and --repeat must be positive\n");
    return false;
  }
  return true;
}

// `files` distinct files under work/kernels: the corpus kernels, each copy renamed so no two
// files are identical; and the shim kta parses with, as real files under work/shim for
// clang-tidy. Returns the kernels' paths.
std::vector<std::string> write_inputs(const fs::path& work, int files) {
  fs::path corpus = KTA_AUDIT_CORPUS_DIR;
  std::vector<fs::path> sources;
  for (const auto& e : fs::directory_iterator(corpus))
    if (e.path().extension() == ".hip") sources.push_back(e.path());
  std::sort(sources.begin(), sources.end());
  fs::remove_all(work);
  fs::create_directories(work / "kernels");
  fs::create_directories(work / "shim" / "hip");
  std::vector<std::string> paths;
  for (int i = 0; i < files; ++i) {
    const fs::path& src = sources[static_cast<size_t>(i) % sources.size()];
    fs::path dst = work / "kernels" / ("k" + std::to_string(i) + "_" + src.filename().string());
    std::ofstream(dst) << "// copy " << i << "\n" << read(src);
    paths.push_back(dst.string());
  }
  for (const auto& [path, text] : kta::analyzers::shim_files()) {
    fs::path rel =
        fs::path(std::string(path)).lexically_relative(std::string(kta::analyzers::kShimDir));
    fs::create_directories((work / "shim" / rel).parent_path());
    std::string body(text);
    std::string from = std::string(kta::analyzers::kShimDir);
    for (size_t at; (at = body.find(from)) != std::string::npos;)
      body.replace(at, from.size(), (work / "shim").string());
    std::ofstream(work / "shim" / rel) << body;
  }
  return paths;
}

// clang-tidy: `jobs` processes at once, each over its share of the files (what run-clang-tidy
// does).
std::string tidy_command(const fs::path& work, const std::vector<std::string>& paths, int jobs) {
  std::string tidy_args = " --quiet --checks=-*,misc-unused-parameters";
  std::string parse_args = " -- -x hip --cuda-host-only -nogpuinc -nogpulib -std=c++17 -isystem " +
                           quote((work / "shim").string()) + " -include kta_hip_shim.h -I " +
                           quote(KTA_RUNTIME_INCLUDE_DIR);
  std::string tidy_cmd = "(";
  for (int j = 0; j < jobs; ++j) {
    std::string share;
    for (size_t i = static_cast<size_t>(j); i < paths.size(); i += static_cast<size_t>(jobs))
      share += " " + quote(paths[i]);
    tidy_cmd += std::string(KTA_CLANG_TIDY) + tidy_args + share + parse_args + " > " +
                quote((work / ("tidy" + std::to_string(j) + ".out")).string()) + " 2>&1 & ";
  }
  return tidy_cmd + "wait)";
}

}  // namespace

int main(int argc, char** argv) {
  BenchArgs a;
  if (!parse_args(argc, argv, &a)) return 2;
  std::vector<std::string> paths = write_inputs(a.work, a.files);

  kta::analyzers::AuditOptions options;
  options.shapes = {{"N", {4096, 1048576}}, {"M", {128, 512}}, {"K", {64}}};
  options.all = true;
  options.jobs = static_cast<unsigned>(a.jobs);
  std::vector<fs::path> inputs(paths.begin(), paths.end());
  size_t findings = 0, failures = 0;
  auto run_kta = [&] {
    auto start = std::chrono::steady_clock::now();
    auto audits = kta::analyzers::audit_files(inputs, options);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    findings = failures = 0;
    for (const auto& au : audits) {
      findings += au.findings.size();
      failures += au.parse_errors.size() + !au.failure.empty();
    }
    return s;
  };
  const std::string tidy_cmd = tidy_command(a.work, paths, a.jobs);

  std::vector<double> kta_s, tidy_s;
  for (int r = 0; r < a.repeat; ++r) {  // interleaved, so both see the same machine load
    kta_s.push_back(run_kta());
    tidy_s.push_back(run_seconds(tidy_cmd));
  }
  double k = median(kta_s), t = median(tidy_s);
  std::printf("files: %d, parallel workers: %d, repeats: %d (median)\n", a.files, a.jobs, a.repeat);
  std::printf(
      "kta audit (7 checks)                      : %7.2f s  %7.1f files/s  (%zu findings, %zu "
      "errors)\n",
      k, a.files / k, findings, failures);
  std::printf("clang-tidy-16 (misc-unused-parameters)    : %7.2f s  %7.1f files/s\n", t,
              a.files / t);
  std::printf("kta audit / clang-tidy throughput ratio   : %7.2fx\n", t / k);
  return 0;
}

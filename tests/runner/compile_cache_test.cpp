// The python runners' persistent compile caches (issue 18, docs/python.md "Compile caches"): each
// role's runner compiles Triton kernels into a folder of its own under $KTA_CACHE_DIR/python,
// keyed by Triton version, device and module source; the trusted runner's folder does not exist
// for candidate code, so a candidate cannot plant a kernel the reference or the baseline later
// loads. On the cpu device no Triton kernel runs, so these tests read where each module's cache
// is (the compile reply) and what candidate code can do to the other role's folder; the Triton
// version comes from a fake distribution on PYTHONPATH where no real Triton is installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "engine/device/python/python_device.h"
#include "engine/ipc/worker_view.h"
#include "tests/support/time_scale.h"

namespace kta::engine {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// A folder of this test's own, removed at the end.
struct Scratch {
  Scratch() {
    path = fs::temp_directory_path() /
           ("kta-compile-cache-" + std::to_string(getpid()) + "-" + std::to_string(next++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
  static inline int next = 0;
};

// A fake Triton distribution (package metadata only) that importlib.metadata finds.
void fake_triton(const fs::path& site, const std::string& version) {
  fs::remove_all(site);
  write(site / ("triton-" + version + ".dist-info") / "METADATA",
        "Metadata-Version: 2.1\nName: triton\nVersion: " + version + "\n");
}

RunnerOptions options_with(const fs::path& cache_root, const fs::path& site = {}) {
  RunnerOptions o = runner_options(settings_from(process_environment()));
  o.cache_root = cache_root;
  if (!site.empty()) o.environment["PYTHONPATH"] = site.string();
  return o;
}

DeviceOptions device_options() {
  DeviceOptions o;
  o.launch_timeout_s = test::scaled_seconds(60);
  o.compile_timeout_s = test::scaled_seconds(120);
  return o;
}

// The compile reply of a module on a runner of `role`: {"ok", "module", "cache", "output"}.
json compile(RunnerPool& pool, DeviceRole role, const fs::path& file,
             const std::string& symbol = "identity") {
  auto d = pool.device(role, device_options());
  auto& runner = static_cast<PythonDevice&>(*d).runner();
  std::lock_guard lock(runner.mutex());
  json reply;
  runner.compile({{"op", "compile"},
                  {"flavor", "torch"},
                  {"mode", "function"},
                  {"file", file.string()},
                  {"symbol", symbol}},
                 device_options().compile_timeout_s, &reply);
  return reply;
}

const std::string kModule = "def identity(x):\n    return x.clone()\n";

TEST(CompileCache, KeyedByTritonVersionDeviceAndSource) {
  Scratch s;
  fake_triton(s.path / "site", "9.9.1");
  RunnerPool pool(options_with(s.path / "cache", s.path / "site"));
  write(s.path / "a" / "mod.py", kModule);
  write(s.path / "b" / "mod.py", kModule);  // the same source elsewhere
  write(s.path / "c" / "mod.py", kModule + "# another source\n");
  json a = compile(pool, DeviceRole::candidate, s.path / "a" / "mod.py");
  json b = compile(pool, DeviceRole::candidate, s.path / "b" / "mod.py");
  json c = compile(pool, DeviceRole::candidate, s.path / "c" / "mod.py");
  ASSERT_TRUE(a.value("ok", false)) << a.dump();
  fs::path dir = a.value("cache", std::string());
  EXPECT_EQ(dir.parent_path().parent_path(), s.path / "cache" / "candidate" / "triton-9.9.1")
      << dir;
  EXPECT_EQ(dir.parent_path().filename(), "cpu") << dir;
  EXPECT_TRUE(fs::is_directory(dir)) << dir;
  EXPECT_EQ(b.value("cache", std::string()), dir.string()) << "content-keyed: " << b.dump();
  EXPECT_NE(c.value("cache", std::string()), dir.string()) << c.dump();
  EXPECT_EQ(fs::path(c.value("cache", std::string())).parent_path(), dir.parent_path());
}

// Another Triton version is another folder: nothing compiled by the old one is read.
TEST(CompileCache, ATritonUpgradeStartsAFreshFolder) {
  Scratch s;
  write(s.path / "m" / "mod.py", kModule);
  std::string before, after;
  for (const char* version : {"9.9.1", "9.10.0"}) {
    fake_triton(s.path / "site", version);
    RunnerPool pool(options_with(s.path / "cache", s.path / "site"));
    json r = compile(pool, DeviceRole::trusted, s.path / "m" / "mod.py");
    ASSERT_TRUE(r.value("ok", false)) << r.dump();
    (before.empty() ? before : after) = r.value("cache", std::string());
  }
  EXPECT_NE(before.find("/triton-9.9.1/"), std::string::npos) << before;
  EXPECT_NE(after.find("/triton-9.10.0/"), std::string::npos) << after;
  EXPECT_EQ(fs::path(before).filename(), fs::path(after).filename());  // same source
}

// Candidate code tries to plant a file in the trusted runner's cache (the path is no secret: it
// is written into the module) and to see what is there; the folder does not exist for it and
// nothing reaches the real one, while its own cache folder is writable and persists. Without
// isolation the trusted runner has no persistent folder at all.
TEST(CompileCache, CandidateCodeCannotReachTheTrustedCache) {
  Scratch s;
  fake_triton(s.path / "site", "9.9.1");
  RunnerPool pool(options_with(s.path / "cache", s.path / "site"));
  write(s.path / "ref" / "ref.py", kModule);
  json trusted = compile(pool, DeviceRole::trusted, s.path / "ref" / "ref.py");
  ASSERT_TRUE(trusted.value("ok", false)) << trusted.dump();
  const fs::path trusted_dir = trusted.value("cache", std::string());
  if (!ipc::worker_isolation().sandboxed) {
    EXPECT_EQ(trusted_dir.string().find((s.path / "cache").string()), std::string::npos)
        << "without isolation the trusted cache must not persist: " << trusted_dir;
    GTEST_SKIP() << "no isolation here: " << ipc::worker_isolation().describe();
  }
  ASSERT_EQ(trusted_dir.string().rfind((s.path / "cache" / "trusted").string(), 0), 0u)
      << trusted_dir;
  const fs::path planted = trusted_dir / "planted.cubin";
  const std::string attack =
      "import os\n"
      "TARGET = " +
      json(planted.string()).dump() +
      "\n"
      "def try_write(path):\n"
      "    try:\n"
      "        os.makedirs(os.path.dirname(path), exist_ok=True)\n"
      "        with open(path, 'w') as f:\n"
      "            f.write('fast and wrong')\n"
      "        return 'written'\n"
      "    except OSError as e:\n"
      "        return 'refused (%s)' % e.strerror\n"
      "print('listing:', os.path.isdir(os.path.dirname(TARGET)))\n"
      "print('trusted:', try_write(TARGET))\n"
      "print('own:', try_write(os.path.join("
      "os.environ['TRITON_CACHE_DIR'], 'mine.cubin')))\n" +
      kModule;
  write(s.path / "cand" / "cand.py", attack);
  json cand = compile(pool, DeviceRole::candidate, s.path / "cand" / "cand.py");
  ASSERT_TRUE(cand.value("ok", false)) << cand.dump();
  const std::string out = cand.value("output", std::string());
  // The folder does not exist in its view; whatever the write did stayed in the view.
  EXPECT_NE(out.find("listing: False"), std::string::npos) << out;
  EXPECT_NE(out.find("own: written"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(planted));
  const fs::path own = cand.value("cache", std::string());
  EXPECT_EQ(own.string().rfind((s.path / "cache" / "candidate").string(), 0), 0u) << own;
  EXPECT_TRUE(fs::exists(own / "mine.cubin")) << own;
}

}  // namespace
}  // namespace kta::engine

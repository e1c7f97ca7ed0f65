// End-to-end: candidate code reaches nothing of the engine's. An adversarial vadd candidate
// (cases/isolation/probe.hip) tries, from inside its kernel, to read the run folder and
// results.db, to list, read and write the reference and compile caches and their keys, to read
// the engine's command line and environment through /proc, and to read the engine's
// environment variables; each probe that gets through marks one element of the output, so the
// task stays correct only when every probe failed. A control run (probe 0 opening /usr) proves
// the probes work. Then forged cache entries: a reference output and a compiled module replaced
// behind kta's back are rejected by name and recomputed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "engine/ipc/worker_view.h"
#include "tests/support/kta_cli.h"

namespace {

namespace fs = std::filesystem;
using kta::test::KtaRun;
using kta::test::run_kta;
using kta::test::slurp;
using nlohmann::json;

const fs::path kCases = KTA_TEST_CASES_DIR;

class Isolation : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-isolation-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    env = {{"KTA_CACHE_DIR", (dir / "cache").string()}, {"KTA_PROBE_CANARY", "engine-secret"}};
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir, ec);
  }

  // The probe candidate with the paths of this test compiled in, as the replay agent's solution.
  fs::path write_probe(const std::string& name, bool control) {
    std::string text = slurp(kCases / "isolation" / "probe.hip");
    std::string defines = "#define KTA_PROBE_RUN \"" + (dir / name).string() + "\"\n" +
                          "#define KTA_PROBE_CACHE \"" + (dir / "cache").string() + "\"\n" +
                          "#define KTA_PROBE_SOURCES \"" + kCases.string() + "\"\n";
    if (control) defines += "#define KTA_PROBE_CONTROL 1\n";
    const std::string include = "#include \"probe_paths.h\"";
    text.replace(text.find(include), text.find('\n', text.find(include)) - text.find(include),
                 defines);
    fs::path solutions = dir / ("solutions-" + name);
    fs::create_directories(solutions / "vadd");
    std::ofstream(solutions / "vadd" / "vadd.hip") << text;
    return solutions;
  }

  // `kta eval` of vadd with `solutions`; the task's entry of results.json.
  json eval(const std::string& name, const fs::path& solutions) {
    fs::path out = dir / name;
    KtaRun r = run_kta(KTA_BINARY, dir,
                       "eval " + (kCases / "vadd" / "vadd.kta").string() +
                           " --device cpu --quick --replay " + solutions.string() + " --output " +
                           out.string(),
                       env);
    EXPECT_EQ(r.status, 0) << r.err;
    json doc = json::parse(slurp(out / "results.json"), nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << r.err;
    if (doc.is_discarded() || doc["tasks"].empty()) return json::object();
    return doc["tasks"][0];
  }

  fs::path dir;
  kta::test::Env env;
};

std::string reason(const json& t) { return t.value("failure_reason", std::string()); }

// What a run's results.db holds, as text (its write-ahead log too, should it be left).
std::string db_text(const fs::path& run) {
  return slurp(run / "results.db") + slurp(run / "results.db-wal");
}

TEST_F(Isolation, TheControlProbeGetsThrough) {
  if (!kta::engine::ipc::worker_isolation().sandboxed)
    GTEST_SKIP() << "no worker isolation here: " << kta::engine::ipc::worker_isolation().why;
  json t = eval("control", write_probe("control", true));
  EXPECT_FALSE(t.value("correct", true));
  EXPECT_NE(reason(t).find("first at index 0"), std::string::npos) << reason(t);
}

TEST_F(Isolation, CandidateCodeReachesNothingOfTheEngines) {
  if (!kta::engine::ipc::worker_isolation().sandboxed)
    GTEST_SKIP() << "no worker isolation here: " << kta::engine::ipc::worker_isolation().why;
  // The hip device's kept code lives in the same cache folder (a run on a GPU made it).
  fs::create_directories(dir / "cache" / "hip");
  std::ofstream(dir / "cache" / "hip" / ".kta-key") << "a key no worker may read";
  json t = eval("probe", write_probe("probe", false));
  // "first at index K" names the probe that reached something.
  EXPECT_TRUE(t.value("correct", false)) << reason(t);
  EXPECT_EQ(reason(t).find("first at index"), std::string::npos) << reason(t);
  // Nothing was written where the candidate tried.
  EXPECT_FALSE(fs::exists(dir / "cache" / "reference" / "forged.bin"));
  EXPECT_FALSE(fs::exists(dir / "cache" / "cpu" / "forged.so"));
  EXPECT_FALSE(fs::exists(dir / "cache" / "hip" / "forged.code"));
  // The caches the run used are there and keyed, out of the worker's reach all the same.
  EXPECT_TRUE(fs::exists(dir / "cache" / "reference" / ".kta-key"));
  EXPECT_TRUE(fs::exists(dir / "cache" / "cpu" / ".kta-key"));
  // The run records how candidate code ran.
  std::string db = db_text(dir / "probe");
  EXPECT_NE(db.find("worker isolation: bubblewrap"), std::string::npos);
}

// Files of a cache folder with the given extension, sorted.
std::vector<fs::path> entries(const fs::path& folder, const std::string& ext) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec))
    if (e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(Isolation, ForgedReferenceCacheEntryIsRejectedByName) {
  const fs::path solutions = kCases / "solutions" / "wrong";
  ASSERT_TRUE(eval("first", solutions).value("compiled", false));
  auto refs = entries(dir / "cache" / "reference", ".bin");
  ASSERT_FALSE(refs.empty());
  // A forged reference output: one byte of the stored outputs changed, as a candidate that could
  // write the cache would, to make its own wrong outputs "correct" in a later run.
  std::string bytes = slurp(refs[0]);
  ASSERT_GT(bytes.size(), 100u);
  bytes[bytes.size() / 2] ^= 0x40;
  std::ofstream(refs[0], std::ios::binary | std::ios::trunc) << bytes;
  json t = eval("second", solutions);
  std::string db = db_text(dir / "second");
  std::string expected =
      "reference cache entry " + refs[0].filename().string() + " fails authentication; recomputed";
  EXPECT_NE(db.find(expected), std::string::npos) << expected;
  // The reference ran again: the recomputed entry is back, and it is not the forged one.
  EXPECT_TRUE(fs::exists(refs[0]));
  EXPECT_NE(slurp(refs[0]), bytes);
  EXPECT_EQ(t.value("compiled", false), true);
}

TEST_F(Isolation, ForgedCompileCacheEntryIsRejectedByName) {
  const fs::path solutions = kCases / "solutions" / "wrong";
  ASSERT_TRUE(eval("first", solutions).value("compiled", false));
  auto objects = entries(dir / "cache" / "cpu", ".so");
  ASSERT_GE(objects.size(), 2u);
  // A forged module: another kernel's valid object under this one's name (a slow baseline swapped
  // in for the real one would make any candidate look fast).
  fs::copy_file(objects[1], objects[0], fs::copy_options::overwrite_existing);
  // Without reference outputs the reference compiles again too: every object is looked up.
  fs::remove_all(dir / "cache" / "reference");
  json t = eval("second", solutions);
  std::string db = db_text(dir / "second");
  std::string expected =
      "compile cache entry " + objects[0].filename().string() + " fails authentication; recompiled";
  EXPECT_NE(db.find(expected), std::string::npos) << expected;
  EXPECT_NE(slurp(objects[0]), slurp(objects[1]));
  EXPECT_TRUE(t.value("compiled", false));
}

}  // namespace

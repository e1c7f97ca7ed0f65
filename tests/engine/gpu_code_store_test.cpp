// The hip device's compiled code kept across runs by the engine (engine/device/remote/
// code_store.h), on a GPU (label gpu; skipped without one, saying why): a second run with the same
// cache folder loads what the first built (the entries are not rewritten), and a forged or
// truncated entry is rejected by name and rebuilt. Without a GPU, worker.CodeStoreTest covers the
// same protocol against a scripted worker.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "engine/device/hip/hip_plugin_loader.h"
#include "tests/engine/gpu_run_dir.h"
#include "tests/support/kta_cli.h"

namespace {

namespace fs = std::filesystem;
using kta::test::KtaRun;
using kta::test::run_kta;
using kta::test::slurp;
using nlohmann::json;

class GpuCodeStore : public kta::test::GpuRunDir {
 protected:
  GpuCodeStore() : GpuRunDir("kta-gpu-code-") {}

  // The mix task (kernel-mode reference and baseline, a launcher candidate) with its starter.
  json eval(const std::string& name) {
    const fs::path file = fs::path(KTA_TEST_CASES_DIR) / "mix" / "mix.kta";
    KtaRun r =
        run_kta(KTA_BINARY, dir,
                "eval " + file.string() + " --device hip --quick --output " + (dir / name).string(),
                {{"KTA_CACHE_DIR", (dir / "cache").string()}});
    EXPECT_EQ(r.status, 0) << r.err;
    json doc = json::parse(slurp(dir / name / "results.json"), nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << r.err;
    if (doc.is_discarded() || doc["tasks"].empty()) return json::object();
    return doc["tasks"][0];
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir / "cache" / "hip", ec))
      if (e.path().extension() == ".code") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string db_text(const std::string& run) const {
    return slurp(dir / run / "results.db") + slurp(dir / run / "results.db-wal");
  }
};

TEST_F(GpuCodeStore, CodeBuiltInOneRunIsLoadedByTheNext) {
  ASSERT_TRUE(eval("first").value("correct", false));
  auto kept = entries();
  // Of the reference and the baseline (kernels) and the candidate (a launcher's library), what
  // clean workers built: at least the candidate's, compiled first in its worker, and one kernel.
  ASSERT_GE(kept.size(), 2u);
  EXPECT_TRUE(fs::exists(dir / "cache" / "hip" / ".kta-key"));
  std::vector<fs::file_time_type> written;
  for (const auto& e : kept) written.push_back(fs::last_write_time(e));
  ASSERT_TRUE(eval("second").value("correct", false));
  for (size_t i = 0; i < kept.size(); ++i) {
    ASSERT_TRUE(fs::exists(kept[i]));
    EXPECT_EQ(fs::last_write_time(kept[i]), written[i]) << kept[i] << " was built again";
  }
}

TEST_F(GpuCodeStore, AForgedOrTruncatedEntryIsRejectedByNameAndRebuilt) {
  ASSERT_TRUE(eval("first").value("correct", false));
  auto kept = entries();
  ASSERT_GE(kept.size(), 2u);
  // One entry changed in the middle, another cut short: what a worker able to reach the folder
  // might leave.
  std::string forged = slurp(kept[0]);
  forged[forged.size() / 2] ^= 0x20;
  std::ofstream(kept[0], std::ios::binary | std::ios::trunc) << forged;
  std::string truncated = slurp(kept[1]);
  truncated.resize(truncated.size() / 2);
  std::ofstream(kept[1], std::ios::binary | std::ios::trunc) << truncated;

  EXPECT_TRUE(eval("second").value("correct", false));
  const std::string db = db_text("second");
  for (const auto& e : {kept[0], kept[1]}) {
    const std::string note =
        "compile cache entry " + e.filename().string() + " fails authentication; recompiled";
    EXPECT_NE(db.find(note), std::string::npos) << note;
  }
  EXPECT_NE(slurp(kept[0]), forged);
  EXPECT_NE(slurp(kept[1]), truncated);
}

}  // namespace

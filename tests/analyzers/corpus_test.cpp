// The labelled corpus: precision and recall of the checks over kernels that overfit in
// different ways and kernels that are general (with must-not-warn traps).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzers/audit.h"

#ifndef KTA_AUDIT_CORPUS_DIR
#error "KTA_AUDIT_CORPUS_DIR must point at tests/analyzers/corpus"
#endif

namespace kta::analyzers {
namespace {

namespace fs = std::filesystem;

TEST(Corpus, PrecisionAndRecall) {
  fs::path dir = KTA_AUDIT_CORPUS_DIR;
  nlohmann::json manifest = nlohmann::json::parse(std::ifstream(dir / "manifest.json"));
  AuditOptions options;
  options.all = true;
  for (const auto& [name, values] : manifest.at("shapes").items())
    options.shapes[name] = values.get<std::vector<int64_t>>();

  std::vector<fs::path> files;
  std::vector<std::set<std::string>> expected;
  size_t overfit = 0, general = 0;
  for (const auto& [file, checks] : manifest.at("files").items()) {
    files.push_back(dir / file);
    expected.push_back(checks.get<std::set<std::string>>());
    (expected.back().empty() ? general : overfit)++;
  }
  ASSERT_GE(files.size(), 40u);
  EXPECT_GE(overfit, 20u);
  EXPECT_GE(general, 20u);

  std::vector<FileAudit> audits = audit_files(files, options);
  ASSERT_EQ(audits.size(), files.size());
  size_t tp = 0, fp = 0, fn = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_TRUE(audits[i].parse_errors.empty() && audits[i].failure.empty())
        << files[i] << " must parse:\n"
        << format_text({audits[i]});
    std::set<std::string> found;
    for (const Finding& f : audits[i].findings) found.insert(f.check);
    for (const std::string& c : found) {
      if (expected[i].count(c)) {
        ++tp;
      } else {
        ++fp;
        std::printf("false positive: %s %s\n", files[i].filename().c_str(), c.c_str());
      }
    }
    for (const std::string& c : expected[i])
      if (!found.count(c)) {
        ++fn;
        std::printf("missed:         %s %s\n", files[i].filename().c_str(), c.c_str());
      }
  }
  double precision = tp + fp ? double(tp) / double(tp + fp) : 1.0;
  double recall = tp + fn ? double(tp) / double(tp + fn) : 1.0;
  std::printf("corpus: %zu files (%zu overfit, %zu general), %zu expected findings\n", files.size(),
              overfit, general, tp + fn);
  std::printf("precision %.3f (%zu/%zu), recall %.3f (%zu/%zu)\n", precision, tp, tp + fp, recall,
              tp, tp + fn);
  EXPECT_GE(precision, 0.9);
  EXPECT_GE(recall, 0.85);
}

}  // namespace
}  // namespace kta::analyzers

// The labelled corpus: kernels that overfit in different ways and kernels that are general (with
// must-not-warn traps). Every finding of every file is compared in full (clang-style text, source
// line and caret) with NAME.expected beside NAME.hip; regenerate those with
//   KTA_UPDATE_GOLDEN=1 ctest -R analyzers.Corpus
// and review the diff. The manifest's labels (which checks must fire) give precision and recall.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzers/audit.h"
#include "tests/support/golden.h"

#ifndef KTA_AUDIT_CORPUS_DIR
#error "KTA_AUDIT_CORPUS_DIR must point at tests/analyzers/corpus"
#endif

namespace kta::analyzers {
namespace {

namespace fs = std::filesystem;

class Corpus : public ::testing::Test {
 protected:
  // The corpus is audited once for all tests (in forked children, as `kta audit` does).
  static void SetUpTestSuite() {
    const fs::path dir = KTA_AUDIT_CORPUS_DIR;
    nlohmann::json manifest = nlohmann::json::parse(std::ifstream(dir / "manifest.json"));
    AuditOptions options;
    options.all = true;
    for (const auto& [name, values] : manifest.at("shapes").items())
      options.shapes[name] = values.get<std::vector<int64_t>>();
    for (const auto& [file, checks] : manifest.at("files").items()) {
      files_.push_back(dir / file);
      labels_.push_back(checks.get<std::set<std::string>>());
    }
    audits_ = audit_files(files_, options);
  }

  static inline std::vector<fs::path> files_;
  static inline std::vector<std::set<std::string>> labels_;  // checks that must fire, per file
  static inline std::vector<FileAudit> audits_;
};

// The report of one file with the corpus folder left out, so the expectation names no machine's
// paths.
std::string report_without_folder(FileAudit a) {
  const std::string dir = a.file.parent_path().string() + "/";
  a.file = a.file.filename();
  for (Finding& f : a.findings)
    if (f.file.starts_with(dir)) f.file = f.file.substr(dir.size());
  for (std::string& e : a.parse_errors)
    if (e.starts_with(dir)) e = e.substr(dir.size());
  return format_text({a});
}

TEST_F(Corpus, FindingsMatchExpectedFiles) {
  ASSERT_EQ(audits_.size(), files_.size());
  std::set<std::string> stems;
  for (size_t i = 0; i < files_.size(); ++i) {
    EXPECT_TRUE(audits_[i].parse_errors.empty() && audits_[i].failure.empty())
        << files_[i] << " must parse:\n"
        << format_text({audits_[i]});
    fs::path expected = files_[i];
    test::expect_golden(expected.replace_extension(".expected"), report_without_folder(audits_[i]));
    stems.insert(files_[i].stem().string());
  }
  // No expectation outlives its kernel.
  for (const auto& e : fs::directory_iterator(fs::path(KTA_AUDIT_CORPUS_DIR))) {
    if (e.path().extension() != ".expected") continue;
    EXPECT_TRUE(stems.count(e.path().stem().string()))
        << e.path().filename() << " has no kernel in manifest.json";
  }
}

TEST_F(Corpus, PrecisionAndRecall) {
  size_t overfit = 0, general = 0;
  for (const auto& checks : labels_) (checks.empty() ? general : overfit)++;
  ASSERT_GE(files_.size(), 40u);
  EXPECT_GE(overfit, 20u);
  EXPECT_GE(general, 20u);

  ASSERT_EQ(audits_.size(), files_.size());
  size_t tp = 0, fp = 0, fn = 0;
  for (size_t i = 0; i < files_.size(); ++i) {
    EXPECT_TRUE(audits_[i].parse_errors.empty() && audits_[i].failure.empty())
        << files_[i] << " must parse:\n"
        << format_text({audits_[i]});
    std::set<std::string> found;
    for (const Finding& f : audits_[i].findings) found.insert(f.check);
    for (const std::string& c : found) {
      if (labels_[i].count(c)) {
        ++tp;
      } else {
        ++fp;
        std::printf("false positive: %s %s\n", files_[i].filename().c_str(), c.c_str());
      }
    }
    for (const std::string& c : labels_[i])
      if (!found.count(c)) {
        ++fn;
        std::printf("missed:         %s %s\n", files_[i].filename().c_str(), c.c_str());
      }
  }
  double precision = tp + fp ? double(tp) / double(tp + fp) : 1.0;
  double recall = tp + fn ? double(tp) / double(tp + fn) : 1.0;
  std::printf("corpus: %zu files (%zu overfit, %zu general), %zu expected findings\n",
              files_.size(), overfit, general, tp + fn);
  std::printf("precision %.3f (%zu/%zu), recall %.3f (%zu/%zu)\n", precision, tp, tp + fp, recall,
              tp, tp + fn);
  EXPECT_GE(precision, 0.9);
  EXPECT_GE(recall, 0.85);
}

}  // namespace
}  // namespace kta::analyzers

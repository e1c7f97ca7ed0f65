// Report formats: clang-style text (golden, caret included), JSON, SARIF 2.1.0 structure.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analyzers/audit.h"

namespace kta::analyzers {
namespace {

using nlohmann::json;

std::vector<FileAudit> sample() {
  FileAudit a;
  a.file = "kernels/k.hip";
  a.findings.push_back({"kta-shape-literal", "error", "kernels/k.hip", 3, 23,
                        "literal 4096 in a comparison equals the visible shape value N; unseen "
                        "shapes will not match it "
                        "(derive it from a size parameter)",
                        "\tfor (int i = 0; i < 4096; ++i) y[i] = n;"});
  a.findings.push_back({"kta-hardcoded-warp-size", "warning", "kernels/k.hip", 7, 5,
                        "shuffle width 32 is a hard-coded warp size (use warpSize)", ""});
  a.parse_errors.push_back("kernels/k.hip:9:1: error: expected '}'");
  FileAudit b;
  b.file = "kernels/with space.hip";
  b.failure = "the analyzer crashed on this file (signal 11: Segmentation fault)";
  return {a, b};
}

TEST(Report, TextIsClangStyleWithCaret) {
  EXPECT_EQ(format_text(sample()),
            "kernels/k.hip:9:1: error: expected '}'\n"
            "kernels/k.hip:3:23: error: literal 4096 in a comparison equals the visible shape "
            "value N; unseen shapes will "
            "not match it (derive it from a size parameter) [kta-shape-literal]\n"
            "\tfor (int i = 0; i < 4096; ++i) y[i] = n;\n"
            "\t                     ^\n"
            "kernels/k.hip:7:5: warning: shuffle width 32 is a hard-coded warp size (use warpSize) "
            "[kta-hardcoded-warp-size]\n"
            "kernels/with space.hip: error: the analyzer crashed on this file (signal 11: "
            "Segmentation fault)\n"
            "2 files audited: 3 errors, 1 warning\n");
}

TEST(Report, JsonRoundTripsEveryField) {
  json j = json::parse(format_json(sample()));
  EXPECT_EQ(j["tool"], "kta-audit");
  ASSERT_EQ(j["files"].size(), 2u);
  const json& f = j["files"][0]["findings"][0];
  EXPECT_EQ(f["check"], "kta-shape-literal");
  EXPECT_EQ(f["severity"], "error");
  EXPECT_EQ(f["line"], 3);
  EXPECT_EQ(f["column"], 23);
  EXPECT_EQ(j["files"][0]["parse_errors"][0], "kernels/k.hip:9:1: error: expected '}'");
  EXPECT_EQ(j["files"][1]["failure"],
            "the analyzer crashed on this file (signal 11: Segmentation fault)");
  EXPECT_EQ(j["summary"]["errors"], 3);
  EXPECT_EQ(j["summary"]["warnings"], 1);
}

// The required properties of the SARIF 2.1.0 schema (sarif-schema-2.1.0.json) for what kta emits:
// sarifLog{version, runs}, run{tool}, tool{driver}, toolComponent{name},
// reportingDescriptor{id}, result{message}, message{text|id}, artifactLocation/region shapes,
// invocation{executionSuccessful}, notification{message}.
TEST(Report, SarifHasTheSchemaRequiredFields) {
  json s = json::parse(format_sarif(sample()));
  EXPECT_EQ(s["version"], "2.1.0");
  EXPECT_EQ(s["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_TRUE(s["runs"].is_array());
  ASSERT_EQ(s["runs"].size(), 1u);
  const json& run = s["runs"][0];
  const json& driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"], "kta-audit");
  ASSERT_TRUE(driver["rules"].is_array());
  std::vector<std::string> ids;
  for (const json& r : driver["rules"]) {
    ASSERT_TRUE(r["id"].is_string());
    ASSERT_TRUE(r["shortDescription"]["text"].is_string());
    ids.push_back(r["id"]);
  }
  for (const CheckInfo& c : check_catalog())
    EXPECT_NE(std::find(ids.begin(), ids.end(), c.name), ids.end()) << c.name;

  ASSERT_TRUE(run["results"].is_array());
  ASSERT_EQ(run["results"].size(), 3u);  // two findings and one parse error
  for (const json& r : run["results"]) {
    ASSERT_TRUE(r["ruleId"].is_string());
    ASSERT_TRUE(r["ruleIndex"].is_number_unsigned());
    EXPECT_EQ(driver["rules"][r["ruleIndex"].get<size_t>()]["id"], r["ruleId"]);
    EXPECT_TRUE(r["level"] == "error" || r["level"] == "warning" || r["level"] == "note");
    ASSERT_TRUE(r["message"]["text"].is_string());
    ASSERT_TRUE(r["locations"].is_array());
    const json& loc = r["locations"][0]["physicalLocation"];
    ASSERT_TRUE(loc["artifactLocation"]["uri"].is_string());
    ASSERT_TRUE(loc["region"]["startLine"].is_number_integer());
    EXPECT_GE(loc["region"]["startLine"].get<int>(), 1);
  }
  const json& first = run["results"][0];
  EXPECT_EQ(first["ruleId"], "kta-shape-literal");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "kernels/k.hip");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["region"]["startLine"], 3);
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["region"]["startColumn"], 23);
  const json& parse = run["results"][2];
  EXPECT_EQ(parse["ruleId"], "clang-diagnostic-error");
  EXPECT_EQ(parse["message"]["text"], "expected '}'");
  EXPECT_EQ(parse["locations"][0]["physicalLocation"]["region"]["startLine"], 9);

  ASSERT_EQ(run["artifacts"].size(), 2u);
  EXPECT_EQ(run["artifacts"][1]["location"]["uri"], "kernels/with%20space.hip");
  const json& inv = run["invocations"][0];
  EXPECT_EQ(inv["executionSuccessful"], false);
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["message"]["text"],
            "the analyzer crashed on this file (signal 11: Segmentation fault)");
}

TEST(Report, ReachesFollowsTheFailOnLevel) {
  FileAudit w;
  w.findings.push_back({"kta-hardcoded-warp-size", "warning", "f", 1, 1, "m", ""});
  EXPECT_TRUE(reaches({w}, "warning"));
  EXPECT_FALSE(reaches({w}, "error"));
  FileAudit e;
  e.parse_errors.push_back("f:1:1: error: x");
  EXPECT_TRUE(reaches({e}, "error"));
  EXPECT_FALSE(reaches({FileAudit{}}, "warning"));
}

}  // namespace
}  // namespace kta::analyzers

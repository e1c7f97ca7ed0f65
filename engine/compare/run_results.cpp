#include "engine/compare/run_results.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "engine/report/run_document.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw RunInputError(fmt::format("cannot read '{}'", p.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

RunResults parse_run(const std::string& json_text, const fs::path& origin) {
  RunDocument doc;
  try {
    doc = parse_run_document(json_text, origin);
  } catch (const RunDocumentError& e) {
    throw RunInputError(e.what());
  }
  RunResults r;
  r.file = origin;
  r.kta_version = doc.kta_version;
  r.plan = doc.plan;
  r.plan_hash = doc.plan_hash;
  r.device = doc.device;
  r.started = doc.started;
  r.tasks = std::move(doc.tasks);
  return r;
}

RunResults load_run(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw RunInputError(fmt::format("no run folder or results file '{}'", path.string()));
  fs::path file = path;
  if (fs::is_directory(path, ec)) {
    file = path / "results.json";
    if (!fs::exists(file, ec)) {
      if (fs::exists(path / "results.db", ec))
        throw RunInputError(
            fmt::format("'{}' has results.db but no results.json: the run did not finish; "
                        "`kta eval --resume` completes it and writes results.json",
                        path.string()));
      throw RunInputError(
          fmt::format("'{}' is not a kta run folder (no results.json)", path.string()));
    }
  }
  return parse_run(slurp(file), file);
}

}  // namespace kta::engine

// FileAudit <-> JSON: the shape of `kta audit --format json` and of what an audit child sends
// back to its parent.
#pragma once

#include <nlohmann/json.hpp>

#include "analyzers/audit.h"

namespace kta::analyzers {

nlohmann::json to_json(const Finding& f);
nlohmann::json to_json(const FileAudit& a);
FileAudit from_json_audit(const nlohmann::json& j);

}  // namespace kta::analyzers

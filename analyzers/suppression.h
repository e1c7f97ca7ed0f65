// Suppressions: `// kta-audit: allow(check-name): reason` on a finding's line, or on the
// comment lines right above it, silences that check there. One without a reason, or naming no
// known check, is itself reported (as kta-audit-suppression).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzers/audit.h"

namespace kta::analyzers {

inline constexpr std::string_view kSuppressionCheck = "kta-audit-suppression";

// Removes suppressed findings from `findings` and appends a warning for each malformed
// suppression comment in `text` (the file's contents).
void apply_suppressions(const std::string& file, std::string_view text,
                        const std::vector<std::string>& known_checks,
                        std::vector<Finding>& findings);

}  // namespace kta::analyzers
